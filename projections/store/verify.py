"""Is the stored history intact, and what is derived from it; does a log file still match what was imported?

``verify_game`` recomputes a game's hash chain from its stored events and
compares the result with the catalog and, when the players kept one, with
their fingerprint. Then it derives again, from the events, everything
gamelog keeps beside them (the catalog row's derived columns, and the views
up to their tracking position) and names each table and row that differs:
``gamelog projections rebuild`` repairs those. An event that cannot be read
(its bytes, NULL, a topic that is no registered game's event class) and a
damaged SQLite file are problems too, never a crash.

``compare_log`` checks a log file line by line against the stored game.
``fingerprint_of`` computes the fingerprint a log file would have once
imported (events hold no clock, so it is the same everywhere).
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from typing import Any, BinaryIO, Iterable, Iterator

import msgspec

from gamelog.domain.reader import LogReader
from gamelog.projections.store.application import GameStore, GameSummary, StoreDamaged, game_uuid
from gamelog.projections.store.catalog import compare_summary, derive_summary
from gamelog.projections.store.chain import GENESIS, ChainBreak, StoredLink, check, event_hash, link, open_sealed
from gamelog.projections.store.mapper import encoded

SHORT = 16
"""Hex digits of a fingerprint as people see it (the JSON gives all 64)."""


@dataclass(frozen=True)
class Verdict:
    """The outcome of verifying one stored game."""

    game_id: str
    problems: list[ChainBreak]
    fingerprint: str
    versions: int

    @property
    def intact(self) -> bool:
        return not self.problems


def verify_game(store: GameStore, game_id: str, fingerprint: str | None = None) -> Verdict:
    """Check the chain of every stored event of ``game_id``, the catalog, ``fingerprint``, then what is derived.

    ``fingerprint`` may be the short form (its first hex digits). Raises
    ``KeyError`` when neither events nor a catalog row of the game exist.
    """
    try:
        summary = store.summary(game_id)
        positions = array("q")
        problems, head, last = _chain(store, game_id, positions)
    except StoreDamaged as exc:  # the file itself: SQLite cannot read its pages
        return Verdict(game_id, [ChainBreak(0, "damaged", str(exc))], "", 0)
    if summary is None and last == 0:
        raise KeyError(game_id)
    if summary is not None:
        if last < summary.versions:
            problems.append(ChainBreak(last + 1, "truncated", f"events {last + 1}-{summary.versions} are gone: the catalog records {summary.versions}"))
        elif last > summary.versions:
            problems.append(ChainBreak(summary.versions + 1, "inserted",
                                    f"events {summary.versions + 1}-{last} were added outside an import: the catalog records {summary.versions}"))
        elif summary.fingerprint != head.hex():
            problems.append(ChainBreak(last, "altered", "the chain head differs from the fingerprint the catalog recorded at import"))
    if fingerprint is not None and not head.hex().startswith(fingerprint.lower()):
        problems.append(ChainBreak(last, "altered", f"the chain head {head.hex()[:SHORT]} is not the fingerprint you kept, {fingerprint}"))
    if last:
        try:
            if problems:  # the catalog and views were derived from the events before they were altered
                for _ in store.history(game_id):  # but an event that cannot be read is named
                    pass
            else:
                problems += _derived(store, game_id, summary, positions)
        except StoreDamaged as exc:
            problems.append(ChainBreak(exc.version or 0, "undecodable" if exc.version else "damaged", str(exc)))
        except (AttributeError, TypeError, KeyError, ValueError, IndexError) as exc:
            # Decodable events that do not fold (forged with a recomputed chain): a finding, not a crash.
            problems.append(ChainBreak(0, "damaged", f"the stored events of game {game_id!r} do not fold into a game: "
                                                  f"{type(exc).__name__}: {exc}"))
    return Verdict(game_id, problems, head.hex(), last)


def _chain(store: GameStore, game_id: str, positions: array) -> tuple[list[ChainBreak], bytes, int]:
    """(problems, chain head, last version) of the game's stored chain, as :func:`~projections.store.chain.check` gives them.

    One pass keeps nothing but the chain head while every event follows the
    one before it, versions 1, 2, 3...: an intact chain, a game of any size.
    Where the chain breaks, ``check`` reads the events again to tell what
    happened (it needs them all at once). ``positions`` receives each event's
    place in the notification log, in version order.
    """
    head, expected = GENESIS, 1
    for one in store.stored_links(game_id):
        positions.append(one.notification_id)
        try:
            chain, payload = open_sealed(one.state)  # type: ignore[arg-type]  # NULL raises TypeError
        except (msgspec.DecodeError, ValueError, TypeError):
            break
        if one.version != expected or link(head, event_hash(one.topic or "", payload)) != chain:
            break
        head, expected = chain, expected + 1
    else:
        return [], head, expected - 1
    del positions[:]
    return check(_kept(store.stored_links(game_id), positions))


def _kept(links: Iterable[StoredLink], into: array) -> Iterator[StoredLink]:
    """The links as they pass, each one's place in the notification log kept."""
    for one in links:
        into.append(one.notification_id)
        yield one


def _derived(store: GameStore, game_id: str, summary: GameSummary | None, positions: array) -> list[ChainBreak]:
    """What differs between the catalog and the views as stored and as derived again from the events.

    The views are compared as they should be at their tracking position: a
    game's events after it are not folded yet (``projections status`` says
    so). ``positions`` is each event's place in the notification log. The
    events are folded as they are read, the views derived again into a
    temporary database on disk and compared a page at a time. Raises
    StoreDamaged when an event cannot be read or folded.
    """
    from gamelog.projections.views.compare import compare_views
    from gamelog.projections.views.keeper import ViewKeeper, derived_views

    kept_summary = summary or GameSummary(game_id, "", [], 0, 0, False, None)
    derived = derive_summary(store.history(game_id), kept_summary.versions, kept_summary.fingerprint)
    problems = compare_summary(summary, derived)
    keeper = ViewKeeper(store)
    status = keeper.status()
    if status.position > status.head:
        problems.append(ChainBreak(0, "derived", f"{keeper.tracking_name}: the views' position {status.position} is "
                                              f"past the store's last event {status.head}", keeper.tracking_name))
    uid = game_uuid(game_id).hex
    every_folded = max(positions, default=0) <= status.position
    with keeper.connection() as kept, derived_views(_folded(store, game_id, positions, status.position)) as mine:
        views = compare_views(kept, mine, game_id, uid)
        if views and not every_folded:
            # Views holding more than their position says: compare with every event folded.
            with derived_views(store.history(game_id)) as every:
                if not compare_views(kept, every, game_id, uid):
                    last = next(p for p in positions if p > status.position)
                    return problems + [ChainBreak(0, "derived", f"{keeper.tracking_name}: the views' position "
                                                             f"{status.position} is before event {last} of the store's log, "
                                                             f"which the views of game {game_id!r} hold", keeper.tracking_name)]
    return problems + views


def _folded(store: GameStore, game_id: str, positions: array, position: int) -> Iterator[Any]:
    """The game's events that the views have folded (``positions[i]``, the place of the i-th in the notification
    log, is at most ``position``); raises StoreDamaged naming one that cannot be read."""
    for i, event in enumerate(store.history(game_id)):
        if i < len(positions) and positions[i] <= position:
            yield event


def fingerprint_of(game_id: str, events: Iterable[Any]) -> str:
    """The fingerprint (chain head, hex) that these events would have in a store."""
    head = GENESIS
    for payload in events:
        head = link(head, event_hash(*encoded(payload)))
    return head.hex()


def compare_log(store: GameStore, source: bytes | BinaryIO, game_id: str) -> str | None:
    """None when the log repeats the stored game exactly; else what differs, naming the first line.

    A malformed line of the log is reported as a difference at that line.
    """
    reader = LogReader(source)
    if reader.header is None:
        return f"line {reader.errors[0].line}: {reader.errors[0].message}"
    stored = (e for e in store.history(game_id) if hasattr(e, "event"))
    header = next(stored, None)
    if header is None:
        return f"no stored game {game_id!r}"
    if (header.line, header.event) != (reader.header_line, reader.header):
        return f"line {reader.header_line}: the header differs from the stored game"
    for line, event in reader.events():
        expected = next(stored, None)
        if expected is None:
            return f"line {line} is not in the stored game (the log has grown since: import it to add the new lines)"
        if (expected.line, expected.event) != (line, event):
            return f"line {min(line, expected.line)} differs from the stored game"
    if reader.errors:
        return f"line {reader.errors[0].line}: {reader.errors[0].message} (the stored game has a valid line there)"
    rest = next(stored, None)
    if rest is not None:
        return f"the stored game has line {rest.line}, which this log lacks"
    return None
