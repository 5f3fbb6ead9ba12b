"""``gamelog verify``: is the stored history intact, and does a log file still match it?"""

from __future__ import annotations

import click

from gamelog.cli.errors import EXIT_OK, EXIT_TAMPERED, EXIT_VIOLATION
from gamelog.cli.options import store_option
from gamelog.projections.reports.documents import Verification
from gamelog.projections.reports.safe import clean
from gamelog.projections.reports.verification import (render_log_match_json, render_log_match_text,
                                                       render_verification_json, render_verification_text)
from gamelog.projections.store.verify import SHORT
from gamelog.sources import is_log_file
from gamelog.verifying import match_log, verify_log_file, verify_stored


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
    or duplicated event. GAME may be a log file: its fingerprint, as `games`
    would show it once imported (nothing stored). With --against, GAME is a
    log file compared line by line with a stored game (exit 1 when it differs).
    """
    if against is not None:
        match = match_log(store, game, against)
        click.echo(render_log_match_json(match) if fmt == "json" else render_log_match_text(match))
        raise SystemExit(EXIT_OK if match.matches else EXIT_VIOLATION)
    if is_log_file(game):
        document = verify_log_file(game, fingerprint)
        click.echo(render_verification_json(document) if fmt == "json" else _log_file_text(game, document))
    else:
        document = verify_stored(store, game, fingerprint)
        click.echo(render_verification_json(document) if fmt == "json" else render_verification_text(document))
    raise SystemExit(EXIT_OK if document.intact else EXIT_TAMPERED)


def _log_file_text(path: str, document: Verification) -> str:
    """The log's fingerprint in one line, then, if it differs from the one kept, why (cleaned of control characters)."""
    out = [f"{path}: game {document.game!r}, {document.versions} events, fingerprint {document.fingerprint[:SHORT]}"]
    out += [f"{path}: {p.message}" for p in document.problems]
    return "\n".join(clean(line) for line in out)
