"""The result's agreement over generated tables (issue 39): after any sequence of notes, lines of play,
confirmations (each of the game as it stood when it was made), disputes and rulings at the end of a game, the result
stands as the issue says: settled when every player's last word is a confirmation made after the last line of play
and no dispute is open; disputed while one is; else open."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from gamelog.domain.events import FindingRaised
from gamelog.results import game_result
from gamelog.sources import read_log_file
from tests.conftest import EXAMPLES

BASE = (EXAMPLES / "uchronia" / "tiebreak-2p.jsonl").read_text()  # Ann and Bob; its last line of play is line 37
PLAYERS = ("Ann", "Bob")
steps = st.lists(st.tuples(st.sampled_from(["note", "play", "correct", "confirm", "confirm", "dispute", "rule"]),
                           st.sampled_from(PLAYERS)), max_size=10)


@settings(max_examples=40)
@given(steps)
def test_the_result_stands_as_the_lines_say(tmp_path_factory, plan):
    log = tmp_path_factory.mktemp("agreement") / "game.jsonl"
    lines = BASE.rstrip("\n").split("\n")
    last_play, words, disputes = 37, {}, {}  # the model: the last line of play; each player's last word; open disputes
    notes: list[int] = []
    for kind, player in plan:
        number = len(lines) + 1
        if kind == "note":
            line = {"type": "note", "text": "well played"}
            notes.append(number)
        elif kind == "correct":  # a correction is play: the lines after the note are decided again without it
            if not notes:
                continue
            line = {"type": "correction", "voids": notes.pop(), "reason": "said twice"}
            last_play = number
        elif kind == "play":
            line = {"type": "turn_started", "player": player}  # after the end: a line of play all the same
            last_play = number
        elif kind == "confirm":
            log.write_text("\n".join(lines) + "\n")
            shown = game_result(read_log_file(str(log)), player)
            assert shown.lines == last_play
            line = {"type": "result_confirmed", "player": player, "lines": shown.lines, "fingerprint": shown.fingerprint}
            words[player] = ("confirmed", number)
        elif kind == "dispute":
            line = {"type": "result_disputed", "player": player, "reason": "recount"}
            words[player] = ("disputed", number)
            disputes[number] = None
        else:
            open_ = [d for d, by in disputes.items() if by is None]
            if not open_:
                continue
            line = {"type": "ruling", "text": "the count stands", "resolves": open_[0]}
            disputes[open_[0]] = number
        lines.append(json.dumps(line))
    log.write_text("\n".join(lines) + "\n")
    read = read_log_file(str(log))
    # Every confirmation named the game as it stood: none breaks a rule, decided again by a correction or not.
    assert [e for e in read.events if isinstance(e, FindingRaised) and e.rule.startswith("RESULT-")] == []
    result = game_result(read)
    confirmed = [p for p in PLAYERS if words.get(p, ("", 0))[0] == "confirmed" and words[p][1] > last_play]
    expected = ("disputed" if any(by is None for by in disputes.values())
                else "settled" if len(confirmed) == len(PLAYERS) else "open")
    assert (result.state, result.lines, result.confirmed) == (expected, last_play, confirmed)
    assert [(d.line, d.resolved_by) for d in result.disputes] == sorted(disputes.items())
