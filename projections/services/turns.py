"""The turn flow of a stored game (``domain.turn_flow``): the steps offered at its end, and who may take one.

What the recorder's forms list as ``turn`` (``GET /api/games/{id}/forms``); ``DecidedGame.take_step`` records one
(``POST /api/games/{id}/turn``).
"""

from __future__ import annotations

from typing import Any

import msgspec

from gamelog.domain.games import GAMES
from gamelog.domain.turn_flow import TurnStep, turn_steps
from gamelog.projections.reports.forms import TurnStepForm

__all__ = ["may_take", "step_forms", "steps_offered"]


def steps_offered(engine: Any) -> list[TurnStep]:
    """The steps of the turn flow at ``engine``'s state (a game's engine at the end of its stored history)."""
    return turn_steps(engine, GAMES[engine.state.header.game].turn_steps)


def step_forms(engine: Any) -> list[TurnStepForm]:
    """The steps offered at ``engine``'s state, as the forms document lists them (``turn``)."""
    return [TurnStepForm(id=step.id, label=step.label, lines=[msgspec.to_builtins(line) for line in step.lines])
            for step in steps_offered(engine)]


def may_take(step: TurnStep, engine: Any, seat: str) -> bool:
    """Whether the seat of player ``seat`` may take ``step``: the player whose turn is under way (ending it), or
    one the step's lines name (starting their turn); a step that names no player (a new phase), any seat."""
    named = {getattr(line, "player", None) for line in step.lines} - {None}
    return not named or seat in named or seat == engine.state.active
