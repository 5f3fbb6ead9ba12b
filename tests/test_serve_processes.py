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


@contextmanager
def serving(store: str, *more: str) -> Iterator[tuple[str, subprocess.Popen]]:
    """A ``gamelog serve`` process on a free port; its URL, read from its first line. Stopped with SIGINT."""
    process = subprocess.Popen([sys.executable, "-m", "gamelog.cli.main", "serve", "--store", store, "--port", "0",
                                "--host-token", TOKEN, *more], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
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


@pytest.mark.parametrize("bad", ["short", ""])
def test_a_host_token_shorter_than_128_bits_is_refused(tmp_path, bad):
    done = subprocess.run([sys.executable, "-m", "gamelog.cli.main", "serve", "--store", str(tmp_path / "s.sqlite"),
                           "--host-token", bad], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "at least 22 characters" in done.stderr


def test_a_port_another_server_holds_is_said_and_exits_2(tmp_path):
    with serving(str(tmp_path / "s.sqlite")) as (url, _):
        port = url.rsplit(":", 1)[1]
        done = subprocess.run([sys.executable, "-m", "gamelog.cli.main", "serve", "--store", str(tmp_path / "t.sqlite"),
                               "--port", port, "--host-token", TOKEN], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip() == f"Error: cannot listen on 127.0.0.1:{port} (is another server there?)"
