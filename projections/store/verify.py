"""What verify reads of the store: is the stored history intact; does a log file still match what was imported?

``verify_chain`` recomputes a game's hash chain from its stored events and
compares the result with the catalog and, when the players kept one, with
their fingerprint; ``compare_catalog`` derives the catalog row again from the
events. Everything else gamelog keeps beside the events (the views) is
compared a floor up, by the service that reads both (``gamelog.verifying``).
An event that cannot be read (its bytes, NULL, a topic that is no registered
game's event class) and a damaged SQLite file are problems too, never a crash
(:func:`reading_problems`).

``compare_log`` checks a log file line by line against the stored game.
``fingerprint_of`` computes the fingerprint a log file would have once
imported (events hold no clock, so it is the same everywhere).
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, BinaryIO, Iterable, Iterator

import msgspec

from gamelog.domain.reader import LogReader
from gamelog.projections.store.application import GameStore, GameSummary, StoreDamaged
from gamelog.projections.store.catalog import compare_summary, derive_summary
from gamelog.projections.store.chain import GENESIS, ChainBreak, StoredLink, check, event_hash, link, open_sealed
from gamelog.projections.store.mapper import encoded

SHORT = 16
"""Hex digits of a fingerprint as people see it (the JSON gives all 64)."""


class Positions:
    """Each stored event's place in the notification log, in version order, kept as runs of consecutive places.

    An import stores a game's events one after another, so a game of a million events is one run or a few (an
    array of every place took 8 bytes an event, most of verify's memory on a long game). Appended in order; read
    by index (``positions[i]``), in order, and whole (``len``, ``max``).
    """

    def __init__(self) -> None:
        self._firsts = array("q")  # each run's first place
        self._starts = array("q")  # each run's first index
        self._length = 0

    def append(self, place: int) -> None:
        if self._length and place == self._firsts[-1] + self._length - self._starts[-1]:
            self._length += 1  # the next place of the last run
            return
        self._firsts.append(place)
        self._starts.append(self._length)
        self._length += 1

    def __len__(self) -> int:
        return self._length

    def __getitem__(self, index: int) -> int:
        if not -self._length <= index < self._length:
            raise IndexError("position index out of range")
        index %= self._length
        run = bisect_right(self._starts, index) - 1
        return self._firsts[run] + index - self._starts[run]

    def __iter__(self) -> Iterator[int]:
        ends = [*self._starts[1:], self._length]
        for first, start, end in zip(self._firsts, self._starts, ends):
            yield from range(first, first + end - start)

    def clear(self) -> None:
        self._firsts, self._starts, self._length = array("q"), array("q"), 0


@dataclass(frozen=True)
class Verdict:
    """The outcome of verifying one stored game (``problems`` grows as the floors above compare what they keep)."""

    game_id: str
    problems: list[ChainBreak]
    fingerprint: str
    versions: int
    summary: GameSummary | None = None
    """The game's catalog row as stored (None when it is missing)."""
    positions: Positions = field(default_factory=Positions)
    """Each stored event's place in the store's notification log, in version order (when the chain is whole)."""

    @property
    def intact(self) -> bool:
        return not self.problems


def verify_chain(store: GameStore, game_id: str, fingerprint: str | None = None) -> Verdict:
    """Check the chain of every stored event of ``game_id`` against the catalog and ``fingerprint``.

    ``fingerprint`` may be the short form (its first hex digits). Raises
    ``KeyError`` when neither events nor a catalog row of the game exist.
    A damaged file is one problem, with no versions.
    """
    try:
        summary = store.summary(game_id)
        positions = Positions()
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
    return Verdict(game_id, problems, head.hex(), last, summary, positions)


@contextmanager
def reading_problems(verdict: Verdict) -> Iterator[None]:
    """Within the block, an event that cannot be read or folded is one more of ``verdict``'s problems, not a
    crash: a derived table is compared, or the events read, as far as they go."""
    try:
        yield
    except StoreDamaged as exc:
        verdict.problems.append(ChainBreak(exc.version or 0, "undecodable" if exc.version else "damaged", str(exc)))
    except (AttributeError, TypeError, KeyError, ValueError, IndexError) as exc:
        # Decodable events that do not fold (forged with a recomputed chain): a finding, not a crash.
        verdict.problems.append(ChainBreak(0, "damaged", f"the stored events of game {verdict.game_id!r} do not fold "
                                                      f"into a game: {type(exc).__name__}: {exc}"))


def read_every_event(store: GameStore, game_id: str) -> None:
    """Read every stored event of the game; raises StoreDamaged naming one that cannot be read.

    When the chain is broken, the catalog and views were derived from the
    events before they were altered: comparing them says nothing more, but an
    event that cannot be read is named.
    """
    for _ in store.history(game_id):
        pass


def compare_catalog(store: GameStore, verdict: Verdict) -> list[ChainBreak]:
    """What differs between the game's catalog row as stored and as derived again from its events.

    Raises StoreDamaged when an event cannot be read.
    """
    kept_summary = verdict.summary or GameSummary(verdict.game_id, "", [], 0, 0, False, None)
    derived = derive_summary(store.history(verdict.game_id), kept_summary.versions, kept_summary.fingerprint)
    return compare_summary(verdict.summary, derived)


def _chain(store: GameStore, game_id: str, positions: Positions) -> tuple[list[ChainBreak], bytes, int]:
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
    positions.clear()
    return check(_kept(store.stored_links(game_id), positions))


def _kept(links: Iterable[StoredLink], into: Positions) -> Iterator[StoredLink]:
    """The links as they pass, each one's place in the notification log kept."""
    for one in links:
        into.append(one.notification_id)
        yield one


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
