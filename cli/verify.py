"""``gamelog verify``: is the stored history intact, and does a log file still match it?"""

from __future__ import annotations

import os

import click

from cli.errors import EXIT_OK, EXIT_TAMPERED, EXIT_VIOLATION, InputProblem
from cli.sources import open_store, store_option
from projections.reports.verification import (log_match, render_log_match_json, render_log_match_text,
                                              render_verification_json, render_verification_text, verification)
from projections.store.verify import compare_log, verify_game


@click.command()
@click.argument("game")
@click.option("--fingerprint", metavar="HEX", help="The fingerprint you kept (from `games` or `audit`): the history must still end there.")
@click.option("--against", "against", metavar="GAME", help="GAME is then a log file: say whether it still matches this stored game.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="json: one document on stdout (`gamelog schema verify`, or `verify-against` with --against).")
@store_option
def verify(game: str, fingerprint: str | None, against: str | None, fmt: str, store: str) -> None:
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
            match = log_match(game, against, compare_log(game_store, handle, against))
        click.echo(render_log_match_json(match) if fmt == "json" else render_log_match_text(match))
        raise SystemExit(EXIT_OK if match.matches else EXIT_VIOLATION)
    try:
        document = verification(verify_game(game_store, game, fingerprint))
    except KeyError:
        raise InputProblem(f"no stored game named {game!r} (in {store})") from None
    click.echo(render_verification_json(document) if fmt == "json" else render_verification_text(document))
    raise SystemExit(EXIT_OK if document.intact else EXIT_TAMPERED)
