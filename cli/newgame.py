"""``gamelog new KIND --players A,B,C``: a new game's header, for a log written by hand."""

from __future__ import annotations

import click

from gamelog.cli.options import RegistryChoice
from gamelog.newgame import game_kinds, new_header


def _players(ctx: click.Context, param: click.Parameter, value: str) -> list[str]:
    """``A,B,C``: the players in seat order, spaces around each name dropped."""
    names = [name.strip() for name in value.split(",")]
    if not all(names):
        raise click.BadParameter(f"{value!r} has an empty name; give the players as A,B,C in seat order")
    return names


def _setup(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> dict[str, str]:
    """Each ``FIELD=VALUE`` as a field and its value."""
    pairs = {}
    for item in value:
        field, equals, given = item.partition("=")
        if not equals or not field:
            raise click.BadParameter(f"{item!r} is not FIELD=VALUE (such as vp_goal=14)")
        pairs[field.strip()] = given
    return pairs


@click.command()
@click.argument("kind", type=RegistryChoice(game_kinds))
@click.option("--players", required=True, metavar="A,B,C", callback=_players,
              help="The players in seat order, separated by commas.")
@click.option("--id", "game_id", metavar="ID", help="The game's id in a store (default: KIND-DATE, today's date).")
@click.option("--setup", multiple=True, metavar="FIELD=VALUE", callback=_setup,
              help="A setup field's value (JSON where it reads as JSON, else text); FIELD.PLAYER=VALUE sets one "
                   "player's entry of a field by player. Repeat for each field; the others keep their defaults.")
def new(kind: str, players: list[str], game_id: str | None, setup: dict[str, str]) -> None:
    """Print the header of a new game of KIND: the first line of a log written by hand.

    The header holds every field the recorder's new-game page asks for:
    the id, the players in seat order, today's date, and each setup field
    at its default unless --setup gives it. It is checked as a log's first
    line is, so what is printed is valid (a game that needs a value for
    each player, such as a faction, says so). KIND is one of the games
    listed above; the log format: gamelog help log-format.

    Examples:

    \b
      gamelog new KIND --players Ann,Ben,Cy > game.jsonl
      gamelog new KIND --players Ann,Ben --id friday-game --setup vp_goal=14
      gamelog new KIND --players Ann,Ben --setup factions.Ann=Hacan
    """
    click.echo(new_header(kind, players, game_id, setup).decode())
