"""The served recorder's games kept decided in memory (``cli/web/held.py``): forgotten when idle or too many, and
caught up with what another writer stored, read from the store's notification log."""

from __future__ import annotations

import gamelog
from gamelog.cli.web.held import HeldGames

HEADER = {"type": "game", "game": "merchant-of-venus", "players": ["Ann", "Bob"], "setup": {"starting_credits": 100}}


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_held_game_moves_with_what_another_writer_stores(locations):
    location = locations.new()
    with gamelog.open_store(location) as store, gamelog.open_store(location) as another:
        store.new_game({**HEADER, "id": "g"})
        held = HeldGames(store)
        game = held.game("g")
        assert game.forms().lines == 1 and not held.advance()  # its header was stored before the games were held
        another.game("g").record({"type": "turn_started", "player": "Ann"})
        another.game("g").record({"type": "note", "text": "hello"})
        assert [line.line for line in game.lines(after=1).lines] == []  # not read yet
        assert held.advance() and not held.advance()
        assert [(line.line, line.type) for line in game.lines(after=1).lines] == [(2, "turn_started"), (3, "note")]
        assert held.game("g") is game


def test_games_nobody_asked_for_are_forgotten_and_at_most_so_many_are_held(locations):
    clock = Clock()
    with gamelog.open_store(locations.new()) as store:
        for name in "abc":
            store.new_game({**HEADER, "id": name})
        held = HeldGames(store, idle=600, most=2, clock=clock)
        first = held.game("a")
        held.game("b")
        clock.now = 100
        assert held.game("a") is first and held.held() == ["b", "a"]
        held.game("c")  # a third: the least recently asked for goes
        assert held.held() == ["a", "c"]
        clock.now = 701  # "a" idle for 601 s, "c" for 701 s: both forgotten when the next game is asked for
        held.game("b")
        assert held.held() == ["b"] and held.game("a") is not first


def test_postgresql_wakes_a_listener_when_another_writer_stores_and_sqlite_says_to_poll(locations):
    location = locations.new()
    with gamelog.open_store(location) as store, gamelog.open_store(location) as another:
        store.new_game({**HEADER, "id": "g"})
        listener = store.listen()
        if locations.backend == "sqlite":
            assert listener is None  # SQLite tells no one: the server reads the position every so often
            return
        try:
            assert listener.wait(0) is False  # nothing stored since it listens
            another.game("g").record({"type": "note", "text": "hello"})
            assert listener.wait(30) is True and listener.wait(0) is False
        finally:
            listener.close()
