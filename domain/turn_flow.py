"""The turn flow: the taps that take a game from one player's turn to the next, each with the lines it records.

A step is what a table does between two turns in one tap: end Ann's turn and start Bob's ("End turn: Bob's turn"),
start the first turn, pass, begin the next phase. Every game has the steps that end the turn under way and start
the next player's, the player the engine expects next (``Engine.expected_player``: seat order; TI4's initiative);
a game adds its own (the registry's ``GameRules.turn_steps``, from its ``game`` module: a pass, a phase).

A step is offered only when its lines, decided by the game's engine on the state as it is, break no rule: the
rule asked early, never a copy of it. Once the game is over no step is offered.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Callable, Iterable

from gamelog.domain.engine import VIOLATION, Engine
from gamelog.domain.events import FindingRaised, Recorded, TurnEnded, TurnStarted


@dataclass(frozen=True)
class TurnStep:
    """One tap of the turn flow: ``id`` (what a client names it by: ``end_turn``, ``start_turn``, a game's own),
    ``label`` in players' words ("End turn: Bob's turn"), and the ``lines`` it records, in order."""

    id: str
    label: str
    lines: tuple[Recorded, ...]


StepsOf = Callable[[Engine], Iterable[TurnStep]]
"""``(engine at the current line) -> the game's own candidate steps``: a game's ``GameRules.turn_steps``."""


def decided(engine: Engine, lines: Iterable[Recorded]) -> Engine:
    """A copy of ``engine`` with ``lines`` decided after its last line (``engine`` itself is left as it was)."""
    scratch = copy.deepcopy(engine)
    at = scratch.state.line
    for event in lines:
        at += 1
        scratch.record(at, event)
    return scratch


def holds(engine: Engine, lines: Iterable[Recorded]) -> bool:
    """Whether ``lines``, decided after the engine's last line, break no rule (no violation)."""
    scratch = copy.deepcopy(engine)
    at = scratch.state.line
    for event in lines:
        at += 1
        if any(isinstance(e, FindingRaised) and e.severity == VIOLATION for e in scratch.record(at, event)):
            return False
    return True


def turn_change(engine: Engine) -> TurnStep:
    """The step every game has: end the turn under way (when it is not over yet) and start the next player's, the
    player the engine expects once it has ended; or start the first turn."""
    s = engine.state
    ending = (TurnEnded(player=s.active),) if s.active is not None and s.turn_over is None else ()
    after = decided(engine, ending) if ending else engine
    following = after.expected_player()
    lines = (*ending, TurnStarted(player=following))
    if ending:
        return TurnStep("end_turn", f"End turn: {following}'s turn", lines)
    return TurnStep("start_turn", f"Start {following}'s turn", lines)


def turn_steps(engine: Engine, own: StepsOf | None = None) -> list[TurnStep]:
    """The steps offered at the engine's state, the game's own first (``own``: its ``GameRules.turn_steps``), each one whose
    lines break no rule; none once the game is over. Ids are unique (a game's own step replaces the common one of
    the same id)."""
    if engine.state.ended is not None:
        return []
    candidates = [*(own(engine) if own is not None else ()), turn_change(engine)]
    steps: dict[str, TurnStep] = {}
    for step in candidates:
        if step.id not in steps and holds(engine, step.lines):
            steps[step.id] = step
    return list(steps.values())
