"""Replay a game to a point: its state after a line, at the end of a turn or a round, or at the end."""

from __future__ import annotations

from itertools import chain

from gamelog.domain.replay_document import Replay
from gamelog.domain.games import GAMES
from gamelog.domain.replay import PointNotReached, state_at
from gamelog.projections.reports.replay import render_replay_json, render_replay_text
from gamelog.projections.reports.terminal import WIDTH

from .errors import NotPlayedInRounds, PointNotInGame
from .wording import option
from .progress import Progress
from .secrecy import redaction_at
from .sources import Source, open_game


def replay(game: str, store: str, *, line: int | None = None, turn: int | None = None,
           round: int | None = None, as_player: str | None = None, source_format: str | None = None,
           progress: Progress | None = None) -> Replay:
    """The replay document of GAME (a log file, or a stored game's id in ``store``) at one point, at most one of
    ``line``, ``turn`` and ``round`` given (the end when none is); with ``as_player``, what that player may know
    there (``secrecy``: others' secrets hidden). ``source_format``: GAME is that tool's export (``sources.open_game``).
    ``progress``, given, shows a large log being read.

    Raises what :func:`state_of` raises, :class:`~.errors.GameNotFound`, :class:`~.errors.BadInput` and the
    store's errors.
    """
    with open_game(game, store, source_format, progress) as source:
        return state_of(source, line=line, turn=turn, round=round, as_player=as_player)


def replay_output(game: str, store: str, *, fmt: str = "text", width: int = WIDTH, line: int | None = None,
                  turn: int | None = None, round: int | None = None, as_player: str | None = None,
                  source_format: str | None = None, progress: Progress | None = None) -> str:
    """``gamelog replay``: :func:`replay`'s document as text for ``width`` columns, or JSON (``fmt``). Raises what
    :func:`replay` raises."""
    document = replay(game, store, line=line, turn=turn, round=round, as_player=as_player,
                      source_format=source_format, progress=progress)
    return render_replay_json(document) if fmt == "json" else render_replay_text(document, width)


def state_of(source: Source, *, line: int | None = None, turn: int | None = None,
             round: int | None = None, as_player: str | None = None) -> Replay:
    """The replay document of a game at one point (the end when none is given), its history folded to there;
    with ``as_player``, what that player may know there (``secrecy``).

    Raises :class:`~.errors.NotPlayedInRounds`, :class:`~.errors.PointNotInGame` (a line before the header, a
    point past the end), :class:`~.errors.PlayerNotFound` (``as_player`` not in the game), and ValueError for
    more than one point.
    """
    if sum(x is not None for x in (line, turn, round)) > 1:
        raise ValueError("give at most one of line, turn and round")
    name = source.game
    if round is not None and GAMES[name].round_of is None:
        raise NotPlayedInRounds(f"{source.name}: {name} is not played in rounds; give "
                                f"{option('--turn or --line', 'turn= or line=')}")
    # A stored game resumes from the views' last replay snapshot before the point, when they have one.
    resumed = source.resumed(line=line, turn=turn, round=round)
    if resumed is None:
        events = iter(source.history(turn=turn))
        header, state = next(events), None
    else:
        header, state, events = resumed
    if line is not None and line < header.line:
        raise PointNotInGame(f"{source.name}: line {line} is before the header (line {header.line}); "
                             "the game starts there")
    try:
        if state is None:
            state = state_at(name, chain([header], events), line=line, turn=turn, round=round)
        else:
            state = state_at(name, events, line=line, turn=turn, round=round, resumed=state)
    except PointNotReached as exc:
        raise PointNotInGame(f"{source.name}: {exc}") from exc
    if as_player is None:
        return state.document()
    return redaction_at(source, as_player, state)(state.document())
