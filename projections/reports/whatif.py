"""What if some lines had not counted: the difference between two reports of one game.

``compare`` takes the report (``reports.model``) of the game as recorded and
of the game replayed without some lines (``domain.replay.without``) and says
what changes: findings that go or come, the standings of every turn or round
where they differ, and the end and the winner.
"""

from __future__ import annotations

from typing import Any


def _finding_keys(report: dict[str, Any]) -> dict[tuple, dict[str, Any]]:
    out = {}
    for period in report["periods"]:
        for line in period["lines"]:
            for f in line["findings"]:
                out[(line["line"], f["rule"], f["severity"], f["message"])] = {"line": line["line"], **f}
    return out


def compare(actual: dict[str, Any], what_if: dict[str, Any], without: list[int]) -> dict[str, Any]:
    """What changes when the lines ``without`` are void, as one JSON-able document."""
    before, after = _finding_keys(actual), _finding_keys(what_if)
    periods_after = {p["number"]: p for p in what_if["periods"]}
    standings = []
    for period in actual["periods"]:
        other = periods_after.get(period["number"])
        other_standings = other["standings"] if other else None
        if other_standings != period["standings"]:
            standings.append({actual["by"]: period["number"], "actual": period["standings"], "what_if": other_standings})
    return {
        "game": actual["game"],
        "id": actual["id"],
        "without": without,
        "score": actual["score"],
        "findings_gone": [before[k] for k in sorted(before.keys() - after.keys())],
        "findings_new": [after[k] for k in sorted(after.keys() - before.keys())],
        "standings": standings,
        "result": {"actual": actual["result"], "what_if": what_if["result"]},
        "winner_changes": actual["result"]["winner"] != what_if["result"]["winner"]
                          or actual["result"]["finished"] != what_if["result"]["finished"],
    }
