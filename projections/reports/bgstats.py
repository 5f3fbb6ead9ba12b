"""BG Stats' play document: what gamelog hands BG Stats, the play logger most groups keep their plays in.

The fields and their types are BG Stats' own "push plays from other apps" format
(https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/): the same object is the
``data`` of its push link and, saved with the extension ``.bgsplay``, a file BG Stats opens. Optional fields
gamelog cannot fill are left out, never sent empty.
"""

from __future__ import annotations

from urllib.parse import quote

import msgspec
from msgspec import UNSET, UnsetType

PUSH = "https://app.bgstatsapp.com/createPlay.html?data="
"""BG Stats' push link: its ``data`` is the play document, URL-encoded JSON."""

SOURCE_NAME = "gamelog"
"""The play's ``sourceName``: the app that made it."""

SUFFIX = ".bgsplay"
"""The extension of a play file BG Stats opens."""


class BGStatsGame(msgspec.Struct, kw_only=True, omit_defaults=True):
    """The game played: its published name (what BG Stats matches by), BoardGameGeek's id where known, whether the
    highest score wins, ``noPoints`` (false: it is played for points), and gamelog's name of the game."""

    name: str
    bggId: int | UnsetType = UNSET
    highestWins: bool
    noPoints: bool
    sourceGameId: str


class BGStatsPlayer(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A player of the play: name, score, whether they won, their rank (1: first), whether they played first,
    their role (a faction; left out in a game without one) and gamelog's id of them (their name in the log)."""

    name: str
    score: int
    winner: bool
    rank: int
    startPlayer: bool
    role: str | UnsetType = UNSET
    sourcePlayerId: str


class BGStatsPlay(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One play, as BG Stats takes it: ``sourceName`` gamelog, ``sourcePlayId`` the game's id and fingerprint,
    ``playDate`` (``YYYY-MM-DD HH:MM:SS``, UTC) and ``durationMin`` from the lines' ``at`` (left out where the log
    has none), ``comments`` where the result stands at the table."""

    sourceName: str
    sourcePlayId: str
    playDate: str | UnsetType = UNSET
    durationMin: int | UnsetType = UNSET
    comments: str | UnsetType = UNSET
    game: BGStatsGame
    players: list[BGStatsPlayer]


def play_json(play: BGStatsPlay) -> bytes:
    """The play document as BG Stats reads it (a file's bytes)."""
    return msgspec.json.format(msgspec.json.encode(play), indent=2) + b"\n"


def push_link(play: BGStatsPlay) -> str:
    """BG Stats' push link of ``play``: opening it on a phone with BG Stats shows the play's import dialog."""
    return PUSH + quote(msgspec.json.encode(play).decode("utf-8"), safe="")
