"""``gamelog verify``: is the stored history intact, and does a log file still match it?"""

from __future__ import annotations

import os

import click

from cli.errors import EXIT_OK, EXIT_TAMPERED, EXIT_VIOLATION, InputProblem
from cli.sources import open_store, store_option
from projections.store.verify import SHORT, compare_log, verify_game


@click.command()
@click.argument("game")
@click.option("--fingerprint", metavar="HEX", help="The fingerprint you kept (from `games` or `audit`): the history must still end there.")
@click.option("--against", "against", metavar="GAME", help="GAME is then a log file: say whether it still matches this stored game.")
@store_option
def verify(game: str, fingerprint: str | None, against: str | None, store: str) -> None:
    """Check that the stored history of GAME is intact (exit 3 naming every altered event).

    Every stored event carries a hash chained to the one before it; verify
    recomputes the chain and names each altered, missing, inserted, reordered
    or duplicated event. With --against, GAME is a log file compared line by
    line with a stored game (exit 1 when it differs).
    """
    game_store = open_store(store, must_exist=True)
    if against is not None:
        if not os.path.isfile(game):
            raise InputProblem(f"no such log file: {game}")
        with open(game, "rb") as handle:
            difference = compare_log(game_store, handle, against)
        if difference is None:
            click.echo(f"{game} matches the stored game {against!r}")
            raise SystemExit(EXIT_OK)
        click.echo(f"{game} differs from the stored game {against!r}: {difference}")
        raise SystemExit(EXIT_VIOLATION)
    try:
        verdict = verify_game(game_store, game, fingerprint)
    except KeyError:
        raise InputProblem(f"no stored game named {game!r} (in {store})") from None
    for problem in verdict.problems:
        click.echo(f"{game}: event {problem.version}: {problem.kind}: {problem.message}")
    if verdict.intact:
        click.echo(f"{game}: intact, {verdict.versions} events, fingerprint {verdict.fingerprint[:SHORT]}")
        raise SystemExit(EXIT_OK)
    click.echo(f"{game}: the stored history was altered ({len(verdict.problems)} problem(s))")
    raise SystemExit(EXIT_TAMPERED)
