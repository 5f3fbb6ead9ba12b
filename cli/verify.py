"""``gamelog verify``: is the stored history intact, and does a log file still match it?"""

from __future__ import annotations

import click

from gamelog.cli.errors import EXIT_OK, EXIT_TAMPERED, EXIT_VIOLATION
from gamelog.cli.options import from_option, store_option
from gamelog.cli.terminal import terminal_progress
from gamelog.verifying import verify_output


@click.command()
@click.argument("game")
@click.option("--fingerprint", metavar="HEX", help="The fingerprint you kept (from `games` or `audit`): the history must still end there.")
@click.option("--against", "against", metavar="GAME", help="GAME is then a log file: say whether it still matches this stored game.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"], case_sensitive=False), default="text", show_default=True,
              help="json: one document on stdout (`gamelog schema verify`, or `verify-against` with --against).")
@from_option(help="GAME (a file) is an export of TOOL (ti-assistant...), read as the log it converts to.")
@store_option
def verify(game: str, fingerprint: str | None, against: str | None, fmt: str, source_format: str | None,
           store: str) -> None:
    """Check that the stored history of GAME is intact (exit 3 naming every altered event).

    Every stored event carries a hash chained to the one before it; verify
    recomputes the chain and names each altered, missing, inserted, reordered
    or duplicated event. GAME may be a log file: its fingerprint, as `games`
    would show it once imported (nothing stored). With --against, GAME is a
    log file compared line by line with a stored game (exit 1 when it differs).

    Examples:

    \b
      gamelog verify my-game-id
      gamelog verify my-game-id --fingerprint 091f5cd18eb23135
      gamelog verify game.jsonl --against my-game-id
      gamelog verify --from ti-assistant export.json --against my-game-id
    """
    checked = verify_output(store, game, fingerprint=fingerprint, against=against, fmt=fmt,
                            source_format=source_format, progress=terminal_progress())  # a bar on a terminal only
    click.echo(checked.text)
    if checked.ok:
        raise SystemExit(EXIT_OK)
    raise SystemExit(EXIT_VIOLATION if checked.against else EXIT_TAMPERED)
