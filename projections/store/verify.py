"""Is the stored history intact, and does a log file still match what was imported?

``verify_game`` recomputes a game's hash chain from its stored events and
compares the result with the catalog and, when the players kept one, with
their fingerprint. ``compare_log`` checks a log file line by line against
the stored game. ``fingerprint_of`` computes the fingerprint a log file would
have once imported (events hold no clock, so it is the same everywhere).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, BinaryIO, Iterable

from domain.reader import LogReader
from projections.store.chain import GENESIS, Problem, check, event_hash, link
from projections.store.mapper import encoded
from projections.store.application import GameStore

SHORT = 16
"""Hex digits of a fingerprint as people see it (the JSON gives all 64)."""


@dataclass(frozen=True)
class Verdict:
    """The outcome of verifying one stored game."""

    game_id: str
    problems: list[Problem]
    fingerprint: str
    versions: int

    @property
    def intact(self) -> bool:
        return not self.problems


def verify_game(store: GameStore, game_id: str, fingerprint: str | None = None) -> Verdict:
    """Check the chain of every stored event of ``game_id``, then the catalog, then ``fingerprint``.

    ``fingerprint`` may be the short form (its first hex digits). Raises
    ``KeyError`` when neither events nor a catalog row of the game exist.
    """
    summary = next((g for g in store.games() if g.id == game_id), None)
    problems, head, last = check(store.stored_links(game_id))
    if summary is None and last == 0:
        raise KeyError(game_id)
    if summary is not None:
        if last < summary.versions:
            problems.append(Problem(last + 1, "truncated", f"events {last + 1}-{summary.versions} are gone: the catalog records {summary.versions}"))
        elif last > summary.versions:
            problems.append(Problem(summary.versions + 1, "inserted",
                                    f"events {summary.versions + 1}-{last} were added outside an import: the catalog records {summary.versions}"))
        elif summary.fingerprint != head.hex():
            problems.append(Problem(last, "altered", "the chain head differs from the fingerprint the catalog recorded at import"))
    if fingerprint is not None and not head.hex().startswith(fingerprint.lower()):
        problems.append(Problem(last, "altered", f"the chain head {head.hex()[:SHORT]} is not the fingerprint you kept, {fingerprint}"))
    return Verdict(game_id, problems, head.hex(), last)


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
