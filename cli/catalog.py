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
    """List the stored games: id, game, players, events, last line, finished, winner."""
    # Listing never creates a store: no file yet means no games yet.
    rows = [] if "://" not in store and not os.path.exists(store) else open_store(store).games()
    if fmt == "json":
        click.echo(json.dumps({"games": [asdict(r) for r in rows]}, ensure_ascii=False))
        return
    if not rows:
        click.echo(f"no games in {store}")
        return
    header = ("id", "game", "players", "events", "last line", "finished", "winner")
    table = [header] + [(r.id, r.game, ", ".join(r.players), str(r.events), str(r.last_line),
                         "yes" if r.finished else "no", r.winner or "-") for r in rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    for row in table:
        click.echo("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())


@click.command()
def schema() -> None:
    """Print the JSON Schema of the log format (v1), generated from the event types."""
    types: list[type] = []
    for name in GAMES:
        rules = GAMES[name]
        types.append(rules.header_type)
        types.extend(t for t in rules.event_types if t not in types)
    document = msgspec.json.schema(Union[tuple(types)])  # a runtime union, for msgspec
    document["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    document["title"] = "gamelog recorded log, format v1: one object per line (JSON Lines)"
    click.echo(json.dumps(document, indent=2, sort_keys=True))
