"""``games``' document and table: the stored games, from the store's catalog."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any, Iterable, Mapping

from gamelog.domain.games import GAMES
from gamelog.projections.reports.documents import GameEntry, Games, encode
from gamelog.projections.reports.safe import clean
from gamelog.projections.reports.terminal import WIDTH, wrap


def games_document(summaries: Iterable[Any], headers: Mapping[str, Any] | None = None) -> Games:
    """The catalog's rows (``projections.store.application.GameSummary``) as the ``games`` document; ``headers``
    (a game's id -> its header event) gives each its date and its players' sides."""
    headers = headers or {}
    return Games(games=[GameEntry(**asdict(s), **_from_header(headers.get(s.id))) for s in summaries])


def _from_header(header: Any) -> dict[str, Any]:
    """The date and the players' sides a game's header gives (its game's statistics say a player's side)."""
    if header is None:
        return {}
    rules = GAMES.get(header.game)
    side = rules.statistics.side if rules is not None and rules.statistics is not None else None
    sides = {p: side(header, p) for p in header.players} if side is not None else {}
    return {"at": header.at, "sides": sides if any(s != p for p, s in sides.items()) else {}}


def render_games_json(document: Games) -> str:
    """The games as one JSON document, on one line."""
    return encode(document)


HEADER = ("id", "game", "date", "players", "log lines", "last line", "finished", "winner", "fingerprint")
"""The table's columns: ``log lines`` counts the game's recorded event lines (``events`` in the JSON), not the
stored events (``versions``: ``verify`` counts those)."""


def _players(game: GameEntry) -> str:
    """The players in seat order, each with the side they play where the game has sides: ``Ann (Hacan), Bob``."""
    return ", ".join(f"{p} ({game.sides[p]})" if game.sides.get(p, p) != p else p for p in game.players)


def render_games_text(document: Games, store: str, width: int = WIDTH, table_only: bool = False) -> str:
    """An aligned table, one game a row (its date, its players with their sides), the fingerprint shortened to 16
    hex digits; a line saying so when empty.

    When the table is wider than ``width``, each game is a block instead: its
    id, then its other columns as ``name: value`` lines, wrapped to ``width``
    (``table_only``: the table whatever its width, for a pager or a file).
    Ids and names are cleaned of control characters (``safe.clean``).
    """
    if not document.games:
        return f"no games in {store}"
    rows = [(clean(g.id), g.game, clean(g.at or "-"), clean(_players(g)), str(g.events), str(g.last_line),
             "yes" if g.finished else "no", clean(g.winner or "-"), g.fingerprint[:16]) for g in document.games]
    table = [HEADER, *rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(HEADER))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in table]
    if table_only or max(map(len, lines)) <= width:
        return "\n".join(lines)
    blocks = []
    for row in rows:
        block = wrap(row[0], width)
        for name, cell in zip(HEADER[1:], row[1:]):
            block += wrap(f"{name}: {cell}", width, 2, 4)
        blocks.append("\n".join(block))
    return "\n\n".join(blocks)
