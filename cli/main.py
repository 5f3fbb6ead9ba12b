"""The ``gamelog`` command: the group and its subcommands (docs/cli.md)."""

from __future__ import annotations

import os
import sys

import click

from gamelog.cli.append import append
from gamelog.cli.audit import audit
from gamelog.cli.catalog import games, schema
from gamelog.cli.convert import convert
from gamelog.cli.export import export
from gamelog.cli.errors import EXIT_INTERRUPTED, EXIT_PIPE_CLOSED, Bug, cli_error
from gamelog.cli.importing import import_
from gamelog.cli.projections import projections
from gamelog.cli.reconcile import reconcile
from gamelog.cli.replay import replay
from gamelog.cli.report import report
from gamelog.cli.serve import serve
from gamelog.cli.stats import stats
from gamelog.cli.terminal import COLORS, click_color
from gamelog.cli.validate import validate
from gamelog.cli.verify import verify


class _Group(click.Group):
    """Turns every failure into an ``Error: ...`` line and its exit code (``cli.errors``), never a traceback.

    gamelog's own errors exit as ``cli.errors.ERRORS`` says (a damaged store
    3; a store that cannot be opened or written, a log, a game that cannot
    be used, 2); a closed output pipe ends the command quietly (141); Ctrl-C
    says so (130); anything else is a bug in gamelog (70): set
    GAMELOG_DEBUG=1 to see its traceback when reporting it.
    """

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort, SystemExit):
            raise
        except BrokenPipeError:
            _quiet_stdout()
            raise SystemExit(EXIT_PIPE_CLOSED) from None
        except KeyboardInterrupt:
            click.echo("\nInterrupted.", err=True)
            raise SystemExit(EXIT_INTERRUPTED) from None
        except Exception as exc:
            problem = cli_error(exc)
            if problem is not None:
                raise problem from exc
            if os.environ.get("GAMELOG_DEBUG"):  # a bug: say it is one, don't dump a trace
                raise
            raise Bug(exc) from exc


def _quiet_stdout() -> None:
    """Point stdout at /dev/null, so that flushing it at exit does not fail again on the closed pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file (a test's capture): nothing to flush
        pass


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="gamelog")
@click.option("--store", metavar="PATH|URL", help="The store, for any command (as the command's own --store).")
@click.option("--color", type=click.Choice(COLORS, case_sensitive=False), default="auto", show_default=True,
              help="Bold and colour: on a terminal only (auto; none when NO_COLOR is set), always, or never.")
@click.pass_context
def main(ctx: click.Context, store: str | None, color: str) -> None:
    """gamelog: recorded tabletop games as an event-sourced history.

    Read a log (JSON Lines, see docs/log-format.md) with validate, keep it
    with import, and look back at any point with replay. GAME is a log file
    path or the id of a stored game. Every command, its JSON documents and
    exit codes: docs/cli.md; the rules by ID: docs/rules.md.

    Examples:

    \b
      gamelog validate game.jsonl
      gamelog import game.jsonl && gamelog games
      gamelog report game.jsonl --format html -o report.html
      gamelog COMMAND --help
    """
    ctx.color = click_color(color)


for command in (validate, import_, games, replay, report, stats, audit, reconcile, verify, projections, convert,
                schema, append, export, serve):
    main.add_command(command)


if __name__ == "__main__":
    main()
