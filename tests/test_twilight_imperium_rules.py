"""Twilight Imperium 4 rules: a legal and an illegal case for each rule, as small logs run in memory."""

from __future__ import annotations

import json

import pytest

from domain.replay import run
from domain.twilight_imperium import reference
from domain.twilight_imperium.events import Replenished

FACTIONS = {"Ann": "The Emirates of Hacan", "Bob": "Federation of Sol", "Cy": "Arborec"}


def log(*events: dict, **setup) -> bytes:
    """A 3-player log (Ann: Hacan 6 commodities, Bob: Sol 4, Cy: Arborec 3); the header is line 1."""
    header = {"type": "game", "game": "twilight-imperium-4", "id": "t", "players": ["Ann", "Bob", "Cy"],
              "setup": {"factions": FACTIONS, **setup}}
    return "\n".join(json.dumps(e) for e in (header, *events)).encode() + b"\n"


def E(type_: str, **fields) -> dict:
    return {"type": type_, **fields}


def violations(*events: dict, **setup) -> list[tuple[int, str]]:
    """(line, rule) of every violation finding, in order."""
    outcome = run(log(*events, **setup))
    assert outcome.errors == []
    return [(e.line, e.rule) for e in outcome.events
            if type(e).__name__ == "FindingRaised" and e.severity == "violation"]


def final(*events: dict, **setup):
    outcome = run(log(*events, **setup))
    assert outcome.errors == []
    return outcome.state


def last(events: tuple) -> int:
    """The line number of the last of ``events``."""
    return len(events) + 1


# Round 1, action phase: Ann holds Trade (5), Bob Leadership (1), Cy Imperial (8); Bob's turn is over.
ACTION = (
    E("round_started", round=1), E("phase_started", phase="strategy"),
    E("strategy_card_picked", player="Ann", card="Trade", initiative=5),
    E("strategy_card_picked", player="Bob", card="Leadership", initiative=1),
    E("strategy_card_picked", player="Cy", card="Imperial", initiative=8),
    E("phase_started", phase="action"),
    E("turn_started", player="Bob"), E("turn_ended", player="Bob"),
)
ANN_TURN = ACTION + (E("turn_started", player="Ann"),)
SETUP = (
    E("objective_revealed", objective="Corner the Market", stage=1),
    E("objective_revealed", objective="Negotiate Trade Routes", stage=1),
    E("secret_objective_drawn", player="Ann", objective="Become the Gatekeeper"),
    E("secret_objective_drawn", player="Bob", objective="Control the Region"),
)
STATUS = SETUP + (E("round_started", round=1), E("phase_started", phase="status"))


def score(player: str, objective: str, kind: str = "public", points: int = 1, **extra) -> dict:
    return E("objective_scored", player=player, objective=objective, kind=kind, points=points, **extra)


# -- TI4-TURN ---------------------------------------------------------------------------


def test_turns_follow_initiative_order():
    assert violations(*ANN_TURN, E("turn_ended", player="Ann"), E("turn_started", player="Cy")) == []
    events = ACTION + (E("turn_started", player="Cy"),)
    assert violations(*events) == [(last(events), "TI4-TURN")]


def test_a_player_who_passed_is_skipped():
    events = ANN_TURN + (E("player_passed", player="Ann"), E("turn_started", player="Cy"),
                         E("turn_ended", player="Cy"), E("turn_started", player="Bob"))
    assert violations(*events) == []
    events = events + (E("turn_ended", player="Bob"), E("turn_started", player="Ann"))
    assert violations(*events) == [(last(events), "TI4-TURN")]


def test_speaker_and_initiative_order_are_known():
    state = final(*ACTION, E("speaker_changed", player="Cy"))
    assert state.to_json()["initiative_order"] == ["Bob", "Ann", "Cy"]
    assert state.to_json()["speaker"] == "Cy" and state.to_json()["phase"] == "action" and state.round == 1


# -- Trade (LRR 90) ---------------------------------------------------------------------


def test_trade_primary_gives_3_trade_goods_then_replenishes():
    state = final(*ANN_TURN, E("trade_primary", player="Ann", chosen=[]))
    ann = state.to_json()["players"]["Ann"]
    assert (ann["trade_goods"], ann["commodities"]) == (3, 6)


def test_trade_primary_needs_the_trade_card():
    events = ACTION[:-1] + (E("trade_primary", player="Bob", chosen=[]),)
    assert violations(*events) == [(last(events), "LRR 90.1–90.4")]


def test_trade_primary_replenish_never_goes_above_the_value():
    ok = ANN_TURN + (E("trade_primary", player="Ann", chosen=[], replenished=6),)
    assert violations(*ok) == []
    events = ANN_TURN + (E("trade_primary", player="Ann", chosen=[], replenished=7),)
    assert violations(*events) == [(last(events), "LRR 90.1–90.4")]
    assert final(*events).by_player["Ann"].commodities == 6


def test_chosen_players_use_the_secondary_free_once():
    primary = ANN_TURN + (E("trade_primary", player="Ann", chosen=["Bob"]),)
    state = final(*primary, E("trade_secondary", player="Bob", free=True))
    assert (state.by_player["Bob"].commodities, state.by_player["Bob"].tokens["strategy"]) == (4, 2)
    events = primary + (E("trade_secondary", player="Cy", free=True),)
    assert violations(*events) == [(last(events), "LRR 90.5")]
    events = primary + (E("trade_secondary", player="Bob", free=True), E("trade_secondary", player="Bob"))
    assert violations(*events) == [(last(events), "LRR 90.5")]


def test_other_players_pay_a_strategy_token_clockwise_after_the_primary():
    primary = ANN_TURN + (E("trade_primary", player="Ann", chosen=[]),)
    state = final(*primary, E("trade_secondary", player="Bob"), E("trade_secondary", player="Cy"))
    assert (state.by_player["Cy"].commodities, state.by_player["Cy"].tokens["strategy"]) == (3, 1)
    events = primary + (E("trade_secondary", player="Cy"), E("trade_secondary", player="Bob"))
    assert violations(*events) == [(last(events), "LRR 90.6")]
    events = ANN_TURN + (E("trade_secondary", player="Cy"),)
    assert violations(*events) == [(last(events), "LRR 90.6")]


def test_replenishing_at_the_maximum_gives_nothing_but_is_a_replenish():
    at_max = ANN_TURN + (E("trade_primary", player="Ann", chosen=[]),
                         E("trade_secondary", player="Cy", replenished=0))
    outcome = run(log(*at_max, commodities={"Cy": 0}))
    assert [e for e in outcome.events if type(e).__name__ == "FindingRaised"] == []
    replenish = [e for e in outcome.events if isinstance(e, Replenished) and e.player == "Cy"]
    assert [(e.gained, e.rule) for e in replenish] == [(0, "LRR 90 comment 1")]
    assert outcome.state.by_player["Cy"].tokens["strategy"] == 1
    events = ANN_TURN + (E("trade_primary", player="Ann", chosen=[]), E("trade_secondary", player="Cy", replenished=2))
    assert violations(*events, commodities={"Cy": 0}) == [(last(events), "LRR 90 comment 1")]


def test_a_correction_undoes_the_trade_primary():
    events = ANN_TURN + (E("trade_primary", player="Ann", chosen=[]), E("correction", voids=last(ANN_TURN) + 1, reason="misread"))
    ann = final(*events).by_player["Ann"]
    assert (ann.trade_goods, ann.commodities) == (0, 0)


# -- TI4-PAY ----------------------------------------------------------------------------


def test_spending_trade_goods_within_what_is_held():
    gained = (E("trade_goods_gained", player="Ann", amount=3, reason="action card"),)
    assert violations(*gained, E("trade_goods_spent", player="Ann", amount=3, reason="production")) == []
    events = gained + (E("trade_goods_spent", player="Ann", amount=4, reason="production"),)
    assert violations(*events) == [(last(events), "TI4-PAY")]


def test_giving_commodities_turns_them_into_the_receivers_trade_goods():
    primary = ANN_TURN + (E("trade_primary", player="Ann", chosen=[]),)
    state = final(*primary, E("commodities_given", player="Ann", to="Cy", amount=6))
    assert (state.by_player["Ann"].commodities, state.by_player["Cy"].trade_goods) == (0, 6)
    events = primary + (E("commodities_given", player="Ann", to="Cy", amount=7),)
    assert violations(*events) == [(last(events), "TI4-PAY")]


def test_a_command_token_must_be_held():
    two = (E("command_token_spent", player="Bob", pool="strategy", reason="secondary"),) * 2
    assert violations(*two) == []
    events = two + (E("command_token_spent", player="Bob", pool="strategy", reason="secondary"),)
    assert violations(*events) == [(last(events), "TI4-PAY")]
    regained = two + (E("command_tokens_gained", player="Bob", pool="strategy", amount=1, reason="status phase"),
                      E("command_token_spent", player="Bob", pool="strategy", reason="again"))
    assert violations(*regained) == []


# -- Objectives (LRR 34) ----------------------------------------------------------------


def test_a_score_matches_its_card():
    assert violations(*STATUS, score("Ann", "Corner the Market")) == []
    events = STATUS + (score("Ann", "Corner the Market", points=2),)
    assert violations(*events) == [(last(events), "LRR 34.2–34.4")]
    events = STATUS + (E("secret_objective_drawn", player="Cy", objective="Destroy Their Greatest Ship"),
                       score("Cy", "Destroy Their Greatest Ship", "secret"))
    assert violations(*events) == [(last(events), "LRR 34.2–34.4")]


def test_an_unknown_objective_is_taken_as_logged_and_unverifiable():
    outcome = run(log(*STATUS, E("secret_objective_drawn", player="Cy", objective="Homebrew Glory"),
                      score("Cy", "Homebrew Glory", "secret", points=2)))
    findings = [(e.rule, e.severity) for e in outcome.events if type(e).__name__ == "FindingRaised"]
    assert findings == [("LRR 34.2–34.4", "unverifiable")]
    assert outcome.state.score("Cy") == 2


def test_one_public_and_one_secret_per_status_phase():
    both = STATUS + (score("Ann", "Corner the Market"), score("Ann", "Become the Gatekeeper", "secret"))
    assert violations(*both) == []
    events = STATUS + (E("trade_goods_gained", player="Ann", amount=5, reason="x"),
                       E("trade_goods_spent", player="Ann", amount=5, reason="Negotiate Trade Routes"),
                       score("Ann", "Corner the Market"), score("Ann", "Negotiate Trade Routes"))
    assert violations(*events) == [(last(events), "LRR 34.6")]


def test_one_objective_per_combat():
    combat = ANN_TURN + (E("secret_objective_drawn", player="Ann", objective="Destroy Their Greatest Ship"),
                         E("secret_objective_drawn", player="Ann", objective="Spark a Rebellion"),
                         E("combat_started", kind="space"), E("combat_ended", kind="space"),
                         score("Ann", "Destroy Their Greatest Ship", "secret"))
    assert violations(*combat) == []
    events = combat + (score("Ann", "Spark a Rebellion", "secret"),)
    assert violations(*events) == [(last(events), "LRR 34.7")]
    ground = combat + (E("combat_started", kind="ground"), score("Ann", "Spark a Rebellion", "secret"))
    assert violations(*ground) == []


def test_a_public_objective_in_the_action_phase_only_on_ones_own_turn():
    setup = SETUP + ANN_TURN
    assert violations(*setup, score("Ann", "Corner the Market")) == []
    events = setup + (score("Cy", "Corner the Market"),)
    assert violations(*events) == [(last(events), "LRR 34.7")]


def test_each_objective_once_per_game():
    once = STATUS + (score("Ann", "Corner the Market"), E("objective_revealed", objective="Expand Borders", stage=1))
    assert violations(*once) == []
    events = once + (E("phase_started", phase="agenda"), E("round_started", round=2), E("phase_started", phase="status"),
                     score("Ann", "Corner the Market"))
    assert violations(*events) == [(last(events), "LRR 34.8")]
    assert final(*events).score("Ann") == 2  # applied as recorded


def test_objectives_that_spend_are_paid_when_scored():
    paid = STATUS + (E("trade_goods_gained", player="Ann", amount=5, reason="x"),
                     E("trade_goods_spent", player="Ann", amount=5, reason="Negotiate Trade Routes"),
                     score("Ann", "Negotiate Trade Routes"))
    assert violations(*paid) == []
    events = STATUS + (score("Ann", "Negotiate Trade Routes"),)
    assert violations(*events) == [(last(events), "LRR 34.10")]


def test_public_objectives_must_be_revealed():
    events = STATUS + (score("Ann", "Expand Borders"),)
    assert violations(*events) == [(last(events), "LRR 34.12")]


def test_reveals_five_and_five_in_order():
    reveal = STATUS + (E("objective_revealed", objective="Expand Borders", stage=1),)
    assert violations(*reveal) == []
    events = STATUS + (E("objective_revealed", objective="Conquer the Weak", stage=2),)
    assert violations(*events) == [(last(events), "LRR 34.13–34.14")]
    events = reveal + (E("objective_revealed", objective="Diversify Research", stage=1),)
    assert violations(*events) == [(last(events), "LRR 34.13–34.14")]
    events = STATUS + (E("round_started", round=2), E("phase_started", phase="strategy"))
    assert violations(*events) == [(last(events), "LRR 34.13–34.14")]


def test_reveal_with_none_left_ends_the_game():
    stage_1 = ["Corner the Market", "Expand Borders", "Diversify Research", "Erect a Monument", "Negotiate Trade Routes"]
    stage_2 = ["Conquer the Weak", "Subdue the Galaxy", "Revolutionize Warfare", "Master the Sciences", "Found a Golden Age"]
    events = [E("objective_revealed", objective=stage_1[0], stage=1), E("objective_revealed", objective=stage_1[1], stage=1)]
    for n, (name, stage) in enumerate([(o, 1) for o in stage_1[2:]] + [(o, 2) for o in stage_2] + [("Anything", 2)], start=1):
        events += [E("round_started", round=n), E("phase_started", phase="strategy"),
                   E("strategy_card_picked", player="Cy", card="Leadership", initiative=1),
                   E("phase_started", phase="status"), E("objective_revealed", objective=name, stage=stage)]
    state = final(*events)
    assert (state.ended.rule, state.ended.winner) == ("LRR 34.15", "Cy")  # 0 VP each: Cy is first in initiative
    more = events + [E("vp_gained", player="Ann", points=1, source="late")]
    assert violations(*more) == [(last(more), "LRR 34.15")]


def test_home_system_control_for_public_objectives():
    lost = STATUS + (E("home_system_control", player="Ann", controls_all=False),)
    events = lost + (score("Ann", "Corner the Market"),)
    assert violations(*events) == [(last(events), "LRR 34.16")]
    assert violations(*lost, E("home_system_control", player="Ann", controls_all=True), score("Ann", "Corner the Market")) == []


def test_only_held_secrets_are_scored():
    assert violations(*STATUS, score("Bob", "Control the Region", "secret")) == []
    events = STATUS + (score("Bob", "Become the Gatekeeper", "secret"),)
    assert violations(*events) == [(last(events), "LRR 34.19")]


def test_at_most_three_secret_objectives():
    three = STATUS + (E("secret_objective_drawn", player="Ann", objective="Forge an Alliance"),
                      E("secret_objective_drawn", player="Ann", objective="Mine Rare Metals"))
    fourth = three + (E("secret_objective_drawn", player="Ann", objective="Monopolize Production"),)
    assert violations(*fourth, E("secret_objective_returned", player="Ann", objective="Mine Rare Metals")) == []
    events = fourth + (E("trade_goods_gained", player="Bob", amount=1, reason="action card"),)
    assert violations(*events) == [(last(events), "LRR 34.20–34.21")]
    events = SETUP + (E("secret_objective_drawn", player="Ann", objective="Forge an Alliance"),)
    assert violations(*events) == [(last(events), "LRR 34.20–34.21")]


# -- TI4-VP-GOAL ------------------------------------------------------------------------


def test_reaching_the_goal_ends_the_game():
    win = (E("vp_gained", player="Bob", points=3, source="agendas"),)
    state = final(*win, vp_goal=3)
    assert (state.ended.winner, state.ended.rule) == ("Bob", "TI4-VP-GOAL")
    assert violations(*win, vp_goal=3) == []
    events = win + (E("vp_gained", player="Ann", points=1, source="late"),)
    assert violations(*events, vp_goal=3) == [(last(events), "TI4-VP-GOAL")]


# -- Factions and reference data --------------------------------------------------------


@pytest.mark.parametrize("name", ["The Emirates of Hacan", "Emirates of Hacan", "Hacan", "hacan", "emirates of HACAN"])
def test_faction_names_match_in_any_form(name):
    state = final(**{"factions": {**FACTIONS, "Ann": name}})
    assert state.by_player["Ann"].commodity_value == 6


def test_setup_commodities_win_over_the_faction():
    assert final(commodities={"Ann": 2}).by_player["Ann"].commodity_value == 2
    assert final(factions={**FACTIONS, "Ann": "House Homebrew"}, commodities={"Ann": 5}).by_player["Ann"].commodity_value == 5


def test_an_unknown_faction_without_a_value_is_an_input_error():
    outcome = run(log(factions={**FACTIONS, "Ann": "House Homebrew"}))
    assert [(e.line, e.path) for e in outcome.errors] == [(1, "$.setup.factions.Ann")]
    assert "House Homebrew" in outcome.errors[0].message


def test_reference_data_by_hand():
    assert (reference.objective("Corner the Market").points, reference.objective("Corner the Market").stage) == (1, 1)
    assert reference.objective("Centralize Galactic Trade").points == 2
    assert reference.objective("Destroy Their Greatest Ship").phase == "action"
    assert reference.objective("Drive the Debate").phase == "agenda"
    assert reference.objective("Negotiate Trade Routes").trade_goods_cost == 5
    assert reference.faction("Letnev") == ("The Barony of Letnev", 2)
    assert reference.strategy_cards()["trade"] == reference.TRADE_INITIATIVE == 5
    assert sum(1 for o in set(reference.objectives().values()) if o.kind == "public") == 40
    assert sum(1 for o in set(reference.objectives().values()) if o.kind == "secret") == 40


def test_replay_json_fields():
    state = final(*STATUS, score("Ann", "Corner the Market"))
    out = state.to_json()
    ann = out["players"]["Ann"]
    assert set(ann) >= {"faction", "vp", "trade_goods", "commodities", "strategy_tokens", "scored", "secret_objectives_held"}
    assert ann["scored"] == ["Corner the Market"] and ann["secret_objectives_held"] == ["Become the Gatekeeper"]
    assert [o["objective"] for o in out["revealed_objectives"]] == ["Corner the Market", "Negotiate Trade Routes"]
    assert state.score("Ann") == 1
