"""Twilight Imperium 4 rules: a legal and an illegal case for each rule, as small logs run in memory."""

from __future__ import annotations

import json

import pytest

from gamelog.domain.replay import run
from gamelog.domain.twilight_imperium import reference
from gamelog.domain.twilight_imperium.events import Replenished

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


def findings(*events: dict, **setup) -> list[tuple[int, str, str, str]]:
    """(line, rule, severity, message) of every finding, in order."""
    outcome = run(log(*events, **setup))
    assert outcome.errors == []
    return [(e.line, e.rule, e.severity, e.message) for e in outcome.events if type(e).__name__ == "FindingRaised"]


def vp_changes(*events: dict) -> list[tuple[int, str, int, str]]:
    """(line, player, delta, rule) of every VP change."""
    return [(e.line, e.player, e.delta, e.rule) for e in run(log(*events)).events if type(e).__name__ == "VpChanged"]


def test_a_score_matches_its_card():
    assert violations(*STATUS, score("Ann", "Corner the Market")) == []
    events = STATUS + (score("Ann", "Corner the Market", points=2),)
    assert violations(*events) == [(last(events), "LRR 34.2–34.4")]
    events = STATUS + (score("Ann", "Become the Gatekeeper", "public"),)
    assert (last(events), "LRR 34.2–34.4") in violations(*events)


def test_points_are_the_cards_whatever_the_log_says():
    # Corner the Market (stage I) is worth 1 VP: logged as 2, the VP track still moves by 1 (LRR 34.12).
    events = STATUS + (score("Ann", "Corner the Market", points=2),)
    assert findings(*events) == [(last(events), "LRR 34.2–34.4", "violation", "Corner the Market is worth 1 VP, not 2; the VP track counts 1")]
    assert vp_changes(*events) == [(last(events), "Ann", 1, "LRR 34.12")]
    # A correct claim of the card's total is not a CLAIM; the log's total is.
    assert violations(*events, E("score_claimed", player="Ann", vp=1)) == [(last(events), "LRR 34.2–34.4")]
    claimed = events + (E("score_claimed", player="Ann", vp=2),)
    assert violations(*claimed) == [(last(events), "LRR 34.2–34.4"), (last(claimed), "CLAIM")]
    # A secret objective is worth 1 VP (LRR 34.18): logged as 2, 1 VP.
    secret = STATUS + (score("Ann", "Become the Gatekeeper", "secret", points=2),)
    assert violations(*secret) == [(last(secret), "LRR 34.2–34.4")]
    assert vp_changes(*secret) == [(last(secret), "Ann", 1, "LRR 34.18")]
    # A stage II objective is worth 2 VP: logged as 1, 2 VP.
    stage_2 = STATUS + (E("objective_made_public", objective="Conquer the Weak", reason="test"),
                        score("Ann", "Conquer the Weak", points=1))
    assert violations(*stage_2) == [(last(stage_2), "LRR 34.2–34.4")]
    assert final(*stage_2).score("Ann") == 2
    assert violations(*stage_2[:-1], score("Ann", "Conquer the Weak", points=2)) == []


def test_an_objective_is_scored_in_the_phase_its_card_names():
    # Destroy Their Greatest Ship is an action-phase secret: in the status phase it is out of time (LRR 34.5).
    events = STATUS + (E("secret_objective_drawn", player="Cy", objective="Destroy Their Greatest Ship"),
                       score("Cy", "Destroy Their Greatest Ship", "secret"))
    assert findings(*events) == [(last(events), "LRR 34.5", "violation",
                                  "Destroy Their Greatest Ship is scored in the action phase, not the status phase")]
    assert final(*events).score("Cy") == 1  # applied as recorded
    ok = ANN_TURN + (E("secret_objective_drawn", player="Ann", objective="Destroy Their Greatest Ship"),
                     score("Ann", "Destroy Their Greatest Ship", "secret"))
    assert violations(*ok) == []


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


CY_TURN = SETUP + ANN_TURN + (E("turn_ended", player="Ann"), E("turn_started", player="Cy"))
"""Round 1's action phase, Cy's turn: Cy holds Imperial (initiative 8)."""
IMPERIAL = CY_TURN + (E("strategic_action", player="Cy", card="Imperial"),)


def test_the_imperial_primary_scores_one_public_objective_in_the_action_phase():
    events = IMPERIAL + (score("Cy", "Corner the Market"),)
    assert findings(*events) == []
    assert final(*events).score("Cy") == 1
    # A second public objective on the same Imperial action: LRR 34.5, applied as recorded.
    events += (score("Cy", "Negotiate Trade Routes"),)
    (found,) = [f for f in findings(*events) if f[1] == "LRR 34.5"]
    assert found[0] == last(events) and found[2] == "violation"
    assert found[3].endswith("which scores one public objective; Cy already scored one on the Imperial action of line "
                             f"{last(IMPERIAL)}")


def test_a_status_phase_public_objective_in_the_action_phase_is_not_imperial_unless_it_is():
    why = "Corner the Market is scored in the status phase; in the action phase only by the Imperial primary (not in the seeds)"
    # Ann holds Trade, not Imperial, and scores on her own turn.
    events = SETUP + ANN_TURN + (score("Ann", "Corner the Market"),)
    assert findings(*events) == [(last(events), "LRR 34.5", "violation", f"{why}, and Ann does not hold Imperial this round")]
    assert final(*events).score("Ann") == 1  # the table did it
    # Cy holds Imperial but it is Ann's turn.
    events = SETUP + ANN_TURN + (score("Cy", "Corner the Market"),)
    assert findings(*events) == [(last(events), "LRR 34.5", "violation",
                                  f"{why}, on its holder's own strategic action; it is Ann's turn, not Cy's")]
    # Cy's own turn, but no strategic action of Imperial in it.
    events = CY_TURN + (score("Cy", "Corner the Market"),)
    assert findings(*events) == [(last(events), "LRR 34.5", "violation",
                                  f"{why}, and no strategic action of Imperial is recorded in Cy's turn")]
    # After his Imperial turn ended, the next turn is no Imperial action.
    events = IMPERIAL + (E("turn_ended", player="Cy"), E("turn_started", player="Bob"), score("Cy", "Corner the Market"))
    assert [f[:2] for f in findings(*events)] == [(last(events), "LRR 34.5")]


def test_voiding_the_imperial_action_makes_its_score_out_of_time():
    events = IMPERIAL + (score("Cy", "Corner the Market"),)
    events += (E("correction", voids=last(IMPERIAL), reason="it was a tactical action"),)
    (found,) = [f for f in findings(*events) if f[1] == "LRR 34.5"]
    assert found[0] == last(events)
    assert found[3].startswith(f"line {last(IMPERIAL) + 1}, decided again without line {last(IMPERIAL)}: Corner the Market")
    assert found[3].endswith("no strategic action of Imperial is recorded in Cy's turn")
    assert final(*events).score("Cy") == 1  # the score stands, out of time


def test_a_strategic_action_uses_a_card_held_once_a_round():
    assert violations(*IMPERIAL) == []
    events = ANN_TURN + (E("strategic_action", player="Ann", card="Imperial"),)
    assert violations(*events) == [(last(events), "TI4-TURN")]
    events = IMPERIAL + (E("turn_ended", player="Cy"), E("turn_started", player="Bob"), E("turn_ended", player="Bob"),
                         E("turn_started", player="Ann"), E("turn_ended", player="Ann"), E("turn_started", player="Cy"),
                         E("strategic_action", player="Cy", card="Imperial"))
    assert findings(*events)[-1] == (last(events), "TI4-TURN", "violation",
                                     f"Imperial's primary was already used this round, at line {last(IMPERIAL)}; the card is exhausted")


def test_the_audit_says_the_imperial_reading_is_not_in_the_seeds(tmp_path):
    from click.testing import CliRunner
    from gamelog.cli.main import main

    path = tmp_path / "imperial.jsonl"
    path.write_bytes(log(*SETUP, *ANN_TURN, score("Ann", "Corner the Market")))
    result = CliRunner().invoke(main, ["audit", str(path), "--format", "json"])
    (found,) = json.loads(result.stdout)["findings"]
    assert (found["line"], found["rule"], found["in_seeds"]) == (len(SETUP + ANN_TURN) + 2, "LRR 34.5", False)
    assert "(not in the seeds)" in found["message"]
    reading = ("the Imperial strategy card's primary ability lets its holder score one public objective in the "
               "action phase, on their strategic action")
    assert found["rule_text"].endswith(f"in the agenda phase. {reading[:1].upper()}{reading[1:]}.")
    assert found["rule_from"] == f"the rulebook, and gamelog's reading where its pages are silent: {reading}"
    text = " ".join(CliRunner().invoke(main, ["audit", str(path)]).stdout.split())  # as read, whatever the wrapping
    assert f"from: the rulebook, and gamelog's reading where its pages are silent: {reading}" in text


def test_a_secret_objective_in_the_action_phase_by_a_player_who_is_not_active():
    # LRR 34 comment 8: Bob scores an action-phase secret during Ann's turn.
    drawn = ANN_TURN + (E("secret_objective_drawn", player="Bob", objective="Destroy Their Greatest Ship"),)
    events = drawn + (score("Bob", "Destroy Their Greatest Ship", "secret"),)
    assert findings(*events) == []
    assert final(*events).score("Bob") == 1
    # A status-phase secret is not scored in the action phase, whoever is active (LRR 34.5).
    events = SETUP + ANN_TURN + (score("Bob", "Control the Region", "secret"),)
    assert findings(*events) == [(last(events), "LRR 34.5", "violation", "Control the Region is scored in the status phase, not the action phase")]


def test_each_objective_once_per_game():
    once = STATUS + (score("Ann", "Corner the Market"), E("objective_revealed", objective="Expand Borders", stage=1))
    assert violations(*once) == []
    assert violations(*once, score("Bob", "Corner the Market")) == []  # another player scores it too
    events = once + (E("phase_started", phase="agenda"), E("round_started", round=2), E("phase_started", phase="status"),
                     score("Ann", "Corner the Market"))
    assert findings(*events) == [(last(events), "LRR 34.8", "violation",
                                  "Ann has already scored Corner the Market; a second score gives no VP")]
    assert final(*events).score("Ann") == 1  # the second score gives no VP
    assert vp_changes(*events) == [(len(STATUS) + 2, "Ann", 1, "LRR 34.12")]
    # The claim of the VP track's total is right.
    assert violations(*events, E("score_claimed", player="Ann", vp=1)) == [(last(events), "LRR 34.8")]


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
    # A note is a remark, not play: the return after it is still at once.
    assert violations(*fourth, E("note", text="Ann thinks"), E("score_claimed", player="Ann", vp=0),
                      E("secret_objective_returned", player="Ann", objective="Mine Rare Metals")) == []
    assert final(*fourth, E("secret_objective_returned", player="Ann", objective="Mine Rare Metals")).by_player["Ann"].secrets == [
        "Become the Gatekeeper", "Forge an Alliance", "Monopolize Production"]
    events = fourth + (E("trade_goods_gained", player="Bob", amount=1, reason="action card"),)
    assert violations(*events) == [(last(events), "LRR 34.20–34.21")]
    events = SETUP + (E("secret_objective_drawn", player="Ann", objective="Forge an Alliance"),)
    assert violations(*events) == [(last(events), "LRR 34.20–34.21")]


@pytest.mark.parametrize("after", [E("turn_started", player="Bob"), E("turn_ended", player="Bob"),
                                   E("phase_started", phase="agenda")], ids=lambda e: e["type"])
def test_a_fourth_secret_kept_is_a_violation_whatever_the_next_line_is(after):
    fourth = STATUS + (E("secret_objective_drawn", player="Ann", objective="Forge an Alliance"),
                       E("secret_objective_drawn", player="Ann", objective="Mine Rare Metals"),
                       E("secret_objective_drawn", player="Ann", objective="Monopolize Production"))
    # A note and a score claim are not play: the line after them is the one that must return a secret.
    events = fourth + (E("note", text="no return"), E("score_claimed", player="Ann", vp=0), after)
    assert [f for f in findings(*events) if f[1] == "LRR 34.20–34.21"] == [
        (last(events), "LRR 34.20–34.21", "violation", "Ann holds 4 secret objectives (3 at most) and returned none after drawing")]


def test_a_fourth_secret_kept_at_a_turns_end_is_a_violation():
    drawn = ANN_TURN + (E("secret_objective_drawn", player="Ann", objective="Forge an Alliance"),
                        E("secret_objective_drawn", player="Ann", objective="Mine Rare Metals"),
                        E("secret_objective_drawn", player="Ann", objective="Monopolize Production"),
                        E("secret_objective_drawn", player="Ann", objective="Control the Region"))
    events = drawn + (E("turn_ended", player="Ann"),)
    assert [f[:2] for f in findings(*events)] == [(last(events), "LRR 34.20–34.21")]
    assert violations(*drawn, E("secret_objective_returned", player="Ann", objective="Forge an Alliance"),
                      E("turn_ended", player="Ann")) == []


def test_comment_9_three_scored_secrets_and_a_fourth_returned_at_once():
    scored = ANN_TURN
    for name in ("Destroy Their Greatest Ship", "Prove Endurance", "Brave the Void"):
        scored += (E("secret_objective_drawn", player="Ann", objective=name), score("Ann", name, "secret"))
    fourth = scored + (E("secret_objective_drawn", player="Ann", objective="Darken the Skies"),)
    events = fourth + (E("secret_objective_returned", player="Ann", objective="Darken the Skies"), E("turn_ended", player="Ann"))
    assert findings(*events) == []
    assert final(*events).score("Ann") == 3
    events = fourth + (E("turn_ended", player="Ann"),)
    assert [f[:2] for f in findings(*events)] == [(last(events), "LRR 34.20–34.21")]


def test_a_secret_objective_belongs_to_one_player():
    # Ann holds Become the Gatekeeper (SETUP): Bob draws it too.
    events = STATUS + (E("secret_objective_drawn", player="Bob", objective="Become the Gatekeeper"),)
    assert findings(*events) == [(last(events), "LRR 34.17", "violation",
                                  "Become the Gatekeeper is held by Ann; a secret objective belongs to one player")]
    # Once Ann scored it, it is hers face up: Cy draws it and scores it.
    scored = STATUS + (score("Ann", "Become the Gatekeeper", "secret"),)
    drawn = scored + (E("secret_objective_drawn", player="Cy", objective="Become the Gatekeeper"),)
    events = drawn + (score("Cy", "Become the Gatekeeper", "secret"),)
    assert [f[:2] for f in findings(*events)] == [(last(drawn), "LRR 34.17"), (last(events), "LRR 34.17")]
    assert findings(*events)[-1][3] == "Become the Gatekeeper is Ann's secret objective, scored by them; a secret objective belongs to one player"
    # Different secrets, each held by one player, are legal.
    assert violations(*scored, E("secret_objective_drawn", player="Cy", objective="Forge an Alliance"),
                      score("Cy", "Forge an Alliance", "secret")) == []


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


# -- LRR 34.21 when the log ends right after a fourth secret is drawn ----------------------

FOURTH = STATUS + (E("secret_objective_drawn", player="Ann", objective="Forge an Alliance"),
                   E("secret_objective_drawn", player="Ann", objective="Mine Rare Metals"),
                   E("secret_objective_drawn", player="Ann", objective="Monopolize Production"))
AT_END = ("Ann holds 4 secret objectives (3 at most) when the log ends after their draw of Monopolize Production, "
          "and returned none")


def test_a_log_ending_on_a_fourth_secret_drawn_is_a_violation_at_its_last_line():
    assert [f for f in findings(*FOURTH) if f[1] == "LRR 34.20–34.21"] == [
        (last(FOURTH), "LRR 34.20–34.21", "violation", AT_END)]
    # Remarks after the draw are not play: the finding stands on the log's last line.
    events = FOURTH + (E("note", text="Ann will return one"),)
    assert [f[:2] for f in findings(*events) if f[1] == "LRR 34.20–34.21"] == [(last(events), "LRR 34.20–34.21")]
    # Returned before the log ends: nothing.
    assert violations(*FOURTH, E("secret_objective_returned", player="Ann", objective="Mine Rare Metals")) == []
    # Three held, the log ending on the third draw: nothing to return.
    assert violations(*FOURTH[:-1]) == []


def test_a_fourth_secret_at_the_end_of_a_log_without_secrets_recorded_is_unverifiable():
    header, *lines = log(*FOURTH).splitlines()
    quiet = json.dumps({**json.loads(header), "not_recorded": ["secret_objectives"]}).encode()
    outcome = run(b"\n".join([quiet, *lines]) + b"\n")
    assert [(e.line, e.severity) for e in outcome.events
            if type(e).__name__ == "FindingRaised" and e.rule == "LRR 34.20–34.21"] == [(last(FOURTH), "unverifiable")]


def test_the_what_if_decides_the_end_of_the_log_too():
    from gamelog.domain.replay import without

    events = FOURTH + (E("secret_objective_returned", player="Ann", objective="Mine Rare Metals"),)
    decided = without("twilight-imperium-4", run(log(*events)).events, {last(events)})
    assert [(e.line, e.rule) for e in decided if type(e).__name__ == "FindingRaised"] == [
        (last(FOURTH), "LRR 34.20–34.21")]
