"""``games``' document and table: the stored games, from the store's catalog."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any, Iterable

from gamelog.projections.reports.documents import GameEntry, Games, encode
from gamelog.projections.reports.safe import clean


def games_document(summaries: Iterable[Any]) -> Games:
    """The catalog's rows (``projections.store.application.GameSummary``) as the ``games`` document."""
    return Games(games=[GameEntry(**asdict(s)) for s in summaries])


def render_games_json(document: Games) -> str:
    """The games as one JSON document, on one line."""
    return encode(document)


def render_games_text(document: Games, store: str) -> str:
    """An aligned table, one game a row, the fingerprint shortened to 16 hex digits; a line saying so when empty.

    Ids and names are cleaned of control characters (``safe.clean``).
    """
    if not document.games:
        return f"no games in {store}"
    header = ("id", "game", "players", "events", "last line", "finished", "winner", "fingerprint")
    table = [header] + [(clean(g.id), g.game, clean(", ".join(g.players)), str(g.events), str(g.last_line),
                         "yes" if g.finished else "no", clean(g.winner or "-"), g.fingerprint[:16]) for g in document.games]
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in table)
