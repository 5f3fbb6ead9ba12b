"""Reading logs: every malformed line reported with its exact message, line and path."""

from __future__ import annotations

import io
import json

import msgspec
import pytest

import gamelog.domain.reader
from gamelog.domain.errors import LogInvalid
from gamelog.domain.games import GAMES
from gamelog.domain.messages import input_error, quote
from gamelog.domain.reader import LogReader
from gamelog.domain.strict_json import may_repeat_a_key, repeated_key
from gamelog.projections.importing.importer import import_log
from gamelog.projections.reports.schemas import log_schema
from gamelog.projections.store.application import GameStore
from tests.conftest import log_bytes

HEADER = {"game": "merchant-of-venus", "id": "r", "players": ["Ann", "Bob"]}
UCHRONIA = {"game": "uchronia", "id": "u", "players": ["Ann", "Bob"]}
TURN = '{"type": "turn_started", "player": "Ann"}'
NESTED_1000 = "[" * 1000 + "]" * 1000


GOODS_BOUGHT_FIELDS = ("(a goods_bought line has player, good, culture and unit_price, and may have quantity, iou, "
                       "dots, factory, at and source)")
VENUES = ("(a venue is surface_city, neutral_spaceport, galactic_base, merchant_spaceport, open_spaceport, asteroid "
          "or other)")


def errors_of(data: bytes) -> list[tuple[int, str, str]]:
    reader = LogReader(data)
    list(reader.events())
    return [(e.line, e.message, e.path) for e in reader.errors]


@pytest.mark.parametrize(
    "line, message, path",
    [
        ('{"type": "goods_bought", "player": "Ann", "good": "Melf Pelts", "culture": "Shenna", "unit_price": "50"}',
         "Expected `int`, got `str`", "$.unit_price"),
        ('{"type": "goods_bought", "player": "Ann", "good": "Melf Pelts", "culture": "Shenna"}',
         "missing required field", "$.unit_price"),
        ('{"type": "goods_bought", "player": "Ann", "good": "Melf Pelts", "culture": "Shenna", "unit_price": 50, "colour": 1}',
         "unknown field 'colour' " + GOODS_BOUGHT_FIELDS, "$.colour"),
        ('{"type": "goods_bought", "player": "Ann", "good": "Melf Pelts", "culture": "Shenna", "unit_price": 50, "quantity": 0}',
         "Expected `int` >= 1", "$.quantity"),
        ('{"type": "credits_paid", "player": "Ann", "amount": -5, "to": "bank", "reason": "x"}',
         "Expected `int` >= 1", "$.amount"),
        ('{"type": "hazard_paid", "player": "Ann", "cost": 0}', "Expected `int` >= 1", "$.cost"),
        ('{"type": "teleported", "player": "Ann"}', "unknown event type 'teleported'", "$.type"),
        ('{"player": "Ann"}', "missing required field", "$.type"),
        ('{"type": "turn_started", "player": "Zed"}', "unknown player 'Zed' (one of: Ann, Bob)", "$.player"),
        ('{"type": "credits_received", "player": "Ann", "amount": 5, "from": "Zed", "reason": "x"}',
         "unknown player 'Zed' (one of: Ann, Bob, bank)", "$.from"),
        ('{"type": "turn_started", "player": "Ann"', "invalid JSON: Input data was truncated", "$"),
        ('{"type": "turn_started", "player": "Ann"} trailing', "invalid JSON: trailing characters (byte 43)", "$"),
        ("[1, 2]", "Expected `object`, got `array`", "$"),
        ('{"type": "landed", "player": "Ann", "venue": "surface_city"}', "a surface_city needs the `culture` it trades with", "$.culture"),
        ('{"type": "landed", "player": "Ann", "venue": "moon", "culture": "X"}',
         "'moon' is not a venue " + VENUES, "$.venue"),
        ('{"type": "game", "game": "merchant-of-venus", "id": "x", "players": ["Ann"]}',
         "a second game header; the header stands on the first line only", "$.type"),
        ('{"type": "score_claimed", "player": "Ann"}', "score_claimed needs exactly one of `score`, `vp`, `net_worth`", "$"),
        # Numbers: every integer has its range (domain.events), so no total can pass 2**63 - 1.
        ('{"type": "credits_paid", "player": "Ann", "amount": 1000000000000000000000000000000, "to": "bank", "reason": "x"}',
         "Expected `int` <= 1000000", "$.amount"),
        ('{"type": "goods_sold", "player": "Ann", "good": "Melf Pelts", "culture": "Shenna", "resale_value": 1000001}',
         "Expected `int` <= 1000000", "$.resale_value"),
        ('{"type": "goods_bought", "player": "Ann", "good": "Melf Pelts", "culture": "Shenna", "unit_price": 50, "quantity": 1001}',
         "Expected `int` <= 1000", "$.quantity"),
        ('{"type": "correction", "voids": 100000001, "reason": "x"}', "Expected `int` <= 100000000", "$.voids"),
        ('{"type": "score_claimed", "player": "Ann", "net_worth": -100000000000000001}',
         "Expected `int` >= -100000000000000000", "$.net_worth"),
        ('{"type": "first_contact", "player": "Ann", "culture": "Shenna", "iou": 1e3}', "Expected `int`, got `float`", "$.iou"),
        # Nesting: an input error at its line, never a RecursionError.
        ('{"type": "note", "text": "x", "extra": ' + NESTED_1000 + "}", "arrays and objects nested deeper than 64 levels", "$"),
        (NESTED_1000, "arrays and objects nested deeper than 64 levels", "$"),
        ('{"type": "note", "text": ' + "[" * 64 + "]" * 64 + "}", "arrays and objects nested deeper than 64 levels", "$"),
        ('{"type": "note", "text": ' + "[" * 63 + "]" * 63 + "}", "Expected `str`, got `array`", "$.text"),
        # Duplicate keys: msgspec would keep the last.
        ('{"type": "turn_started", "player": "Mallory", "player": "Ann"}',
         "duplicate key 'player': a key appears at most once in an object", "$.player"),
        ('{"type": "turn_started", "player": "Ann", "type": "teleported"}',
         "duplicate key 'type': a key appears at most once in an object", "$.type"),
        ('{"type": "turn_started", "player": "Ann", "type": "turn_started"}',
         "duplicate key 'type': a key appears at most once in an object", "$.type"),
        ('{"type": "note", "text": "a\\u003ab", "text": "c"}', "duplicate key 'text': a key appears at most once in an object", "$.text"),
        ('{"type": "goods_bought", "player": "Ann", "good": "Melf Pelts", "culture": "Shenna", "unit_price": 50, "quantity": 1, "quantity": 2}',
         "duplicate key 'quantity': a key appears at most once in an object", "$.quantity"),
        # Messages quote safely: escaped, and cut at 60 characters.
        ('{"type": "tele\\nported\\u001b[2J", "player": "Ann"}', "unknown event type 'tele\\nported\\x1b[2J'", "$.type"),
        ('{"type": "' + "x" * 100 + '", "player": "Ann"}', "unknown event type '" + "x" * 60 + "'…", "$.type"),
        ('{"type": "turn_started", "player": "Ann", "pl\\nayer": 1}',
         "unknown field 'pl\\nayer': did you mean `player`? (a turn_started line has player, and may have at and source)", "$['pl\\nayer']"),
        ('{"type": "landed", "player": "Ann", "venue": "moon\\r\\n' + "y" * 70 + '"}',
         "'moon\\r\\n" + "y" * 54 + "'… is not a venue " + VENUES, "$.venue"),
        ('{"type": "turn_started", "player": "Zed\\u2028' + "z" * 70 + '"}',
         "unknown player 'Zed\\u2028" + "z" * 56 + "'… (one of: Ann, Bob)", "$.player"),
        # Non-JSON whitespace at a line's ends.
        ("\x0b" + TURN, "non-JSON whitespace '\\x0b' at the start of the line (JSON allows space, tab, CR and LF)", "$"),
        (TURN + "\x0c", "non-JSON whitespace '\\x0c' at the end of the line (JSON allows space, tab, CR and LF)", "$"),
        ("  \x0c  ", "non-JSON whitespace '\\x0c' at the start of the line (JSON allows space, tab, CR and LF)", "$"),
        ("\x0c# a comment", "non-JSON whitespace '\\x0c' at the start of the line (JSON allows space, tab, CR and LF)", "$"),
    ],
)
def test_malformed_line_is_reported_with_line_message_and_path(line, message, path):
    assert errors_of(log_bytes(HEADER, line)) == [(2, message, path)]


@pytest.mark.parametrize(
    "data, expected",
    [
        (b"", [(1, 'the log is empty: it needs a header line ({"type": "game", ...})', "$")]),
        (b'{"type": "turn_started", "player": "Ann"}\n', [(1, 'the first object must be the game header, "type": "game"', "$.type")]),
        (b'{"type": "game", "game": "chess", "id": "x", "players": ["A"]}\n',
         [(1, "unknown game 'chess' (known: merchant-of-venus, twilight-imperium-4, uchronia)", "$.game")]),
        (b'{"type": "game", "game": "merchant-of-venus", "id": "x", "players": ["A", "A"]}\n',
         [(1, "player names must be unique", "$.players")]),
        (b'{"type": "game", "game": "merchant-of-venus", "id": "x", "players": ["A"], "setup": {"holds": {"B": 2}}}\n',
         [(1, "`holds` by player must name exactly the players", "$.setup.holds")]),
    ],
)
def test_header_problems(data, expected):
    assert errors_of(data) == expected


def test_every_bad_line_is_reported_not_only_the_first():
    data = log_bytes(HEADER, '{"type": "turn_started"}', '{"type": "turn_started", "player": "Ann"}', "{oops", '{"type": "x"}')
    assert [e[0] for e in errors_of(data)] == [2, 4, 5]


def test_a_deeply_nested_line_is_an_error_at_its_line_and_the_rest_of_the_file_is_still_read():
    reader = LogReader(log_bytes(HEADER, "[" * 1000 + "]" * 1000, '{"type": "turn_started", "player": "Zed"}', TURN))
    assert [line for line, _ in reader.events()] == [4]
    assert [(e.line, e.message) for e in reader.errors] == [
        (2, "arrays and objects nested deeper than 64 levels"), (3, "unknown player 'Zed' (one of: Ann, Bob)")]


def test_blank_lines_and_comments_are_skipped_but_counted():
    data = log_bytes(HEADER, "", "   # a comment", '{"type": "turn_started", "player": "Ann"}')
    reader = LogReader(data)
    assert [line for line, _ in reader.events()] == [4]
    assert reader.errors == []


def test_a_bom_is_an_input_error_and_the_rest_is_still_read():
    data = b"\xef\xbb\xbf" + log_bytes(HEADER, '{"type": "turn_started", "player": "Ann"}')
    reader = LogReader(data)
    assert [line for line, _ in reader.events()] == [2]
    assert [(e.line, e.message) for e in reader.errors] == [
        (1, "the file starts with a UTF-8 byte order mark (BOM); save it as UTF-8 without BOM")]


def test_crlf_line_endings_are_one_input_error_at_the_first_line_that_has_them():
    data = log_bytes(HEADER, '{"type": "turn_started", "player": "Ann"}').replace(b"\n", b"\r\n")
    assert [(line, msg) for line, msg, _ in errors_of(data)] == [
        (1, "the lines end with CRLF (Windows line endings), from this one on: a log's lines end with LF; save the "
            "file with LF line endings (your editor's line-ending setting, or dos2unix FILE)")]


def test_invalid_utf8_is_an_input_error():
    data = log_bytes(HEADER) + b'{"type": "note", "text": "caf\xe9"}\n'
    assert errors_of(data) == [(2, "invalid UTF-8 in a string", "$")]


def test_the_reader_takes_an_open_binary_handle():
    reader = LogReader(io.BytesIO(log_bytes(HEADER, '{"type": "turn_started", "player": "Bob"}')))
    assert reader.header.id == "r"
    assert [(line, e.player) for line, e in reader.events()] == [(2, "Bob")]


def test_at_and_source_are_kept():
    data = log_bytes(HEADER, '{"type": "turn_started", "player": "Ann", "at": "2026-05-01T19:42:00Z", "source": "app#3"}')
    (_, event), = LogReader(data).events()
    assert (event.at, event.source) == ("2026-05-01T19:42:00Z", "app#3")


# --- Issue 14: numbers, nesting, duplicate keys, safe messages, whitespace, a bad header ---------------------


def test_two_deltas_that_would_add_past_64_bits_are_each_an_input_error():
    delta = '{"type": "vp_adjusted", "player": "Ann", "delta": 4611686018427387904, "reason": "x"}'  # 2**62
    assert errors_of(log_bytes(UCHRONIA, delta, delta)) == [
        (2, "Expected `int` <= 1000000", "$.delta"), (3, "Expected `int` <= 1000000", "$.delta")]


@pytest.mark.parametrize("log", [
    log_bytes(HEADER, '{"type": "credits_paid", "player": "Ann", "amount": ' + str(10**30) + ', "to": "bank", "reason": "x"}'),
    log_bytes(UCHRONIA, *['{"type": "vp_adjusted", "player": "Ann", "delta": ' + str(2**62) + ', "reason": "x"}'] * 2),
])
def test_an_integer_out_of_range_is_refused_and_nothing_is_stored(tmp_path, log):
    store = GameStore(str(tmp_path / "gamelog.sqlite"))
    try:
        with pytest.raises(LogInvalid) as refused:
            import_log(store, log, "big.jsonl")
        assert refused.value.lines()[0].startswith("big.jsonl:2: Expected `int` <= 1000000 at $.")
        assert store.count_events() == 0
    finally:
        store.close()


def _unbounded_integers(info: msgspec.inspect.Type, where: str, seen: set) -> list[str]:
    """Every integer position under ``info`` that has no minimum or no maximum."""
    if isinstance(info, msgspec.inspect.IntType):
        return [where] if info.ge is None and info.gt is None or info.le is None and info.lt is None else []
    if isinstance(info, msgspec.inspect.StructType):
        if info.cls in seen:
            return []
        seen.add(info.cls)
        return [w for f in info.fields for w in _unbounded_integers(f.type, f"{info.cls.__name__}.{f.encode_name}", seen)]
    if isinstance(info, msgspec.inspect.Metadata):
        return _unbounded_integers(info.type, where, seen)
    children = [getattr(info, name) for name in ("type", "item_type", "key_type", "value_type") if hasattr(info, name)]
    children += list(getattr(info, "types", ()) or getattr(info, "item_types", ()))
    return [w for child in children for w in _unbounded_integers(child, where, seen)]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_integer_a_log_may_hold_has_a_range(game):
    rules = GAMES[game]
    seen: set = set()
    unbounded = [w for t in (rules.header_type, *rules.event_types)
                 for w in _unbounded_integers(msgspec.inspect.type_info(t), t.__name__, seen)]
    assert unbounded == []


def test_the_log_schema_states_the_ranges():
    definitions = log_schema()["$defs"]
    bought = definitions["merchant-of-venus.GoodsBought"]["properties"]
    assert (bought["unit_price"]["minimum"], bought["unit_price"]["maximum"]) == (1, 1_000_000)
    assert (bought["quantity"]["minimum"], bought["quantity"]["maximum"]) == (1, 1_000)
    assert definitions["uchronia.VpAdjusted"]["properties"]["delta"]["minimum"] == -1_000_000
    assert definitions["merchant-of-venus.Correction"]["properties"]["voids"]["maximum"] == 100_000_000
    assert "a key appears at most once in an object" in log_schema()["description"]


def test_a_log_longer_than_the_line_limit_is_an_input_error_and_is_read_no_further(monkeypatch):
    monkeypatch.setattr(gamelog.domain.reader, "MAX_LINES", 3)
    reader = LogReader(log_bytes(HEADER, TURN, TURN, TURN, "not json"))
    assert [line for line, _ in reader.events()] == [2, 3]
    assert [(e.line, e.message) for e in reader.errors] == [(4, "the log goes on past line 3, the most a log may have")]


@pytest.mark.parametrize("line", [
    '{"type": "note", "text": "a: b [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", "at": "2026-05-01T19:42:00Z"}',
    '{"type": "goods_bought", "player": "Ann", "good": "Melf Pelts", "culture": "Shenna", "unit_price": 50, "quantity": 1, "iou": false}',
    '{"type": "note", "text": "\\"player\\": \\"Ann\\", \\"player\\": 1 \\u00e9"}',
    '{"type":"turn_started","player":"Ann"}\t ',
    '{"type": "credits_paid", "player": "Ann", "amount": 1000000, "to": "bank", "reason": "the most one line may pay"}',
])
def test_lines_that_only_look_suspicious_are_read(line):
    reader = LogReader(log_bytes(HEADER, line))
    assert [n for n, _ in reader.events()] == [2] and reader.errors == []


@pytest.mark.parametrize("line, found", [
    ('{"a": 1, "a": 2}', ("a", "$.a")),
    ('{"a": {"b": 1, "b": 2}}', ("b", "$.a.b")),
    ('{"a": [{"b": 1}, {"b": 1, "b": 2}]}', ("b", "$.a[1].b")),
    ('[[{"x\\ny": 1, "x\\ny": 1}]]', ("x\ny", "$[0][0]['x\\ny']")),
    ('{"a": [{"b": 1}, {"b": 2}], "c": {"b": 3}}', None),
    ('{"a": 1, "a": 2', None),  # not JSON: reported as such
])
def test_a_repeated_key_is_found_with_its_path(line, found):
    assert repeated_key(line.encode()) == found


def test_counting_colons_never_clears_a_line_with_a_repeated_key():
    decode = GAMES["merchant-of-venus"].event_decoder.decode
    for line in (b'{"type": "note", "text": "x", "text": "y"}', b'{"type": "note", "text": "a\\u003a", "text": "b"}',
                 b'{"type": "note", "text": "a:", "text": "b"}'):
        assert may_repeat_a_key(line, msgspec.json.encode(decode(line)))
    assert not may_repeat_a_key(b'{"type": "note", "text": "a: b"}', msgspec.json.encode(decode(b'{"type": "note", "text": "a: b"}')))


def _structs(info: msgspec.inspect.Type, seen: set) -> list[type]:
    """Every Struct class a value of type ``info`` may hold, itself included."""
    if isinstance(info, msgspec.inspect.StructType):
        if info.cls in seen:
            return []
        seen.add(info.cls)
        return [info.cls] + [c for f in info.fields for c in _structs(f.type, seen)]
    children = [getattr(info, name) for name in ("type", "item_type", "key_type", "value_type") if hasattr(info, name)]
    children += list(getattr(info, "types", ()) or getattr(info, "item_types", ()))
    return [c for child in children for c in _structs(child, seen)]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_struct_of_an_event_line_omits_its_defaults_so_that_counting_colons_is_sound(game):
    # may_repeat_a_key relies on it: an encoded event has no key its line did not give.
    seen: set = set()
    structs = [c for t in GAMES[game].event_types for c in _structs(msgspec.inspect.type_info(t), seen)]
    assert len(structs) >= len(GAMES[game].event_types)
    assert [c.__name__ for c in structs if not c.__struct_config__.omit_defaults] == []


@pytest.mark.parametrize("data, expected", [
    # A setup that is not valid: every later line is still checked, against the game the header names.
    (log_bytes({**HEADER, "setup": {"holds": {"B": 2}}}, '{"type": "turn_started", "player": "Zed"}', "{oops", TURN,
               '{"type": "teleported"}'),
     [(1, "`holds` by player must name exactly the players", "$.setup.holds"),
      (2, "unknown player 'Zed' (one of: Ann, Bob)", "$.player"), (3, "invalid JSON: object keys must be strings (byte 1)", "$"),
      (5, "unknown event type 'teleported'", "$.type")]),
    (log_bytes({**HEADER, "setup": {"goal": 10**18}}, '{"type": "hazard_paid", "player": "Ann", "cost": 0}'),
     [(1, "Expected `int` <= 100000000000000000", "$.setup.goal"), (2, "Expected `int` >= 1", "$.cost")]),
    (log_bytes({**HEADER, "players": ["Ann", "Ann"]}, '{"type": "turn_started", "player": "Ann", "player": "Ann"}'),
     [(1, "player names must be unique", "$.players"),
      (2, "duplicate key 'player': a key appears at most once in an object", "$.player")]),
    (b'{"type": "game", "game": "merchant-of-venus", "id": "r", "players": ["Ann"], "players": ["Bob"]}\n' + TURN.encode() + b"\n",
     [(1, "duplicate key 'players': a key appears at most once in an object", "$.players")]),
    # A game no one knows, or a header that is not JSON: the later lines are checked as JSON objects.
    (log_bytes({**HEADER, "game": "chess"}, TURN, "[1, 2]", '{"a": 1, "a": 2}', "\x0c{}"),
     [(1, "unknown game 'chess' (known: merchant-of-venus, twilight-imperium-4, uchronia)", "$.game"),
      (3, "Expected `object`, got `array`", "$"), (4, "duplicate key 'a': a key appears at most once in an object", "$.a"),
      (5, "non-JSON whitespace '\\x0c' at the start of the line (JSON allows space, tab, CR and LF)", "$")]),
    (b'{"type": "game", "game": "uchronia", "game": "merchant-of-venus", "id": "r", "players": ["Ann"]}\n{oops\n',
     [(1, "duplicate key 'game': a key appears at most once in an object", "$.game"),
      (2, "invalid JSON: object keys must be strings (byte 1)", "$")]),
    (b'{"type": "game", ' + NESTED_1000.encode() + b"\n" + NESTED_1000.encode() + b"\n",
     [(1, "arrays and objects nested deeper than 64 levels", "$"), (2, "arrays and objects nested deeper than 64 levels", "$")]),
])
def test_a_bad_header_hides_no_error_of_the_later_lines(data, expected):
    reader = LogReader(data)
    assert reader.header is None and list(reader.events()) == []
    assert [(e.line, e.message, e.path) for e in reader.errors] == expected


def test_a_bad_header_and_a_bad_line_are_both_refused_by_import(tmp_path):
    store = GameStore(str(tmp_path / "gamelog.sqlite"))
    try:
        with pytest.raises(LogInvalid) as refused:
            import_log(store, log_bytes({**HEADER, "setup": {"holds": 0}}, '{"type": "turn_started"}'), "bad.jsonl")
        assert refused.value.lines() == ["bad.jsonl:1: Expected `int` >= 1 at $.setup.holds",
                                         "bad.jsonl:2: missing required field at $.player"]
        assert store.count_events() == 0
    finally:
        store.close()


@pytest.mark.parametrize("value, quoted", [
    ("Zed", "'Zed'"),
    ("a\nb", "'a\\nb'"),
    ("\x1b[2J", "'\\x1b[2J'"),
    ("it's", '"it\'s"'),
    ("\u202eevil", "'\\u202eevil'"),
    ("x" * 61, "'" + "x" * 60 + "'…"),
    (10**70, "1" + "0" * 59 + "…"),
])
def test_a_quoted_value_is_escaped_and_cut_at_60_characters(value, quoted):
    assert quote(value) == quoted


def test_no_value_of_a_log_can_forge_a_second_error_line():
    values = ["x\ny.jsonl:3: forged at $", "\r", "\x1b[2J", "\u2028", "\x85", "é" * 500]
    lines = [json.dumps({"type": v, "player": "Ann"}) for v in values]
    lines += [json.dumps({"type": "turn_started", "player": "Ann", v: 1}) for v in values]
    lines += [json.dumps({"type": "game", "game": v}) for v in values]
    lines += ['{"type": "turn_started", "player": "Zed"}']  # its message lists the players, as the header names them
    data = log_bytes({**HEADER, "players": values}, *lines)
    reader = LogReader(data)
    list(reader.events())
    described = [e.describe("f.jsonl") for e in reader.errors]
    assert len(described) == len(lines)
    assert all(text.isprintable() and len(text) < 700 for text in described), described
    assert input_error("a\nb", 1, "c\x1bd", "$\re") == "a\\nb:1: c\\x1bd at $\\re"


def test_a_header_names_at_most_max_players_players_and_the_schema_says_so():
    from gamelog.domain.events import MAX_PLAYERS

    assert MAX_PLAYERS == 100
    most = dict(HEADER, players=[f"P{i}" for i in range(100)])
    assert errors_of(log_bytes(most, '{"type": "turn_started", "player": "P99"}')) == []
    # 5,000 players (issue 23: a 185 kB log whose HTML report took 4 GB) are refused at the header, in a line.
    many = dict(HEADER, players=[f"Player{i:04d}" for i in range(5000)])
    assert errors_of(log_bytes(many, '{"type": "turn_started", "player": "Player0001"}')) == [
        (1, "a game has at most 100 players, this header names 5,000", "$.players")]
    assert errors_of(log_bytes(dict(HEADER, players=[f"P{i}" for i in range(101)]))) == [
        (1, "a game has at most 100 players, this header names 101", "$.players")]
    header = log_schema()["$defs"]["uchronia.Header"]["properties"]["players"]
    assert (header["minItems"], header["maxItems"]) == (1, 100)


@pytest.mark.parametrize("split", [
    ['{"type": "note"', '"text": "c"}'],  # a value split inside an object: the next line starts with a key
    ['{"type": "note", "text": "c", "extra": [', '{}]}'],  # split inside an array: the first line leaves it open
])
def test_one_value_split_over_two_lines_is_an_error_even_beside_two_values_on_one_line(split):
    # Two values on line 2 and one value over lines 3-4 make as many array items as lines: the lines read at once
    # must still give the errors reading them one by one does (the object over lines 3-4 is one).
    data = log_bytes(HEADER, '{"type": "note", "text": "a"}, {"type": "note", "text": "b"}', *split, TURN)
    found = errors_of(data)
    assert [line for line, _, _ in found] == [2, 3], found  # lines 3-4 are one object: said once
    assert found[0][1].startswith("invalid JSON: trailing characters")
    assert found[1][1] == ("one JSON object printed over lines 3-4: a log holds one JSON object per line; join them "
                           "into one")
