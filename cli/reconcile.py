"""``gamelog reconcile [GAME] [--declared FILE]``: a game's declared result set against the one its log computes."""

from __future__ import annotations

import click

from gamelog.cli.errors import EXIT_OK, EXIT_VIOLATION
from gamelog.cli.options import RegistryChoice, from_option, output_option, store_option
from gamelog.cli.output import write_pieces
from gamelog.cli.terminal import text_width
from gamelog.formats import reconcile_formats
from gamelog.reconciling import reconciled


@click.command()
@click.argument("game", required=False)
@click.option("--declared", "declared", metavar="FILE", type=click.Path(dir_okay=False),
              help="A results table (CSV: game, player or faction, score, win); its rows of GAME, or, with no GAME, "
                   "every game it names matched to a stored game.")
@click.option("--columns", metavar="FIELD=HEADING[,...]",
              help="Which of the table's columns is game, player, faction, score, win (default: the Hall of "
                   "Records' GameID, Player, Faction, Score, Win, or the usual names: gamelog help cli).")
@click.option("--format", "fmt", type=RegistryChoice(reconcile_formats), default="text", show_default=True)
@output_option()
@click.option("--strict", is_flag=True,
              help="With no GAME: exit 1 when the table names a game the store does not hold (listed on stderr).")
@from_option()
@store_option
def reconcile(game: str | None, declared: str | None, columns: str | None, fmt: str, output: str | None,
              strict: bool, source_format: str | None, store: str) -> None:
    """Set GAME's declared result against the one its log computes, player by player.

    For each player: the computed score by source (objectives by stage,
    secrets, Custodians, Imperial, agendas, relics, manual adjustments) with
    its lines, the declared score, the difference (declared minus computed),
    and the score once the declared adjustments are applied (a what-if, as
    audit --without). Declarations come from the log (an archive's winner,
    final scores, adjustments) and from --declared FILE. With no GAME, every
    game of FILE is matched to a stored game (by its id, else by its players
    and factions) and the games that disagree are listed. GAME is a log file
    or a stored game's id. Exit 0 (a disagreement is an answer, not an error);
    2 for a table row naming a player who is not the game's (FILE:LINE).
    With no GAME, a game of the table the store does not hold is listed on
    stderr (FILE:LINE), the others reconciled: exit 0, or 1 with --strict.

    Examples:

    \b
      gamelog reconcile game.jsonl
      gamelog reconcile my-game-id --declared results.csv --format json
      gamelog reconcile --declared ti4_master_data.csv
      gamelog reconcile --declared ti4_master_data.csv --strict
      gamelog reconcile game.jsonl --declared r.csv --columns player=Who,score=Pts
      gamelog reconcile --from ti-assistant export.json
    """
    answer = reconciled(game, store, declared=declared, columns=columns, fmt=fmt.lower(), width=text_width(),
                        output=output, source_format=source_format)
    write_pieces([answer.text], output)
    if output:
        click.echo(f"the {fmt} reconciliation written to {output}", err=True)
    unmatched = getattr(answer.document, "unmatched", [])
    for line in unmatched:  # the games the store holds are written; the table's others are named, no error
        click.echo(line, err=True)
    raise SystemExit(EXIT_VIOLATION if strict and unmatched else EXIT_OK)
