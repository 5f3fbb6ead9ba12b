"""Verify: is a stored game's history intact, and what is derived from it; does a log file still match it?

A stored game's verdict reads both floors: the chain and the catalog
(``projections.store.verify``), then the views, derived again from the events
up to their tracking position and compared a page at a time
(``projections.views.compare``); ``gamelog projections rebuild`` repairs
what differs there. A log file alone gives its fingerprint, as its stored
game would have it.
"""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any, Iterator

from gamelog.projections.reports.documents import LogMatch, Problem, Verification
from gamelog.projections.reports.verification import (log_match, render_log_file_text, render_log_match_json,
                                                       render_log_match_text, render_verification_json,
                                                       render_verification_text, verification)
from gamelog.projections.store.application import GameStore, game_uuid
from gamelog.projections.store.catalog import rows_without_events
from gamelog.projections.store.chain import ChainBreak
from gamelog.projections.store.verify import (SHORT, Positions, Verdict, compare_catalog, compare_log,
                                              read_every_event, reading_problems, verify_chain)
from gamelog.projections.views.compare import compare_views
from gamelog.projections.views.derivation import TABLE, earlier
from gamelog.projections.views.folder import TABLES
from gamelog.projections.views.sums import differences
from gamelog.projections.views.keeper import VIEWS, ViewKeeper, derived_views

from .errors import BadInput, GameNotFound
from .inputs import input_name, opened_source
from .progress import PROGRESS_FROM_LINES, Advance, Progress, by_line, over_lines
from .sources import check_file_given, is_log_file, opened_game_store, read_log_file


def verify_game(store: GameStore, game_id: str, fingerprint: str | None = None,
                advance: Advance | None = None) -> Verdict:
    """Check the chain of every stored event of ``game_id``, the catalog, ``fingerprint``, then what is derived
    (the catalog row's derived columns, and the views up to their tracking position); and the rows of the
    catalog, the views and their tracking table that belong to no stored game (:func:`orphan_rows`).

    ``fingerprint`` may be the short form (its first hex digits). ``advance``, given, is told the line the
    views' derivation has reached. Raises ``KeyError`` when neither events nor a catalog row of the game exist.
    """
    verdict = verify_chain(store, game_id, fingerprint)
    if verdict.versions:
        with reading_problems(verdict):
            if verdict.problems:
                read_every_event(store, game_id)
            else:
                verdict.problems.extend(compare_catalog(store, verdict))
                verdict.problems.extend(_views(store, game_id, verdict.positions, advance))
                verdict.problems.extend(orphan_rows(store, game_id))
    return verdict


def verify_stored(store: str, game: str, fingerprint: str | None = None,
                  progress: Progress | None = None) -> Verification:
    """The verification document of the stored game ``game`` in the store at ``store`` (which must exist).

    ``progress``, given, shows the verification of a game of :data:`~.progress.PROGRESS_FROM_LINES` lines or more
    from its start (over the game's lines, as its views are derived again). Raises
    :class:`~.errors.GameNotFound` and the store's errors.
    """
    with opened_game_store(store, must_exist=True) as opened:
        summary = opened.summary(game)
        length = summary.last_line if summary is not None and progress is not None else 0
        shown = progress(length, f"verifying {game}") if length >= PROGRESS_FROM_LINES else nullcontext()
        try:
            with shown as advance:
                return verification(verify_game(opened, game, fingerprint, advance))
        except KeyError:
            raise GameNotFound(f"no stored game named {game!r} (in {store})") from None


def verify_log_file(path: str, fingerprint: str | None = None, source_format: str | None = None,
                    progress: Progress | None = None) -> Verification:
    """A log file's fingerprint and events, as its stored game would have them; a problem when ``fingerprint``
    (which may be short) differs. ``source_format``: the file is that tool's export (the log it converts to).
    ``progress``, given, shows a large log being read. Raises :class:`~.errors.BadInput` and
    :class:`~gamelog.domain.errors.LogInvalid`."""
    with over_lines(progress, path, "reading", source_format) as advance:
        log = read_log_file(path, source_format=source_format, advance=advance)
    head = log.fingerprint()
    problems = []
    if fingerprint is not None and not head.startswith(fingerprint.lower()):
        problems.append(Problem(version=len(log.events), kind="altered",
                                message=f"the chain head {head[:SHORT]} is not the fingerprint you kept, {fingerprint}"))
    return Verification(game=log.id, intact=not problems, versions=len(log.events), fingerprint=head,
                        problems=problems)


@dataclass(frozen=True)
class Verified:
    """``verify GAME``'s answer: the verification document, and the log file it is of (None: a stored game)."""

    document: Verification
    log_file: str | None = None


def verify(store: str, game: str, fingerprint: str | None = None, source_format: str | None = None,
           progress: Progress | None = None) -> Verified:
    """Verify GAME: a log file gives its fingerprint (:func:`verify_log_file`; ``source_format``: an export of
    that tool); a stored game's id, its chain, catalog and views (:func:`verify_stored`), ``progress`` showing
    either from its start. Raises what those raise, and :class:`~.errors.BadInput` for ``source_format`` with a
    GAME that names no file."""
    check_file_given(game, source_format)
    if is_log_file(game):
        return Verified(verify_log_file(game, fingerprint, source_format, progress), input_name(game))
    return Verified(verify_stored(store, game, fingerprint, progress))


@dataclass(frozen=True)
class VerifyOutput:
    """``gamelog verify``'s answer: its text (or JSON), and whether what it checked holds (``ok``): with
    ``against``, whether the log still matches the stored game; else whether the history is intact."""

    text: str
    ok: bool
    against: bool


def verify_output(store: str, game: str, *, fingerprint: str | None = None, against: str | None = None,
                  fmt: str = "text", source_format: str | None = None,
                  progress: Progress | None = None) -> VerifyOutput:
    """``gamelog verify``: with ``against``, :func:`match_log` of the log file GAME; else :func:`verify` of GAME
    (``progress`` showing it), in ``fmt`` (text, json). Raises what those raise."""
    if against is not None:
        match = match_log(store, game, against, source_format)
        return VerifyOutput(render_log_match_json(match) if fmt == "json" else render_log_match_text(match),
                            match.matches, True)
    verified = verify(store, game, fingerprint, source_format, progress)
    document = verified.document
    if fmt == "json":
        text = render_verification_json(document)
    elif verified.log_file is not None:
        text = render_log_file_text(verified.log_file, document)
    else:
        text = render_verification_text(document)
    return VerifyOutput(text, document.intact, False)


def match_log(store: str, path: str, against: str, source_format: str | None = None) -> LogMatch:
    """Whether the log file ``path`` (``source_format``: that tool's export, converted) still repeats the stored
    game ``against`` line for line, and if not, where it first differs. Raises :class:`~.errors.BadInput` (no
    such log file, an export that cannot be converted) and the store's errors."""
    with opened_game_store(store, must_exist=True) as opened:
        if not is_log_file(path):
            raise BadInput(f"no such log file: {path}")
        with opened_source(path, source_format=source_format) as (handle, name, _):
            return log_match(name, against, compare_log(opened, handle, against))


def _views(store: GameStore, game_id: str, positions: Positions, advance: Advance | None = None) -> list[ChainBreak]:
    """What differs between the views as kept and as derived again from the events.

    The views are compared as they should be at their tracking position: a
    game's events after it are not folded yet (``projections status`` says
    so). ``positions`` is each event's place in the notification log. The
    events are folded as they are read, the views derived again into a
    temporary database on disk and compared a page at a time. Raises
    StoreDamaged when an event cannot be read or folded.
    """
    keeper = ViewKeeper(store)
    status = keeper.status()
    problems = []
    if status.position > status.head:
        problems.append(ChainBreak(0, "derived", f"{keeper.tracking_name}: the views' position {status.position} is "
                                                   f"past the store's last event {status.head}", keeper.tracking_name))
    uid = game_uuid(game_id).hex
    every_folded = max(positions, default=0) <= status.position
    if keeper.derived_earlier():  # one line, not a line a row: every row may be what an earlier gamelog derived
        said = f"{TABLE}: {earlier(keeper.derivation())}; any command that reads the views derives them again, as " \
               "`gamelog projections rebuild` does"
        return problems + [ChainBreak(0, "derived", said, TABLE)]
    folded = by_line(_folded(store, game_id, positions, status.position), advance)
    with keeper.connection() as kept, derived_views(folded) as mine:
        views = compare_views(kept, mine, game_id, uid)
        if views and not every_folded:
            # Views holding more than their position says: compare with every event folded.
            with derived_views(store.history(game_id)) as every:
                if not compare_views(kept, every, game_id, uid):
                    last = next(p for p in positions if p > status.position)
                    return problems + [ChainBreak(0, "derived", f"{keeper.tracking_name}: the views' position "
                                                                  f"{status.position} is before event {last} of the "
                                                                  f"store's log, which the views of game {game_id!r} "
                                                                  "hold", keeper.tracking_name)]
    return problems + views


def orphan_rows(store: GameStore, game_id: str) -> list[ChainBreak]:
    """The rows that belong to no stored game, each table's named: catalog rows whose events are all gone (but
    ``game_id``'s, which its verdict names already), view rows of a game not stored, tracking positions of
    anything but the views. Raises StoreDamaged when a game's header cannot be read."""
    stored = set(store.stored_game_ids())
    originators = {game_uuid(g).hex for g in stored}
    problems = [ChainBreak(0, "derived", f"gamelog_games: row {g!r} is of no stored game (none of its events are "
                                         "stored)", "gamelog_games")
                for g in rows_without_events(store) if g != game_id]
    keeper = ViewKeeper(store)
    with keeper.connection() as cursor:
        for table in TABLES:
            if table == "view_stat_sums":  # summed across games: checked against every game's part
                problems += [ChainBreak(0, "derived", f"view_stat_sums: {what}", table) for what in differences(cursor)]
                continue
            if table == "view_context":
                cursor.execute("SELECT originator_id, game FROM view_context ORDER BY originator_id")
                strays = [game for originator, game in cursor.fetchall() if originator not in originators]
            else:
                cursor.execute(f"SELECT DISTINCT game FROM {table} ORDER BY game")
                strays = [game for (game,) in cursor.fetchall() if game not in stored]
            problems += [ChainBreak(0, "derived", f"{table}: rows of game {game!r}, which is not stored", table)
                         for game in strays]
    with store.reading() as raw:
        raw.execute(f"SELECT application_name FROM {keeper.tracking_table} ORDER BY application_name")
        names = [row["application_name"] for row in raw.fetchall()]
    problems += [ChainBreak(0, "derived", f"{keeper.tracking_name}: a position of {name!r}, which is not the views'",
                            keeper.tracking_name) for name in names if name not in (VIEWS, keeper.library_row)]
    return problems


def _folded(store: GameStore, game_id: str, positions: Positions, position: int) -> Iterator[Any]:
    """The game's events that the views have folded (``positions[i]``, the place of the i-th in the notification
    log, is at most ``position``); raises StoreDamaged naming one that cannot be read."""
    for i, event in enumerate(store.history(game_id)):
        if i < len(positions) and positions[i] <= position:
            yield event
