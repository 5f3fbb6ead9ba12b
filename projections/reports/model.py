"""The report of one game, per turn or per round, read from the views.

The report is a plain JSON-able dict (its fields are documented in the
README and are stable): every renderer (text, Markdown, CSV, HTML, JSON)
reads it, and nothing in it depends on the clock or on hash order, so the
same game always gives the same bytes. What the game counts, its score and
its period come from its :class:`~domain.games.GameRules` in the registry.
"""

from __future__ import annotations

import json
from typing import Any

from domain.games import GAMES
from domain.measures import Measures

SEVERITIES = ("violation", "unverifiable", "warning")


class GameNotInViews(Exception):
    """Raised when the views hold no game of that id."""


def _rows(cursor: Any, sql: str, *params: Any) -> list[tuple]:
    cursor.execute(sql, params)
    return [tuple(r) for r in cursor.fetchall()]


def build_report(cursor: Any, game_id: str, by: str | None = None) -> dict[str, Any]:
    """The report of ``game_id`` grouped by ``turn`` or ``round`` (the game's own period by default).

    Raises :class:`GameNotInViews` when the views don't know the game.
    """
    found = _rows(cursor, "SELECT context FROM view_context WHERE game = ?", game_id)
    if not found:
        raise GameNotInViews(game_id)
    context = json.loads(found[0][0])
    game = context["game"]
    rules = GAMES[game]
    by = by or rules.period
    lines = _rows(cursor, "SELECT line, turn, round, player, type, text, voided FROM view_lines WHERE game = ? ORDER BY line", game_id)
    tracks = _rows(cursor, "SELECT seq, line, subject, measure, delta, value, rule, reason FROM view_tracks WHERE game = ? ORDER BY seq", game_id)
    findings = _rows(cursor, "SELECT seq, line, rule, severity, player, message FROM view_findings WHERE game = ? ORDER BY seq", game_id)
    result = _rows(cursor, "SELECT line, winner, rule, reason FROM view_results WHERE game = ?", game_id)
    counts = {s: sum(1 for f in findings if f[3] == s) for s in SEVERITIES}
    return {
        "game": game,
        "id": game_id,
        "players": context["players"],
        "by": by,
        "score": rules.measures.score_name,
        "goal": context["goal"],
        "result": _result(result),
        "findings": counts,
        "opening": _standings(rules.measures, context["players"], _opening(tracks)),
        "periods": _periods(rules.measures, context["players"], by, lines, tracks, findings),
    }


def _result(rows: list[tuple]) -> dict[str, Any]:
    if not rows:
        return {"finished": False, "winner": None, "line": None, "rule": None, "reason": None}
    line, winner, rule, reason = rows[0]
    return {"finished": True, "winner": winner, "line": line, "rule": rule, "reason": reason}


def _periods(measures: Measures, players: list[str], by: str, lines: list[tuple], tracks: list[tuple],
             findings: list[tuple]) -> list[dict[str, Any]]:
    key = 1 if by == "turn" else 2
    changes_at: dict[int, list[dict]] = {}
    for seq, line, subject, measure, delta, value, rule, reason in tracks:
        changes_at.setdefault(line, []).append(
            {"subject": subject, "measure": measure, "delta": delta, "value": value, "rule": rule, "reason": reason})
    findings_at: dict[int, list[dict]] = {}
    for seq, line, rule, severity, player, message in findings:
        findings_at.setdefault(line, []).append({"rule": rule, "severity": severity, "player": player, "message": message})
    periods: list[dict[str, Any]] = []
    for row in lines:
        number = row[key] or 0
        if not periods or periods[-1]["number"] != number:
            periods.append({"number": number, "players": [], "first_line": row[0], "last_line": row[0], "lines": []})
        period = periods[-1]
        line, _, _, player, kind, text, voided = row
        period["last_line"] = line
        if player and player not in period["players"]:
            period["players"].append(player)
        period["lines"].append({"line": line, "player": player, "type": kind, "text": text, "voided": bool(voided),
                                "changes": changes_at.get(line, []), "findings": findings_at.get(line, [])})
    # One pass over the tracks, in step with the periods: each period's standings are the totals after its last line.
    values: dict[tuple[str, str], int] = {}
    pending = iter(tracks)
    upcoming = next(pending, None)
    for period in periods:
        while upcoming is not None and upcoming[1] <= period["last_line"]:
            values[(upcoming[2], upcoming[3])] = upcoming[5]
            upcoming = next(pending, None)
        period["standings"] = _standings(measures, players, values)
        # "forum" is the stable JSON field of a game's board counts (null for a game without a board).
        period["forum"] = measures.board.counts(values) if measures.board else None
    return periods


def _opening(tracks: list[tuple]) -> dict[tuple[str, str], int]:
    """Each (subject, measure)'s total after the setup, before any line of play."""
    return {(subject, measure): value for _, _, subject, measure, _, value, rule, _ in tracks if rule == "setup"}


def _standings(measures: Measures, players: list[str], values: dict[tuple[str, str], int]) -> dict[str, dict[str, int]]:
    return {player: measures.standing(player, values) for player in players}
