"""A store of games as a program uses it: open one, import logs into it, list and load its games (docs/python-api.md).

The same store the CLI's ``--store`` names: a SQLite file path (created on the first import) or a
``postgresql://user@host:port/db`` URL. Errors are gamelog's: the store's (``StoreError``, ``StoreBusy``,
``StoreReadOnly``, ``StoreDamaged``) and the services' (:mod:`gamelog.errors`).
"""

from __future__ import annotations

import io
import os
from contextlib import contextmanager
from typing import Any, BinaryIO, Callable, Iterable, Iterator, TextIO

import msgspec

from gamelog.projections.importing.importer import ImportResult, Outcome, import_log
from gamelog.projections.reports.documents import EntryResult
from gamelog.projections.store.application import DEFAULT_STORE, GameSummary, game_uuid
from gamelog.projections.views.keeper import ViewKeeper

from .errors import LogInvalid
from .inputs import export_hint, opened_source
from .game import Game, stored_game
from .idempotency import once
from .reconciling import StoreReconciliation, reconcile_store
from .recording import new_game
from .reporting import stored_report
from .secrecy import Public
from .sources import check_store_location, open_game_store
from .superseding import superseding

__all__ = ["ImportResult", "Outcome", "Store", "open_store"]


class Store:
    """An open store; close it (or use it in a ``with`` block) to give its connections back."""

    def __init__(self, location: str | os.PathLike[str] = DEFAULT_STORE):
        self.location = check_store_location(os.fspath(location))
        self._store = open_game_store(self.location)

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        self._store.close()

    def __repr__(self) -> str:
        return f"<gamelog.Store {self.location!r}>"

    @property
    def connections(self) -> int:
        """The most connections the store's pool gives at once: what as many threads may hold, one each."""
        return self._store.connections

    def once(self, game_id: str, sender: str, key: str | None, record: Callable[[], EntryResult]) -> EntryResult:
        """``record()``'s answer to the entry ``key`` names, from ``sender``, taken once (a resend gets the first
        answer, nothing recorded twice): :func:`~.idempotency.once`. Raises what ``record`` raises, and the
        store's errors."""
        return once(self._store, game_id, sender, key, record)

    @contextmanager
    def report(self, game_id: str, *, fmt: str = "text", as_player: str | Public | None = None) -> Iterator[Iterable[str]]:
        """The report of the game stored under ``game_id``, read by its id only (never a file or standard input,
        whatever the id spells), in ``fmt``, as ``as_player`` may see it; for the ``with`` block. Raises
        ``GameNotFound`` and what :func:`~.reporting.stored_report` raises."""
        with stored_report(self._store, game_id, fmt=fmt, as_player=as_player) as pieces:
            yield pieces

    def import_log(self, log: str | os.PathLike[str] | BinaryIO | TextIO, /, *, name: str | None = None,
                   source: str | None = None) -> ImportResult:
        """Append a log's new lines to its game, atomically, and bring the views up to date.

        ``log`` is a path or an open handle (binary, or text: read whole, as UTF-8); ``name`` names it in messages.
        With ``source`` (``--from``: ``"ti-assistant"``...), it is that tool's export, converted first; a later
        export of a stored game extends it, as ``gamelog import --from`` does (the earlier export's lines it does
        not repeat voided by corrections). The result's ``outcome``
        is ``Outcome.IMPORTED``, ``ALREADY_IMPORTED`` (nothing new) or ``CONFLICT`` (the log differs from the
        stored game at an earlier line: nothing stored, ``message`` says where). Raises
        :class:`~gamelog.errors.LogInvalid` (every input error; nothing stored), :class:`~gamelog.errors.BadInput` for
        a file that cannot be read (or, with ``source``, converted), and the store's errors.
        """
        keeper = ViewKeeper(self._store)
        with opened_source(log, name, source_format=source) as (handle, name, path):
            if source is not None:  # a later export of a stored game extends it
                handle = io.BytesIO(superseding(self._store, handle.read(), name).log)
            try:
                result = import_log(self._store, handle, name, along=keeper.alongside)  # the views in its transaction
            except LogInvalid as invalid:  # another tool's export given as a log: the error says which `source`
                raise LogInvalid(invalid.filename, export_hint(invalid.errors, path)) from None
        keeper.catch_up()  # what they missed before it, if anything
        return result

    def games(self) -> list[GameSummary]:
        """Every stored game, by id: ``id``, ``game``, ``players``, ``events``, ``last_line``, ``finished``,
        ``winner``, ``fingerprint``."""
        return self._store.games()

    def game(self, game_id: str) -> Game:
        """The stored game ``game_id``: every question of :class:`~gamelog.Game`, and recording it
        (:meth:`~gamelog.Game.record`). Raises :class:`~gamelog.errors.GameNotFound`."""
        return stored_game(self._store, game_id, self.location)

    def new_game(self, header: bytes | str | dict[str, Any]) -> Game:
        """Store a new game from its header (a log's first line: JSON, or the object itself), checked exactly as a
        log's header, and return it, to record. Raises :class:`~gamelog.errors.LogInvalid` (named ``entry``) for a
        header that is not valid, and :class:`~gamelog.errors.BadInput` for a game already stored under its id."""
        if isinstance(header, dict):
            header = msgspec.json.encode(header)
        elif isinstance(header, str):
            header = header.encode("utf-8")
        return self.game(new_game(self._store, header))

    def position(self) -> int:
        """Where the store's notification log ends (0 for an empty store): it moves each time any process stores
        an event, and never goes back."""
        return self._store.last_position()

    def listen(self) -> Any:
        """What wakes a program when any process stores an event: on PostgreSQL, an object whose ``wait(timeout)``
        returns True once one is stored (LISTEN/NOTIFY; False after ``timeout`` seconds) and ``close()``; None on
        SQLite, which tells no one: read :meth:`position` every so often. Raises the store's errors."""
        return self._store.listen()

    def moved(self, after: int, games: Iterable[str]) -> tuple[int, set[str]]:
        """Which of ``games`` (ids) gained events after position ``after`` of the notification log (as
        :meth:`position` gives it), and the position they reach (``after`` when none did): what a program holding
        games decided in memory asks before it catches them up (``Game.catch_up``)."""
        ids = {game_uuid(game_id).hex: game_id for game_id in games}
        moved = self._store.moved_since(after)
        return max([after, *moved.values()]), {ids[uid] for uid in moved if uid in ids}

    def reconcile(self, declared: str | os.PathLike[str], *, columns: str | None = None) -> StoreReconciliation:
        """``reconcile --declared FILE --format json`` with no GAME: each game of the results table ``declared``
        matched to a stored game (by id, else by players and factions) and reconciled; ``disagree`` lists the
        games whose declared scores or winner differ, ``unmatched`` those of the table that match no stored game
        (``FILE:LINE: ...``; the others are reconciled all the same). Raises
        :class:`~gamelog.reconciling.TableInvalid` (``FILE:LINE``) for a player who is not the matched game's."""
        return reconcile_store(self.location, os.fspath(declared), columns=columns)

    def __contains__(self, game_id: object) -> bool:
        return isinstance(game_id, str) and self._store.summary(game_id) is not None


def open_store(location: str | os.PathLike[str] = DEFAULT_STORE) -> Store:
    """Open (creating a SQLite file on the first write) the store at ``location``: see :class:`Store`."""
    return Store(location)

