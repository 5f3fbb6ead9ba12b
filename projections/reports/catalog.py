"""``games``' document and table: the stored games, from the store's catalog."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any, Iterable

from gamelog.projections.reports.documents import GameEntry, Games, encode
from gamelog.projections.reports.safe import clean
from gamelog.projections.reports.terminal import WIDTH, wrap


def games_document(summaries: Iterable[Any], results: dict[str, str] | None = None) -> Games:
    """The catalog's rows (``projections.store.application.GameSummary``) as the ``games`` document, with where each
    game's result stands (``results``, by id) where given."""
    return Games(games=[GameEntry(**asdict(s), **({"result": results[s.id]} if results and s.id in results else {}))
                        for s in summaries])


def render_games_json(document: Games) -> str:
    """The games as one JSON document, on one line."""
    return encode(document)


HEADER = ("id", "game", "players", "log lines", "last line", "finished", "winner", "result", "fingerprint")
"""The table's columns: ``log lines`` counts the game's recorded event lines (``events`` in the JSON), not the
stored events (``versions``: ``verify`` counts those)."""


def render_games_text(document: Games, store: str, width: int = WIDTH) -> str:
    """An aligned table, one game a row, the fingerprint shortened to 16 hex digits; a line saying so when empty.

    When the table is wider than ``width``, each game is a block instead: its
    id, then its other columns as ``name: value`` lines, wrapped to ``width``.
    Ids and names are cleaned of control characters (``safe.clean``).
    """
    if not document.games:
        return f"no games in {store}"
    rows = [(clean(g.id), g.game, clean(", ".join(g.players)), str(g.events), str(g.last_line),
             "yes" if g.finished else "no", clean(g.winner or "-"), g.result if isinstance(g.result, str) else "-",
             g.fingerprint[:16]) for g in document.games]
    table = [HEADER, *rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(HEADER))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in table]
    if max(map(len, lines)) <= width:
        return "\n".join(lines)
    blocks = []
    for row in rows:
        block = wrap(row[0], width)
        for name, cell in zip(HEADER[1:], row[1:]):
            block += wrap(f"{name}: {cell}", width, 2, 4)
        blocks.append("\n".join(block))
    return "\n\n".join(blocks)
