"""``gamelog audit GAME``: every finding with its rule and line, how each score was made, and what-ifs."""

from __future__ import annotations

import os
from contextlib import ExitStack
from typing import Any

import click

from gamelog.cli.errors import EXIT_OK, EXIT_VIOLATION, InputProblem
from gamelog.cli.report import keeper_for, write_pieces
from gamelog.cli.sources import load_game, store_option
from gamelog.cli.terminal import text_width
from gamelog.domain.engine import VIOLATION
from gamelog.domain.replay import PointNotReached, without as replay_without
from gamelog.projections.reports.audit import audit_parts, build_audit
from gamelog.projections.reports.audit_formats import (audit_json_pieces, audit_markdown_pieces, audit_text_pieces,
                                               render_what_if_json, render_what_if_text)
from gamelog.projections.reports.model import build_report
from gamelog.projections.reports.whatif import compare
from gamelog.projections.store.verify import fingerprint_of
from gamelog.projections.views.keeper import views_in_memory

RENDER_AUDIT = {"markdown": audit_markdown_pieces, "json": audit_json_pieces}
RENDER_WHAT_IF = {"text": render_what_if_text, "markdown": render_what_if_text, "json": render_what_if_json}


def _lines(text: str) -> list[int]:
    try:
        lines = sorted({int(part) for part in text.split(",") if part.strip()})
    except ValueError:
        raise click.BadParameter(f"{text!r}: give line numbers separated by commas, such as 12,40") from None
    if not lines or lines[0] < 1:
        raise click.BadParameter("give at least one line number from 1 up")
    return lines


@click.command()
@click.argument("game")
@click.option("--player", help="Show how this player's score (VP, or net worth) was made, line by line.")
@click.option("--without", "without_", metavar="LINE[,LINE...]", help="Replay as if these lines were void and show what changes; nothing is edited.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True)
@store_option
def audit(game: str, player: str | None, without_: str | None, fmt: str, store: str) -> None:
    """Audit GAME: every finding (violation, unverifiable, warning) with its line, its rule and what the log says.

    GAME is a log file or a stored game's id. Exit 1 when the game (or, with
    --without, the game without those lines) breaks a rule, 0 otherwise.
    """
    lines = _lines(without_) if without_ is not None else None
    with ExitStack() as stack:
        _audit(stack, game, player, lines, fmt, store)


def _audit(stack: ExitStack, game: str, player: str | None, lines: list[int] | None, fmt: str, store: str) -> None:
    events, cursor, game_id, fingerprint = _open(stack, game, store, need_events=lines is not None)
    if lines is not None:
        document = build_audit(cursor, game_id, fingerprint=fingerprint)
        if player is not None and player not in document.scores:
            raise InputProblem(f"no player {player!r} in {game_id!r} (players: {', '.join(document.scores)})")
        try:
            hypothetical = replay_without(document.game, events, set(lines))
        except PointNotReached as exc:
            raise InputProblem(f"{game}: {exc}") from exc
        what_if_cursor = views_in_memory(hypothetical).cursor()
        diff = compare(build_report(cursor, game_id), build_report(what_if_cursor, game_id), lines)
        click.echo(render_what_if_text(diff, text_width()) if fmt == "text" else RENDER_WHAT_IF[fmt](diff))
        violated = audit_parts(what_if_cursor, game_id).counts.get(VIOLATION, 0)
    else:
        parts = audit_parts(cursor, game_id, fingerprint=fingerprint)
        if player is not None:
            if player not in parts.players:
                raise InputProblem(f"no player {player!r} in {game_id!r} (players: {', '.join(parts.players)})")
            parts = audit_parts(cursor, game_id, player, fingerprint)
        # Written as it is read: a finding, a correction, a score entry at a time.
        pieces = audit_text_pieces(parts, text_width()) if fmt == "text" else RENDER_AUDIT[fmt](parts)
        write_pieces(pieces, None)
        violated = parts.counts.get(VIOLATION, 0)
    raise SystemExit(EXIT_VIOLATION if violated else EXIT_OK)


def _open(stack: ExitStack, game: str, store: str, need_events: bool) -> tuple[list[Any] | None, Any, str, str]:
    """(events when asked for, a cursor on the game's views, the game's id, its fingerprint)."""
    if os.path.isfile(game):
        source = load_game(game, store)
        events = list(source.events)
        return events, views_in_memory(events).cursor(), source.id, fingerprint_of(source.id, events)
    keeper = keeper_for(store)
    summary = next((g for g in keeper.store.games() if g.id == game), None)
    if summary is None:
        raise InputProblem(f"no log file or stored game named {game!r} (in {store})")
    cursor = stack.enter_context(keeper.connection())
    return (list(keeper.store.history(game)) if need_events else None), cursor, game, summary.fingerprint
