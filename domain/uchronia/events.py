"""Uchronia events: the log's lines (docs/log-format.md) and what the rules decide.

Recorded events mirror the log format's table for ``uchronia``, plus
``winner_declared``: the table's announcement of the winner, the one line the
rules can check UCH-WINNER against. Derived events are the consequences the
rules fix (RULES.md): every change of victory points is a :class:`VpChanged`
naming its rule, so that a player's VP are the sum of what the domain decided;
the Forum, buildings and monopolies change through invertible events, so that
a correction can undo them.
"""

from __future__ import annotations

from typing import Literal, Union

import msgspec

from gamelog.domain.events import (
    Change,
    Counted,
    Derived,
    GameHeader,
    Goal,
    Name,
    NonNegativeInt,
    PLAYER,
    PlayerRecorded,
    PositiveInt,
    Recorded,
    SignedInt,
    game_events,
)
from gamelog.domain.uchronia.reference import STARTING_OPERATIONS_LIMIT, THRESHOLD, Color
from gamelog.domain.msgspec_wording import invalid_at


class ForumCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A named card on the Forum at the start."""

    card: Name
    color: Color


class Setup(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Game settings; each has a default (see ``reference``).

    ``last_turn_card``: who holds the Last Turn card (default: the last player
    in seating order, so that every player has had as many turns; not in the
    seeds). ``threshold``: VP that end the game (default by player count,
    UCH-THRESHOLD). ``forum``: the cards on the Forum at the start.
    ``operations_limit``: every player's Operations limit at the start.
    """

    last_turn_card: Name | None = None
    threshold: Goal | None = None
    forum: tuple[Union[Color, ForumCard], ...] = ()
    operations_limit: NonNegativeInt = STARTING_OPERATIONS_LIMIT


class Header(GameHeader, tag="game"):
    """The first line of an Uchronia log.

    Raises ``ValueError`` (an input error of the header line) for missing or
    repeated players, a Last Turn card held by no player, or a player count
    with no default threshold and none given.
    """

    game: Literal["uchronia"]
    setup: Setup = Setup()

    def check(self) -> None:
        super().check()
        holder = self.setup.last_turn_card
        if holder is not None and holder not in self.players:
            raise invalid_at(f"the Last Turn card's holder {holder!r} is not a player", f"$.setup.last_turn_card")
        if self.setup.threshold is None and len(self.players) not in THRESHOLD:
            raise invalid_at(f"no default threshold for {len(self.players)} players (2 to 5); give one", f"$.setup.threshold")

    def threshold(self) -> int:
        """UCH-THRESHOLD: the setup's threshold, else the one for this many players."""
        return self.setup.threshold or THRESHOLD[len(self.players)]

    def last_turn_holder(self) -> str:
        """Who holds the Last Turn card (the last player in seating order by default)."""
        return self.setup.last_turn_card or self.players[-1]

    def forum_colors(self) -> list[str]:
        """The colors of the Forum's starting cards, one per card."""
        return [c if isinstance(c, str) else c.color for c in self.setup.forum]


class ForumCardAdded(Recorded, tag="forum_card_added"):
    """A card goes onto the Forum (an order played, or a card placed by ``player``)."""

    PLAYER_FIELDS = PLAYER
    color: Color
    card: Name | None = None
    player: Name | None = None


class ForumCardRemoved(Recorded, tag="forum_card_removed"):
    """A card leaves the Forum for a reason other than a construction or a monopoly."""

    color: Color
    reason: str
    card: Name | None = None


class ConstructionStarted(PlayerRecorded, tag="construction_started"):
    """UCH-START, UCH-UNIQUE: ``player`` lays the foundation of ``building``."""

    building: Name
    color: Color
    vp: PositiveInt | None = None


class ResourceMoved(PlayerRecorded, tag="resource_moved"):
    """UCH-MOVE: one resource goes from the Storehouse under ``building``.

    One line per resource; a Construction order may move any number of them
    (the seed sets no limit), so nothing limits how many lines one turn holds.
    """

    building: Name
    color: Color


class MonopolyChanged(Recorded, tag="monopoly_changed"):
    """Who now holds ``color``'s monopoly (None: no one) and its Operations (UCH-SCORE)."""

    PLAYER_FIELDS = PLAYER
    color: Color
    player: Name | None
    operations: NonNegativeInt


class ForumCardTaken(PlayerRecorded, tag="forum_card_taken"):
    """UCH-MONOPOLY-BONUS: the monopoly holder moves a Forum card to their hand."""

    color: Color
    card: Name | None = None


class VpAdjusted(PlayerRecorded, tag="vp_adjusted"):
    """A building effect changes a player's VP (UCH-EFFECT, UCH-SCORE)."""

    delta: SignedInt
    reason: str


class WinnerDeclared(Recorded, tag="winner_declared"):
    """The table's announcement of the winner (None: a tie), checked under UCH-WINNER.

    Not in the shared log format's table: without it a log states nothing that
    UCH-WINNER could contradict. It is the one event allowed after the end.
    """

    PLAYER_FIELDS = PLAYER
    player: Name | None
    reason: str | None = None




# --- What is stored ------------------------------------------------------------------


class ForumChanged(Counted, frozen=True, kw_only=True):
    """``count`` cards of ``color`` go onto (> 0) or leave (< 0) the Forum under ``rule``."""

    color: str
    rule: str
    reason: str


class BuildingStarted(Derived, frozen=True, kw_only=True):
    """UCH-START: ``building`` is under construction in ``player``'s Residence.

    ``undoes`` is 0; histories stored before corrections were decided again hold
    starts taken back by a correction (``undoes`` = the start's line), still replayed.
    """

    player: str
    building: str
    color: str
    cost: int
    vp: int
    turn: int
    undoes: int = 0


class ResourcePlaced(Counted, frozen=True, kw_only=True):
    """UCH-MOVE: ``count`` resources go under (or, undone, leave) a building being built.

    ``counts`` says whether they count toward its completion (UCH-COMPLETE):
    only resources of the building's color do (the seed: built once
    "resources of the right color" reach its cost). A resource of another
    color lies under the building as the table put it there, and is
    discarded with the others at completion. Histories stored before this
    field hold only ``True``: what was decided then.
    """

    player: str
    building: str
    color: str
    counts: bool = True


class BuildingCompleted(Derived, frozen=True, kw_only=True):
    """UCH-COMPLETE: the last resource arrived; ``operations_limit`` is the player's new limit.

    ``started_line`` and ``started_turn`` say when the building was started.
    ``undoes`` is 0; histories stored before corrections were decided again
    hold completions taken back by a correction (``undoes`` = the completion's
    line), still replayed.
    """

    player: str
    building: str
    color: str
    cost: int
    vp: int
    operations_limit: int
    started_line: int
    started_turn: int
    undoes: int = 0


class VpChanged(Change, frozen=True, kw_only=True):
    """A player's VP change by ``delta`` under ``rule``: the only way VP change."""


class MonopolySet(Derived, frozen=True, kw_only=True):
    """``color``'s monopoly passes from ``previous`` to ``player`` (either may be None)."""

    color: str
    player: str | None
    operations: int
    previous: str | None = None
    previous_operations: int = 0


class ThresholdReached(Derived, frozen=True, kw_only=True):
    """UCH-THRESHOLD: ``player`` reached ``threshold`` with ``vp``; the game ends after the Last Turn holder's turn."""

    player: str
    vp: int
    threshold: int
    turn: int = 0
    last_turn_card: str = ""


# --- The game's event lists ----------------------------------------------------------

EVENTS = game_events(
    __name__, Header,
    recorded=(
        ForumCardAdded, ForumCardRemoved, ConstructionStarted, ResourceMoved,
        MonopolyChanged, ForumCardTaken, VpAdjusted, WinnerDeclared,
    ),
    derived=(
        ForumChanged, BuildingStarted, ResourcePlaced, BuildingCompleted,
        VpChanged, MonopolySet, ThresholdReached,
    ),
)
"""The game's line types, what the store may hold, and its ``LineRecorded`` (``domain.events.game_events``)."""

LineRecorded = EVENTS.line_recorded
"""A log line as recorded (the header, or one event): its stored topic is this module's ``LineRecorded``."""
