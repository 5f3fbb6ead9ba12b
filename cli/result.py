"""``gamelog result GAME``: where the game's result stands (who confirmed it, who disputes it)."""

from __future__ import annotations

import click

from gamelog.cli.options import as_option, from_option, store_option
from gamelog.results import result_output


@click.command()
@click.argument("game")
@click.option("--format", "fmt", type=click.Choice(["text", "json"], case_sensitive=False), default="text",
              show_default=True, help="text for people, json for programs (gamelog schema result).")
@as_option
@from_option()
@store_option
def result(game: str, fmt: str, as_player: str | None, source_format: str | None, store: str) -> None:
    """Show where GAME's result stands: open, settled or disputed.

    Settled when every player's confirmation (a result_confirmed line)
    names the game's last line of play and the fingerprint their view shows
    there, and no dispute is unresolved; disputed while one is. Also the
    fingerprint to confirm, the winner, the standings and every dispute.

    Examples:

    \b
      gamelog result my-game
      gamelog result my-game --format json
      gamelog result game.jsonl --as Ann
    """
    click.echo(result_output(game, store, fmt=fmt, as_player=as_player, source_format=source_format))
