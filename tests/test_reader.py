"""Reading logs: every malformed line reported with its exact message, line and path."""

from __future__ import annotations

import io

import pytest

from domain.reader import LogReader
from tests.conftest import log_bytes

HEADER = {"game": "merchant-of-venus", "id": "r", "players": ["Ann", "Bob"]}


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
         "unknown field", "$.colour"),
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
         "Invalid enum value 'moon'", "$.venue"),
        ('{"type": "game", "game": "merchant-of-venus", "id": "x", "players": ["Ann"]}',
         "a second game header; the header stands on the first line only", "$.type"),
        ('{"type": "score_claimed", "player": "Ann"}', "score_claimed needs exactly one of `vp` and `net_worth`", "$"),
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


def test_crlf_line_endings_are_input_errors_on_each_line():
    data = log_bytes(HEADER, '{"type": "turn_started", "player": "Ann"}').replace(b"\n", b"\r\n")
    assert [(line, msg) for line, msg, _ in errors_of(data)] == [
        (1, "the line ends with CRLF; logs use LF line endings"), (2, "the line ends with CRLF; logs use LF line endings")]


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
