"""The audit of one game, read from the views: every finding with its rule, and how each score was made.

``build_audit`` gives CLI.md's ``audit --format json`` document: ``findings``
(each with the rule's text, whether the seeds state it, and what the log
says on that line), ``scores`` (per player, the total and the entries that
make it, each pointing at its line, with a running total), and
``corrections``. A ``CLAIM`` finding carries the derivation of the claimed
score up to its line, so it can be checked against the table's own count.
"""

from __future__ import annotations

import json
from typing import Any

from domain.games import GAMES
from domain.ruletext import rule
from projections.reports.model import GameNotInViews


def _rows(cursor: Any, sql: str, *params: Any) -> list[tuple]:
    cursor.execute(sql, params)
    return [tuple(r) for r in cursor.fetchall()]


def _context(cursor: Any, game_id: str) -> dict[str, Any]:
    found = _rows(cursor, "SELECT context FROM view_context WHERE game = ?", game_id)
    if not found:
        raise GameNotInViews(game_id)
    return json.loads(found[0][0])


def score_entries(cursor: Any, game: str, game_id: str) -> dict[str, list[dict[str, Any]]]:
    """Per player, every change of their score (VP, or net worth) in order, with the running total."""
    measures = GAMES[game].measures.score
    rows = _rows(cursor, "SELECT line, subject, measure, delta, rule, reason FROM view_tracks WHERE game = ? "
                         f"AND measure IN ({', '.join('?' * len(measures))}) ORDER BY seq", game_id, *measures)
    out: dict[str, list[dict[str, Any]]] = {}
    for line, player, measure, delta, rule_id, reason in rows:
        entries = out.setdefault(player, [])
        total = (entries[-1]["total"] if entries else 0) + delta
        # A score of several measures says which one moved; a score of one needs no name.
        source = f"{measure.replace('_', ' ')}: {reason}" if len(measures) > 1 else reason
        entries.append({"line": line, "points": delta, "source": source, "rule": rule_id, "total": total})
    return out


def build_audit(cursor: Any, game_id: str, player: str | None = None) -> dict[str, Any]:
    """The audit document of ``game_id`` (only ``player``'s score with ``player``).

    Raises :class:`~projections.reports.model.GameNotInViews` for an unknown game.
    """
    context = _context(cursor, game_id)
    game = context["game"]
    said = dict(_rows(cursor, "SELECT line, text FROM view_lines WHERE game = ?", game_id))
    entries = score_entries(cursor, game, game_id)
    findings = []
    for line, rule_id, severity, who, message in _rows(
            cursor, "SELECT line, rule, severity, player, message FROM view_findings WHERE game = ? ORDER BY seq", game_id):
        text = rule(rule_id)
        finding = {"line": line, "rule": rule_id, "severity": severity, "player": who, "message": message,
                   "rule_text": text.text, "in_seeds": text.in_seeds, "log": said.get(line)}
        if rule_id == "CLAIM" and who is not None:
            finding["derivation"] = [e for e in entries.get(who, []) if e["line"] <= line]
        findings.append(finding)
    players = [player] if player else context["players"]
    return {
        "game": game,
        "id": game_id,
        "score": GAMES[game].measures.score_name,
        "findings": findings,
        "scores": {p: {"total": entries[p][-1]["total"] if entries.get(p) else 0, "entries": entries.get(p, [])}
                   for p in players},
        "corrections": [{"line": line, "voids": voided, "reason": reason, "voided_line": said.get(voided)}
                        for line, voided, reason in _rows(
                            cursor, "SELECT line, voided, reason FROM view_corrections WHERE game = ? ORDER BY line", game_id)],
    }
