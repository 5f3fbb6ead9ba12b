"""``gamelog replay GAME``: the state after a line, a turn or a round (the end by default)."""

from __future__ import annotations

import click

from gamelog.cli.options import as_option, from_option, store_option
from gamelog.cli.terminal import terminal_progress, text_width
from gamelog.replaying import replay_output


@click.command()
@click.argument("game")
@click.option("--line", type=click.IntRange(min=1), help="The state after this log line (the header's or a later one).")
@click.option("--turn", type=click.IntRange(min=1), help="The state at the end of this turn (counted from 1).")
@click.option("--round", "round_", type=click.IntRange(min=1), help="The state at the end of this round (in a game played in rounds).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"], case_sensitive=False), default="text", show_default=True,
              help="text for people (wrapped to the terminal's width), json for programs (gamelog help cli).")
@as_option
@from_option()
@store_option
def replay(game: str, line: int | None, turn: int | None, round_: int | None, fmt: str, as_player: str | None,
           source_format: str | None, store: str) -> None:
    """Show what GAME looked like after a line, turn or round (the end by default).

    GAME is a log file (read in memory, nothing stored) or a stored game's id.

    Examples:

    \b
      gamelog replay game.jsonl --turn 3
      gamelog replay my-game-id --round 2 --format json
      gamelog replay game.jsonl --round 3 --as Ann
      gamelog replay --from ti-assistant export.json --format json
    """
    if sum(x is not None for x in (line, turn, round_)) > 1:
        raise click.UsageError("give at most one of --line, --turn and --round")
    click.echo(replay_output(game, store, fmt=fmt, width=text_width(), line=line, turn=turn, round=round_,
                             as_player=as_player, source_format=source_format, progress=terminal_progress()))
