"""Property tests: no input makes the reader or the rules raise anything but our input error."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.reader import LogReader
from domain.replay import decide
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
