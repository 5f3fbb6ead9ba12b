"""The state after each line of a game, as ``replay --line N`` shows it: what the HTML report's replay scrubs through.

The history is folded once, by the game's own folds (the engine's ``apply``,
as ``domain.replay.state_at`` does): nothing here decides or re-checks a rule.
After the last event of each line the state's replay document is taken.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import chain
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
    return list(states_at(game, history, lines))


def states_at(game: str, history: Iterable[Any], lines: Iterable[int]) -> Iterator[Replay]:
    """:func:`line_states` one document at a time, as the fold reaches each line: what is held is the fold's state
    and the document being read, however long the history (the HTML report writes each as it comes)."""
    it = iter(history)
    first = next(it)
    engine = GAMES[game].engine.from_history([first], history=False)
    state = engine.state
    wanted = chain([first.line], lines)  # the header's line may hold several events (its setup's)
    at = next(wanted, None)
    for event in it:
        # The state after a wanted line is the one before the first event past it.
        while at is not None and event.line > at:
            yield _document_at(state, at)
            at = next(wanted, None)
        engine.apply(event)
    while at is not None:
        yield _document_at(state, at)
        at = next(wanted, None)


def _document_at(state: Any, line: int) -> Replay:
    if state.line != line:
        raise LineNotInHistory(f"the history holds no event on line {line}")
    return state.document()
