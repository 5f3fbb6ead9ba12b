"""A stored game kept decided in memory: what each new entry is decided against, and what each viewer sees of it.

A :class:`DecidedGame` reads its game's stored history once, deciding nothing: the engine folds it to its end, and
each line is kept as the full view shows it (a :class:`~gamelog.projections.reports.documents.LogLine`: its words,
its findings, the line that voided it). From then on it moves only forward: an entry is decided by that engine and
written at the version after the held one (``importer.append_decided``), so that the store's optimistic concurrency
still decides between two writers, and another writer's lines are read from there on (:meth:`DecidedGame.catch_up`)
and folded in, never the whole history again. What one viewer may not see (a seat's player, the public view) is
made once per viewer for each point the game reaches (``secrecy.viewer_redaction``), never by folding the game
again.

One lock a game: the threads of a server take turns at it; a reader never sees a line half folded.
"""

from __future__ import annotations

import threading
from bisect import bisect_right
from typing import Any, Callable, Iterable, Iterator

import msgspec

from gamelog.domain.engine import VIOLATION
from gamelog.domain.entries import no_offers, players_first
from gamelog.domain.errors import InputError
from gamelog.domain.events import Correction, FindingRaised, ResultConfirmed, ResultDisputed, Ruling
from gamelog.domain.games import GAMES
from gamelog.domain.reader import LogReader
from gamelog.domain.ruletext import rule
from gamelog.projections.importing.importer import Outcome, append_decided
from gamelog.projections.reports.documents import EntryResult, Finding, InputErrorEntry, LogLine, LogLines
from gamelog.projections.reports.forms import EntryForms, Next, entry_forms, offers_telling_nothing, open_lists_kept
from gamelog.projections.reports.redaction import Redaction
from gamelog.projections.store.application import GameStore
from gamelog.projections.views.keeper import ViewKeeper

from .clock import Clock, now
from .errors import BadInput, NotYourLine
from .results import attestation
from .seat_entries import seat_decision
from .secrecy import Public, viewer_redaction
from .sources import StoredGame
from .turns import may_take, step_forms, steps_offered

__all__ = ["DecidedGame", "log_lines"]

_encode = msgspec.json.Encoder().encode

AsPlayer = str | Public | None
"""Who looks, as the services name them: a player of the game (as the game names them), ``secrecy.PUBLIC``, or None
(the full view)."""


class DecidedGame:
    """The stored game ``game_id`` of ``store``, decided in memory to the last event read.

    ``version`` is how many of its stored events are held; :meth:`catch_up` reads those stored after them. Every
    method reads the store only to catch up (or to write an entry). Raises ``GameNotFound`` (when first read) and
    the store's errors.
    """

    def __init__(self, store: GameStore, game_id: str):
        self.store = store
        self.id = game_id
        self._lock = threading.RLock()
        self._events: list[Any] = []
        self._recorded: dict[int, Any] = {}  # line -> the recorded event, as stored: the log
        self._lines: dict[int, LogLine] = {}  # line -> the line as the full view shows it, in line order
        self._numbers: list[int] = []  # the lines' numbers, in order: where the lines after one start
        self._engine: Any = None  # None until read, and after a trial that stored nothing (folded again from memory)
        self._views: dict[AsPlayer, Redaction] = {}  # each viewer's, at the held end
        self.rules: Any = None
        self._keeper: ViewKeeper | None = None  # what folds an entry's events into the views, made once
        self._head: bytes | None = None  # the chain hash of the last event held, once known (None: read it)

    # -- reading -------------------------------------------------------------------------------------------------

    @property
    def version(self) -> int:
        """How many stored events are held."""
        return len(self._events)

    def _held(self) -> Any:
        """The engine at the held end: the history read first when nothing is held yet, and folded again from
        the events held after a trial decision that stored nothing."""
        if not self._events:
            source = StoredGame(self.store, self.id, "")
            self.rules = GAMES[source.game]  # raises GameNotFound
            self._fold(source.history())
        elif self._engine is None:
            self._engine = self.rules.engine.from_history(self._events)
        return self._engine

    def _fold(self, events: Iterable[Any], *, decided: bool = False) -> None:
        """Fold stored ``events`` (the next ones after the held) into the engine and the lines (``decided``: the
        engine decided them itself, and holds them already)."""
        line_recorded = self.rules.engine.LINE_RECORDED
        for event in events:
            if self._engine is None:
                self._engine = self.rules.engine(event.event, event.line, opening=False)
            if not decided:
                self._engine.apply(event)
            self._events.append(event)
            if type(event) is line_recorded:
                self._seen_line(event.line, event.event, header=len(self._events) == 1)
            elif isinstance(event, FindingRaised) and event.line in self._lines:
                seen = self._lines[event.line]
                self._lines[event.line] = msgspec.structs.replace(seen, findings=[*seen.findings, Finding.of(event)])
        self._views.clear()

    def _seen_line(self, line: int, recorded: Any, header: bool) -> None:
        tag, player, words = ("game", None, "") if header else self.rules.phrase(recorded)
        self._recorded[line] = recorded
        self._numbers.append(line)
        self._lines[line] = LogLine(line=line, type=tag, player=player, words=words,
                                    entry=msgspec.to_builtins(recorded))
        if isinstance(recorded, Correction) and recorded.voids in self._lines:
            self._lines[recorded.voids] = msgspec.structs.replace(self._lines[recorded.voids], voided_by=line)

    def catch_up(self) -> int:
        """Read the events stored after the held ones (another writer's) and fold them in; how many there were."""
        with self._lock:
            if not self._events:
                self._held()
                return 0
            self._held()
            new = list(self.store.history(self.id, after=self.version, header=self._events[0]))
            if new:
                self._head = None  # another writer's last event: read when next written after
                self._fold(new)
            return len(new)

    @property
    def header(self) -> Any:
        with self._lock:
            return self._held().state.header

    def view(self, viewer: AsPlayer) -> Redaction:
        """What ``viewer`` may not see at the held end (made once per viewer and point)."""
        with self._lock:
            state = self._held().state
            view = self._views.get(viewer)
            if view is None:
                view = self._views[viewer] = viewer_redaction(self.rules.name, state.header, viewer, self._events, state)
            return view

    def lines(self, viewer: AsPlayer, after: int = 0) -> LogLines:
        """The log's lines after line ``after`` (0: all, the header's included), as ``viewer`` sees them at the
        held end, and the version they reach."""
        with self._lock:
            self._held()
            view = self.view(viewer)
            lines = self._lines
            seen = [lines[number] for number in self._numbers[bisect_right(self._numbers, after):]]
            # The stored events the view shows: a finding it leaves out is not counted (its count would tell it).
            return LogLines(id=self.id, lines=view(seen), version=self.version - len(view.withheld))

    def state(self, viewer: AsPlayer) -> Any:
        """The replay document at the held end, as ``viewer`` sees it."""
        with self._lock:
            return self.view(viewer)(self._held().state.document())

    def forms(self, viewer: AsPlayer) -> EntryForms:
        """The recorder's forms at the held end, the player due first, as ``viewer`` may use them: a player is
        offered what their own line may hold; anyone else what the due player's may (the first seat's when nobody
        is due)."""
        with self._lock:
            engine = self._held()
            state, rules = engine.state, self.rules
            due = engine.who_is_due()
            seat = viewer if viewer in state.header.players else None
            # Nobody due (a status phase, the game over): the host and the spectators see the first seat's offers.
            offers = (rules.offers or no_offers)(state, seat or due or state.players[0])
            under_way = due is not None and due == state.active and state.turn_over is None
            forms = EntryForms(game=rules.name, id=self.id, players=list(state.header.players), due=due,
                               lines=state.line,
                               forms=entry_forms(rules.event_types, offers, players_first(state, due), rules.kind),
                               next=Next(player=due, starts_turn=due is not None and not under_way,
                                         over=state.ended is not None),
                               active=state.active if state.ended is None and state.turn_over is None else None,
                               turn=step_forms(engine))
            if viewer is None:
                return forms
            view = self.view(viewer)
            told = offers_telling_nothing(forms, view.hides, own=seat is not None)
            return open_lists_kept(view(told), told)

    def log(self, viewer: AsPlayer = None) -> Iterator[bytes]:
        """The log of the held lines as ``viewer`` sees each, each ending ``\n`` (:func:`log_lines`)."""
        with self._lock:
            self._held()
            recorded = list(self._recorded.items())
            view = self.view(viewer)
        if view:
            recorded = [(line, view(msgspec.to_builtins(event))) for line, event in recorded]
        return (line + b"\n" for line in log_lines(recorded))

    # -- recording -----------------------------------------------------------------------------------------------

    def record(self, entry: bytes, *, after: int | None = None, anyway: bool = False, replaces: int | None = None,
               reason: str | None = None, player: str | None = None, own_lines_only: bool = True,
               agreeing: str | None = None, clock: Clock = now) -> EntryResult:
        """Decide ``entry`` (one line of the game's log, JSON) against the game as stored now (what another writer
        stored is read first) and store it when it breaks no rule, or when ``anyway``; what became of it, in the
        full view. ``after`` as ``Game.record`` says. ``replaces`` makes the entry the replacement of that earlier
        line: one ``correction`` line carrying it (``reason``: why, "replaced" when not said), decided at the
        replaced line's place (``domain.corrections``), so that a right fix of an old line raises no finding.
        ``player``: the seat recording (None: the full view), whose entry is decided as that player may know the
        game, and who (``own_lines_only``: unless the table let every seat record any line) records only what is
        its own (:mod:`.seat_entries`): the answer is then the seat's; the whole game's engine still decides what
        is stored.
        ``agreeing``: the player recording even where they may record anyone's lines: their
        confirmations and disputes of the result are their own alone, and they rule on nothing (only the
        full view, the host, does). Every line stored carries ``clock``'s time as its ``at`` (the server's:
        a client's is replaced); a confirmation's fingerprint is decided against the stored history
        (RESULT-FINGERPRINT, :func:`~.results.attestation`).

        Raises ``BadInput`` (``after`` past the end of the log), :class:`~.errors.NotYourLine`, and the store's
        errors (``StoreBusy``...).
        """
        with self._lock:
            self.catch_up()
            shape = _not_one_line(entry, self._held().state.line + 1)
            if shape is not None:
                return EntryResult(appended=False, lines=shape.line - 1, errors=[shape])
            wanted = entry.strip() if replaces is None else _replacing(replaces, entry.strip(), reason)
            return self._decide(lambda engine: [wanted], after=after, anyway=anyway, player=player,
                                own_lines_only=own_lines_only, agreeing=agreeing, clock=clock)

    def take_step(self, step_id: str, *, after: int | None = None, anyway: bool = False,
                  player: str | None = None, clock: Clock = now) -> EntryResult:
        """Record the step ``step_id`` of the turn flow as offered at the game's end (``domain.turn_flow``): its
        lines in one write, decided like any entry (``after``, ``anyway`` and ``clock`` as :meth:`record` says). ``player``:
        the player whose device asks (None: anyone), who takes only a step that is theirs (``turns.may_take``).

        Raises ``BadInput`` (no step of that id is offered now, ``after`` past the end of the log),
        :class:`~.errors.NotYourLine` and the store's errors."""
        def lines_of(engine: Any) -> list[bytes]:
            step = next((s for s in steps_offered(engine) if s.id == step_id), None)
            if step is None:
                raise BadInput(f"no step {step_id!r} of the turn flow is offered now; the forms' `turn` lists "
                               "those that are")
            if player is not None and not may_take(step, engine, player):
                raise NotYourLine(f"{step.label!r} is not {player}'s to take: it is {engine.state.active}'s turn")
            return [_encode(line) for line in step.lines]

        with self._lock:
            self.catch_up()
            return self._decide(lines_of, after=after, anyway=anyway, player=None, clock=clock)

    def _decide(self, wanted_at: Callable[[Any], list[bytes]], *, after: int | None, anyway: bool,
                player: str | None, own_lines_only: bool = True, agreeing: str | None = None,
                clock: Clock = now) -> EntryResult:
        """Decide the lines ``wanted_at`` makes from the engine at the held end (lines of the log, JSON, in order;
        it may raise to refuse) and store them all in one write when none breaks a rule, or when ``anyway``: what
        :meth:`record` and :meth:`take_step` share. Called holding the lock, caught up."""
        engine = self._held()
        lines = engine.state.line
        if after is not None and after > lines:
            raise BadInput(f"the game {self.id!r} has {lines} lines; an entry cannot be made after line {after}")
        if after is not None and after < lines:
            return EntryResult(appended=False, lines=lines, moved=True)
        wanted = wanted_at(engine)
        reader = LogReader(b"\n".join(wanted) + b"\n", header=engine.state.header,
                           header_line=engine.state.header_line, first_line=lines + 1)
        new = list(reader.events())
        if reader.errors or len(new) != len(wanted):
            return EntryResult(appended=False, lines=lines, errors=[
                InputErrorEntry(line=e.line, path=e.path, message=e.message)
                for e in reader.errors or [InputError(new[-1][0] if new else lines + 1, "not one line of the log")]])
        if agreeing is not None:
            _check_agreeing(agreeing, new)
        engine.attest = attestation(StoredGame(self.store, self.id, ""))
        stamp = clock()  # the server's time replaces whatever the client sent
        new = [(line, _stamped(event, stamp)) for line, event in new]
        self._engine = None  # a trial until it is stored: folded again from the held events if it is not
        seat = (None if player is None else  # what the seat may know decides its answer (raises NotYourLine)
                seat_decision(self.rules.name, self._events, new, player, own_lines_only=own_lines_only,
                              attest=engine.attest, held=engine))
        if seat is not None and seat.whole:  # the seat knows the whole game: its entry is decided on it already
            decided = seat.decided
        else:
            decided = [event for line, event in new for event in engine.record(line, event)]
        findings = seat.findings if seat is not None else [
            Finding.of(event) for event in decided if isinstance(event, FindingRaised) and not event.open_at_end]
        texts = {f.rule: rule(f.rule).text for f in findings}
        if any(f.severity == VIOLATION for f in findings) and not anyway:
            return EntryResult(appended=False, line=new[-1][0], lines=lines, findings=findings, rules=texts)
        decided += engine.finish_log()
        # The views fold the entry's events in its own transaction when they are up to date; else the next
        # reader of the views catches them up (``StoredGame.views``).
        if self._keeper is None:
            self._keeper = ViewKeeper(self.store)  # creates the views' tables if need be: once
        result, self._head = append_decided(self.store, engine, self.version, decided, new[0][0], new[-1][0],
                                            along=self._keeper.alongside, head=self._head)
        if result.outcome is not Outcome.IMPORTED:  # another writer was first: read what it stored
            self.catch_up()
            return EntryResult(appended=False, lines=self._held().state.line, moved=True)
        self._engine = engine
        self._fold(decided, decided=True)
        return EntryResult(appended=True, line=new[-1][0], lines=new[-1][0], findings=findings, rules=texts)


def _stamped(event: Any, stamp: str) -> Any:
    """``event`` carrying ``stamp`` as its ``at``, and the replacement a correction carries too (a client's time is
    never kept: the line is stored now)."""
    if isinstance(event, Correction) and event.replacement:
        event = msgspec.structs.replace(event, replacement={**event.replacement, "at": stamp})
    return msgspec.structs.replace(event, at=stamp)


_WORD_ON_RESULT = {kind.__struct_config__.tag for kind in (ResultConfirmed, ResultDisputed)}
_RULING = Ruling.__struct_config__.tag


def _check_agreeing(player: str, new: list[tuple[int, Any]]) -> None:
    """Raise :class:`NotYourLine` when a line of ``new`` (or the line a correction puts in another's place) is a
    ruling, or another player's confirmation or dispute: a player agrees to the result (or not) for themselves only."""
    for line, event in new:
        said = [msgspec.to_builtins(event)]
        if isinstance(event, Correction) and event.replacement:
            said.append(event.replacement)
        for one in said:
            if one.get("type") == _RULING:
                raise NotYourLine(f"line {line} is a ruling; only the host rules on a dispute")
            if one.get("type") in _WORD_ON_RESULT and one.get("player") != player:
                raise NotYourLine(f"line {line} is {one.get('player')}'s word on the result; {player} gives only "
                                  "their own")


def log_lines(recorded: Iterable[tuple[int, Any]]) -> Iterator[bytes]:
    """The log of ``recorded`` (line, event) pairs in line order, each at its own line number: an empty line
    where the log had no event (a blank line or a comment), so that every line keeps its number."""
    last = 0
    for line, event in recorded:
        yield from (b"" for _ in range(line - last - 1))
        yield _encode(event)
        last = line


def _replacing(replaces: int, entry: bytes, reason: str | None) -> bytes:
    """The one ``correction`` line that voids line ``replaces`` and carries ``entry`` (its JSON object, as typed, so
    that the reader's errors point into it: ``$.replacement...``) as its replacement."""
    return (b'{"type":"correction","voids":' + _encode(replaces) + b',"reason":' + _encode(reason or "replaced")
            + b',"replacement":' + entry + b"}")


def _not_one_line(entry: bytes, line: int) -> InputErrorEntry | None:
    """Why ``entry`` (to be line ``line``) is not one line of a log, or None: empty, or several lines."""
    lines = [part for part in entry.strip().splitlines() if part.strip()]
    if not lines:
        return InputErrorEntry(line=line, path="$", message="the entry is empty: give one JSON object of the log")
    if len(lines) > 1:
        return InputErrorEntry(line=line, path="$", message=f"an entry is one line of the log, not {len(lines)}")
    return None
