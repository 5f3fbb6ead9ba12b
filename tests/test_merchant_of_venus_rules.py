"""Merchant of Venus: a legal and an illegal case for every rule ID (RULES.md).

Each case is a small log: Ann and Bob, c500 each, two holds. Lines are
numbered from the header (line 1), so the first event is line 2.
"""

from __future__ import annotations

import pytest

from gamelog.domain.replay import run
from tests.conftest import log_bytes

HEADER = {"game": "merchant-of-venus", "id": "rules", "players": ["Ann", "Bob"],
          "setup": {"starting_credits": 500, "holds": 2, "goal": 2000}}
ANN = {"type": "turn_started", "player": "Ann"}
ANN_END = {"type": "turn_ended", "player": "Ann"}
BOB = {"type": "turn_started", "player": "Bob"}


def land(player: str, venue: str, culture: str | None = None, **more) -> dict:
    event = {"type": "landed", "player": player, "venue": venue, **more}
    if culture:
        event["culture"] = culture
    return event


def buy(player: str, good: str, culture: str, price: int, **more) -> dict:
    return {"type": "goods_bought", "player": player, "good": good, "culture": culture, "unit_price": price, **more}


def sell(player: str, good: str, culture: str, value: int, **more) -> dict:
    return {"type": "goods_sold", "player": player, "good": good, "culture": culture, "resale_value": value, **more}


DRAW = {"type": "bonus_cup_draw", "token": "demand", "placed_at": "Niks"}


def outcome(*events: dict, header: dict = HEADER):
    result = run(log_bytes(header, *events))
    assert result.errors == []
    return result


def violations(*events: dict, header: dict = HEADER) -> list[tuple[int, str]]:
    return [(e.line, e.rule) for e in outcome(*events, header=header).events
            if type(e).__name__ == "FindingRaised" and e.severity == "violation"]


def credits(*events: dict) -> dict[str, int]:
    return {p: v["credits"] for p, v in outcome(*events).state.to_json()["players"].items()}


CASES = {
    "MOV-BUY": (
        [ANN, land("Ann", "surface_city", "Shenna"), buy("Ann", "Melf Pelts", "Shenna", 50)],
        [ANN, land("Ann", "surface_city", "Graw"), buy("Ann", "Melf Pelts", "Shenna", 50)],
    ),
    "MOV-IOU": (
        [ANN, land("Ann", "surface_city", "Shenna"), {"type": "first_contact", "player": "Ann", "culture": "Shenna", "iou": 90},
         buy("Ann", "Melf Pelts", "Shenna", 50, quantity=2, iou=True)],
        [ANN, land("Ann", "surface_city", "Shenna"), buy("Ann", "Melf Pelts", "Shenna", 50, iou=True)],
    ),
    "MOV-SELL": (
        [ANN, land("Ann", "open_spaceport", "Graw"), buy("Ann", "Space Spice", "Graw", 30),
         sell("Ann", "Space Spice", "Graw", 80), DRAW],
        [ANN, land("Ann", "surface_city", "Shenna"), sell("Ann", "Space Spice", "Shenna", 80)],
    ),
    "MOV-LIMIT": (
        [ANN, {"type": "landed", "player": "Ann", "venue": "surface_city", "culture": "Shenna"}, ANN_END, BOB,
         {"type": "turn_ended", "player": "Bob"}, ANN, {"type": "movement_skipped", "player": "Ann"},
         buy("Ann", "Melf Pelts", "Shenna", 50), buy("Ann", "Melf Pelts", "Shenna", 50)],
        [ANN, land("Ann", "neutral_spaceport", "Shenna"), buy("Ann", "Melf Pelts", "Shenna", 50), buy("Ann", "Melf Pelts", "Shenna", 50)],
    ),
    "MOV-COMMISSION": (
        [ANN, {"type": "deed_acquired", "player": "Ann", "kind": "merchant_spaceport", "culture": "Shenna", "value": 200, "price_paid": 200},
         ANN_END, BOB, land("Bob", "merchant_spaceport", "Shenna", owner="Ann"), buy("Bob", "Melf Pelts", "Shenna", 50)],
        [ANN, land("Ann", "merchant_spaceport", "Shenna", owner="Bob")],
    ),
    "MOV-PASSENGER": (
        [ANN, land("Ann", "surface_city", "Dell"), {"type": "passenger_boarded", "player": "Ann", "passenger": "Scientist", "destination": "Qossuth"},
         land("Ann", "surface_city", "Qossuth"), {"type": "passenger_delivered", "player": "Ann", "passenger": "Scientist", "fare": 150}, DRAW],
        [ANN, land("Ann", "surface_city", "Dell"), {"type": "passenger_boarded", "player": "Ann", "passenger": "Scientist", "destination": "Qossuth"},
         {"type": "passenger_delivered", "player": "Ann", "passenger": "Scientist", "fare": 150}],
    ),
    "MOV-HAZARD": (
        [ANN, land("Ann", "surface_city", "Dell"), {"type": "equipment_bought", "player": "Ann", "item": "drive:yellow", "price": 80},
         {"type": "hazard_passed", "player": "Ann", "color": "yellow"}],
        [ANN, {"type": "hazard_passed", "player": "Ann", "color": "red"}],
    ),
    "MOV-RELIC": (
        [ANN, {"type": "relic_taken", "player": "Ann", "relic": "Spy Eye"}, ANN_END, BOB],
        [ANN, {"type": "relic_taken", "player": "Ann", "relic": "Spy Eye"}, {"type": "hazard_paid", "player": "Ann", "cost": 20}],
    ),
    "MOV-CAPACITY": (
        [ANN, land("Ann", "open_spaceport", "Dell"), buy("Ann", "Finest Dust", "Dell", 10, dots=2),
         buy("Ann", "Dribble Glass", "Dell", 120, factory=True), buy("Ann", "Dribble Glass", "Dell", 120, factory=True)],
        [ANN, land("Ann", "open_spaceport", "Dell"), buy("Ann", "Finest Dust", "Dell", 10, dots=2, quantity=2),
         buy("Ann", "Dribble Glass", "Dell", 120, factory=True)],
    ),
    "MOV-BONUS-CUP": (
        [ANN, land("Ann", "surface_city", "Dell"), {"type": "passenger_boarded", "player": "Ann", "passenger": "Monk", "destination": "Dell"},
         {"type": "passenger_delivered", "player": "Ann", "passenger": "Monk", "fare": 50}, DRAW, ANN_END],
        [ANN, DRAW],
    ),
    "MOV-TURN-END": (
        [ANN, land("Ann", "surface_city", "Dell"), ANN_END, BOB],
        [ANN, land("Ann", "other"), {"type": "hazard_paid", "player": "Ann", "cost": 20}],
    ),
    "MOV-NET-WORTH": (
        [ANN, {"type": "deed_acquired", "player": "Ann", "kind": "factory", "culture": "Dell", "value": 200, "price_paid": 160},
         {"type": "score_claimed", "player": "Ann", "net_worth": 540}],
        [ANN, {"type": "deed_acquired", "player": "Ann", "kind": "factory", "culture": "Dell", "value": 200, "price_paid": 160},
         {"type": "score_claimed", "player": "Ann", "net_worth": 500}],
    ),
    "MOV-WIN": (
        [ANN, {"type": "credits_received", "player": "Ann", "amount": 1500, "from": "bank", "reason": "demand"}, ANN_END,
         {"type": "note", "text": "Ann wins"}],
        [ANN, {"type": "credits_received", "player": "Ann", "amount": 1500, "from": "bank", "reason": "demand"}, ANN_END, BOB],
    ),
    "MOV-PAY": (
        [ANN, {"type": "credits_paid", "player": "Ann", "amount": 500, "to": "Bob", "reason": "a debt"}],
        [ANN, {"type": "credits_paid", "player": "Ann", "amount": 501, "to": "Bob", "reason": "a debt"}],
    ),
}


@pytest.mark.parametrize("rule", sorted(CASES))
def test_legal_case_has_no_violation(rule):
    legal, _ = CASES[rule]
    assert violations(*legal) == []


@pytest.mark.parametrize("rule", sorted(CASES))
def test_illegal_case_is_a_violation_of_that_rule_on_its_line(rule):
    _, illegal = CASES[rule]
    found = violations(*illegal)
    last_line = len(illegal) + 1
    # A wrong net worth claim is a CLAIM too; MOV-NET-WORTH says which rule the table misapplied.
    also = ["CLAIM"] if rule == "MOV-NET-WORTH" else []
    assert found == [(last_line, r) for r in also + [rule]]


def test_every_rule_of_the_section_has_its_cases():
    assert set(CASES) == {"MOV-BUY", "MOV-IOU", "MOV-SELL", "MOV-LIMIT", "MOV-COMMISSION", "MOV-PASSENGER", "MOV-HAZARD",
                          "MOV-RELIC", "MOV-CAPACITY", "MOV-BONUS-CUP", "MOV-TURN-END", "MOV-NET-WORTH", "MOV-WIN", "MOV-PAY"}


def test_commission_is_ten_percent_rounded_down_of_each_action_iou_included():
    got = credits(ANN, {"type": "deed_acquired", "player": "Ann", "kind": "merchant_spaceport", "culture": "Shenna", "value": 200, "price_paid": 200},
                  ANN_END, BOB, land("Bob", "merchant_spaceport", "Shenna", owner="Ann"),
                  {"type": "first_contact", "player": "Bob", "culture": "Shenna", "iou": 90},
                  buy("Bob", "Melf Pelts", "Shenna", 55, quantity=3, iou=True))
    # Ann: 500 - 200 + 10% of c165 = 16. Bob: 165 less the c90 IOU = c75 paid.
    assert got == {"Ann": 316, "Bob": 425}


def test_hazard_costs_20_less_per_shield_never_below_zero():
    shielded = [ANN, land("Ann", "surface_city", "Nillis"), {"type": "equipment_bought", "player": "Ann", "item": "shield", "price": 60}]
    assert credits(*shielded, {"type": "hazard_paid", "player": "Ann", "cost": 50})["Ann"] == 500 - 60 - 30
    assert credits(*shielded, {"type": "hazard_paid", "player": "Ann", "cost": 10})["Ann"] == 500 - 60


def test_declining_a_hazard_ends_the_turn():
    assert violations(ANN, {"type": "hazard_declined", "player": "Ann", "cost": 40}, land("Ann", "other")) == [(4, "MOV-HAZARD")]


def test_an_iou_worth_more_than_the_deal_gives_no_change():
    got = credits(ANN, land("Ann", "surface_city", "Shenna"), {"type": "first_contact", "player": "Ann", "culture": "Shenna", "iou": 90},
                  buy("Ann", "Melf Pelts", "Shenna", 50, iou=True))
    assert got["Ann"] == 500


def test_reference_data_differences_are_warnings_not_violations():
    result = outcome(ANN, land("Ann", "surface_city", "Shenna"), buy("Ann", "Melf Pelts", "Shenna", 45))
    findings = [(e.rule, e.severity, e.message) for e in result.events if type(e).__name__ == "FindingRaised"]
    assert findings == [("MOV-BUY", "warning", "the rulebook (seeds/000_6f346551b7adc216.txt, Example 2 (IOU)) prices "
                                               "Melf Pelts at c50, the log says c45")]


def test_melf_pelts_bought_where_the_seed_names_the_shenna_is_a_violation():
    # The seed's IOU example has the Shenna sell Melf Pelts: bought of the Dell (where the ship is), MOV-BUY is broken.
    result = outcome(ANN, land("Ann", "surface_city", "Dell"), buy("Ann", "Melf Pelts", "Dell", 50))
    findings = [(e.rule, e.severity, e.message) for e in result.events if type(e).__name__ == "FindingRaised"]
    assert findings == [("MOV-BUY", "violation", "the rulebook (seeds/000_6f346551b7adc216.txt, Example 2 (IOU)) has "
                                                 "Melf Pelts sold by Shenna, not Dell")]


def test_a_seller_only_the_1988_data_name_stays_a_warning_that_says_so():
    result = outcome(ANN, land("Ann", "surface_city", "Dell"), buy("Ann", "Voil Silk", "Dell", 140))
    findings = [(e.rule, e.severity, e.message) for e in result.events if type(e).__name__ == "FindingRaised"]
    assert findings == [("MOV-BUY", "warning", "the reference data (1988 edition) has Voil Silk sold by Volois, not Dell")]


# -- The seeds outrank the 1988 reference data (issue 12 item 8) ------------------------------


def findings_of(*events: dict) -> list[tuple[int, str, str, str]]:
    return [(e.line, e.rule, e.severity, e.message) for e in outcome(*events).events if type(e).__name__ == "FindingRaised"]


# Ann carries one Bionic Perfume bought from the Nillis at c80 (lines 2-4), then lands to sell it (lines 5-7).
PERFUME = [ANN, land("Ann", "surface_city", "Nillis"), buy("Ann", "Bionic Perfume", "Nillis", 80), ANN_END, BOB,
           {"type": "turn_ended", "player": "Bob"}, ANN]


def test_bionic_perfume_sold_to_the_volois_as_in_the_seed_gives_no_finding():
    # The seed's example: Bionic Perfume bought from the Nillis sells to the Volois, Graw, Niks and Dell
    # (the 1988 data lists Humans instead of the Volois). c500 - c80 + c140 = c560.
    events = PERFUME + [land("Ann", "surface_city", "Volois"), sell("Ann", "Bionic Perfume", "Volois", 140), DRAW]
    assert findings_of(*events) == []
    assert credits(*events)["Ann"] == 560


def test_bionic_perfume_sold_to_the_humans_is_a_violation_citing_the_seed():
    # The seed names Bionic Perfume's buyers, and the Humans (the 1988 data's) are not among them: a violation of
    # MOV-SELL, the sale applied as logged.
    events = PERFUME + [land("Ann", "surface_city", "Humans"), sell("Ann", "Bionic Perfume", "Humans", 140), DRAW]
    assert findings_of(*events) == [(10, "MOV-SELL", "violation", "the rulebook (seeds/000_6f346551b7adc216.txt, Sell Actions, example) "
                                                                 "has Bionic Perfume bought by Volois, Graw, Niks, Dell, not Humans")]
    assert credits(*events)["Ann"] == 560


def test_a_fact_the_seeds_do_not_state_stays_the_1988_datas_warning():
    # Voil Silk's buyers are the 1988 data's (Graw, Niks, Dell, Humans): selling it to the Nillis is a warning naming that data.
    events = [ANN, land("Ann", "surface_city", "Volois"), buy("Ann", "Voil Silk", "Volois", 140), ANN_END, BOB,
              {"type": "turn_ended", "player": "Bob"}, ANN, land("Ann", "surface_city", "Nillis"),
              sell("Ann", "Voil Silk", "Nillis", 220), DRAW]
    assert findings_of(*events) == [(10, "MOV-SELL", "warning", "the reference data (1988 edition) has Voil Silk bought by "
                                                                 "Graw, Niks, Dell, Humans, not Nillis")]
    assert credits(*events)["Ann"] == 500 - 140 + 220


def test_every_fact_the_seeds_state_is_what_the_reference_gives():
    from gamelog.domain.merchant_of_venus import reference
    facts = reference.seed_facts().values()
    assert {(f.subject, f.field) for f in facts if f.data_1988 != "agrees"} == {
        ("Bionic Perfume", "buyers"), ("Designer Genes", "factory"), ("Finest Dust", "dots"), ("Designer Genes", "dots")}
    tables = {"good": reference.goods(), "culture": reference.cultures()}
    for f in facts:
        if f.kind == "equipment":
            assert reference.equipment_prices()[reference.key(f.subject)] == int(f.value), f
        else:
            value = getattr(tables[f.kind][reference.key(f.subject)], f.field)
            assert ("; ".join(value) if isinstance(value, tuple) else str(value)).casefold() == f.value.casefold(), f
    assert reference.goods()[reference.key("Bionic Perfume")].buyers == ("Volois", "Graw", "Niks", "Dell")
    assert reference.goods()[reference.key("Designer Genes")].factory is True
    assert reference.goods()[reference.key("Guard Plants")].buyers == ("Graw", "Niks", "Dell", "Humans")  # the seeds say nothing of it
    assert reference.cultures()[reference.key("Shenna")].iou_value == 90
