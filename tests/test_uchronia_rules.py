"""Uchronia rules, one legal and one illegal log per rule ID (RULES.md, Uchronia section).

Each log is built here as bytes: the header is line 1 and every event after it
takes the next line, so ``(3, "UCH-START")`` means the second event broke
UCH-START.
"""

from __future__ import annotations

import json

import pytest

from gamelog.domain.events import FindingRaised, GameWon
from gamelog.domain.replay import run

WOODS = ["wood", "wood", "clay", "brick", "stone", "marble"]


def ev(type_: str, **fields) -> dict:
    return {"type": type_, **fields}


def start(player: str) -> dict:
    return ev("turn_started", player=player)


def end(player: str) -> dict:
    return ev("turn_ended", player=player)


def build(player: str, building: str, color: str, **more) -> dict:
    return ev("construction_started", player=player, building=building, color=color, **more)


def move(player: str, building: str, color: str) -> dict:
    return ev("resource_moved", player=player, building=building, color=color)


def monopoly(color: str, player: str | None, operations: int) -> dict:
    return ev("monopoly_changed", color=color, player=player, operations=operations)


def vp(player: str, delta: int, reason: str) -> dict:
    return ev("vp_adjusted", player=player, delta=delta, reason=reason)


def play(*events: dict, players=("Ann", "Bob"), **setup):
    """Run a log of these events; ``setup`` defaults to a Forum of WOODS."""
    setup.setdefault("forum", WOODS)
    header = {"type": "game", "game": "uchronia", "id": "t", "players": list(players), "setup": setup}
    outcome = run("\n".join(json.dumps(o) for o in (header, *events)).encode() + b"\n")
    assert outcome.errors == []
    return outcome


def violations(outcome) -> list[tuple[int, str]]:
    return [(e.line, e.rule) for e in outcome.events if isinstance(e, FindingRaised) and e.severity == "violation"]


def findings(outcome, severity: str) -> list[tuple[int, str]]:
    return [(e.line, e.rule) for e in outcome.events if isinstance(e, FindingRaised) and e.severity == severity]


# Ann starts Casa (wood) in turn 1 and completes it in turn 2: lines 2-6.
CASA = [start("Ann"), build("Ann", "Casa", "wood"), end("Ann"), start("Bob"), move("Ann", "Casa", "wood")]


# -- UCH-START -------------------------------------------------------------------------


def test_start_discards_a_forum_card_of_the_buildings_color():
    out = play(start("Ann"), build("Ann", "Casa", "wood"))
    assert violations(out) == []
    assert out.state.forum == {"wood": 1, "clay": 1, "brick": 1, "stone": 1, "marble": 1}
    assert out.state.to_json()["players"]["Ann"]["under_construction"] == {"Casa": 0}


def test_start_without_a_forum_card_of_that_color_is_a_violation_and_discards_nothing():
    out = play(start("Ann"), build("Ann", "Villa", "clay"), build("Bob", "Domus", "clay"))
    assert violations(out) == [(4, "UCH-START")]
    assert out.state.forum["clay"] == 0
    assert out.state.to_json()["players"]["Bob"]["under_construction"] == {"Domus": 0}  # applied as recorded


# -- UCH-UNIQUE ------------------------------------------------------------------------


def test_two_buildings_of_different_names_may_be_built_at_once():
    assert violations(play(start("Ann"), build("Ann", "Casa", "wood"), build("Bob", "Villa", "wood"))) == []


@pytest.mark.parametrize("events, line", [
    ([start("Ann"), build("Ann", "Casa", "wood"), build("Bob", "CASA", "wood")], 4),  # being built, case aside
    (CASA + [build("Bob", "Casa", "wood")], 7),  # already built
])
def test_a_building_named_like_one_built_or_being_built_is_a_violation(events, line):
    assert violations(play(*events)) == [(line, "UCH-UNIQUE")]


# -- UCH-COST --------------------------------------------------------------------------


def test_a_stone_building_needs_two_resources_and_is_worth_two_vp():
    out = play(start("Ann"), build("Ann", "Arena", "stone"), end("Ann"), start("Bob"), move("Ann", "Arena", "stone"))
    assert out.state.to_json()["players"]["Ann"]["under_construction"] == {"Arena": 1}
    out = play(start("Ann"), build("Ann", "Arena", "stone"), end("Ann"), start("Bob"),
               move("Ann", "Arena", "stone"), move("Ann", "Arena", "stone"))
    assert violations(out) == []
    assert out.state.to_json()["players"]["Ann"]["built"] == ["Arena"]
    assert out.state.score("Ann") == 2


def test_a_resource_beyond_a_buildings_cost_is_a_violation():
    assert violations(play(*CASA, move("Ann", "Casa", "wood"))) == [(7, "UCH-COST")]


def test_stated_vp_are_as_printed_even_when_they_differ_from_the_cost():
    # UCH-SCORE: VP as printed on the building; a wood building showing +3 is no finding.
    out = play(start("Ann"), build("Ann", "Casa", "wood", vp=3), end("Ann"), start("Bob"), move("Ann", "Casa", "wood"))
    assert [e for e in out.events if isinstance(e, FindingRaised)] == []
    assert out.state.score("Ann") == 3


def test_stated_vp_outside_the_seeds_one_to_three_are_used_with_a_warning():
    out = play(start("Ann"), build("Ann", "Templum", "marble", vp=4), end("Ann"), start("Bob"),
               *[move("Ann", "Templum", "marble")] * 3)
    assert violations(out) == []
    assert findings(out, "warning") == [(3, "UCH-SCORE")]
    assert out.state.score("Ann") == 4


# -- UCH-MOVE --------------------------------------------------------------------------


def test_a_resource_of_the_buildings_color_in_a_later_turn_is_legal():
    assert violations(play(*CASA)) == []


@pytest.mark.parametrize("events, expected", [
    ([start("Ann"), build("Ann", "Casa", "wood"), move("Ann", "Casa", "wood")], [(4, "UCH-MOVE")]),
    ([start("Ann"), build("Ann", "Arena", "stone"), end("Ann"), start("Bob"), move("Ann", "Arena", "clay")], [(6, "UCH-MOVE")]),
    (CASA[:4] + [move("Bob", "Casa", "wood")], [(6, "UCH-MOVE")]),  # Ann's building, not Bob's
    ([start("Ann"), build("Ann", "Arena", "stone"), move("Ann", "Arena", "wood")], [(4, "UCH-MOVE"), (4, "UCH-MOVE")]),
])
def test_a_wrong_color_the_starting_turn_or_another_players_building_is_a_violation(events, expected):
    assert violations(play(*events)) == expected


def test_one_order_may_move_any_number_of_resources():
    # The seed sets no limit ("if you move additional resources, keep their count visible"):
    # Ann moves all three marble resources of Templum in one turn, and it is built.
    out = play(start("Ann"), build("Ann", "Templum", "marble"), end("Ann"), start("Bob"), end("Bob"), start("Ann"),
               *[move("Ann", "Templum", "marble")] * 3)
    assert [e for e in out.events if isinstance(e, FindingRaised)] == []
    ann = out.state.to_json()["players"]["Ann"]
    assert (ann["vp"], ann["built"], ann["operations_limit"]) == (3, ["Templum"], 3)


# Ann starts Arena (stone, cost 2) in turn 1; turn 2 is Bob's: lines 2-5.
ARENA = [start("Ann"), build("Ann", "Arena", "stone"), end("Ann"), start("Bob")]


def test_a_resource_of_another_color_does_not_count_toward_completion():
    # Line 6: clay under Arena, a violation; line 7: one stone. Arena has 1 of its 2 stones: not built.
    out = play(*ARENA, move("Ann", "Arena", "clay"), move("Ann", "Arena", "stone"))
    assert violations(out) == [(6, "UCH-MOVE")]
    (finding,) = [e for e in out.events if isinstance(e, FindingRaised)]
    assert finding.message == ("moves a clay resource under Arena, a stone building; "
                               "it does not count toward the 2 stone resource(s) it costs (0 so far)")
    ann = out.state.to_json()["players"]["Ann"]
    assert (ann["vp"], ann["built"], ann["under_construction"], ann["operations_limit"]) == (0, [], {"Arena": 1}, 2)
    assert out.state.by_player["Ann"].under_construction["Arena"].other == 1  # it lies there, as recorded


def test_the_building_is_built_only_when_its_own_color_reaches_the_cost():
    # Line 6 clay (not counted), lines 7 and 8 stone: built at line 8, 2 VP, Operations limit 2 -> 3.
    out = play(*ARENA, move("Ann", "Arena", "clay"), move("Ann", "Arena", "stone"), move("Ann", "Arena", "stone"))
    assert violations(out) == [(6, "UCH-MOVE")]
    ann = out.state.to_json()["players"]["Ann"]
    assert (ann["vp"], ann["built"], ann["under_construction"], ann["operations_limit"]) == (2, ["Arena"], {}, 3)
    assert ann["buildings"] == [{"name": "Arena", "color": "stone", "vp": 2, "line": 8}]


def test_a_resource_moved_in_the_starting_turn_is_a_violation_applied_as_recorded():
    # Casa (wood, cost 1) started and given its resource in turn 1: a UCH-MOVE violation, and built (1 VP, limit 3).
    out = play(start("Ann"), build("Ann", "Casa", "wood"), move("Ann", "Casa", "wood"))
    assert violations(out) == [(4, "UCH-MOVE")]
    ann = out.state.to_json()["players"]["Ann"]
    assert (ann["vp"], ann["built"], ann["operations_limit"]) == (1, ["Casa"], 3)


def test_voiding_a_resource_of_another_color_changes_nothing_it_counted():
    out = play(*ARENA, move("Ann", "Arena", "clay"), move("Ann", "Arena", "stone"), ev("correction", voids=6, reason="misread"))
    site = out.state.by_player["Ann"].under_construction["Arena"]
    assert (site.placed, site.other) == (1, 0)
    assert violations(out) == [(6, "UCH-MOVE")]  # the table saw it; the correction moots it
    assert [(e.line, e.about, e.rule) for e in out.events if type(e).__name__ == "FindingMooted"] == [(8, 6, "UCH-MOVE")]


# -- UCH-COMPLETE ----------------------------------------------------------------------


def test_completion_gives_the_buildings_vp_and_raises_the_operations_limit():
    out = play(*CASA)
    ann = out.state.to_json()["players"]["Ann"]
    assert (ann["vp"], ann["built"], ann["under_construction"], ann["operations_limit"]) == (1, ["Casa"], {}, 3)


def test_vp_recorded_for_a_completion_count_twice():
    out = play(*CASA, vp("Ann", 1, "completed Casa"))
    assert violations(out) == [(7, "UCH-COMPLETE")]
    assert out.state.score("Ann") == 2  # applied as recorded


def test_monopolies_above_the_operations_limit_are_a_warning():
    out = play(start("Ann"), monopoly("wood", "Ann", 2), monopoly("clay", "Ann", 1))
    assert violations(out) == []
    assert findings(out, "warning") == [(4, "UCH-COMPLETE")]


# -- UCH-MONOPOLY-BONUS ----------------------------------------------------------------


def test_the_monopoly_holder_takes_a_card_right_after_a_completion_of_that_color():
    out = play(*CASA[:4], monopoly("wood", "Bob", 1), move("Ann", "Casa", "wood"), ev("forum_card_taken", player="Bob", color="wood"))
    assert violations(out) == []
    assert out.state.forum["wood"] == 0


@pytest.mark.parametrize("events, count", [
    ([monopoly("wood", "Bob", 1), move("Ann", "Casa", "wood"), ev("forum_card_taken", player="Ann", color="wood")], 1),  # not the holder
    ([monopoly("clay", "Ann", 1), move("Ann", "Casa", "wood"), ev("forum_card_taken", player="Ann", color="clay")], 1),  # other color
    ([monopoly("wood", "Ann", 1), ev("forum_card_taken", player="Ann", color="wood")], 1),  # no completion
    ([monopoly("wood", "Ann", 1), move("Ann", "Casa", "wood"), build("Bob", "Villa", "clay"),
      ev("forum_card_taken", player="Ann", color="wood")], 1),  # not right after
    ([monopoly("wood", "Ann", 1), move("Ann", "Casa", "wood"), ev("forum_card_taken", player="Ann", color="wood"),
      ev("forum_card_taken", player="Ann", color="wood")], 2),  # one card per completion, and the Forum is empty
])
def test_a_bonus_card_out_of_turn_or_by_another_player_is_a_violation(events, count):
    out = play(*CASA[:4], *events)
    assert violations(out) == [(len(events) + 5, "UCH-MONOPOLY-BONUS")] * count


# -- UCH-EFFECT ------------------------------------------------------------------------


def test_an_effect_of_a_built_building_applies():
    out = play(*CASA, vp("Ann", 2, "Casa: permanent effect"))
    assert findings(out, "violation") + findings(out, "unverifiable") == []
    assert out.state.score("Ann") == 3


@pytest.mark.parametrize("events, expected", [
    ([start("Ann"), build("Ann", "Casa", "wood"), vp("Ann", 1, "Casa: permanent effect")], (4, "UCH-EFFECT")),  # not built yet
    (CASA + [vp("Bob", 1, "Casa: Benefit of Trade")], (7, "UCH-EFFECT")),  # Ann's building, not Bob's
    ([start("Ann"), vp("Ann", 1, "a Benefit of Trade")], (3, "UCH-EFFECT")),  # Ann has built nothing
])
def test_an_effect_of_a_building_not_built_by_the_player_is_a_violation(events, expected):
    assert violations(play(*events)) == [expected]


def test_an_effect_naming_no_building_is_unverifiable():
    out = play(*CASA, vp("Ann", 1, "a Benefit of Trade"))
    assert violations(out) == []
    assert findings(out, "unverifiable") == [(7, "UCH-EFFECT")]


# -- UCH-THRESHOLD ---------------------------------------------------------------------


def reach(threshold: int) -> list[dict]:
    """Ann reaches ``threshold`` VP at line 3, in turn 1 (Bob holds the Last Turn card by default)."""
    return [start("Ann"), monopoly("wood", "Ann", threshold), end("Ann")]


ENDGAME = {"threshold": 5, "operations_limit": 9}  # a short game, and room for big monopolies


@pytest.mark.parametrize("players, default", [(("A", "B"), 20), (("A", "B", "C"), 18), (("A", "B", "C", "D"), 16), (("A", "B", "C", "D", "E"), 14)])
def test_the_threshold_depends_on_the_player_count(players, default):
    assert play(players=players).state.to_json()["threshold"] == {"vp": default, "reached": False}


def test_the_game_ends_after_the_turn_of_the_last_turn_cards_holder():
    out = play(*reach(5), start("Bob"), end("Bob"), **ENDGAME)
    assert findings(out, "violation") + findings(out, "warning") == []
    assert out.state.to_json()["threshold"] == {"vp": 5, "reached": True, "by": "Ann", "line": 3, "turn": 1, "with_vp": 5}
    won = [e for e in out.events if isinstance(e, GameWon)]
    assert [(e.line, e.winner) for e in won] == [(6, "Ann")]


def test_the_holder_of_the_last_turn_card_may_be_set_up():
    out = play(*reach(5), last_turn_card="Ann", **ENDGAME)
    assert [(e.line, e.winner) for e in out.events if isinstance(e, GameWon)] == [(4, "Ann")]


@pytest.mark.parametrize("events, expected", [
    ([start("Bob"), end("Bob"), start("Ann")], [(7, "UCH-THRESHOLD")]),  # a turn after the end
    ([ev("winner_declared", player="Ann")], [(5, "UCH-THRESHOLD")]),  # before Bob's last turn
])
def test_a_turn_after_the_end_or_a_winner_declared_before_it_is_a_violation(events, expected):
    assert violations(play(*reach(5), *events, **ENDGAME)) == expected


# -- UCH-SCORE -------------------------------------------------------------------------


def test_monopoly_vp_follow_the_monopoly_and_a_correct_claim_passes():
    out = play(start("Ann"), monopoly("wood", "Ann", 2), monopoly("wood", "Bob", 1),
               ev("score_claimed", player="Ann", vp=0), ev("score_claimed", player="Bob", vp=1))
    assert violations(out) == []
    assert (out.state.score("Ann"), out.state.score("Bob")) == (0, 1)


def test_a_wrong_claim_is_a_claim_violation():
    out = play(start("Ann"), monopoly("wood", "Ann", 2), ev("score_claimed", player="Ann", vp=3))
    assert violations(out) == [(4, "CLAIM")]


@pytest.mark.parametrize("events, line", [
    ([start("Ann"), monopoly("wood", "Ann", 2), vp("Ann", 2, "wood monopoly")], 4),
    ([start("Ann"), monopoly("wood", None, 2)], 3),
])
def test_hand_counted_or_holderless_monopoly_vp_are_a_violation(events, line):
    assert violations(play(*events)) == [(line, "UCH-SCORE")]


# -- UCH-WINNER ------------------------------------------------------------------------


def ended(*last_turn: dict) -> list[dict]:
    """Ann reaches 5 VP in turn 1 (lines 2-4); Bob's turn 2 (with ``last_turn``) ends the game."""
    return reach(5) + [start("Bob"), *last_turn, end("Bob")]


def winner(out) -> tuple[str | None, str]:
    (won,) = [e for e in out.events if isinstance(e, GameWon)]
    return won.winner, won.reason


def test_the_most_vp_win_even_if_the_threshold_reacher_fell_back():
    out = play(*ended(monopoly("wood", "Bob", 4)), ev("winner_declared", player="Bob"), **ENDGAME)
    assert violations(out) == []
    assert (winner(out)[0], out.state.score("Ann"), out.state.score("Bob")) == ("Bob", 0, 4)


def test_declaring_another_winner_is_a_violation():
    out = play(*ended(), ev("winner_declared", player="Bob"), **ENDGAME)
    assert violations(out) == [(7, "UCH-WINNER")]


def test_a_tie_goes_to_the_most_buildings_and_otherwise_names_no_winner():
    # Ann scores 5 VP of the wood monopoly; Bob completes Domus (1 VP) and scores 4 of the clay monopoly.
    out = play(start("Ann"), monopoly("wood", "Ann", 5), build("Bob", "Domus", "clay"), end("Ann"),
               start("Bob"), move("Bob", "Domus", "clay"), monopoly("clay", "Bob", 4), end("Bob"), **ENDGAME)
    assert violations(out) == []
    assert winner(out) == ("Bob", "tie on 5 VP broken by buildings built: Ann 0, Bob 1; Ann reached the 5 VP threshold "
                                  "at line 3 and the game ended after the turn of Bob, holder of the Last Turn card")
    out = play(*ended(monopoly("clay", "Bob", 5)), ev("winner_declared", player=None), **ENDGAME)
    assert violations(out) == []
    assert winner(out) == (None, "tie on 5 VP and on buildings built (Ann 0, Bob 0); the rules name no winner; Ann reached "
                                 "the 5 VP threshold at line 3 and the game ended after the turn of Bob, holder of the Last Turn card")


# -- UCH-TURN (not in the seeds), corrections, the header -----------------------------


def test_an_action_outside_a_turn_is_a_violation_and_copying_an_order_is_not():
    out = play(build("Ann", "Casa", "wood"), start("Ann"), build("Bob", "Villa", "wood"), end("Ann"), ev("forum_card_added", color="clay"))
    assert violations(out) == [(2, "UCH-TURN"), (6, "UCH-TURN")]


def test_voiding_the_completing_resource_undoes_the_completion():
    out = play(*CASA, monopoly("wood", "Ann", 1), ev("correction", voids=6, reason="misread"))
    ann = out.state.to_json()["players"]["Ann"]
    assert (ann["vp"], ann["built"], ann["under_construction"], ann["operations_limit"]) == (1, [], {"Casa": 0}, 2)


@pytest.mark.parametrize("setup, message", [
    ({"last_turn_card": "Zed"}, "the Last Turn card's holder 'Zed' is not a player"),
    ({"forum": ["iron"]}, "'iron' may not stand in `setup.forum[0]` (its values: wood, clay, brick, stone or marble)"),
])
def test_a_bad_setup_is_an_input_error(setup, message):
    header = {"type": "game", "game": "uchronia", "id": "t", "players": ["Ann", "Bob"], "setup": setup}
    (error,) = run(json.dumps(header).encode()).errors
    assert message in str(error)


def test_six_players_need_a_threshold_in_the_setup():
    header = {"type": "game", "game": "uchronia", "id": "t", "players": list("ABCDEF")}
    (error,) = run(json.dumps(header).encode()).errors
    assert "no default threshold for 6 players" in str(error)
    header["setup"] = {"threshold": 12}
    assert run(json.dumps(header).encode()).errors == []
