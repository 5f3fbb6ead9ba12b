"""The rules engine every game shares: turns, corrections, claims and the end.

An :class:`Engine` reads one game's recorded events in line order. For each it
*decides* what the rules make of it and emits derived events (findings, the
end of a turn, a commission...), and it *folds* every event, recorded or
derived, into its state. Stored history is replayed through the same fold
(``apply``) without deciding anything again, so a stored game and a log file
read in memory reach the same state by the same code.

A violation never stops the engine: the table did it, so the event is applied
as recorded and a :class:`~domain.events.FindingRaised` is attached to its line.

Deciders (``Engine``) and folds (``GameState``) are registered per event class
with ``@handles`` (``domain.dispatch``); the events every game has are decided
here. Each game subclasses both, registers its own, and names its rule IDs in
the class attributes.

A correction is exact: the engine decides the log again from a checkpoint
before the voided line, without it (``domain.history``), and stores on the
correction's line what that changes (see :meth:`Engine.correction`).
"""

from __future__ import annotations

import dataclasses
from array import array
from bisect import bisect_left
from functools import cache
from typing import Any, ClassVar, Iterable, NamedTuple, get_type_hints

import msgspec

from gamelog.domain.dispatch import Dispatching, handles
from gamelog.domain.events import (
    CORRECTION_RULE,
    Correction,
    Derived,
    FindingMooted,
    FindingRaised,
    GameWon,
    LineVoided,
    Note,
    Recorded,
    ScoreChecked,
    ScoreClaimed,
    StateRestated,
    Tally,
    TurnBegan,
    TurnEnded,
    TurnFinished,
    TurnStarted,
)
from gamelog.domain import corrections
from gamelog.domain.history import Checkpoints, EventIndex, LineIndex
from gamelog.domain.replay_document import Replay, shared_fields

VIOLATION = "violation"
WARNING = "warning"
UNVERIFIABLE = "unverifiable"

decides = handles
"""Register an :class:`Engine` method as the decider of an event class: ``@decides(SomeRecordedEvent)``."""

folds = handles
"""Register a :class:`GameState` method as the fold of an event class: ``@folds(SomeDerivedEvent)``.

A derived event's fold takes the event; a recorded event's fold (the facts a
line states directly) takes the line and the recorded event.
"""


class RuleFinding(NamedTuple):
    """A finding before it is stored: the rule ID, a one-line message, and its severity.

    Each game's ``rules`` module returns these; the engine stores them with :meth:`Engine.report`.
    """

    rule: str
    message: str
    severity: str = VIOLATION


class GameState(Dispatching):
    """What a game looks like after some line: the fold of its events.

    The generic part knows the line, the turn, whose turn it is and whether it
    is over, the voided lines, and the end. Subclasses add the game's own
    state and register a fold per event class with ``@folds``.

    Every attribute that play changes is declared with its type at class
    level: those are what :meth:`snapshot` encodes and a correction restates.
    The others are named in ``CONSTANT`` (set from the header, or the log's
    own bookkeeping); a test checks that every attribute is one or the other.
    """

    LINE_RECORDED: ClassVar[type] = Derived
    """The game's class of stored recorded lines (``LineRecorded``)."""
    CONSTANT: ClassVar[frozenset[str]] = frozenset({
        "header", "header_line", "players", "line", "voided", "corrections", "findings", "event_lines", "open_at_end",
        "resumed_after",
    })
    ADDED: ClassVar[dict[str, Any]] = {}
    """Declared attributes added after stores were written, each with the value an older snapshot stands for: they
    are declared last, so that a stored snapshot that lacks them still restores (a correction's ``StateRestated``)."""

    turn: int
    active: str | None
    turn_over: TurnFinished | None
    ended: GameWon | None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # The recorded line's class is the game's own; its fold is the same for every game.
        cls.HANDLERS[cls.LINE_RECORDED] = cls._line_recorded

    def __init__(self, header: Any, header_line: int):
        self.header = header
        self.header_line = header_line
        self.players: list[str] = list(header.players)
        self.line = header_line
        self.turn = 0
        self.active = None
        self.turn_over = None
        self.ended = None
        self.voided: set[int] = set()
        self.corrections: set[int] = set()
        self.findings: dict[str, int] = {}
        # Findings open when the log ended (bookkeeping, not play: no snapshot holds them).
        self.open_at_end: list[FindingRaised] = []
        # Every event line, in order, for checking what a correction names
        # (an unsigned int array costs 4 bytes a line on logs of millions of lines).
        self.event_lines = array("I")
        # The line a state restored from a replay snapshot (:meth:`resumed`) was saved after: its event_lines
        # hold only the lines after it. None: folded from the header.
        self.resumed_after: int | None = None

    # -- folding -------------------------------------------------------------------

    def apply(self, event: Derived) -> None:
        """Fold one stored event into the state; ``TypeError`` for a class no fold is registered for."""
        handler = self.HANDLERS.get(type(event))
        if handler is None:
            raise TypeError(f"{type(self).__name__} has no fold for {type(event).__name__}")
        handler(self, event)

    def _line_recorded(self, event: Any) -> None:
        self.fold_line(event.line, event.event)

    def fold_line(self, line: int, recorded: Any) -> None:
        """Fold a recorded line (the header or an event): the fold of a stored ``LineRecorded``, which an engine
        deciding the line calls directly (without building the stored event where it keeps none)."""
        self.line = line
        if line != self.header_line:
            self.event_lines.append(line)
            if type(recorded) is Correction:
                self.corrections.add(line)
        fold = self.HANDLERS.get(type(recorded))
        if fold is not None:
            fold(self, line, recorded)

    @folds(TurnBegan)
    def _turn_began(self, event: TurnBegan) -> None:
        self.turn = event.turn
        self.active = event.player
        self.turn_over = None

    @folds(TurnFinished)
    def _turn_finished(self, event: TurnFinished) -> None:
        self.turn_over = event

    @folds(LineVoided)
    def _line_voided(self, event: LineVoided) -> None:
        self.voided.add(event.voided)

    @folds(GameWon)
    def _game_won(self, event: GameWon) -> None:
        self.ended = event

    @folds(FindingRaised)
    def _finding(self, event: FindingRaised) -> None:
        self.findings[event.severity] = self.findings.get(event.severity, 0) + 1
        if event.open_at_end:
            self.open_at_end.append(event)

    @folds(FindingMooted)
    def _finding_mooted(self, event: FindingMooted) -> None:
        # A correction's moot findings still count (the table saw them); one open at the end of an earlier import
        # does not once the log goes on: the log imported whole never raises it.
        kept = [f for f in self.open_at_end if (f.line, f.rule, f.severity, f.message, f.player) !=
                (event.about, event.rule, event.severity, event.message, event.player)]
        if len(kept) < len(self.open_at_end):
            self.findings[event.severity] -= 1
        self.open_at_end = kept

    @folds(StateRestated)
    def _restated(self, event: StateRestated) -> None:
        self.restore(event.snapshot)

    @folds(ScoreChecked)
    def _ignore(self, event: Derived) -> None:
        """Events kept for the audit that change nothing in play."""

    # -- snapshots -----------------------------------------------------------------

    def snapshot(self) -> bytes:
        """Everything play has changed (the attributes declared at class level), encoded.

        The same state gives the same bytes in every process: a set is written sorted (msgspec writes it in
        iteration order, which for text depends on the process's hash seed), since a snapshot is stored in a
        ``StateRestated`` and hashed into the game's fingerprint.
        """
        shape = _snapshot_shape(type(self))
        unordered = _unordered_fields(type(self))
        return _ENCODER.encode(shape(**{name: _in_order(getattr(self, name)) if name in unordered else getattr(self, name)
                                        for name in shape.__struct_fields__}))

    def restore(self, snapshot: bytes) -> None:
        """Set everything play changes to what ``snapshot`` holds (the log's bookkeeping stays)."""
        decoded = msgspec.msgpack.decode(snapshot, type=_snapshot_shape(type(self)))
        for name in decoded.__struct_fields__:
            setattr(self, name, getattr(decoded, name))

    # -- replay snapshots ----------------------------------------------------------

    def replay_snapshot(self) -> bytes:
        """The state as a replay resumes it (:meth:`resumed`): what play changed (:meth:`snapshot`) and the log's
        bookkeeping that a later fold or :meth:`document` reads (the line, the voided lines and the corrections,
        the findings counted and those open at the end). The same state gives the same bytes in every process.

        Not kept: ``event_lines`` (a number a line, which only deciding a correction reads: a replay decides
        nothing) and the caches a restore drops. Kept as the views' ``view_snapshots`` rows.
        """
        return _ENCODER.encode(_Resumable(play=self.snapshot(), line=self.line, voided=sorted(self.voided),
                                          corrections=sorted(self.corrections),
                                          findings=dict(sorted(self.findings.items())), open_at_end=self.open_at_end))

    @classmethod
    def resumed(cls, header: Any, header_line: int, data: bytes) -> "GameState":
        """The state :meth:`replay_snapshot` saved as ``data``, for the game of ``header``: every later fold, and
        :meth:`document`, give what they give on the state folded from the header.

        It can fold stored events, not decide lines: it knows no event line before the snapshot's
        (:meth:`is_event_line` raises for one). Raises ValueError when ``data`` is not such a snapshot of this
        game's state.
        """
        state = cls(header, header_line)
        try:
            saved = _RESUMABLE.decode(data)
            state.restore(saved.play)
        except (msgspec.DecodeError, TypeError) as exc:
            raise ValueError(f"not a replay snapshot of a {cls.__name__}: {exc}") from exc
        state.line = saved.line
        state.voided = set(saved.voided)
        state.corrections = set(saved.corrections)
        state.findings = dict(saved.findings)
        state.open_at_end = list(saved.open_at_end)
        state.resumed_after = saved.line
        return state

    # -- questions -----------------------------------------------------------------

    def is_event_line(self, line: int) -> bool:
        """True when ``line`` holds an event (not the header, a blank or a comment).

        Raises ValueError on a state resumed from a replay snapshot for a line at or before the snapshot's.
        """
        if self.resumed_after is not None and line <= self.resumed_after:
            raise ValueError(f"this state was resumed after line {self.resumed_after}: it knows no event line before")
        i = bisect_left(self.event_lines, line)
        return i < len(self.event_lines) and self.event_lines[i] == line

    def next_player(self, player: str) -> str:
        """The player on ``player``'s left: the next in seating order."""
        return self.players[(self.players.index(player) + 1) % len(self.players)]

    def score(self, player: str) -> int:
        """The player's score as the game counts it (its ``Measures.score_name``)."""
        raise NotImplementedError

    def round_number(self) -> int | None:
        """The round under way (0 before the first) in a game with rounds; None in a game of turns only."""
        return None

    def board(self) -> dict[str, int] | None:
        """The counts of what the players share (the game's ``Board``), by subject; None for a game without one."""
        return None

    # -- the replay document -------------------------------------------------------

    DOCUMENT: ClassVar[type[Replay]] = Replay
    """The type of :meth:`document`, the game's ``replay_document.Replay`` (``gamelog schema replay`` prints it)."""

    def document_fields(self) -> dict[str, Any]:
        """The game's own fields of its :attr:`DOCUMENT` (``players`` and the rest; a shared one it says more of)."""
        raise NotImplementedError

    def document(self) -> Replay:
        """The state as ``replay --format json``'s document: the shared fields and the game's own."""
        return self.DOCUMENT(**(shared_fields(self) | self.document_fields()))

    def to_json(self) -> dict[str, Any]:
        """The state as ``replay --format json`` prints it (:meth:`document`, as plain JSON values)."""
        return msgspec.to_builtins(self.document())


_ENCODER = msgspec.msgpack.Encoder()


class _Resumable(msgspec.Struct, array_like=True):
    """What :meth:`GameState.replay_snapshot` encodes."""

    play: bytes
    line: int
    voided: list[int]
    corrections: list[int]
    findings: dict[str, int]
    open_at_end: list[FindingRaised]


_RESUMABLE = msgspec.msgpack.Decoder(_Resumable)


@cache
def _unordered_fields(state_cls: type) -> frozenset[str]:
    """The snapshot's fields whose values may hold a set (directly, or in a dataclass, list, tuple or dict)."""
    return frozenset(name for name, hint in get_type_hints(_snapshot_shape(state_cls)).items() if _may_hold_set(hint))


def _may_hold_set(hint: Any, seen: frozenset = frozenset()) -> bool:
    if hint in (set, frozenset) or getattr(hint, "__origin__", None) in (set, frozenset):
        return True
    if isinstance(hint, type) and dataclasses.is_dataclass(hint) and hint not in seen:
        return any(_may_hold_set(h, seen | {hint}) for h in get_type_hints(hint).values())
    return any(_may_hold_set(arg, seen) for arg in getattr(hint, "__args__", ()))


def _in_order(value: Any) -> Any:
    """``value`` as msgspec encodes it, with every set in it a sorted list (a dataclass as the map of its fields)."""
    if isinstance(value, (set, frozenset)):
        return sorted(_in_order(item) for item in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {field.name: _in_order(getattr(value, field.name)) for field in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {key: _in_order(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_in_order(item) for item in value]
    return value


@cache
def _snapshot_shape(state_cls: type) -> type:
    """A Struct of the state's declared attributes, with their types: what a snapshot holds."""
    hints = get_type_hints(state_cls)
    added = getattr(state_cls, "ADDED", {})
    fields = [(name, hint, added[name]) if name in added else (name, hint) for name, hint in hints.items()
              if name.isidentifier() and not name.isupper() and getattr(hint, "__origin__", None) is not ClassVar]
    return msgspec.defstruct(f"{state_cls.__name__}Snapshot", fields, array_like=True)


class Engine(Dispatching):
    """Applies one game's rules to its recorded events, line by line.

    ``record(line, event)`` returns the events to store for that line: the
    recorded event itself first, then everything the rules decided. Nothing
    here raises for a broken rule; malformed input never reaches the engine
    (the reader rejects it).
    """

    STATE: ClassVar[type[GameState]] = GameState
    TURN_RULE: ClassVar[str] = ""
    END_RULE: ClassVar[str] = ""
    CLAIM_RULE: ClassVar[str] = "CLAIM"
    """A ``score_claimed`` that differs from the computed score (the audit shows the derivation)."""
    CLAIM_FIELD: ClassVar[str] = "score"
    """The older name of this game's score in a ``score_claimed`` line (docs/log-format.md), besides ``score``."""
    AFTER_END: ClassVar[tuple[type, ...]] = (Note, Correction, ScoreClaimed)
    """Recorded events that may follow the end of the game without breaking END_RULE: they are not moves."""
    COMMON: ClassVar[frozenset[type]] = frozenset({TurnStarted, TurnEnded, Correction, Note, ScoreClaimed})
    """The events every game has, decided here; :meth:`check_event` and :meth:`after_event` run around every other one."""
    LINE_RECORDED: ClassVar[type] = Derived
    """The game's class of stored recorded lines: its state's."""

    _CHECKED: ClassVar[frozenset[type]] = frozenset()
    """The recorded classes :meth:`check_event` runs before: the game's own, where it overrides the hook (set per
    class: calling a hook that does nothing costs every line a call). :attr:`_AFTER` likewise for :meth:`after_event`."""
    _AFTER: ClassVar[frozenset[type]] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.LINE_RECORDED = cls.STATE.LINE_RECORDED
        own = frozenset(c for c in cls.HANDLERS if c not in cls.COMMON)
        cls._CHECKED = own if cls.check_event is not Engine.check_event else frozenset()
        cls._AFTER = own if cls.after_event is not Engine.after_event else frozenset()

    def __init__(self, header: Any, header_line: int = 1, *, opening: bool = True,
                 index: EventIndex | None = None, history: bool = True, found: list[FindingRaised] | None = None):
        """``index`` keeps the events a correction needs (in memory by default); ``history=False``
        keeps none (a replay that folds stored events and decides nothing).

        ``found`` (with ``history=False`` only): the engine keeps no events at all, only folds them, and appends each
        finding it raises to ``found``; :meth:`record` and :meth:`finish_log` then return an empty list (``validate``,
        which stores nothing and reads only the findings)."""
        self.state = self.STATE(header, header_line)
        self.index = (index if index is not None else LineIndex()) if history else None
        if found is not None and history:
            raise ValueError("an engine that keeps its history keeps every event: found= needs history=False")
        self.checkpoints = Checkpoints()
        self._out: list[Derived] = []
        self._keep = found is None
        # The folds an event goes through when nothing is kept but the state (see emit).
        self._folds = self.state.HANDLERS
        if found is not None:
            self._folds = dict(self._folds)
            self._folds[FindingRaised] = _finding_into(found, self._folds[FindingRaised])
            if type(self).emit is Engine.emit:  # (a game that overrides emit keeps its own)
                self.emit = self._fold_only  # type: ignore[method-assign]
        if opening:
            self.emit(self.LINE_RECORDED(line=header_line, event=header))
            self.open_game(header_line)
        self._opening = self._out

    @classmethod
    def from_history(cls, events: Iterable[Derived], index: EventIndex | None = None, *, history: bool = True) -> "Engine":
        """Rebuild an engine from stored events: the first must record the header."""
        it = iter(events)
        first = next(it)
        engine = cls(first.event, first.line, opening=False, index=index, history=history)
        engine.apply(first)
        for event in it:
            engine.apply(event)
        return engine

    def header_events(self) -> list[Derived]:
        """The first events of every history: the header itself, and what the setup gives."""
        return list(self._opening)

    def open_game(self, line: int) -> None:
        """Emit what the setup gives before the first turn (starting credits, the first counts of a board...)."""

    def apply(self, event: Derived) -> None:
        """Fold a stored event without deciding anything (replay), keeping what a later correction needs.

        The hot path: every event of an import, a validate or a replay passes
        here, so keeping (checkpoints, the lines' events) and the state's fold
        are written out in one function rather than three calls.
        """
        cls = type(event)
        state = self.state
        if self.index is not None:
            kept = _KEPT.get(cls)
            if kept is None:
                kept = _KEPT[cls] = _kept(cls)
            if kept == _LINE:
                # Before folding a new line: the state is the one after the line before.
                if event.line != state.header_line and self.checkpoints.tick():
                    self.checkpoints.take(state.line, state.snapshot())
                self.index.add(event.line, event)
            elif kept == _INDEXED:
                self.index.add(event.line, event)
            elif kept == _RESTATED:
                self.checkpoints.drop_from(event.voided)
        handler = state.HANDLERS.get(cls)
        if handler is None:
            state.apply(event)  # raises the TypeError of an event class no fold is registered for
        else:
            handler(state, event)

    def emit(self, event: Derived) -> None:
        """Store-and-fold an event decided for the current line."""
        if self.index is None:  # no history: the fold alone (validate before a correction, a replay)
            fold = self._folds.get(type(event))
            if fold is not None:
                fold(self.state, event)
                if self._keep:
                    self._out.append(event)
                return
        self.apply(event)  # history kept; or the TypeError of a class no fold is registered for
        self._out.append(event)

    def _fold_only(self, event: Derived) -> None:
        """:meth:`emit` of an engine that keeps no events (``found=``): the fold alone, every line's hot path."""
        try:
            fold = self._folds[type(event)]
        except KeyError:
            self.state.apply(event)  # raises the TypeError of a class no fold is registered for
            return
        fold(self.state, event)

    def report(self, line: int, player: str | None, problems: list[RuleFinding]) -> bool:
        """Store each problem as a finding on ``line``; True when one was a violation."""
        if not problems:  # most lines find nothing
            return False
        for p in problems:
            self.find(line, p.rule, p.message, player, p.severity)
        return any(p.severity == VIOLATION for p in problems)

    def find(self, line: int, rule: str, message: str, player: str | None = None, severity: str = VIOLATION,
             *, open_at_end: bool = False) -> None:
        """Attach a finding under ``rule`` to ``line`` (``open_at_end``: see :meth:`finish_log`)."""
        self.emit(FindingRaised(line=line, rule=rule, severity=severity, message=message, player=player,
                                open_at_end=open_at_end))

    def record(self, line: int, event: Recorded) -> list[Derived]:
        """Decide and fold one recorded event; return every event to store for it.

        Raises ``TypeError`` for an event class this game registers no decider for.
        """
        cls = type(event)
        decider = self.HANDLERS.get(cls)
        if decider is None:
            raise TypeError(f"{type(self).__name__} has no decider for {cls.__name__}")
        state = self.state
        # The hot path of every line decided: the recorded line is folded here rather than through emit, and built
        # as a stored event only where events are kept.
        if self.index is not None:
            recorded = self.LINE_RECORDED(line=line, event=event)
            self._out = [recorded]
            self.apply(recorded)
        elif self._keep:
            self._out = [self.LINE_RECORDED(line=line, event=event)]
            state.fold_line(line, event)
        else:
            state.fold_line(line, event)
        if state.open_at_end:  # the log goes on: the rule decides the new lines as usual
            for open_finding in state.open_at_end[:]:
                self.emit(FindingMooted(line=line, about=open_finding.line, rule=open_finding.rule,
                                        severity=open_finding.severity, message=open_finding.message,
                                        player=open_finding.player))
        if state.ended is not None and not isinstance(event, self.AFTER_END) and not self._closes_last_turn(event):
            self.find(line, self.after_end_rule(), f"the game ended at line {state.ended.line}; nothing may follow it",
                      getattr(event, "player", None))
        if cls in self._CHECKED:
            self.check_event(line, event)
        decider(self, line, event)
        if cls in self._AFTER:
            self.after_event(line, event)
        return self._out if self._keep else []

    def finish_log(self) -> list[Derived]:
        """The events to store when the log ends: a finding, on the last line, for each thing a rule requires at once
        that the log ended before doing (:meth:`obligations_at_end`).

        Called once after the last line a read or an import decides (not by a correction's deciding again); a later
        import that extends the log makes them moot on its first line (:meth:`record`).
        """
        self._out = []
        for player, problem in self.obligations_at_end():
            self.find(self.state.line, problem.rule, problem.message, player, problem.severity, open_at_end=True)
        return self._out if self._keep else []

    def _closes_last_turn(self, event: Recorded) -> bool:
        """The ``turn_ended`` that records the end of the turn in which the game ended is no event after it."""
        s = self.state
        return isinstance(event, TurnEnded) and event.player == s.active and s.turn_over is not None \
            and s.turn_over.line == s.ended.line

    # -- hooks for games -------------------------------------------------------------

    def check_event(self, line: int, event: Recorded) -> None:
        """Checks that come before deciding any of the game's own events (whose turn it is...)."""

    def after_event(self, line: int, event: Recorded) -> None:
        """Rules settled after deciding any of the game's own events (a threshold reached...)."""

    def obligations_at_end(self) -> list[tuple[str | None, RuleFinding]]:
        """What the rules require at once after the last line of play and the log ended before doing: (player,
        problem) pairs (nothing by default)."""
        return []

    def after_end_rule(self) -> str:
        """The rule an event after the end breaks (END_RULE; a game with several endings may say which)."""
        return self.END_RULE

    def who_is_due(self) -> str | None:
        """Who records next as the rules see it: nobody once the game is over; the active player while their turn
        is under way; else the player whose turn starts next (:meth:`expected_player`, the game's own order)."""
        s = self.state
        if s.ended is not None:
            return None
        if s.active is not None and s.turn_over is None:
            return s.active
        return self.expected_player()

    def expected_player(self) -> str:
        """Whose turn should start next (seating order by default)."""
        s = self.state
        return s.players[0] if s.active is None else s.next_player(s.active)

    def on_turn_finished(self, line: int, player: str) -> None:
        """End-of-turn rules (a game may override)."""

    # -- turns ---------------------------------------------------------------------

    def finish_turn(self, line: int, rule: str, cause: str) -> None:
        """End the active turn at ``line`` because of ``cause`` (under ``rule``)."""
        s = self.state
        if s.active is None or s.turn_over is not None:
            return
        self.emit(TurnFinished(line=line, player=s.active, turn=s.turn, rule=rule, cause=cause))
        self.on_turn_finished(line, s.active)

    @decides(TurnStarted)
    def turn_started(self, line: int, event: TurnStarted) -> None:
        s = self.state
        if s.active is not None and s.turn_over is None:
            self.find(line, self.TURN_RULE, f"{event.player}'s turn starts but {s.active}'s turn {s.turn} was never ended", event.player)
            self.finish_turn(line, self.TURN_RULE, "the next turn started")
        expected = self.expected_player()
        if event.player != expected:
            self.find(line, self.TURN_RULE, f"it is {expected}'s turn next, not {event.player}'s", event.player)
        self.emit(TurnBegan(line=line, player=event.player, turn=s.turn + 1))

    @decides(TurnEnded)
    def turn_ended(self, line: int, event: TurnEnded) -> None:
        s = self.state
        if s.active != event.player:
            now = f"it is {s.active}'s turn" if s.active else "no turn has started"
            self.find(line, self.TURN_RULE, f"{event.player} ends a turn, but {now}", event.player)
            return
        self.finish_turn(line, self.TURN_RULE, "the player finished the turn")

    def check_actor(self, line: int, player: str) -> None:
        """A turn action must be the active player's, inside a turn that is not over."""
        s = self.state
        if s.active is None:
            self.find(line, self.TURN_RULE, f"{player} acts before any turn has started", player)
        elif player != s.active:
            self.find(line, self.TURN_RULE, f"{player} acts during {s.active}'s turn", player)
        elif s.turn_over is not None:
            over = s.turn_over
            self.find(line, over.rule, f"{player}'s turn ended at line {over.line} ({over.cause}); nothing more may happen in it", player)

    # -- corrections and claims ----------------------------------------------------

    @decides(Correction)
    def correction(self, line: int, event: Correction) -> None:
        """LOG-CORRECTION: void an earlier event line, exactly, and decide its replacement (if the correction carries
        one) in its place (see :meth:`restate`)."""
        problem = self._void_problem(line, event.voids)
        if problem:
            self.find(line, CORRECTION_RULE, problem)
            return
        self.emit(LineVoided(line=line, voided=event.voids, reason=event.reason))
        if self.index is None:
            raise RuntimeError("this engine keeps no history: it replays stored events and cannot decide a correction")
        self.restate(line, event.voids, corrections.replacement_of(event, self.LINE_RECORDED))

    def _void_problem(self, line: int, target: int) -> str | None:
        s = self.state
        if target >= line:
            return f"a correction can only void an earlier line, not line {target}"
        if target == s.header_line:
            return "the header cannot be voided"
        if not s.is_event_line(target):
            return f"line {target} holds no event"
        if target in s.corrections:
            return f"line {target} is itself a correction; corrections cannot be voided"
        if target in s.voided:
            return f"line {target} is already void"
        return None

    def restate(self, line: int, voided: int, replacement: Recorded | None = None) -> None:
        """Decide the log again as if line ``voided`` had never been written (or ``replacement`` had been written in
        its place); store what changes (``domain.corrections``)."""
        self.emit_all(corrections.restate(self, line, voided, replacement))

    def emit_all(self, events: Iterable[Derived]) -> None:
        """Store-and-fold each of ``events``, in order."""
        for event in events:
            self.emit(event)

    @decides(Note)
    def note(self, line: int, event: Note) -> None:
        """A note is kept in the log and decides nothing."""

    @decides(ScoreClaimed)
    def score_claimed(self, line: int, event: ScoreClaimed) -> None:
        stated, claimed = event.stated()
        if stated not in ("score", self.CLAIM_FIELD):  # another game's name for its score
            self.find(line, self.CLAIM_RULE, f"this game's score is `{self.CLAIM_FIELD}`, not `{stated}`; the claim cannot be checked",
                      event.player, UNVERIFIABLE)
            return
        computed = self.state.score(event.player)
        self.emit(ScoreChecked(line=line, player=event.player, claimed=claimed, computed=computed))
        if claimed != computed:
            self.find(line, self.CLAIM_RULE, f"{event.player}'s {self.CLAIM_FIELD} is claimed as {claimed}, but the log gives {computed}", event.player)
            self.explain_claim(line, event.player, claimed)

    def explain_claim(self, line: int, player: str, claimed: int) -> None:
        """A game may say which of its rules a wrong claim misapplied (a finding of its own)."""


def _finding_into(found: list[FindingRaised], fold: Any) -> Any:
    """The fold of a finding that also appends it to ``found`` (an engine that keeps no events: see Engine)."""

    def fold_and_keep(state: GameState, event: FindingRaised) -> None:
        fold(state, event)
        found.append(event)

    return fold_and_keep


_NOT_KEPT, _LINE, _INDEXED, _RESTATED = range(4)
_KEPT: dict[type, int] = {}  # what Engine.apply keeps of each event class, decided once per class


def _kept(cls: type) -> int:
    if cls is StateRestated:
        return _RESTATED
    if cls is FindingRaised or issubclass(cls, Tally):
        return _INDEXED
    if "event" in getattr(cls, "__struct_fields__", ()):  # a game's LineRecorded
        return _LINE
    return _NOT_KEPT
