"""Corrections (LOG_FORMAT.md): a voided line keeps its place in the log and loses its effect."""

from __future__ import annotations

import pytest

from domain.events import FindingRaised
from domain.replay import run
from tests.conftest import log_bytes

HEADER = {"game": "merchant-of-venus", "id": "c", "players": ["Ann", "Bob"], "setup": {"starting_credits": 500}}
PLAY = [
    {"type": "turn_started", "player": "Ann"},                                                        # line 2
    {"type": "landed", "player": "Ann", "venue": "surface_city", "culture": "Shenna"},                # line 3
    {"type": "first_contact", "player": "Ann", "culture": "Shenna", "iou": 90},                       # line 4
    {"type": "goods_bought", "player": "Ann", "good": "Melf Pelts", "culture": "Shenna", "quantity": 2,
     "unit_price": 50, "iou": True},                                                                  # line 5
    "# a comment",                                                                                    # line 6
]


def run_with(*more):
    return run(log_bytes(HEADER, *PLAY, *more))


def findings(result):
    return [(e.line, e.rule, e.severity, e.message) for e in result.events if isinstance(e, FindingRaised)]


def test_voiding_a_purchase_gives_back_credits_iou_and_cargo():
    result = run_with({"type": "correction", "voids": 5, "reason": "misread price"})
    ann = result.state.to_json()["players"]["Ann"]
    assert (ann["credits"], ann["ious"], ann["cargo"]) == (500, {"Shenna": 90}, [])
    assert result.state.voided == {5}
    assert findings(result) == []


def test_voiding_a_first_contact_frees_the_culture_for_someone_else():
    result = run_with({"type": "correction", "voids": 4, "reason": "it was Bob"}, {"type": "turn_ended", "player": "Ann"},
                      {"type": "turn_started", "player": "Bob"}, {"type": "landed", "player": "Bob", "venue": "surface_city", "culture": "Shenna"},
                      {"type": "first_contact", "player": "Bob", "culture": "Shenna", "iou": 90})
    assert findings(result) == []
    assert result.state.to_json()["players"]["Bob"]["ious"] == {"Shenna": 90}


@pytest.mark.parametrize(
    "voids, message",
    [
        (1, "the header cannot be voided"),
        (6, "line 6 holds no event"),
        (7, "a correction can only void an earlier line, not line 7"),
        (40, "a correction can only void an earlier line, not line 40"),
    ],
)
def test_a_correction_must_name_an_earlier_event_line(voids, message):
    result = run_with({"type": "correction", "voids": voids, "reason": "x"})
    assert findings(result) == [(7, "LOG-CORRECTION", "violation", message)]


def test_a_line_cannot_be_voided_twice_nor_a_correction_voided():
    result = run_with({"type": "correction", "voids": 5, "reason": "x"}, {"type": "correction", "voids": 5, "reason": "again"},
                      {"type": "correction", "voids": 7, "reason": "undo the undo"})
    assert findings(result) == [(8, "LOG-CORRECTION", "violation", "line 5 is already void"),
                                (9, "LOG-CORRECTION", "violation", "line 7 is itself a correction; corrections cannot be voided")]
    assert result.state.to_json()["players"]["Ann"]["credits"] == 500


def test_voiding_a_turn_end_warns_that_turns_are_not_rewound():
    result = run_with({"type": "turn_ended", "player": "Ann"}, {"type": "correction", "voids": 7, "reason": "x"})
    assert findings(result) == [(8, "LOG-CORRECTION", "warning", "line 7 caused the end of turn 1, which a correction does not undo")]


def test_an_import_voids_a_line_whose_effects_went_to_disk(tmp_path, monkeypatch):
    """The importer keeps effects on disk past a threshold; a correction still finds them."""
    from projections.importing import spill as effects
    from projections.importing.importer import import_log
    from projections.store.application import GameStore
    from domain.replay import state_at

    monkeypatch.setattr(effects, "FLUSH", 2)
    log = log_bytes(HEADER, *PLAY, {"type": "turn_ended", "player": "Ann"}, {"type": "turn_started", "player": "Bob"},
                    {"type": "credits_paid", "player": "Bob", "amount": 40, "to": "Ann", "reason": "a debt"},
                    {"type": "correction", "voids": 5, "reason": "misread price"})
    store = GameStore(str(tmp_path / "gamelog.sqlite"))
    import_log(store, log, "log.jsonl")
    stored = state_at("merchant-of-venus", store.history("c")).to_json()["players"]
    assert (stored["Ann"]["credits"], stored["Ann"]["ious"], stored["Bob"]["credits"]) == (540, {"Shenna": 90}, 460)
    assert stored == run(log).state.to_json()["players"]
