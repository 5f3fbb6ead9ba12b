"""Where a command's game comes from: a log file read in memory, or the store.

docs/cli.md: ``GAME`` is a log file path (processed in memory, nothing stored) or
the ``id`` of a game already imported. ``--store`` / ``GAMELOG_STORE`` names
the store (a SQLite file path, or a ``postgresql://`` URL).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from itertools import chain
from typing import Any, Iterable

import click

from gamelog.cli.errors import InputProblem, StoreDamage, StoreProblem
from gamelog.domain.errors import LogInvalid
from gamelog.domain.reader import LogReader
from gamelog.domain.replay import decide
from gamelog.projections.store.application import DEFAULT_STORE, GameStore, StoreDamaged, StoreError, is_postgres

_URL = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://")


def _store_location(ctx: click.Context, param: click.Parameter, value: str | None) -> str:
    """The store a command uses: its own ``--store``, else the one given before the command, else
    ``GAMELOG_STORE``, else the default.

    ``gamelog --store x games`` and ``gamelog games --store x`` are the same.
    Raises click.BadParameter (exit 2) for a URL gamelog cannot open, rather
    than taking ``ftp://host/db`` for a SQLite file's name.
    """
    # Resolved here, not by click's envvar and default: those would win over the group's --store.
    for candidate in (value, ctx.find_root().params.get("store"), os.environ.get(STORE_ENV) or None, DEFAULT_STORE):
        if candidate is not None:
            value = candidate
            break
    url = _URL.match(value)
    if url and not is_postgres(value):
        raise click.BadParameter(f"unsupported URL scheme {url.group(1)!r} in {value!r}: give a SQLite file path "
                                 "or a postgresql://user@host:port/db URL", ctx=ctx, param=param)
    return value


STORE_ENV = "GAMELOG_STORE"

store_option = click.option(
    "--store",
    metavar="PATH|URL",
    callback=_store_location,
    help=f"The store: a SQLite file path or a postgresql://user@host:port/db URL (env GAMELOG_STORE; default "
         f"{DEFAULT_STORE}); may also come before the command (gamelog --store PATH games).",
)


def open_store(location: str, *, must_exist: bool = False) -> GameStore:
    """Open the store; with ``must_exist``, refuse to create a new SQLite file by reading it.

    The store is closed (its connections returned) when the command ends.
    """
    if must_exist and "://" not in location and not os.path.exists(location):
        raise StoreProblem(f"no store at {location} (import a log first, or name one with --store)")
    try:
        store = GameStore(location)
    except StoreDamaged as exc:
        raise StoreDamage(str(exc)) from exc
    except StoreError as exc:
        raise StoreProblem(str(exc)) from exc
    context = click.get_current_context(silent=True)
    if context is not None:
        context.call_on_close(store.close)
    return store


def read_log_file(path: str) -> tuple[str, list[Any]]:
    """Read and decide a log file in memory: (game name, events). Raises :class:`InputProblem`."""
    try:
        with open(path, "rb") as handle:
            reader = LogReader(handle)
            events = list(decide(reader))
    except OSError as exc:
        raise InputProblem(f"{path}: {exc.strerror or exc}") from exc
    if reader.errors:
        error = LogInvalid(path, reader.errors)
        raise InputProblem("\n".join(error.lines()))
    return reader.header.game, events


@dataclass
class Game:
    """A game's history, wherever it came from."""

    id: str
    game: str
    events: Iterable[Any]


def load_game(game: str, store_location: str) -> Game:
    """Resolve GAME: an existing file is read as a log; anything else is a stored id."""
    if os.path.isfile(game):
        name, events = read_log_file(game)
        return Game(events[0].event.id, name, events)
    if game.endswith(".jsonl") and "://" not in store_location and not os.path.exists(store_location):
        raise InputProblem(f"no such log file: {game}")
    store = open_store(store_location, must_exist=True)
    summary = store.summary(game)
    if summary is None:
        raise InputProblem(f"no log file or stored game named {game!r} (in {store_location})")
    history = store.history(summary.id)
    first = next(history, None)  # raises StoreDamaged when it cannot be read
    if first is None:
        raise StoreDamage(f"the catalog lists game {game!r} but none of its events are stored; "
                          f"`gamelog verify {game}` says more")
    return Game(summary.id, summary.game, chain([first], history))
