"""The Twilight Imperium 4 engine: from each recorded line to what the rules make of it.

For every event it asks ``rules`` what is legal and what is owed, stores a
finding for each problem, and emits the consequences as events: victory
points, trade goods, commodities and command tokens that change (with the
rule that changed them), objectives scored, revealed and held, the end of a
turn, and the winner (TI4-VP-GOAL, LRR 34.15).
"""

from __future__ import annotations

from typing import Any, Iterator

from gamelog.domain.engine import VIOLATION, Engine, RuleFinding, decides
from gamelog.domain.events import GameWon, TurnEnded, TurnStarted
from gamelog.domain.games import GameRules
from gamelog.domain.turn_flow import TurnStep, decided
from gamelog.domain.twilight_imperium import entries, measures, phrases, replay_document, secrets, statistics
from gamelog.domain.twilight_imperium import rules
from gamelog.domain.twilight_imperium.events import (
    EVENTS,
    AdjustmentDeclared,
    AdjustmentWeighed,
    ScoreDeclared,
    WinnerDeclared,
    CombatEnded,
    CombatStarted,
    CommandTokenSpent,
    CommandTokensGained,
    CommoditiesChanged,
    CommoditiesGiven,
    HomeSystemControl,
    ObjectiveMadePublic,
    ObjectiveMarked,
    ObjectiveRevealed,
    ObjectiveScored,
    PhaseStarted,
    PlayerPassed,
    PlayerUnpassed,
    PublicRevealed,
    Replenished,
    RoundStarted,
    SecretChanged,
    SecretObjectiveDrawn,
    SecretObjectiveReturned,
    SpeakerChanged,
    StrategicAction,
    StrategyCardPicked,
    StrategyCardsSwapped,
    TokensChanged,
    TradeGoodsChanged,
    TradeGoodsGained,
    TradeGoodsSpent,
    TradePrimary,
    TradeSecondary,
    VpChanged,
    VpGained,
    VpLost,
    VpScored,
    VpSourceHeld,
)
from gamelog.domain.twilight_imperium.state import TwilightState


class TwilightEngine(Engine):
    """Applies the Twilight Imperium 4 rules, line by line."""

    STATE = TwilightState
    TURN_RULE = rules.TURN
    """TI4-TURN (not in the seeds): action-phase turns follow initiative order, skipping players who passed."""
    END_RULE = rules.VP_GOAL
    AFTER_END = Engine.AFTER_END + (WinnerDeclared, ScoreDeclared, AdjustmentDeclared)
    CLAIM_FIELD = "vp"
    state: TwilightState

    def after_end_rule(self) -> str:
        """A line after the end breaks the rule that ended the game: the VP goal, or LRR 34.15."""
        return self.state.ended.rule

    def change(self, kind: type, line: int, player: str, delta: int, rule: str, reason: str, **extra: Any) -> None:
        """Emit a VP, trade goods, commodities or tokens change (nothing when ``delta`` is 0)."""
        if delta:
            self.emit(kind(line=line, player=player, delta=delta, rule=rule, reason=reason, **extra))
        if kind is VpChanged and self.state.ended is None and rules.reaches_goal(self.state.by_player[player], self.state.goal):
            self.emit(GameWon(line=line, winner=player, rule=rules.VP_GOAL,
                              reason=f"{player} reached {self.state.by_player[player].vp} VP (goal {self.state.goal})"))

    def check_event(self, line: int, event: Any) -> None:
        """LRR 34.21: the line of play after a draw past 3 secret objectives returns one (turns' starts and ends too)."""
        if type(self.state.previous) is SecretObjectiveDrawn:  # no other line can break it: the rule is asked after a draw
            for player, problem in rules.secret_limit(self.state, event):
                self.report(line, player, [problem])

    def obligations_at_end(self) -> list[tuple[str | None, RuleFinding]]:
        """LRR 34.21: the log ends right after a draw past 3 secret objectives, before one is returned."""
        return rules.secret_limit_at_end(self.state)

    def turn_ended(self, line: int, event: TurnEnded) -> None:
        self.check_event(line, event)
        super().turn_ended(line, event)

    # -- rounds, phases, turns ---------------------------------------------------------

    def expected_player(self) -> str:
        """TI4-TURN: the next in initiative order who has not passed (the recorded player when none is due; the
        first seat when the last line names no player, as the header or a revealed objective)."""
        return (rules.next_in_initiative(self.state) or getattr(self.state.current, "player", None)
                or super().expected_player())

    def who_is_due(self) -> str | None:
        """Who records next, by phase: in the strategy phase the next to pick a card (the speaker first, then
        clockwise, each once before any twice); in the action phase the active player, else the next in initiative
        order who has not passed (TI4-TURN; nobody once all have passed); in the status and agenda phases, and
        once the game is over, nobody in particular (None)."""
        s = self.state
        if s.ended is not None:
            return None
        if s.phase == "strategy":
            return rules.next_to_pick(s)
        if s.phase == "action":
            return s.active if s.active is not None and s.turn_over is None else rules.next_in_initiative(s)
        return None

    def turn_started(self, line: int, event: TurnStarted) -> None:
        self.check_event(line, event)
        self.report(line, event.player, rules.turn_allowed(self.state, event.player))
        super().turn_started(line, event)

    @decides(PhaseStarted)
    def phase_started(self, line: int, e: PhaseStarted) -> None:
        self.report(line, None, rules.reveal_missed(self.state))

    @decides(PlayerPassed)
    def player_passed(self, line: int, e: PlayerPassed) -> None:
        self.check_actor(line, e.player)
        self.finish_turn(line, rules.TURN, f"{e.player} passed")

    @decides(RoundStarted, StrategyCardPicked, SpeakerChanged, CombatStarted, CombatEnded, HomeSystemControl, PlayerUnpassed)
    def nothing(self, line: int, e: Any) -> None:
        """Facts the state folds directly (round, speaker, picks, combats, home systems)."""

    @decides(StrategicAction)
    def strategic_action(self, line: int, e: StrategicAction) -> None:
        """TI4-TURN: the active player uses a strategy card they hold; the Imperial primary may then score (LRR 34.5)."""
        self.check_actor(line, e.player)
        self.report(line, e.player, rules.strategic_action(self.state, line, e))

    # -- Trade (LRR 90) ----------------------------------------------------------------

    @decides(TradePrimary)
    def trade_primary(self, line: int, e: TradePrimary) -> None:
        self.check_actor(line, e.player)
        self.report(line, e.player, rules.trade_primary(self.state, line, e))
        self.change(TradeGoodsChanged, line, e.player, rules.TRADE_GOODS, rules.TRADE_PRIMARY, "Trade primary: 3 trade goods")
        self.replenish(line, e.player, e.replenished, "Trade primary")

    def replenish(self, line: int, player: str, stated: int | None, why: str) -> None:
        """LRR 90.4: commodities up to the faction's value; at the maximum still a replenish (LRR 90 comment 1)."""
        p = self.state.by_player[player]
        self.report(line, player, rules.stated_replenish(p, stated))
        self.report(line, player, rules.commodity_value_known(self.state, player))
        gained = rules.replenish(p)
        rule = rules.TRADE_PRIMARY if gained else rules.AT_MAXIMUM
        self.emit(Replenished(line=line, player=player, gained=gained, rule=rule))
        if gained:  # (at the maximum, the usual case, no change and no words for one)
            self.change(CommoditiesChanged, line, player, gained, rule, f"{why}: replenish to {p.commodity_value}")

    @decides(TradeSecondary)
    def trade_secondary(self, line: int, e: TradeSecondary) -> None:
        p = self.state.by_player[e.player]
        self.report(line, e.player, rules.trade_secondary(self.state, line, e))
        if not e.free:
            self.report(line, e.player, rules.pay(p.tokens["strategy"], 1, "a strategy token for the Trade secondary"))
            self.change(TokensChanged, line, e.player, -1, rules.TRADE_SECONDARY, "Trade secondary", pool="strategy")
        self.replenish(line, e.player, e.replenished, "Trade secondary" + (" (chosen)" if e.free else ""))

    # -- trade goods, commodities, command tokens (TI4-PAY) ----------------------------

    @decides(TradeGoodsGained)
    def trade_goods_gained(self, line: int, e: TradeGoodsGained) -> None:
        self.change(TradeGoodsChanged, line, e.player, e.amount, rules.PAY, e.reason)

    @decides(TradeGoodsSpent)
    def trade_goods_spent(self, line: int, e: TradeGoodsSpent) -> None:
        p = self.state.by_player[e.player]
        self.report(line, e.player, rules.pay(p.trade_goods, e.amount, f"spending trade goods ({e.reason})"))
        self.change(TradeGoodsChanged, line, e.player, -e.amount, rules.PAY, e.reason)

    @decides(CommoditiesGiven)
    def commodities_given(self, line: int, e: CommoditiesGiven) -> None:
        p = self.state.by_player[e.player]
        self.report(line, e.player, rules.pay(p.commodities, e.amount, f"giving commodities to {e.to}"))
        self.change(CommoditiesChanged, line, e.player, -e.amount, rules.PAY, f"given to {e.to}")
        # Commodities received from another player become trade goods.
        self.change(TradeGoodsChanged, line, e.to, e.amount, rules.PAY, f"commodities from {e.player}")

    @decides(CommandTokenSpent)
    def command_token_spent(self, line: int, e: CommandTokenSpent) -> None:
        p = self.state.by_player[e.player]
        self.report(line, e.player, rules.pay(p.tokens[e.pool], 1, f"a {e.pool} token ({e.reason})"))
        self.change(TokensChanged, line, e.player, -1, rules.PAY, e.reason, pool=e.pool)

    @decides(CommandTokensGained)
    def command_tokens_gained(self, line: int, e: CommandTokensGained) -> None:
        self.change(TokensChanged, line, e.player, e.amount, rules.PAY, e.reason, pool=e.pool)

    # -- objectives (LRR 34) -----------------------------------------------------------

    @decides(ObjectiveRevealed)
    def objective_revealed(self, line: int, e: ObjectiveRevealed) -> None:
        if rules.none_left(self.state):
            if self.state.ended is None:
                winner, reason = rules.winner_when_none_left(self.state)
                self.emit(GameWon(line=line, winner=winner, rule=rules.NONE_LEFT, reason=reason))
            return
        self.report(line, None, rules.reveal(self.state, e))
        self.emit(PublicRevealed(line=line, objective=e.objective, stage=e.stage))

    @decides(SecretObjectiveDrawn)
    def secret_objective_drawn(self, line: int, e: SecretObjectiveDrawn) -> None:
        self.report(line, e.player, rules.secret_drawn(self.state, self.state.by_player[e.player], e.objective)
                    + rules.one_owner_drawn(self.state, e.player, e.objective))
        self.emit(SecretChanged(line=line, player=e.player, objective=e.objective))

    @decides(SecretObjectiveReturned)
    def secret_objective_returned(self, line: int, e: SecretObjectiveReturned) -> None:
        p = self.state.by_player[e.player]
        if not self.report(line, e.player, rules.secret_returned(p, e.objective)):
            self.emit(SecretChanged(line=line, player=e.player, objective=e.objective, count=-1))

    @decides(ObjectiveScored)
    def objective_scored(self, line: int, e: ObjectiveScored) -> None:
        """LRR 34.2–34.19: check the score; the VP are the card's (LRR 34.12, 34.18), none for a second score (LRR 34.8)."""
        p = self.state.by_player[e.player]
        context, problems, again, tg, tokens = rules.score(self.state, e)
        self.report(line, e.player, problems)
        if e.kind == "secret" and e.objective in p.secrets:
            self.emit(SecretChanged(line=line, player=e.player, objective=e.objective, count=-1))
        if again:
            return  # LRR 34.8: the table scored it twice; the second score gives no VP
        self.emit(ObjectiveMarked(line=line, player=e.player, objective=e.objective, kind=e.kind,
                                  context=context, paid_trade_goods=tg, paid_tokens=tokens))
        rule = rules.PUBLIC if e.kind == "public" else rules.SECRET
        self.change(VpChanged, line, e.player, rules.points(e), rule, f"objective: {e.objective}")

    @decides(VpGained)
    def vp_gained(self, line: int, e: VpGained) -> None:
        self.change(VpChanged, line, e.player, e.points, rules.VP_GOAL, e.source)

    @decides(VpLost)
    def vp_lost(self, line: int, e: VpLost) -> None:
        self.change(VpChanged, line, e.player, -e.points, rules.VP_GOAL, e.source)

    @decides(WinnerDeclared)
    def winner_declared(self, line: int, e: WinnerDeclared) -> None:
        self.report(line, e.player, rules.declared_winner(self.state, e.player))
        self.report(line, None, rules.declared_scores(self.state, e.scores))

    @decides(ScoreDeclared)
    def score_declared(self, line: int, e: ScoreDeclared) -> None:
        self.report(line, e.player, rules.declared_scores(self.state, {e.player: e.score}))

    @decides(AdjustmentDeclared)
    def adjustment_declared(self, line: int, e: AdjustmentDeclared) -> None:
        """TI4-VP-SOURCE: a declared adjustment is weighed (what it would take away or add), never applied."""
        voids, added, finding = rules.weigh_adjustment(self.state, e.player, e.origin, e.points)
        held = len(self.state.vp_source_lines.get((e.player, e.origin), []))
        self.emit(AdjustmentWeighed(line=line, player=e.player, origin=e.origin, declared=e.points, held=held,
                                    voids=voids, added=added))
        if finding is not None:
            self.report(line, e.player, [finding])

    def report(self, line: int, player: str | None, problems: list[Any]) -> bool:
        """Store each problem; one that depends only on what the source does not record is unverifiable."""
        if not problems:  # most lines find nothing
            return False
        return super().report(line, player, [rules.unless_not_recorded(self.state, p) for p in problems])

    def find(self, line: int, rule: str, message: str, player: str | None = None, severity: str = VIOLATION,
             *, open_at_end: bool = False) -> None:
        """Attach a finding; the engine's own (a line after the end) too is unverifiable when it depends only on
        what the source does not record."""
        found = rules.unless_not_recorded(self.state, RuleFinding(rule, message, severity))
        super().find(line, found.rule, found.message, player, found.severity, open_at_end=open_at_end)

    @decides(VpScored)
    def vp_scored(self, line: int, e: VpScored) -> None:
        """TI4-VP-SOURCE: a point from a named source other than an objective card, gained or lost."""
        violated = self.report(line, e.player, rules.vp_source(self.state, e))
        if not (e.lost and violated):  # a point never held is not taken from the source's holders
            self.emit(VpSourceHeld(line=line, player=e.player, source=e.origin, count=-e.points if e.lost else e.points))
        reason = e.origin + (f" ({e.reason})" if e.reason else "")
        self.change(VpChanged, line, e.player, -e.points if e.lost else e.points, rules.VP_SOURCE, reason)

    @decides(ObjectiveMadePublic)
    def objective_made_public(self, line: int, e: ObjectiveMadePublic) -> None:
        # Stage 0: it counts toward neither stage's five cards (LRR 34.13).
        self.report(line, None, rules.making_public(self.state, e))
        self.emit(PublicRevealed(line=line, objective=e.objective, stage=0))

    @decides(StrategyCardsSwapped)
    def strategy_cards_swapped(self, line: int, e: StrategyCardsSwapped) -> None:
        self.report(line, None, rules.swap(self.state, e.cards))


def _from_ti_assistant(export: Any, game_id: str | None = None) -> Any:
    """A TI Assistant export as a log (``domain.conversion.Conversion``); raises ConversionError."""
    from gamelog.domain.twilight_imperium.converters import ti_assistant  # imported when used, not with the game

    return ti_assistant.convert(export, game_id)


def _from_asyncti4(export: Any, game_id: str | None = None) -> Any:
    """An AsyncTI4 save as a log (``domain.conversion.Conversion``); raises ConversionError."""
    from gamelog.domain.twilight_imperium.converters import asyncti4  # imported when used, not with the game

    return asyncti4.convert(export, game_id)


RULE_TEXTS: dict[str, str] = {
    "TI4-TURN": "Action-phase turns follow initiative order, skipping players who have passed. A strategic action "
                "uses a strategy card its player holds this round, in the action phase, once a round.",
    "TI4-VP-SOURCE": "Victory points come from objectives and from other sources: the Custodians token (the first to "
                     "take Mecatol Rex, once per game), the Imperial primary while holding Mecatol Rex, Support for the Throne, "
                     "Styx, relics (Shard of the Throne, The Crown of Emphidia), agendas and riders (Political Censure, Holy "
                     "Planet of Ixth, Mutiny, Seed of an Empire, Imperial Rider) and other cards; a point is lost only if it "
                     "was held from that source, and a point one player holds at a time (Custodians, Styx, a relic, "
                     "Political Censure) is not held by two.",
}
"""The texts of Twilight Imperium's own rule IDs: those the seeds are silent on, so RULES.md does not hold them."""

def turn_steps(engine: TwilightEngine) -> Iterator[TurnStep]:
    """Twilight Imperium's own steps of the turn flow (``domain.turn_flow``: those whose lines the engine decides with
    no violation are offered): a round is phases, and an action-phase turn ends by ending it or by passing. Whose
    turn comes next is the engine's answer (TI4-TURN), asked on the state after the step's first lines.

    The candidates at the engine's state: in the action phase a pass (then the next player's turn, or the
    status phase once everyone has passed); the action phase once every player holds a strategy card; the agenda
    phase and the next round after the status phase; the first round before any."""
    s = engine.state
    if s.phase == "action":
        if s.active is not None and s.turn_over is None and s.active not in s.passed:
            passing = (PlayerPassed(player=s.active),)
            following = rules.next_in_initiative(decided(engine, passing).state)
            if following is None:
                yield TurnStep("pass", "Pass: status phase", (*passing, PhaseStarted(phase="status")))
            else:
                yield TurnStep("pass", f"Pass: {following}'s turn", (*passing, TurnStarted(player=following)))
        elif rules.next_in_initiative(s) is None:
            yield TurnStep("status_phase", "Status phase", (PhaseStarted(phase="status"),))
    elif s.phase == "strategy" and all(s.picks.get(p) for p in s.players):
        starting = (PhaseStarted(phase="action"),)
        first = decided(engine, starting).expected_player()
        yield TurnStep("action_phase", f"Action phase: {first}'s turn", (*starting, TurnStarted(player=first)))
    elif s.phase in ("status", "agenda") or s.round == 0:
        if s.phase == "status":
            yield TurnStep("agenda_phase", "Agenda phase", (PhaseStarted(phase="agenda"),))
        yield TurnStep("next_round", f"Round {s.round + 1}: strategy phase",
                       (RoundStarted(round=s.round + 1), PhaseStarted(phase="strategy")))


RULES = GameRules(
    offers=entries.OFFERS,
    name="twilight-imperium-4",
    events=EVENTS,
    engine=TwilightEngine,
    converters={"ti-assistant": _from_ti_assistant, "asyncti4": _from_asyncti4},
    phrases=phrases.PHRASES,
    kinds=phrases.KINDS,
    screen=replay_document.screen,
    turn_steps=turn_steps,
    state_phrases=phrases.STATE,
    measures=measures.MEASURES,
    secrets=secrets.HIDDEN,
    rounds=RoundStarted,
    rule_texts=RULE_TEXTS,
    results=measures.RESULTS,
    statistics=statistics.STATISTICS,
)
