"""Twilight Imperium 4 state: the round, phase, speaker and initiative, and each player's holdings.

The state is only ever changed by folding events (``GameState.apply``); it
decides nothing. Recorded lines state the table's facts directly (a new
round or phase, a strategy card picked, a pass, a combat, who controls their
home system, a Trade primary and its secondaries); counts that the rules
compute (VP, trade goods, commodities, command tokens, objectives) change
only through the derived events of ``events.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


from gamelog.domain.engine import GameState, folds
from gamelog.domain.twilight_imperium import measures
from gamelog.domain.twilight_imperium import replay_document
from gamelog.domain.events import Correction, Note, ScoreClaimed, TurnBegan
from gamelog.domain.twilight_imperium.events import (
    AdjustmentWeighed,
    CombatStarted,
    Event,
    Header,
    CommandTokenSpent,
    CommoditiesChanged,
    HomeSystemControl,
    LineRecorded,
    ObjectiveMarked,
    PhaseStarted,
    PlayerPassed,
    PlayerUnpassed,
    PublicRevealed,
    Replenished,
    RoundStarted,
    SecretChanged,
    SpeakerChanged,
    StrategicAction,
    StrategyCardPicked,
    StrategyCardsSwapped,
    TokensChanged,
    TradeGoodsChanged,
    TradeGoodsSpent,
    TradePrimary,
    TradeSecondary,
    VpChanged,
    VpSourceHeld,
)

POOLS = ("tactic", "fleet", "strategy")
_NOT_PLAY = frozenset({Note, Correction, ScoreClaimed})
"""Recorded lines that are no line of play: a remark, a score claim, a correction."""
VP_SOURCES = ("stage I", "stage II", "secrets", "other")
"""Where a player's VP come from, as TI Assistant splits them: public objectives of each stage, secrets, the rest."""

_COARSE = {measures.STAGE_1: "stage I", measures.STAGE_2: "stage II", measures.SECRETS: "secrets"}
"""A source of ``measures.source`` in :data:`VP_SOURCES` (any other is ``other``)."""


@dataclass
class Player:
    """One player's faction, points and holdings.

    ``pending_trade_goods`` and ``pending_tokens`` are what the player spent
    in this phase and no objective has used yet (LRR 34.10).
    """

    faction: str | None
    commodity_value: int
    tokens: dict[str, int]
    vp: int = 0
    trade_goods: int = 0
    commodities: int = 0
    scored: dict[str, str] = field(default_factory=dict)
    secrets: list[str] = field(default_factory=list)
    home_control: bool = True
    pending_trade_goods: int = 0
    pending_tokens: int = 0
    color: str | None = None
    vp_by_source: dict[str, int] = field(default_factory=lambda: dict.fromkeys(VP_SOURCES, 0))

    def secrets_total(self) -> int:
        """LRR 34.21: secret objectives held, scored and unscored together."""
        return len(self.secrets) + sum(1 for kind in self.scored.values() if kind == "secret")


@dataclass
class Trade:
    """A Trade primary (LRR 90.2) and the secondaries used after it: (line, player, free)."""

    player: str
    line: int
    chosen: frozenset[str]
    secondaries: list[tuple[int, str, bool]] = field(default_factory=list)


class TwilightState(GameState):
    """Every player's holdings, the round and phase, the speaker and initiative order."""

    LINE_RECORDED = LineRecorded
    CONSTANT = GameState.CONSTANT | {"goal", "not_recorded", "unknown_commodities", "_initiative"}
    ADDED = {"turn_of_round": 0}

    by_player: dict[str, Player]
    round: int
    phase: str | None
    last_phase: str | None
    phase_serial: int
    speaker: str
    picks: dict[str, list[tuple[str, int]]]
    passed: set[str]
    active_in_phase: str | None
    combat: str
    combat_serial: int
    trade: Trade | None
    trade_primaries: list[tuple[int, str]]
    revealed: list[tuple[str, int, int]]
    scores_in: dict[tuple[str, str, str], int]
    previous: Event | Header | None  # the header, until two lines of play have passed
    current: Event | Header | None
    vp_sources: dict[tuple[str, str], int]
    vp_source_lines: dict[tuple[str, str], list[int]]  # the lines of the points held from each source, in order
    due: str | None
    strategic: tuple[int, str, str, str] | None  # (line, player, card, through): the primary performed in this turn
    strategic_used: list[tuple[int, str, str, str]]  # (line, player, card, through): this round's primaries
    turn_of_round: int  # the turns of the round under way (0 before its first)

    def __init__(self, header: Any, header_line: int):
        super().__init__(header, header_line)
        self.goal = header.setup.vp_goal
        self.by_player = {
            p: Player(faction=header.faction_name(p), commodity_value=header.commodity_value(p),
                      tokens={pool: header.per_player(f"{pool}_tokens", p) for pool in POOLS},
                      color=header.setup.colors.get(p))
            for p in header.players
        }
        self.round = 0
        self.phase: str | None = None
        self.last_phase: str | None = None
        self.phase_serial = 0
        self.speaker: str = header.speaker
        self.picks: dict[str, list[tuple[str, int]]] = {}
        self.passed: set[str] = set()
        self.active_in_phase: str | None = None
        self.combat = ""
        self.combat_serial = 0
        self.trade: Trade | None = None
        self.trade_primaries: list[tuple[int, str]] = []
        self.revealed: list[tuple[str, int, int]] = []
        self.scores_in: dict[tuple[str, str, str], int] = {}
        self.previous: Event | Header | None = None
        self.current: Event | Header | None = None
        self.not_recorded: frozenset[str] = frozenset(header.not_recorded)
        self.unknown_commodities: frozenset[str] = frozenset(header.setup.unknown_commodities)
        self.vp_sources: dict[tuple[str, str], int] = {}
        self.vp_source_lines: dict[tuple[str, str], list[int]] = {}
        self.due: str | None = None
        self.strategic: tuple[int, str, str, str] | None = None
        self.strategic_used: list[tuple[int, str, str, str]] = []
        self.turn_of_round = 0
        # The initiative order, asked at every turn's start: kept until the picks or the speaker change (the folds
        # below drop it, and so does a restore); None: not worked out.
        self._initiative: list[str] | None = None

    def restore(self, snapshot: bytes) -> None:
        super().restore(snapshot)
        self._initiative = None

    def score(self, player: str) -> int:
        return self.by_player[player].vp

    # -- questions -----------------------------------------------------------------------

    def initiative_order(self) -> list[str]:
        """Players by their lowest initiative this round; those without a card follow, clockwise from the speaker."""
        if self._initiative is None:
            self._initiative = self._initiative_order()
        return list(self._initiative)

    def _initiative_order(self) -> list[str]:
        start = self.players.index(self.speaker)
        seating = self.players[start:] + self.players[:start]
        picked = sorted((p for p in seating if self.picks.get(p)), key=lambda p: min(i for _, i in self.picks[p]))
        return picked + [p for p in seating if not self.picks.get(p)]

    def holds_card(self, player: str, card: str, initiative: int) -> bool:
        """True when ``player`` picked that strategy card (by name or initiative) this round."""
        return any(c.casefold() == card.casefold() or i == initiative for c, i in self.picks.get(player, []))

    def revealed_stage(self, stage: int) -> int:
        """How many public objectives of that stage are revealed."""
        return sum(1 for _, s, _ in self.revealed if s == stage)

    # -- facts stated by recorded lines ----------------------------------------------

    def fold_line(self, line: int, recorded: Any) -> None:
        # Remarks, score claims and corrections between two lines are not play (LRR 34.21a's "at once" passes over them).
        if type(recorded) not in _NOT_PLAY:
            self.previous, self.current = self.current, recorded
        GameState.fold_line(self, line, recorded)  # (not super(): every line passes here)

    @folds(RoundStarted)
    def _round_started(self, line: int, event: RoundStarted) -> None:
        self.round = event.round
        self.turn_of_round = 0
        self.picks, self.passed, self.trade, self.trade_primaries = {}, set(), None, []
        self._initiative = None
        self.strategic_used = []

    @folds(PhaseStarted)
    def _phase(self, line: int, event: PhaseStarted) -> None:
        self._phase_started(event.phase)

    @folds(StrategyCardPicked)
    def _picked(self, line: int, event: StrategyCardPicked) -> None:
        self.picks.setdefault(event.player, []).append((event.card, event.initiative))
        self._initiative = None

    @folds(PlayerPassed)
    def _passed(self, line: int, event: PlayerPassed) -> None:
        self.passed.add(event.player)

    @folds(SpeakerChanged)
    def _speaker(self, line: int, event: SpeakerChanged) -> None:
        self.speaker = event.player
        self._initiative = None

    @folds(CombatStarted)
    def _combat(self, line: int, event: CombatStarted) -> None:
        self.combat_serial += 1
        self.combat = f"combat {self.combat_serial}"

    @folds(HomeSystemControl)
    def _home(self, line: int, event: HomeSystemControl) -> None:
        self.by_player[event.player].home_control = event.controls_all

    @folds(StrategyCardsSwapped)
    def _swapped(self, line: int, event: StrategyCardsSwapped) -> None:
        self._swap(*event.cards)

    @folds(PlayerUnpassed)
    def _unpassed(self, line: int, event: PlayerUnpassed) -> None:
        self.passed.discard(event.player)
        self.due = event.player

    def _phase_started(self, phase: str) -> None:
        self.last_phase, self.phase = self.phase, phase
        self.phase_serial += 1
        self.active_in_phase, self.combat, self.trade, self.strategic = None, "", None, None
        if phase == "action":
            self.passed = set()
        for p in self.by_player.values():
            p.pending_trade_goods = p.pending_tokens = 0

    @folds(TradePrimary)
    def _trade_primary(self, line: int, event: TradePrimary) -> None:
        self.trade = Trade(event.player, line, frozenset(event.chosen))
        self.trade_primaries.append((line, event.player))

    @folds(StrategicAction)
    def _strategic(self, line: int, event: StrategicAction) -> None:
        self.strategic = (line, event.player, event.card, event.through or "")
        self.strategic_used.append(self.strategic)

    @folds(TradeSecondary)
    def _trade_secondary(self, line: int, event: TradeSecondary) -> None:
        if self.trade is not None:
            self.trade.secondaries.append((line, event.player, event.free))

    @folds(TradeGoodsSpent)
    def _trade_goods_spent(self, line: int, event: TradeGoodsSpent) -> None:
        self.by_player[event.player].pending_trade_goods += event.amount

    @folds(CommandTokenSpent)
    def _token_spent(self, line: int, event: CommandTokenSpent) -> None:
        if event.pool in ("tactic", "strategy"):
            # LRR 34.10: only tactic and strategy tokens pay for objectives (Lead From the Front).
            self.by_player[event.player].pending_tokens += 1

    def _swap(self, one: str, two: str) -> None:
        """The holders of cards ``one`` and ``two`` exchange them (initiative follows the card)."""
        def holder(card: str) -> tuple[str, int] | None:
            for player, picks in self.picks.items():
                for i, (name, _) in enumerate(picks):
                    if name.casefold() == card.casefold():
                        return player, i
            return None
        first, second = holder(one), holder(two)
        if first is None or second is None:
            return  # a card nobody holds: rules.swap says so
        (p1, i1), (p2, i2) = first, second
        self.picks[p1][i1], self.picks[p2][i2] = self.picks[p2][i2], self.picks[p1][i1]
        self._initiative = None

    @folds(TurnBegan)
    def _turn_began(self, event: TurnBegan) -> None:
        super()._turn_began(event)
        self.turn_of_round += 1
        self.active_in_phase, self.combat, self.trade, self.strategic = event.player, "", None, None
        self.due = None

    # -- derived events ----------------------------------------------------------------

    @folds(VpChanged)
    def _vp(self, e: VpChanged) -> None:
        p = self.by_player[e.player]
        p.vp += e.delta
        # The line being decided scored them: its source as measures.source tells it (one classification, the one
        # reconcile reads), in TI Assistant's four parts. A correction's differences are restated whole after it.
        p.vp_by_source[_COARSE.get(measures.source(self.current), "other")] += e.delta

    @folds(TradeGoodsChanged)
    def _trade_goods(self, e: TradeGoodsChanged) -> None:
        self.by_player[e.player].trade_goods += e.delta

    @folds(CommoditiesChanged)
    def _commodities(self, e: CommoditiesChanged) -> None:
        self.by_player[e.player].commodities += e.delta

    @folds(TokensChanged)
    def _tokens(self, e: TokensChanged) -> None:
        self.by_player[e.player].tokens[e.pool] += e.delta

    @folds(ObjectiveMarked)
    def _objective(self, e: ObjectiveMarked) -> None:
        p = self.by_player[e.player]
        if e.count > 0:
            p.scored[e.objective] = e.kind
        else:
            p.scored.pop(e.objective, None)
        if e.context:
            slot = (e.player, e.context, e.kind)
            self.scores_in[slot] = self.scores_in.get(slot, 0) + e.count
        p.pending_trade_goods -= e.count * e.paid_trade_goods
        p.pending_tokens -= e.count * e.paid_tokens

    @folds(SecretChanged)
    def _secret(self, e: SecretChanged) -> None:
        secrets = self.by_player[e.player].secrets
        if e.count > 0:
            secrets.append(e.objective)
        elif e.objective in secrets:
            secrets.remove(e.objective)

    @folds(VpSourceHeld)
    def _vp_source(self, e: VpSourceHeld) -> None:
        key = (e.player, e.source)
        self.vp_sources[key] = self.vp_sources.get(key, 0) + e.count
        lines = self.vp_source_lines.setdefault(key, [])
        if e.count > 0:
            lines.extend([e.line] * e.count)
        for _ in range(-e.count):
            # A correction's difference takes away the voided line's point; a point lost, the latest held.
            gone = next((held for held in reversed(lines) if held in self.voided), lines[-1] if lines else None)
            if gone is not None:
                lines.remove(gone)

    @folds(PublicRevealed)
    def _revealed(self, e: PublicRevealed) -> None:
        if e.count > 0:
            # Serial 0 marks a reveal in setup, before the first round (LRR 34.13a).
            self.revealed.append((e.objective, e.stage, self.phase_serial if self.round else 0))
        else:
            last = max((i for i, r in enumerate(self.revealed) if r[0] == e.objective), default=None)
            if last is not None:
                del self.revealed[last]

    @folds(Replenished)
    def _replenished(self, e: Replenished) -> None:
        """A replenish is told in the audit; the commodities it gave come as CommoditiesChanged."""

    @folds(AdjustmentWeighed)
    def _adjustment_weighed(self, e: AdjustmentWeighed) -> None:
        """A declared adjustment is weighed, never applied: the state does not change."""

    # -- output ------------------------------------------------------------------------

    DOCUMENT = replay_document.Replay

    def document_fields(self) -> dict[str, Any]:
        """Its players, and the rest of its part of ``replay --format json``: what the log's source does not
        record (``not_recorded``) null, as the log does not know it."""

        def known(what: str, value: Any) -> Any:
            return None if what in self.not_recorded else value

        players = {
            name: replay_document.Player(
                faction=p.faction,
                vp=p.vp,
                trade_goods=known("trade_goods", p.trade_goods),
                commodities=p.commodities,
                commodity_value=p.commodity_value,
                strategy_tokens=known("command_tokens", p.tokens["strategy"]),
                tactic_tokens=known("command_tokens", p.tokens["tactic"]),
                fleet_tokens=known("command_tokens", p.tokens["fleet"]),
                scored=list(p.scored),
                secret_objectives_held=known("secret_objectives", list(p.secrets)),
                controls_home_system=p.home_control,
                vp_by_source=dict(p.vp_by_source),
                color=p.color,
            )
            for name, p in self.by_player.items()
        }
        return {
            "players": players,
            "revealed_objectives": [replay_document.Objective(objective=o, stage=s) for o, s, _ in self.revealed],
            "phase": self.phase,
            "speaker": self.speaker,
            "initiative_order": self.initiative_order(),
            "vp_goal": self.goal,
            "turn_of_round": self.turn_of_round or None,
            **({"not_recorded": sorted(self.not_recorded)} if self.not_recorded else {}),
        }

    def round_number(self) -> int:
        return self.round
