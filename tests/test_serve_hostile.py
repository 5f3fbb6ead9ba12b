"""Malformed and hostile requests to the recorder (issue 38, items 4 and 5), on both backends: every one is a 4xx
with a message, never a 500; a game id is an id (never a file or standard input); ids no route could reach are
refused when the game is made."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from litestar.testing import TestClient

from gamelog.cli.main import main
from gamelog.cli.web.app import create_app
from gamelog.cli.web.ids import MAX_ID

HOST_TOKEN = "host-token-for-the-hostile-tests-0123456789"
HOST = {"Authorization": f"Bearer {HOST_TOKEN}"}
MOV = {"type": "game", "game": "merchant-of-venus", "id": "table-1", "players": ["Ann", "Bob"],
       "setup": {"starting_credits": 100}}


@pytest.fixture
def client(locations):
    with TestClient(create_app(locations.new(), HOST_TOKEN, "http://127.0.0.1:8737")) as served:
        yield served


def made(client, game_id: str = "table-1") -> dict:
    answer = client.post("/api/games", content=json.dumps({**MOV, "id": game_id}), headers=HOST)
    assert answer.status_code == 201, answer.text
    return answer.json()


@pytest.mark.parametrize("game_id, said", [("a/b", "'/'"), ("a\x07b", "'\\x07'"), ("x" * (MAX_ID + 1), "201 characters"),
                                           ("..", "folder"), ("a\\b", "'\\\\'")])
def test_an_id_no_route_could_reach_is_refused_when_the_game_is_made(client, game_id, said):
    answer = client.post("/api/games", content=json.dumps({**MOV, "id": game_id}), headers=HOST)
    assert answer.status_code == 422 and said in answer.json()["errors"][0], answer.text
    assert "printable characters" in answer.json()["errors"][0]
    assert client.get("/api/games", headers=HOST).json()["games"] == []


def test_the_longest_id_allowed_is_reached_by_every_route(client):
    game_id = "é" * MAX_ID
    ann = made(client, game_id)["seats"]["Ann"]["token"]
    from urllib.parse import quote
    assert client.get(f"/api/games/{quote(game_id)}/replay", headers={"Authorization": f"Bearer {ann}"}).status_code == 200


@pytest.mark.parametrize("game_id", ["-", "pyproject.toml", "README.md"])
def test_the_report_reads_a_stored_game_by_its_id_never_a_file_or_standard_input(client, game_id, tmp_path,
                                                                                   monkeypatch):
    """A game stored as ``-`` or as the name of a file in the server's working directory: its report is the stored
    game's (the old route read standard input, or the file)."""
    (tmp_path / "pyproject.toml").write_text("not a log\n")
    (tmp_path / "README.md").write_text('{"type": "game", "game": "uchronia", "id": "other"}\n')
    monkeypatch.chdir(tmp_path)
    watch = made(client, game_id)["spectator"]["token"]
    from urllib.parse import quote
    answer = client.get(f"/api/games/{quote(game_id, safe='')}/report?format=json",
                        headers={"Authorization": f"Bearer {watch}"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["id"] == game_id and answer.json()["game"] == "merchant-of-venus"


def test_malformed_requests_are_4xx_with_a_message_never_500(client):
    ann = {"Authorization": f"Bearer {made(client)['seats']['Ann']['token']}"}
    deep = "[" * 1000 + "]" * 1000
    nested = client.post("/api/games/table-1/lines", content='{"line": {"type": "note", "text": "x", "x": ' + deep
                         + '}, "after": 1}', headers=ann)
    assert nested.status_code == 422 and "nests values too deep" in nested.json()["errors"][0]
    for query in (f"replay?line={10 ** 23}", f"history?after={10 ** 23}", "replay?line=-1", "replay?line=x"):
        answer = client.get(f"/api/games/table-1/{query}", headers=ann)
        assert answer.status_code == 400, (query, answer.text)
        assert any(isinstance(e, dict) and e.get("source") == "query" for e in answer.json()["errors"])
    past = client.get("/api/games/table-1/replay?line=50", headers=ann)
    assert 400 <= past.status_code < 500, past.text
    for resume in ("x", "9" * 5000, "²".encode(), "-1"):
        answer = client.get("/api/games/table-1/stream", headers={**ann, "Last-Event-ID": resume})
        assert answer.status_code == 400 and "Last-Event-ID" in answer.json()["errors"][0], resume


def test_settings_on_a_game_that_does_not_exist_are_404_and_a_game_made_later_starts_as_any(client):
    refused = client.post("/api/games/later/settings", content=json.dumps({"any_seat": True}), headers=HOST)
    assert refused.status_code == 404
    ann = made(client, "later")["seats"]["Ann"]["token"]
    assert client.get("/api/games/later/seats", headers=HOST).json()["any_seat"] is False
    other = client.post("/api/games/later/lines", content=json.dumps(
        {"line": {"type": "turn_started", "player": "Bob"}, "after": 1}), headers={"Authorization": f"Bearer {ann}"})
    assert other.status_code == 403


def test_pages_say_their_charset_once(client):
    for path in ("/", "/games/table-1", "/assets/app.js", "/assets/app.css"):
        assert client.get(path).headers["content-type"].count("charset") == 1, path
    made(client)
    report = client.get("/api/games/table-1/report", headers=HOST)
    assert report.headers["content-type"] == "text/html; charset=utf-8"


def test_append_with_bytes_that_are_not_utf8_exits_2_with_a_message(tmp_path):
    store = str(tmp_path / "s.sqlite")
    log = tmp_path / "g.jsonl"
    log.write_text(json.dumps(MOV) + "\n")
    runner = CliRunner()
    assert runner.invoke(main, ["import", str(log), "--store", store]).exit_code == 0
    line = b'{"type": "note", "text": "\xff"}'.decode("utf-8", "surrogateescape")  # as Python reads such argv
    done = runner.invoke(main, ["append", "table-1", line, "--store", store])
    assert done.exit_code == 2 and "is not UTF-8" in done.output and "nothing stored" in done.output
