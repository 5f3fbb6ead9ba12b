"""The stored games, as ``games`` lists them, and the JSON Schemas of the log format and of every document."""

from __future__ import annotations

from gamelog.projections.reports.catalog import games_document, render_games_json, render_games_text
from gamelog.projections.reports.documents import Games
from gamelog.projections.reports.schemas import SCHEMAS, schema_of
from gamelog.projections.reports.terminal import WIDTH

from .results import standing_of
from .sources import StoredGame, opened_game_store, store_exists

__all__ = ["SCHEMAS", "games_output", "list_games", "schema"]


def list_games(store: str) -> Games:
    """The games in the store at ``store``: id, game, players, events, last line, finished, winner, fingerprint, and
    where each result stands at the table (open, settled, disputed).

    Listing never creates a store: no file yet means no games yet.
    """
    if not store_exists(store):
        return games_document([])
    with opened_game_store(store) as opened:
        summaries = opened.games()
        # Where each result stands at the table: each game's lines folded once more.
        results = {s.id: standing_of(StoredGame(opened, s.id, store))[1].state for s in summaries}
        return games_document(summaries, results)


def games_output(store: str, fmt: str = "text", width: int = WIDTH) -> str:
    """``gamelog games``: :func:`list_games` as text for ``width`` columns (a block a game when the table is wider),
    or JSON (``fmt``)."""
    document = list_games(store)
    return render_games_json(document) if fmt == "json" else render_games_text(document, store, width)


def schema(name: str = "log") -> dict:
    """The JSON Schema of the log format (``log``) or of the document a command prints (one of :data:`SCHEMAS`);
    raises KeyError for another name."""
    return schema_of(name)
