"""Uchronia rules (RULES.md, Uchronia section), each checked in one place.

Every ``check_*`` function here is pure: it reads the state before a recorded
event and the event, and returns the findings it makes as :class:`RuleFinding`
values naming one rule ID. The other functions compute what a rule fixes (a
cost, a completion, who reached the threshold, the winner). ``game.py`` turns
both into stored events. Two checks live in the shared engine, driven by
``game.py``'s class attributes: score claims (``CLAIM``) and
events after the end (``END_RULE``, UCH-THRESHOLD).
"""

from __future__ import annotations

import re
from typing import Any

from gamelog.domain.engine import UNVERIFIABLE, WARNING, RuleFinding
from gamelog.domain.uchronia import reference
from gamelog.domain.uchronia.events import (
    ConstructionStarted,
    ForumCardRemoved,
    ForumCardTaken,
    MonopolyChanged,
    ResourceMoved,
    VpAdjusted,
    WinnerDeclared,
)
from gamelog.domain.uchronia.state import Site, UchroniaState

_MONOPOLY_WORDS = re.compile(r"\bmonopol(y|ies)\b", re.I)
_COMPLETION_WORDS = re.compile(r"\b(complet(e|ed|es|ing|ion)|construction)\b", re.I)


# -- UCH-TURN and the Forum (not in the seeds) ------------------------------------------


def check_turn(state: UchroniaState, event: Any) -> list[RuleFinding]:
    """UCH-TURN (not in the seeds): every game action happens inside a turn.

    Any player may act in another's turn (an order can be copied), so only
    actions before the first turn or between a turn's end and the next start
    are flagged.
    """
    if state.active is not None and state.turn_over is None:
        return []
    player = getattr(event, "player", None)
    what = event.__struct_config__.tag + (f" by {player}" if player else "")
    if state.active is None:
        return [RuleFinding("UCH-TURN", f"{what} before any turn has started (not in the seeds)")]
    over = state.turn_over
    return [RuleFinding("UCH-TURN", f"{what} after {over.player}'s turn {over.turn} ended at line {over.line} (not in the seeds)")]


def check_forum(state: UchroniaState, e: ForumCardRemoved) -> list[RuleFinding]:
    """UCH-FORUM (not in the seeds): a card can only leave the Forum if one of its color is there."""
    if state.forum[e.color] > 0:
        return []
    return [RuleFinding("UCH-FORUM", f"a {e.color} card leaves the Forum ({e.reason}), but the Forum has none (not in the seeds)")]


# -- Starting and building -------------------------------------------------------------


def check_start(state: UchroniaState, e: ConstructionStarted) -> list[RuleFinding]:
    """UCH-START: a Forum card of the building's color must be there to be discarded."""
    if state.forum[e.color] > 0:
        return []
    return [RuleFinding("UCH-START", f"starts {e.building} ({e.color}) with no {e.color} card on the Forum")]


def check_unique(state: UchroniaState, e: ConstructionStarted) -> list[RuleFinding]:
    """UCH-UNIQUE: no building of the same name may be built or being built by anyone."""
    used = state.building_in_use(e.building)
    if used is None:
        return []
    player, status, line = used
    return [RuleFinding("UCH-UNIQUE", f"starts {e.building}, which {player} has {status} (line {line})")]


def cost_of(color: str) -> int:
    """UCH-COST: resources a building of that color needs."""
    return reference.COST[color]


def check_cost(state: UchroniaState, e: ResourceMoved) -> list[RuleFinding]:
    """UCH-COST: no resource under a building the player has already completed (it is beyond its cost)."""
    if e.building in state.by_player[e.player].under_construction:
        return []
    done = state.built_by(e.player, e.building)
    if done is None:
        return []
    return [RuleFinding("UCH-COST", f"a resource for {e.building}, which was completed at line {done.line} with the {cost_of(done.color)} resource(s) it costs")]


def check_move(state: UchroniaState, e: ResourceMoved) -> list[RuleFinding]:
    """UCH-MOVE: onto a building the player is building, of its color, not in the turn it was started.

    Both violations are applied as recorded (the table did it): a resource
    moved in the starting turn counts toward completion, one of another color
    lies under the building but never counts (:func:`counts_toward`). How many
    resources one order moves is not limited (the seed: "if you move
    additional resources, keep their count visible").
    """
    site = state.by_player[e.player].under_construction.get(e.building)
    if site is None:
        if state.built_by(e.player, e.building) is not None:
            return []  # that is UCH-COST: the building is complete
        used = state.building_in_use(e.building)
        whose = f"{used[0]} has it {used[1]}" if used else "no one is building it"
        return [RuleFinding("UCH-MOVE", f"moves a resource under {e.building}, which {e.player} is not building ({whose})")]
    out = []
    if e.color != site.color:
        out.append(RuleFinding("UCH-MOVE", f"moves a {e.color} resource under {e.building}, a {site.color} building; "
                                       f"it does not count toward the {site.cost} {site.color} resource(s) it costs "
                                       f"({site.placed} so far)"))
    if site.turn == state.turn:
        out.append(RuleFinding("UCH-MOVE", f"moves a resource under {e.building} in turn {state.turn}, the turn it was started (line {site.line})"))
    return out


def counts_toward(site: Site, color: str) -> bool:
    """UCH-COMPLETE, UCH-MOVE: only a resource of the building's color counts toward its cost.

    The seed: a building is built once "as many resources of the right color"
    as its cost were moved under it; another color is a UCH-MOVE violation.
    """
    return color == site.color


def is_complete(site: Site) -> bool:
    """UCH-COMPLETE: a building is built when its resources of its color reach its cost."""
    return site.placed >= site.cost


def vp_kind(reason: str) -> str:
    """What a ``vp_adjusted`` reason says the VP are for: ``monopoly``, ``completion`` or ``effect``."""
    if _MONOPOLY_WORDS.search(reason):
        return "monopoly"
    if _COMPLETION_WORDS.search(reason):
        return "completion"
    return "effect"


def check_complete(state: UchroniaState, e: VpAdjusted | MonopolyChanged) -> list[RuleFinding]:
    """UCH-COMPLETE: a building's VP and Operations limit come with its completion.

    VP recorded by hand for a completion count twice, since the domain gives
    them when the last resource arrives. Monopolies counting more Operations
    than their holder's limit are suspicious (a warning: the starting limit
    is not in the seeds).
    """
    if isinstance(e, VpAdjusted):
        if vp_kind(e.reason) != "completion":
            return []
        return [RuleFinding("UCH-COMPLETE", f"{e.delta:+d} VP recorded for a completion ({e.reason}); a building's VP come with its last resource, so these count twice")]
    if e.player is None:
        return []
    limit = state.by_player[e.player].operations_limit
    # Every Operation of a held monopoly is one of the holder's Operations, so their sum is a floor.
    held = e.operations + sum(m.operations for c, m in state.monopolies.items() if m.player == e.player and c != e.color)
    if held <= limit:
        return []
    return [RuleFinding("UCH-COMPLETE", f"{e.player}'s monopolies count {held} Operations, above their Operations limit of {limit} "
                                    f"(the starting limit, {state.header.setup.operations_limit}, is not in the seeds)", WARNING)]


# -- Monopolies, effects, score ------------------------------------------------------


def check_monopoly_bonus(state: UchroniaState, e: ForumCardTaken) -> list[RuleFinding]:
    """UCH-MONOPOLY-BONUS: only the color's monopoly holder, right after a completion of it, from the Forum."""
    out = []
    holder = state.monopolies[e.color].player
    if holder != e.player:
        whose = f"{holder}'s" if holder else "held by no one"
        out.append(RuleFinding("UCH-MONOPOLY-BONUS", f"takes a {e.color} Forum card, but the {e.color} monopoly is {whose}"))
    done = state.bonus_open
    if done is None or done.color != e.color:
        last = f"the last completion open to a bonus is {done.building} ({done.color})" if done else "no building was just completed"
        out.append(RuleFinding("UCH-MONOPOLY-BONUS", f"takes a {e.color} Forum card, but {last}"))
    if state.forum[e.color] == 0:
        out.append(RuleFinding("UCH-MONOPOLY-BONUS", f"takes a {e.color} card, but the Forum has none"))
    return out


def check_effect(state: UchroniaState, e: VpAdjusted) -> list[RuleFinding]:
    """UCH-EFFECT: only built buildings' effects apply, as far as the reason names the building.

    The reason should name a building the player has built. Naming a building
    that is not (yet) theirs and built is a violation, as is any effect for a
    player who has built nothing; a reason naming no known building cannot be
    checked.
    """
    if vp_kind(e.reason) != "effect":
        return []  # not an effect: UCH-COMPLETE or UCH-SCORE speak of it
    named = [n for n in _known_buildings(state) if n.casefold() in e.reason.casefold()]
    if any(state.built_by(e.player, n) for n in named):
        return []
    if named:
        player, status, _ = state.building_in_use(named[0])
        return [RuleFinding("UCH-EFFECT", f"{e.delta:+d} VP from {named[0]}, which {player} has {status}; only {e.player}'s built buildings' effects apply to them")]
    if not state.by_player[e.player].built:
        return [RuleFinding("UCH-EFFECT", f"{e.delta:+d} VP from an effect ({e.reason}), but {e.player} has built no building")]
    return [RuleFinding("UCH-EFFECT", f"the reason ({e.reason}) names none of {e.player}'s buildings; the effect cannot be checked", UNVERIFIABLE)]


def _known_buildings(state: UchroniaState) -> list[str]:
    names = [b.name for p in state.by_player.values() for b in p.built]
    names += [n for p in state.by_player.values() for n in p.under_construction]
    return sorted(set(names), key=len, reverse=True)  # the longest name first: "Great Baths" before "Baths"


PRINTED_VP = (1, 2, 3)
"""UCH-SCORE: the victory points a building may show (the seed: "+1, +2, или +3 за построенные Здания")."""


def building_vp(e: ConstructionStarted) -> int:
    """UCH-SCORE: the building's VP as printed (the log's ``vp``); where the log states none, its cost.

    The cost is our reading (not in the seeds): the seed gives the VP "as
    printed on the building", and Uchronia has no public component list.
    """
    return cost_of(e.color) if e.vp is None else e.vp


def check_printed_vp(e: ConstructionStarted) -> list[RuleFinding]:
    """UCH-SCORE: stated VP are used as printed; warn when they are none of the +1, +2, +3 the seed lists.

    VP that differ from the cost are no finding: the VP are the building's
    own, and the cost is only our default where the log states none.
    """
    if e.vp is None or e.vp in PRINTED_VP:
        return []
    return [RuleFinding("UCH-SCORE", f"{e.building} is given {e.vp} VP; the seed's buildings give +1, +2 or +3", WARNING)]


def check_score(state: UchroniaState, e: VpAdjusted | MonopolyChanged) -> list[RuleFinding]:
    """UCH-SCORE: monopoly VP follow ``monopoly_changed``; a monopoly has a holder to score it."""
    if isinstance(e, VpAdjusted):
        if vp_kind(e.reason) != "monopoly":
            return []
        return [RuleFinding("UCH-SCORE", f"{e.delta:+d} VP recorded for a monopoly ({e.reason}); monopoly VP follow monopoly_changed, so these count twice")]
    if e.player is None and e.operations > 0:
        return [RuleFinding("UCH-SCORE", f"the {e.color} monopoly has {e.operations} Operations but no holder; no one scores them")]
    return []


# -- The end ---------------------------------------------------------------------------


def threshold_reacher(state: UchroniaState) -> tuple[str, int] | None:
    """UCH-THRESHOLD: (player, VP) of the first to reach the threshold now (most VP, then seating order)."""
    if state.reached is not None:
        return None
    best, vp = None, 0
    for player in state.players:  # the first of the most VP, as max() takes it; checked after every line
        points = state.by_player[player].vp
        if best is None or points > vp:
            best, vp = player, points
    return (best, vp) if vp >= state.threshold else None


def game_ends_after(state: UchroniaState, player: str) -> bool:
    """UCH-THRESHOLD: once reached, the game ends after the Last Turn card holder's turn."""
    return state.reached is not None and state.ended is None and player == state.last_turn_card


def check_threshold(state: UchroniaState, e: WinnerDeclared) -> list[RuleFinding]:
    """UCH-THRESHOLD: a winner is declared only once the game has ended."""
    if state.ended is not None:
        return []
    if state.reached is None:
        return [RuleFinding("UCH-THRESHOLD", f"a winner is declared, but no one has reached {state.threshold} VP")]
    return [RuleFinding("UCH-THRESHOLD", f"a winner is declared, but the game ends only after {state.last_turn_card}'s turn (Last Turn card)")]


def winner(state: UchroniaState) -> tuple[str | None, str]:
    """UCH-WINNER: (winner or None, why): the most VP, then the most buildings built."""
    vp = {p: state.by_player[p].vp for p in state.players}
    top = max(vp.values())
    leaders = [p for p in state.players if vp[p] == top]
    if len(leaders) == 1:
        others = ", ".join(f"{p} {vp[p]}" for p in state.players if p != leaders[0])
        return leaders[0], f"most VP: {leaders[0]} {top}" + (f" (then {others})" if others else "")
    built = {p: len(state.by_player[p].built) for p in leaders}
    most = max(built.values())
    first = [p for p in leaders if built[p] == most]
    counts = ", ".join(f"{p} {built[p]}" for p in leaders)
    if len(first) == 1:
        return first[0], f"tie on {top} VP broken by buildings built: {counts}"
    return None, f"tie on {top} VP and on buildings built ({counts}); the rules name no winner"


def check_winner(state: UchroniaState, e: WinnerDeclared) -> list[RuleFinding]:
    """UCH-WINNER: the declared winner is the one the end decided (None: an unbroken tie)."""
    if state.ended is None or e.player == state.ended.winner:
        return []
    declared = e.player or "no one (a tie)"
    actual = state.ended.winner or "no one"
    return [RuleFinding("UCH-WINNER", f"the log declares {declared} the winner, but {actual} wins: {state.ended.reason}")]
