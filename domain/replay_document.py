"""The part of ``replay --format json`` that every game shares (docs/cli.md), as msgspec Structs.

Each game's ``replay_document`` module subclasses :class:`Replay` (tagged
with the game's name in ``game``) and narrows ``players`` (and ``end``, if
it says more) to its own Structs; its state's ``document_fields`` fills
them, and ``GameState.document`` adds the fields read here. The fields keep
the order of the JSON that scripts already read.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator

import msgspec
from msgspec import UNSET, UnsetType


class Document(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """The base of every document gamelog prints.

    ``forbid_unknown_fields``: decoding a document that has a field its Struct
    lacks fails, so a test that decodes the CLI's output proves the types
    cover all of it. Subclasses say ``kw_only=True`` again (msgspec does not
    inherit it): fields are given by name, and one with a default may precede
    one without, which the JSON's order needs.
    """

    def to_dict(self) -> dict[str, Any]:
        """This document as plain Python (dicts, lists, str, int, float, bool, None), named as ``--format json``
        names it: ``msgspec.to_builtins(document)``, which gives the same (``json.dumps`` takes either)."""
        return msgspec.to_builtins(self)


class StreamedRows:
    """The rows of one list of a document, made again each time they are read (``make()`` gives a fresh iterator).

    A list as long as a game (the statistics' row a player and turn, a what-if's standings of each turn) is held
    by no one: its rows are written as they are read (from the views, or a scratch table), again when a text
    table measures its columns first. A document holding one is written while what it reads is open;
    :func:`held` makes its rows a list.
    """

    def __init__(self, make: Callable[[], Iterable[Any]]):
        self._make = make

    def __iter__(self) -> Iterator[Any]:
        return iter(self._make())

    def __eq__(self, other: object) -> bool:
        """Equal to rows (a list, or StreamedRows) that are the same, in the same order: both are read."""
        if not isinstance(other, (StreamedRows, list)):
            return NotImplemented
        return list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"StreamedRows({list(self)!r})"


def held(document: Any) -> Any:
    """``document`` with each of its :class:`StreamedRows` read into a list (the document as its Struct types it)."""
    lazy = {name: list(value) for name in document.__struct_fields__
            if isinstance(value := getattr(document, name), StreamedRows)}
    return msgspec.structs.replace(document, **lazy) if lazy else document


class End(Document, kw_only=True):
    """How a finished game ended: the line, the rule that ended it, and why."""

    line: int
    rule: str
    reason: str


class Replay(Document, kw_only=True, tag_field="game"):
    """The state after a line: the fields every game has. ``game`` is the tag (the game's name).

    ``turn`` counts turns from 1 (null before the first); ``round`` is the
    round under way in a game with rounds (null in other games); ``board`` is
    the counts of what the players share (the game's ``Board``: null for a
    game without one), and ``forum`` the same value under its old name,
    deprecated (docs/cli.md); ``end`` is there only once the game is over.
    """

    id: str
    line: int
    turn: int | None
    round: int | None
    finished: bool
    winner: str | None
    players: dict[str, Any]
    board: dict[str, int] | None = None
    forum: dict[str, int] | None = None
    end: End | UnsetType = UNSET
    voided_lines: list[int]
    version: int = 1
    """The document's version: 1. Fields are added within a version; a change that is not an addition raises it."""

    @property
    def game(self) -> str:
        """The game's name: the tag, which the JSON gives as ``game``."""
        return self.__struct_config__.tag


def shared_fields(state: Any) -> dict[str, Any]:
    """The fields of :class:`Replay` read off a state's generic part (``domain.engine.GameState``)."""
    ended = state.ended
    board = state.board()
    return {
        "id": state.header.id,
        "line": state.line,
        "turn": state.turn or None,
        "round": state.round_number(),
        "finished": ended is not None,
        "winner": ended.winner if ended else None,
        "board": board,
        "forum": board,  # the deprecated name of ``board``, kept for one schema version
        "end": UNSET if ended is None else End(line=ended.line, rule=ended.rule, reason=ended.reason),
        "voided_lines": sorted(state.voided),
    }
