"""The state after each line of a game, as ``replay --line N`` shows it: what the HTML report's replay scrubs through.

The history is folded once, by the game's own folds (the engine's ``apply``,
as ``domain.replay.state_at`` does): nothing here decides or re-checks a rule.
After the last event of each line the state's replay document is taken.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gamelog.domain.replay_document import Replay
from gamelog.domain.games import GAMES


class LineNotInHistory(ValueError):
    """Raised when a line asked for (a line of the views) holds no event of the history: the two disagree."""


def line_states(game: str, history: Iterable[Any], lines: Iterable[int]) -> list[Replay]:
    """The replay document after the header's line, then after each of ``lines`` (in order), from one fold.

    ``history`` is the game's stored (or freshly decided) events, the header's
    first. Raises :class:`LineNotInHistory` when a line of ``lines`` has no event in it.
    """
    it = iter(history)
    first = next(it)
    engine = GAMES[game].engine.from_history([first], history=False)
    state = engine.state
    wanted = [first.line, *lines]
    out: list[Replay] = []
    position = 0
    for event in it:
        # The state after a wanted line is the one before the first event past it.
        while position < len(wanted) and event.line > wanted[position]:
            out.append(_document_at(state, wanted[position]))
            position += 1
        engine.apply(event)
    while position < len(wanted):
        out.append(_document_at(state, wanted[position]))
        position += 1
    return out


def _document_at(state: Any, line: int) -> Replay:
    if state.line != line:
        raise LineNotInHistory(f"the history holds no event on line {line}")
    return state.document()
