"""The Uchronia engine: from each recorded line to what the rules make of it.

For every event it asks ``rules`` what is legal, stores a finding for each
problem, and emits the consequences as events: Forum cards that come and go,
buildings started, resources placed, completions (computed, never recorded),
VP that change (with the rule that changed them), monopolies, the threshold
being reached, and the winner at the end of the Last Turn card holder's turn.
"""

from __future__ import annotations

from typing import Any

from gamelog.domain.engine import Engine, decides
from gamelog.domain.events import GameWon
from gamelog.domain.games import GameRules
from gamelog.domain.uchronia import entries, measures, phrases, replay_document, secrets, statistics
from gamelog.domain.uchronia import rules
from gamelog.domain.uchronia.events import (
    EVENTS,
    BuildingCompleted,
    BuildingStarted,
    ConstructionStarted,
    ForumCardAdded,
    ForumCardRemoved,
    ForumCardTaken,
    ForumChanged,
    MonopolyChanged,
    MonopolySet,
    ResourceMoved,
    ResourcePlaced,
    ThresholdReached,
    VpAdjusted,
    VpChanged,
    WinnerDeclared,
)
from gamelog.domain.uchronia.state import Site, UchroniaState

_VP_RULE = {"effect": "UCH-EFFECT", "monopoly": "UCH-SCORE", "completion": "UCH-COMPLETE"}


class UchroniaEngine(Engine):
    """Applies the Uchronia rules, line by line."""

    STATE = UchroniaState
    _unreached_at = -1
    """The state's ``vp_changes`` when UCH-THRESHOLD last found no one at the threshold (-1: not asked yet)."""
    TURN_RULE = "UCH-TURN"
    END_RULE = "UCH-THRESHOLD"
    AFTER_END = Engine.AFTER_END + (WinnerDeclared,)
    CLAIM_FIELD = "vp"
    state: UchroniaState

    def open_game(self, line: int) -> None:
        for color in self.state.header.forum_colors():
            self.forum(line, color, 1, "setup", "on the Forum at the start")

    def forum(self, line: int, color: str, count: int, rule: str, reason: str) -> None:
        """Change the Forum, never below zero cards of a color (the rules already flagged it)."""
        if count > 0 or self.state.forum[color] > 0:
            self.emit(ForumChanged(line=line, color=color, count=count, rule=rule, reason=reason))

    def check_event(self, line: int, event: Any) -> None:
        if type(event) is not WinnerDeclared and (problems := rules.check_turn(self.state, event)):
            self.report(line, getattr(event, "player", None), problems)

    def after_event(self, line: int, event: Any) -> None:
        self.note_threshold(line)

    def vp(self, line: int, player: str, delta: int, rule: str, reason: str) -> None:
        if delta:
            self.emit(VpChanged(line=line, player=player, delta=delta, rule=rule, reason=reason))

    # -- the Forum -------------------------------------------------------------------

    @decides(ForumCardAdded)
    def forum_card_added(self, line: int, e: ForumCardAdded) -> None:
        self.forum(line, e.color, 1, "UCH-FORUM", f"{e.card or 'a card'} added" + (f" by {e.player}" if e.player else ""))

    @decides(ForumCardRemoved)
    def forum_card_removed(self, line: int, e: ForumCardRemoved) -> None:
        self.report(line, None, rules.check_forum(self.state, e))
        self.forum(line, e.color, -1, "UCH-FORUM", e.reason)

    # -- buildings -------------------------------------------------------------------

    @decides(ConstructionStarted)
    def construction_started(self, line: int, e: ConstructionStarted) -> None:
        s = self.state
        self.report(line, e.player, rules.check_start(s, e) + rules.check_unique(s, e) + rules.check_printed_vp(e))
        self.forum(line, e.color, -1, "UCH-START", f"{e.player} started {e.building}")
        self.emit(BuildingStarted(line=line, player=e.player, building=e.building, color=e.color, cost=rules.cost_of(e.color),
                                  vp=rules.building_vp(e), turn=s.turn))

    @decides(ResourceMoved)
    def resource_moved(self, line: int, e: ResourceMoved) -> None:
        s = self.state
        self.report(line, e.player, rules.check_move(s, e) + rules.check_cost(s, e))
        site = s.by_player[e.player].under_construction.get(e.building)
        if site is None:
            return  # nothing is being built under that name: the resource goes nowhere
        counts = rules.counts_toward(site, e.color)
        self.emit(ResourcePlaced(line=line, player=e.player, building=e.building, color=e.color, counts=counts))
        if counts and rules.is_complete(site):
            self.complete(line, e.player, e.building, site)

    def complete(self, line: int, player: str, building: str, site: Site) -> None:
        """UCH-COMPLETE: the building is built, its VP gained, the Operations limit raised."""
        limit = self.state.by_player[player].operations_limit + 1
        self.emit(BuildingCompleted(line=line, player=player, building=building, color=site.color, cost=site.cost,
                                    vp=site.vp, operations_limit=limit, started_line=site.line, started_turn=site.turn))
        self.vp(line, player, site.vp, "UCH-COMPLETE", f"built {building} ({site.color})")

    # -- monopolies and effects ------------------------------------------------------

    @decides(MonopolyChanged)
    def monopoly_changed(self, line: int, e: MonopolyChanged) -> None:
        s = self.state
        self.report(line, e.player, rules.check_complete(s, e) + rules.check_score(s, e))
        old = s.monopolies[e.color]
        self.emit(MonopolySet(line=line, color=e.color, player=e.player, operations=e.operations,
                              previous=old.player, previous_operations=old.operations))
        if old.player is not None and old.player == e.player:
            self.vp(line, e.player, e.operations - old.operations, "UCH-SCORE",
                    f"{e.color} monopoly: {old.operations} -> {e.operations} Operations")
            return
        if old.player is not None:
            self.vp(line, old.player, -old.operations, "UCH-SCORE", f"lost the {e.color} monopoly ({old.operations} Operations)")
        if e.player is not None:
            self.vp(line, e.player, e.operations, "UCH-SCORE", f"{e.color} monopoly: {e.operations} Operations")

    @decides(ForumCardTaken)
    def forum_card_taken(self, line: int, e: ForumCardTaken) -> None:
        self.report(line, e.player, rules.check_monopoly_bonus(self.state, e))
        self.forum(line, e.color, -1, "UCH-MONOPOLY-BONUS", f"{e.player} took {e.card or 'a card'} into their hand")

    @decides(VpAdjusted)
    def vp_adjusted(self, line: int, e: VpAdjusted) -> None:
        s = self.state
        self.report(line, e.player, rules.check_complete(s, e) + rules.check_score(s, e) + rules.check_effect(s, e))
        self.vp(line, e.player, e.delta, _VP_RULE[rules.vp_kind(e.reason)], e.reason)

    # -- the end ---------------------------------------------------------------------

    def note_threshold(self, line: int) -> None:
        """UCH-THRESHOLD: note the first time anyone's VP reach the threshold."""
        s = self.state
        if s.vp_changes == self._unreached_at:  # no VP changed since the rule found no one at the threshold
            return
        found = rules.threshold_reacher(s)
        if found is None:
            self._unreached_at = s.vp_changes
        else:
            player, vp = found
            self.emit(ThresholdReached(line=line, player=player, vp=vp, threshold=s.threshold, turn=s.turn,
                                       last_turn_card=s.last_turn_card))

    def on_turn_finished(self, line: int, player: str) -> None:
        s = self.state
        if not rules.game_ends_after(s, player):
            return
        winner, why = rules.winner(s)
        reached = s.reached
        self.emit(GameWon(line=line, winner=winner, rule="UCH-WINNER",
                          reason=f"{why}; {reached.player} reached the {reached.threshold} VP threshold at line {reached.line} "
                                 f"and the game ended after the turn of {player}, holder of the Last Turn card"))

    @decides(WinnerDeclared)
    def winner_declared(self, line: int, e: WinnerDeclared) -> None:
        s = self.state
        self.report(line, e.player, rules.check_threshold(s, e) + rules.check_winner(s, e))


RULE_TEXTS: dict[str, str] = {
    "UCH-TURN": "Game actions happen inside a turn; turns follow seating order.",
    "UCH-FORUM": "A card can leave the Forum only if one of its color is there.",
}
"""The texts of Uchronia's own rule IDs: those the seeds are silent on, so RULES.md does not hold them."""

RULES = GameRules(
    offers=entries.OFFERS,
    name="uchronia",
    events=EVENTS,
    engine=UchroniaEngine,
    phrases=phrases.PHRASES,
    kinds=phrases.KINDS,
    screen=replay_document.screen,
    state_phrases=phrases.STATE,
    measures=measures.MEASURES,
    secrets=secrets.HIDDEN,
    statistics=statistics.STATISTICS,
    rule_texts=RULE_TEXTS,
    results=measures.RESULTS,
)
