"""The ``gamelog`` command: the group and its subcommands (docs/cli.md)."""

from __future__ import annotations

import os

import click

from cli.errors import InputProblem
from cli.audit import audit
from cli.catalog import games, schema
from cli.convert import convert
from cli.importing import import_
from cli.replay import replay
from cli.report import projections, report
from cli.validate import validate
from cli.verify import verify


class _Group(click.Group):
    """Turns any unexpected failure into ``Error: ...`` (exit 2) instead of a traceback.

    Set GAMELOG_DEBUG=1 to see the traceback when reporting a bug.
    """

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort, SystemExit):
            raise
        except Exception as exc:  # a bug or an environment failure: say it, don't dump a trace
            if os.environ.get("GAMELOG_DEBUG"):
                raise
            raise InputProblem(f"{type(exc).__name__}: {exc}") from exc


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="gamelog")
@click.option("--store", metavar="PATH|URL", help="The store, for any command (as the command's own --store).")
def main(store: str | None) -> None:
    """gamelog: recorded tabletop games as an event-sourced history.

    Read a log (JSON Lines, see docs/log-format.md) with validate, keep it
    with import, and look back at any point with replay. GAME is a log file
    path or the id of a stored game. Every command, its JSON documents and
    exit codes: docs/cli.md; the rules by ID: docs/rules.md.
    """


for command in (validate, import_, games, replay, report, audit, verify, projections, convert, schema):
    main.add_command(command)


if __name__ == "__main__":
    main()
