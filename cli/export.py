"""``gamelog export``: a stored game's log back out, as JSON Lines."""

from __future__ import annotations

import click

from gamelog.cli.options import output_option, store_option
from gamelog.cli.output import write_file
from gamelog.recording import exported


@click.command()
@click.argument("game")
@output_option("the log (atomically)")
@store_option
def export(game: str, output: str | None, store: str) -> None:
    """Write the log of the stored game GAME (its id) as JSON Lines.

    Every line keeps its number (a blank line where the log had a comment),
    corrections and the lines they void included: `validate` and `import`
    read it back to the same game, with the same findings and fingerprint.

    Examples:

    \b
      gamelog export my-game -o my-game.jsonl
      gamelog export my-game | gamelog validate -
    """
    with exported(store, game) as lines:
        if output is None:
            for line in lines:
                click.echo(line, nl=False)  # bytes: written to stdout's binary stream as they are
        else:
            write_file(output, lines)
