"""``gamelog audit GAME``: every finding with its rule and line, how each score was made, and what-ifs."""

from __future__ import annotations

import click

from gamelog.auditing import audit_output
from gamelog.cli.errors import EXIT_OK, EXIT_VIOLATION
from gamelog.cli.options import RegistryChoice, as_option, from_option, store_option
from gamelog.cli.output import write_pieces
from gamelog.cli.terminal import stdout_style, terminal_progress, text_width
from gamelog.formats import Layout, audit_formats


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
@click.option("--player", help="Show how this player's score (as the game counts it) was made, line by line.")
@click.option("--without", "without_", metavar="LINE[,LINE...]", help="Replay as if these lines were void and show what changes; nothing is edited.")
@click.option("--format", "fmt", type=RegistryChoice(audit_formats), default="text", show_default=True)
@as_option
@from_option()
@store_option
def audit(game: str, player: str | None, without_: str | None, fmt: str, as_player: str | None,
          source_format: str | None, store: str) -> None:
    """Audit GAME: every finding (violation, unverifiable, warning) with its line, its rule and what the log says.

    GAME is a log file or a stored game's id. Exit 1 when the game (or, with
    --without, the game without those lines) breaks a rule, 0 otherwise.

    Examples:

    \b
      gamelog audit game.jsonl
      gamelog audit game.jsonl --player Ann
      gamelog audit my-game-id --without 12,40
      gamelog audit game.jsonl --as Ann
      gamelog audit --from ti-assistant export.json
    """
    without = None if without_ is None else _lines(without_)
    layout = Layout(stdout_style(), text_width())  # each finding in its severity's colour, as report shows it
    with audit_output(game, store, without=without, player=player, fmt=fmt, layout=layout, as_player=as_player,
                      source_format=source_format, progress=terminal_progress()) as audited:
        # As it is read: a finding, a correction, a score entry (or, --without, a standings change) at a time.
        write_pieces(audited.pieces)
        violations = audited.violations
    raise SystemExit(EXIT_VIOLATION if violations else EXIT_OK)
