"""What may be recorded now is the rules' answer (issue 36): who is due, and each restricted field's values.

Over generated games of each game (hypothesis), what a form offers is exactly what the rule accepts: every offered
value, recorded, stands with no violation; a value the rules forbid (one not offered) is found against. Then the
seed pages' cases, row by row, checked by hand (seeds/000: the Sell and IOU examples; seeds/001: the Capacity
example; seeds/004: LRR 34).
"""

from __future__ import annotations

import json

import msgspec
import msgspec.inspect
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from gamelog.domain.engine import VIOLATION
from gamelog.domain.games import GAMES
from gamelog.domain.reader import LogReader
from gamelog.domain.replay import run
from gamelog.projections.reports.forms import entry_forms
from tests.conftest import log_bytes

PROPERTY = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def engine_after(header: dict, lines: list[dict]):
    """The engine (keeping nothing) after ``lines``: what the recorder asks for the forms."""
    result = run(log_bytes(header, *lines))
    assert result.errors == [], result.errors
    return GAMES[header["game"]].engine.from_history(result.events, history=False)


def offers(header: dict, lines: list[dict], player: str | None):
    """The game's offers for ``player`` after ``lines``."""
    return GAMES[header["game"]].offers(engine_after(header, lines).state, player)


def findings_of_last(header: dict, lines: list[dict], count: int = 1) -> list[tuple[str, str, str]]:
    """(rule, severity, message) of every finding on the last ``count`` lines of ``lines``."""
    result = run(log_bytes(header, *lines))
    assert result.errors == [], result.errors
    first = len(lines) + 2 - count
    return [(e.rule, e.severity, e.message) for e in result.events
            if type(e).__name__ == "FindingRaised" and e.line >= first]


def violations_of_last(header: dict, lines: list[dict], count: int = 1) -> list[tuple[str, str]]:
    return [(rule, message) for rule, severity, message in findings_of_last(header, lines, count)
            if severity == VIOLATION]


def due(header: dict, lines: list[dict]) -> str | None:
    return engine_after(header, lines).who_is_due()


# -- Merchant of Venus ---------------------------------------------------------------------------------------------

MOV = {"game": "merchant-of-venus", "id": "offers", "players": ["Ann", "Bob"],
       "setup": {"starting_credits": 500, "holds": 2}}
CULTURES = ["Nillis", "Volois", "Graw", "Niks", "Dell", "Humans", "Shenna", "YXKLYX", "Zum", "EeepEeep", "Whynoms",
            "Cholos", "Wollow", "Qossuth"]
VENUES = ["surface_city", "open_spaceport", "neutral_spaceport"]


def land(player: str, culture: str, venue: str = "surface_city") -> dict:
    return {"type": "landed", "player": player, "venue": venue, "culture": culture}


def purchase(player: str, offer, good: str, quantity: int) -> dict:
    """The purchase line a form fills in from ``offer`` (the goods_bought offers) for ``good``."""
    return {"type": "goods_bought", "player": player, "good": good, "culture": offer["culture"].value,
            "unit_price": offer["unit_price"].value_for[good], "quantity": quantity,
            "dots": offer["dots"].value_for[good], "factory": offer["factory"].value_for[good],
            "iou": offer["iou"].value}


def sale(player: str, offer, good: str, quantity: int) -> dict:
    return {"type": "goods_sold", "player": player, "good": good, "culture": offer["culture"].value,
            "resale_value": offer["resale_value"].value_for[good], "quantity": quantity}


@pytest.mark.slow
@PROPERTY
@given(st.data())
def test_merchant_of_venus_offers_are_what_the_rules_accept(data):
    """Two players trade for a few turns, every line chosen from what the forms offer: each stands with no
    violation; a good, a quantity or a culture the forms do not offer is found against."""
    from gamelog.domain.merchant_of_venus import reference

    lines: list[dict] = []
    for _ in range(data.draw(st.integers(2, 8), label="turns")):
        player = due(MOV, lines)
        lines.append({"type": "turn_started", "player": player})
        ship = engine_after(MOV, lines).state.by_player[player]
        buyers = sorted({b for t in ship.cargo if t.kind == "good" and reference.key(t.name) in reference.goods()
                         for b in reference.goods()[reference.key(t.name)].buyers})
        where = data.draw(st.sampled_from(buyers) if buyers and data.draw(st.booleans()) else st.sampled_from(CULTURES))
        lines.append(land(player, where, data.draw(st.sampled_from(VENUES))))
        for _ in range(data.draw(st.integers(0, 3), label="deals")):
            offer = offers(MOV, lines, player)
            kind = data.draw(st.sampled_from(["first_contact", "goods_bought", "goods_sold", "goods_sold"]))
            if kind == "first_contact":
                open_ = offer["first_contact"]["culture"].values
                contacted = [c for c in CULTURES if c not in open_]
                if contacted:  # a culture contacted already: its IOU is gone (MOV-IOU)
                    c = data.draw(st.sampled_from(contacted))
                    wrong = {"type": "first_contact", "player": player, "culture": c,
                             "iou": reference.cultures()[reference.key(c)].iou_value}
                    assert "MOV-IOU" in [r for r, _ in violations_of_last(MOV, lines + [wrong])]
                if open_:
                    c = data.draw(st.sampled_from(open_))
                    line = {"type": "first_contact", "player": player, "culture": c,
                            "iou": offer["first_contact"]["iou"].value_for[c]}
                    assert violations_of_last(MOV, lines + [line]) == []
                    lines.append(line)
            elif kind == "goods_bought":
                bought = offer["goods_bought"]
                here = bought["culture"].value
                others = [g.name for g in reference.goods().values() if g.name not in bought["good"].values]
                if others and here is not None:  # a good not offered: the rules find against it
                    g = reference.goods()[reference.key(data.draw(st.sampled_from(others)))]
                    wrong = {"type": "goods_bought", "player": player, "good": g.name, "culture": here,
                             "unit_price": g.buy_price, "dots": g.dots, "factory": g.factory}
                    found = findings_of_last(MOV, lines + [wrong])
                    assert found, wrong
                    # Only the 1988 data speak against it: a warning, which names them.
                    assert any(s == VIOLATION for _, s, _ in found) or all("1988" in m for _, _, m in found), found
                if bought["good"].values:
                    good = data.draw(st.sampled_from(bought["good"].values))
                    most = bought["quantity"].maximum_for[good]
                    assert most >= 1
                    over = purchase(player, bought, good, most + 1)
                    assert violations_of_last(MOV, lines + [over]) != [], over  # one more than the most offered
                    line = purchase(player, bought, good, data.draw(st.integers(1, most)))
                    assert violations_of_last(MOV, lines + [line]) == [], line
                    lines.append(line)
                    event("a good bought")
            else:
                sold = offer["goods_sold"]
                ship = engine_after(MOV, lines).state.by_player[player]
                aboard = sorted({t.name for t in ship.cargo if t.kind == "good"})
                for good in (g for g in aboard if g not in sold["good"].values):
                    g = reference.goods()[reference.key(good)]
                    wrong = {"type": "goods_sold", "player": player, "good": good, "culture": sold["culture"].value,
                             "resale_value": g.resale_value}
                    found = findings_of_last(MOV, lines + [wrong])
                    assert found, wrong
                    assert any(s == VIOLATION for _, s, _ in found) or all("1988" in m for _, _, m in found), found
                if sold["good"].values:
                    good = data.draw(st.sampled_from(sold["good"].values))
                    most = sold["quantity"].maximum_for[good]
                    line = sale(player, sold, good, data.draw(st.integers(1, most)))
                    assert violations_of_last(MOV, lines + [line]) == [], line
                    lines.append(line)
                    event("a good sold")
                    if sold["culture"].value is not None:
                        lines.append({"type": "bonus_cup_draw", "token": "demand", "placed_at": "Niks"})
        lines.append({"type": "turn_ended", "player": player})
        if engine_after(MOV, lines).state.ended is not None:
            break


def test_a_sale_offers_only_the_goods_aboard_this_culture_buys():
    # seeds/000, Sell Actions: Bionic Perfume is bought by the Volois, Graw, Niks and Dell, not the Humans.
    lines = [{"type": "turn_started", "player": "Ann"}, land("Ann", "Nillis"),
             {"type": "goods_bought", "player": "Ann", "good": "Bionic Perfume", "culture": "Nillis", "unit_price": 80},
             {"type": "turn_ended", "player": "Ann"}, {"type": "turn_started", "player": "Bob"},
             {"type": "turn_ended", "player": "Bob"}, {"type": "turn_started", "player": "Ann"}]
    at_humans = offers(MOV, lines + [land("Ann", "Humans")], "Ann")["goods_sold"]
    assert at_humans["good"].values == () and at_humans["culture"].value == "Humans"
    at_volois = offers(MOV, lines + [land("Ann", "Volois")], "Ann")["goods_sold"]
    assert at_volois["good"].values == ("Bionic Perfume",) and at_volois["good"].value == "Bionic Perfume"
    assert at_volois["resale_value"].value_for == {"Bionic Perfume": 140}  # seeds/000: c140 a token
    assert at_volois["quantity"].maximum_for == {"Bionic Perfume": 1}


def test_a_first_contact_offers_only_cultures_not_contacted():
    lines = [{"type": "turn_started", "player": "Ann"}, land("Ann", "Shenna"),
             {"type": "first_contact", "player": "Ann", "culture": "Shenna", "iou": 90},
             {"type": "turn_ended", "player": "Ann"}, {"type": "turn_started", "player": "Bob"}, land("Bob", "Shenna")]
    contact = offers(MOV, lines, "Bob")["first_contact"]
    assert "Shenna" not in contact["culture"].values and contact["culture"].value is None
    assert len(contact["culture"].values) == 13 and contact["culture"].by == "MOV-IOU"
    fresh = offers(MOV, lines[:2], "Ann")["first_contact"]
    assert fresh["culture"].value == "Shenna" and fresh["iou"].value_for["Shenna"] == 90  # seeds/000: the Shenna IOU c90


def test_the_buy_quantity_counts_a_half_full_hold_as_half():
    # Two holds; a passenger (one dot) fills half of one: three one-dot goods still fit (MOV-CAPACITY), not two.
    lines = [{"type": "turn_started", "player": "Ann"}, land("Ann", "Niks", "open_spaceport"),
             {"type": "passenger_boarded", "player": "Ann", "passenger": "Scholar", "destination": "Dell"}]
    bought = offers(MOV, lines, "Ann")["goods_bought"]
    assert bought["good"].values == ("Mulch Wine", "Living Toys")
    assert bought["quantity"].maximum_for["Mulch Wine"] == 3
    # A full hold: no good offered at all, never the number field's own limit.
    full = lines + [purchase("Ann", bought, "Mulch Wine", 3)]
    assert violations_of_last(MOV, full) == []
    assert offers(MOV, full, "Ann")["goods_bought"]["good"].values == ()
    assert violations_of_last(MOV, full + [purchase("Ann", bought, "Mulch Wine", 1)])[0][0] == "MOV-CAPACITY"


def test_the_seeds_capacity_example_two_dot_dust_fills_a_hold():
    # seeds/001, Capacity Example: Finest Dust has two dots and fills a hold; c10 to the bank.
    bought = offers(MOV, [{"type": "turn_started", "player": "Ann"}, land("Ann", "Dell", "open_spaceport")],
                    "Ann")["goods_bought"]
    assert bought["dots"].value_for["Finest Dust"] == 2 and bought["unit_price"].value_for["Finest Dust"] == 10
    assert bought["quantity"].maximum_for["Finest Dust"] == 2


def test_the_seeds_iou_purchase_is_offered_with_the_iou():
    # seeds/000, Example 2 (IOU): first contact with the Shenna, then two Melf Pelts at c50 with the c90 IOU.
    lines = [{"type": "turn_started", "player": "Ann"}, land("Ann", "Shenna", "open_spaceport"),
             {"type": "first_contact", "player": "Ann", "culture": "Shenna", "iou": 90}]
    bought = offers(MOV, lines, "Ann")["goods_bought"]
    assert "Melf Pelts" in bought["good"].values and bought["iou"].value is True
    line = purchase("Ann", bought, "Melf Pelts", 2)
    assert line["unit_price"] == 50 and violations_of_last(MOV, lines + [line]) == []


def test_equipment_is_read_by_its_printed_name_as_the_engine_counts_it():
    lines = [{"type": "turn_started", "player": "Ann"}, land("Ann", "Nillis"),
             {"type": "equipment_bought", "player": "Ann", "item": "Shield -20", "price": 60},
             {"type": "hazard_paid", "player": "Ann", "cost": 20}]
    state = engine_after(MOV, lines).state
    assert state.by_player["Ann"].shields == 1 and state.by_player["Ann"].credits == 500 - 60  # the hazard shielded
    printed = offers(MOV, lines[:2], "Ann")["equipment_bought"]
    assert "Shield -20" in printed["item"].offered and printed["price"].value_for["Yellow Drive"] == 80
    drive = LogReader(log_bytes(MOV, {"type": "equipment_bought", "player": "Ann", "item": "Yellow Drive",
                                      "price": 80}))
    assert [e.item for _, e in drive.events()] == ["drive:yellow"]


def test_an_unknown_equipment_name_is_an_input_error_naming_the_right_one():
    reader = LogReader(log_bytes(MOV, {"type": "equipment_bought", "player": "Ann", "item": "Sheild -20", "price": 60}))
    list(reader.events())
    assert len(reader.errors) == 1
    assert "did you mean 'Shield -20'?" in reader.errors[0].message and reader.errors[0].path == "$.item"


def test_the_bank_may_be_paid_and_turns_pass_in_seat_order():
    event_types = GAMES["merchant-of-venus"].event_types
    forms = {f.type: f for f in entry_forms(event_types, {}, ("Bob", "Ann"))}
    paid_to = next(f for f in forms["credits_paid"].fields if f.name == "to")
    assert paid_to.offered == ["Bob", "Ann", "bank"]
    ended = [{"type": "turn_started", "player": "Ann"}, {"type": "turn_ended", "player": "Ann"}]
    assert due(MOV, ended[:1]) == "Ann" and due(MOV, ended) == "Bob"  # the player who just ended is not due


def test_nobody_is_due_once_the_game_is_over():
    rich = MOV | {"setup": {"starting_credits": 1990, "holds": 2, "goal": 2000}}
    lines = [{"type": "turn_started", "player": "Ann"}, land("Ann", "Volois"),
             {"type": "goods_bought", "player": "Ann", "good": "Voil Silk", "culture": "Volois", "unit_price": 140},
             {"type": "turn_ended", "player": "Ann"}, {"type": "turn_started", "player": "Bob"}, land("Bob", "Graw"),
             {"type": "credits_received", "player": "Bob", "from": "bank", "amount": 20, "reason": "fare"},
             {"type": "turn_ended", "player": "Bob"}]
    assert engine_after(rich, lines).state.ended is not None and due(rich, lines) is None


# -- Uchronia ------------------------------------------------------------------------------------------------------

UCH = {"game": "uchronia", "id": "offers", "players": ["Ann", "Bob"],
       "setup": {"last_turn_card": "Bob", "threshold": 40, "forum": ["brick", "brick", "wood"]}}


@pytest.mark.slow
@PROPERTY
@given(st.data())
def test_uchronia_offers_are_what_the_rules_accept(data):
    """Turns of starting buildings and moving resources, every choice from what the forms offer: none is a
    violation; a color the Forum lacks, or a building started this turn, is."""
    from gamelog.domain.uchronia.reference import COLORS as ALL

    lines: list[dict] = []
    built = 0
    for turn in range(data.draw(st.integers(2, 6), label="turns")):
        player = due(UCH, lines)
        lines.append({"type": "turn_started", "player": player})
        for _ in range(data.draw(st.integers(0, 3), label="actions")):
            offer = offers(UCH, lines, player)
            kind = data.draw(st.sampled_from(["start", "move", "add"]))
            if kind == "add":
                lines.append({"type": "forum_card_added", "color": data.draw(st.sampled_from(ALL))})
            elif kind == "start":
                start = offer["construction_started"]["color"]
                for color in (c for c in ALL if c not in start.values):
                    wrong = {"type": "construction_started", "player": player, "building": "Nowhere", "color": color}
                    assert "UCH-START" in [r for r, _ in violations_of_last(UCH, lines + [wrong])]
                if start.values:
                    built += 1
                    line = {"type": "construction_started", "player": player, "building": f"Hall {built}",
                            "color": data.draw(st.sampled_from(start.values))}
                    assert violations_of_last(UCH, lines + [line]) == []
                    lines.append(line)
                    event("a building started")
            else:
                sites = engine_after(UCH, lines).state.by_player[player].under_construction
                move = offer["resource_moved"]
                for building in (b for b in sites if b not in move["building"].values):
                    wrong = {"type": "resource_moved", "player": player, "building": building,
                             "color": sites[building].color}
                    assert "UCH-MOVE" in [r for r, _ in violations_of_last(UCH, lines + [wrong])]
                if move["building"].values:
                    building = data.draw(st.sampled_from(move["building"].values))
                    line = {"type": "resource_moved", "player": player, "building": building,
                            "color": move["color"].value_for[building]}
                    assert violations_of_last(UCH, lines + [line]) == []
                    lines.append(line)
                    event("a resource moved")
        lines.append({"type": "turn_ended", "player": player})
        if engine_after(UCH, lines).state.ended is not None:
            break


def test_uchronia_offers_only_the_colors_the_forum_has_and_no_building_of_this_turn():
    lines = [{"type": "turn_started", "player": "Ann"},
             {"type": "construction_started", "player": "Ann", "building": "Colosseum", "color": "brick"}]
    offer = offers(UCH, lines, "Ann")
    assert offer["construction_started"]["color"].values == ("wood", "brick")  # one of each left (of five colors)
    assert offer["resource_moved"]["building"].values == ()  # started this turn (UCH-MOVE)
    later = lines + [{"type": "turn_ended", "player": "Ann"}, {"type": "turn_started", "player": "Bob"},
                     {"type": "turn_ended", "player": "Bob"}, {"type": "turn_started", "player": "Ann"}]
    moved = offers(UCH, later, "Ann")["resource_moved"]
    assert moved["building"].values == ("Colosseum",) and moved["color"].value_for == {"Colosseum": "brick"}


# -- Twilight Imperium 4 -------------------------------------------------------------------------------------------

TI4 = {"game": "twilight-imperium-4", "id": "offers", "players": ["Ann", "Bob", "Cy"],
       "setup": {"factions": {"Ann": "Arborec", "Bob": "Federation of Sol", "Cy": "Barony of Letnev"},
                 "speaker": "Bob"}}
STAGE_ONE = ["Corner the Market", "Develop Weaponry", "Diversify Research", "Erect a Monument", "Expand Borders"]


def round_to_status(n: int) -> list[dict]:
    """Round ``n`` from its start to its status phase: picks from the speaker (Bob), each player's turn and pass."""
    picks = [("Bob", "Leadership", 1), ("Cy", "Diplomacy", 2), ("Ann", "Trade", 5)]
    lines = [{"type": "round_started", "round": n}, {"type": "phase_started", "phase": "strategy"}]
    lines += [{"type": "strategy_card_picked", "player": p, "card": c, "initiative": i} for p, c, i in picks]
    lines.append({"type": "phase_started", "phase": "action"})
    for p in ("Bob", "Cy", "Ann"):
        lines += [{"type": "turn_started", "player": p}, {"type": "player_passed", "player": p}]
    return lines + [{"type": "phase_started", "phase": "status"}]


@pytest.mark.slow
@PROPERTY
@given(st.data())
def test_ti4_offers_are_what_the_rules_accept(data):
    """Rounds played through the forms: cards picked as offered by whoever is due, turns in initiative order,
    objectives revealed and scored in the status phase as offered, secrets drawn from the deck offered, home
    systems lost now and then: every offered line stands with no violation; a card on the table or in hand that is
    not offered for scoring, and a public card not offered for revealing, are violations of LRR 34."""
    from gamelog.domain.twilight_imperium import reference

    lines: list[dict] = [{"type": "objective_revealed", "objective": STAGE_ONE[0], "stage": 1},
                         {"type": "objective_revealed", "objective": STAGE_ONE[1], "stage": 1}]
    lines += [{"type": "secret_objective_drawn", "player": p, "objective": o}
              for p, o in (("Ann", "Become the Gatekeeper"), ("Bob", "Adapt New Strategies"))]
    publics = [c.name for c in {c.name: c for c in reference.objectives().values()}.values() if c.kind == "public"]
    for n in range(1, data.draw(st.integers(1, 4), label="rounds") + 1):
        lines += [{"type": "round_started", "round": n}, {"type": "phase_started", "phase": "strategy"}]
        for _ in range(3):
            player = due(TI4, lines)
            pick = offers(TI4, lines, player)["strategy_card_picked"]
            card = data.draw(st.sampled_from(pick["card"].offered))
            lines.append({"type": "strategy_card_picked", "player": player, "card": card,
                          "initiative": pick["initiative"].value_for[card]})
        lines.append({"type": "phase_started", "phase": "action"})
        while (player := due(TI4, lines)) is not None:
            lines += [{"type": "turn_started", "player": player}, {"type": "player_passed", "player": player}]
        lines.append({"type": "phase_started", "phase": "status"})
        for player in ("Ann", "Bob", "Cy"):
            if data.draw(st.integers(0, 4)) == 0:
                lines.append({"type": "home_system_control", "player": player, "controls_all": False})
            state = engine_after(TI4, lines).state
            scoring = offers(TI4, lines, player)["objective_scored"]
            table = [o for o, _, _ in state.revealed] + list(state.by_player[player].secrets)
            for name in (o for o in table if o not in scoring["objective"].values):
                card = reference.objective(name)
                wrong = {"type": "objective_scored", "player": player, "objective": name,
                         "kind": "secret" if name in state.by_player[player].secrets else "public", "points": card.points}
                assert any(r.startswith("LRR 34") for r, _ in violations_of_last(TI4, lines + [wrong])), wrong
            for name in data.draw(st.lists(st.sampled_from(scoring["objective"].values), max_size=2, unique=True)
                                  if scoring["objective"].values else st.just([])):
                if name not in offers(TI4, lines, player)["objective_scored"]["objective"].values:
                    continue  # one public and one secret a status phase: the first score closed it
                line = {"type": "objective_scored", "player": player, "objective": name,
                        "kind": scoring["kind"].value_for[name], "points": scoring["points"].value_for[name]}
                assert violations_of_last(TI4, lines + [line]) == [], line
                lines.append(line)
                event("an objective scored")
            if data.draw(st.booleans()):
                deck = offers(TI4, lines, player)["secret_objective_drawn"]["objective"].values
                held = {o for q in engine_after(TI4, lines).state.by_player.values() for o in q.secrets}
                free = [o for o in deck if o not in held]  # a table draws from the deck: no one's hand is in it
                if free:
                    line = {"type": "secret_objective_drawn", "player": player,
                            "objective": data.draw(st.sampled_from(free))}
                    drawn = [line]
                    if engine_after(TI4, lines).state.by_player[player].secrets_total() >= 3:  # a fourth: returned at once
                        drawn.append({"type": "secret_objective_returned", "player": player,
                                      "objective": line["objective"]})
                    assert violations_of_last(TI4, lines + drawn, len(drawn)) == [], drawn
                    lines += drawn
            if not engine_after(TI4, lines).state.by_player[player].home_control:
                lines.append({"type": "home_system_control", "player": player, "controls_all": True})
        reveal = offers(TI4, lines, None)["objective_revealed"]
        shown = {o for o, _, _ in engine_after(TI4, lines).state.revealed}
        for name in data.draw(st.lists(st.sampled_from([p for p in publics if p not in shown
                                                         and p not in reveal["objective"].values]), max_size=2)):
            wrong = {"type": "objective_revealed", "objective": name, "stage": reference.objective(name).stage}
            assert "LRR 34.13–34.14" in [r for r, _ in violations_of_last(TI4, lines + [wrong])], wrong
        if reveal["objective"].values:
            name = data.draw(st.sampled_from(reveal["objective"].values))
            line = {"type": "objective_revealed", "objective": name, "stage": reveal["stage"].value_for[name]}
            assert violations_of_last(TI4, lines + [line]) == [], line
            lines.append(line)
        if engine_after(TI4, lines).state.ended is not None:
            break


def test_ti4_due_follows_the_speaker_then_initiative_and_nobody_after_all_passed():
    assert due(TI4, [{"type": "round_started", "round": 1}, {"type": "phase_started", "phase": "strategy"}]) == "Bob"
    lines = round_to_status(1)
    assert due(TI4, lines[:3]) == "Cy"  # Bob picked: the next clockwise
    assert due(TI4, lines[:6]) == "Bob"  # the action phase: Leadership (1) first
    assert due(TI4, lines[:8]) == "Cy"  # Bob passed: Diplomacy (2)
    assert due(TI4, lines[:11]) == "Ann"  # Trade (5): her turn under way
    assert due(TI4, lines[:12]) is None  # everyone passed


def test_ti4_objectives_are_offered_by_phase_stage_and_home():
    setup = [{"type": "objective_revealed", "objective": STAGE_ONE[0], "stage": 1},
             {"type": "objective_revealed", "objective": STAGE_ONE[1], "stage": 1}]
    action = setup + round_to_status(1)[:6]
    # In the action phase no status-phase public objective is offered, and no reveal.
    assert offers(TI4, action, "Bob")["objective_scored"]["objective"].values == ()
    assert offers(TI4, action, None)["objective_revealed"]["objective"].values == ()
    status = setup + round_to_status(1)
    scoring = offers(TI4, status, "Ann")["objective_scored"]
    assert set(scoring["objective"].values) == set(STAGE_ONE[:2])
    assert scoring["points"].value_for[STAGE_ONE[0]] == 1 and scoring["kind"].value_for[STAGE_ONE[0]] == "public"
    one = status + [{"type": "objective_scored", "player": "Ann", "objective": STAGE_ONE[0], "kind": "public",
                     "points": 1}]
    assert violations_of_last(TI4, one) == []
    assert offers(TI4, one, "Ann")["objective_scored"]["objective"].values == ()  # one public per status phase
    homeless = status + [{"type": "home_system_control", "player": "Bob", "controls_all": False}]
    assert offers(TI4, homeless, "Bob")["objective_scored"]["objective"].values == ()  # LRR 34.16
    reveal = offers(TI4, status, None)["objective_revealed"]
    assert set(STAGE_ONE[2:]) <= set(reveal["objective"].values)  # stage II only once stage I is all revealed
    assert set(reveal["stage"].value_for.values()) == {1} and not set(STAGE_ONE[:2]) & set(reveal["objective"].values)
    revealed = status + [{"type": "objective_revealed", "objective": STAGE_ONE[2], "stage": 1}]
    assert offers(TI4, revealed, None)["objective_revealed"]["objective"].values == ()  # one per status phase


def test_ti4_stage_two_is_offered_once_every_stage_one_is_revealed():
    lines = [{"type": "objective_revealed", "objective": STAGE_ONE[0], "stage": 1},
             {"type": "objective_revealed", "objective": STAGE_ONE[1], "stage": 1}]
    for n, card in enumerate(STAGE_ONE[2:], 1):
        lines += round_to_status(n) + [{"type": "objective_revealed", "objective": card, "stage": 1}]
    assert violations_of_last(TI4, lines) == []
    reveal = offers(TI4, lines + round_to_status(4), None)["objective_revealed"]
    assert reveal["objective"].values and set(reveal["stage"].value_for.values()) == {2}


def test_ti4_trade_chooses_only_others_and_fills_in_the_replenish_and_initiative():
    lines = round_to_status(1)[:6] + [{"type": "turn_started", "player": "Bob"}]
    trade = offers(TI4, lines, "Ann")["trade_primary"]
    assert trade["chosen"].values == ("Bob", "Cy") and trade["replenished"].value == 3  # Arborec: 3 commodities
    picks = offers(TI4, round_to_status(1)[:3], "Cy")["strategy_card_picked"]
    assert "Leadership" not in picks["card"].offered and picks["initiative"].value_for["Warfare"] == 6


def test_ti4_vp_gained_asks_for_its_source():
    forms = {f.type: f for f in entry_forms(GAMES["twilight-imperium-4"].event_types, {}, ("Ann",))}
    assert "source" in [f.name for f in forms["vp_gained"].fields] + [f.name for f in forms["vp_lost"].fields]
    assert "source" not in [f.name for f in forms["objective_scored"].fields]  # a converter's provenance


def test_ti4_the_secret_deck_list_tells_nothing_of_other_hands():
    """The deck a seat draws from is the same whatever another player holds: it leaves out only the seat's own
    hand and what is public."""
    bob_holds = [{"type": "secret_objective_drawn", "player": "Bob", "objective": "Become the Gatekeeper"}]
    ann_holds = [{"type": "secret_objective_drawn", "player": "Ann", "objective": "Adapt New Strategies"},
                 {"type": "round_started", "round": 1}]  # a second secret is drawn after setup (LRR 34.20)
    alone = offers(TI4, ann_holds, "Ann")["secret_objective_drawn"]["objective"]
    beside_bob = offers(TI4, ann_holds + bob_holds, "Ann")["secret_objective_drawn"]["objective"]
    assert alone.open_list and alone.values == beside_bob.values
    assert "Become the Gatekeeper" in beside_bob.values and "Adapt New Strategies" not in beside_bob.values


def test_the_forms_document_carries_the_rules_answer():
    """``values``, ``by``, ``value``, ``follows`` and ``value_for`` reach the JSON the recorder serves."""
    lines = [{"type": "turn_started", "player": "Ann"}, land("Ann", "Volois")]
    forms = entry_forms(GAMES["merchant-of-venus"].event_types, offers(MOV, lines, "Ann"), ("Ann", "Bob"))
    bought = json.loads(msgspec.json.encode(next(f for f in forms if f.type == "goods_bought")))
    fields = {f["name"]: f for f in bought["fields"]}
    assert fields["good"]["values"] == ["Voil Silk", "Canned Traits"] and fields["good"]["by"] == "MOV-BUY"
    assert fields["culture"]["value"] == "Volois"
    assert fields["unit_price"]["follows"] == "good" and fields["unit_price"]["value_for"]["Voil Silk"] == 140


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_form_holds_every_field_its_line_requires(game):
    """A form the page cannot fill would make its line a dead end (TI4's ``vp_gained`` without its ``source``)."""
    forms = {f.type: {field.name for field in f.fields} for f in entry_forms(GAMES[game].event_types, {}, ())}
    for event_type in GAMES[game].event_types:
        info = msgspec.inspect.type_info(event_type)
        required = {f.encode_name for f in info.fields if f.required and not (
            isinstance(f.type, msgspec.inspect.LiteralType) and len(f.type.values) == 1)}
        assert required <= forms[event_type.__struct_config__.tag], event_type


def test_equipment_is_offered_where_a_port_sells_it_and_the_purse_pays():
    # At an asteroid nothing is sold (MOV-BUY); at a city Ann's c500 pays for any of the six pieces (the dearest,
    # the Combined Drive, costs c300); with c50 only the Nova Ball 20 (c20) is offered (MOV-PAY).
    at_rock = [{"type": "turn_started", "player": "Ann"}, {"type": "landed", "player": "Ann", "venue": "asteroid"}]
    assert offers(MOV, at_rock, "Ann")["equipment_bought"]["item"].values == ()
    at_city = [{"type": "turn_started", "player": "Ann"}, land("Ann", "Nillis")]
    assert len(offers(MOV, at_city, "Ann")["equipment_bought"]["item"].values) == 6
    poor = MOV | {"setup": {"starting_credits": 50, "holds": 2}}
    assert offers(poor, at_city, "Ann")["equipment_bought"]["item"].values == ("Nova Ball 20",)
