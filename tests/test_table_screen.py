"""The table's screen (issue 36, "No view of the table"): ``GET /api/games/{id}/screen`` and ``/games/{id}/table``.

What a table checks by hand on the TV: whose turn, the round and phase, the speaker, the objectives with who scored
each, the score towards the goal, the Forum and monopolies, and that a seat's screen tells no other player's secret.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from litestar.testing import TestClient

from gamelog.cli.main import main
from gamelog.cli.web.app import create_app

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
HOST_TOKEN = "host-token-for-the-tests-0123456789"
HOST = {"Authorization": f"Bearer {HOST_TOKEN}"}


def served(store: str):
    return TestClient(create_app(store, HOST_TOKEN, "http://127.0.0.1:8737"))


@pytest.fixture
def examples_store(tmp_path) -> str:
    store = str(tmp_path / "store.sqlite")
    for log in ("twilight-imperium-4/complete-4p.jsonl", "uchronia/complete-3p.jsonl"):
        assert CliRunner().invoke(main, ["import", str(EXAMPLES / log), "--store", store]).exit_code == 0
    return store


def test_the_twilight_imperium_screen_is_the_round_phase_speaker_and_objectives_with_who_scored(examples_store):
    with served(examples_store) as client:
        shown = client.get("/api/games/ti4-complete-4p/screen", headers=HOST).json()
    assert (shown["finished"], shown["winner"], shown["due"], shown["score_name"], shown["goal"]) == \
        (True, "Bob", None, "vp", 10)
    assert [(s["player"], s["score"], s["note"]) for s in shown["standings"]] == [
        ("Ann", 7, "Emirates of Hacan"), ("Bob", 10, "Federation of Sol"), ("Cy", 6, "Arborec"),
        ("Dee", 6, "Barony of Letnev")]
    facts = {f["label"]: f["value"] for f in shown["facts"]}
    assert (facts["Round"], facts["Phase"], facts["Speaker"]) == ("6", "status", "Ann")
    grid = next(p for p in shown["panels"] if p["title"] == "Objectives")
    assert grid["columns"] == ["Objective", "Stage", "Ann", "Bob", "Cy", "Dee"]
    rows = {row[0]: row[1:] for row in grid["rows"]}
    # Negotiate Trade Routes (stage I): Ann and Bob scored it; Conquer the Weak (stage II): Bob alone.
    assert rows["Negotiate Trade Routes"] == ["I", "\u25cf", "\u25cf", "", ""]
    assert rows["Conquer the Weak"] == ["II", "", "\u25cf", "", ""]
    assert rows["Forge an Alliance"] == ["secret", "", "", "\u25cf", ""]
    assert len(shown["last"]) == 8 and shown["last"][-1]["line"] == shown["line"]


def test_the_uchronia_screen_shows_the_forum_the_monopolies_and_the_threshold(examples_store):
    with served(examples_store) as client:
        shown = client.get("/api/games/uchronia-3p-demo/screen", headers=HOST).json()
    panels = {p["title"]: p for p in shown["panels"]}
    assert panels["Forum"]["columns"] == ["wood", "clay", "brick", "stone", "marble"]
    assert panels["Forum"]["rows"] == [["1", "0", "0", "1", "1"]]
    assert ["marble", "Bob", "3"] in panels["Monopolies"]["rows"]
    assert {f["label"]: f["value"] for f in shown["facts"]}["Threshold"] == "18 VP, reached by Ann"
    assert [(s["player"], s["score"]) for s in shown["standings"]] == [("Ann", 15), ("Bob", 18), ("Cy", 5)]


TI4 = {"type": "game", "game": "twilight-imperium-4", "id": "secret", "players": ["Ann", "Bob", "Cy"],
       "setup": {"factions": {"Ann": "The Arborec", "Bob": "The Barony of Letnev", "Cy": "The Clan of Saar"}}}


def test_a_seats_screen_tells_no_other_players_secret_and_says_whose_turn(tmp_path):
    with served(str(tmp_path / "s.sqlite")) as client:
        seats = client.post("/api/games", content=json.dumps(TI4), headers=HOST).json()["seats"]
        drawn = {"type": "secret_objective_drawn", "player": "Ann", "objective": "Become a Martyr"}
        for after, line in enumerate([drawn, {"type": "round_started", "round": 1},
                                      {"type": "phase_started", "phase": "strategy"}], 1):
            sent = client.post("/api/games/secret/lines", content=json.dumps({"line": line, "after": after}), headers=HOST)
            assert sent.status_code == 201, sent.text
        bob = client.get("/api/games/secret/screen", headers={"Authorization": f"Bearer {seats['Bob']['token']}"})
        ann = client.get("/api/games/secret/screen", headers={"Authorization": f"Bearer {seats['Ann']['token']}"})
        watching = client.get("/api/games/secret/screen", headers={"Authorization": "Bearer not-a-token"})
    assert "Become a Martyr" not in bob.text and "Become a Martyr" in ann.text
    assert watching.status_code == 401
    shown = bob.json()
    assert {f["label"]: f["value"] for f in shown["facts"]}["Phase"] == "strategy"
    assert (shown["active"], shown["round"]) == (None, 1)


def test_the_table_page_is_static_and_ships_its_own_assets(tmp_path):
    with served(str(tmp_path / "p.sqlite")) as client:
        page = client.get("/games/anything/table")
        script = client.get("/assets/table.js")
        style = client.get("/assets/table.css")
    assert page.status_code == 200 and '<script src="/assets/table.js">' in page.text
    assert "token" not in page.text.split("<body>")[0]  # no data in the page: the token stays in the fragment
    assert script.status_code == style.status_code == 200
    assert script.headers["content-type"].startswith("text/javascript")
