"""Property tests: no input makes the reader or the rules raise anything but our input error."""

from __future__ import annotations

import json

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamelog.domain.events import MAX_AMOUNT, MAX_TOTAL, FindingRaised
from gamelog.domain.messages import finding
from gamelog.domain.reader import LogReader
from gamelog.domain.strict_json import MAX_DEPTH
from gamelog.domain.replay import decide
from tests.conftest import EXAMPLES

SEED_LINES = (EXAMPLES / "merchant-of-venus" / "seed-examples.jsonl").read_bytes().splitlines(keepends=True)
HEADER = SEED_LINES[2]


def validate_bytes(data: bytes) -> None:
    """What ``gamelog validate`` does with a file's bytes, minus printing."""
    reader = LogReader(data)
    for _ in decide(reader):
        pass


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=400))
def test_any_bytes_are_read_without_an_unexpected_exception(data):
    validate_bytes(data)
    validate_bytes(HEADER + data)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 3000) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=8,
)
FIELDS = ["player", "good", "culture", "quantity", "unit_price", "iou", "dots", "venue", "owner", "amount", "to", "from",
          "cost", "color", "voids", "reason", "fare", "passenger", "destination", "kind", "value", "price_paid", "net_worth"]
TYPES = ["turn_started", "turn_ended", "landed", "goods_bought", "goods_sold", "correction", "hazard_paid", "credits_paid",
         "deed_acquired", "passenger_delivered", "score_claimed", "first_contact", "relic_taken", "bonus_cup_draw"]
PLAYERS = st.sampled_from(["Qossuth", "Whynom", "Human", "Eeepeeep"])


@st.composite
def event_lines(draw):
    event = {"type": draw(st.sampled_from(TYPES)), "player": draw(PLAYERS)}
    for field in draw(st.lists(st.sampled_from(FIELDS), max_size=6)):
        event[field] = draw(st.one_of(PLAYERS, st.integers(1, 200), json_values))
    return (json.dumps(event) + "\n").encode()


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(event_lines() | st.sampled_from(SEED_LINES[3:]), max_size=30))
def test_any_mix_of_event_lines_is_decided_without_an_unexpected_exception(lines):
    validate_bytes(HEADER + b"".join(lines))


# --- Hostile input (issue 14): integers of any size, deep nesting, repeated keys, control characters ------------

INT64 = 2**63 - 1
INT_FIELDS = ["quantity", "unit_price", "iou", "amount", "cost", "fare", "value", "price_paid", "voids", "vp", "net_worth", "delta"]
UCHRONIA_HEADER = b'{"type": "game", "game": "uchronia", "id": "u", "players": ["Ann", "Bob"]}\n'
huge_integers = st.one_of(st.integers(), st.integers(-2**80, 2**80),
                          st.sampled_from([MAX_AMOUNT, MAX_AMOUNT + 1, MAX_TOTAL, MAX_TOTAL + 1, 2**62, 2**63, 10**30, -2**63]))


def integers_in(value) -> list[int]:
    """Every integer in a decoded event (its fields, at any depth), booleans aside."""
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, dict):
        return [n for v in value.values() for n in integers_in(v)]
    if isinstance(value, (list, tuple)):
        return [n for v in value for n in integers_in(v)]
    return []


@st.composite
def lines_with_big_integers(draw):
    """A Merchant of Venus line that sets numeric fields to integers of any size, and those integers."""
    event = {"type": draw(st.sampled_from(TYPES)), "player": draw(PLAYERS)}
    for field in draw(st.lists(st.sampled_from(INT_FIELDS), min_size=1, max_size=4)):
        event[field] = draw(huge_integers)
    return (json.dumps(event) + "\n").encode()


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(lines_with_big_integers() | st.sampled_from(SEED_LINES[3:]), min_size=1, max_size=20))
def test_an_integer_past_its_range_is_an_input_error_and_every_stored_one_fits_in_64_bits(lines):
    reader = LogReader(HEADER + b"".join(lines))
    events = list(decide(reader))
    refused = {e.line for e in reader.errors}
    for line, raw in enumerate(lines, start=2):
        if raw.startswith(b"{") and any(abs(n) > MAX_TOTAL for n in integers_in(json.loads(raw))):
            assert line in refused, raw  # no field of any game takes an integer past 10**17
    for event in events:
        assert all(abs(n) <= INT64 for n in integers_in(msgspec.to_builtins(event, builtin_types=(bytes,)))), event


@st.composite
def nested_lines(draw):
    """A line whose field holds arrays and objects nested ``depth`` deep (the line's own object is one more)."""
    depth = draw(st.integers(1, 3000))
    opens = draw(st.lists(st.sampled_from(['[', '{"k": ']), min_size=depth, max_size=depth))
    value = "".join(opens) + "1" + "".join("]" if o == "[" else "}" for o in reversed(opens))
    field = draw(st.sampled_from(["text", "player", "extra"]))
    return f'{{"type": "note", "{field}": {value}}}\n'.encode(), depth + 1


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(nested_lines())
def test_deep_nesting_is_an_input_error_at_its_line_and_the_next_line_is_still_checked(nested):
    line, depth = nested
    reader = LogReader(HEADER + line + b'{"type": "turn_started", "player": "Zed"}\n')
    assert list(decide(reader)) != []  # the header's events: the log was read
    messages = {e.line: e.message for e in reader.errors}
    assert set(messages) == {2, 3}
    assert (messages[2] == f"arrays and objects nested deeper than {MAX_DEPTH} levels") == (depth > MAX_DEPTH)
    assert messages[3].startswith("unknown player 'Zed'")


@st.composite
def lines_with_a_repeated_key(draw):
    """An event line written with one of its keys twice (top level, or in a nested object)."""
    event = json.loads(draw(event_lines()))
    if draw(st.booleans()):
        key = draw(st.sampled_from(sorted(event)))
        pairs = list(event.items()) + [(key, draw(st.one_of(PLAYERS, st.integers(1, 200), json_values)))]
        draw(st.randoms()).shuffle(pairs)
        return "{" + ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in pairs) + "}\n"
    inner = draw(st.text(min_size=1, max_size=5))
    body = ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in event.items())
    return "{" + body + f', "setup": {{{json.dumps(inner)}: 1, {json.dumps(inner)}: 2}}}}\n'


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(lines_with_a_repeated_key())
def test_a_repeated_key_is_always_an_input_error(line):
    reader = LogReader(HEADER + line.encode())
    list(decide(reader))
    assert [(e.line, e.message.startswith("duplicate key ")) for e in reader.errors] == [(2, True)], line


control_text = st.text(st.characters(categories=["Cc", "Cf", "Zl", "Zp", "Zs", "Lu"]), min_size=1, max_size=80)


@st.composite
def lines_with_control_characters(draw):
    """Event lines whose type, keys and values hold control characters, raw (not JSON) or escaped (JSON)."""
    event = {"type": draw(control_text | st.sampled_from(TYPES)), "player": draw(control_text | PLAYERS)}
    for _ in range(draw(st.integers(0, 3))):
        event[draw(control_text | st.sampled_from(FIELDS))] = draw(control_text)
    text = json.dumps(event, ensure_ascii=draw(st.booleans()))
    return (draw(st.sampled_from(["", "\x0b", "\x0c", " "])) + text + draw(st.sampled_from(["", "\x0b", "\x0c", "\t"]))).encode()


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(lines_with_control_characters(), min_size=1, max_size=8), control_text)
def test_no_control_character_in_a_log_reaches_a_message_line(lines, filename):
    reader = LogReader(HEADER + b"\n".join(lines) + b"\n")
    findings = [e for e in decide(reader) if type(e) is FindingRaised]
    printed = [e.describe(filename) for e in reader.errors]
    printed += [finding(f"{filename}:{f.line}", f.severity, f.rule, f.player, f.message) for f in findings]
    assert all(text.isprintable() for text in printed), printed
    for line, raw in enumerate(lines, start=2):
        if raw[:1] in (b"\x0b", b"\x0c") or raw[-1:] in (b"\x0b", b"\x0c"):
            assert any(e.line == line and e.message.startswith("non-JSON whitespace") for e in reader.errors)


# --- Lines read at once (a chunk decoded as one JSON array) give what reading them one by one gives ------------

TI4_LINES = (EXAMPLES / "twilight-imperium-4" / "complete-4p.jsonl").read_bytes().splitlines(keepends=True)
ODD_LINES = [
    b'{"type": "note", "text": "a [bracket and a {brace"}\n',  # brackets in strings are no structure
    b'{"type": "note", "text": "]} {["}\n',
    b' \t{"type": "note", "text": "indented"}\n',
    b'{"type": "note", "text": "two"}, {"type": "note", "text": "values"}\n',  # one more array item than lines ...
    b'{"type": "trade_primary", "player": "Ann", "chosen": ["Bob"\n',  # ... beside a value split inside an array
    b'"Cy"], "replenished": 0}\n',
    b'{"type": "note"\n',  # a value split inside an object
    b'"text": "split"}\n',
    b'{}]}\n', b'\n', b'# a comment [\n', b'{"type": "note", "text": "[", "text": "]"}\n',
]


def read_in_chunks(data: bytes, chunk_bytes: int, one_by_one: bool) -> tuple[list, list]:
    """(line, event) pairs and input errors of ``data`` read ``chunk_bytes`` at a time: each chunk decoded at once
    where the reader may, or (``one_by_one``) every line decoded alone, the reference."""

    class Reader(LogReader):
        def _chunk(self) -> list[bytes]:
            return self._source.readlines(chunk_bytes)

        if one_by_one:
            def _at_once(self, lines, decode_many, players):
                return None

    reader = Reader(data)
    events = list(reader.events())
    return events, [(e.line, e.message, e.path) for e in reader.errors]


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(1, len(TI4_LINES)), st.sampled_from(["insert", "split", "join"]),
                          st.integers(0, len(ODD_LINES) - 1), st.integers(1, 120)), max_size=6),
       st.integers(1, 3000))
def test_a_chunk_read_at_once_gives_the_events_and_errors_of_its_lines_read_one_by_one(changes, chunk_bytes):
    # Odd lines put into a legal game, its lines split in two at a comma or joined with the next, read in chunks of
    # any size: a chunk that decodes at once must give each line's own event, and each bad line its own error.
    lines = TI4_LINES[:]
    for at, change, odd, cut in sorted(changes, reverse=True):
        if change == "insert":
            lines.insert(at, ODD_LINES[odd])
        elif change == "split" and at < len(lines) and (commas := [i for i, c in enumerate(lines[at]) if c == 44]):
            comma = commas[cut % len(commas)]  # split at a comma, which joining the lines with one puts back
            lines[at:at + 1] = [lines[at][:comma] + b"\n", lines[at][comma + 1:]]
        elif change == "join" and at + 1 < len(lines):
            lines[at:at + 2] = [lines[at].rstrip(b"\n") + b", " + lines[at + 1]]
    data = b"".join(lines)
    assert read_in_chunks(data, chunk_bytes, one_by_one=False) == read_in_chunks(data, chunk_bytes, one_by_one=True)
