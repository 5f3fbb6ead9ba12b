"""``gamelog help [TOPIC]``: the manual (the docs shipped with the package), paged on a terminal."""

from __future__ import annotations

import sys

import click

from gamelog.manual import help_output


@click.command("help")
@click.argument("topic", required=False, metavar="[TOPIC]")
def help_(topic: str | None) -> None:
    """Read the manual: TOPIC's page (paged on a terminal), or the topics there are.

    The pages are gamelog's documentation, shipped with it: log-format (how
    to write a log), cli (every command, its JSON and exit codes), rules
    (each rule a finding cites, by ID), serve (recording at the table),
    secrets (--as PLAYER), python-api, architecture. `gamelog help` with no
    TOPIC lists them with their titles.

    Examples:

    \b
      gamelog help
      gamelog help log-format
      gamelog help rules | grep "LRR 90"
    """
    text = help_output(topic)
    # Paged only on a terminal: piped or captured output is the page as written
    # (click 8.4.0's pager closes a stdout that is not a terminal).
    if topic is not None and sys.stdout.isatty():
        click.echo_via_pager(text)
    else:
        click.echo(text)
