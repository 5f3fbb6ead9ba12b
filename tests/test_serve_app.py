"""The recorder's application as Litestar builds it (cli/web/app.py): the security headers on every kind of answer
(pages, assets, the API, its errors), who a token is at a game (``/api/me?game=``), and a body that is not the
route's document."""

from __future__ import annotations

import json

import pytest
from litestar.testing import TestClient

from gamelog.cli.web.app import SECURITY_HEADERS, create_app

HOST_TOKEN = "host-token-for-the-app-tests-0123456789"
HOST = {"Authorization": f"Bearer {HOST_TOKEN}"}
MOV = {"type": "game", "game": "merchant-of-venus", "id": "t", "players": ["Ann", "Bob"]}


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(str(tmp_path / "s.sqlite"), HOST_TOKEN, "http://127.0.0.1:8737")) as served:
        yield served


def test_every_kind_of_answer_carries_the_security_headers(client):
    client.post("/api/games", content=json.dumps(MOV), headers=HOST)
    answers = {path: client.get(path, headers=HOST) for path in
               ("/", "/games/t", "/assets/app.js", "/assets/app.css", "/assets/nothing.js", "/api/games",
                "/api/games/t/history", "/api/games/nothing/replay")}
    answers["no token"] = client.get("/api/games")
    for name, answer in answers.items():
        assert {key: answer.headers.get(key) for key in SECURITY_HEADERS} == SECURITY_HEADERS, name
    assert answers["/assets/app.js"].headers["content-type"] == "text/javascript; charset=utf-8"
    assert answers["/"].headers["content-type"] == "text/html; charset=utf-8"
    assert [answers[p].status_code for p in ("/assets/nothing.js", "/api/games/nothing/replay", "no token")] == [
        404, 404, 401]


def test_who_a_token_is_at_a_game(client):
    made = client.post("/api/games", content=json.dumps(MOV), headers=HOST).json()
    ann = {"Authorization": f"Bearer {made['seats']['Ann']['token']}"}
    watcher = {"Authorization": f"Bearer {made['spectator']['token']}"}
    assert client.get("/api/me?game=t", headers=ann).json() == {"role": "seat", "player": "Ann"}
    assert client.get("/api/me?game=t", headers=watcher).json() == {"role": "spectator", "player": None}
    assert client.get("/api/me", headers=HOST).json() == {"role": "host", "player": None}
    assert client.get("/api/me", headers=ann).status_code == 401  # a seat's token is its game's only
    assert client.get("/api/me?game=other", headers=ann).status_code == 401


def test_a_body_that_is_not_the_routes_document_is_422_naming_what_is_wrong(client):
    client.post("/api/games", content=json.dumps(MOV), headers=HOST)
    wrong = client.post("/api/games/t/settings", content=json.dumps({"any_seat": "yes"}), headers=HOST)
    assert wrong.status_code == 422
    assert wrong.json() == {"errors": ["the request's body: Expected `bool`, got `str` - at `$.any_seat`"]}
    unknown = client.post("/api/games/t/lines", content=json.dumps({"line": {"type": "note", "text": "x"},
                                                                    "later": 1}), headers=HOST)
    assert unknown.status_code == 422 and "unknown field `later`" in unknown.json()["errors"][0]
    # A key twice in the line reaches the reader as sent: its own error, at the line's number.
    twice = client.post("/api/games/t/lines", content=b'{"line": {"type": "note", "text": "a", "text": "b"}}',
                        headers=HOST)
    assert twice.status_code == 422 and twice.json()["errors"][0]["line"] == 2
