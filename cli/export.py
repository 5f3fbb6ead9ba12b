"""``gamelog export``: a stored game's log back out, as JSON Lines; or the game as BG Stats' play file."""

from __future__ import annotations

import click

from gamelog.cli.options import output_option, store_option
from gamelog.cli.output import write_file
from gamelog.recording import EXPORTS, exported


@click.command()
@click.argument("game")
@click.option("--to", "to", type=click.Choice(EXPORTS, case_sensitive=False), default="jsonl", show_default=True,
              help="jsonl: the log; bgstats: BG Stats' play document (its push format; saved as FILE.bgsplay, "
                   "BG Stats opens it).")
@output_option("the log (atomically)")
@store_option
def export(game: str, to: str, output: str | None, store: str) -> None:
    """Write the log of the stored game GAME (its id) as JSON Lines, or the game as a BG Stats play.

    Every line keeps its number (a blank line where the log had a comment),
    corrections and the lines they void included: `validate` and `import`
    read it back to the same game, with the same findings and fingerprint.
    With --to bgstats: the standings, winner, ranks, factions (roles), date
    and length (from the lines' `at`) as BG Stats' play document.

    Examples:

    \b
      gamelog export my-game -o my-game.jsonl
      gamelog export my-game | gamelog validate -
      gamelog export my-game --to bgstats -o my-game.bgsplay
    """
    with exported(store, game, to.lower()) as lines:
        if output is None:
            for line in lines:
                click.echo(line, nl=False)  # bytes: written to stdout's binary stream as they are
        else:
            write_file(output, lines)
