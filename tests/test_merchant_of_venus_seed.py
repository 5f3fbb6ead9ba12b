"""The seeds' worked examples, asserted as a person checks them by hand.

``examples/merchant-of-venus/seed-examples.jsonl`` plays the rulebook's
examples as one legal game (seeds 000 and 001).
"""

from __future__ import annotations

from gamelog.domain.events import FindingRaised, GameWon
from gamelog.domain.merchant_of_venus.events import CreditsChanged, IouSpent
from gamelog.domain.replay import run, state_at
from tests.conftest import EXAMPLES

LOG = EXAMPLES / "merchant-of-venus" / "seed-examples.jsonl"


def line_of(text: str) -> int:
    """The line number of the first log line containing ``text``."""
    for number, line in enumerate(LOG.read_text().splitlines(), 1):
        if text in line and not line.startswith("#"):
            return number
    raise AssertionError(text)


def events():
    return run(LOG.read_bytes()).events


def test_qossuth_pays_c10_after_the_c90_shenna_iou():
    line = line_of('"good": "Melf Pelts", "culture": "Shenna"')
    spent = [e for e in events() if isinstance(e, IouSpent)]
    assert [(e.line, e.culture, e.value, e.applied, e.credits) for e in spent] == [(line, "Shenna", 90, 90, 10)]
    paid = [e.delta for e in events() if isinstance(e, CreditsChanged) and e.line == line]
    assert paid == [-10]
    assert state_at("merchant-of-venus", events(), line=line).by_player["Qossuth"].credits == 90


def test_whynom_receives_c420_for_three_bionic_perfume_after_skipping_movement():
    line = line_of('"good": "Bionic Perfume", "culture": "Volois"')
    received = [e.delta for e in events() if isinstance(e, CreditsChanged) and e.line == line]
    assert received == [420]
    # Three Sell actions at a surface city on one turn are legal only because movement was skipped.
    assert [e for e in events() if isinstance(e, FindingRaised) and e.severity == "violation"] == []


def test_human_net_worth_is_c1752_at_the_end_of_his_first_turn():
    state = state_at("merchant-of-venus", events(), turn=4)
    human = state.by_player["Human"]
    assert state.active == "Human"
    assert human.credits == 1052
    assert sorted(d.value for d in human.deeds) == [100, 200, 200, 200]
    assert human.net_worth == 1752


def test_eeepeeep_fills_both_holds_exactly():
    line = line_of('"passenger": "Scientist", "destination"')
    eeepeeep = state_at("merchant-of-venus", events(), line=line).by_player["Eeepeeep"]
    assert eeepeeep.holds_used() == eeepeeep.holds == 2
    assert eeepeeep.credits == 200 - 10 - 80


def test_commissions_go_to_the_spaceport_owner():
    rows = [(e.player, e.delta) for e in events() if isinstance(e, CreditsChanged) and e.rule == "MOV-COMMISSION"]
    assert rows == [("Human", 11), ("Human", 11), ("Human", 20), ("Human", 20)]


def test_human_wins_with_c2214_at_the_end_of_his_third_turn():
    (won,) = [e for e in events() if isinstance(e, GameWon)]
    last_line = len(LOG.read_text().splitlines())
    assert (won.winner, won.rule, won.line) == ("Human", "MOV-WIN", last_line)
    final = state_at("merchant-of-venus", events())
    assert final.by_player["Human"].net_worth == 1052 + 22 + 400 + 40 + 700
    assert final.ended.winner == "Human"


def test_the_seeds_own_examples_give_no_finding_at_all():
    # Bionic Perfume sold to the Volois (line of Whynom's sale) is the seed's own example: the seed
    # outranks the 1988 data, which lists Humans instead of the Volois, so not even a warning.
    found = [(e.line, e.rule, e.severity) for e in events() if isinstance(e, FindingRaised)]
    assert found == []
