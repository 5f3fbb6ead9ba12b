"""The options several commands share: ``--store``, ``--from``, ``--as``, and ``--format`` choices read from a registry."""

from __future__ import annotations

import os
from typing import Callable, Sequence

import click

from gamelog.config import user_config
from gamelog.converting import export_formats
from gamelog.errors import UnsupportedStore
from gamelog.sources import DEFAULT_STORE, STORE_ENV, check_store_location


def _store_location(ctx: click.Context, param: click.Parameter, value: str | None) -> str:
    """The store a command uses: its own ``--store``, else the one given before the command, else
    ``GAMELOG_STORE``, else the settings file's ``store`` (``gamelog.config``), else the default.

    ``gamelog --store x games`` and ``gamelog games --store x`` are the same.
    Raises click.BadParameter (exit 2) for a URL gamelog cannot open, rather
    than taking ``ftp://host/db`` for a SQLite file's name.
    """
    # Resolved here, not by click's envvar and default: those would win over the group's --store.
    value = value or ctx.find_root().params.get("store") or os.environ.get(STORE_ENV) or user_config().store
    value = value or DEFAULT_STORE
    try:
        return check_store_location(value)
    except UnsupportedStore as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from None


store_option = click.option(
    "--store",
    metavar="PATH|URL",
    callback=_store_location,
    help=f"The store: a SQLite file path or a postgresql://user@host:port/db URL (env GAMELOG_STORE, else the "
         f"settings' store; default {DEFAULT_STORE}); may also come before the command (gamelog --store PATH games).",
)


def _output_path(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``-o FILE``'s file; None (standard output) for ``-o -``, as for no ``-o``."""
    return None if value == "-" else value


def output_option(what: str = "the output") -> Callable[[Callable[..., None]], Callable[..., None]]:
    """``-o/--output FILE``: write ``what`` to FILE, atomically, instead of standard output (``-``: standard output)."""
    return click.option("-o", "--output", metavar="FILE", type=click.Path(dir_okay=False, allow_dash=True),
                        callback=_output_path, help=f"Write {what} to FILE instead of stdout (-: stdout).")


max_errors_option = click.option(
    "--max-errors", type=click.IntRange(min=0), default=20, show_default=True, metavar="N",
    help="Print a log's first N input errors, then how many more there are (0: print them all).")


class RegistryChoice(click.Choice):
    """A choice of the names a registry holds when the command runs (a format plugged in later is offered), in any
    case: ``--format HTML`` is ``html``."""

    def __init__(self, names: Callable[[], Sequence[str]]):
        self._names = names
        super().__init__(list(names()), case_sensitive=False)

    @property  # type: ignore[override]
    def choices(self) -> Sequence[str]:
        return tuple(self._names())

    @choices.setter
    def choices(self, _: Sequence[str]) -> None:
        pass  # the registry holds them


as_option = click.option(
    "--as", "as_player", metavar="PLAYER",
    help="Show only what PLAYER (a name in any case, or the faction they play) may know at that point of the game: "
         "another player's secrets (such as unscored secret objectives) read [hidden] everywhere (gamelog help secrets).")


def from_option(*, required: bool = False,
                help: str = "GAME is an export of TOOL (ti-assistant...), read as the log it converts to: nothing "
                            "is written (gamelog convert writes the log).") -> Callable:
    """``--from TOOL``: the files a command reads are that tool's exports, converted as they are read (the same
    option on every command that reads a log, so the hint ``give --from ti-assistant`` always applies)."""
    return click.option("--from", "source_format", metavar="TOOL", required=required,
                        type=RegistryChoice(export_formats), help=help)
