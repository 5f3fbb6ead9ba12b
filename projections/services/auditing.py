"""Audit a game: every finding with its rule and line, how each score was made; and what-ifs (``--without``).

Both are written in any registered audit format
(``projections.reports.registry``): an audit as it is read from the views,
a what-if whole.
"""

from __future__ import annotations

from contextlib import ExitStack, contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any, Iterable, Iterator

from msgspec import UNSET

from gamelog.domain.engine import VIOLATION
from gamelog.domain.replay_document import held
from gamelog.domain.replay import PointNotReached, without_events
from gamelog.projections.reports.audit import audit_parts
from gamelog.projections.reports.documents import WhatIf
from gamelog.projections.importing.spill import SpilledIndex
from gamelog.projections.reports.model import last_line, report_head, report_periods
from gamelog.projections.reports.redaction import audit_parts_view
from gamelog.projections.reports.registry import AuditFormat, Layout, audit_format
from gamelog.projections.reports.whatif import compare_paged
from gamelog.projections.views.keeper import derived_views

from .errors import BadInput, PointNotInGame
from .progress import PROGRESS_FROM_LINES, Progress, by_line
from .reconciling import declared_in
from .results import agreement_line
from .secrecy import fingerprinted, player_not_found, redaction as player_view, what_if_view
from .sources import Source, open_game, reading_views


@dataclass(frozen=True)
class Audited:
    """An audit (or a what-if) as it is written: its text as pieces (read from the views as they are written), and
    how many violations the game (without the what-if's lines) has (0: it breaks no rule)."""

    pieces: Iterable[str]
    violations: int


@dataclass(frozen=True)
class WhatIfAnswer:
    """A what-if: the difference (``what-if``'s document), its text in the format asked for, and how many
    violations the game without those lines has."""

    document: WhatIf
    text: str
    violations: int


def _format(fmt: str) -> AuditFormat:
    try:
        return audit_format(fmt)
    except KeyError as exc:
        raise BadInput(exc.args[0]) from None


@contextmanager
def audit(game: str, store: str, *, player: str | None = None, fmt: str = "text",
          layout: Layout = Layout(), as_player: str | None = None, source_format: str | None = None,
          progress: Progress | None = None) -> Iterator[Audited]:
    """The audit of GAME (a log file, or a stored game's id in ``store``), only ``player``'s score with
    ``player``, for the ``with`` block (the views stay open while its pieces are read); with ``as_player``, what
    that player may know of it at the end of the game (``secrecy``: others' secrets hidden).
    ``source_format``: GAME is that tool's export (``sources.open_game``). ``progress``, given, shows a large log
    being read.

    Raises :class:`~.errors.GameNotFound`, :class:`~.errors.PlayerNotFound`, :class:`~.errors.BadInput` and the
    store's errors.
    """
    chosen = _format(fmt)
    with open_game(game, store, source_format, progress) as source, source.views() as cursor, reading_views(source):
        fingerprint = source.fingerprint()
        parts = audit_parts(cursor, source.id, fingerprint=fingerprint)
        if player is not None:
            if player not in parts.players:
                raise player_not_found(source.id, parts.players, player)
            parts = audit_parts(cursor, source.id, player, fingerprint)
        else:
            parts.head.reconciliation = declared_in(source, cursor) or UNSET  # what the log declares of the result
        parts.head.agreement = agreement_line(source)
        if as_player is not None:
            view = player_view(source, as_player)
            parts = audit_parts_view(parts, view)
            parts.head = fingerprinted(parts.head, source, view)  # the view's own, where it hides anything
        yield Audited(chosen.audit(parts, layout), parts.counts.get(VIOLATION, 0))


@contextmanager
def audit_output(game: str, store: str, *, without: Iterable[int] | None = None, player: str | None = None,
                 fmt: str = "text", layout: Layout = Layout(), as_player: str | None = None,
                 source_format: str | None = None, progress: Progress | None = None) -> Iterator[Audited]:
    """``gamelog audit``: :func:`audit` of GAME, or with ``without`` (lines), :func:`what_if_output`: its pieces and
    its violations (the game's, or the game's without those lines), for the ``with`` block. ``progress``, given,
    shows the long steps (``progress``). Raises what those raise."""
    if without is None:
        with audit(game, store, player=player, fmt=fmt, layout=layout, as_player=as_player,
                   source_format=source_format, progress=progress) as audited:
            yield audited
    else:
        with what_if_output(game, store, without, player=player, fmt=fmt, layout=layout, as_player=as_player,
                            source_format=source_format, progress=progress) as answer:
            yield answer


def what_if(game: str, store: str, without: Iterable[int], *, player: str | None = None, fmt: str = "text",
            layout: Layout = Layout(), as_player: str | None = None,
            source_format: str | None = None) -> WhatIfAnswer:
    """What changes when the lines ``without`` of GAME had been void from the start: the game decided again by
    the rules without them (nothing stored changes), its report compared with the game's; with ``as_player``, what
    that player may know of it at the end of the game (``secrecy``). The document and its text are held whole
    (:func:`what_if_output` writes them as they are read). ``source_format``: GAME is that tool's export.

    ``player``, when given, must be one of the game's players. Raises
    :class:`~.errors.PointNotInGame` for a line that holds no event,
    :class:`~.errors.GameNotFound`, :class:`~.errors.PlayerNotFound`, :class:`~.errors.BadInput` and the store's
    errors.
    """
    chosen = _format(fmt)
    with _what_if(game, store, without, player, as_player, source_format) as (diff, violations):
        diff = held(diff)
        return WhatIfAnswer(diff, _text(chosen.what_if(diff, layout)), violations)


@contextmanager
def what_if_output(game: str, store: str, without: Iterable[int], *, player: str | None = None, fmt: str = "text",
                   layout: Layout = Layout(), as_player: str | None = None,
                   source_format: str | None = None, progress: Progress | None = None) -> Iterator[Audited]:
    """:func:`what_if`'s text in the format ``fmt`` as pieces, for the ``with`` block, and the violations of the game
    without those lines: the standings that differ (a change a turn of a long game) and the findings are read
    from the comparison's scratch tables as they are written, never held. ``source_format``: GAME is that tool's
    export. ``progress``, given, shows a large log being read, and the game being decided again without the lines.
    Raises what :func:`what_if` raises."""
    chosen = _format(fmt)
    with _what_if(game, store, without, player, as_player, source_format, progress) as (diff, violations):
        yield Audited(_pieces(chosen.what_if(diff, layout)), violations)


def _text(written: str | Iterable[str]) -> str:
    """A what-if format's text: a string, or pieces (the registered formats write pieces)."""
    return written if isinstance(written, str) else "".join(written)


def _pieces(written: str | Iterable[str]) -> Iterable[str]:
    return (written,) if isinstance(written, str) else written


@contextmanager
def _what_if(game: str, store: str, without: Iterable[int], player: str | None,
             as_player: str | None, source_format: str | None,
             progress: Progress | None = None) -> Iterator[tuple[WhatIf, int]]:
    lines = sorted(set(without))
    with open_game(game, store, source_format, progress) as source, source.views() as cursor, reading_views(source):
        parts = audit_parts(cursor, source.id)
        if player is not None and player not in parts.players:
            raise player_not_found(source.id, parts.players, player)
        with compared_without(source, cursor, lines, progress) as (diff, violations):
            if as_player is not None:
                diff = what_if_view(diff, player_view(source, as_player))
            yield diff, violations


def compare_without(source: Source, cursor: object, lines: Iterable[int]) -> tuple[WhatIf, int]:
    """(the what-if document, the violations left) of ``source`` had ``lines`` been void from the start
    (:func:`compared_without`), the document's lists held. Raises what :func:`compared_without` raises."""
    with compared_without(source, cursor, lines) as (diff, violations):
        return held(diff), violations


@contextmanager
def compared_without(source: Source, cursor: Any, lines: Iterable[int],
                     progress: Progress | None = None) -> Iterator[tuple[WhatIf, int]]:
    """(the what-if document, the violations left) of ``source`` had ``lines`` been void from the start, for the
    ``with`` block: its history decided again without them, folded into views in a private temporary database,
    its report compared with the game's (read at ``cursor``), a period at a time; the document's lists (the
    standings that differ, the findings that go and come) are read from that database as they are written: a
    game of any length in bounded memory. Nothing stored changes.

    ``progress``, given, shows a game of :data:`PROGRESS_FROM_LINES` lines or more being decided again. Raises
    :class:`~.errors.PointNotInGame` for a line that holds no event (the header's included).
    """
    lines = sorted(set(lines))
    length = last_line(cursor, source.id) if progress is not None else 0
    shown = progress(length, f"deciding {source.name} again") if length >= PROGRESS_FROM_LINES else nullcontext()
    try:
        # The line index on disk, as an import's: what a correction needs of every line is not held either.
        with SpilledIndex() as index, ExitStack() as held_open:
            with shown as advance:  # the game decided again and folded: the display ends there
                history = by_line(source.history(), advance)
                what_if_cursor = held_open.enter_context(derived_views(
                    without_events(source.game, history, set(lines), index), sums=False, snapshots=False))
            actual, what_if = report_head(cursor, source.id), report_head(what_if_cursor, source.id)
            diff = compare_paged(actual, report_periods(cursor, actual), what_if,
                                 report_periods(what_if_cursor, what_if), lines, what_if_cursor.connection.cursor())
            violations = audit_parts(what_if_cursor, source.id).counts.get(VIOLATION, 0)
            yield diff, violations
    except PointNotReached as exc:
        raise PointNotInGame(f"{source.name}: {exc}") from exc
