"""A game's declared result set against the one its log computes: ``reconcile``'s document.

``reconcile`` folds a game's history once: each change of the score (the
game's ``measures``) is put to the source its line scores (the game's
``results.source``: a stage I objective, the Custodians token...; a
correction's change to the source of the line it voids), and every
declaration the history holds is read by the game's ``results.declarations``
(a declared winner, a final score, an adjustment as the rules weighed it).
A results table's rows (:class:`TableRow`) are declarations too. Nothing is
decided here: the rules decided each score and weighed each adjustment;
the what-if that applies the adjustments (:class:`WhatIfScores`) is the
service's, by the same deciding again as ``audit --without``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from gamelog.domain.declarations import Declared
from gamelog.domain.events import Correction
from gamelog.domain.games import GAMES
from gamelog.projections.reports.documents import Adjustment, Declaration, PlayerReconciliation, Reconciliation


def declares(cursor: Any, game: str, game_id: str) -> bool:
    """Whether the game's log has a line of a type that declares (its game's ``results.types``), read from the
    views (no fold of the history for a game that declares nothing)."""
    types = GAMES[game].results.types
    if not types:
        return False
    cursor.execute(f"SELECT 1 FROM view_lines WHERE game = ? AND type IN ({', '.join('?' * len(types))}) LIMIT 1",
                   (game_id, *types))
    return cursor.fetchone() is not None


@dataclass(frozen=True)
class TableRow:
    """One row of a results table, matched to a player of the game: its ``where`` (``FILE:LINE``), the
    declared ``score`` and ``win`` (None: the table leaves it empty)."""

    where: str
    player: str
    score: int | None
    win: bool | None


@dataclass
class Folded:
    """What one pass over a game's history gives: the header, each player's points by source and their lines,
    and the declarations in line order."""

    header: Any
    points: dict[str, dict[str, int]] = field(default_factory=dict)
    lines: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    declared: list[Declared] = field(default_factory=list)


def fold(game: str, history: Iterable[Any]) -> Folded:
    """Fold ``history`` (a game's stored events, the header's first) of the game named ``game``."""
    rules = GAMES[game]
    score, steps = set(rules.measures.score), rules.measures.steps
    line_recorded, results = rules.events.line_recorded, rules.results
    events = iter(history)
    folded = Folded(next(events).event)
    sources: dict[int, str] = {}  # a line -> the source of its points
    voids: dict[int, int] = {}  # a correction's line -> the line it voids
    for event in events:
        if type(event) is line_recorded:
            recorded = event.event
            if type(recorded) is Correction:
                voids[event.line] = recorded.voids
            else:
                source = results.source(recorded)
                if source is not None:
                    sources[event.line] = source
        folded.declared.extend(results.declarations(event))
        step = steps.get(type(event))
        if step is None:
            continue
        change = step(event)
        if change.measure not in score or not change.delta:
            continue
        # A correction's change is the voided line's points going (or coming back): that line's source.
        source = sources.get(event.line) or sources.get(voids.get(event.line, 0)) or change.measure
        by_source = folded.points.setdefault(change.subject, {})
        by_source[source] = by_source.get(source, 0) + change.delta
        folded.lines.setdefault(change.subject, {}).setdefault(source, []).append(event.line)
    return folded


@dataclass(frozen=True)
class WhatIfScores:
    """The game decided again with the declared adjustments' lines void: each player's score, and the winner."""

    scores: dict[str, int]
    winner: str | None


def _ordered(counts: dict[str, int], order: tuple[str, ...]) -> dict[str, int]:
    rank = {name: i for i, name in enumerate(order)}
    return {name: counts[name] for name in sorted(counts, key=lambda n: (rank.get(n, len(rank)), n))}


@dataclass
class Declarations:
    """What is declared of one game, gathered: every declaration, the declared scores and winner, the adjustments."""

    listed: list[Declaration] = field(default_factory=list)
    scores: dict[str, int] = field(default_factory=dict)
    winner: str | None = None
    adjustments: dict[str, list[Adjustment]] = field(default_factory=dict)


def _from_log(declared: list[Declared], label: str) -> Declarations:
    """The log's declarations, in line order (a later one of a kind stands over an earlier)."""
    out = Declarations()
    for d in declared:
        value = d.player if d.kind == "winner" else d.value
        out.listed.append(Declaration(where=f"{label}:{d.line}", by=d.by, kind=d.kind, player=d.player, value=value,
                                      origin=d.origin or None))
        if d.kind == "winner":
            out.winner = d.player
        elif d.kind == "score":
            out.scores[d.player] = d.value
        else:
            out.adjustments.setdefault(d.player, []).append(Adjustment(
                line=d.line, origin=d.origin, declared=d.value, held=d.held, points=d.value - d.held,
                voids=list(d.voids), added=d.added))
    return out


def _from_table(out: Declarations, table: list[TableRow]) -> None:
    """A results table's rows added to ``out``: the archive's own word, its score and winner stand over the log's."""
    if any(row.win is not None for row in table):
        out.winner = next((row.player for row in table if row.win), None)
    for row in table:
        if row.score is not None:
            out.scores[row.player] = row.score
            out.listed.append(Declaration(where=row.where, by="results table", kind="score", player=row.player,
                                          value=row.score))
        if row.win is not None:
            out.listed.append(Declaration(where=row.where, by="results table", kind="win", player=row.player,
                                          value=row.win))


def _player(folded: Folded, declared: Declarations, player: str, faction: str | None, order: tuple[str, ...],
            what_if: WhatIfScores | None) -> PlayerReconciliation:
    sources = _ordered(folded.points.get(player, {}), order)
    computed = sum(sources.values())
    score = declared.scores.get(player)
    adjustments = declared.adjustments.get(player, [])
    added = sum(a.added for a in adjustments)  # no line holds them: counted as declared
    lines = folded.lines.get(player, {})
    return PlayerReconciliation(
        player=player, faction=faction, computed=computed, declared=score,
        difference=None if score is None else score - computed, sources=sources, adjustments=adjustments,
        with_adjustments=(what_if.scores.get(player, 0) if what_if else computed) + added,
        source_lines={source: sorted(set(lines[source])) for source in sources})


def reconciliation(folded: Folded, game: str, label: str, computed_winner: str | None,
                   what_if: WhatIfScores | None, table: list[TableRow] | None = None) -> Reconciliation:
    """The reconciliation of one game (``label`` names its log in ``declared_from``): what its history
    declares, and the rows of a results table (``table``) when one is given.

    ``what_if`` is the game decided again without the lines the adjustments void (None when there is none).
    """
    rules, header = GAMES[game], folded.header
    factions = dict(getattr(getattr(header, "setup", None), "factions", {}) or {})
    declared = _from_log(folded.declared, label)
    if table:
        _from_table(declared, table)
    # A player's faction as the game's other outputs name it: its side, as its statistics name it (a TI4 faction
    # by its printed name, whatever the header wrote).
    side = rules.statistics.side if rules.statistics is not None else lambda header, player: factions[player]
    players = [_player(folded, declared, p, side(header, p) if factions.get(p) else None, rules.results.order,
                       what_if) for p in header.players]
    winner = declared.winner
    winner_agrees = winner is None or winner == computed_winner
    then = what_if.winner if what_if else computed_winner
    return Reconciliation(
        game=header.id, rules=game, score=rules.measures.score_name, declared=bool(declared.listed),
        declared_from=declared.listed, computed_winner=computed_winner, declared_winner=winner,
        winner_agrees=winner_agrees, players=players, agrees=winner_agrees and not any(p.difference for p in players),
        winner_with_adjustments=then, declared_winner_wins_with_adjustments=None if winner is None else winner == then)
