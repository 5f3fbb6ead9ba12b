"""``gamelog serve`` as a user runs it: a real server process, its default bind, Ctrl-C, and two servers on one
PostgreSQL store serving the same game (a line stored through one reaches the other's devices)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from contextlib import contextmanager
from typing import Iterator

import pytest

from tests.conftest import Locations

TOKEN = "a-host-token-shared-by-both-servers-42"
MOV = {"type": "game", "game": "merchant-of-venus", "id": "two-servers", "players": ["Ann", "Bob"],
       "setup": {"starting_credits": 100}}


def environment(token: str | None) -> dict[str, str]:
    """This process's environment with ``GAMELOG_HOST_TOKEN`` set to ``token`` (None: unset, as the README runs it)."""
    env = {key: value for key, value in os.environ.items() if key != "GAMELOG_HOST_TOKEN"}
    return {**env, "PYTHONUNBUFFERED": "1", **({"GAMELOG_HOST_TOKEN": token} if token is not None else {})}


@contextmanager
def serving(store: str, *more: str, token: str | None = TOKEN) -> Iterator[tuple[str, subprocess.Popen]]:
    """A ``gamelog serve`` process on a free port, its host token from the environment (``token``; None: the one
    the store keeps); its URL, read from its first line. Stopped with SIGINT."""
    process = subprocess.Popen([sys.executable, "-m", "gamelog.cli.main", "serve", "--store", store, "--port", "0",
                                *more], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env=environment(token))
    try:
        first = process.stdout.readline()
        found = re.search(r"(http://[^ ]+)", first)
        assert found, (first, process.stderr.read() if process.poll() is not None else "")
        yield found.group(1), process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def call(url: str, method: str = "GET", body: dict | None = None, token: str = TOKEN) -> tuple[int, object]:
    request = urllib.request.Request(url, method=method, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def test_serve_listens_on_this_machine_only_by_default_and_stops_cleanly_on_ctrl_c(tmp_path):
    with serving(str(tmp_path / "s.sqlite")) as (url, process):
        assert url.startswith("http://127.0.0.1:")
        host_link = process.stdout.readline()
        assert f"{url}/#token={TOKEN}" in host_link
        status, games = call(f"{url}/api/games")
        assert (status, games) == (200, {"games": [], "version": 1})
        with urllib.request.urlopen(f"{url}/", timeout=60) as page:  # the page itself carries no data, no token
            html = page.read().decode()
        assert "<script src=\"/assets/app.js\"></script>" in html and TOKEN not in html
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=60) == 0
        assert "Traceback" not in process.stderr.read()


def test_two_servers_on_one_postgresql_store_serve_the_same_game(tmp_path):
    locations = Locations("postgresql", tmp_path)
    store = locations.new()
    try:
        with serving(store) as (first, _), serving(store) as (second, _):
            status, made = call(f"{first}/api/games", "POST", MOV)
            assert status == 201
            ann = made["seats"]["Ann"]["token"]
            # The seat's token, made by the first server, is the second's too (derived from the host's token).
            events: list[int] = []
            listening = threading.Event()

            def follow() -> None:
                request = urllib.request.Request(f"{second}/api/games/two-servers/stream",
                                                 headers={"Authorization": f"Bearer {ann}", "Last-Event-ID": "1"})
                with urllib.request.urlopen(request, timeout=60) as stream:
                    listening.set()
                    for raw in stream:
                        if raw.startswith(b"id:"):
                            events.append(int(raw[3:]))
                            if len(events) == 2:
                                return

            follower = threading.Thread(target=follow, daemon=True)
            follower.start()
            assert listening.wait(60)
            assert call(f"{first}/api/games/two-servers/lines", "POST",
                        {"line": {"type": "turn_started", "player": "Ann"}, "after": 1}, ann)[0] == 201
            # Two entries against the same line, one through each server: one stored, the other told it moved.
            answers = []
            barrier = threading.Barrier(2)

            def note(url: str, text: str) -> None:
                barrier.wait()
                answers.append(call(f"{url}/api/games/two-servers/lines", "POST",
                                    {"line": {"type": "note", "text": text, "player": "Ann"}, "after": 2}, ann))

            both = [threading.Thread(target=note, args=(url, text)) for url, text in ((first, "a"), (second, "b"))]
            for thread in both:
                thread.start()
            for thread in both:
                thread.join()
            assert sorted(status for status, _ in answers) == [201, 409]
            assert [body for status, body in answers if status == 409] == [{"appended": False, "lines": 3}]
            follower.join(60)
            assert events == [2, 3]  # both lines reached the second server's device, the first stored by the other
            status, seen = call(f"{second}/api/games/two-servers/history", token=ann)
            assert [line["line"] for line in seen["lines"]] == [1, 2, 3]
    finally:
        locations.drop()


def serve_once(*arguments: str, token: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gamelog.cli.main", "serve", *arguments], capture_output=True,
                          text=True, timeout=120, env=environment(token))


@pytest.mark.parametrize("bad", ["a" * 22, "short", "ab" * 30])
def test_a_host_token_weaker_than_128_bits_is_refused(tmp_path, bad):
    """22 × ``a`` is 0 bits by length × log2 of the characters used; 60 characters of two letters, 60."""
    done = serve_once("--store", str(tmp_path / "s.sqlite"), token=bad)
    assert done.returncode == 2 and "the host token is too weak" in done.stderr and "at least 128" in done.stderr
    assert bad not in done.stderr


def test_a_host_token_on_the_command_line_is_refused_with_where_to_give_it(tmp_path):
    done = serve_once("--store", str(tmp_path / "s.sqlite"), "--host-token", TOKEN)
    assert done.returncode == 2
    assert "GAMELOG_HOST_TOKEN" in done.stderr and "--host-token-file" in done.stderr and TOKEN not in done.stderr


def test_a_store_that_cannot_be_opened_is_said_as_the_stores_error(tmp_path):
    (tmp_path / "folder.sqlite").mkdir()
    done = serve_once("--store", str(tmp_path / "folder.sqlite"), "--port", "0")
    assert done.returncode == 2 and "cannot listen" not in done.stderr
    assert str(tmp_path / "folder.sqlite") in done.stderr, done.stderr


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_restart_with_the_readmes_command_keeps_every_link_and_rotating_ends_them(tmp_path, backend):
    """Issue 38, item 6: no token given (the README's command): the store keeps the host secret, so a seat's link
    made before a restart works after it, and two servers on one store accept the same devices."""
    locations = Locations(backend, tmp_path)
    store = locations.new()
    try:
        with serving(store, token=None) as (url, process):
            host = re.search(r"#token=(\S+)", process.stdout.readline()).group(1)
            status, made = call(f"{url}/api/games", "POST", {**MOV, "id": "restarted"}, host)
            assert status == 201
            ann = made["seats"]["Ann"]["token"]
        with serving(store, token=None) as (url, process):
            assert re.search(r"#token=(\S+)", process.stdout.readline()).group(1) == host
            assert call(f"{url}/api/games/restarted/replay", token=ann)[0] == 200
        with serving(store, "--rotate-host-token", token=None) as (url, process):
            rotated = re.search(r"#token=(\S+)", process.stdout.readline()).group(1)
            assert rotated != host
            assert call(f"{url}/api/games/restarted/replay", token=ann)[0] == 401
            assert call(f"{url}/api/games/restarted/replay", token=rotated)[0] == 200
    finally:
        locations.drop()


def test_a_wildcard_bind_hands_out_the_lan_address_and_url_overrides_it(tmp_path):
    from gamelog.cli.web.address import lan_address

    with serving(str(tmp_path / "s.sqlite"), "--host", "0.0.0.0") as (url, process):
        found = lan_address()
        assert url.startswith(f"http://{found or '127.0.0.1'}:")
        assert not url.startswith("http://127.0.1.1")
        status, made = call(f"{url.replace(found or '127.0.0.1', '127.0.0.1')}/api/games", "POST", MOV)
        assert status == 201 and made["seats"]["Ann"]["url"].startswith(f"{url}/games/two-servers#token=")
    with serving(str(tmp_path / "s.sqlite"), "--url", "http://table.local:9999") as (url, _):
        assert url == "http://table.local:9999"


def test_a_port_another_server_holds_is_said_and_exits_2(tmp_path):
    with serving(str(tmp_path / "s.sqlite")) as (url, _):
        port = url.rsplit(":", 1)[1]
        done = serve_once("--store", str(tmp_path / "t.sqlite"), "--port", port, token=TOKEN)
    assert done.returncode == 2
    assert done.stderr.strip() == f"Error: cannot listen on 127.0.0.1:{port} (is another server there?)"


def test_a_host_token_file_gives_the_secret_by_hand(tmp_path):
    secret = tmp_path / "secret"
    secret.write_text(TOKEN + "\n")
    secret.chmod(0o600)
    with serving(str(tmp_path / "s.sqlite"), "--host-token-file", str(secret), token=None) as (url, process):
        assert process.stdout.readline().rstrip().endswith(f"/#token={TOKEN}")
        assert call(f"{url}/api/games")[0] == 200
