"""``gamelog projections``: the views the reports read, their position, and rebuilding them."""

from __future__ import annotations

import click

from gamelog.cli.options import store_option
from gamelog.cli.terminal import progress
from gamelog.formats import plural
from gamelog.views import VIEWS, rebuild_views, views_status


@click.group()
def projections() -> None:
    """The views the reports read: their position, and rebuilding them.

    Examples:

    \b
      gamelog projections status
      gamelog projections rebuild --store games.sqlite
    """


@projections.command()
@store_option
def status(store: str) -> None:
    """Each view's store position against the head of the store's notification log.

    The store position counts stored events of every game in the store (its
    notification log), not one game's log lines.

    Examples:

    \b
      gamelog projections status --store games.sqlite
    """
    s = views_status(store)
    state = "up to date" if s.behind == 0 else f"{plural(s.behind, 'stored event')} behind"
    for view in VIEWS:
        click.echo(f"{view:<9} at store position {s.position} of {s.head}: {state}")


@projections.command()
@store_option
def rebuild(store: str) -> None:
    """Rebuild every view from scratch, with progress on a terminal.

    Examples:

    \b
      gamelog projections rebuild
    """
    folded = rebuild_views(store, progress)
    click.echo(f"rebuilt the views from {plural(folded, 'stored event')}")
