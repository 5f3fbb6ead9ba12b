"""``gamelog append``: one line added to a stored game, checked as the recorder checks an entry."""

from __future__ import annotations

import click

from gamelog.cli.errors import EXIT_OK, EXIT_VIOLATION, InputProblem
from gamelog.cli.options import store_option
from gamelog.cli.terminal import text_width
from gamelog.recording import append_output


@click.command()
@click.argument("game")
@click.argument("line")
@click.option("--anyway", is_flag=True, help="Store the line even though it breaks a rule (the table agreed); its finding stands.")
@click.option("--after", type=click.IntRange(min=1), metavar="N",
              help="The lines of the log you made the entry against: if the game has moved past them, nothing is stored.")
@click.option("--replaces", type=click.IntRange(min=1), metavar="L",
              help="Replace line L by LINE: one correction line carrying LINE, decided at line L's place.")
@click.option("--reason", metavar="TEXT", help="Why line L is replaced (with --replaces; default: replaced).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"], case_sensitive=False), default="text",
              show_default=True, help="json: what became of the line as one document (the recorder's answer).")
@store_option
def append(game: str, line: str, anyway: bool, after: int | None, replaces: int | None, reason: str | None, fmt: str,
           store: str) -> None:
    """Append LINE (one JSON object of the game's log) to the stored game GAME.

    The line is read and decided as if it ended the game's log: an input
    error exits 2 (nothing stored); a line that breaks a rule is not stored,
    its finding printed with the rule's text, and exits 1, unless --anyway.
    The line is stored with this machine's time (UTC) as its `at`.

    Examples:

    \b
      gamelog append my-game '{"type": "turn_started", "player": "Ann"}'
      gamelog append my-game '{"type": "note", "text": "agreed"}' --after 41
      gamelog append my-game '{"type": "note", "text": "fixed"}' --replaces 12
      gamelog append my-game "$FIXED_LINE" --replaces 12 --reason "misread"
      gamelog append my-game '{"type": "ruling", "text": "ok", "resolves": 9}'
    """
    try:
        entry = line.encode("utf-8")
    except UnicodeEncodeError as exc:  # the shell's bytes were not UTF-8 (Python keeps them as surrogates)
        raise InputProblem(f"LINE: character {exc.start + 1} is not UTF-8 text; give the line in UTF-8; "
                           "nothing stored") from None
    said = append_output(store, game, entry, fmt=fmt, width=text_width(), anyway=anyway, after=after,
                         replaces=replaces, reason=reason)
    click.echo(said.text, err=not said.appended and fmt != "json")
    if said.malformed:  # as import says a log it stores nothing of: the errors, then what became of it
        raise InputProblem(f"{game}: not a valid line; nothing stored")
    raise SystemExit(EXIT_OK if said.appended else EXIT_VIOLATION)
