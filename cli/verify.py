"""``gamelog verify``: is the stored history intact, and does a log file still match it?"""

from __future__ import annotations

import click

from gamelog.cli.errors import EXIT_OK, EXIT_TAMPERED, EXIT_VIOLATION
from gamelog.cli.options import store_option
from gamelog.cli.terminal import terminal_progress
from gamelog.projections.reports.documents import Verification
from gamelog.projections.reports.safe import clean
from gamelog.projections.reports.verification import (render_log_match_json, render_log_match_text,
                                                       render_verification_json, render_verification_text)
from gamelog.projections.store.verify import SHORT
from gamelog.verifying import match_log, verify as verify_of


@click.command()
@click.argument("game")
@click.option("--fingerprint", metavar="HEX", help="The fingerprint you kept (from `games` or `audit`): the history must still end there.")
@click.option("--against", "against", metavar="GAME", help="GAME is then a log file: say whether it still matches this stored game.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"], case_sensitive=False), default="text", show_default=True,
              help="json: one document on stdout (`gamelog schema verify`, or `verify-against` with --against).")
@store_option
def verify(game: str, fingerprint: str | None, against: str | None, fmt: str, store: str) -> None:
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
    """
    if against is not None:
        match = match_log(store, game, against)
        click.echo(render_log_match_json(match) if fmt == "json" else render_log_match_text(match))
        raise SystemExit(EXIT_OK if match.matches else EXIT_VIOLATION)
    verified = verify_of(store, game, fingerprint, progress=terminal_progress())  # a bar on a terminal only
    document = verified.document
    if fmt == "json":
        click.echo(render_verification_json(document))
    elif verified.log_file is not None:
        click.echo(_log_file_text(verified.log_file, document))
    else:
        click.echo(render_verification_text(document))
    raise SystemExit(EXIT_OK if document.intact else EXIT_TAMPERED)


def _log_file_text(path: str, document: Verification) -> str:
    """The log's fingerprint in one line, then, if it differs from the one kept, why (cleaned of control characters)."""
    out = [f"{path}: game {document.game!r}, {document.versions} stored events, fingerprint {document.fingerprint[:SHORT]}"]
    out += [f"{path}: {p.message}" for p in document.problems]
    return "\n".join(clean(line) for line in out)
