"""How the store reads a history fast, and that it reads the same events (issue 24, item 7).

* A sealed state as ``seal`` writes it is decoded from a slice; any other state
  is opened as before, so what decodes and what is damaged stay the same.
* ``history(game, turn=N)`` reads up to the event that ends turn N in one
  query (a hint found by the event's bytes): the events are the same, and a
  replay to that turn gives the same state, on each backend.
"""

from __future__ import annotations

import io

import pytest

from gamelog.domain.events import TurnFinished
from gamelog.domain.replay import state_at
from gamelog.projections.importing.importer import import_log
from gamelog.projections.store.application import GameStore, StoreDamaged, game_uuid
from gamelog.projections.store.chain import open_sealed, seal
from gamelog.projections.store.mapper import DecodeFailed, StructMapper, encoded
from gamelog.replaying import state_of
from gamelog.sources import StoredGame
from tests.benchmarks.generate import write_log
from tests.conftest import EXAMPLES

DISPUTED = EXAMPLES / "merchant-of-venus" / "disputed.jsonl"


@pytest.fixture
def store_on_each(locations):
    location = locations.new()
    store = GameStore(location)
    log = io.BytesIO()
    write_log(log, 2500, game_id="long")  # more than two pages of events
    import_log(store, log.getvalue(), "long.jsonl")
    import_log(store, DISPUTED.read_bytes(), "disputed.jsonl")
    return store, location


def _first_ends(events: list) -> dict[int, int]:
    """Each turn's first TurnFinished, by version (versions count from 1)."""
    ends: dict[int, int] = {}
    for version, event in enumerate(events, 1):
        if type(event) is TurnFinished:
            ends.setdefault(event.turn, version)
    return ends


def test_a_replay_to_a_turn_reads_the_same_events_and_reaches_the_same_state(store_on_each):
    store, location = store_on_each
    for game_id in ("long", "disputed"):
        events = list(store.history(game_id))
        ends = _first_ends(events)
        assert len(ends) >= 3
        for turn in sorted({1, 2, max(ends) // 2, max(ends) - 1, max(ends)}):
            assert store._turn_finished(game_id, turn) == ends[turn]
            assert list(store.history(game_id, turn=turn)) == events
            game = events[0].event.game
            expected = state_at(game, events, turn=turn).document()
            assert state_of(StoredGame(store, game_id, location), turn=turn) == expected
        assert store._turn_finished(game_id, max(ends) + 1) is None


def test_a_wrong_hint_reads_more_and_gives_the_same_state(store_on_each, monkeypatch):
    store, location = store_on_each
    events = list(store.history("long"))
    expected = state_at("merchant-of-venus", events, turn=300).document()
    for hint in (3, 2, len(events) + 50):  # too early, too early by one page's slack, past the end
        monkeypatch.setattr(store, "_turn_finished", lambda game_id, turn: hint)
        assert state_of(StoredGame(store, "long", location), turn=300) == expected


def test_a_sealed_state_decodes_from_its_slice_as_opening_it_does():
    mapper = StructMapper()
    event = TurnFinished(line=5, player="Ann", turn=2, rule="R", cause="c")
    topic, payload = encoded(event)
    state = seal(bytes(range(32)), payload)
    assert mapper.decode_payload(topic, state) == event
    assert open_sealed(state)[1] == payload
    # Not as seal() writes it, but sealed all the same: opened, and the same event.
    spaced = state.replace(b'","event":', b'", "event": ')
    assert mapper.decode_payload(topic, spaced) == event
    # Laid out as written, yet not one sealed event as written: what opening it says, never the slice's event.
    other = TurnFinished(line=6, player="Bob", turn=3, rule="R", cause="d")
    assert mapper.decode_payload(topic, state[:-1] + b',"event":' + encoded(other)[1] + b"}") == other
    broken = {
        "a chain hash that is not hex": b'{"chain":"' + b"zz" * 32 + state[74:],
        "a chain hash with a space": b'{"chain":"' + b"ab " * 21 + b"a" + state[74:],
        "a payload cut short": state[:-2] + b"}",
        "NULL": None,
    }
    for what, bad in broken.items():
        with pytest.raises(DecodeFailed):
            mapper.decode_payload(topic, bad)
            pytest.fail(what)


def test_an_import_seals_each_event_as_event_hash_link_and_seal_say():
    from gamelog.projections.store.application import sealed_rows
    from gamelog.projections.store.chain import GENESIS, event_hash, link

    events = [TurnFinished(line=n, player="Ann", turn=n, rule="R", cause="c") for n in range(1, 4)]
    rows, head = sealed_rows(7, events, GENESIS)
    previous = GENESIS
    for (version, topic, state), event, expected_version in zip(rows, events, (7, 8, 9)):
        expected_topic, payload = encoded(event)
        previous = link(previous, event_hash(expected_topic, payload))
        assert (version, topic, state) == (expected_version, expected_topic, seal(previous, payload))
    assert head == previous


def test_a_page_decodes_at_once_to_what_each_row_decodes_to_or_is_left_to_them():
    """``decode_sealed`` (a page at once) gives decode_payload's events, or None: then history opens the rows one
    by one, which say what is wrong."""
    mapper = StructMapper()
    events = [TurnFinished(line=n, player="Ann", turn=n, rule="R", cause="c") for n in range(1, 4)]
    topics = [encoded(e)[0] for e in events]
    states = [seal(bytes([n]) * 32, encoded(e)[1]) for n, e in enumerate(events)]
    assert mapper.decode_sealed(topics, states) == events
    # Sealed, yet not as seal() writes it: the same events either way.
    spaced = [states[0].replace(b'","event":', b'", "event": '), *states[1:]]
    assert mapper.decode_sealed(topics, spaced) == events
    other = TurnFinished(line=6, player="Bob", turn=3, rule="R", cause="d")
    twice = [states[0][:-1] + b',"event":' + encoded(other)[1] + b"}", *states[1:]]
    assert mapper.decode_sealed(topics, twice) == [mapper.decode_payload(t, s) for t, s in zip(topics, twice)]
    assert twice and mapper.decode_sealed(topics, twice)[0] == other
    broken = {
        "a chain hash that is not hex": b'{"chain":"' + b"zz" * 32 + states[1][74:],
        "a chain hash with a space": b'{"chain":"' + b"ab " * 21 + b"a" + states[1][74:],
        "a chain hash too short": b'{"chain":"' + b"ab" * 31 + states[1][74:],
        "a payload cut short": states[1][:-2] + b"}",
        "two sealed events in one": states[1][:-1] + b"}" + b"," + states[2],
        "NULL": None,
    }
    for what, bad in broken.items():
        page = [states[0], bad, states[2]]
        assert mapper.decode_sealed(topics, page) is None, what
    # A chain hash of another even length opens one by one (bytes.fromhex takes it): the same event.
    short = b'{"chain":"abcd","event":' + encoded(events[1])[1] + b"}"
    assert mapper.decode_sealed(topics, [states[0], short, states[2]]) is None
    assert mapper.decode_payload(topics[1], short) == events[1]
    assert mapper.decode_sealed(["domain.events:NoSuchEvent", *topics[1:]], states) is None


def test_a_page_with_a_damaged_event_names_it_as_each_row_read_alone_did(store_on_each):
    store, location = store_on_each
    events = list(store.history("long"))
    with store.transaction() as cursor:  # the 1,500th event, in the second page, made unreadable
        cursor.execute(f"UPDATE {store.events_table} SET state = {store.backend.mark} WHERE originator_id = "
                       f"{store.backend.mark} AND originator_version = 1500",
                       (b'{"chain":"' + b"zz" * 32 + b'","event":{}}', store.backend.originator(game_uuid("long"))))
    read = []
    with pytest.raises(StoreDamaged, match="event 1500 of game 'long'"):
        for event in store.history("long"):
            read.append(event)
    assert read == events[:1499]
