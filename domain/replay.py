"""Running a log through its game's rules, and folding history up to a point.

``decide`` turns a read log into the events to store; ``state_at`` folds stored
(or freshly decided) events up to a line, the end of a turn or of a round.
Both are pure: the caller supplies the bytes or the stored events.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, BinaryIO, Iterable, Iterator

from gamelog.domain.engine import Engine, GameState
from gamelog.domain.errors import InputError
from gamelog.domain.events import Correction, Derived, FindingRaised, TurnFinished
from gamelog.domain.games import GAMES, GameRules
from gamelog.domain.history import EventIndex
from gamelog.domain.messages import plural
from gamelog.domain.reader import LogReader


class PointNotReached(Exception):
    """Raised when the asked line, turn or round is not in the game's history."""


def decide(reader: LogReader, index: EventIndex | None = None) -> Iterator[Derived]:
    """Every event to store for the log: the header's, then each line's in order.

    Input errors are appended to ``reader.errors`` as the lines are read; a
    caller that must not keep a bad log checks them when this is exhausted.
    ``index`` is where the engine keeps what a correction needs to decide the
    log again (in memory by default).
    """
    if reader.header is None:
        return
    engine: Engine = reader.rules.engine(reader.header, reader.header_line, index=index)
    yield from engine.header_events()
    for line, event in reader.events():
        yield from engine.record(line, event)
    yield from engine.finish_log()


class HistoryNeeded(Exception):
    """Raised by :func:`decide_findings` at the log's first correction, on ``line``: deciding a correction needs
    the history an engine keeps (``domain.history``); decide the log again with it (:func:`decide_lines`)."""

    def __init__(self, line: int):
        super().__init__(f"line {line} is a correction: deciding it needs the log's history")
        self.line = line


def decide_lines(reader: LogReader, index: EventIndex | None = None) -> Iterator[tuple[int, list[Derived]]]:
    """(line, its events) for the header, then for each line in order, then the log's end (the last line's number,
    :meth:`Engine.finish_log`'s events): the events :func:`decide` yields."""
    if reader.header is None:
        return
    engine: Engine = reader.rules.engine(reader.header, reader.header_line, index=index)
    yield reader.header_line, engine.header_events()
    for line, event in reader.events():
        yield line, engine.record(line, event)
    yield engine.state.line, engine.finish_log()


def decide_findings(reader: LogReader) -> Iterator[FindingRaised]:
    """Every finding the rules raise on the log, in order (those :func:`decide` stores), the engine keeping neither
    history nor events (each is folded, nothing else): ``validate``'s deciding, which stores nothing.

    Raises :class:`HistoryNeeded` on the log's first ``correction`` line instead of deciding it (a correction needs
    the history; what came before is the same either way: keeping decides nothing).
    """
    if reader.header is None:
        return
    found: list[FindingRaised] = []
    engine: Engine = reader.rules.engine(reader.header, reader.header_line, history=False, found=found)
    record = engine.record
    for line, event in reader.events():
        if found:
            yield from found
            found.clear()
        if type(event) is Correction:
            raise HistoryNeeded(line)
        record(line, event)
    engine.finish_log()
    yield from found


@dataclass
class DecidedLog:
    """A log read and decided in memory: its events, its input errors, its header."""

    events: list[Derived]
    errors: list[InputError]
    header: Any

    @property
    def state(self) -> GameState:
        """The state at the end of the log."""
        return state_at(self.header.game, self.events)


def run(source: bytes | BinaryIO) -> DecidedLog:
    """Read and decide a whole log in memory (for tests and log-file commands)."""
    reader = LogReader(source)
    events = list(decide(reader))
    return DecidedLog(events, reader.errors, reader.header)


def state_at(game: str, events: Iterable[Derived], *, line: int | None = None,
             turn: int | None = None, round: int | None = None, resumed: GameState | None = None) -> GameState:
    """The state after ``line``, at the end of turn ``turn`` or round ``round``, or at the end.

    A turn ends with its :class:`TurnFinished` event (everything decided on
    that line included); a round ends where the next round starts, or with the
    history. Raises :class:`PointNotReached` when the history stops before
    that point.

    ``resumed``: a state restored from a replay snapshot (``GameState.resumed``), and ``events`` the history
    after it (not from the header). The caller chooses a snapshot before the point (:func:`snapshot_serves`);
    the state is then the one folding the whole history gives.
    """
    it = iter(events)
    rules = GAMES[game]
    if resumed is None:
        state = rules.engine.from_history([next(it)], history=False).state
    else:
        state = resumed
    # The engine keeps nothing (history=False), so folding an event is its state's handler alone: called here,
    # not through Engine.apply, as a replay's every event passes here.
    handlers = state.HANDLERS
    stop_line = line
    turn_seen = stopped = False
    for event in it:
        if stop_line is not None and event.line > stop_line or round is not None and _starts_round(rules, event, round + 1):
            stopped = True
            break
        handler = handlers.get(type(event))
        if handler is None:
            state.apply(event)  # raises the TypeError of an event class no fold is registered for
        else:
            handler(state, event)
        if turn is not None and isinstance(event, TurnFinished) and event.turn == turn:
            stop_line, turn_seen = event.line, True
    if line is not None and not stopped and state.line < line:
        raise PointNotReached(f"the log ends at line {state.line}, before line {line}")
    if turn is not None and not turn_seen and state.turn < turn:
        rounds = state.round_number()
        # A log kept by round (a TI Assistant export, an AsyncTI4 save) may count no turns: it is asked by round.
        hint = f"; it is played in rounds ({plural(rounds, 'round')}): ask by round (--round N)" \
            if rounds is not None and state.turn == 0 else ""
        raise PointNotReached(f"the game has {plural(state.turn, 'turn')}, not {turn}{hint}")
    if round is not None and (state.round_number() or 0) < round:
        raise PointNotReached(f"the game has {plural(state.round_number() or 0, 'round')}, not {round}")
    return state


def snapshot_serves(reached: tuple[int, int, int | None], *, line: int | None = None, turn: int | None = None,
                    round: int | None = None) -> bool:
    """Whether :func:`state_at` may resume from a snapshot to reach that point (the end when none is given).

    ``reached`` is the highest line, turn and round the events up to the snapshot reached: the last recorded
    line; the highest turn a ``TurnBegan`` or ``TurnFinished`` named (a correction may take the state's turn
    back, not this); the highest round a recorded line began (None in a game without rounds). The fold from the
    header stops at nothing the snapshot holds when no event up to it is past ``line``, none finished turn
    ``turn`` and none began round ``round + 1``.
    """
    most_line, most_turn, most_round = reached
    if line is not None:
        return most_line <= line
    if turn is not None:
        return most_turn < turn
    if round is not None:
        return (most_round or 0) <= round
    return True


def _starts_round(rules: GameRules, event: Derived, round: int) -> bool:
    """True for the recorded line that begins round ``round`` or a later one (the game's ``round_of`` says which)."""
    if rules.round_of is None or type(event) is not rules.engine.LINE_RECORDED:
        return False
    begins = rules.round_of(event.event)
    return begins is not None and begins >= round


def without(game: str, events: Iterable[Derived], lines: set[int]) -> list[Derived]:
    """The history the game would have had if ``lines`` had been void from the start.

    The recorded lines are decided again by the rules, those lines left out:
    the same deciding again that a correction does (``Engine.restate``), from
    the header. Nothing stored changes. Raises :class:`PointNotReached` when a
    line holds no event (the header included: a game without its header is no game).
    """
    engine_cls = GAMES[game].engine
    recorded = [e for e in events if type(e) is engine_cls.LINE_RECORDED]
    missing = lines - {e.line for e in recorded[1:]}
    if missing:
        raise _no_event(missing)
    return list(without_events(game, recorded, lines))


def without_events(game: str, events: Iterable[Derived], lines: set[int],
                   index: EventIndex | None = None) -> Iterator[Derived]:
    """:func:`without`'s history as it is decided, a line at a time (a game of any length in bounded memory, with
    ``index`` kept where the caller says: ``domain.history``).

    Raises :class:`PointNotReached` at the end (what came before yielded) when a line holds no event.
    """
    engine_cls = GAMES[game].engine
    recorded = (e for e in events if type(e) is engine_cls.LINE_RECORDED)
    header = next(recorded)
    engine = engine_cls(header.event, header.line, index=index)
    engine.state.voided |= lines  # void from the start: a correction naming one finds it void already
    yield from engine.header_events()
    found: set[int] = set()
    for event in recorded:
        if event.line in lines:
            found.add(event.line)
        else:
            yield from engine.record(event.line, event.event)
    if lines - found:
        raise _no_event(lines - found)
    yield from engine.finish_log()


def _no_event(missing: set[int]) -> PointNotReached:
    return PointNotReached(f"line(s) {', '.join(map(str, sorted(missing)))} hold no event that can be left out")
