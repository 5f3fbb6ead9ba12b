"""``gamelog report``: a game turn by turn or round by round, in any registered format."""

from __future__ import annotations

import sys

import click

from gamelog.cli.options import RegistryChoice, as_option, from_option, output_option, store_option
from gamelog.cli.output import write_pieces
from gamelog.cli.terminal import stdout_style, terminal_progress, text_width
from gamelog.formats import Layout, plain, report_formats
from gamelog.reporting import report as report_of


@click.command()
@click.argument("game")
@click.option("--by", type=click.Choice(["turn", "round"], case_sensitive=False), help="Group by turn or by round (default: the game's own period, as its rules say).")
@click.option("--format", "fmt", type=RegistryChoice(report_formats), default="text", show_default=True)
@output_option()
@as_option
@from_option()
@store_option
def report(game: str, by: str | None, fmt: str, output: str | None, as_player: str | None,
           source_format: str | None, store: str) -> None:
    """Report GAME turn by turn (or round by round): who did what, each change with its line, the findings, the standings.

    GAME is a log file (nothing stored) or a stored game's id. Formats: text
    for a terminal (wrapped to its width, COLUMNS or 80 when piped), markdown
    for a forge, json and csv for programs, html for one self-contained page
    with charts (of a log longer than 3,000 lines, every k-th line: the page
    says so). The fields of json: gamelog help cli. A long game shows a progress
    bar on stderr. --from TOOL reports another tool's export as the log it
    converts to.

    Examples:

    \b
      gamelog report game.jsonl
      gamelog report my-game-id --format html -o report.html
      gamelog report game.jsonl --by round --format markdown
      gamelog report my-game-id --as Ann --format html -o ann.html
      gamelog report --from ti-assistant export.json
    """
    layout = Layout(stdout_style() if output is None else plain, text_width())
    # A bar on stderr, on a terminal: reading a large log, then writing a long game's report (unless the report
    # itself is printed on the terminal: its lines are the progress then).
    with report_of(game, store, fmt=fmt, by=by, layout=layout, output=output, progress=terminal_progress(),
                   as_player=as_player, source_format=source_format,
                   writing_progress=output is not None or not sys.stdout.isatty()) as pieces:
        write_pieces(pieces, output)
    if output:
        click.echo(f"{game}: the {fmt} report written to {output}", err=True)
