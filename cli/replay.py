"""``gamelog replay GAME``: the state after a line, a turn or a round (the end by default)."""

from __future__ import annotations

from itertools import chain

import click

from gamelog.cli.errors import InputProblem
from gamelog.cli.sources import load_game, store_option
from gamelog.cli.terminal import text_width
from gamelog.domain.games import GAMES
from gamelog.domain.replay import PointNotReached, state_at
from gamelog.projections.reports.replay import render_replay_json, render_replay_text


@click.command()
@click.argument("game")
@click.option("--line", type=click.IntRange(min=1), help="The state after this log line (the header's or a later one).")
@click.option("--turn", type=click.IntRange(min=1), help="The state at the end of this turn (counted from 1).")
@click.option("--round", "round_", type=click.IntRange(min=1), help="The state at the end of this round (in a game played in rounds).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text for people (wrapped to the terminal's width), json for programs (docs/cli.md).")
@store_option
def replay(game: str, line: int | None, turn: int | None, round_: int | None, fmt: str, store: str) -> None:
    """Show what GAME looked like after a line, turn or round (the end by default).

    GAME is a log file (read in memory, nothing stored) or a stored game's id.
    """
    if sum(x is not None for x in (line, turn, round_)) > 1:
        raise click.UsageError("give at most one of --line, --turn and --round")
    source = load_game(game, store)
    if round_ is not None and GAMES[source.game].round_of is None:
        raise InputProblem(f"{game}: {source.game} is not played in rounds; give --turn or --line")
    events = iter(source.events)
    header = next(events)
    if line is not None and line < header.line:
        raise InputProblem(f"{game}: line {line} is before the header (line {header.line}); the game starts there")
    try:
        state = state_at(source.game, chain([header], events), line=line, turn=turn, round=round_)
    except PointNotReached as exc:
        raise InputProblem(f"{game}: {exc}") from exc
    document = state.document()
    click.echo(render_replay_json(document) if fmt == "json" else render_replay_text(document, text_width()))
