"""The state in a player's words (each game's ``phrases.STATE``), and what Twilight Imperium adds for it.

Values are checked by hand against the logs: the examples', a TI Assistant export converted, small logs here.
"""

from __future__ import annotations

import json

import msgspec
import pytest

from gamelog.domain.games import GAMES
from gamelog.domain.phrases import NOT_RECORDED, PLAIN_STATE, plain_value, state_words
from gamelog.domain.replay import run, state_at
from gamelog.domain.twilight_imperium.converters import convert
from gamelog.domain.twilight_imperium.converters.ti_assistant_notes import sentence
from gamelog.projections.reports.charts import positions_x
from tests.conftest import EXAMPLES


def words_at(log: bytes, line: int) -> dict:
    outcome = run(log)
    assert outcome.errors == []
    rules = GAMES[outcome.header.game]
    document = msgspec.to_builtins(state_at(outcome.header.game, outcome.events, line=line).document())
    document.pop("forum")
    return state_words(rules.state_phrases, document, rules.measures.board.title if rules.measures.board else None)


def converted_small() -> bytes:
    data = json.loads((EXAMPLES / "twilight-imperium-4" / "ti-assistant-small.json").read_text(encoding="utf-8"))
    return "".join(json.dumps(line) + "\n" for line in convert("ti-assistant", data).lines).encode()


def test_no_raw_key_or_snake_case_value_is_shown():
    for path in sorted(EXAMPLES.glob("*/*.jsonl")):
        log = path.read_bytes()
        last = run(log).state.line
        words = words_at(log, last)
        texts = [*words["game"], *words["game"].values(), words["when"]]
        texts += [t for rows in words["players"].values() for pair in rows.items() for t in pair]
        assert not [t for t in texts if "_" in t], path


def test_a_ti_assistant_game_says_what_its_source_does_not_record_and_where_the_vp_come_from():
    words = words_at(converted_small(), 41)
    assert words["when"] == "round 2"  # the round has begun; no turn yet
    bob, cat = words["players"]["Bob"], words["players"]["Cat"]
    # Bob: Adapt New Strategies (secret, line 35) and the Custodians token (line 25); Cat: +1 and -1 of Support.
    assert bob["VP"] == "2 (secrets 1, other 1)" and cat["VP"] == "0"
    assert bob["trade goods"] == bob["command tokens"] == bob["secret objectives held"] == NOT_RECORDED
    # Commodities start at 0; Cat followed Ann's Trade (line 21) and replenished, Bob skipped it (line 22).
    assert bob["commodities"] == "0 of 4" and cat["commodities"] == "2 of 2" and bob["faction"] == "Federation of Sol"
    assert words["game"]["not recorded by the log's source"] == \
        "command tokens, secondary order, secret objectives, trade chosen, trade goods"
    # Turns are numbered within their round: line 21 is in round 1's third turn (Bob 11, Cat 15, Ann 19).
    assert words_at(converted_small(), 21)["when"] == "round 1, turn 3 of the round"


def test_a_ti4_document_carries_the_table_colours_the_vp_by_source_and_the_turn_of_the_round():
    outcome = run(converted_small())
    document = msgspec.to_builtins(outcome.state.document())
    assert {p: v["color"] for p, v in document["players"].items()} == {"Ann": "Yellow", "Bob": "Blue", "Cat": "Red"}
    assert document["players"]["Ann"]["vp_by_source"] == {"stage I": 1, "stage II": 0, "secrets": 0, "other": 0}
    assert document["turn_of_round"] is None and document["round"] == 2
    phrases = GAMES["twilight-imperium-4"].state_phrases
    assert [phrases.colour(document, p) for p in ("Ann", "Bob", "Cat")] == ["#b58900", "#1f5fbf", "#d62728"]
    # A log whose header names no colour and records everything: neither field is in its document.
    plain = msgspec.to_builtins(run((EXAMPLES / "twilight-imperium-4" / "complete-4p.jsonl").read_bytes()).state.document())
    assert "color" not in plain["players"]["Ann"] and "not_recorded" not in plain
    assert phrases.colour(plain, "Ann") is None


def test_merchant_of_venus_and_uchronia_in_their_players_words():
    mov = words_at((EXAMPLES / "merchant-of-venus" / "seed-examples.jsonl").read_bytes(), 41)["players"]
    assert mov["Qossuth"]["where"] == "the merchant spaceport of Zum (owned by Human)"
    assert mov["Whynom"]["cargo"] == "3 Bionic Perfume (good, 1 dot)" and mov["Human"]["credits"] == "c1074"
    uch = words_at((EXAMPLES / "uchronia" / "complete-3p.jsonl").read_bytes(), 104)
    assert uch["game"]["threshold"] == "18 VP, reached by Ann at line 104 (turn 13) with 18 VP"
    assert uch["players"]["Bob"]["monopolies"] == "clay (2 operations), marble (3 operations)"
    assert uch["players"]["Bob"]["under construction"] == "Circus (0 resources placed)"


def test_a_game_without_its_own_words_keeps_the_plain_ones():
    assert plain_value({"kind": "merchant_spaceport", "net_worth": 2, "ok": True, "none": []}) == \
        "kind merchant spaceport, net worth 2, ok yes, none \u2014"
    document = {"line": 3, "turn": 2, "round": None, "finished": True, "winner": "Ann", "players": {"Ann": {"coin_flips": 2}},
                "board": None, "voided_lines": [], "end": {"line": 3, "rule": "X", "reason": "done"}, "side_up": "heads"}
    assert state_words(PLAIN_STATE, document) == {
        "when": "turn 2", "players": {"Ann": {"coin flips": "2"}},
        "game": {"side up": "heads", "result": "Ann won at line 3 (done)", "voided lines": "\u2014"}}


def test_findings_quote_no_count_the_source_does_not_record():
    header = {"type": "game", "game": "twilight-imperium-4", "id": "t", "players": ["Ann", "Bob"],
              "setup": {"factions": {"Ann": "Hacan", "Bob": "Sol"}, "strategy_tokens": 0},
              "not_recorded": ["command_tokens"]}
    lines = [header, {"type": "round_started", "round": 1}, {"type": "phase_started", "phase": "strategy"},
             {"type": "strategy_card_picked", "player": "Ann", "card": "Trade", "initiative": 5},
             {"type": "strategy_card_picked", "player": "Bob", "card": "Leadership", "initiative": 1},
             {"type": "phase_started", "phase": "action"}, {"type": "turn_started", "player": "Bob"},
             {"type": "turn_ended", "player": "Bob"}, {"type": "turn_started", "player": "Ann"},
             {"type": "trade_primary", "player": "Ann"}, {"type": "trade_secondary", "player": "Bob"},
             {"type": "trade_secondary", "player": "Bob"}]
    outcome = run("".join(json.dumps(l) + "\n" for l in lines).encode())
    paid = [e.message for e in outcome.events if type(e).__name__ == "FindingRaised" and e.rule == "TI4-PAY"]
    assert paid and all(m == "a strategy token for the Trade secondary: 1 needed, and what was held is not known "
                              "(the log's source does not record command tokens)" for m in paid)
    assert not any(" held" in m.replace("what was held", "") for m in paid)


@pytest.mark.parametrize("kind, event, strategic, said", [
    ("MARK_SECONDARY", {"faction": "Kortali Tribunal", "state": "SKIPPED"}, "Politics", "Kortali Tribunal skips the Politics secondary"),
    ("MARK_SECONDARY", {"faction": "Xxcha Kingdom", "state": "DONE"}, None, "Xxcha Kingdom follows a secondary"),
    ("CAST_VOTES", {"extraVotes": 0, "faction": "Li-Zho Dynasty", "target": "Xxcha Kingdom", "votes": 7}, None,
     "Li-Zho Dynasty casts 7 votes for Xxcha Kingdom"),
    ("CAST_VOTES", {"extraVotes": 0, "faction": "Nivyn Star Kings", "target": "Abstain", "votes": 0}, None,
     "Nivyn Star Kings abstains"),
    ("PLAY_COMPONENT", {"factionId": "Xxcha Kingdom", "name": "Ggrocuto Rinn"}, None, "Xxcha Kingdom uses Ggrocuto Rinn"),
    ("UPDATE_LEADER_STATE", {"leaderId": "Queen Lorena", "prevState": "locked", "state": "readied"}, None,
     "Queen Lorena goes from locked to readied"),
    ("COMMIT_TO_EXPEDITION", {"expedition": "tradeGoods", "factionId": "Naaz-Rokha Alliance"}, None,
     "Naaz-Rokha Alliance commits to the trade goods expedition"),
    ("SOMETHING_NEW", {"faction": "Sol", "x": 1, "deep": {"a": 1}}, None, "TI Assistant records something new (deep …, faction Sol, x 1)"),
])
def test_ti_assistant_entries_the_log_does_not_model_read_as_sentences(kind, event, strategic, said):
    assert sentence(kind, event, "", strategic) == said
    assert sentence(kind, event, "why", strategic) == f"{said} (kept as a note: why)"


def test_a_chart_by_round_gives_each_round_an_equal_band_its_lines_spread_across_it():
    # Positions 0 (the header) to 6: period 0 holds position 1, round 1 positions 2-4, round 2 positions 5-6.
    assert positions_x(7, 10, 300, [1, 2, 5]) == pytest.approx([10, 110, 110 + 100 / 3, 110 + 200 / 3, 210, 260, 310])
    assert positions_x(5, 0, 100, None) == [0, 25, 50, 75, 100]
