"""What each device at the table sees of a stored game: the host everything, a seat its player's view (as
``--as PLAYER``), a spectator the public view (``secrecy.PUBLIC``). What the recorder (``gamelog serve``) reads.

Every answer here is made from the stored history and passed through the viewer's redaction before it leaves: a
seat's lines, state, forms, report and the messages of its findings never hold what that player may not see.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from itertools import chain
from typing import Any, Iterable, Iterator

import msgspec

from gamelog.domain.events import Correction, FindingRaised
from gamelog.domain.games import GAMES
from gamelog.domain.replay_document import Document, Replay
from gamelog.projections.reports.documents import EntryResult, Finding
from gamelog.projections.reports.forms import EntryForms
from gamelog.projections.reports.redaction import Redaction
from gamelog.projections.store.application import GameStore

from .recording import NotYourLine, append_entry, forms_for
from .replaying import state_of
from .reporting import stored_report
from .secrecy import PUBLIC, Public, redaction
from .sources import StoredGame

__all__ = ["HOST", "SEAT", "SPECTATOR", "LineSeen", "LinesSeen", "Viewer", "forms_seen", "lines_seen", "record_entry",
           "replay_seen", "report_seen"]

HOST, SEAT, SPECTATOR = "host", "seat", "spectator"


@dataclass(frozen=True)
class Viewer:
    """Who looks: the ``host`` (the whole game), a ``seat`` (its ``player``'s view) or a ``spectator`` (the public
    view)."""

    role: str
    player: str | None = None

    @property
    def as_player(self) -> str | Public | None:
        """What the services' ``as_player`` takes for this viewer (None: nothing hidden)."""
        return None if self.role == HOST else PUBLIC if self.role == SPECTATOR else self.player


class LineSeen(Document, kw_only=True):
    """One line of the log as a viewer sees it: its number, ``type``, player, words, the line itself (``entry``:
    the log's JSON object), the line that voided it (``voided_by``), and its findings."""

    line: int
    type: str
    player: str | None
    words: str
    entry: dict[str, Any]
    voided_by: int | None = None
    findings: list[Finding] = []


class LinesSeen(Document, kw_only=True):
    """The log's lines after a point as a viewer sees them, and the stored version they reach (``version``: what
    to read after next time)."""

    id: str
    lines: list[LineSeen]
    version: int


def _view(source: StoredGame, viewer: Viewer) -> Redaction:
    """What ``viewer`` may not see of the game at its end (the host: nothing)."""
    return Redaction() if viewer.as_player is None else redaction(source, viewer.as_player)


def lines_seen(store: GameStore, game_id: str, viewer: Viewer, after: int = 0, version: int = 0) -> LinesSeen:
    """The log's lines after line ``after`` (0: all, the header's included), each as ``viewer`` may see it at
    the end of the game, with which later line voided it. ``version`` (a :attr:`LinesSeen.version` read before)
    reads only the events stored after it: what a stream that follows the game reads each time it moves (a
    line's ``voided_by`` is then set only when the correction is among them). Raises ``GameNotFound`` and the
    store's errors."""
    source = StoredGame(store, game_id, "")
    rules = GAMES[source.game]
    line_recorded = rules.engine.LINE_RECORDED
    seen: dict[int, LineSeen] = {}
    history = source.history(first_page=1 if version else None)
    header = next(history)
    events = store.history(game_id, after=version, header=header) if version else chain([header], history)
    for version, event in enumerate(events, version + 1):
        if type(event) is line_recorded:
            recorded = event.event
            tag, player, words = rules.phrase(recorded) if version > 1 else ("game", None, "")
            seen[event.line] = LineSeen(line=event.line, type=tag, player=player, words=words,
                                        entry=msgspec.to_builtins(recorded))
            if isinstance(recorded, Correction) and recorded.voids in seen:
                seen[recorded.voids].voided_by = event.line
        elif isinstance(event, FindingRaised) and event.line in seen:
            seen[event.line].findings.append(Finding.of(event))
    view = _view(source, viewer)
    return LinesSeen(id=game_id, lines=view([s for line, s in seen.items() if line > after]), version=version)


def replay_seen(store: GameStore, game_id: str, viewer: Viewer, line: int | None = None) -> Replay:
    """``replay --format json``'s document of the game at ``line`` (the end when None), as ``viewer`` sees it
    there. Raises what :func:`~.replaying.state_of` raises."""
    return state_of(StoredGame(store, game_id, ""), line=line, as_player=viewer.as_player)


def forms_seen(store: GameStore, game_id: str, viewer: Viewer) -> EntryForms:
    """The recorder's forms as ``viewer`` may use them (a seat's offers are its player's, in its view)."""
    return forms_for(store, game_id, viewer.as_player)


@contextmanager
def report_seen(store: GameStore, game_id: str, viewer: Viewer, fmt: str = "html") -> Iterator[Iterable[str]]:
    """The report of the game stored under ``game_id`` (read by its id, never as a file or standard input) in
    ``fmt``, as ``viewer`` may see it (the reports' own renderers), for the block. Raises what
    :func:`~.reporting.stored_report` raises."""
    with stored_report(store, game_id, fmt=fmt, as_player=viewer.as_player) as pieces:
        yield pieces


def record_entry(store: GameStore, game_id: str, viewer: Viewer, entry: bytes, *, after: int | None,
                 anyway: bool = False, replaces: int | None = None, any_seat: bool = False) -> EntryResult:
    """Record ``entry`` as ``viewer`` (:func:`~.recording.append_entry`): the host any line; a seat its own
    player's lines (any player's when ``any_seat``: the host allowed it); a spectator none. A seat's answer is
    decided as its player may know the game (the same whether or not another hand holds a card it names).

    Raises :class:`~.recording.NotYourLine`, ``GameNotFound``, ``BadInput`` and the store's errors."""
    if viewer.role == SPECTATOR:
        raise NotYourLine("a spectator records nothing")
    # A seat's entry is decided as that seat may know the game (``seat_entries``): its answer needs no view.
    return append_entry(store, game_id, entry, after=after, anyway=anyway, replaces=replaces,
                        seat=viewer.player if viewer.role == SEAT else None, own_lines_only=not any_seat)
