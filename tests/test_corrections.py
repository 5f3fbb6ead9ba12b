"""Corrections: a voided line keeps its place in the log, and the log plays as if it had never been written.

Each case is one a careful player would check by hand: the state after the
correction, the findings the rules now make of the later lines, and those
that no longer arise.
"""

from __future__ import annotations

import pytest

from gamelog.domain.events import FindingMooted, FindingRaised, StateRestated
from gamelog.domain.replay import run
from tests.conftest import log_bytes

HEADER = {"game": "merchant-of-venus", "id": "c", "players": ["Ann", "Bob"], "setup": {"starting_credits": 500}}
PLAY = [
    {"type": "turn_started", "player": "Ann"},                                                        # line 2
    {"type": "landed", "player": "Ann", "venue": "surface_city", "culture": "Shenna"},                # line 3
    {"type": "first_contact", "player": "Ann", "culture": "Shenna", "iou": 90},                       # line 4
    {"type": "goods_bought", "player": "Ann", "good": "Melf Pelts", "culture": "Shenna", "quantity": 2,
     "unit_price": 50, "iou": True},                                                                  # line 5
    "# a comment",                                                                                    # line 6
]


def run_with(*more):
    return run(log_bytes(HEADER, *PLAY, *more))


def findings(result):
    return [(e.line, e.rule, e.severity, e.message) for e in result.events if isinstance(e, FindingRaised)]


def test_voiding_a_purchase_gives_back_credits_iou_and_cargo():
    result = run_with({"type": "correction", "voids": 5, "reason": "misread price"})
    ann = result.state.to_json()["players"]["Ann"]
    assert (ann["credits"], ann["ious"], ann["cargo"]) == (500, {"Shenna": 90}, [])
    assert result.state.voided == {5}
    assert findings(result) == []


def test_voiding_a_first_contact_frees_the_culture_and_the_later_purchase_is_paid_in_credits():
    result = run_with({"type": "correction", "voids": 4, "reason": "it was Bob"}, {"type": "turn_ended", "player": "Ann"},
                      {"type": "turn_started", "player": "Bob"}, {"type": "landed", "player": "Bob", "venue": "surface_city", "culture": "Shenna"},
                      {"type": "first_contact", "player": "Bob", "culture": "Shenna", "iou": 90})
    # Decided again without line 4, Ann's purchase at line 5 has no IOU to pay with: c100 in credits.
    assert findings(result) == [(7, "MOV-IOU", "violation",
                                 "line 5, decided again without line 4: pays with the Shenna IOU, which Ann does not hold")]
    players = result.state.to_json()["players"]
    assert (players["Ann"]["credits"], players["Ann"]["ious"], players["Bob"]["ious"]) == (400, {}, {"Shenna": 90})


@pytest.mark.parametrize(
    "voids, message",
    [
        (1, "the header cannot be voided"),
        (6, "line 6 holds no event"),
        (7, "a correction can only void an earlier line, not line 7"),
        (40, "a correction can only void an earlier line, not line 40"),
    ],
)
def test_a_correction_must_name_an_earlier_event_line(voids, message):
    result = run_with({"type": "correction", "voids": voids, "reason": "x"})
    assert findings(result) == [(7, "LOG-CORRECTION", "violation", message)]


def test_a_line_cannot_be_voided_twice_nor_a_correction_voided():
    result = run_with({"type": "correction", "voids": 5, "reason": "x"}, {"type": "correction", "voids": 5, "reason": "again"},
                      {"type": "correction", "voids": 7, "reason": "undo the undo"})
    assert findings(result) == [(8, "LOG-CORRECTION", "violation", "line 5 is already void"),
                                (9, "LOG-CORRECTION", "violation", "line 7 is itself a correction; corrections cannot be voided")]
    assert result.state.to_json()["players"]["Ann"]["credits"] == 500


def test_voiding_a_turn_end_reopens_the_turn():
    result = run_with({"type": "turn_ended", "player": "Ann"}, {"type": "correction", "voids": 7, "reason": "x"},
                      {"type": "goods_sold", "player": "Ann", "good": "Melf Pelts", "culture": "Shenna", "resale_value": 50})
    # Ann's turn goes on: her sale at line 9 is in it (the reference data's warnings aside).
    assert [f for f in findings(result) if f[2] != "warning"] == []
    state = result.state
    assert (state.turn, state.active, state.turn_over) == (1, "Ann", None)


def test_an_import_voids_a_line_whose_effects_went_to_disk(tmp_path, monkeypatch):
    """The importer keeps effects on disk past a threshold; a correction still finds them."""
    from gamelog.projections.importing import spill as effects
    from gamelog.projections.importing.importer import import_log
    from gamelog.projections.store.application import GameStore
    from gamelog.domain.replay import state_at

    monkeypatch.setattr(effects, "FLUSH", 2)
    log = log_bytes(HEADER, *PLAY, {"type": "turn_ended", "player": "Ann"}, {"type": "turn_started", "player": "Bob"},
                    {"type": "credits_paid", "player": "Bob", "amount": 40, "to": "Ann", "reason": "a debt"},
                    {"type": "correction", "voids": 5, "reason": "misread price"})
    store = GameStore(str(tmp_path / "gamelog.sqlite"))
    import_log(store, log, "log.jsonl")
    stored = state_at("merchant-of-venus", store.history("c")).to_json()["players"]
    assert (stored["Ann"]["credits"], stored["Ann"]["ious"], stored["Bob"]["credits"]) == (540, {"Shenna": 90}, 460)
    assert stored == run(log).state.to_json()["players"]


# --- The cases a careful user found (issue: corrections leave wrong state) --------------------

MOV = {"game": "merchant-of-venus", "id": "m", "players": ["Ann", "Bob"],
       "setup": {"starting_credits": 500}}


def mov(*lines):
    return run(log_bytes(MOV, *lines))


def test_a_voided_landing_no_longer_lets_the_player_trade_there_nor_pays_the_owner():
    result = mov(
        {"type": "turn_started", "player": "Ann"},                                                          # 2
        {"type": "deed_acquired", "player": "Ann", "kind": "merchant_spaceport", "culture": "Volois",
         "value": 200, "price_paid": 200},                                                                   # 3
        {"type": "turn_ended", "player": "Ann"},                                                             # 4
        {"type": "turn_started", "player": "Bob"},                                                           # 5
        {"type": "landed", "player": "Bob", "venue": "merchant_spaceport", "culture": "Volois", "owner": "Ann"},  # 6
        {"type": "goods_bought", "player": "Bob", "good": "Voil Silk", "culture": "Volois", "unit_price": 140},  # 7
        {"type": "correction", "voids": 6, "reason": "Bob never landed there"},                              # 8
    )
    players = result.state.to_json()["players"]
    # Ann: 500 - 200 for the deed, and no c14 commission; Bob paid c140 all the same (the table did it).
    assert (players["Ann"]["credits"], players["Bob"]["credits"]) == (300, 360)
    assert players["Bob"]["location"] is None
    assert [(e.line, e.rule) for e in result.events if isinstance(e, FindingRaised)] == [(8, "MOV-BUY")]
    credits = [(e.player, e.delta, e.rule) for e in result.events if e.line == 8 and type(e).__name__ == "CreditsChanged"]
    assert credits == [("Ann", -14, "LOG-CORRECTION")]


def test_a_voided_purchase_no_longer_counts_as_the_turns_buy_action():
    result = mov(
        {"type": "turn_started", "player": "Ann"},                                                          # 2
        {"type": "landed", "player": "Ann", "venue": "surface_city", "culture": "Shenna"},                  # 3
        {"type": "goods_bought", "player": "Ann", "good": "Melf Pelts", "culture": "Shenna", "unit_price": 50},  # 4
        {"type": "goods_bought", "player": "Ann", "good": "Melf Pelts", "culture": "Shenna", "unit_price": 50},  # 5
        {"type": "correction", "voids": 4, "reason": "bought once"},                                         # 6
    )
    mooted = [(e.line, e.about, e.rule) for e in result.events if isinstance(e, FindingMooted)]
    assert mooted == [(6, 5, "MOV-LIMIT")]  # the second Buy is the first now
    assert result.state.buys == 1
    assert result.state.to_json()["players"]["Ann"]["credits"] == 450


def test_a_voided_movement_skip_no_longer_lifts_the_limit():
    result = mov(
        {"type": "turn_started", "player": "Ann"},                                                          # 2
        {"type": "landed", "player": "Ann", "venue": "surface_city", "culture": "Shenna"},                  # 3
        {"type": "turn_ended", "player": "Ann"},                                                             # 4
        {"type": "turn_started", "player": "Bob"},                                                           # 5
        {"type": "turn_ended", "player": "Bob"},                                                             # 6
        {"type": "turn_started", "player": "Ann"},                                                           # 7
        {"type": "movement_skipped", "player": "Ann"},                                                       # 8
        {"type": "goods_bought", "player": "Ann", "good": "Melf Pelts", "culture": "Shenna", "unit_price": 50},  # 9
        {"type": "goods_bought", "player": "Ann", "good": "Melf Pelts", "culture": "Shenna", "unit_price": 50},  # 10
        {"type": "correction", "voids": 8, "reason": "she moved"},                                           # 11
    )
    found = [(e.line, e.rule, e.message) for e in result.events if isinstance(e, FindingRaised)]
    assert found == [(11, "MOV-LIMIT", "line 10, decided again without line 8: Buy action 2 this turn at a surface city "
                                       "of Shenna on the turn of landing (one allowed)")]
    assert result.state.skipped_movement is False


UCH = {"game": "uchronia", "id": "u", "players": ["Ann", "Bob"], "setup": {"last_turn_card": "Bob", "forum": ["wood", "wood"]}}


def test_voiding_a_monopoly_taken_over_later_leaves_the_later_holder_with_it():
    result = run(log_bytes(
        UCH,
        {"type": "turn_started", "player": "Ann"},                                                          # 2
        {"type": "monopoly_changed", "color": "wood", "player": "Ann", "operations": 2},                    # 3
        {"type": "turn_ended", "player": "Ann"},                                                             # 4
        {"type": "turn_started", "player": "Bob"},                                                           # 5
        {"type": "monopoly_changed", "color": "wood", "player": "Bob", "operations": 3},                    # 6
        {"type": "turn_ended", "player": "Bob"},                                                             # 7
        {"type": "correction", "voids": 3, "reason": "Ann never held it"},                                   # 8
    ))
    state = result.state.to_json()
    assert (state["players"]["Ann"]["vp"], state["players"]["Bob"]["vp"]) == (0, 3)
    assert state["monopolies"]["wood"] == {"player": "Bob", "operations": 3}


def test_voiding_an_earlier_completion_after_a_later_one_lowers_the_operations_limit_by_one():
    result = run(log_bytes(
        UCH,
        {"type": "turn_started", "player": "Ann"},                                                          # 2
        {"type": "construction_started", "player": "Ann", "building": "Casa", "color": "wood"},             # 3
        {"type": "construction_started", "player": "Ann", "building": "Villa", "color": "wood"},            # 4
        {"type": "turn_ended", "player": "Ann"},                                                             # 5
        {"type": "turn_started", "player": "Bob"},                                                           # 6
        {"type": "turn_ended", "player": "Bob"},                                                             # 7
        {"type": "turn_started", "player": "Ann"},                                                           # 8
        {"type": "resource_moved", "player": "Ann", "building": "Casa", "color": "wood"},                   # 9
        {"type": "resource_moved", "player": "Ann", "building": "Villa", "color": "wood"},                  # 10
        {"type": "correction", "voids": 9, "reason": "that resource went to Villa"},                         # 11
    ))
    ann = result.state.to_json()["players"]["Ann"]
    assert (ann["built"], ann["operations_limit"], ann["vp"], ann["under_construction"]) == (["Villa"], 3, 1, {"Casa": 0})


TI = {"game": "twilight-imperium-4", "id": "t", "players": ["Ann", "Bob"],
      "setup": {"factions": {"Ann": "Hacan", "Bob": "Sol"}}}
TI_ROUND = [
    {"type": "round_started", "round": 1},                                                                  # 2
    {"type": "phase_started", "phase": "strategy"},                                                         # 3
    {"type": "strategy_card_picked", "player": "Ann", "card": "Trade", "initiative": 5},                   # 4
    {"type": "strategy_card_picked", "player": "Bob", "card": "Leadership", "initiative": 1},              # 5
    {"type": "phase_started", "phase": "action"},                                                           # 6
    {"type": "turn_started", "player": "Bob"},                                                              # 7
    {"type": "player_passed", "player": "Bob"},                                                             # 8
    {"type": "turn_started", "player": "Ann"},                                                              # 9
]


def ti(*lines):
    return run(log_bytes(TI, *TI_ROUND, *lines))


def test_a_voided_strategy_card_pick_no_longer_lets_the_player_use_trade():
    result = ti({"type": "trade_primary", "player": "Ann", "chosen": ["Bob"]},                             # 10
                {"type": "correction", "voids": 4, "reason": "Ann took Warfare"})                           # 11
    found = [(e.line, e.rule, e.message) for e in result.events if isinstance(e, FindingRaised)]
    assert (11, "LRR 90.1–90.4", "line 10, decided again without line 4: Ann does not hold the Trade strategy card this round") in found
    assert result.state.picks == {"Bob": [("Leadership", 1)]}


def test_a_voided_pass_puts_the_player_back_in_the_turn_order():
    result = ti({"type": "turn_ended", "player": "Ann"},                                                     # 10
                {"type": "correction", "voids": 8, "reason": "Bob did not pass"})                           # 11
    assert result.state.passed == set()
    assert result.state.to_json()["initiative_order"] == ["Bob", "Ann"]


def test_a_voided_phase_start_leaves_the_game_in_the_phase_before():
    result = ti({"type": "correction", "voids": 6, "reason": "still picking"})                              # 10
    assert result.state.to_json()["phase"] == "strategy"


def test_a_correction_after_the_end_breaks_no_rule_and_can_undo_the_end():
    result = mov(
        {"type": "turn_started", "player": "Ann"},                                                          # 2
        {"type": "credits_received", "player": "Ann", "amount": 1600, "from": "bank", "reason": "a fare"},   # 3
        {"type": "turn_ended", "player": "Ann"},                                                             # 4
        {"type": "note", "text": "Ann wins, we think"},                                                      # 5
        {"type": "score_claimed", "player": "Ann", "net_worth": 2100},                                       # 6
        {"type": "correction", "voids": 3, "reason": "the bank paid c160"},                                 # 7
    )
    # No MOV-WIN finding for lines 5 to 7; decided again, the claim at line 6 is c1600 too high.
    assert [(e.line, e.rule, e.message) for e in result.events if isinstance(e, FindingRaised)] == [
        (7, "CLAIM", "line 6, decided again without line 3: Ann's net_worth is claimed as 2100, but the log gives 500")]
    assert result.state.ended is None
    assert [e.ended for e in result.events if isinstance(e, StateRestated)] == [None]


def test_the_audit_shows_which_findings_a_correction_made_moot(tmp_path):
    import json as json_module

    from click.testing import CliRunner

    from gamelog.cli.main import main

    log = tmp_path / "moot.jsonl"
    log.write_bytes(log_bytes(
        MOV,
        {"type": "turn_started", "player": "Ann"},                                                          # 2
        {"type": "landed", "player": "Ann", "venue": "surface_city", "culture": "Shenna"},                  # 3
        {"type": "goods_bought", "player": "Ann", "good": "Melf Pelts", "culture": "Shenna", "unit_price": 50},  # 4
        {"type": "goods_bought", "player": "Ann", "good": "Melf Pelts", "culture": "Shenna", "unit_price": 50},  # 5
        {"type": "correction", "voids": 4, "reason": "bought once"},                                         # 6
    ))
    result = CliRunner().invoke(main, ["audit", str(log), "--format", "json"])
    (finding,) = json_module.loads(result.output)["findings"]
    assert (finding["line"], finding["rule"], finding["moot_by"]) == (5, "MOV-LIMIT", 6)
    text = CliRunner().invoke(main, ["audit", str(log)]).output
    assert "moot: since the correction at line 6, the log decided again no longer raises it" in " ".join(text.split())
    assert "net worth: Ann 450, Bob 500" in text
