"""The stored games, as ``games`` lists them, and the JSON Schemas of the log format and of every document."""

from __future__ import annotations

import os
from typing import Any

from gamelog.projections.reports.catalog import games_document, render_games_json, render_games_text
from gamelog.projections.reports.documents import Games
from gamelog.projections.reports.schemas import SCHEMAS, schema_of
from gamelog.projections.reports.terminal import WIDTH
from gamelog.projections.store.application import GameStore

from .config import config_path
from .sources import DEFAULT_STORE, STORE_ENV, opened_game_store, store_exists

__all__ = ["SCHEMAS", "games_output", "list_games", "no_store", "schema"]


def list_games(store: str) -> Games:
    """The games in the store at ``store``: id, game, players, events, last line, finished, winner, fingerprint.

    Listing never creates a store: no file yet means no games yet.
    """
    if not store_exists(store):
        return games_document([])
    with opened_game_store(store) as opened:
        summaries = opened.games()
        return games_document(summaries, {s.id: _header(opened, s.id) for s in summaries})


def _header(store: GameStore, game_id: str) -> Any:
    """A stored game's header (its first event: its date, its players' sides), or None for a game of no events."""
    for recorded in store.history(game_id, first_page=1):
        return recorded.event
    return None


def games_output(store: str, fmt: str = "text", width: int = WIDTH) -> str:
    """``gamelog games``: :func:`list_games` as text for ``width`` columns (a block a game when the table is wider),
    as the table whatever its width (``table``), or JSON (``fmt``)."""
    document = list_games(store)
    if fmt == "json":
        return render_games_json(document)
    if not store_exists(store):
        return no_store(store)
    return render_games_text(document, store, width, table_only=fmt == "table")


def no_store(store: str) -> str:
    """What ``games`` says where there is no store: where it looked, and where a command looks for one."""
    return (f"no games in {store}: there is no store at {os.path.abspath(store)}. A command's store is its --store, "
            f"else {STORE_ENV}, else the store setting of {config_path()}, else {DEFAULT_STORE} in the current folder; "
            "gamelog import LOG makes one.")


def schema(name: str = "log") -> dict:
    """The JSON Schema of the log format (``log``) or of the document a command prints (one of :data:`SCHEMAS`);
    raises KeyError for another name."""
    return schema_of(name)
