"""The table's screen of a stored game (``domain.screen``), as one viewer may see it: what ``GET
/api/games/{id}/screen`` answers and the table page (``/games/{id}/table``) and each seat's page show.

Made from the replay document as that viewer sees it (``replaying.state_of`` with ``as_player``: a seat's view
hides what its player may not know, a spectator's the public view) and the last lines as they see them, so the
screen never shows more than the viewer's own view does.
"""

from __future__ import annotations

from typing import Any, Callable

import msgspec

from gamelog.domain.events import Correction
from gamelog.domain.games import GAMES
from gamelog.domain.screen import LastLine, Screen, screen_of
from gamelog.projections.store.application import GameStore

from .replaying import state_of
from .secrecy import Public, redaction
from .sources import StoredGame

__all__ = ["LAST_LINES", "screen"]

LAST_LINES = 8
"""How many of the game's last lines the screen shows."""


def screen(store: GameStore, game_id: str, as_player: str | Public | None = None) -> Screen:
    """The table's screen of the stored game at its latest line, as ``as_player`` may see it (None: everything;
    ``secrecy.PUBLIC``: the public view). Raises ``GameNotFound``, ``PlayerNotFound`` and the store's errors."""
    source = StoredGame(store, game_id, "")
    rules = GAMES[source.game]
    document = msgspec.to_builtins(state_of(source, as_player=as_player))
    history = list(source.history())
    engine = rules.engine.from_history(history, history=False)
    state = engine.state
    active = state.active if state.ended is None and state.turn_over is None else None
    due = engine.who_is_due()  # as the forms say it
    view = redaction(source, as_player) if as_player is not None else None
    last = _last_lines(history, rules.engine.LINE_RECORDED, rules.phrase)
    if view is not None:
        last = view(last)
    return screen_of(document, score_name=rules.measures.score_name, goal=rules.goal(history[0].event), due=due,
                     active=active, last=last, own=rules.screen)


def _last_lines(history: list, line_recorded: type, phrase: Callable[[Any], tuple[str, str | None, str]]) -> list[LastLine]:
    """The game's last :data:`LAST_LINES` lines that hold an event (not the header), in words (``phrase``: the
    game's ``GameRules.phrase``), each voided one said so."""
    recorded = [(e.line, e.event) for e in history if type(e) is line_recorded]
    voided = {event.voids for _, event in recorded if type(event) is Correction}
    return [LastLine(line=line, words=phrase(event)[2], voided=line in voided)
            for line, event in recorded[1:][-LAST_LINES:]]
