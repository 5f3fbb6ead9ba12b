"""The ``gamelog`` command: the group and its subcommands (docs/cli.md)."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import os
import sys

import click

from gamelog.cli.terminal import COLORS, click_color
from gamelog.wording import as_the_command  # the standard library's only: no service loaded by it

COMMANDS = {
    "append": "append:append", "audit": "audit:audit", "convert": "convert:convert", "export": "export:export",
    "games": "catalog:games", "help": "manual:help_", "import": "importing:import_", "new": "newgame:new",
    "projections": "projections:projections", "reconcile": "reconcile:reconcile", "replay": "replay:replay",
    "report": "report:report", "schema": "catalog:schema", "serve": "serve:serve", "stats": "stats:stats",
    "validate": "validate:validate", "verify": "verify:verify",
}
"""Each command, and where it is: ``MODULE:NAME`` in ``gamelog.cli``. A command's module (and the services it
calls) is imported only when that command runs, so ``gamelog --version`` and ``gamelog --help`` import neither."""


def _set_color(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    """``--color`` given after the command (``gamelog report --color never X``): as if given before it."""
    if value is not None:
        ctx.find_root().params["color"] = value.lower()  # what cli.terminal.color_choice() reads
        ctx.color = click_color(value.lower())


def _color_option() -> click.Option:
    return click.Option(["--color"], type=click.Choice(COLORS, case_sensitive=False), expose_value=False,
                        callback=_set_color, is_eager=True,
                        help="Bold and colour: auto (a terminal, without NO_COLOR), always or never (as gamelog "
                             "--color).")


def _with_color(command: click.Command) -> click.Command:
    """``command`` (and a group's every subcommand) taking ``--color`` as the group does."""
    if not any(param.name == "color" for param in command.params):
        command.params.append(_color_option())
    for sub in getattr(command, "commands", {}).values():
        _with_color(sub)
    return command


def _summary(name: str) -> str | None:
    """The docstring of command ``name``'s function, read from its module's source without importing it (None
    when the source cannot be read: the command is imported then)."""
    module, attribute = COMMANDS[name].split(":")
    try:
        spec = importlib.util.find_spec(f"gamelog.cli.{module}")
        with open(spec.origin, encoding="utf-8") as handle:  # type: ignore[union-attr, arg-type]
            tree = ast.parse(handle.read())
    except (OSError, AttributeError, TypeError, ValueError, SyntaxError):
        return None
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == attribute:
            return ast.get_docstring(node)
    return None


class _Group(click.Group):
    """The ``gamelog`` group: its commands imported as they are run (:data:`COMMANDS`), and every failure turned
    into an ``Error: ...`` line and its exit code (``cli.errors``), never a traceback.

    gamelog's own errors exit as ``cli.errors.ERRORS`` says (a damaged store
    3; a store that cannot be opened or written, a log, a game that cannot
    be used, 2); a closed output pipe ends the command quietly (141); Ctrl-C
    says so (130); anything else is a bug in gamelog (70): set
    GAMELOG_DEBUG=1 to see its traceback when reporting it.
    """

    _listing = False

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        if self._listing:  # the group's --help: each command's summary, from its docstring, nothing imported
            summary = _summary(name)
            if summary is not None:
                return click.Command(name, help=summary)
        if name not in self.commands:
            module, attribute = COMMANDS[name].split(":")
            self.commands[name] = _with_color(getattr(importlib.import_module(f"gamelog.cli.{module}"), attribute))
        return self.commands[name]

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        self._listing = True
        try:
            super().format_commands(ctx, formatter)
        finally:
            self._listing = False

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort, SystemExit):
            raise
        except BrokenPipeError:
            from gamelog.cli.errors import EXIT_PIPE_CLOSED  # cli.errors (gamelog's errors) only when one is raised

            _quiet_stdout()
            raise SystemExit(EXIT_PIPE_CLOSED) from None
        except KeyboardInterrupt:
            from gamelog.cli.errors import EXIT_INTERRUPTED

            click.echo("\nInterrupted.", err=True)
            raise SystemExit(EXIT_INTERRUPTED) from None
        except Exception as exc:
            from gamelog.cli.errors import Bug, cli_error

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

    Read a log (JSON Lines: gamelog help log-format) with validate, keep it
    with import, and look back at any point with replay. GAME is a log file
    path or the id of a stored game. Every command, its JSON documents and
    exit codes: gamelog help cli; the rules by ID: gamelog help rules; the
    manual's other topics: gamelog help.

    Examples:

    \b
      gamelog validate game.jsonl
      gamelog import game.jsonl && gamelog games
      gamelog report game.jsonl --format html -o report.html
      gamelog COMMAND --help
      gamelog help log-format
    """
    from gamelog.config import user_config  # read when a command runs: --version and --help read no file

    config = user_config()
    if config.color is not None and ctx.get_parameter_source("color") is click.core.ParameterSource.DEFAULT:
        color = ctx.params["color"] = config.color  # what cli.terminal.color_choice() reads
    serve = config.serve.given()
    ctx.default_map = {"serve": serve} if serve else None  # the subcommand's context, made next, takes its defaults
    ctx.color = click_color(color)
    ctx.with_resource(as_the_command())  # the services' messages name this command's options, not Python's


if __name__ == "__main__":
    main()
