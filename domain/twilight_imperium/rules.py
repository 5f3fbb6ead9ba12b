"""Twilight Imperium 4 rules (RULES.md, Twilight Imperium section), each checked in one place.

Every function here is pure: it reads the state and a recorded event and
returns what the rule says, either an amount it fixes (a replenish, what a
score pays) or the problems it finds, as :class:`RuleFinding` values naming the
rule ID. ``game.py`` turns them into stored events. The state already holds
the facts of the line being decided (``on_recorded`` runs first), so checks
that count earlier lines compare line numbers.
"""

from __future__ import annotations

import re


from gamelog.domain.engine import UNVERIFIABLE, RuleFinding
from gamelog.domain.messages import unrecorded
from gamelog.domain.twilight_imperium import reference
from gamelog.domain.twilight_imperium.events import (
    ObjectiveMadePublic,
    ObjectiveRevealed,
    ObjectiveScored,
    SecretObjectiveDrawn,
    SecretObjectiveReturned,
    StrategicAction,
    TradePrimary,
    TradeSecondary,
    VpScored,
)
from gamelog.domain.twilight_imperium.state import Player, TwilightState

TRADE_PRIMARY = "LRR 90.1–90.4"
TRADE_CHOSEN = "LRR 90.5"
TRADE_SECONDARY = "LRR 90.6"
AT_MAXIMUM = "LRR 90 comment 1"
CARD = "LRR 34.2–34.4"
WHEN = "LRR 34.5"
STATUS_LIMIT = "LRR 34.6"
COMBAT_LIMIT = "LRR 34.7"
ONCE = "LRR 34.8"
PAID = "LRR 34.10"
PUBLIC = "LRR 34.12"
REVEAL = "LRR 34.13–34.14"
NONE_LEFT = "LRR 34.15"
HOME = "LRR 34.16"
OWNER = "LRR 34.17"
SECRET = "LRR 34.18"
HELD = "LRR 34.19"
SECRET_LIMIT = "LRR 34.20–34.21"
VP_GOAL = "TI4-VP-GOAL"
PAY = "TI4-PAY"
TURN = "TI4-TURN"
VP_SOURCE = "TI4-VP-SOURCE"

TRADE_GOODS = 3
"""LRR 90.3: the Trade primary gives 3 trade goods."""
PUBLIC_PER_STAGE = 5
"""LRR 34.13: 5 stage I and 5 stage II public objectives per game."""
SETUP_REVEALS = 2
"""LRR 34.13a: 2 stage I objectives are revealed in setup."""
MAX_SECRETS = 3
"""LRR 34.21: at most 3 secret objectives, scored and unscored together."""
IMPERIAL = "Imperial"
"""The strategy card whose primary scores a public objective in the action phase (LRR 34.5, not in the seeds)."""


# -- TI4-TURN ----------------------------------------------------------------------------


def turn_allowed(state: TwilightState, player: str) -> list[RuleFinding]:
    """TI4-TURN (not in the seeds): turns are taken in the action phase, until every player has passed."""
    if state.phase != "action":
        return [RuleFinding(TURN, f"{player}'s turn starts in the {state.phase or 'setup'} phase; turns belong to the action phase")]
    if state.passed.issuperset(state.players):
        return [RuleFinding(TURN, "every player has passed; the action phase is over")]
    return []


def next_in_initiative(state: TwilightState) -> str | None:
    """TI4-TURN: whose action-phase turn is next: initiative order, skipping players who passed.

    None when there is nothing to expect (outside the action phase, or everyone passed).
    """
    if state.phase != "action":
        return None
    if state.due is not None:
        return state.due  # a player back from a pass (player_unpassed) takes the next turn
    order, passed = state.initiative_order(), state.passed
    last = state.active_in_phase
    start = order.index(last) if last is not None and last in order else -1
    # From the one after the last to act, round to them (from the first when none has acted): the first not passed.
    for k in range(1, len(order) + 1):
        player = order[(start + k) % len(order)]
        if player not in passed:
            return player
    return None


def next_to_pick(state: TwilightState) -> str:
    """Who picks a strategy card next in the strategy phase (not in the seeds): the speaker first, then clockwise,
    each player once before anyone twice."""
    start = state.players.index(state.speaker) if state.speaker in state.players else 0
    seating = state.players[start:] + state.players[:start]
    fewest = min(len(state.picks.get(p, [])) for p in seating)
    return next(p for p in seating if len(state.picks.get(p, [])) == fewest)


def strategic_action(state: TwilightState, line: int, e: StrategicAction) -> list[RuleFinding]:
    """TI4-TURN (not in the seeds): a strategy card's primary ability is performed in the action phase, by its holder
    as a strategic action, once a round (the card is then exhausted); through a component, only while it is readied."""
    if state.phase != "action":
        return [RuleFinding(TURN, f"a strategic action belongs to the action phase, not the {state.phase or 'setup'}")]
    used = [n for n, _, card, through in state.strategic_used
            if n < line and not through and reference.key(card) == reference.key(e.card)]
    if used:
        return [RuleFinding(TURN, f"{e.card}'s primary was already used this round, at line {used[0]}; the card is exhausted")]
    initiative = reference.strategy_cards().get(reference.key(e.card), -1)
    if e.through is None and not state.holds_card(e.player, e.card, initiative):
        return [RuleFinding(TURN, f"{e.player} does not hold the {e.card} strategy card this round")]
    return []


# -- TI4-PAY -----------------------------------------------------------------------------


def pay(have: int, amount: int, what: str) -> list[RuleFinding]:
    """TI4-PAY (not in the seeds): nobody spends or gives more than they have."""
    if amount > have:
        return [RuleFinding(PAY, f"{what}: {amount} needed, {have} held")]
    return []


# -- Trade (LRR 90) ----------------------------------------------------------------------


def trade_primary(state: TwilightState, line: int, e: TradePrimary) -> list[RuleFinding]:
    """LRR 90.1–90.4 and 90.5: the holder of Trade uses its primary once, in the action phase, choosing others."""
    out = []
    if state.phase != "action":
        out.append(RuleFinding(TRADE_PRIMARY, f"the Trade primary is a strategic action of the action phase, not the {state.phase or 'setup'}"))
    if not state.holds_card(e.player, "Trade", reference.TRADE_INITIATIVE):
        out.append(RuleFinding(TRADE_PRIMARY, f"{e.player} does not hold the Trade strategy card this round"))
    earlier = [n for n, p in state.trade_primaries if n < line and p == e.player]
    if earlier:
        out.append(RuleFinding(TRADE_PRIMARY, f"{e.player} already used the Trade primary this round, at line {earlier[0]}"))
    strangers = sorted(set(e.chosen) - (set(state.players) - {e.player}))
    if strangers or len(set(e.chosen)) != len(e.chosen):
        out.append(RuleFinding(TRADE_CHOSEN, f"the chosen must be other players, each once; not {', '.join(strangers) or 'a repeat'}"))
    return out


def replenish(player: Player) -> int:
    """LRR 90.4: commodities taken to reach the faction's value (never above it; 0 at the maximum)."""
    return max(0, player.commodity_value - player.commodities)


def stated_replenish(player: Player, stated: int | None) -> list[RuleFinding]:
    """LRR 90.4 and LRR 90 comment 1: the commodities the log says were taken match the replenish."""
    due = replenish(player)
    if stated is None or stated == due:
        return []
    if due == 0:
        return [RuleFinding(AT_MAXIMUM, f"commodities are at the maximum ({player.commodity_value}); replenishing gives nothing, the log says {stated}")]
    return [RuleFinding(TRADE_PRIMARY, f"replenishing takes commodities up to {player.commodity_value}: {due}, not {stated}")]


def trade_secondary(state: TwilightState, line: int, e: TradeSecondary) -> list[RuleFinding]:
    """LRR 90.5 and 90.6: after the primary, the chosen use it free once; the others pay a strategy token, clockwise."""
    rule = TRADE_CHOSEN if e.free else TRADE_SECONDARY
    trade = state.trade
    if trade is None or trade.line > line:
        return [RuleFinding(rule, "the Trade secondary follows a Trade primary in the same strategic action; none was used")]
    if e.player == trade.player:
        return [RuleFinding(rule, f"{e.player} used the primary; the secondary is for the other players")]
    earlier = [(p, free) for n, p, free in trade.secondaries if n < line]
    if e.player in [p for p, _ in earlier]:
        return [RuleFinding(TRADE_CHOSEN if e.player in trade.chosen else TRADE_SECONDARY, f"{e.player} already used this Trade secondary; once only")]
    if e.free and e.player not in trade.chosen:
        return [RuleFinding(TRADE_CHOSEN, f"{trade.player} did not choose {e.player}; the secondary costs a strategy token")]
    if not e.free and e.player in trade.chosen:
        return [RuleFinding(TRADE_CHOSEN, f"{e.player} was chosen and uses the secondary free, once; it cannot be bought again")]
    return [] if e.free else _clockwise(state, trade.player, e.player, [p for p, free in earlier if not free])


def _clockwise(state: TwilightState, primary: str, player: str, paid_before: list[str]) -> list[RuleFinding]:
    """LRR 90.6: paying players go clockwise from the primary player's left."""
    players = state.players
    first, n = players.index(primary), len(players)
    seat = (players.index(player) - first) % n  # seats from the primary player's
    late = [p for p in paid_before if (players.index(p) - first) % n > seat]
    if late:
        return [RuleFinding(TRADE_SECONDARY, f"{player} sits before {late[0]} clockwise from {primary}'s left, so decides first")]
    return []


# -- Objectives (LRR 34) -----------------------------------------------------------------


def scoring_phase(state: TwilightState, e: ObjectiveScored) -> tuple[str | None, list[RuleFinding]]:
    """The phase a score belongs to: the current one; LRR 34.2–34.4 when the log states another."""
    if e.phase is not None and state.phase is not None and e.phase != state.phase:
        return state.phase, [RuleFinding(CARD, f"the log says the {e.phase} phase, but this line stands in the {state.phase} phase")]
    return state.phase or e.phase, []


def card(state: TwilightState, e: ObjectiveScored) -> list[RuleFinding]:
    """LRR 34.2–34.4: the objective's kind and points are the card's; an unknown card is taken as logged."""
    ref = reference.objective(e.objective)
    if ref is None:
        return [RuleFinding(CARD, f"{e.objective} is not in the reference data; its points and phase are taken as logged", UNVERIFIABLE)]
    out = []
    public = ref.kind == "public" or made_public(state, ref.name)  # a secret made public scores as public
    if ref.kind != e.kind and not (public and e.kind == "public"):
        out.append(RuleFinding(CARD, f"{ref.name} is a {ref.kind} objective, not {e.kind}"))
    if ref.points != e.points:
        out.append(RuleFinding(CARD, f"{ref.name} is worth {ref.points} VP, not {e.points}; the VP track counts {ref.points}"))
    return out


def points(e: ObjectiveScored) -> int:
    """LRR 34.2, 34.12, 34.18: the VP marker moves by the card's points, whatever the log says (as logged for an unknown card)."""
    ref = reference.objective(e.objective)
    return e.points if ref is None else ref.points


def timing(state: TwilightState, e: ObjectiveScored, phase: str | None, context: str) -> list[RuleFinding]:
    """LRR 34.5: an objective is scored in the phase its card names.

    A status-phase public objective scored in the action phase is legal only
    as the Imperial primary (not in the seeds): see :func:`imperial_primary`.
    A secret of the action phase may be scored by any player, active or not
    (LRR 34 comment 8).
    """
    ref = reference.objective(e.objective)
    if ref is None:
        return []  # card() says its phase is taken as logged
    if phase is None:
        return [RuleFinding(WHEN, f"no phase is known for this score; {ref.name} is scored in the {ref.phase} phase", UNVERIFIABLE)]
    if phase == ref.phase:
        return []
    if e.kind == "public" and phase == "action" and ref.phase == "status":
        return imperial_primary(state, e, ref.name, context)
    return [RuleFinding(WHEN, f"{ref.name} is scored in the {ref.phase} phase, not the {phase} phase")]


def imperial_primary(state: TwilightState, e: ObjectiveScored, name: str, context: str) -> list[RuleFinding]:
    """LRR 34.5 (not in the seeds): the Imperial primary scores one public objective in the action phase.

    In the scorer's own turn, after the ``strategic_action`` of Imperial in
    that turn (by its holder this round, or through a component that performs
    it), and only one public objective on that action.
    """
    why = f"{name} is scored in the status phase; in the action phase only by the Imperial primary (not in the seeds)"
    holder = state.holds_card(e.player, IMPERIAL, reference.strategy_cards()[reference.key(IMPERIAL)])
    if state.active != e.player or state.turn_over is not None:
        whose = f"{state.active}'s turn" if state.active and state.turn_over is None else "no one's turn"
        return [RuleFinding(WHEN, f"{why}, on its holder's own strategic action; it is {whose}, not {e.player}'s")]
    action = state.strategic
    imperial = action is not None and action[1] == e.player and reference.key(action[2]) == reference.key(IMPERIAL)
    if not imperial or not (holder or action[3]):
        if not holder:
            return [RuleFinding(WHEN, f"{why}, and {e.player} does not hold Imperial this round")]
        return [RuleFinding(WHEN, f"{why}, and no strategic action of Imperial is recorded in {e.player}'s turn")]
    if state.scores_in.get((e.player, context, "public"), 0) >= 1:
        return [RuleFinding(WHEN, f"{why}, which scores one public objective; {e.player} already scored one "
                              f"on the Imperial action of line {action[0]}")]
    return []


def score_context(state: TwilightState, e: ObjectiveScored, phase: str | None) -> str:
    """The status phase, combat or Imperial action a score counts against (LRR 34.5, 34.6, 34.7); empty when unlimited."""
    if phase == "status":
        return f"status {state.phase_serial}"
    if phase != "action":
        return ""
    action = state.strategic
    if e.kind == "public" and action is not None and action[1] == e.player and reference.key(action[2]) == reference.key(IMPERIAL):
        return f"imperial {action[0]}"
    return state.combat


def status_limit(state: TwilightState, e: ObjectiveScored, context: str) -> list[RuleFinding]:
    """LRR 34.6: in one status phase, at most 1 public and 1 secret objective per player."""
    if context.startswith("status") and state.scores_in.get((e.player, context, e.kind), 0) >= 1:
        return [RuleFinding(STATUS_LIMIT, f"a second {e.kind} objective scored by {e.player} in the status phase of round {state.round}")]
    return []


def combat_limit(state: TwilightState, e: ObjectiveScored, context: str) -> list[RuleFinding]:
    """LRR 34.7: one objective during or after one combat (a space and a ground combat are two)."""
    if context.startswith("combat") and any(state.scores_in.get((e.player, context, k), 0) for k in ("public", "secret")):
        return [RuleFinding(COMBAT_LIMIT, f"{e.player} already scored an objective during or after this combat")]
    return []


def score(state: TwilightState, e: ObjectiveScored) -> tuple[str, list[RuleFinding], list[RuleFinding], int, int]:
    """LRR 34.2–34.19, every check of a score: (the status phase, combat or Imperial action it counts against, the
    problems, the LRR 34.8 problem of a second score among them, the trade goods and tokens it uses up)."""
    p = state.by_player[e.player]
    phase, problems = scoring_phase(state, e)
    context = score_context(state, e, phase)
    problems += card(state, e) + timing(state, e, phase, context)
    problems += status_limit(state, e, context) + combat_limit(state, e, context)
    again = once_per_game(p, e)
    paid, tg, tokens = payment(p, e)
    problems += again + paid + public_objective(state, p, e) + secret_held(p, e) + one_owner_scored(state, e)
    return context, problems, again, tg, tokens


def scored_already(player: Player, objective: str) -> bool:
    """LRR 34.8: ``player`` has scored ``objective`` (by its name or another form of it)."""
    return any(reference.key(o) == reference.key(objective) for o in player.scored)


def once_per_game(player: Player, e: ObjectiveScored) -> list[RuleFinding]:
    """LRR 34.8: each objective is scored once per game by a player; a second score gives no VP."""
    if scored_already(player, e.objective):
        return [RuleFinding(ONCE, f"{e.player} has already scored {e.objective}; a second score gives no VP")]
    return []


def one_owner_scored(state: TwilightState, e: ObjectiveScored) -> list[RuleFinding]:
    """LRR 34.17: a secret objective belongs to one player: nobody else has scored it as a secret."""
    if e.kind != "secret":
        return []
    others = [name for name, p in state.by_player.items() if name != e.player
              and any(reference.key(o) == reference.key(e.objective) and kind == "secret" for o, kind in p.scored.items())]
    if others:
        return [RuleFinding(OWNER, f"{e.objective} is {others[0]}'s secret objective, scored by them; a secret objective belongs to one player")]
    return []


def payment(player: Player, e: ObjectiveScored) -> tuple[list[RuleFinding], int, int]:
    """LRR 34.10: what the card spends is recorded as spent in this phase before the score.

    Returns the problems and the (trade goods, tokens) the score uses up.
    """
    ref = reference.objective(e.objective)
    if ref is None:
        return [], 0, 0
    out = []
    tg, tokens = ref.trade_goods_cost, ref.tokens_cost
    if tg > player.pending_trade_goods:
        out.append(RuleFinding(PAID, f"{ref.name} spends {tg} trade goods; {player.pending_trade_goods} were spent for it in this phase"))
    if tokens > player.pending_tokens:
        out.append(RuleFinding(PAID, f"{ref.name} spends {tokens} tactic or strategy tokens; {player.pending_tokens} were spent for it in this phase"))
    if ref.untracked_cost:
        out.append(RuleFinding(PAID, f"{ref.name} spends resources or influence, which the log does not track", UNVERIFIABLE))
    return out, min(tg, player.pending_trade_goods), min(tokens, player.pending_tokens)


def public_objective(state: TwilightState, player: Player, e: ObjectiveScored) -> list[RuleFinding]:
    """LRR 34.12 and 34.16: a public objective is on the table, and its scorer controls their home system."""
    if e.kind != "public":
        return []
    out = []
    if not any(key == reference.key(e.objective) for key in (reference.key(o) for o, _, _ in state.revealed)):
        out.append(RuleFinding(PUBLIC, f"{e.objective} has not been revealed"))
    if not player.home_control:
        out.append(RuleFinding(HOME, f"{e.player} does not control every planet in their home system"))
    return out


def secret_held(player: Player, e: ObjectiveScored) -> list[RuleFinding]:
    """LRR 34.19: a player scores only secret objectives they hold."""
    if e.kind == "secret" and e.objective not in player.secrets:
        return [RuleFinding(HELD, f"{e.player} does not hold the secret objective {e.objective}")]
    return []


# -- Public objectives revealed (LRR 34.13–34.15) ---------------------------------------


def none_left(state: TwilightState) -> bool:
    """LRR 34.15: every public objective of the game (5 + 5) is already revealed."""
    stages = [stage for _, stage, _ in state.revealed]
    return stages.count(1) >= PUBLIC_PER_STAGE and stages.count(2) >= PUBLIC_PER_STAGE


def reveal(state: TwilightState, e: ObjectiveRevealed) -> list[RuleFinding]:
    """LRR 34.13–34.14 (and the card's stage, LRR 34.2–34.4): 5 + 5 cards, 2 in setup, 1 per status phase, stage I first."""
    ref = reference.objective(e.objective)
    out = []
    if ref is None or ref.kind != "public":
        out.append(RuleFinding(CARD, f"{e.objective} is not a public objective of the reference data; its stage is taken as logged", UNVERIFIABLE))
    elif ref.stage != e.stage:
        out.append(RuleFinding(CARD, f"{ref.name} is a stage {ref.stage} objective, not stage {e.stage}"))
    if any(reference.key(o) == reference.key(e.objective) for o, _, _ in state.revealed):
        out.append(RuleFinding(REVEAL, f"{e.objective} is already revealed"))
    if state.revealed_stage(e.stage) >= PUBLIC_PER_STAGE:
        out.append(RuleFinding(REVEAL, f"all {PUBLIC_PER_STAGE} stage {e.stage} objectives are already revealed"))
    if e.stage == 2 and state.revealed_stage(1) < PUBLIC_PER_STAGE:
        out.append(RuleFinding(REVEAL, f"no stage II objective before every stage I is revealed ({state.revealed_stage(1)} of {PUBLIC_PER_STAGE})"))
    return out + _reveal_timing(state)


def _reveal_timing(state: TwilightState) -> list[RuleFinding]:
    serial = state.phase_serial if state.round else 0
    before = sum(1 for _, _, n in state.revealed if n == serial)
    if not state.round:
        return [] if before < SETUP_REVEALS else [RuleFinding(REVEAL, f"only {SETUP_REVEALS} stage I objectives are revealed in setup")]
    if state.phase != "status":
        return [RuleFinding(REVEAL, f"public objectives are revealed in setup and in the status phase, not the {state.phase or 'round start'}")]
    return [] if not before else [RuleFinding(REVEAL, "the speaker reveals one public objective per status phase")]


def reveal_missed(state: TwilightState) -> list[RuleFinding]:
    """LRR 34.14: a status phase that ended (a new phase starts) revealed one objective, while any were left."""
    if state.last_phase != "status" or none_left(state):
        return []
    if any(n == state.phase_serial - 1 for _, _, n in state.revealed):
        return []
    return [RuleFinding(REVEAL, "the status phase ended without revealing a public objective")]


def winner_when_none_left(state: TwilightState) -> tuple[str, str]:
    """LRR 34.15: (winner, reason): the most VP; a tie goes to the earliest in initiative order."""
    order = state.initiative_order()
    best = max(state.by_player[p].vp for p in order)
    winner = next(p for p in order if state.by_player[p].vp == best)
    tied = [p for p in order if state.by_player[p].vp == best]
    tie = f"; tied with {', '.join(tied[1:])}, earliest in initiative order" if len(tied) > 1 else ""
    return winner, f"no public objective left to reveal; {winner} has the most VP ({best}){tie}"


def reaches_goal(player: Player, goal: int) -> bool:
    """TI4-VP-GOAL (not in the seeds): the game ends when a player reaches the VP goal."""
    return player.vp >= goal


def declared_winner(state: TwilightState, declared: str | None) -> list[RuleFinding]:
    """TI4-VP-GOAL: a declared winner is the one the VP track made, or the gap is named.

    When the log's VP ended the game, a different winner is a violation. When
    they did not (an app's record lacks the Custodians or Imperial points), the
    log cannot show the win: an ``unverifiable`` finding names the missing VP.
    """
    ended = state.ended
    if ended is not None:
        if declared != ended.winner:
            return [RuleFinding(VP_GOAL, f"the log declares {declared or 'no winner'}, but {ended.winner or 'no one'} won: {ended.reason}")]
        return []
    if declared is None:
        return []
    vp = state.by_player[declared].vp
    leader = max(state.by_player.items(), key=lambda item: item[1].vp)
    return [RuleFinding(VP_GOAL, f"{declared} is declared the winner with {vp} of {state.goal} VP in the log: "
                             f"{state.goal - vp} VP are not recorded (the log's leader is {leader[0]} with {leader[1].vp})",
                    UNVERIFIABLE)]


# -- Secret objectives held (LRR 34.20–34.21) --------------------------------------------


def secret_drawn(state: TwilightState, player: Player, name: str) -> list[RuleFinding]:
    """LRR 34.20–34.21: each player starts with 1 secret objective; the same card is never held twice."""
    if name in player.secrets or player.scored.get(name) == "secret":
        return [RuleFinding(SECRET_LIMIT, f"{name} is already held")]
    if not state.round and player.secrets_total() >= 1:
        return [RuleFinding(SECRET_LIMIT, "each player starts the game with 1 secret objective")]
    return []


def one_owner_drawn(state: TwilightState, drawer: str, name: str) -> list[RuleFinding]:
    """LRR 34.17: a secret objective belongs to one player: nobody else holds it or has scored it."""
    for other, p in state.by_player.items():
        if other == drawer:
            continue
        if any(reference.key(o) == reference.key(name) for o in p.secrets):
            return [RuleFinding(OWNER, f"{name} is held by {other}; a secret objective belongs to one player")]
        if any(reference.key(o) == reference.key(name) and kind == "secret" for o, kind in p.scored.items()):
            return [RuleFinding(OWNER, f"{name} was scored by {other}; a secret objective belongs to one player")]
    return []


def secret_returned(player: Player, name: str) -> list[RuleFinding]:
    """LRR 34.21a: only an unscored secret objective in hand is returned."""
    if name not in player.secrets:
        return [RuleFinding(SECRET_LIMIT, f"{name} is not an unscored secret objective in hand")]
    return []


def secret_limit(state: TwilightState, event: object) -> list[tuple[str, RuleFinding]]:
    """LRR 34.21: a draw past 3 secret objectives is followed at once by returning an unscored one.

    Checked on the line of play after the draw, whatever it is (a turn's start
    or end, any of the game's events; notes, score claims and corrections are
    not play and are passed over); returns (player, problem) pairs. Comment 9:
    a player with three scored secrets returns the fourth at once. A log that
    ends just after the draw: :func:`secret_limit_at_end`.
    """
    drawn = state.previous
    if not isinstance(drawn, SecretObjectiveDrawn):
        return []
    player, total = drawn.player, state.by_player[drawn.player].secrets_total()
    if total <= MAX_SECRETS or (isinstance(event, SecretObjectiveReturned) and event.player == player):
        return []
    return [(player, RuleFinding(SECRET_LIMIT, f"{player} holds {total} secret objectives (3 at most) and returned none after drawing"))]


def secret_limit_at_end(state: TwilightState) -> list[tuple[str, RuleFinding]]:
    """LRR 34.21, when the log ends: its last line of play drew past 3 secret objectives and none was returned.

    Stored as a finding open at the end of the log (``Engine.finish_log``): a later import that extends the log
    makes it moot, and :func:`secret_limit` decides its next line of play as usual.
    """
    drawn = state.current
    if not isinstance(drawn, SecretObjectiveDrawn):
        return []
    player, total = drawn.player, state.by_player[drawn.player].secrets_total()
    if total <= MAX_SECRETS:
        return []
    return [(player, RuleFinding(SECRET_LIMIT, f"{player} holds {total} secret objectives (3 at most) when the log "
                                               f"ends after their draw of {drawn.objective}, and returned none"))]


# -- What the log's source does not record (header ``not_recorded``) -------------------


def _topic(problem: RuleFinding) -> str | None:
    """What a problem depends on, when that is one of the things a source may not record."""
    text = problem.message
    if problem.rule in (HELD, SECRET_LIMIT):
        return "secret_objectives"
    if problem.rule in (PAID, PAY):
        if "trade goods" in text:
            return "trade_goods"
        if "token" in text:
            return "command_tokens"
    if problem.rule == TRADE_SECONDARY and "clockwise" in text:
        return "secondary_order"
    if problem.rule == TRADE_CHOSEN:
        return "trade_chosen"
    if problem.rule in (WHEN, STATUS_LIMIT, COMBAT_LIMIT) or problem.rule == VP_GOAL and "nothing may follow" in text:
        return "score_timing"  # when a point was scored: which phase, with what else, before or after the end
    return None


def unless_not_recorded(state: TwilightState, problem: RuleFinding) -> RuleFinding:
    """A violation that depends only on something the header's ``not_recorded`` names is ``unverifiable``.

    The log's source did not record it, so the log cannot show that the table
    broke the rule; the finding says what was missing.
    """
    topic = _topic(problem)
    if problem.severity == UNVERIFIABLE or topic is None or topic not in state.not_recorded:
        return problem
    return RuleFinding(problem.rule, unrecorded(_without_counts(problem), topic.replace("_", " ")), UNVERIFIABLE)


_UNKNOWN_COUNTS = (
    (re.compile(r", -?\d+ held$"), ", and what was held is not known"),
    (re.compile(r"; -?\d+ were spent for it in this phase$"), ", and what was spent for it is not known"),
)
"""The counts a TI4-PAY or LRR 34.10 message quotes of a pool the log's source does not record, and their words."""


def _without_counts(problem: RuleFinding) -> str:
    """The message without a count of what the log's source does not record: the log holds no such number (a
    pool it never saw filled reads 0 or below), so the finding says it is not known."""
    message = problem.message
    for count, words in _UNKNOWN_COUNTS:
        message = count.sub(words, message)
    return message


def commodity_value_known(state: TwilightState, player: str) -> list[RuleFinding]:
    """LRR 90.4: a replenish is checked only when the faction's commodity value is known (setup ``unknown_commodities``)."""
    if player not in state.unknown_commodities:
        return []
    faction = state.by_player[player].faction or "no faction"
    return [RuleFinding(TRADE_PRIMARY, f"the commodity value of {player} ({faction}) is not known, so the replenish "
                                   "cannot be checked and commodities are not tracked", UNVERIFIABLE)]


# -- Victory points from other sources (TI4-VP-SOURCE) -----------------------------------

ONE_HOLDER = frozenset({"Custodians Token", "Styx", "Shard of the Throne", "The Crown of Emphidia", "Political Censure"})
"""Points one player holds at a time: the Custodians token (once per game), Styx, the relics, Political Censure."""
HELD_SOURCES = ONE_HOLDER | {"Support for the Throne", "Imperial Rider", "Holy Planet of Ixth"}
"""Points that are lost only by their holder (Mutiny or a manual correction take points from anyone)."""


def vp_source(state: TwilightState, e: VpScored) -> list[RuleFinding]:
    """TI4-VP-SOURCE (not in the seeds): a point lost was held from that source; a point one player holds is not held twice."""
    held = state.vp_sources.get((e.player, e.origin), 0)
    if e.lost and e.origin in HELD_SOURCES:
        if held < e.points:
            return [RuleFinding(VP_SOURCE, f"{e.player} loses {e.points} VP of {e.origin} but holds {held} from it")]
    if e.lost:
        return []
    if e.origin in ONE_HOLDER:
        others = [p for (p, source), n in state.vp_sources.items() if source == e.origin and n > 0]
        if others:
            return [RuleFinding(VP_SOURCE, f"{others[0]} already holds the point of {e.origin}; one player holds it at a time")]
    return []


def made_public(state: TwilightState, objective: str) -> bool:
    """True when ``objective`` was made public by an effect (``objective_made_public``)."""
    return any(stage == 0 and reference.key(o) == reference.key(objective) for o, stage, _ in state.revealed)


def making_public(state: TwilightState, e: ObjectiveMadePublic) -> list[RuleFinding]:
    """LRR 34.12: an objective made public is not public already."""
    if any(reference.key(o) == reference.key(e.objective) for o, _, _ in state.revealed):
        return [RuleFinding(REVEAL, f"{e.objective} is already public")]
    return []


def swap(state: TwilightState, cards: list[str]) -> list[RuleFinding]:
    """TI4-TURN: a swap exchanges two strategy cards that players hold this round."""
    held = {c.casefold() for picks in state.picks.values() for c, _ in picks}
    missing = [c for c in cards if c.casefold() not in held]
    if missing:
        return [RuleFinding(TURN, f"nobody holds {missing[0]} this round, so it cannot be swapped")]
    return []


def weigh_adjustment(state: TwilightState, player: str, origin: str, declared: int) -> tuple[tuple[int, ...], int, RuleFinding | None]:
    """TI4-VP-SOURCE: what a declared adjustment of ``origin`` would change: (the lines of the points it takes
    away, the most recent first; the points it adds that no line holds; the finding naming the gap, None when the
    log already gives ``declared``). The archive's parser takes the most recent points away; so does this."""
    lines = state.vp_source_lines.get((player, origin), [])
    held = len(lines)
    if declared == held:
        return (), 0, None
    voids = tuple(reversed(lines[declared:])) if declared < held else ()
    added = max(0, declared - held)
    where = f" (line{'s' if len(voids) > 1 else ''} {', '.join(map(str, voids))})" if voids else ""
    message = (f"{player} is declared to end with {declared} VP from {origin}; the log gives {held}: a declared "
               f"adjustment of {declared - held:+d} VP{where}, not applied (gamelog reconcile applies it as a what-if)")
    return voids, added, RuleFinding(VP_SOURCE, message, UNVERIFIABLE)


def declared_scores(state: TwilightState, scores: dict[str, int]) -> list[RuleFinding]:
    """TI4-VP-GOAL: final scores another tool declares are compared with the VP track; a gap is named."""
    out = []
    for player, declared in sorted(scores.items()):
        if player not in state.by_player:
            out.append(RuleFinding(VP_GOAL, f"the declared scores name {player!r}, who is not a player"))
            continue
        vp = state.by_player[player].vp
        if declared != vp:
            out.append(RuleFinding(VP_GOAL, f"{player} is declared to have {declared} VP; the log gives {vp} "
                                        f"({declared - vp:+d} VP not in the log)", UNVERIFIABLE))
    return out
