"""``gamelog games`` (the stored games) and ``gamelog schema`` (the JSON Schema of the log format and of each document)."""

from __future__ import annotations

import json
import os
from typing import Union

import click
import msgspec

from cli.sources import open_store, store_option
from domain.games import GAMES
from projections.reports.documents import NAMES, GameEntry, Games, document_type, encode


@click.command()
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@store_option
def games(fmt: str, store: str) -> None:
    """List the stored games: id, game, players, events, last line, finished, winner, fingerprint.

    The fingerprint is the head of the game's hash chain: keep it outside the
    store, and `gamelog verify GAME --fingerprint HEX` proves later that the
    history is unchanged.
    """
    # Listing never creates a store: no file yet means no games yet.
    rows = [] if "://" not in store and not os.path.exists(store) else open_store(store).games()
    if fmt == "json":
        click.echo(encode(Games(games=[GameEntry(**vars(r)) for r in rows])))
        return
    if not rows:
        click.echo(f"no games in {store}")
        return
    header = ("id", "game", "players", "events", "last line", "finished", "winner", "fingerprint")
    table = [header] + [(r.id, r.game, ", ".join(r.players), str(r.events), str(r.last_line),
                         "yes" if r.finished else "no", r.winner or "-", r.fingerprint[:16]) for r in rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    for row in table:
        click.echo("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())


def log_schema() -> dict:
    """The JSON Schema of log format v1: per game, its header and its events.

    Each game's header is tagged ``"type": "game"``, so the games cannot share
    one tagged union; each game gets a definition of its own (its types named
    ``GAME.Type``), and a line is valid when it fits one game's.
    """
    definitions: dict = {}
    games_refs = []
    for name in GAMES:
        rules = GAMES[name]
        types = (rules.header_type, *rules.event_types)
        (ref,), components = msgspec.json.schema_components(
            [Union[types]], ref_template=f"#/$defs/{name}.{{name}}")  # a runtime union, for msgspec
        definitions.update({f"{name}.{key}": value for key, value in components.items()})
        definitions[name] = {"title": f"a line of a {name} log", **ref}
        games_refs.append({"$ref": f"#/$defs/{name}"})
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "gamelog recorded log, format v1: one object per line (JSON Lines)",
        "description": "The first line is the game header; the header's `game` says which definition the other lines follow.",
        "anyOf": games_refs,
        "$defs": definitions,
    }


SCHEMAS = ("log", *NAMES)
"""What ``gamelog schema NAME`` knows: the log format, and each JSON document the commands print."""


def document_schema(name: str) -> dict:
    """The JSON Schema of the document ``name`` prints (``projections.reports.documents``)."""
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **msgspec.json.schema(document_type(name))}


@click.command()
@click.argument("name", required=False, default="log", type=click.Choice(SCHEMAS))
def schema(name: str) -> None:
    """Print a JSON Schema: of the log format (v1, the default), or of a command's JSON output.

    NAME is one of: log (a log's lines), validate, games, replay, report,
    audit, what-if (audit --without), verify, verify-against (verify
    --against), each the document `--format json` prints.
    """
    click.echo(json.dumps(log_schema() if name == "log" else document_schema(name), indent=2, sort_keys=True))
