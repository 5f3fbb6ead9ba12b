"""Exact corrections: the log decided again as if a voided line had never been written.

A ``correction`` voids an earlier line. :func:`restate` goes back to the
latest checkpoint before that line (``domain.history``), decides every later
line again with a fresh engine of the same game, the void lines left out and
corrections read as the remarks they are then, and returns what to store on
the correction's line so that the stored history reaches the same state
without deciding again:

* for each count (credits, VP, cards... every :class:`~domain.events.Tally`),
  the difference between what the rules decide now and what they decided
  before, as events of that count under LOG-CORRECTION;
* the findings that no longer arise (:class:`~domain.events.FindingMooted`),
  and those that now do (``line N, decided again without line L: ...``);
* the state decided again (:class:`~domain.events.StateRestated`).

A correction that carries its ``replacement`` (a Replace) decides that line at the voided line's place, as if it
had been written there: a right fix of an old line is decided in the turn it belongs to, and raises nothing the
original would not have. Every earlier replacement is decided again at its own place the same way.

The same deciding again answers ``audit --without`` (``domain.replay.without``).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar, Iterator, Protocol, runtime_checkable

import msgspec

from gamelog.domain.events import (Correction, Derived, FindingMooted, FindingRaised, GameHeader, Recorded, StateRestated,
                                   Tally)
from gamelog.domain.history import Checkpoints, EventIndex

if TYPE_CHECKING:  # the engine imports this module: its state's class is named for the type checker only
    from gamelog.domain.engine import GameState


@runtime_checkable
class Restating(Protocol):
    """What :func:`restate` asks of the engine that hands itself down (``domain.engine.Engine``, which imports this
    module): its state, checkpoints and line index, its class of recorded lines, a fresh engine of its own class
    from the header, and the deciding of one recorded line."""

    LINE_RECORDED: ClassVar[type]
    state: GameState
    checkpoints: Checkpoints
    index: EventIndex | None

    def __init__(self, header: Any, header_line: int = 1, *, opening: bool = True) -> None: ...

    def record(self, line: int, event: Recorded) -> list[Derived]:
        """Decide and fold one recorded event; the events to store for it."""


def replacement_of(correction: Correction, line_recorded: type) -> Recorded | None:
    """The event ``correction`` puts in place of the line it voids, as the game's class (``line_recorded`` is the
    game's ``LineRecorded``, whose ``event`` field is the union of its lines); None for a plain correction.

    The reader has checked the replacement as a line of the game (``domain.reader``); raises
    ``msgspec.ValidationError`` for one that is no event of the game (a store written by hand).
    """
    if correction.replacement is None:
        return None
    event = msgspec.convert(correction.replacement, _line_union(line_recorded))
    if type(event) is Correction or isinstance(event, GameHeader):
        raise msgspec.ValidationError("a replacement is one event of the game: no header, no correction")
    return event


@cache
def _line_union(line_recorded: type) -> Any:
    return next(f.type for f in msgspec.structs.fields(line_recorded) if f.name == "event")


def restate(engine: Restating, line: int, voided: int, replacement: Recorded | None = None) -> Iterator[Derived]:
    """What to store on ``line``, the correction of line ``voided`` by ``engine`` (a ``domain.engine.Engine``, which
    keeps its history: an ``index``), with ``replacement`` decided in its place when given.

    From the latest checkpoint before ``voided`` (or the header), every
    later line up to this one is decided again by a fresh engine, the void
    lines left out (or their replacements decided in their place) and
    corrections read as the remarks they are then; the events are those the
    module's docstring lists, the state last.
    """
    s, index = engine.state, engine.index
    assert index is not None  # the engine says it keeps no history before it asks (Engine.correction)
    start = engine.checkpoints.before(voided)
    again = type(engine)(s.header, s.header_line, opening=start is None)
    first = s.header_line + 1
    if start is not None:
        again.state.restore(start[1])
        again.state.line, first = start[0], start[0] + 1
    again.state.voided = set(s.voided)
    again.state.corrections = set(s.corrections)
    # The lines replaced so far (by earlier corrections after the checkpoint) and this one: decided in place.
    replaced = {event.event.voids: event.event for at, event in index.between(first, line - 1)
                if type(event) is engine.LINE_RECORDED and type(event.event) is Correction
                and event.event.replacement is not None and event.event.voids >= first}
    instead = {voids: replacement_of(c, engine.LINE_RECORDED) for voids, c in replaced.items()}
    if replacement is not None:
        instead[voided] = replacement
    counts: dict[tuple, list] = {}  # key -> [an event of that count, the difference]
    before: dict[tuple, FindingRaised] = {}
    for at, event in index.between(first, line - 1):
        cls = type(event)
        if cls is engine.LINE_RECORDED:
            if at in instead:
                again.record(at, instead[at])
            elif at not in s.voided and type(event.event) is not Correction:
                again.record(at, event.event)
        elif cls is FindingRaised:
            # The voided line's findings, and those of later lines still in play
            # (lines voided before are moot already; corrections' own stay).
            # A finding open at the end of an earlier import was made moot when the log went on.
            if event.open_at_end:
                continue
            if at == voided or at > voided and at not in s.voided and at not in s.corrections:
                before[_finding_key(event)] = event
        else:
            _count(counts, event, -1)
    after: dict[tuple, FindingRaised] = {}
    assert again.index is not None  # a fresh engine keeps its history
    for at, event in again.index.between(first, line - 1):
        cls = type(event)
        if cls is FindingRaised:
            if at >= voided:
                after[_finding_key(event)] = event
        elif cls is not again.LINE_RECORDED:
            _count(counts, event, 1)
    why = f"correction of line {voided}"
    decided = f"with line {voided} replaced" if replacement is not None else f"without line {voided}"
    for example, difference in counts.values():
        if difference:
            yield from example.net(line, difference, why)
    for key, f in before.items():
        if key not in after:
            yield FindingMooted(line=line, about=f.line, rule=f.rule, severity=f.severity, message=f.message, player=f.player)
    for key, f in after.items():
        if key not in before:
            yield FindingRaised(line=line, rule=f.rule, severity=f.severity, player=f.player,
                                message=f"line {f.line}, decided again {decided}: {f.message}")
    restated = again.state
    yield StateRestated(line=line, voided=voided, turn=restated.turn, ended=restated.ended, snapshot=restated.snapshot())


def _finding_key(f: FindingRaised) -> tuple:
    return (f.line, f.rule, f.severity, f.message, f.player)


def _count(counts: dict[tuple, list], event: Tally, sign: int) -> None:
    key = event.key()
    entry = counts.get(key)
    if entry is None:
        counts[key] = [event, sign * event.amount()]
    else:
        entry[1] += sign * event.amount()
