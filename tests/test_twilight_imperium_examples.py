"""The Twilight Imperium 4 examples: a complete legal game, and disputed logs annotated line by line."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from gamelog.domain.replay import run, state_at

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "twilight-imperium-4"
GAME = "twilight-imperium-4"
_ANNOTATION = re.compile(r"^# violation (.+?): ")

# (VP, trade goods, commodities) of every player at the end of every round, computed by hand
# from the log (Ann: Hacan 6 commodities, Bob: Sol 4, Cy: Arborec 3, Dee: Letnev 2).
COMPLETE_BY_ROUND = {
    # Round 1: Ann's Trade (+3 TG, 6 commodities), gives 2 to Dee, spends 2; Bob free, Cy and Dee pay a token.
    1: {"Ann": (1, 1, 4), "Bob": (1, 0, 4), "Cy": (1, 0, 3), "Dee": (0, 2, 2)},
    # Round 2: Bob's Trade at his maximum; Ann replenishes to 6; Cy gives 3 to Bob; Bob spends 1.
    2: {"Ann": (3, 1, 6), "Bob": (2, 5, 4), "Cy": (3, 0, 0), "Dee": (2, 2, 2)},
    # Round 3: Ann's Trade (+3 TG); Cy back to 3; Dee gains 2 TG.
    3: {"Ann": (4, 4, 6), "Bob": (4, 5, 4), "Cy": (4, 0, 3), "Dee": (4, 4, 2)},
    # Round 4: Ann gives 3 to Cy, then Bob's Trade (+3 TG) refills her; Bob spends 5 for Negotiate Trade Routes.
    4: {"Ann": (6, 4, 6), "Bob": (6, 3, 4), "Cy": (5, 3, 3), "Dee": (5, 4, 2)},
    # Round 5: Ann's Trade (+3 TG), she spends 5 for Negotiate Trade Routes; Bob's Imperial point.
    5: {"Ann": (7, 2, 6), "Bob": (8, 3, 4), "Cy": (6, 3, 3), "Dee": (6, 4, 2)},
    # Round 6: Bob's Trade (+3 TG); Bob scores Conquer the Weak (2 VP) and reaches 10.
    6: {"Ann": (7, 2, 6), "Bob": (10, 6, 4), "Cy": (6, 3, 3), "Dee": (6, 4, 2)},
}


def _outcome(name: str):
    outcome = run((EXAMPLES / name).read_bytes())
    assert outcome.errors == []
    return outcome


def _violations(events) -> Counter:
    return Counter((e.line, e.rule) for e in events
                   if type(e).__name__ == "FindingRaised" and e.severity == "violation")


def _annotated(path: Path) -> Counter:
    """(line, rule) for each `# violation RULE: why` comment, on the next event line."""
    expected, pending = Counter(), []
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        stripped = text.strip()
        if m := _ANNOTATION.match(stripped):
            pending.append(m.group(1))
        elif stripped and not stripped.startswith("#"):
            expected.update((number, rule) for rule in pending)
            pending = []
    return expected


def test_complete_game_is_legal_and_bob_wins():
    outcome = _outcome("complete-4p.jsonl")
    assert _violations(outcome.events) == Counter()
    state = outcome.state
    assert state.ended is not None and state.ended.winner == "Bob" and state.ended.rule == "TI4-VP-GOAL"
    assert state.to_json()["players"]["Bob"]["vp"] == 10


@pytest.mark.parametrize("round_", sorted(COMPLETE_BY_ROUND))
def test_complete_game_counts_at_the_end_of_each_round(round_):
    outcome = _outcome("complete-4p.jsonl")
    state = state_at(GAME, outcome.events, round=round_)
    got = {p: (s.vp, s.trade_goods, s.commodities) for p, s in state.by_player.items()}
    assert got == COMPLETE_BY_ROUND[round_]


def test_complete_game_plays_trade_every_round():
    lines = (EXAMPLES / "complete-4p.jsonl").read_text(encoding="utf-8").splitlines()
    rounds = sum('"round_started"' in line for line in lines)
    assert sum('"trade_primary"' in line for line in lines) == rounds == 6


@pytest.mark.parametrize("name", ["disputed.jsonl", "disputed-no-objectives-left.jsonl"])
def test_disputed_examples_yield_exactly_the_annotated_violations(name):
    outcome = _outcome(name)
    assert _violations(outcome.events) == _annotated(EXAMPLES / name)


def test_disputed_examples_cover_every_rule():
    rules = {rule for name in ("disputed.jsonl", "disputed-no-objectives-left.jsonl")
             for _, rule in _annotated(EXAMPLES / name)}
    assert rules == {
        "LRR 90.1–90.4", "LRR 90.5", "LRR 90.6", "LRR 90 comment 1", "LRR 34.2–34.4", "LRR 34.5", "LRR 34.6", "LRR 34.7",
        "LRR 34.8", "LRR 34.10", "LRR 34.12", "LRR 34.13–34.14", "LRR 34.15", "LRR 34.16", "LRR 34.17", "LRR 34.19",
        "LRR 34.20–34.21", "TI4-VP-GOAL", "TI4-PAY", "TI4-TURN",
    }


def test_disputed_vp_are_the_cards_and_a_second_score_gives_none():
    outcome = _outcome("disputed.jsonl")
    vp = [(e.line, e.player, e.delta) for e in outcome.events if type(e).__name__ == "VpChanged"]
    # Line 54: Become the Gatekeeper, logged as 2 VP, counts its card's 1 (LRR 34.18).
    assert (54, "Ann", 1) in vp
    # Line 83: Bob's Diversify Research on his Imperial action; line 96, the same again: no VP (LRR 34.8).
    assert (83, "Bob", 1) in vp and not [v for v in vp if v[0] == 96]
    # Ann: Corner the Market, Expand Borders, Become the Gatekeeper, Erect a Monument, Negotiate Trade Routes (5),
    # then 5 from agendas at line 105: 10, the goal. Bob: Forge an Alliance, Diversify Research, the Custodians
    # token after the end: 3. Cy: Erect a Monument, Destroy Their Greatest Ship, Spark a Rebellion: 3.
    assert {p: s.vp for p, s in outcome.state.by_player.items()} == {"Ann": 10, "Bob": 3, "Cy": 3}
    assert (outcome.state.ended.line, outcome.state.ended.winner) == (105, "Ann")
    # Line 104: Ann's claim of 5 VP, the cards' total, is right (no CLAIM).
    assert not [e for e in outcome.events if type(e).__name__ == "FindingRaised" and e.rule == "CLAIM"]


def test_the_complete_game_records_each_imperial_action():
    lines = (EXAMPLES / "complete-4p.jsonl").read_text(encoding="utf-8").splitlines()
    imperial = [n for n, line in enumerate(lines, start=1) if '"strategic_action"' in line]
    # Dee (round 2), Bob (round 3), Ann (round 4) score a public objective on it; Bob (round 5) gains the Imperial point.
    assert imperial == [79, 124, 171, 222]
    assert all('"objective_scored"' in lines[n] and '"kind": "public"' in lines[n] for n in imperial[:3])


def test_the_last_objective_ends_the_game_by_initiative_tie_break():
    state = _outcome("disputed-no-objectives-left.jsonl").state
    assert state.ended.rule == "LRR 34.15"
    assert state.ended.winner == "Ann"
