"""Messages that say how to fix a log (issue 40, section 1): each mistake a person writing or converting a log makes,
and the one message ``gamelog validate`` gives for it, asserted whole, as msgspec's own tests assert theirs.

Each row is (mistake, the example log it is made in, how it is made, the message): the mistake is made in a copy of
an example log, ``validate`` reads it, and its input errors (stderr) must be exactly that one line,
``FILE:LINE: ... at $.field``, with exit 2. One line, not one per line: a file saved with CRLF, an object printed
over several lines, say it once.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from gamelog.cli.main import main
from gamelog.domain.events import is_iso_8601
from gamelog.domain.messages import did_you_mean, in_words
from tests.conftest import EXAMPLES, log_bytes

MOV = EXAMPLES / "merchant-of-venus" / "seed-examples.jsonl"  # its header on line 3, line 10 a goods_bought
TI = EXAMPLES / "twilight-imperium-4" / "complete-4p.jsonl"  # its header on line 1, Cy plays the Arborec


def replace(number: int, old: str, new: str):
    """The mistake: ``old`` written as ``new`` on line ``number``."""
    def made(lines: list[str]) -> list[str]:
        assert old in lines[number - 1], (number, old)
        return [*lines[:number - 1], lines[number - 1].replace(old, new, 1), *lines[number:]]
    return made


def spread(number: int):
    """The mistake: line ``number`` pretty-printed, one field a line (as ``json.dumps(indent=2)`` writes it)."""
    def made(lines: list[str]) -> list[str]:
        return [*lines[:number - 1], *json.dumps(json.loads(lines[number - 1]), indent=2).splitlines(), *lines[number:]]
    return made


def insert(number: int, text: str):
    """The mistake: ``text`` written as line ``number``."""
    return lambda lines: [*lines[:number - 1], text, *lines[number - 1:]]


def as_array(lines: list[str]) -> list[str]:
    """The mistake: the log's objects written as one JSON array (as a program dumping a list writes them)."""
    objects = [line for line in lines if line.startswith("{")]
    return ["[", ",\n".join(objects), "]"]


def crlf(lines: list[str]) -> list[str]:
    """The mistake: the file saved with Windows line endings."""
    return [line + "\r" for line in lines]


VENUES = "surface_city, neutral_spaceport, galactic_base, merchant_spaceport, open_spaceport, asteroid or other"

MISTAKES = [
    ("an unknown field one word off a known one", MOV, replace(10, '"unit_price"', '"price"'),
     "log.jsonl:10: unknown field 'price': did you mean `unit_price`? (a goods_bought line has player, good, culture "
     "and unit_price, and may have quantity, iou, dots, factory, at and source) at $.price"),
    ("an unknown field misspelt", MOV, replace(10, '"quantity"', '"quantitiy"'),
     "log.jsonl:10: unknown field 'quantitiy': did you mean `quantity`? (a goods_bought line has player, good, "
     "culture and unit_price, and may have quantity, iou, dots, factory, at and source) at $.quantitiy"),
    ("an unknown field like none", MOV, replace(7, '"venue"', '"colour": "red", "venue"'),
     "log.jsonl:7: unknown field 'colour' (a landed line has player and venue, and may have culture, owner, at and "
     "source) at $.colour"),
    ("an unknown field of the header's setup", MOV, replace(3, '"holds"', '"hold"'),
     "log.jsonl:3: unknown field 'hold': did you mean `holds`? (`setup` may have starting_credits, holds and goal) "
     "at $.setup.hold"),
    ("a value outside its set", MOV, replace(7, '"surface_city"', '"moon"'),
     f"log.jsonl:7: 'moon' is not a venue (a venue is {VENUES}) at $.venue"),
    ("a value of a set by one of its words", MOV, replace(7, '"surface_city"', '"city"'),
     f"log.jsonl:7: 'city' is not a venue: did you mean `surface_city`? (a venue is {VENUES}) at $.venue"),
    ("a value of a set misspelt", MOV, replace(7, '"surface_city"', '"surface-city"'),
     f"log.jsonl:7: 'surface-city' is not a venue: did you mean `surface_city`? (a venue is {VENUES}) at $.venue"),
    ("an unknown event type one edit away", MOV, replace(11, '"turn_ended"', '"turn_end"'),
     "log.jsonl:11: unknown event type 'turn_end': did you mean `turn_ended`? at $.type"),
    ("an unknown event type like none", MOV, replace(11, '"turn_ended"', '"teleported"'),
     "log.jsonl:11: unknown event type 'teleported' at $.type"),
    ("a TI4 faction misspelt", TI, replace(1, '"Arborec"', '"Arboreck"'),
     "log.jsonl:1: unknown faction 'Arboreck' (did you mean `Arborec`?) at $.setup.factions.Cy"),
    ("a TI4 faction the game does not have", TI, replace(1, '"Arborec"', '"Zorgons"'),
     "log.jsonl:1: unknown faction 'Zorgons': name one of the game's factions, or give Cy's commodity value in "
     "`setup.commodities` at $.setup.factions.Cy"),
    ("one object pretty-printed over several lines", MOV, spread(10),
     "log.jsonl:10: one JSON object printed over lines 10-18: a log holds one JSON object per line; join them into "
     "one at $"),
    ("a JSON array file", MOV, as_array,
     "log.jsonl:1: not a gamelog log: it is a JSON array, and a log is JSON Lines: one JSON object per line (the "
     "header first), not an array of them at $"),
    ("a // comment", MOV, insert(4, "// round 1"), "log.jsonl:4: a comment starts with `#` in a log, not `//` at $"),
    ("a // comment before the header", MOV, insert(1, "// the seed examples"),
     "log.jsonl:1: a comment starts with `#` in a log, not `//` at $"),
    ("a comment after the object", MOV, replace(5, "}", "}  // Qossuth starts"),
     "log.jsonl:5: a comment after the object: in a log a comment is a line of its own, starting with `#`, not text "
     "after `//` at $"),
    ("single quotes", MOV, replace(5, '{"type": "turn_started", "player": "Qossuth"}',
                                   "{'type': 'turn_started', 'player': 'Qossuth'}"),
     "log.jsonl:5: single quotes: JSON needs straight double quotes (\") around keys and strings at $"),
    ("curly quotes", MOV, replace(5, '{"type": "turn_started", "player": "Qossuth"}',
                                  "{\u201ctype\u201d: \u201cturn_started\u201d, \u201cplayer\u201d: \u201cQossuth\u201d}"),
     "log.jsonl:5: curly quotes (\u201c \u201d \u2018 \u2019): JSON needs straight double quotes (\") around keys and "
     "strings at $"),
    ("a file saved with CRLF", MOV, crlf,
     "log.jsonl:1: the lines end with CRLF (Windows line endings), from this one on: a log's lines end with LF; save "
     "the file with LF line endings (your editor's line-ending setting, or dos2unix FILE) at $"),
    ("a header's date written the local way", MOV, replace(3, '"players"', '"at": "12/03/2025", "players"'),
     "log.jsonl:3: '12/03/2025' is no ISO 8601 date: the header's `at` is written 2025-03-12, or "
     "2025-03-12T19:30:00Z with the time at $.at"),
    ("a header's date in words", MOV, replace(3, '"players"', '"at": "yesterday evening", "players"'),
     "log.jsonl:3: 'yesterday evening' is no ISO 8601 date: the header's `at` is written 2025-03-12, or "
     "2025-03-12T19:30:00Z with the time at $.at"),
]


@pytest.mark.parametrize("mistake, example, make, message", MISTAKES, ids=[row[0] for row in MISTAKES])
def test_a_mistake_gets_one_message_that_says_the_fix(tmp_path, monkeypatch, mistake, example, make, message):
    lines = example.read_text(encoding="utf-8").splitlines()
    (tmp_path / "log.jsonl").write_bytes(("\n".join(make(lines)) + "\n").encode())
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["validate", "log.jsonl"])
    assert result.exit_code == 2, result.output
    errors = [line for line in result.stderr.splitlines() if not line.startswith("log.jsonl: ")]
    assert errors == [message]


def test_the_header_date_stats_compares_is_taken_in_each_iso_form_and_no_other():
    assert [is_iso_8601(at) for at in ("2025-03-12", "2025-03-12T19:30:00Z", "2025-03-12 19:30+01:00",
                                       "2026-05-01T19:42:00.123456")] == [True] * 4
    assert [is_iso_8601(at) for at in ("12/03/2025", "yesterday evening", "20250312", "2025-13-01", "2025-03-12x",
                                       "")] == [False] * 6


def test_a_suggestion_is_made_only_when_one_known_name_is_close():
    assert did_you_mean("turn_end", ["turn_started", "turn_ended"]) == "did you mean `turn_ended`?"
    assert did_you_mean("ARBOREC", ["Arborec", "Winnu"]) == "did you mean `Arborec`?"  # case aside
    assert did_you_mean("price", ["unit_price", "resale_value"]) == "did you mean `unit_price`?"  # a word of it
    assert did_you_mean("price", ["unit_price", "price_paid"]) is None  # a word of two: which is not said
    assert did_you_mean("colour", ["good", "culture", "unit_price"]) is None
    assert did_you_mean("turn_ended", ["turn_ended"]) is None
    assert [in_words([]), in_words(["a"]), in_words(["a", "b"], "or"), in_words(["a", "b", "c"])] == [
        "", "a", "a or b", "a, b and c"]


def test_ending_a_turn_when_none_has_started_is_said_in_a_whole_sentence(tmp_path):
    header = {"game": "merchant-of-venus", "id": "t", "players": ["Ann", "Bob"]}
    (tmp_path / "log.jsonl").write_bytes(log_bytes(header, {"type": "turn_ended", "player": "Ann"}))
    result = CliRunner().invoke(main, ["validate", str(tmp_path / "log.jsonl")])
    assert f"{tmp_path / 'log.jsonl'}:2: violation MOV-TURN-END [Ann]: Ann ends a turn, but no turn has started" \
        in result.stdout.splitlines()


# -- a fix names what the reader gives: the command's option, or Python's argument ------------------------------

EXPORT = EXAMPLES / "twilight-imperium-4" / "ti-assistant-small.json"

FIXES = [
    ("a round asked of a game without rounds", lambda game: game.state(round=1),
     ["replay", "{MOV}", "--round", "1"], "merchant-of-venus is not played in rounds; give {}",
     ("turn= or line=", "--turn or --line")),
    ("a report by round of a game without rounds", lambda game: game.report(by="round"),
     ["report", "{MOV}", "--by", "round"], "merchant-of-venus is not played in rounds; report it {}",
     ('by="turn"', "--by turn")),
]


@pytest.mark.parametrize("asked, in_python, command, said, spelt", FIXES, ids=[row[0] for row in FIXES])
def test_a_fix_names_pythons_argument_to_a_program_and_the_option_to_the_command(asked, in_python, command, said,
                                                                                  spelt):
    import gamelog

    python, flag = spelt
    with pytest.raises(gamelog.NotPlayedInRounds) as raised:
        in_python(gamelog.read_log(MOV))
    assert str(raised.value) == f"{MOV}: {said.format(python)}"
    result = CliRunner().invoke(main, [a.format(MOV=MOV) for a in command])
    assert (result.exit_code, result.stderr) == (2, f"Error: {MOV}: {said.format(flag)}\n")


def test_an_export_read_as_a_log_is_told_source_in_python_and_from_on_the_command(tmp_path):
    import gamelog

    looks = f"{EXPORT}:1: not a gamelog log: its first line is not a JSON object; it looks like a ti-assistant export"
    with pytest.raises(gamelog.LogInvalid) as read:
        gamelog.read_log(EXPORT)
    assert read.value.lines() == [f'{looks}: give source="ti-assistant" at $']
    with gamelog.open_store(str(tmp_path / "s.sqlite")) as store, pytest.raises(gamelog.LogInvalid) as imported:
        store.import_log(EXPORT)
    assert imported.value.lines() == [f'{looks}: give source="ti-assistant" at $']
    result = CliRunner().invoke(main, ["validate", str(EXPORT)])
    assert result.exit_code == 2 and result.stderr.splitlines()[0] == f"{looks}: give --from ti-assistant at $"
    assert gamelog.read_log(EXPORT, source="ti-assistant").kind == "twilight-imperium-4"  # the fix, given, works
