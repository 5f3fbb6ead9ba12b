"""The table's screen (issue 36, "No view of the table"): what a TV or a laptop at the table shows of a game.

A :class:`Screen` is made from the game's ``replay --format json`` document as a viewer may see it (so a secret it
hides stays hidden) and the game's last lines: whose turn it is, the round, each player's score towards the goal,
and the game's own panels (its ``replay_document.screen``, the registry's ``GameRules.screen``): facts in words,
and tables of what the players share and hold. Nothing here names a game.
"""

from __future__ import annotations

from typing import Any, Callable

from gamelog.domain.replay_document import Document


class ScreenFact(Document, kw_only=True):
    """One fact of the game's state in words: its ``label`` and its ``value``."""

    label: str
    value: str


class Panel(Document, kw_only=True):
    """One table of the screen: its ``title``, its ``columns`` and its ``rows`` of text, one cell a column."""

    title: str
    columns: list[str]
    rows: list[list[str]]


class Standing(Document, kw_only=True):
    """One player on the score track: their ``score`` (the game's ``score_name``) and ``note`` (what else a player
    looks at first: a faction, where the ship stands)."""

    player: str
    score: int | None
    note: str = ""


class LastLine(Document, kw_only=True):
    """One of the game's last lines: its number, its words, and whether a later correction voided it."""

    line: int
    words: str
    voided: bool = False


class Screen(Document, kw_only=True):
    """The table's screen of one game at its latest line: ``due`` (whose turn is under way or comes next; None
    once the game is over), ``active`` (whose turn is under way), the ``round`` (None in a game of turns), the score
    track (``standings`` in seat order, ``score_name``, ``goal``), the game's ``facts`` and ``panels``, and its
    ``last`` lines (the latest last)."""

    game: str
    id: str
    line: int
    turn: int
    round: int | None
    finished: bool
    winner: str | None
    due: str | None
    active: str | None
    score_name: str
    goal: int | None
    standings: list[Standing]
    facts: list[ScreenFact] = []
    panels: list[Panel] = []
    last: list[LastLine] = []


ScreenOf = Callable[[dict[str, Any]], tuple[list[ScreenFact], list[Panel], dict[str, str]]]
"""``(replay document as plain JSON) -> (facts, panels, a note by player)``: a game's ``replay_document.screen``."""


def nothing_more(document: dict[str, Any]) -> tuple[list[ScreenFact], list[Panel], dict[str, str]]:
    """The screen part of a game that shows only its score track."""
    return [], [], {}


def screen_of(document: dict[str, Any], *, score_name: str, goal: int | None, due: str | None, active: str | None,
              last: list[LastLine], own: ScreenOf | None = None) -> Screen:
    """The screen of the game whose replay document (as a viewer sees it, plain JSON) is ``document``: its score
    track read from each player's ``score_name``, the game's own facts and panels from ``own``."""
    facts, panels, notes = (own or nothing_more)(document)
    players = document.get("players") or {}
    standings = [Standing(player=name, score=_score(held, score_name), note=notes.get(name, ""))
                 for name, held in players.items()]
    finished = bool(document.get("finished"))
    return Screen(game=document["game"], id=document["id"], line=document["line"], turn=document.get("turn") or 0,
                  round=document.get("round"), finished=finished, winner=document.get("winner"),
                  due=None if finished else due, active=None if finished else active, score_name=score_name,
                  goal=goal, standings=standings, facts=facts, panels=panels, last=last)


def _score(held: dict[str, Any], name: str) -> int | None:
    value = held.get(name)
    return value if isinstance(value, int) else None


def mark(yes: bool) -> str:
    """A cell of a grid that says yes (a card a player holds or scored) or stays empty."""
    return "\u25cf" if yes else ""
