"""``gamelog games`` (the stored games) and ``gamelog schema`` (the log format's JSON Schema)."""

from __future__ import annotations

import json
import os
from dataclasses import asdict
from typing import Union

import click
import msgspec

from cli.sources import open_store, store_option
from domain.games import GAMES


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
        click.echo(json.dumps({"games": [asdict(r) for r in rows]}, ensure_ascii=False))
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


@click.command()
def schema() -> None:
    """Print the JSON Schema of the log format (v1), generated from the event types."""
    click.echo(json.dumps(log_schema(), indent=2, sort_keys=True))
