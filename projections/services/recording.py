"""Recording a game as it is played: a new game from its header, one entry at a time, and its log back out.

What ``gamelog append``/``export`` call, on a stored game's :class:`~gamelog.Game` (``Game.record``, ``Game.log``:
the one way every entry point records, the served recorder and Python programs too). Each entry is read as a line of
the game's log (the reader's own checks and messages), decided by the game's engine against the stored game before
anything is stored (its findings), and stored only when it breaks no rule or the table agreed (``anyway``). The
store's optimistic concurrency decides between two entries made at once (one is stored, the other's write collides
on the event version, rolls back, and is told the game moved), never a lock held across processes. Undo and fixing
an old entry are ``correction`` lines (``replaces``: void the line and record what it should have been, in one
entry): nothing is ever deleted.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterator

import msgspec

from gamelog.domain.errors import LogInvalid
from gamelog.domain.events import MAX_LINES
from gamelog.domain.games import GAMES
from gamelog.domain.reader import LogReader
from gamelog.projections.importing.importer import Outcome, import_log
from gamelog.projections.reports.bgstats import play_json
from gamelog.projections.reports.documents import EntryResult, encode
from gamelog.projections.reports.entries import render_entry_text
from gamelog.projections.reports.forms import EntryForm, header_form
from gamelog.projections.reports.terminal import WIDTH
from gamelog.projections.store.application import GameStore
from gamelog.projections.views.keeper import ViewKeeper

from .bgstats import bgstats_play
from .clock import Clock, now
from .errors import BadInput
from .game import stored_game
from .sources import StoredGame, opened_game_store

__all__ = ["EXPORTS", "MAX_LINES", "AppendOutput", "EntryResult", "append_output", "append_to", "exported",
           "header_forms", "new_game"]

ENTRY = "entry"
"""How an entry is named in its input errors' messages (``entry:7: ...``): it is no file."""


def new_game(store: GameStore, header: bytes, *, clock: Clock = now) -> str:
    """Store a new game from its header (a log's first line, JSON), checked exactly as a log's header, stamped
    with ``clock``'s time (``at``: a client's is replaced); returns its id. Raises
    :class:`~gamelog.domain.errors.LogInvalid` (named ``entry``) for a header that is not valid, and
    :class:`BadInput` for a game already stored under that id."""
    reader = LogReader(header.strip() + b"\n")
    if reader.header is None or reader.errors:
        raise LogInvalid(ENTRY, reader.errors)
    log = msgspec.json.encode(msgspec.structs.replace(reader.header, at=clock())) + b"\n"
    # The views fold the header's events in the import's transaction when they are up to date (else the next
    # reader of the views catches them up); a game stored under the id already is no new game.
    result = import_log(store, log, ENTRY, along=ViewKeeper(store).alongside)
    if result.outcome is not Outcome.IMPORTED:
        raise BadInput(f"a game with the id {reader.header.id!r} is stored already; give the new game another id")
    return reader.header.id


def append_to(location: str, game_id: str, entry: bytes, **options: Any) -> EntryResult:
    """``Game.record`` of ``entry`` on the game stored at ``location`` (which must exist), opened for the call:
    ``options`` are its ``after``, ``anyway`` and ``replaces``. Raises ``GameNotFound`` and what ``record`` raises."""
    with opened_game_store(location, must_exist=True) as store:
        return stored_game(store, game_id, location).record(entry, **options)


@dataclass(frozen=True)
class AppendOutput:
    """``gamelog append``'s answer: its text (or JSON), whether the line was stored, and whether it was malformed."""

    text: str
    appended: bool
    malformed: bool


def append_output(location: str, game_id: str, entry: bytes, *, fmt: str = "text", width: int = WIDTH,
                  **options: Any) -> AppendOutput:
    """``gamelog append``: :func:`append_to`, said in ``fmt`` (text, ``width`` columns: its input errors, or where it
    was stored or why not, each finding, the text of each rule they cite; json: the recorder's answer to
    ``POST .../lines``). Raises what :func:`append_to` raises."""
    result = append_to(location, game_id, entry, **options)
    text = encode(result, indent=1) if fmt == "json" else render_entry_text(result, game_id, width)
    return AppendOutput(text, result.appended, bool(result.errors))


def header_forms() -> dict[str, EntryForm]:
    """The form of each game's header, by game: what a new game asks for."""
    return {name: header_form(GAMES[name].header_type) for name in GAMES}


EXPORTS = ("jsonl", "bgstats")
"""What ``gamelog export --to`` writes: the log (JSON Lines), or BG Stats' play document."""


@contextmanager
def exported(location: str, game_id: str, to: str = "jsonl") -> Iterator[Iterator[bytes]]:
    """The log of the game stored at ``location`` (which must exist) as JSON Lines, a line at a time (``Game.log``),
    the store open for the block; with ``to="bgstats"``, the game as BG Stats' play document
    (``bgstats.bgstats_play``). Raises ``GameNotFound`` (before anything is written) and the store's errors."""
    with opened_game_store(location, must_exist=True) as store:
        game = stored_game(store, game_id, location)
        log = game.log()  # an unknown game is said before anything is written
        if to == "bgstats":
            yield iter([play_json(bgstats_play(StoredGame(store, game_id, location)))])
        else:
            yield log
