"""The audit of one game, read from the views: every finding with its rule, and how each score was made.

``build_audit`` gives ``audit --format json``'s document
(:class:`~projections.reports.documents.Audit`): ``findings`` (each with the
rule's text, whether the seeds state it, and what the log says on that
line), ``scores`` (per player, the total and the entries that make it, each
pointing at its line, with a running total), and ``corrections``. A ``CLAIM``
finding carries the derivation of the claimed score up to its line, so it can
be checked against the table's own count; a finding that a later correction
made moot carries that correction's line (``moot_by``).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import islice, takewhile
from typing import Any, Iterable, Iterator

from gamelog.domain.engine import UNVERIFIABLE
from gamelog.domain.games import GAMES
from gamelog.domain.messages import not_recorded
from gamelog.domain.ruletext import rule
from gamelog.projections.reports.documents import Audit, AuditFinding, CorrectionEntry, Score, ScoreEntry
from gamelog.projections.reports.model import finding_counts, paged, read_context
from gamelog.projections.views.rows import CorrectionRow, FindingRow, MootRow, ChangeRow, select


def _score_measures(game: str) -> tuple[str, ...]:
    return tuple(GAMES[game].measures.score)


def _entries(rows: Iterable[ChangeRow], measures: tuple[str, ...]) -> Iterator[tuple[str, ScoreEntry]]:
    """(player, entry) for each score track row in order, each entry with its player's running total."""
    totals: dict[str, int] = {}
    for row in rows:
        total = totals[row.subject] = totals.get(row.subject, 0) + row.delta
        # A score of several measures says which one moved; a score of one needs no name.
        source = f"{row.measure.replace('_', ' ')}: {row.reason}" if len(measures) > 1 else row.reason
        yield row.subject, ScoreEntry(line=row.line, points=row.delta, source=source, rule=row.rule, total=total)


def _score_rows(cursor: Any, game: str, game_id: str, player: str | None = None) -> Iterator[ChangeRow]:
    measures = _score_measures(game)
    where = f"measure IN ({', '.join('?' * len(measures))})" + ("" if player is None else " AND subject = ?")
    return paged(cursor, ChangeRow, game_id, "seq", where, *measures, *(() if player is None else (player,)))


def player_entries(cursor: Any, game: str, game_id: str, player: str) -> Iterator[ScoreEntry]:
    """Every change of ``player``'s score in order, with the running total, read a page at a time."""
    for _, entry in _entries(_score_rows(cursor, game, game_id, player), _score_measures(game)):
        yield entry


@dataclass
class AuditParts:
    """An audit read as it is written: ``head`` is the document without its findings, scores and corrections
    (empty), which the methods give a page at a time; ``counts`` the findings by severity, ``totals`` each
    player's score."""

    cursor: Any
    head: Audit
    players: list[str]
    counts: dict[str, int]
    totals: dict[str, int]

    def findings(self) -> Iterator[AuditFinding]:
        """Every finding in order, with its rule's text, its line's words, a CLAIM's derivation, and ``moot_by``."""
        cursor, game_id = self.cursor, self.head.id
        moot = {(m.about, m.rule, m.severity, m.player, m.message): m.line
                for m in select(cursor, MootRow, "game = ? ORDER BY line", game_id)}
        corrections = {row.line for row in select(cursor, CorrectionRow, "game = ?", game_id)} if moot else set()
        for rows in _batches(paged(cursor, FindingRow, game_id, "seq")):
            said = _said(cursor, game_id, {row.line for row in rows})
            for row in rows:
                text = rule(row.rule)
                finding = AuditFinding(line=row.line, rule=row.rule, severity=row.severity, player=row.player,
                                       message=row.message, rule_text=text.text, in_seeds=text.in_seeds,
                                       rule_from=text.rule_from,
                                       log=said.get(row.line))
                if row.rule == "CLAIM" and row.player is not None:
                    # seq order is line order (the store keeps events in line order): stop past the claim's line.
                    finding.derivation = list(takewhile(lambda e: e.line <= row.line,
                                                        player_entries(cursor, self.head.game, game_id, row.player)))
                lacking = not_recorded(row.message) if row.severity == UNVERIFIABLE else None
                if lacking is not None:
                    finding.not_recorded = lacking[0].replace(" ", "_")
                moot_by = moot.get((row.line, row.rule, row.severity, row.player, row.message))
                if moot_by is not None:
                    finding.moot_by = moot_by
                    finding.moot_why = (f"since the correction at line {moot_by}, the log decided again no longer "
                                        "raises it" if moot_by in corrections else
                                        f"the log goes on at line {moot_by}, where the rule decides it again")
                yield finding

    def corrections(self) -> Iterator[CorrectionEntry]:
        """Every correction in line order, with what the voided line said."""
        for rows in _batches(paged(self.cursor, CorrectionRow, self.head.id, "line")):
            said = _said(self.cursor, self.head.id, {row.voided for row in rows})
            for row in rows:
                yield CorrectionEntry(line=row.line, voids=row.voided, reason=row.reason, voided_line=said.get(row.voided))

    def entries(self, player: str) -> Iterator[ScoreEntry]:
        return player_entries(self.cursor, self.head.game, self.head.id, player)


BATCH = 500
"""Findings or corrections whose lines' words are read in one query."""


def _batches(rows: Iterator[Any]) -> Iterator[list[Any]]:
    while batch := list(islice(rows, BATCH)):
        yield batch


def _said(cursor: Any, game_id: str, lines: set[int]) -> dict[int, str]:
    """What the log says on each of ``lines`` (those the views hold)."""
    if not lines:
        return {}
    cursor.execute(f"SELECT line, text FROM view_lines WHERE game = ? AND line IN ({', '.join('?' * len(lines))})",
                   (game_id, *sorted(lines)))
    return {line: text for line, text in cursor.fetchall()}


def audit_parts(cursor: Any, game_id: str, player: str | None = None, fingerprint: str = "") -> AuditParts:
    """The audit of ``game_id`` (only ``player``'s score with ``player``), to be read as it is written.

    Raises :class:`~projections.reports.model.GameNotInViews` for an unknown game.
    """
    context = read_context(cursor, game_id)
    game = context["game"]
    measures = _score_measures(game)
    counts = finding_counts(cursor, game_id)
    cursor.execute(f"SELECT subject, SUM(delta) FROM view_tracks WHERE game = ? AND measure IN "
                   f"({', '.join('?' * len(measures))}) GROUP BY subject", (game_id, *measures))
    totals = {subject: int(total) for subject, total in cursor.fetchall()}  # PostgreSQL sums to a decimal
    players = [player] if player else context["players"]
    head = Audit(game=game, id=game_id, score=GAMES[game].measures.score_name, findings=[], scores={}, corrections=[],
                 fingerprint=fingerprint)
    return AuditParts(cursor, head, players, counts, {p: totals.get(p, 0) for p in players})


def build_audit(cursor: Any, game_id: str, player: str | None = None, fingerprint: str = "") -> Audit:
    """The audit document of ``game_id`` (only ``player``'s score with ``player``), with its ``fingerprint``, whole.

    Raises :class:`~projections.reports.model.GameNotInViews` for an unknown game.
    """
    parts = audit_parts(cursor, game_id, player, fingerprint)
    audit = parts.head
    audit.findings = list(parts.findings())
    audit.scores = {p: Score(total=parts.totals[p], entries=list(parts.entries(p))) for p in parts.players}
    audit.corrections = list(parts.corrections())
    return audit
