"""``gamelog replay GAME``: the state after a line, a turn or a round (the end by default)."""

from __future__ import annotations

import json
from typing import Any

import click

from cli.errors import InputProblem
from cli.sources import load_game, store_option
from domain.engine import GameState
from domain.replay import PointNotReached, state_at


def replay_json(game: str, game_id: str, state: GameState) -> dict[str, Any]:
    """The state as CLI.md's ``replay --format json`` documents it."""
    body = state.to_json()
    out: dict[str, Any] = {
        "game": game,
        "id": game_id,
        "line": state.line,
        "turn": state.turn or None,
        "round": getattr(state, "round", None),
        "finished": state.ended is not None,
        "winner": state.ended.winner if state.ended else None,
        "players": body.pop("players"),
        "forum": body.pop("forum", None),
    }
    if state.ended is not None:
        out["end"] = {"line": state.ended.line, "rule": state.ended.rule, "reason": state.ended.reason}
    out["voided_lines"] = sorted(state.voided)
    out.update(body)
    return out


@click.command()
@click.argument("game")
@click.option("--line", type=click.IntRange(min=1), help="The state after this log line.")
@click.option("--turn", type=click.IntRange(min=1), help="The state at the end of this turn (counted from 1).")
@click.option("--round", "round_", type=click.IntRange(min=1), help="The state at the end of this round (in a game played in rounds).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@store_option
def replay(game: str, line: int | None, turn: int | None, round_: int | None, fmt: str, store: str) -> None:
    """Show what GAME looked like after a line, turn or round (the end by default).

    GAME is a log file (read in memory, nothing stored) or a stored game's id.
    """
    if sum(x is not None for x in (line, turn, round_)) > 1:
        raise click.UsageError("give at most one of --line, --turn and --round")
    source = load_game(game, store)
    try:
        state = state_at(source.game, source.events, line=line, turn=turn, round=round_)
    except PointNotReached as exc:
        raise InputProblem(f"{game}: {exc}") from exc
    document = replay_json(source.game, source.id, state)
    if fmt == "json":
        click.echo(json.dumps(document, ensure_ascii=False))
    else:
        click.echo(_text(document))


def _text(doc: dict[str, Any]) -> str:
    where = f"line {doc['line']}" + (f", turn {doc['turn']}" if doc.get("turn") else "") + (
        f", round {doc['round']}" if doc.get("round") else "")
    lines = [f"{doc['game']} {doc['id']!r} after {where}"]
    if doc["finished"]:
        lines.append(f"finished: winner {doc['winner'] or 'undecided'} ({doc['end']['reason']})")
    for name, player in doc["players"].items():
        lines.append(f"  {name}")
        for key, value in player.items():
            if value in (None, [], {}):
                continue
            lines.append(f"    {key:<20} {_value(value)}")
    if doc.get("forum") is not None:
        lines.append("  forum: " + _value(doc["forum"]))
    return "\n".join(lines)


def _value(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {_value(v)}" for k, v in value.items())
    if isinstance(value, list):
        return "; ".join(_value(v) for v in value)
    return str(value)
