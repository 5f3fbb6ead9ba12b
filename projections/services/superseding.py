"""A later export of a stored game: its converted log made to extend what is stored, the rest voided.

A converter writes what an export settles (the rounds it can place) and then what it cannot place yet, at the end
(points no round is known for, the score at the save). A later export of the same game (the AsyncTI4 bot's undo
copies, a TI Assistant game exported again) settles more: its log repeats the stored one up to where the earlier
export's provisional end began, and differs after. Imported as it is, that is a conflict. Instead, the log imported
is the stored one, then a ``correction`` voiding each stored line the new conversion no longer has, then the new
conversion's lines from there: the history stays append-only, every earlier line stays visible, and the game's
state is the later export's (a voided line has no effect on any state).

Only a log whose header is the stored game's, line for line, is treated so: another game under the same id is still
a conflict.
"""

from __future__ import annotations

from dataclasses import dataclass

import msgspec

from gamelog.domain.events import Correction
from gamelog.domain.reader import LogReader
from gamelog.projections.store.application import GameStore

from .decided import log_lines

_encode = msgspec.json.Encoder().encode


@dataclass(frozen=True)
class Superseded:
    """The log to import, and how many stored lines it voids (0: the converted log as it came)."""

    log: bytes
    voided: int = 0


def superseding(store: GameStore, log: bytes, source: str) -> Superseded:
    """``log`` (a converted export, named ``source`` in the corrections' reason) as it must be imported into
    ``store``: unchanged when its game is not stored, when it repeats or extends the stored game, when its header
    differs from the stored one (the import then says conflict), or when it is not a valid log (the import says
    why); else the stored lines, corrections voiding those the new conversion no longer has, and its new lines
    (nothing after the stored lines when the stored game already says what the new conversion says).
    """
    reader = LogReader(log)
    incoming = list(reader.events())
    if reader.header is None or reader.errors:
        return Superseded(log)
    line_recorded = reader.rules.engine.LINE_RECORDED
    stored = [e for e in store.history(reader.header.id) if type(e) is line_recorded]
    if not stored or stored[0].line != reader.header_line or not stored[0].event.same_game(reader.header):
        return Superseded(log)
    kept = [(e.line, e.event) for e in stored[1:]]
    if kept == incoming[:len(kept)]:
        return Superseded(log)  # it repeats or extends the stored log line for line: imported as it is
    # What the stored game says now: its lines neither voided nor corrections (an earlier supersession's included).
    voided = {event.voids for _, event in kept if isinstance(event, Correction)}
    live = [(line, event) for line, event in kept if not isinstance(event, Correction) and line not in voided]
    same = 0
    while same < min(len(live), len(incoming)) and live[same][1] == incoming[same][1]:
        same += 1
    stale = [line for line, _ in live[same:]]
    reason = f"superseded by a later export ({source}): it no longer has this line"
    lines = list(log_lines([(stored[0].line, stored[0].event), *kept]))
    lines += [_encode(Correction(voids=line, reason=reason)) for line in stale]
    lines += [_encode(event) for _, event in incoming[same:]]
    return Superseded(b"".join(line + b"\n" for line in lines), len(stale))
