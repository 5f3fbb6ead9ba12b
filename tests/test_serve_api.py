"""The recorder's HTTP contract (docs/serve.md), called directly on both backends: every status, the seats'
rights, two entries at once, what a seat's answers never hold, and the log back out."""

from __future__ import annotations

import json
import threading

import pytest
from litestar.testing import TestClient

from gamelog.cli.web.app import MAX_BODY, create_app

HOST_TOKEN = "host-token-for-the-tests-0123456789"
HOST = {"Authorization": f"Bearer {HOST_TOKEN}"}
MOV = {"type": "game", "game": "merchant-of-venus", "id": "table-1", "players": ["Ann", "Bob"],
       "setup": {"starting_credits": 100}}


@pytest.fixture
def client(locations):
    with TestClient(create_app(locations.new(), HOST_TOKEN, "http://127.0.0.1:8737")) as served:
        yield served


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def started(client, header=MOV) -> dict:
    made = client.post("/api/games", content=json.dumps(header), headers=HOST)
    assert made.status_code == 201, made.text
    return made.json()


def post_line(client, token: str, line: dict, after: int, **more) -> object:
    return client.post(f"/api/games/{MOV['id']}/lines", content=json.dumps({"line": line, "after": after, **more}),
                       headers=bearer(token))


def test_a_new_game_gives_each_seat_and_the_spectators_a_token_and_a_link(client):
    made = started(client)
    assert made["id"] == "table-1" and set(made["seats"]) == {"Ann", "Bob"}
    tokens = {s["token"] for s in made["seats"].values()} | {made["spectator"]["token"], HOST_TOKEN}
    assert len(tokens) == 4 and all(len(t) >= 22 for t in tokens)  # 32 bytes of HMAC, base64url: 256 bits
    assert made["seats"]["Ann"]["url"] == f"http://127.0.0.1:8737/games/table-1#token={made['seats']['Ann']['token']}"
    listed = client.get("/api/games", headers=HOST).json()
    assert [g["id"] for g in listed["games"]] == ["table-1"]


def test_a_bad_header_is_422_with_the_readers_own_messages(client):
    bad = client.post("/api/games", content=json.dumps({**MOV, "players": "Ann"}), headers=HOST)
    assert bad.status_code == 422
    assert bad.json()["errors"] == [{"line": 1, "path": "$.players", "message": "Expected `array`, got `str`"}]
    assert client.get("/api/games", headers=HOST).json()["games"] == []  # nothing stored


def test_every_status_of_posting_a_line(client):
    seats = started(client)["seats"]
    ann, bob = seats["Ann"]["token"], seats["Bob"]["token"]
    stored = post_line(client, ann, {"type": "turn_started", "player": "Ann"}, after=1)
    assert stored.status_code == 201
    assert stored.json() | {"rules": {}} == {"appended": True, "line": 2, "lines": 2, "findings": [], "rules": {},
                                             "moved": False, "errors": [], "version": 1}
    # Bob starts a turn while Ann's is under way: MOV-TURN-END, not stored.
    broken = post_line(client, bob, {"type": "turn_started", "player": "Bob"}, after=2)
    assert broken.status_code == 200 and broken.json()["appended"] is False
    assert [(f["line"], f["rule"], f["severity"]) for f in broken.json()["findings"]] == [(3, "MOV-TURN-END", "violation")]
    assert broken.json()["rules"]["MOV-TURN-END"].startswith("A turn ends when")
    assert len(client.get("/api/games/table-1/history", headers=HOST).json()["lines"]) == 2
    # The table agreed: stored, its finding stands.
    agreed = post_line(client, bob, {"type": "turn_started", "player": "Bob"}, after=2, anyway=True)
    assert agreed.status_code == 201 and agreed.json()["line"] == 3
    history = client.get("/api/games/table-1/history", headers=HOST).json()["lines"]
    assert [f["rule"] for f in history[-1]["findings"]] == ["MOV-TURN-END"]
    moved = post_line(client, ann, {"type": "turn_ended", "player": "Ann"}, after=2)
    assert (moved.status_code, moved.json()) == (409, {"appended": False, "lines": 3})
    malformed = post_line(client, ann, {"type": "turn_endd", "player": "Ann"}, after=3)
    assert malformed.status_code == 422
    assert malformed.json() == {"errors": [{"line": 4, "path": "$.type", "message": "unknown event type 'turn_endd': did you mean `turn_ended`?"}]}
    missing = post_line(client, ann, {"type": "goods_bought", "player": "Ann"}, after=3)
    assert missing.status_code == 422 and missing.json()["errors"][0]["message"] == "missing required field"
    not_json = client.post("/api/games/table-1/lines", content=b"{", headers=bearer(ann))
    assert not_json.status_code == 422 and "not JSON" in not_json.json()["errors"][0]


def test_a_seat_records_only_its_own_lines_and_never_reads_the_log(client):
    made = started(client)
    ann = made["seats"]["Ann"]["token"]
    other = post_line(client, ann, {"type": "turn_started", "player": "Bob"}, after=1)
    assert other.status_code == 403 and "Bob's" in other.json()["errors"][0]
    assert client.get("/api/games/table-1/log", headers=bearer(ann)).status_code == 403
    spectator = made["spectator"]["token"]
    assert post_line(client, spectator, {"type": "note", "text": "hi"}, after=1).status_code == 403
    assert client.get("/api/games/table-1/log", headers=bearer(spectator)).status_code == 200
    # The host lets every seat record any player's lines.
    allowed = client.post("/api/games/table-1/settings", content=json.dumps({"any_seat": True}), headers=HOST)
    assert allowed.status_code == 200
    assert post_line(client, ann, {"type": "note", "text": "for Bob", "player": "Bob"}, after=1).status_code == 201
    assert client.post("/api/games/table-1/settings", content=json.dumps({"any_seat": True}),
                       headers=bearer(ann)).status_code == 403


def test_no_token_an_unknown_one_or_another_games_is_401(client):
    made = started(client)
    started(client, {**MOV, "id": "table-2"})
    assert client.get("/api/games/table-1/replay").status_code == 401
    assert client.get("/api/games/table-1/replay", headers=bearer("x" * 43)).status_code == 401
    assert client.get("/api/games/table-1/replay", headers={"Authorization": HOST_TOKEN}).status_code == 401
    # A seat's token is its game's only: at another game, and at a game that does not exist, it is no one.
    ann = made["seats"]["Ann"]["token"]
    assert client.get("/api/games/table-2/replay", headers=bearer(ann)).status_code == 401
    assert client.get("/api/games/no-such-game/replay", headers=bearer(ann)).status_code == 401
    assert client.get("/api/games", headers=bearer(ann)).status_code == 401
    assert client.get("/api/games/no-such-game/replay", headers=HOST).status_code == 404


def test_a_body_over_the_limit_is_413_and_a_hostile_id_is_no_game(client):
    made = started(client)
    ann = made["seats"]["Ann"]["token"]
    big = client.post("/api/games/table-1/lines", content=b"x" * (MAX_BODY + 1), headers=bearer(ann))
    assert big.status_code == 413 and "errors" in big.json()
    for hostile in ("..%2F..%2Fetc%2Fpasswd", "a%00b", "x" * 201, "%0aline"):
        answer = client.get(f"/api/games/{hostile}/replay", headers=HOST)
        assert answer.status_code == 404, hostile
        assert "Traceback" not in answer.text and answer.json()["errors"]


def test_two_entries_made_against_the_same_line_one_is_stored_the_other_told_the_game_moved(client):
    seats = started(client)["seats"]
    ann = seats["Ann"]["token"]
    assert post_line(client, ann, {"type": "turn_started", "player": "Ann"}, after=1).status_code == 201
    answers: list[int] = []
    barrier = threading.Barrier(2)

    def note(text: str) -> None:
        barrier.wait()
        answers.append(post_line(client, ann, {"type": "note", "text": text, "player": "Ann"}, after=2).status_code)

    threads = [threading.Thread(target=note, args=(text,)) for text in ("first", "second")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [201, 409]
    log = client.get("/api/games/table-1/log", headers=HOST).text.splitlines()
    assert len(log) == 3 and sum('"type":"note"' in line for line in log) == 1


def test_replacing_a_line_is_one_correction_line_that_carries_the_new_one(client):
    seats = started(client)["seats"]
    ann = seats["Ann"]["token"]
    post_line(client, ann, {"type": "turn_started", "player": "Ann"}, after=1)
    post_line(client, ann, {"type": "note", "text": "landed at Volois", "player": "Ann"}, after=2)
    replaced = post_line(client, ann, {"type": "note", "text": "landed at Nillis", "player": "Ann"}, after=3, replaces=3,
                         reason="it was Nillis")
    assert replaced.status_code == 201 and replaced.json()["line"] == 4
    lines = {s["line"]: s for s in client.get("/api/games/table-1/history", headers=bearer(ann)).json()["lines"]}
    correction = lines[4]["entry"]  # ``at``: the server's, the replacement's too (test_server_time)
    at = correction.get("at")
    assert lines[3]["voided_by"] == 4 and correction == {
        "type": "correction", "voids": 3, "reason": "it was Nillis", "at": at,
        "replacement": {"type": "note", "text": "landed at Nillis", "player": "Ann", "at": at}} and at.endswith("Z")
    assert lines[4]["voided_by"] is None and set(lines) == {1, 2, 3, 4}
    # Bob may not replace Ann's line, nor put a line of his in place of one of hers.
    bob = seats["Bob"]["token"]
    refused = post_line(client, bob, {"type": "note", "text": "no", "player": "Bob"}, after=4, replaces=2)
    assert refused.status_code == 403
    assert post_line(client, ann, {"type": "note", "text": "no", "player": "Bob"}, after=4, replaces=2).status_code == 403


def test_the_replay_is_the_documents_of_replay_and_the_stream_resumes_from_the_last_event_id(locations):
    import http.client
    import socket

    import uvicorn

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(locations.new(), HOST_TOKEN, f"http://127.0.0.1:{port}"),
                                           host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    running = threading.Thread(target=server.run, daemon=True)
    running.start()
    try:
        for _ in range(600):  # until it listens (bounded)
            if server.started:
                break
            threading.Event().wait(.05)

        def call(method: str, path: str, body: dict | None = None, token: str = HOST_TOKEN, **headers: str):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            conn.request(method, path, body=None if body is None else json.dumps(body),
                         headers={"Authorization": f"Bearer {token}", **headers})
            return conn, conn.getresponse()

        _, made = call("POST", "/api/games", MOV)
        ann = json.loads(made.read())["seats"]["Ann"]["token"]
        for after, line in enumerate([{"type": "turn_started", "player": "Ann"},
                                      {"type": "note", "text": "one", "player": "Ann"},
                                      {"type": "turn_ended", "player": "Ann"}], 1):
            _, stored = call("POST", "/api/games/table-1/lines", {"line": line, "after": after}, ann)
            assert stored.status == 201
        _, state = call("GET", "/api/games/table-1/replay", token=ann)
        state = json.loads(state.read())
        assert (state["line"], state["turn"], state["players"]["Ann"]["credits"]) == (4, 1, 100)
        _, at = call("GET", "/api/games/table-1/replay?line=2", token=ann)
        assert json.loads(at.read())["line"] == 2
        conn, events = call("GET", "/api/games/table-1/stream", token=ann, **{"Last-Event-ID": "2"})
        assert events.getheader("content-type").startswith("text/event-stream")
        ids = []
        while len(ids) < 2:
            text = events.fp.readline().decode()
            if text.startswith("id:"):
                ids.append(int(text[3:]))
        assert ids == [3, 4]
        # A line stored now reaches the open stream.
        _, stored = call("POST", "/api/games/table-1/lines", {"line": {"type": "turn_started", "player": "Bob"},
                                                             "after": 4}, ann)
        assert stored.status == 403  # Bob's line, from Ann's seat
        _, stored = call("POST", "/api/games/table-1/lines", {"line": {"type": "note", "text": "two", "player": "Ann"},
                                                             "after": 4}, ann)
        assert stored.status == 201
        while len(ids) < 3:
            text = events.fp.readline().decode()
            if text.startswith("id:"):
                ids.append(int(text[3:]))
        assert ids == [3, 4, 5]
        conn.close()
    finally:
        server.should_exit = True
        running.join(timeout=30)


def test_the_exported_log_validates_and_imports_to_the_same_fingerprint(client, tmp_path):
    from click.testing import CliRunner

    from gamelog.cli.main import main

    seats = started(client)["seats"]
    ann = seats["Ann"]["token"]
    post_line(client, ann, {"type": "turn_started", "player": "Ann"}, after=1)
    post_line(client, ann, {"type": "hazard_paid", "player": "Ann", "cost": 500}, after=2, anyway=True)
    log = client.get("/api/games/table-1/log", headers=HOST)
    assert log.headers["content-type"].startswith("application/jsonl")
    path = tmp_path / "exported.jsonl"
    path.write_text(log.text)
    runner = CliRunner()
    checked = json.loads(runner.invoke(main, ["validate", str(path), "--format", "json"]).output)
    page = client.get("/api/games/table-1/history", headers=HOST).json()["lines"]
    assert [(f["line"], f["rule"]) for f in checked["files"][0]["findings"]] == \
        [(f["line"], f["rule"]) for line in page for f in line["findings"]]
    store = str(tmp_path / "again.sqlite")
    assert runner.invoke(main, ["import", str(path), "--store", store]).exit_code == 0
    fingerprints = [json.loads(runner.invoke(main, ["games", "--store", where, "--format", "json"]).output)["games"][0]
                    ["fingerprint"] for where in (store,)]
    served = client.get("/api/games", headers=HOST).json()["games"][0]["fingerprint"]
    assert fingerprints == [served]


def test_the_openapi_document_names_every_route_of_the_contract(client):
    paths = client.get("/api/openapi.json").json()["paths"]
    assert {"/api/games", "/api/games/{game_id}/lines", "/api/games/{game_id}/replay", "/api/games/{game_id}/log",
            "/api/games/{game_id}/stream"} <= set(paths)
    assert set(paths["/api/games"]) == {"get", "post"}


def test_a_seats_answers_never_hold_another_players_unscored_secret(client):
    """Ann's seat and a spectator, after 60 lines of the 4-player example: Bob's and Dee's secret objectives, drawn
    and not yet scored, are in none of their answers; Bob's own seat sees his."""
    from tests.conftest import EXAMPLES, open_lists_left_out

    raw = [line for line in (EXAMPLES / "twilight-imperium-4" / "complete-4p.jsonl").read_text().splitlines()
           if line.strip() and not line.lstrip().startswith("#")]
    header, lines = json.loads(raw[0]), [json.loads(line) for line in raw[1:61]]
    made = client.post("/api/games", content=json.dumps(header), headers=HOST).json()
    game = made["id"]
    for after, line in enumerate(lines, 1):
        stored = client.post(f"/api/games/{game}/lines", content=json.dumps({"line": line, "after": after,
                                                                             "anyway": True}), headers=HOST)
        assert stored.status_code == 201, (after, stored.text)
    held = ["Control the Region", "Monopolize Production"]  # Bob's and Dee's, unscored by line 61
    ann, bob = bearer(made["seats"]["Ann"]["token"]), bearer(made["seats"]["Bob"]["token"])
    watcher = bearer(made["spectator"]["token"])

    def everything(headers: dict) -> str:
        base = f"/api/games/{game}"
        answers = [client.get(f"{base}/{what}", headers=headers).text
                   for what in ("replay", "replay?line=20", "history")]
        answers.append(open_lists_left_out(client.get(f"{base}/forms", headers=headers).text))
        answers += [client.get(f"{base}/report?format={fmt}", headers=headers).text
                    for fmt in ("html", "json", "text", "markdown", "csv")]
        return "\n".join(answers).casefold()

    for seen in (everything(ann), everything(watcher)):
        assert "twilight-imperium-4" in seen
        for secret in held:
            assert secret.casefold() not in seen, secret
    assert "control the region" in everything(bob)
    # A line of Ann's whose finding quotes a card: scoring Dee's secret as if it were hers. The answer names the card
    # Ann named and nothing of who holds it (tests/test_serve_seats.py: the same answer whoever holds it).
    scored = client.post(f"/api/games/{game}/lines", content=json.dumps({"line": {
        "type": "objective_scored", "player": "Ann", "objective": "Monopolize Production", "kind": "secret",
        "points": 1}, "after": len(lines) + 1}), headers=ann).json()
    assert "ann does not hold the secret objective monopolize production" in json.dumps(scored).casefold()
    assert "control the region" not in json.dumps(scored).casefold() and "dee" not in json.dumps(scored).casefold()
    # Ann draws from the deck less only what she may know is out of it: Bob's card stands in it as any other.
    drawn = next(f for f in client.get(f"/api/games/{game}/forms", headers=ann).json()["forms"]
                 if f["type"] == "secret_objective_drawn")
    assert "Control the Region" in next(f for f in drawn["fields"] if f["name"] == "objective")["values"]


def test_eight_devices_recording_at_once_lose_no_entry_and_store_none_twice(client):
    """Eight threads, each making five notes as a device does (read the log's length, post after it, on 409 read
    again and retry): every note is stored exactly once, no answer is an error, and the lines are consecutive."""
    seats = started(client)["seats"]
    ann = seats["Ann"]["token"]
    statuses: list[int] = []
    barrier = threading.Barrier(8)

    def device(n: int) -> None:
        barrier.wait()
        for k in range(5):
            for _ in range(200):  # bounded: a device gives up after 200 moves of the game
                after = client.get("/api/games/table-1/forms", headers=bearer(ann)).json()["lines"]
                answer = post_line(client, ann, {"type": "note", "text": f"{n}.{k}", "player": "Ann"}, after=after)
                statuses.append(answer.status_code)
                if answer.status_code != 409:
                    break

    threads = [threading.Thread(target=device, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert set(statuses) <= {201, 409} and statuses.count(201) == 40
    lines = client.get("/api/games/table-1/history", headers=HOST).json()["lines"]
    notes = [line["entry"]["text"] for line in lines if line["type"] == "note"]
    assert sorted(notes) == sorted(f"{n}.{k}" for n in range(8) for k in range(5))
    assert [line["line"] for line in lines] == list(range(1, 42))


def test_a_new_game_under_a_stored_games_id_is_422_and_changes_nothing(client):
    seats = started(client)["seats"]
    post_line(client, seats["Ann"]["token"], {"type": "turn_started", "player": "Ann"}, after=1)
    again = client.post("/api/games", content=json.dumps(MOV), headers=HOST)
    assert again.status_code == 422
    assert again.json() == {"errors": ["a game with the id 'table-1' is stored already; give the new game another id"]}
    assert len(client.get("/api/games/table-1/history", headers=HOST).json()["lines"]) == 2


@pytest.mark.parametrize("entries", [20, 100])
def test_many_entries_at_once_get_one_201_and_the_rest_409_never_a_5xx(client, entries):
    """Issue 38, item 3: every device posts against the same line at once (PostgreSQL stalled here: each entry held
    one of the pool's connections and waited for a second). One is stored, the others told the game moved."""
    seats = started(client)["seats"]
    ann = seats["Ann"]["token"]
    assert post_line(client, ann, {"type": "turn_started", "player": "Ann"}, after=1).status_code == 201
    statuses: list[int] = []
    barrier = threading.Barrier(entries)

    def note(n: int) -> None:
        barrier.wait()
        statuses.append(post_line(client, ann, {"type": "note", "text": f"{n}", "player": "Ann"}, after=2).status_code)

    threads = [threading.Thread(target=note, args=(n,)) for n in range(entries)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [201] + [409] * (entries - 1)
    assert len(client.get("/api/games/table-1/history", headers=HOST).json()["lines"]) == 3


def test_a_resent_entry_with_the_same_key_gets_the_first_answer_and_is_stored_once(client):
    """Issue 38, item 8: the answer was lost and the page sends the entry again with its key: the first answer, one
    line. A refused entry keeps no key (sent again, it is decided anew); another seat's same key is its own."""
    seats = started(client)["seats"]
    ann, bob = seats["Ann"]["token"], seats["Bob"]["token"]
    first = post_line(client, ann, {"type": "turn_started", "player": "Ann"}, after=1, key="k-1")
    again = post_line(client, ann, {"type": "turn_started", "player": "Ann"}, after=1, key="k-1")
    assert (first.status_code, again.status_code) == (201, 201) and again.json() == first.json()
    assert len(client.get("/api/games/table-1/history", headers=HOST).json()["lines"]) == 2
    broken = post_line(client, bob, {"type": "turn_started", "player": "Bob"}, after=2, key="k-2")
    assert broken.status_code == 200
    agreed = post_line(client, bob, {"type": "turn_started", "player": "Bob"}, after=2, key="k-2", anyway=True)
    assert agreed.status_code == 201 and agreed.json()["line"] == 3
    mine = post_line(client, ann, {"type": "note", "text": "mine", "player": "Ann"}, after=3, key="k-2")
    assert mine.status_code == 201 and mine.json()["line"] == 4  # Bob's k-2 is not Ann's
    bad = post_line(client, ann, {"type": "note", "text": "x", "player": "Ann"}, after=4, key="a key")
    assert bad.status_code == 422


def test_the_same_key_sent_at_once_is_stored_once(client):
    seats = started(client)["seats"]
    ann = seats["Ann"]["token"]
    statuses: list[int] = []
    barrier = threading.Barrier(6)

    def note() -> None:
        barrier.wait()
        statuses.append(post_line(client, ann, {"type": "note", "text": "once", "player": "Ann"}, after=1,
                                  key="same").status_code)

    threads = [threading.Thread(target=note) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert set(statuses) <= {201, 409} and 201 in statuses
    lines = client.get("/api/games/table-1/history", headers=HOST).json()["lines"]
    assert [line["entry"].get("text") for line in lines[1:]] == ["once"]


def test_the_forms_say_who_is_due_next_and_fill_in_what_the_data_fix(client):
    """After Ann ends her turn Bob is due (not Ann); on Bob's landing at the Volois the sale's culture is filled in
    and only the goods the Volois buy are offered; the bank may be paid."""
    made = started(client, MOV | {"setup": {"starting_credits": 500}})
    bob = bearer(made["seats"]["Bob"]["token"])
    for after, line in enumerate([{"type": "turn_started", "player": "Ann"}, {"type": "turn_ended", "player": "Ann"}], 1):
        assert post_line(client, HOST_TOKEN, line, after).status_code == 201
    forms = client.get(f"/api/games/{MOV['id']}/forms", headers=bob).json()
    assert forms["due"] == "Bob" and forms["next"] == {"player": "Bob", "starts_turn": True, "over": False}
    for after, line in enumerate([{"type": "turn_started", "player": "Bob"},
                                  {"type": "landed", "player": "Bob", "venue": "surface_city", "culture": "Volois"}], 3):
        assert post_line(client, HOST_TOKEN, line, after).status_code == 201
    forms = {f["type"]: {field["name"]: field for field in f["fields"]}
             for f in client.get(f"/api/games/{MOV['id']}/forms", headers=bob).json()["forms"]}
    assert forms["goods_sold"]["culture"]["value"] == "Volois" and forms["goods_sold"]["good"]["values"] == []
    assert forms["goods_bought"]["unit_price"]["value_for"]["Voil Silk"] == 140
    assert "bank" in forms["credits_paid"]["to"]["offered"]
