"""Recording a game as it is played: a new game from its header, one entry at a time, and its log back out.

What the table's recorder (``gamelog serve``) and ``gamelog append``/``export`` call. Each entry is read as a line
of the game's log (the reader's own checks and messages), decided by the game's engine against the stored game
before anything is stored (its findings), and stored only when it breaks no rule or the table agreed
(``anyway``). The entry is decided and written against one read of the stored history
(``projections.importing.importer.append_lines``): the store's optimistic concurrency decides between two entries
made at once (one is stored, the other's write collides on the event version, rolls back, and is told the game
moved), never a lock held in memory. Undo and fixing an old
entry are ``correction`` lines (``replaces``: void the line and record what it should have been, in one entry):
nothing is ever deleted.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterable, Iterator

import msgspec

from gamelog.domain.engine import VIOLATION
from gamelog.domain.entries import no_offers, players_first
from gamelog.domain.errors import InputError, LogInvalid
from gamelog.domain.events import MAX_LINES, Correction, FindingRaised
from gamelog.domain.games import GAMES
from gamelog.domain.reader import LogReader
from gamelog.domain.ruletext import rule
from gamelog.projections.importing.importer import Outcome, append_lines, import_log
from gamelog.projections.reports.documents import EntryResult, Finding, InputErrorEntry, encode
from gamelog.projections.reports.entries import render_entry_text
from gamelog.projections.reports.forms import (EntryForm, EntryForms, entry_forms, header_form,
                                               offers_telling_nothing)
from gamelog.projections.reports.terminal import WIDTH
from gamelog.projections.store.application import GameStore
from gamelog.projections.views.keeper import ViewKeeper

from .errors import BadInput, GameNotFound
from .seat_entries import NotYourLine, seat_decision
from .secrecy import Public, redaction_at
from .sources import StoredGame, opened_game_store

__all__ = ["MAX_LINES", "AppendOutput", "EntryResult", "NotYourLine", "append_entry", "append_output", "append_to", "export_log",
           "exported", "forms_for", "header_forms", "log_lines", "new_game", "recorded_lines", "stored_lines"]

_encode = msgspec.json.Encoder().encode
ENTRY = "entry"
"""How an entry is named in its input errors' messages (``entry:7: ...``): it is no file."""


def stored_lines(store: GameStore, game_id: str) -> int:
    """The lines of the stored game's log (its last line's number: blank lines and comments count). Raises
    :class:`GameNotFound`."""
    summary = store.summary(game_id)
    if summary is None:
        raise GameNotFound(f"no stored game named {game_id!r}")
    return summary.last_line


def recorded_lines(store: GameStore, game_id: str) -> Iterator[tuple[int, Any]]:
    """(line, recorded event) of every stored line of the game, the header's first. Raises :class:`GameNotFound`."""
    source = StoredGame(store, game_id, "")
    line_recorded = GAMES[source.game].engine.LINE_RECORDED
    for event in source.history():
        if type(event) is line_recorded:
            yield event.line, event.event


def log_lines(recorded: Iterable[tuple[int, Any]]) -> Iterator[bytes]:
    """The log of ``recorded`` (line, event) pairs in line order, each at its own line number: an empty line
    where the log had no event (a blank line or a comment), so that every line keeps its number."""
    last = 0
    for line, event in recorded:
        yield from (b"" for _ in range(line - last - 1))
        yield _encode(event)
        last = line


def export_log(store: GameStore, game_id: str) -> Iterator[bytes]:
    """The stored game's log as JSON Lines, a line at a time (each ending ``\\n``): ``validate`` and ``import`` read
    it back to the same game. Raises :class:`GameNotFound`."""
    for line in log_lines(recorded_lines(store, game_id)):
        yield line + b"\n"


def new_game(store: GameStore, header: bytes) -> str:
    """Store a new game from its header (a log's first line, JSON), checked exactly as a log's header; returns its
    id. Raises :class:`~gamelog.domain.errors.LogInvalid` (named ``entry``) for a header that is not valid, and
    :class:`BadInput` for a game already stored under that id."""
    log = header.strip() + b"\n"
    reader = LogReader(log)
    if reader.header is None or reader.errors:
        raise LogInvalid(ENTRY, reader.errors)
    result = _stored(store, log)  # a game stored under the id: already imported, or a conflict
    if result.outcome is not Outcome.IMPORTED:
        raise BadInput(f"a game with the id {reader.header.id!r} is stored already; give the new game another id")
    return reader.header.id


def append_entry(store: GameStore, game_id: str, entry: bytes, *, after: int | None = None, anyway: bool = False,
                 replaces: int | None = None, seat: str | None = None, own_lines_only: bool = True) -> EntryResult:
    """Decide ``entry`` (one line of the game's log, JSON) against the stored game and store it when it breaks no
    rule, or when ``anyway``; its findings stand then like any other line's. Returns what became of it (findings
    cite their rules, with each rule's text); never a partial write.

    ``after`` is the lines of the log the entry was made against (None: the stored game as it is): a game that
    has moved past them is not written to (``moved``). ``replaces`` voids that earlier line first (a ``correction``
    line, then the entry), in one write. ``seat`` is the player recording (None: the host): the entry is decided as
    that seat may know the game, and (``own_lines_only``: unless the host let every seat record any line) it may
    record only what is its own (:mod:`.seat_entries`).

    Raises :class:`GameNotFound`, :class:`BadInput` (``after`` past the end of the log), :class:`NotYourLine`,
    and the store's errors (``StoreBusy``...).
    """
    source = StoredGame(store, game_id, "")
    rules = GAMES[source.game]
    history = list(source.history())  # read once: what is decided, what the write extends, and its length
    recorded = {e.line: e.event for e in history if type(e) is rules.engine.LINE_RECORDED}
    lines = max(recorded)
    if after is not None and after > lines:
        raise BadInput(f"the game {game_id!r} has {lines} lines; an entry cannot be made after line {after}")
    if after is not None and after < lines:
        return EntryResult(appended=False, lines=lines, moved=True)
    header = history[0].event
    header_line = history[0].line
    shape = _not_one_line(entry, lines + 1 + (replaces is not None))
    if shape is not None:
        return EntryResult(appended=False, lines=lines, errors=[shape])
    wanted = ([_encode(Correction(voids=replaces, reason=f"replaced by line {lines + 2}"))] if replaces is not None
              else []) + [entry.strip()]
    reader = LogReader(b"\n" * (header_line - 1) + _encode(header) + b"\n" * (lines - header_line + 1)
                       + b"\n".join(wanted) + b"\n")
    new = list(reader.events())
    if reader.errors or len(new) != len(wanted):
        return EntryResult(appended=False, lines=lines, errors=[
            InputErrorEntry(line=e.line, path=e.path, message=e.message)
            for e in reader.errors or [InputError(new[-1][0] if new else lines + 1, "not one line of the log")]])
    if seat is not None:  # what the seat may know decides its answer; the store's write decides the whole game
        findings = seat_decision(source.game, history, new, seat, own_lines_only=own_lines_only).findings
    else:
        engine = rules.engine.from_history(history)
        findings = [Finding.of(event) for line, event in new for event in engine.record(line, event)
                    if isinstance(event, FindingRaised) and not event.open_at_end]
    texts = {f.rule: rule(f.rule).text for f in findings}
    if any(f.severity == VIOLATION for f in findings) and not anyway:
        return EntryResult(appended=False, line=new[-1][0], lines=lines, findings=findings, rules=texts)
    # The views fold the entry's events in its own transaction when they are up to date; else the next reader of
    # the views catches them up (``StoredGame.views``).
    result = append_lines(store, history, reader, new, along=ViewKeeper(store).alongside)
    if result.outcome is not Outcome.IMPORTED:
        return EntryResult(appended=False, lines=stored_lines(store, game_id), moved=True)
    return EntryResult(appended=True, line=new[-1][0], lines=new[-1][0], findings=findings, rules=texts)


def append_to(location: str, game_id: str, entry: bytes, **options: Any) -> EntryResult:
    """:func:`append_entry` on the store at ``location`` (which must exist), opened for the call."""
    with opened_game_store(location, must_exist=True) as store:
        return append_entry(store, game_id, entry, **options)


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


def _stored(store: GameStore, log: bytes) -> Any:
    """Import ``log`` (a new game's header), the views folded in the same transaction when they are up to date
    (else the next reader of the views catches them up)."""
    return import_log(store, log, ENTRY, along=ViewKeeper(store).alongside)


def _not_one_line(entry: bytes, line: int) -> InputErrorEntry | None:
    """Why ``entry`` (to be line ``line``) is not one line of a log, or None: empty, or several lines."""
    lines = [part for part in entry.strip().splitlines() if part.strip()]
    if not lines:
        return InputErrorEntry(line=line, path="$", message="the entry is empty: give one JSON object of the log")
    if len(lines) > 1:
        return InputErrorEntry(line=line, path="$", message=f"an entry is one line of the log, not {len(lines)}")
    return None


def forms_for(store: GameStore, game_id: str, viewer: str | Public | None = None) -> EntryForms:
    """The recorder's forms for the stored game at its end, the player due first, as ``viewer`` may see them: a
    seat's player, :data:`~.secrecy.PUBLIC` (a spectator) or None (the host). A seat is offered what its player's
    line may hold; anyone else what the due player's may. Raises :class:`GameNotFound` and the store's errors."""
    source = StoredGame(store, game_id, "")
    rules = GAMES[source.game]
    engine = rules.engine.from_history(source.history(), history=False)
    state = engine.state
    due = state.active if state.active is not None else engine.expected_player()
    seat = viewer if viewer in state.header.players else None
    offers = (rules.offers or no_offers)(state, seat or due)
    forms = EntryForms(game=rules.name, id=game_id, players=list(state.header.players), due=due,
                       lines=stored_lines(store, game_id),
                       forms=entry_forms(rules.event_types, offers, players_first(state, due)))
    if viewer is None:
        return forms
    view = redaction_at(source, viewer, state)
    return view(offers_telling_nothing(forms, view.hides))


def header_forms() -> dict[str, EntryForm]:
    """The form of each game's header, by game: what a new game asks for."""
    return {name: header_form(GAMES[name].header_type) for name in GAMES}


@contextmanager
def exported(location: str, game_id: str) -> Iterator[Iterator[bytes]]:
    """:func:`export_log` of the game stored at ``location`` (which must exist), the store open for the block.
    Raises :class:`GameNotFound` (when first read) and the store's errors."""
    with opened_game_store(location, must_exist=True) as store:
        stored_lines(store, game_id)  # an unknown game is said before anything is written
        yield export_log(store, game_id)
