"""validate's engine keeps no events, only its findings (issue 24, item 4): it must find what the stored history holds.

``decide_findings`` decides a log with an engine built with ``found=``: each line folded without building its
stored event, every derived event folded and dropped, the findings kept. Its findings must be those ``decide``
stores, in the same order, on every example log and on logs broken on purpose; and the state it reaches must be
the one the stored history replays to. TI4's initiative order, kept between the lines that change it, must be the
one worked out again at every line.
"""

from __future__ import annotations

import pytest

from gamelog.domain.events import Correction, FindingRaised
from gamelog.domain.reader import LogReader
from gamelog.domain.replay import HistoryNeeded, decide, decide_findings, run, state_at
from gamelog.domain.games import GAMES
from tests.benchmarks import generate
from tests.conftest import EXAMPLES

EXAMPLE_LOGS = sorted(EXAMPLES.glob("*/*.jsonl"))


def _stored_findings(data: bytes) -> list[FindingRaised]:
    return [e for e in decide(LogReader(data)) if type(e) is FindingRaised]


@pytest.mark.parametrize("path", EXAMPLE_LOGS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_findings_of_an_example_are_those_its_history_stores(path):
    data = path.read_bytes()
    stored = _stored_findings(data)
    assert list(decide_findings(LogReader(data))) == stored


def test_a_broken_log_finds_the_same_findings_in_the_same_order():
    """A Merchant of Venus log: a sale nowhere of goods not carried (a token into the Bonus Cup, never drawn for), a turn
    never ended, a wrong claim."""
    header = {"type": "game", "game": "merchant-of-venus", "id": "broken", "players": ["Ann", "Bob"],
              "setup": {"starting_credits": 100}}
    lines = [header,
             {"type": "turn_started", "player": "Ann"},
             {"type": "goods_sold", "player": "Ann", "good": "Finest Dust", "culture": "Shenna", "resale_value": 50},
             {"type": "turn_started", "player": "Bob"},
             {"type": "score_claimed", "player": "Ann", "net_worth": 100}]
    data = generate.log_bytes(lines)
    found = list(decide_findings(LogReader(data)))
    assert [(f.line, f.rule) for f in found] == [
        (3, "MOV-SELL"), (3, "MOV-SELL"), (4, "MOV-TURN-END"), (4, "MOV-BONUS-CUP"), (5, "CLAIM")]
    assert found[0].message == "selling Finest Dust needs a surface city or spaceport, but the ship is at no recorded place"
    assert found[4].message == "Ann's net_worth is claimed as 100, but the log gives 150"
    assert found == _stored_findings(data)


def test_a_correction_asks_for_the_history_on_its_line_after_the_findings_before_it():
    lines = generate.uchronia_lines(3)
    lines.insert(3, {"type": "turn_ended", "player": "Bob"})  # line 4: Bob ends a turn that is Ann's
    lines.append({"type": "correction", "voids": 4, "reason": "not Bob's"})
    found, asked = [], None
    try:
        for f in decide_findings(LogReader(generate.log_bytes(lines))):
            found.append((f.line, f.rule))
    except HistoryNeeded as needed:
        asked = needed.line
    assert found == [(4, "UCH-TURN")]
    assert asked == len(lines)  # the correction's line (the header is line 1)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_state_an_engine_keeping_nothing_reaches_is_the_one_its_history_replays_to(game):
    path = next(p for p in EXAMPLE_LOGS if p.parent.name == game)
    data = path.read_bytes()
    reader = LogReader(data)
    engine = reader.rules.engine(reader.header, reader.header_line, history=False, found=[])
    for line, event in reader.events():
        if type(event) is Correction:
            break
        engine.record(line, event)
    outcome = run(data)
    replayed = state_at(outcome.header.game, outcome.events, line=engine.state.line)
    assert engine.state.line > 20
    assert engine.state.snapshot() == replayed.snapshot()
    assert engine.state.to_json() == replayed.to_json()


def test_an_engine_that_keeps_its_history_keeps_every_event():
    header = LogReader(generate.log_bytes(generate.uchronia_lines(1))).header
    with pytest.raises(ValueError, match="found= needs history=False"):
        GAMES["uchronia"].engine(header, 1, found=[])


def test_the_initiative_order_kept_is_the_one_worked_out_again_at_every_line():
    """Picks, a swap of cards, a new speaker and a new round each change the order; a restore drops it."""
    header = {"type": "game", "game": "twilight-imperium-4", "id": "t", "players": ["Ann", "Bob", "Cy"],
              "setup": {"factions": {"Ann": "The Emirates of Hacan", "Bob": "Federation of Sol", "Cy": "Arborec"}}}
    lines = [header,
             {"type": "round_started", "round": 1}, {"type": "phase_started", "phase": "strategy"},
             {"type": "strategy_card_picked", "player": "Ann", "card": "Trade", "initiative": 5},
             {"type": "strategy_card_picked", "player": "Bob", "card": "Leadership", "initiative": 1},
             {"type": "phase_started", "phase": "action"},
             {"type": "turn_started", "player": "Bob"}, {"type": "turn_ended", "player": "Bob"},
             {"type": "strategy_cards_swapped", "cards": ["Trade", "Leadership"]},
             {"type": "speaker_changed", "player": "Cy"},
             {"type": "round_started", "round": 2}, {"type": "phase_started", "phase": "strategy"},
             {"type": "strategy_card_picked", "player": "Cy", "card": "Warfare", "initiative": 6}]
    reader = LogReader(generate.log_bytes(lines))
    assert reader.errors == []
    engine = reader.rules.engine(reader.header, reader.header_line, history=False, found=[])
    orders, snapshots = [], []
    for line, event in reader.events():
        engine.record(line, event)
        state = engine.state
        kept = state.initiative_order()
        assert kept == state._initiative_order(), line
        orders.append(kept)
        snapshots.append(state.snapshot())
    # Ann (5) after Bob (1); the swap gives Ann Leadership; Cy speaks; round 2: only Cy has picked.
    assert orders[3] == ["Bob", "Ann", "Cy"]
    assert orders[7] == ["Ann", "Bob", "Cy"]
    assert orders[8] == ["Ann", "Bob", "Cy"]  # picks still lead: Cy, the speaker, has none
    assert orders[11] == ["Cy", "Ann", "Bob"]
    state.initiative_order().append("someone")  # a copy: the kept order is not changed through it
    assert state.initiative_order() == ["Cy", "Ann", "Bob"]
    state.restore(snapshots[3])  # a correction's restore: the order kept is dropped with the picks it came from
    assert state.initiative_order() == state._initiative_order() == ["Bob", "Ann", "Cy"]
