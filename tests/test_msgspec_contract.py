"""msgspec's error messages still read as ``domain/msgspec_wording.py`` reads them.

The reader tells a log's errors in gamelog's words by taking msgspec's
messages apart (msgspec gives no field or path apart from the text), and every
reading of their wording is in ``domain/msgspec_wording.py``. Here msgspec is
fed an input for each wording read there, shaped as gamelog's own types are
(tagged by ``type``, unknown fields forbidden); when an upgrade rewords a
message, a test fails naming the installed msgspec version, the input and the
message it got, before the reader's own tests fail less clearly. The checks:

* each message is read as the kind gamelog expects, with its path, field and echo;
* each path read can be followed in the input (or is, as expected, one that cannot);
* no other module of gamelog holds msgspec's words;
* what ``domain.strict_json``'s cheap check assumes of msgspec's encoder still holds.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec
import pytest

from gamelog.domain import msgspec_wording as wording
from gamelog.domain.msgspec_wording import MsgspecMessage, path_steps, read_message
from gamelog.domain.strict_json import may_repeat_a_key
from tests.conftest import ROOT


class Inner(msgspec.Struct, forbid_unknown_fields=True):
    y: int


class Placed(msgspec.Struct, tag_field="type", tag="placed", forbid_unknown_fields=True):
    x: int
    colour: Literal["red", "blue"] = "red"
    colours: list[Literal["red", "blue"]] = []
    inner: Inner | None = None
    counts: dict[str, int] = {}


class Moved(msgspec.Struct, tag_field="type", tag="moved", forbid_unknown_fields=True):
    to: str


class Header(msgspec.Struct, tag_field="type", tag="game"):
    players: list[str]

    def __post_init__(self) -> None:
        if not self.players:  # as domain.events.GameHeader places its message at a path
            raise ValueError("a game needs at least one player - at `$.players`")


EVENT = msgspec.json.Decoder(Placed | Moved)
HEADER = msgspec.json.Decoder(Header)

# (what gamelog reads, decoder, input, the reading expected, the path's steps: None when it names no key)
CASES = [
    ("a missing field", EVENT, b'{"type": "placed"}',
     MsgspecMessage(wording.MISSING_FIELD, "Object missing required field `x`", "$", field="x"), []),
    ("a missing field, nested", EVENT, b'{"type": "placed", "x": 1, "inner": {}}',
     MsgspecMessage(wording.MISSING_FIELD, "Object missing required field `y`", "$.inner", field="y"), ["inner"]),
    ("an unknown field", EVENT, b'{"type": "placed", "x": 1, "z": 2}',
     MsgspecMessage(wording.UNKNOWN_FIELD, "Object contains unknown field `z`", "$", field="z"), []),
    ("an unknown field, nested, not a plain name", EVENT, b'{"type": "placed", "x": 1, "inner": {"y": 1, "a b": 2}}',
     MsgspecMessage(wording.UNKNOWN_FIELD, "Object contains unknown field `a b`", "$.inner", field="a b"), ["inner"]),
    ("a value no Literal has", EVENT, b'{"type": "placed", "x": 1, "colour": "moon"}',
     MsgspecMessage(wording.BAD_ENUM, "Invalid enum value 'moon'", "$.colour", echo="Invalid enum value "), ["colour"]),
    ("a value no Literal has, in an array", EVENT, b'{"type": "placed", "x": 1, "colours": ["red", "moon"]}',
     MsgspecMessage(wording.BAD_ENUM, "Invalid enum value 'moon'", "$.colours[1]", echo="Invalid enum value "),
     ["colours", 1]),
    ("a tag no class has", EVENT, b'{"type": "jumped"}',
     MsgspecMessage(wording.BAD_TAG, "Invalid value 'jumped'", "$.type", echo="Invalid value "), ["type"]),
    ("a wrong type at a path", EVENT, b'{"type": "placed", "x": "one"}',
     MsgspecMessage(wording.OTHER, "Expected `int`, got `str`", "$.x"), ["x"]),
    ("a wrong type in a dict's value", EVENT, b'{"type": "placed", "x": 1, "counts": {"k": "v"}}',
     MsgspecMessage(wording.OTHER, "Expected `int`, got `str`", "$.counts[...]"), None),
    ("a header's own check, placed at a path", HEADER, b'{"type": "game", "players": []}',
     MsgspecMessage(wording.OTHER, "a game needs at least one player", "$.players"), ["players"]),
    ("bytes that are not UTF-8", EVENT, b'{"type": "\xff"}',
     MsgspecMessage(wording.NOT_UTF8, "Invalid UTF-8 encoded string"), []),
]


def _failure(name: str, raw: bytes, said: str, what: str) -> str:
    return (f"msgspec {msgspec.__version__} no longer words {name} as domain/msgspec_wording.py reads it: "
            f"for {raw!r} it said {said!r}; {what}")


def _message(decoder: Any, raw: bytes, name: str) -> msgspec.MsgspecError:
    try:
        decoder.decode(raw)
    except msgspec.MsgspecError as exc:
        return exc
    pytest.fail(f"msgspec {msgspec.__version__} decodes {raw!r} without an error; gamelog expects {name}")


@pytest.mark.parametrize(("name", "decoder", "raw", "expected", "steps"), CASES, ids=[case[0] for case in CASES])
def test_each_message_gamelog_reads_reads_as_expected(name, decoder, raw, expected, steps):
    exc = _message(decoder, raw, name)
    said = read_message(exc)
    assert said == expected, _failure(name, raw, str(exc), f"read as {said}, not {expected}")
    assert path_steps(said.path) == steps, _failure(name, raw, str(exc), f"its path's steps are {path_steps(said.path)}, not {steps}")


def test_malformed_json_is_read_without_msgspecs_prefix():
    raw = b'{"type": "placed", "x" 1}'
    exc = _message(EVENT, raw, "malformed JSON")
    said = read_message(exc)
    assert said.kind == wording.MALFORMED, _failure("malformed JSON", raw, str(exc), f"read as {said.kind}")
    assert "JSON is malformed: " + said.text == str(exc), _failure(
        "malformed JSON", raw, str(exc), "it no longer starts with 'JSON is malformed: ', which the reader drops")


def test_no_other_module_reads_msgspecs_words():
    """A reading of msgspec's wording outside its module would escape the checks above."""
    holders = sorted(
        f"{path.relative_to(ROOT)}: {word!r}"
        for folder in ("domain", "projections", "cli")
        for path in (ROOT / folder).rglob("*.py")
        if path != ROOT / "domain" / "msgspec_wording.py"
        for word in wording.WORDS
        if word in path.read_text(encoding="utf-8"))
    assert holders == [], "msgspec's words outside domain/msgspec_wording.py: " + "; ".join(holders)


def test_the_encoder_writes_a_strings_colon_as_itself():
    """``strict_json.may_repeat_a_key`` counts colons: an escaped one would send every such line to the slow search."""
    line = b'{"type": "moved", "to": "a:b"}'
    encoded = msgspec.json.encode(EVENT.decode(line))
    assert not may_repeat_a_key(line, encoded), (
        f"msgspec {msgspec.__version__} encodes {line!r} as {encoded!r}: its colons no longer match the line's, "
        "so domain/strict_json.py's cheap count clears no line")
