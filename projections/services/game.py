"""A recorded game as a program reads it: any state, the findings, the audit, a what-if (docs/python-api.md).

python-chess's shape for gamelog: ``gamelog.read_log(handle)`` gives a :class:`Game` whose every state can be
asked for, as ``chess.pgn.read_game(handle)`` gives a game whose every position can. A game read from a log is
decided in memory (nothing stored); a game loaded from a store (:class:`~gamelog.stores.Store`) is read from it.
Every answer is one of the documents the CLI prints as JSON (``gamelog schema NAME``), so a program and a script
reading ``--format json`` see the same fields.
"""

from __future__ import annotations

import copy
import os
import warnings
from typing import Any, BinaryIO, Iterable, Iterator, TextIO

import msgspec
from msgspec import UNSET

from gamelog.domain.errors import InputError
from gamelog.domain.replay_document import Replay
from gamelog.domain.screen import Screen
from gamelog.projections.reports.audit import build_audit, player_entries
from gamelog.projections.reports.documents import (Audit, AuditFinding, EntryResult, GameResult, LogLines,
                                                   Reconciliation, Report, ScoreEntry, WhatIf)
from gamelog.projections.reports.forms import EntryForms
from gamelog.projections.reports.model import build_report
from gamelog.projections.reports.redaction import Redaction
from gamelog.projections.store.application import GameStore

from .auditing import compare_without
from .bgstats import BGStatsOffer, bgstats_offer
from .clock import Clock, now
from .decided import DecidedGame
from .errors import BadInput, GameNotFound, NotYourLine
from .reconciling import declared_in, read_table, reconcile_source
from .replaying import state_of
from .reporting import check_grouping
from .results import game_result
from .screen import screen as screen_of_stored
from .secrecy import PUBLIC, Public, fingerprinted, player_named, player_not_found, redaction, seats_of, what_if_view
from .sources import Source, StoredGame, read_log_file

__all__ = ["Game", "read_log", "stored_game"]


class Game:
    """One game's history, and every question gamelog answers about it.

    ``id`` is the header's ``id`` (the game's name in a store), ``kind`` the
    kind of game, as the registry names it (the header's ``game``),
    ``players`` the seating order. ``name`` is the kind's old name: it still
    gives the kind, with a DeprecationWarning.
    ``errors`` lists the input errors of a log read with ``strict=False``
    (each ``describe(filename)`` reads ``FILE:LINE: ...``): the game is then
    what the valid lines make, and ``gamelog import`` would store none of it.
    ``viewer`` is the player whose view this is (:meth:`as_player`; ``PUBLIC``:
    :meth:`public`; None: the full view).

    A stored game (``store.game(id)``) is also recorded through: :meth:`record`
    decides an entry against the game as stored and stores it, :meth:`lines`
    and :meth:`forms` say what the view sees and may enter next. It is decided
    once, in memory, when first asked one of these (and :meth:`state` at the end
    then answers from there), and moves forward with each entry it stores and
    each :meth:`catch_up` (what another writer stored).
    """

    def __init__(self, source: Source, decided: DecidedGame | None = None):
        self._source = source
        self._decided = decided
        self.errors: list[InputError] = list(getattr(source, "errors", []))
        self.viewer: str | None = None
        history = iter(source.history())
        self.header: Any = next(history).event
        """The header line as the log gives it (``type`` ``game``: ``game``, ``id``, ``players``, ``setup``)."""

    @property
    def id(self) -> str:
        return self.header.id

    @property
    def kind(self) -> str:
        return self.header.game

    @property
    def name(self) -> str:
        """The kind of game, as :attr:`kind` gives it: deprecated, as ``name`` reads as the game's own name, which
        is :attr:`id`."""
        warnings.warn("Game.name is deprecated: the kind of game is Game.kind (the game's own name is Game.id)",
                      DeprecationWarning, stacklevel=2)
        return self.kind

    @property
    def players(self) -> list[str]:
        return list(self.header.players)

    def __repr__(self) -> str:
        viewer = "" if self.viewer is None else f" as {self.viewer!r}"
        return f"<gamelog.Game {self.id!r} ({self.kind}, {len(self.players)} players){viewer}>"

    def as_player(self, player: str) -> Game:
        """This game as ``player`` (a name in any case, or the faction they play) may know it (``--as PLAYER``,
        docs/secrets.md): every answer of the view hides what the game's rules keep from that player (as the
        game's ``secrets.py`` says: another player's unscored secret objectives, say) at the point it shows: a
        state at its own point, everything else at the end of the history. The history itself is not changed.

        Raises :class:`~gamelog.errors.PlayerNotFound`.
        """
        return self._seen_by(player_named(player, seats_of(self.header.game, self.header), repr(self.id)))

    def public(self) -> Game:
        """This game as someone who holds no seat may know it (a spectator): what every player may know, each
        player's secrets hidden (docs/secrets.md)."""
        return self._seen_by(PUBLIC)

    def _seen_by(self, viewer: str | Public) -> Game:
        view = copy.copy(self)  # the same history, and the same game decided in memory
        view.viewer = viewer
        return view

    def _view(self) -> Redaction:
        """What this view hides at the end of the history (nothing for the full view)."""
        if self._decided is not None and self._decided.version:
            return self._decided.view(self.viewer)
        return redaction(self._source, self.viewer)

    def _held(self) -> DecidedGame:
        """The stored game decided in memory; raises :class:`~gamelog.errors.BadInput` for a game read from a log."""
        if self._decided is None:
            raise BadInput(f"{self.id!r} is read from a log: only a stored game is recorded through "
                           "(store.import_log(...), then store.game(id))")
        return self._decided

    def lines(self, after: int = 0) -> LogLines:
        """The log's lines after line ``after`` (0: every line, the header's included), each as this view sees
        it: its ``type``, player, words, the line itself (``entry``), the line that voided it (``voided_by``) and
        its findings; ``version`` is how many stored events they reach (the served recorder's
        ``GET /api/games/{id}/history``). Raises :class:`~gamelog.errors.BadInput` for a game read from a log."""
        return self._held().lines(self.viewer, after)

    def forms(self) -> EntryForms:
        """A form for each kind of line at the game's end, the player due first, offered what this view may know
        (a player's view: what that player's own line may hold). Raises :class:`~gamelog.errors.BadInput` for a
        game read from a log."""
        return self._held().forms(self.viewer)

    def record(self, entry: bytes | str | dict[str, Any], *, after: int | None = None, anyway: bool = False,
               replaces: int | None = None, reason: str | None = None, any_player: bool = False,
               clock: Clock = now) -> EntryResult:
        """Decide ``entry`` (one line of the game's log: JSON, or the object itself) against the game as stored now
        and store it when it breaks no rule, or when ``anyway`` (the table agreed): its findings then stand like
        any other line's. Returns what became of it (``append --format json``'s document), in this view; never a
        partial write.

        ``after`` is the lines of the log the entry was made against (None: the game as stored now, another
        writer's lines read first): a game that moved past them is not written to (``moved``), nor is one another
        writer moves while the entry is written. ``replaces`` makes the entry the replacement of that earlier line:
        one ``correction`` line carrying it (``reason``: why, "replaced" when not said), decided at the replaced
        line's place, so that a right fix of an old line raises no finding. A player's view records only that
        player's lines, lines that name no player, and corrections of those (any player's when ``any_player``: the
        table allowed it), and even then only that player's own confirmation or dispute of the result and no ruling
        (the full view, the host's, rules); the public view records nothing. Each line stored carries ``clock``'s
        time as its ``at`` (the server's: whatever the entry said is replaced).

        Raises :class:`~gamelog.errors.NotYourLine`, :class:`~gamelog.errors.BadInput` (``after`` past the end of
        the log, a game read from a log) and the store's errors (``StoreBusy``...).
        """
        if isinstance(self.viewer, Public):
            raise NotYourLine("the public view records nothing: record as a player, or as the whole game")
        if isinstance(entry, dict):
            entry = msgspec.json.encode(entry)
        elif isinstance(entry, str):
            entry = entry.encode("utf-8")
        held = self._held()
        # A seat's entry is decided as its player may know the game (``seat_entries``), even when it may record any
        # player's line: its answer never depends on another player's secret, so it needs no view.
        agreeing = self.viewer if isinstance(self.viewer, str) else None
        return held.record(entry, after=after, anyway=anyway, replaces=replaces, reason=reason, player=self.viewer,
                           own_lines_only=not any_player, agreeing=agreeing, clock=clock)

    def take_step(self, step: str, *, after: int | None = None, anyway: bool = False,
                  any_player: bool = False, clock: Clock = now) -> EntryResult:
        """Take the step ``step`` (its ``id``) of the turn flow offered at the game's end (the forms' ``turn``):
        its lines recorded in one write, decided like any entry (``after``, ``anyway``, ``any_player`` and ``clock`` as
        :meth:`record` says), in this view. A player's view takes only a step that is that player's: ending the
        turn under way, starting their own, or one that names no player; the public view takes none.

        Raises :class:`~gamelog.errors.NotYourLine`, :class:`~gamelog.errors.BadInput` (no such step offered now,
        ``after`` past the end of the log, a game read from a log) and the store's errors."""
        if isinstance(self.viewer, Public):
            raise NotYourLine("the public view records nothing: record as a player, or as the whole game")
        held = self._held()
        player = None if any_player else self.viewer
        result = held.take_step(step, after=after, anyway=anyway, player=player, clock=clock)
        return held.view(self.viewer)(result) if result.findings and self.viewer is not None else result

    def screen(self) -> Screen:
        """The table's screen at the game's latest line, as this view may see it (``GET /api/games/{id}/screen``,
        the table page): the standings, whose turn it is, the game's own facts and the last lines in words.
        Raises :class:`~gamelog.errors.BadInput` for a game read from a log."""
        return screen_of_stored(self._held().store, self.id, self.viewer)

    def log(self) -> Iterator[bytes]:
        """The log as JSON Lines, a line at a time (each ending ``\n``, every line at its own number: an empty line
        for a blank line or a comment), as this view shows each line: ``validate`` and ``import`` read the whole
        view's back to the same game. Raises :class:`~gamelog.errors.BadInput` for a game read from a log."""
        return self._held().log(self.viewer)

    def catch_up(self) -> int:
        """Read what another writer stored after the lines this game holds decided; how many events that was.
        :meth:`record` does it itself; a reader asks for it. Raises :class:`~gamelog.errors.BadInput` for a game
        read from a log."""
        return self._held().catch_up()

    def history(self) -> Iterable[Any]:
        """Every event of the game in order: each recorded line and what the rules decided on it (in a player's
        view, as that player may know them at the end)."""
        return self._view().each(self._source.history())

    def state(self, *, line: int | None = None, turn: int | None = None, round: int | None = None) -> Replay:
        """The state after ``line``, at the end of turn ``turn`` or round ``round``, or at the end (none given):
        ``replay --format json``'s document (``players``, ``turn``, ``round``, ``board``, ``winner``...).

        Raises :class:`~gamelog.errors.PointNotInGame` for a point the history does not reach (or a line before
        the header), :class:`~gamelog.errors.NotPlayedInRounds` for ``round`` in a game without rounds, and
        ValueError for more than one of the three.
        """
        if line is None and turn is None and round is None and self._decided is not None and self._decided.version:
            return self._decided.state(self.viewer)  # decided in memory already: its end
        return state_of(self._source, line=line, turn=turn, round=round, as_player=self.viewer)

    def end(self) -> Replay:
        """The state at the end of the history (:meth:`state` with no point)."""
        return self.state()

    def audit(self) -> Audit:
        """``audit --format json``'s document: every finding with its rule and line, how each player's score was
        made, the corrections, the fingerprint (in a view that hides anything, the view's own instead:
        ``view_fingerprint``, docs/secrets.md)."""
        with self._source.views() as cursor:
            audit = build_audit(cursor, self.id, fingerprint=self._source.fingerprint())
            audit.reconciliation = declared_in(self._source, cursor) or UNSET
            view = self._view()
            return fingerprinted(view(audit), self._source, view)  # a view's own, where it hides anything

    @property
    def findings(self) -> list[AuditFinding]:
        """Every finding (violation, warning, unverifiable) in line order, each with its rule and what the log
        says on its line."""
        return self.audit().findings

    def derivation(self, player: str) -> list[ScoreEntry]:
        """How ``player``'s score was made: every change with its line, points, source, rule and running total.

        Raises :class:`~gamelog.errors.PlayerNotFound`.
        """
        if player not in self.players:
            raise player_not_found(self.id, self.players, player)
        with self._source.views() as cursor:
            return list(self._view().each(player_entries(cursor, self.kind, self.id, player)))

    def what_if(self, without: Iterable[int]) -> WhatIf:
        """What changes had the lines ``without`` been void from the start (decided again by the rules; nothing
        stored changes): ``audit --without --format json``'s document.

        Raises :class:`~gamelog.errors.PointNotInGame` for a line that holds no event.
        """
        with self._source.views() as cursor:
            return what_if_view(compare_without(self._source, cursor, without)[0], self._view())

    def reconcile(self, declared: str | os.PathLike[str] | None = None, *, columns: str | None = None) -> Reconciliation:
        """``reconcile --format json``'s document: the result the log (and the results table ``declared``, a CSV
        file) declares set against the computed one, player by player and source by source, the declared
        adjustments applied as a what-if. ``columns`` maps the table's columns (``game=GameID,...``).

        Raises :class:`~gamelog.reconciling.TableInvalid` (``FILE:LINE``) for a table that cannot be read or names
        a player who is not the game's, and :class:`~gamelog.errors.BadInput` for a file that cannot be read.
        """
        table = read_table(os.fspath(declared), columns) if declared is not None else None
        return self._view()(reconcile_source(self._source, table))  # in a view, as the audit's part of it reads

    def result(self) -> GameResult:
        """Where the game's result stands (``gamelog result --format json``'s document, the recorder's
        ``GET /api/games/{id}/result``): who confirmed it, who disputes it, the rulings, and the fingerprint after
        the last line of play as this view shows it (what this player's confirmation gives)."""
        return game_result(self._source, self.viewer)

    def bgstats(self) -> BGStatsOffer:
        """The game as BG Stats' play document as this view may see it, with its push link and a file name
        (``export --to bgstats``, the recorder's ``GET /api/games/{id}/bgstats``)."""
        return bgstats_offer(self._source, self.viewer)

    def report(self, by: str | None = None) -> Report:
        """``report --format json``'s document, by ``turn`` or ``round`` (the game's own period by default)."""
        check_grouping(self._source.name, self.kind, by)
        with self._source.views() as cursor:
            return self._view()(build_report(cursor, self.id, by))


def stored_game(store: GameStore, game_id: str, location: str = "") -> Game:
    """The game ``game_id`` of the open ``store`` (at ``location``, named in messages). Raises
    :class:`~gamelog.errors.GameNotFound`."""
    if store.summary(game_id) is None:
        raise GameNotFound(f"no stored game named {game_id!r}" + (f" (in {location})" if location else ""))
    return Game(StoredGame(store, game_id, location), DecidedGame(store, game_id))


def read_log(log: str | os.PathLike[str] | BinaryIO | TextIO, /, *, strict: bool = True, name: str | None = None,
             source: str | None = None) -> Game:
    """Read and decide a log in memory (nothing is stored): a file's path, or an open handle, binary or text; with
    ``source`` (``--from``: ``"ti-assistant"``...), that tool's export, read as the log it converts to.

    ``strict`` (the default) raises :class:`~gamelog.errors.LogInvalid` at the first input error, reading no
    further (its ``errors`` holds that one; ``lines()`` reads it as ``FILE:LINE: ... at $.path``); with
    ``strict=False`` every input error is kept on the game's ``errors`` instead, and the game is what the valid
    lines make (``LogInvalid``, with every error, only when not even the header can be read). ``name`` names the
    log in messages (by default the path, or the handle's ``name``). A handle opened ``"rb"`` is read as the bytes
    it holds; a text handle as its text (its newlines as it was opened to translate them), encoded as UTF-8.
    Raises :class:`~gamelog.errors.BadInput` for a file that cannot be read, and with ``source`` for an unknown
    tool or an export its converter cannot read.
    """
    return Game(read_log_file(log, name, on_error="stop" if strict else "keep", source_format=source))
