"""``gamelog games`` (the stored games) and ``gamelog schema`` (the JSON Schema of the log format and of each document)."""

from __future__ import annotations

import json

import click

from gamelog.cli.options import store_option
from gamelog.cli.terminal import text_width
from gamelog.listing import SCHEMAS, games_output, schema as schema_of


@click.command()
@click.option("--format", "fmt", type=click.Choice(["text", "table", "json"], case_sensitive=False), default="text",
              show_default=True, help="text: the table, or a block a game when it is wider than the terminal; "
                                      "table: the table whatever its width; json: the document.")
@store_option
def games(fmt: str, store: str) -> None:
    """List the stored games: id, game, date, players (with the side each plays), log lines, last line, finished,
    winner, fingerprint.

    "log lines" counts the game's recorded event lines; `verify` counts its
    stored events. A table wider than the terminal becomes one block a game
    (--format table keeps the table: for a pager, `less -S`, or a file).

    The fingerprint is the head of the game's hash chain: keep it outside the
    store, and `gamelog verify GAME --fingerprint HEX` proves later that the
    history is unchanged.

    Examples:

    \b
      gamelog games
      gamelog games --format table | less -S
      gamelog games --store games.sqlite --format json
    """
    click.echo(games_output(store, fmt, text_width()))


@click.command()
@click.argument("name", required=False, default="log", type=click.Choice(SCHEMAS, case_sensitive=False))
def schema(name: str) -> None:
    """Print a JSON Schema: of the log format (v1, the default), or of a command's JSON output.

    NAME is log (a log's lines: the default), or the document that
    `--format json` prints: validate, games, replay, report, stats,
    stats-explain (stats --explain), audit, what-if (audit --without),
    verify, verify-against (verify --against), reconcile, reconcile-store
    (reconcile --declared FILE with no GAME), append (what became of the
    line; the recorder's answer to POST /api/games/ID/lines).

    Examples:

    \b
      gamelog schema
      gamelog schema report > report.schema.json
    """
    click.echo(json.dumps(schema_of(name), indent=2, sort_keys=True))
