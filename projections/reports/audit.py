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

from typing import Any

from domain.games import GAMES
from domain.ruletext import rule
from projections.reports.documents import Audit, AuditFinding, Correction, Score, ScoreEntry
from projections.reports.model import read_context
from projections.views.rows import CorrectionRow, FindingRow, LineRow, MootRow, TrackRow, select


def score_entries(cursor: Any, game: str, game_id: str) -> dict[str, list[ScoreEntry]]:
    """Per player, every change of their score (VP, or net worth) in order, with the running total."""
    measures = GAMES[game].measures.score
    rows = select(cursor, TrackRow, f"game = ? AND measure IN ({', '.join('?' * len(measures))}) ORDER BY seq",
                  game_id, *measures)
    out: dict[str, list[ScoreEntry]] = {}
    for row in rows:
        entries = out.setdefault(row.subject, [])
        total = (entries[-1].total if entries else 0) + row.delta
        # A score of several measures says which one moved; a score of one needs no name.
        source = f"{row.measure.replace('_', ' ')}: {row.reason}" if len(measures) > 1 else row.reason
        entries.append(ScoreEntry(line=row.line, points=row.delta, source=source, rule=row.rule, total=total))
    return out


def build_audit(cursor: Any, game_id: str, player: str | None = None, fingerprint: str = "") -> Audit:
    """The audit document of ``game_id`` (only ``player``'s score with ``player``), with its ``fingerprint``.

    Raises :class:`~projections.reports.model.GameNotInViews` for an unknown game.
    """
    context = read_context(cursor, game_id)
    game = context["game"]
    said = {row.line: row.text for row in select(cursor, LineRow, "game = ?", game_id)}
    entries = score_entries(cursor, game, game_id)
    moot = {(m.about, m.rule, m.severity, m.player, m.message): m.line
            for m in select(cursor, MootRow, "game = ? ORDER BY line", game_id)}
    findings = []
    for row in select(cursor, FindingRow, "game = ? ORDER BY seq", game_id):
        text = rule(row.rule)
        finding = AuditFinding(line=row.line, rule=row.rule, severity=row.severity, player=row.player, message=row.message,
                               rule_text=text.text, in_seeds=text.in_seeds, log=said.get(row.line))
        if row.rule == "CLAIM" and row.player is not None:
            finding.derivation = [e for e in entries.get(row.player, []) if e.line <= row.line]
        moot_by = moot.get((row.line, row.rule, row.severity, row.player, row.message))
        if moot_by is not None:
            finding.moot_by = moot_by
        findings.append(finding)
    players = [player] if player else context["players"]
    return Audit(
        game=game,
        id=game_id,
        score=GAMES[game].measures.score_name,
        findings=findings,
        scores={p: Score(total=entries[p][-1].total if entries.get(p) else 0, entries=entries.get(p, [])) for p in players},
        corrections=[Correction(line=row.line, voids=row.voided, reason=row.reason, voided_line=said.get(row.voided))
                     for row in select(cursor, CorrectionRow, "game = ? ORDER BY line", game_id)],
        fingerprint=fingerprint,
    )
