"""The rules engine every game shares: turns, corrections, claims and the end.

An :class:`Engine` reads one game's recorded events in line order. For each it
*decides* what the rules make of it and emits derived events (findings, the
end of a turn, a commission...), and it *folds* every event, recorded or
derived, into its state. Stored history is replayed through the same fold
(``apply``) without deciding anything again, so a stored game and a log file
read in memory reach the same state by the same code.

A violation never stops the engine: the table did it, so the event is applied
as recorded and a :class:`~domain.events.FindingRaised` is attached to its line.

Each game subclasses :class:`Engine` and :class:`GameState`, fills in
``decide_event`` and the hooks, and names its rule IDs in the class attributes.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from typing import Any, Callable, ClassVar, Iterable, NamedTuple

from domain.events import (
    Correction,
    Derived,
    FindingRaised,
    GameWon,
    Invertible,
    LineVoided,
    Note,
    Recorded,
    ScoreChecked,
    ScoreClaimed,
    TurnBegan,
    TurnEnded,
    TurnFinished,
    TurnStarted,
)

VIOLATION = "violation"
WARNING = "warning"
UNVERIFIABLE = "unverifiable"

class Problem(NamedTuple):
    """A finding before it is stored: the rule ID, a one-line message, and its severity.

    Each game's ``rules`` module returns these; the engine stores them with :meth:`Engine.report`.
    """

    rule: str
    message: str
    severity: str = VIOLATION


_INVERTIBLE: set[type] = set()  # the Invertible classes seen, to spare an isinstance per event

CORRECTION_RULE = "LOG-CORRECTION"
"""LOG_FORMAT.md: a correction voids an earlier event line, and never one twice."""


class EffectIndex:
    """The invertible effects of each line, kept so that a correction can undo them.

    This one keeps them in memory. An importer of long logs passes one that
    keeps them on disk (``projections.importing.spill``): same two methods.
    """

    def __init__(self) -> None:
        self._by_line: dict[int, list[Invertible]] = {}

    def add(self, line: int, effect: Invertible) -> None:
        self._by_line.setdefault(line, []).append(effect)

    def of(self, line: int) -> list[Invertible]:
        """The line's effects in the order they were applied (none: an empty list)."""
        return list(self._by_line.get(line, ()))


class GameState:
    """What a game looks like after some line: the fold of its events.

    The generic part knows the line, the turn, whose turn it is and whether it
    is over, the voided lines, and the end. Subclasses add the game's own state
    and register a handler per derived event class in ``HANDLERS``.
    """

    HANDLERS: ClassVar[dict[type, Callable[[Any, Any], None]]] = {}

    def __init__(self, header: Any, header_line: int):
        self.header = header
        self.header_line = header_line
        self.players: list[str] = list(header.players)
        self.line = header_line
        self.turn = 0
        self.active: str | None = None
        self.turn_over: TurnFinished | None = None
        self.ended: GameWon | None = None
        self.voided: set[int] = set()
        self.corrections: set[int] = set()
        self.findings: dict[str, int] = {}
        # Every event line, in order, for checking what a correction names
        # (an unsigned int array costs 4 bytes a line on logs of millions of lines).
        self.event_lines = array("I")
        # The lines where each turn began and ended (turn n at index n - 1), for
        # telling what a correction cannot undo; arrays again, for long logs.
        self.turn_starts = array("I")
        self.turn_ends = array("I")
        # The invertible effects of each line, so a correction can undo them:
        # in memory by default; an importer may keep them on disk (EffectIndex).
        self.effects: EffectIndex = EffectIndex()
        # Other lines a correction cannot undo the consequence of (rare: the end...).
        self.structural: dict[int, str] = {}

    # -- folding -------------------------------------------------------------------

    def apply(self, event: Derived) -> None:
        """Fold one stored event into the state."""
        cls = type(event)
        handler = self.HANDLERS.get(cls)
        if handler is None:
            raise TypeError(f"{type(self).__name__} has no handler for {cls.__name__}")
        if cls in _INVERTIBLE or (issubclass(cls, Invertible) and not _INVERTIBLE.add(cls)):
            self.effects.add(event.line, event)
        handler(self, event)

    def _line_recorded(self, event: Any) -> None:
        self.line = event.line
        if event.line != self.header_line:
            self.event_lines.append(event.line)
            if isinstance(event.event, Correction):
                self.corrections.add(event.line)
        self.on_recorded(event.line, event.event)

    def on_recorded(self, line: int, event: Recorded) -> None:
        """Fold the facts a recorded line states directly (a game may override)."""

    def _turn_began(self, event: TurnBegan) -> None:
        self.turn = event.turn
        self.active = event.player
        self.turn_over = None
        self.turn_starts.append(event.line)

    def _turn_finished(self, event: TurnFinished) -> None:
        self.turn_over = event
        self.turn_ends.append(event.line)

    def _line_voided(self, event: LineVoided) -> None:
        self.voided.add(event.voided)

    def _game_won(self, event: GameWon) -> None:
        self.ended = event
        self.structural[event.line] = "the end of the game"

    def _finding(self, event: FindingRaised) -> None:
        self.findings[event.severity] = self.findings.get(event.severity, 0) + 1

    def _ignore(self, event: Derived) -> None:
        pass

    BASE_HANDLERS: ClassVar[dict[type, Callable[[Any, Any], None]]] = {
        TurnBegan: _turn_began,
        TurnFinished: _turn_finished,
        LineVoided: _line_voided,
        GameWon: _game_won,
        FindingRaised: _finding,
        ScoreChecked: _ignore,
    }

    # -- questions -----------------------------------------------------------------

    def is_event_line(self, line: int) -> bool:
        """True when ``line`` holds an event (not the header, a blank or a comment)."""
        i = bisect_left(self.event_lines, line)
        return i < len(self.event_lines) and self.event_lines[i] == line

    def consequence(self, line: int) -> str | None:
        """What ``line`` began or ended that voiding it does not undo (a turn, the game...), if anything."""
        for lines, what in ((self.turn_starts, "the start"), (self.turn_ends, "the end")):
            i = bisect_left(lines, line)
            if i < len(lines) and lines[i] == line:
                return f"{what} of turn {i + 1}"
        return self.structural.get(line)

    def next_player(self, player: str) -> str:
        """The player on ``player``'s left: the next in seating order."""
        return self.players[(self.players.index(player) + 1) % len(self.players)]

    def score(self, player: str) -> int:
        """The player's score as the game counts it (VP, or net worth)."""
        raise NotImplementedError

    def to_json(self) -> dict[str, Any]:
        """The state as CLI.md's ``replay --format json`` shows it."""
        raise NotImplementedError


class Engine:
    """Applies one game's rules to its recorded events, line by line.

    ``record(line, event)`` returns the events to store for that line: the
    recorded event itself first, then everything the rules decided. Nothing
    here raises for a broken rule; malformed input never reaches the engine
    (the reader rejects it).
    """

    STATE: ClassVar[type[GameState]] = GameState
    LINE_RECORDED: ClassVar[type] = Derived
    TURN_RULE: ClassVar[str] = ""
    END_RULE: ClassVar[str] = ""
    CLAIM_RULE: ClassVar[str] = "CLAIM"
    """A ``score_claimed`` that differs from the computed score (the audit shows the derivation)."""
    CLAIM_FIELD: ClassVar[str] = "vp"
    AFTER_END: ClassVar[tuple[type, ...]] = (Note,)
    """Recorded events that may follow the end of the game without breaking END_RULE."""

    def __init__(self, header: Any, header_line: int = 1, *, opening: bool = True, effects: EffectIndex | None = None):
        self.state = self.STATE(header, header_line)
        if effects is not None:
            self.state.effects = effects
        self._out: list[Derived] = []
        if opening:
            self.emit(self.LINE_RECORDED(line=header_line, event=header))
            self.open_game(header_line)
        self._opening = self._out

    @classmethod
    def from_history(cls, events: Iterable[Derived], effects: EffectIndex | None = None) -> "Engine":
        """Rebuild an engine from stored events: the first must record the header."""
        it = iter(events)
        first = next(it)
        engine = cls(first.event, first.line, opening=False, effects=effects)
        engine.apply(first)
        for event in it:
            engine.apply(event)
        return engine

    def header_events(self) -> list[Derived]:
        """The first events of every history: the header itself, and what the setup gives."""
        return list(self._opening)

    def open_game(self, line: int) -> None:
        """Emit what the setup gives before the first turn (starting credits, the Forum...)."""

    def apply(self, event: Derived) -> None:
        """Fold a stored event without deciding anything (replay)."""
        self.state.apply(event)

    def emit(self, event: Derived) -> None:
        """Store-and-fold an event decided for the current line."""
        self.state.apply(event)
        self._out.append(event)

    def report(self, line: int, player: str | None, problems: list[Problem]) -> bool:
        """Store each problem as a finding on ``line``; True when one was a violation."""
        for p in problems:
            self.find(line, p.rule, p.message, player, p.severity)
        return any(p.severity == VIOLATION for p in problems)

    def find(self, line: int, rule: str, message: str, player: str | None = None, severity: str = VIOLATION) -> None:
        """Attach a finding under ``rule`` to ``line``."""
        self.emit(FindingRaised(line=line, rule=rule, severity=severity, message=message, player=player))

    def record(self, line: int, event: Recorded) -> list[Derived]:
        """Decide and fold one recorded event; return every event to store for it."""
        self._out = []
        self.emit(self.LINE_RECORDED(line=line, event=event))
        state = self.state
        if state.ended is not None and not isinstance(event, self.AFTER_END) and not self._closes_last_turn(event):
            self.find(line, self.after_end_rule(), f"the game ended at line {state.ended.line}; nothing may follow it",
                      getattr(event, "player", None))
        common = _COMMON.get(type(event))
        if common is not None:
            getattr(self, common)(line, event)
        else:
            self.decide_event(line, event)
        return self._out

    def _closes_last_turn(self, event: Recorded) -> bool:
        """The ``turn_ended`` that records the end of the turn in which the game ended is no event after it."""
        s = self.state
        return isinstance(event, TurnEnded) and event.player == s.active and s.turn_over is not None \
            and s.turn_over.line == s.ended.line

    # -- hooks for games -------------------------------------------------------------

    def decide_event(self, line: int, event: Recorded) -> None:
        """Decide a game-specific event (every game overrides this)."""
        raise NotImplementedError

    def after_end_rule(self) -> str:
        """The rule an event after the end breaks (END_RULE; a game with several endings may say which)."""
        return self.END_RULE

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

    def turn_started(self, line: int, event: TurnStarted) -> None:
        s = self.state
        if s.active is not None and s.turn_over is None:
            self.find(line, self.TURN_RULE, f"{event.player}'s turn starts but {s.active}'s turn {s.turn} was never ended", event.player)
            self.finish_turn(line, self.TURN_RULE, "the next turn started")
        expected = self.expected_player()
        if event.player != expected:
            self.find(line, self.TURN_RULE, f"it is {expected}'s turn next, not {event.player}'s", event.player)
        self.emit(TurnBegan(line=line, player=event.player, turn=s.turn + 1))

    def turn_ended(self, line: int, event: TurnEnded) -> None:
        s = self.state
        if s.active != event.player:
            whose = f"{s.active}'s turn" if s.active else "no turn has started"
            self.find(line, self.TURN_RULE, f"{event.player} ends a turn, but it is {whose}", event.player)
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

    def correction(self, line: int, event: Correction) -> None:
        s = self.state
        target = event.voids
        problem = None
        if target >= line:
            problem = f"a correction can only void an earlier line, not line {target}"
        elif target == s.header_line:
            problem = "the header cannot be voided"
        elif not s.is_event_line(target):
            problem = f"line {target} holds no event"
        elif target in s.corrections:
            problem = f"line {target} is itself a correction; corrections cannot be voided"
        elif target in s.voided:
            problem = f"line {target} is already void"
        if problem:
            self.find(line, CORRECTION_RULE, problem)
            return
        self.emit(LineVoided(line=line, voided=target, reason=event.reason))
        for effect in reversed(s.effects.of(target)):
            self.emit(effect.inverse(line))
        consequence = s.consequence(target)
        if consequence:
            self.find(line, CORRECTION_RULE, f"line {target} caused {consequence}, which a correction does not undo", severity=WARNING)

    def note(self, line: int, event: Note) -> None:
        """A note is kept in the log and decides nothing."""

    def score_claimed(self, line: int, event: ScoreClaimed) -> None:
        claimed = getattr(event, self.CLAIM_FIELD)
        if claimed is None:
            other = "net_worth" if self.CLAIM_FIELD == "vp" else "vp"
            self.find(line, self.CLAIM_RULE, f"this game's score is `{self.CLAIM_FIELD}`, not `{other}`; the claim cannot be checked",
                      event.player, UNVERIFIABLE)
            return
        computed = self.state.score(event.player)
        self.emit(ScoreChecked(line=line, player=event.player, claimed=claimed, computed=computed))
        if claimed != computed:
            self.find(line, self.CLAIM_RULE, f"{event.player}'s {self.CLAIM_FIELD} is claimed as {claimed}, but the log gives {computed}", event.player)
            self.explain_claim(line, event.player, claimed)

    def explain_claim(self, line: int, player: str, claimed: int) -> None:
        """A game may say which of its rules a wrong claim misapplied (a finding of its own)."""


_COMMON: dict[type, str] = {
    TurnStarted: "turn_started",
    TurnEnded: "turn_ended",
    Correction: "correction",
    ScoreClaimed: "score_claimed",
    Note: "note",
}
"""The events every game has, and the Engine method that decides each (games may override them)."""
