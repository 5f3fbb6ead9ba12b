"""Twilight Imperium 4 events: the log's lines (docs/log-format.md) and what the rules decide.

Recorded events mirror the log format's table for ``twilight-imperium-4``.
This module adds to that contract, as docs/log-format.md allows:

* ``player_passed`` (``player``): the active player passes in the action
  phase; the turn ends and later turns skip that player (TI4-TURN).
* ``speaker_changed`` (``player``): the speaker token moves (Politics).
* ``command_tokens_gained`` (``player``, ``pool``, ``amount``, ``reason``):
  tokens gained (status phase, Leadership), so that TI4-PAY can count them.
* setup ``speaker`` (the first player by default), ``tactic_tokens`` (3) and
  ``fleet_tokens`` (3), the published starting pools (not in the seeds).
* optional ``replenished`` on ``trade_primary`` and ``trade_secondary``: the
  commodities the table says it took, checked against the computed amount.
* header ``not_recorded``: what the log's source does not record (secret
  objective draws, trade goods, command tokens, whom the Trade holder chose,
  the order of secondaries); a check that depends only on it is
  ``unverifiable``, never a violation. Setup ``unknown_commodities``: players
  whose faction's commodity value is not known (their replenishes are
  ``unverifiable``).
* ``vp_scored`` (``player``, ``points``, ``origin``, ``lost``, ``reason``): a
  victory point from anything but an objective card (the Custodians token,
  the Imperial primary on Mecatol Rex, Support for the Throne, Styx, relics,
  agendas, riders, a manual correction), cited under TI4-VP-SOURCE.
* ``objective_made_public`` (``objective``, ``reason``): an objective that
  becomes public other than by the status-phase reveal (Classified Document
  Leaks, a card from another deck).
* ``strategy_cards_swapped`` (``cards``) and ``player_unpassed`` (``player``):
  the initiative order changes, a player who passed is back in the action phase.
* setup ``colors`` (optional): each player's colour at the table as the
  source names it (TI Assistant's faction colour, an AsyncTI4 seat's
  colour); the reports draw the player in it.
* optional ``scores`` on ``winner_declared``: the final scores another tool
  declares, compared with the VP track (kept readable; converters now write
  ``score_declared``).
* ``score_declared`` (``player``, ``score``, ``reason``): the final score
  another source (an archive's result) declares for a player, compared with
  the VP track, never applied.
* ``adjustment_declared`` (``player``, ``origin``, ``points``, ``reason``): a
  declared adjustment of one source of VP: ``player`` ends with ``points`` VP
  from ``origin``, says another source (an archive's ``imperialVPOverrides``).
  Never applied: the domain weighs it (``AdjustmentWeighed``: which lines it
  would take away, what it would add) and ``gamelog reconcile`` applies it
  as a what-if.
* ``strategic_action`` (``player``, ``card``, optional ``through``): the
  active player performs a strategy card's primary ability: as their
  strategic action, with a card they hold (``trade_primary`` is Trade's own),
  or ``through`` a component that performs it (the Overrule action card). The
  Imperial primary scores one public objective in the action phase (LRR 34.5,
  not in the seeds); a log shows that it was used by this line.

Derived events are the consequences the rules fix: every change of victory
points, trade goods, commodities or command tokens is a ``Change`` event
naming its rule, so the projections only add them up.
"""

from __future__ import annotations

from typing import ClassVar, Annotated, Literal, Union

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
    Score,
    game_events,
)
from gamelog.domain.twilight_imperium import reference
from gamelog.domain.msgspec_wording import invalid_at
from gamelog.domain.messages import did_you_mean, quote

Phase = Literal["strategy", "action", "status", "agenda"]
Pool = Literal["tactic", "fleet", "strategy"]
Tokens = NonNegativeInt | dict[str, NonNegativeInt]
Initiative = Annotated[int, msgspec.Meta(ge=0, le=8)]
"""A strategy card's initiative number (0 is the Naalu token)."""
NotRecorded = Literal["secret_objectives", "trade_goods", "command_tokens", "trade_chosen", "secondary_order",
                      "score_timing"]
"""What a log's source may not record: secret objective draws and returns, trade goods gained and spent,
command tokens gained and spent, whom the Trade holder chose (LRR 90.5), the order of secondaries (LRR 90.6)."""


class Setup(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Game settings; numbers apply to every player, an object gives them by player."""

    factions: dict[str, Name] = {}
    commodities: dict[str, NonNegativeInt] = {}
    vp_goal: Goal = 10
    strategy_tokens: Tokens = 2
    tactic_tokens: Tokens = 3
    fleet_tokens: Tokens = 3
    speaker: Name | None = None
    unknown_commodities: list[Name] = []
    colors: dict[str, Name] = {}
    """Each player's colour at the table, as the source names it ("Orange", "bloodred"): optional, for reports."""
    expansions: list[Name] = []
    """The expansions played, as the source names them ("POK", "CODEX ONE"): optional, for ``gamelog stats
    --expansion``; no rule of the log format reads them."""

    ADDED_LATER: ClassVar[tuple[str, ...]] = ("colors", "expansions")
    """What converters fill that an earlier gamelog did not, and no rule reads (``GameHeader.same_game``): a stored
    game whose header lacks them is the same game as a later export's that has them."""


class Header(GameHeader, tag="game"):
    """The first line of a Twilight Imperium 4 log.

    Raises ValueError (an input error at the field's path) when a player
    has neither a commodity value nor a faction whose value is known.
    """

    game: Literal["twilight-imperium-4"]
    setup: Setup = Setup()
    not_recorded: list[NotRecorded] = []

    def check(self) -> None:
        super().check()
        for name in ("factions", "commodities", "strategy_tokens", "tactic_tokens", "fleet_tokens", "colors"):
            value = getattr(self.setup, name)
            if isinstance(value, dict) and (extra := set(value) - set(self.players)):
                raise invalid_at(f"`{name}` names {sorted(extra)[0]!r}, who is not a player", f"$.setup.{name}")
        if extra := set(self.setup.unknown_commodities) - set(self.players):
            raise invalid_at(f"`unknown_commodities` names {sorted(extra)[0]!r}, who is not a player", f"$.setup.unknown_commodities")
        if self.setup.speaker is not None and self.setup.speaker not in self.players:
            raise invalid_at(f"the speaker {self.setup.speaker!r} is not a player", f"$.setup.speaker")
        for player in self.players:
            self.commodity_value(player)

    def faction_name(self, player: str) -> str | None:
        """The player's faction as every output names it (``reference.faction_name``), None when the setup gives
        them none."""
        name = self.setup.factions.get(player)
        return reference.faction_name(name) if name else None

    def commodity_value(self, player: str) -> int:
        """The faction's commodity value: from ``setup.commodities``, else from the faction's name.

        Raises ValueError naming ``$.setup.factions.<player>`` when neither gives it.
        """
        if player in self.setup.commodities:
            return self.setup.commodities[player]
        if player in self.setup.unknown_commodities:
            return 0  # not known: the Trade rules say so (rules.commodity_value_known) instead of using it
        name = self.setup.factions.get(player)
        known = reference.faction(name) if name else None
        if known is None and name and (guess := did_you_mean(name, reference.faction_names())) is not None:
            raise invalid_at(f"unknown faction {quote(name)} ({guess})", f"$.setup.factions.{player}")
        if known is None:  # a faction the data do not have (a home-brew one) is played with its value given
            what = f"unknown faction {quote(name)}" if name else f"{player} has no faction"
            raise invalid_at(f"{what}: name one of the game's factions, or give {player}'s commodity value in "
                             f"`setup.commodities`", f"$.setup.factions.{player}")
        return known[1]

    def per_player(self, name: str, player: str) -> int:
        """A setup value for one player, whether given once or by player (missing players get the default)."""
        value = getattr(self.setup, name)
        if isinstance(value, dict):
            return value.get(player, getattr(Setup(), name))
        return value

    @property
    def speaker(self) -> str:
        """The speaker at the start: ``setup.speaker``, else the first player."""
        return self.setup.speaker or self.players[0]


class RoundStarted(Recorded, tag="round_started"):
    round: PositiveInt


class PhaseStarted(Recorded, tag="phase_started"):
    phase: Phase


class StrategyCardPicked(PlayerRecorded, tag="strategy_card_picked"):
    card: Name
    initiative: Initiative


class TradePrimary(Recorded, tag="trade_primary"):
    PLAYER_FIELDS = {"player": frozenset(), "chosen": frozenset()}
    player: Name
    chosen: list[Name] = []
    replenished: NonNegativeInt | None = None


class TradeSecondary(PlayerRecorded, tag="trade_secondary"):
    free: bool = False
    replenished: NonNegativeInt | None = None


class TradeGoodsGained(PlayerRecorded, tag="trade_goods_gained"):
    amount: PositiveInt
    reason: str


class TradeGoodsSpent(PlayerRecorded, tag="trade_goods_spent"):
    amount: PositiveInt
    reason: str


class CommoditiesGiven(Recorded, tag="commodities_given"):
    PLAYER_FIELDS = {"player": frozenset(), "to": frozenset()}
    player: Name
    to: Name
    amount: PositiveInt


class CommandTokenSpent(PlayerRecorded, tag="command_token_spent"):
    pool: Pool
    reason: str


class CommandTokensGained(PlayerRecorded, tag="command_tokens_gained"):
    pool: Pool
    amount: PositiveInt
    reason: str


def _printed_objective(event: Recorded) -> None:
    """A line's ``objective`` as the card's printed name once read, whichever spelling the line gives (its alias,
    another letter case: ``reference.printed_objective``): every rule, view and output then names a card one way,
    and a player's view hides the card where a field holds it (docs/secrets.md). A card the reference data do not
    have stays as the line gives it."""
    printed = reference.printed_objective(event.objective)  # type: ignore[attr-defined]
    if printed != event.objective:  # type: ignore[attr-defined]
        msgspec.structs.force_setattr(event, "objective", printed)


class ObjectiveRevealed(Recorded, tag="objective_revealed"):
    objective: Name
    stage: Literal[1, 2]

    __post_init__ = _printed_objective


class SecretObjectiveDrawn(PlayerRecorded, tag="secret_objective_drawn"):
    objective: Name

    __post_init__ = _printed_objective


class SecretObjectiveReturned(PlayerRecorded, tag="secret_objective_returned"):
    objective: Name

    __post_init__ = _printed_objective


class CombatStarted(Recorded, tag="combat_started"):
    kind: Literal["space", "ground"]


class CombatEnded(Recorded, tag="combat_ended"):
    kind: Literal["space", "ground"]


class HomeSystemControl(PlayerRecorded, tag="home_system_control"):
    controls_all: bool


class ObjectiveScored(PlayerRecorded, tag="objective_scored"):
    objective: Name
    kind: Literal["public", "secret"]
    points: PositiveInt
    phase: Phase | None = None

    __post_init__ = _printed_objective


class VpGained(PlayerRecorded, tag="vp_gained"):
    points: PositiveInt
    source: str


class VpLost(PlayerRecorded, tag="vp_lost"):
    points: PositiveInt
    source: str


class PlayerPassed(PlayerRecorded, tag="player_passed"):
    """The active player passes in the action phase; the turn ends and later turns skip them (TI4-TURN)."""


class SpeakerChanged(PlayerRecorded, tag="speaker_changed"):
    """The speaker token moves to ``player`` (Politics)."""


class WinnerDeclared(Recorded, tag="winner_declared"):
    """Who the table (or the app that recorded the game) says won; null for no winner.

    Checked against the VP track (TI4-VP-GOAL): a winner the log's VP don't
    bear out is a finding that names the gap.
    """

    PLAYER_FIELDS = PLAYER
    player: Name | None
    reason: str = ""
    scores: dict[Name, Score] = {}


class ScoreDeclared(PlayerRecorded, tag="score_declared"):
    """The final score another source declares for ``player`` (an archive's ``finalScoreOverrides``).

    Compared with the VP track (TI4-VP-GOAL: a gap is an ``unverifiable``
    finding), never applied; ``gamelog reconcile`` sets it beside the computed
    score.
    """

    score: Score
    reason: str = ""


class AdjustmentDeclared(PlayerRecorded, tag="adjustment_declared"):
    """A declared adjustment of one source of VP: ``player`` ends with ``points`` VP from ``origin``.

    ``origin`` names a source as ``vp_scored`` does (``Imperial Point``). An
    archive's ``imperialVPOverrides`` is one: the table did not apply a point
    the app recorded. Never applied to the VP track: the domain weighs it
    (TI4-VP-SOURCE; :class:`AdjustmentWeighed`) and ``gamelog reconcile``
    applies it as a what-if.
    """

    origin: Name
    points: NonNegativeInt
    reason: str = ""


class VpScored(PlayerRecorded, tag="vp_scored"):
    """A victory point from anything but an objective card, named by ``origin`` (TI4-VP-SOURCE).

    (``source`` is taken: on every line it names where a converter took the line from.)

    ``lost`` marks a point taken away (Styx or a relic changes hands, an agenda is
    repealed, Mutiny); ``reason`` says what the source recorded.
    """

    origin: Name
    points: PositiveInt = 1
    lost: bool = False
    reason: str = ""


class ObjectiveMadePublic(Recorded, tag="objective_made_public"):
    """An objective becomes public other than by the status-phase reveal (Classified Document Leaks...).

    It counts toward no stage's 5 cards (LRR 34.13); it can be scored as a public objective.
    """

    objective: Name
    reason: str

    __post_init__ = _printed_objective


class StrategyCardsSwapped(Recorded, tag="strategy_cards_swapped"):
    """The holders of two strategy cards swap them (Imperial Arbiter, a faction ability); the initiative order follows."""

    cards: Annotated[list[Name], msgspec.Meta(min_length=2, max_length=2)]


class PlayerUnpassed(PlayerRecorded, tag="player_unpassed"):
    """A player who passed is back in the action phase, and takes the next turn (TI4-TURN)."""


class StrategicAction(PlayerRecorded, tag="strategic_action"):
    """The active player performs the primary ability of the strategy card ``card`` (TI4-TURN).

    As a strategic action, with a card they hold this round (Trade's is
    ``trade_primary``); or ``through`` a component that performs a readied
    card's primary (the Overrule action card), which does not exhaust it. A
    public objective scored in the action phase is the Imperial primary's only
    when it follows this line of Imperial in the scorer's turn (LRR 34.5, not
    in the seeds).
    """

    card: Name
    through: Name | None = None




# --- What is stored ------------------------------------------------------------------


class VpChanged(Change, frozen=True, kw_only=True):
    """Victory points change: the only way they do."""


class TradeGoodsChanged(Change, frozen=True, kw_only=True):
    """Trade goods change: the only way they do."""


class CommoditiesChanged(Change, frozen=True, kw_only=True):
    """Commodities change: the only way they do (never above the faction's value, LRR 90.4a)."""


class TokensChanged(Change, frozen=True, kw_only=True):
    """Command tokens in one ``pool`` change."""

    pool: str = "strategy"


class Replenished(Derived, frozen=True, kw_only=True):
    """A replenish happened (LRR 90.4), even at the maximum where it gains nothing (LRR 90 comment 1)."""

    player: str
    gained: int
    rule: str


class ObjectiveMarked(Counted, frozen=True, kw_only=True):
    """A player's control token goes on (``count`` 1) or off (-1) an objective.

    ``context`` is the status phase or combat the score counts against (LRR
    34.6, 34.7); ``paid_trade_goods`` and ``paid_tokens`` are what the score
    used up of the spending recorded before it (LRR 34.10).
    """

    player: str
    objective: str
    kind: str
    context: str = ""
    paid_trade_goods: int = 0
    paid_tokens: int = 0


class SecretChanged(Counted, frozen=True, kw_only=True):
    """An unscored secret objective comes into (``count`` 1) or leaves (-1) a player's hand."""

    player: str
    objective: str


class PublicRevealed(Counted, frozen=True, kw_only=True):
    """A public objective is revealed (``count`` 1), or the reveal undone (-1)."""

    objective: str
    stage: int


class VpSourceHeld(Counted, frozen=True, kw_only=True):
    """A player comes to hold (``count`` 1) or loses (-1) one point of a VP ``source`` (TI4-VP-SOURCE)."""

    player: str
    source: str


class AdjustmentWeighed(Derived, frozen=True, kw_only=True):
    """What a declared adjustment (``adjustment_declared``) would change, decided on its line (TI4-VP-SOURCE).

    ``held`` is the VP ``player`` holds from ``origin`` there; ``voids`` the
    lines of the points it would take away (the most recent first, as the
    archive's own parser takes them), ``added`` the points it would add that
    no line of the log holds. Nothing is applied: a what-if voids ``voids``.
    """

    player: str
    origin: str
    declared: int
    held: int
    voids: tuple[int, ...] = ()
    added: int = 0


# --- The game's event lists ----------------------------------------------------------

EVENTS = game_events(
    __name__, Header,
    recorded=(
        RoundStarted, PhaseStarted, StrategyCardPicked, TradePrimary, TradeSecondary,
        TradeGoodsGained, TradeGoodsSpent, CommoditiesGiven, CommandTokenSpent, CommandTokensGained,
        ObjectiveRevealed, SecretObjectiveDrawn, SecretObjectiveReturned, CombatStarted, CombatEnded,
        HomeSystemControl, ObjectiveScored, VpGained, VpLost, PlayerPassed, SpeakerChanged, WinnerDeclared,
        VpScored, ObjectiveMadePublic, StrategyCardsSwapped, PlayerUnpassed, StrategicAction, ScoreDeclared,
        AdjustmentDeclared,
    ),
    derived=(
        VpChanged, TradeGoodsChanged, CommoditiesChanged, TokensChanged, Replenished,
        ObjectiveMarked, SecretChanged, PublicRevealed, VpSourceHeld, AdjustmentWeighed,
    ),
)
"""The game's line types, what the store may hold, and its ``LineRecorded`` (``domain.events.game_events``)."""

LineRecorded = EVENTS.line_recorded
"""A log line as recorded (the header, or one event): its stored topic is this module's ``LineRecorded``."""

Event = Union[EVENTS.recorded]  # type: ignore[valid-type]
"""Any line after the header (the type of what the state remembers of the last lines)."""
