"""Event policies, and the events every game has.

Two kinds of event live in a game's history:

* **Recorded** events are what people wrote in the log, one per line
  (``turn_started``, ``correction``...). They are decoded from JSON Lines with
  ``forbid_unknown_fields``, because a misspelled field in a hand-written log is
  a mistake to report, not data to ignore.
* **Derived** events are what the domain decided from them: a commission, the
  end of a turn, a finding. They are stored after the line that caused them and
  carry its number in ``line``. Every field added to a derived event after the
  first release must have a default, so that stored events stay readable.

Both are frozen msgspec Structs: immutable, cheap, encoded by msgspec.
"""

from __future__ import annotations

from typing import Annotated, ClassVar

import msgspec

PositiveInt = Annotated[int, msgspec.Meta(gt=0)]
"""A quantity, amount or cost: a whole number above zero."""

NonNegativeInt = Annotated[int, msgspec.Meta(ge=0)]
Name = Annotated[str, msgspec.Meta(min_length=1)]

PLAYER: dict[str, frozenset[str]] = {"player": frozenset()}
"""``Recorded.PLAYER_FIELDS`` of an event whose only player field is ``player``."""


class Recorded(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    tag_field="type",
    forbid_unknown_fields=True,
    omit_defaults=True,
):
    """Base of every object of a recorded log, tagged by its ``type``.

    ``at`` (when it was recorded) and ``source`` (where a converter took it
    from) may stand on any object; they are kept and shown, never used to order
    events: the line order is the order of play.

    ``PLAYER_FIELDS`` names the fields that must hold a player of the header,
    with the other words each may hold instead (``bank``); the reader checks
    them, so rules can trust every name they see.
    """

    PLAYER_FIELDS: ClassVar[dict[str, frozenset[str]]] = {}

    at: str | None = None
    source: str | None = None


class Derived(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """Base of every event the domain decides; ``line`` is the log line that caused it."""

    line: int


class Invertible(Derived, frozen=True, kw_only=True):
    """A derived event that changes game state and can be undone.

    A ``correction`` that voids a line stores the inverse of each of that
    line's invertible events, so the voided line has no effect on any state
    while every stored event stays as it was.
    """

    def inverse(self, line: int) -> "Invertible":
        """The event that undoes this one, caused by ``line`` (the correction)."""
        raise NotImplementedError(type(self).__name__)


class Counted(Invertible, frozen=True, kw_only=True):
    """Something gained (``count`` > 0) or lost (< 0): a token, a card, a reveal. Undone by negating the count."""

    count: int = 1

    def inverse(self, line: int) -> "Counted":
        return msgspec.structs.replace(self, line=line, count=-self.count)


class Change(Invertible, frozen=True, kw_only=True):
    """A player's running count (credits, VP, trade goods...) changes by ``delta`` under ``rule``.

    Each game names its counts with subclasses of its own (one for its
    credits, one for its VP...); a count changes only through its class, so
    the projections add up exactly what the rules decided.
    """

    player: str
    delta: int
    rule: str
    reason: str

    def inverse(self, line: int) -> "Change":
        return msgspec.structs.replace(self, line=line, delta=-self.delta, reason=f"void line {self.line}: {self.reason}")


class GameHeader(Recorded, kw_only=True):
    """The first line of every log: the game's ``id`` in a store and its players in seating order.

    Each game's ``Header`` adds ``game`` and its ``setup``, and extends
    :meth:`check` (raising ``ValueError`` with the path, which the reader turns
    into an input error of the header line).
    """

    id: Name
    players: list[Name]

    def __post_init__(self) -> None:
        self.check()

    def check(self) -> None:
        """Raise ``ValueError`` (with the field's path) when the header is not a game's."""
        if not self.players:
            raise ValueError("a game needs at least one player - at `$.players`")
        if len(set(self.players)) != len(self.players):
            raise ValueError("player names must be unique - at `$.players`")


class PlayerRecorded(Recorded, kw_only=True):
    """A recorded event done by (or to) one player of the header, named in ``player``."""

    PLAYER_FIELDS = PLAYER
    player: Name


# --- Recorded events every game has -------------------------------------------------


class TurnStarted(PlayerRecorded, tag="turn_started"):
    """That player's turn begins."""



class TurnEnded(PlayerRecorded, tag="turn_ended"):
    """That player's turn ends; end-of-turn rules are checked here."""



class Correction(Recorded, tag="correction"):
    """The event at line ``voids`` is void: kept in the log, without effect on state."""

    voids: PositiveInt
    reason: str


class Note(Recorded, tag="note"):
    """A remark kept in the log and shown in reports."""

    PLAYER_FIELDS = PLAYER
    text: str
    player: str | None = None


class ScoreClaimed(PlayerRecorded, tag="score_claimed"):
    """What the table believed a player's score was at this point."""

    vp: int | None = None
    net_worth: int | None = None

    def __post_init__(self) -> None:
        if (self.vp is None) == (self.net_worth is None):
            raise ValueError("score_claimed needs exactly one of `vp` and `net_worth`")


COMMON_EVENTS = (TurnStarted, TurnEnded, Correction, Note, ScoreClaimed)


# --- Derived events every game has --------------------------------------------------


class FindingRaised(Derived, frozen=True, kw_only=True):
    """A rule finding on a line: stored so that an audit reads it back.

    ``severity`` is ``violation`` (the log breaks the rule), ``unverifiable``
    (the log lacks what the rule needs) or ``warning`` (legal but suspicious).
    """

    rule: str
    severity: str
    message: str
    player: str | None = None


class TurnBegan(Derived, frozen=True, kw_only=True):
    """Turn number ``turn`` (counted from 1) is ``player``'s."""

    player: str
    turn: int


class TurnFinished(Derived, frozen=True, kw_only=True):
    """The turn is over; ``rule`` and ``cause`` say what ended it."""

    player: str
    turn: int
    rule: str
    cause: str


class LineVoided(Derived, frozen=True, kw_only=True):
    """The correction at ``line`` voids line ``voided``."""

    voided: int
    reason: str


class GameWon(Derived, frozen=True, kw_only=True):
    """The game is over; ``winner`` won (None when it could not be decided) for ``reason``."""

    winner: str | None
    rule: str
    reason: str


class ScoreChecked(Derived, frozen=True, kw_only=True):
    """A ``score_claimed`` line compared with the computed score at that line."""

    player: str
    claimed: int
    computed: int
