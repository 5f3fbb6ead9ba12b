"""``gamelog stats``: figures across a store's games (or logs and exports), each traceable to its lines."""

from __future__ import annotations

import datetime
import os

import click

from gamelog.cli.options import RegistryChoice, as_option, from_option, output_option, store_option
from gamelog.cli.output import write_pieces
from gamelog.cli.terminal import text_width
from gamelog.cli.errors import InputProblem
from gamelog.formats import Layout, stats_formats
from gamelog.stats import Filters, stats_command


def _date(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    try:
        return datetime.date.fromisoformat(value).isoformat()
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a date (YYYY-MM-DD)", ctx=ctx, param=param) from None


@click.command()
@click.argument("games", nargs=-1, metavar="[GAME]...")
@click.option("--game", "kind", metavar="NAME", help="The kind of game (needed only when the games are of several).")
@click.option("--format", "fmt", type=RegistryChoice(stats_formats), default="text", show_default=True)
@click.option("--table", metavar="NAME", help="Only this table (csv writes one: the first list by default).")
@click.option("--all", "everything", is_flag=True,
              help="text: every table (by default the summary and the results, then the others' names).")
@click.option("--explain", "figure", metavar="FIGURE",
              help="List each game and line behind one figure (factions/FACTION/wins, objectives/OBJECTIVE/scored...).")
@click.option("--players", type=click.IntRange(min=1), help="Only games of N players.")
@click.option("--goal", type=click.IntRange(min=1), help="Only games played to this goal (TI4: the VP goal).")
@click.option("--expansion", metavar="NAME", help="Only games played with this expansion (as the header names it).")
@click.option("--faction", metavar="F", help="Only games in which this faction (a side) played.")
@click.option("--player", metavar="NAME", help="Only games in which this player played.")
@click.option("--since", callback=_date, metavar="DATE", help="Only games whose header's date is on or after DATE.")
@click.option("--until", callback=_date, metavar="DATE", help="Only games whose header's date is on or before DATE.")
@click.option("--clean", is_flag=True, help="Only games with no violation.")
@from_option(help="GAME files are exports of TOOL (ti-assistant...).")
@output_option()
@click.option("--reports", metavar="DIR",
              help="html: where the page links each game's own report, relative to the page "
                   "(default: PAGE-games beside -o PAGE; stats-games without -o).")
@click.option("--write-reports", is_flag=True,
              help="html: also write each counted game's HTML report into the --reports folder.")
@as_option
@store_option
def stats(games: tuple[str, ...], kind: str | None, fmt: str, table: str | None, everything: bool, figure: str | None,
          players: int | None, goal: int | None, expansion: str | None, faction: str | None, player: str | None,
          since: str | None, until: str | None, clean: bool, source_format: str | None, output: str | None,
          reports: str | None, write_reports: bool, as_player: str | None, store: str) -> None:
    """Figures across games: per player and faction, objective, round, card.

    GAME is a stored game's id (only those are counted; default: every game
    of the store) or a log file, read in memory with the others named
    (--from TOOL: exports of that tool). Text shows the summary and the
    results (most wins first), then names the other tables: --all prints
    them, --table NAME one. Every figure in json carries the
    games it rests on; --explain FIGURE lists the lines behind one. A win
    counts only from a game's own end. Dates are the header's "at" (UTC).
    The figures count only what every player may know (a secret objective
    once scored), so --as PLAYER gives the same ones. In html, each figure
    opens the games and lines behind it (the first 50 games), each game
    linking to its own report in --reports DIR (--write-reports writes them).

    Examples:

    \b
      gamelog stats
      gamelog stats --all
      gamelog stats --players 6 --clean --format html -o stats.html
      gamelog stats --explain "factions/Council Keleres/wins"
      gamelog stats --format csv --table objectives
      gamelog stats --from ti-assistant a.json b.json
      gamelog stats --format html -o stats.html --write-reports
    """
    filters = Filters(players=players, goal=goal, expansion=expansion, side=faction, player=player, since=since,
                      until=until, clean=clean)
    if (reports is not None or write_reports) and (fmt != "html" or figure is not None):
        raise click.UsageError("--reports and --write-reports go with --format html (not --explain)")
    layout = Layout(width=text_width(), brief=not everything)
    with stats_command(store, games, fmt, figure=figure, table=table, layout=layout,
                       output=output, game=kind, filters=filters, source_format=source_format, as_player=as_player,
                       reports=reports, write_reports=write_reports) as answer:
        if answer.folder is not None:
            # The games' reports first: when the page is there, so is every report it links to.
            written = 0
            for path, report in answer.reports:
                if not written:
                    try:
                        os.makedirs(answer.folder, exist_ok=True)
                    except OSError as exc:
                        raise InputProblem(f"cannot make the folder {answer.folder}: {exc.strerror or exc}") from exc
                with report as report_pieces:
                    write_pieces(report_pieces, path)
                written += 1
            click.echo(f"{written} game reports written to {answer.folder}", err=True)
        write_pieces(answer.pieces, output)
    if output:
        click.echo(f"the {fmt} statistics written to {output}", err=True)
