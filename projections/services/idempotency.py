"""An entry recorded once however often it is sent: the client's idempotency key (docs/serve.md, "A flaky network").

A device whose answer was lost (Wi-Fi dropped it after the server stored the line) sends the entry again with the
same ``key``. The key is taken in the store before the entry is decided: a resend finds it and gets the answer the
first sending had, never a second line. Only a stored entry keeps its key: one refused (a rule broken, the game
moved, malformed, not the seat's) lets it go, so the same entry may be sent again, decided anew. A key is the
sender's own: the same key from another device (another seat) is another key.
"""

from __future__ import annotations

from typing import Callable

import msgspec

from gamelog.projections.reports.documents import EntryResult
from gamelog.projections.store.application import GameStore

from .errors import GameNotFound

__all__ = ["once"]


def once(store: GameStore, game_id: str, sender: str, key: str | None, record: Callable[[], EntryResult]) -> EntryResult:
    """``record()``'s answer to the entry ``key`` names (sent by ``sender``: who the token is), taken once: when an
    entry of that key and sender was stored already, its answer again and nothing recorded. An entry of that key
    still being decided (sent twice at once) is told the game moved, with its lines: the page reads it again.
    No ``key``: ``record()`` as it is. Raises what ``record`` raises, and the store's errors."""
    if key is None:
        return record()
    kept = f"{sender} {key}"  # a key has no space (the page: hex digits): the sender part cannot be forged
    new, answer = store.entry_key(game_id, kept)
    if not new:
        if answer is None:
            summary = store.summary(game_id)
            if summary is None:
                raise GameNotFound(f"no stored game named {game_id!r}")
            return EntryResult(appended=False, lines=summary.last_line, moved=True)
        return msgspec.json.decode(answer, type=EntryResult)
    try:
        result = record()
    except BaseException:
        store.release_entry_key(game_id, kept)
        raise
    if result.appended:
        store.keep_entry_answer(game_id, kept, msgspec.json.encode(result).decode())
    else:
        store.release_entry_key(game_id, kept)
    return result
