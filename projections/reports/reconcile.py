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


def reconciliation(folded: Folded, game: str, label: str, computed_winner: str | None,
                   what_if: WhatIfScores | None, table: list[TableRow] | None = None) -> Reconciliation:
    """The reconciliation of one game (``label`` names its log in ``declared_from``): what its history
    declares, and the rows of a results table (``table``) when one is given.

    ``what_if`` is the game decided again without the lines the adjustments void (None when there is none).
    """
    rules = GAMES[game]
    header = folded.header
    players = list(header.players)
    factions = dict(getattr(getattr(header, "setup", None), "factions", {}) or {})
    declared_from: list[Declaration] = []
    scores: dict[str, int] = {}
    winner: str | None = None
    adjustments: dict[str, list[Adjustment]] = {}
    for d in folded.declared:
        where = f"{label}:{d.line}"
        if d.kind == "winner":
            winner = d.player
            declared_from.append(Declaration(where=where, by=d.by, kind="winner", player=d.player, value=d.player))
        elif d.kind == "score":
            scores[d.player] = d.value
            declared_from.append(Declaration(where=where, by=d.by, kind="score", player=d.player, value=d.value))
        else:
            declared_from.append(Declaration(where=where, by=d.by, kind="adjustment", player=d.player, value=d.value,
                                             origin=d.origin))
            adjustments.setdefault(d.player, []).append(Adjustment(
                line=d.line, origin=d.origin, declared=d.value, held=d.held, points=d.value - d.held,
                voids=list(d.voids), added=d.added))
    if table:
        # A results table is the archive's own word: its score and its winner stand over the log's declarations.
        table_winners = [row.player for row in table if row.win]
        if any(row.win is not None for row in table):
            winner = table_winners[0] if table_winners else None
        for row in table:
            if row.score is not None:
                scores[row.player] = row.score
                declared_from.append(Declaration(where=row.where, by="results table", kind="score", player=row.player,
                                                 value=row.score))
            if row.win is not None:
                declared_from.append(Declaration(where=row.where, by="results table", kind="win", player=row.player,
                                                 value=row.win))
    entries = []
    for player in players:
        sources = _ordered(folded.points.get(player, {}), rules.results.order)
        computed = sum(sources.values())
        declared = scores.get(player)
        added = sum(a.added for a in adjustments.get(player, []))
        with_adjustments = (what_if.scores.get(player, 0) if what_if else computed) + added
        lines = folded.lines.get(player, {})
        entries.append(PlayerReconciliation(
            player=player, faction=factions.get(player), computed=computed, declared=declared,
            difference=None if declared is None else declared - computed, sources=sources,
            adjustments=adjustments.get(player, []), with_adjustments=with_adjustments,
            source_lines={source: sorted(set(lines[source])) for source in sources}))
    any_declared = bool(declared_from)
    winner_with_adjustments = what_if.winner if what_if else computed_winner
    agrees = (winner is None or winner == computed_winner) and all(not p.difference for p in entries)
    return Reconciliation(
        game=header.id, rules=game, score=rules.measures.score_name, declared=any_declared,
        declared_from=declared_from, computed_winner=computed_winner, declared_winner=winner,
        winner_agrees=winner is None or winner == computed_winner, players=entries, agrees=agrees,
        winner_with_adjustments=winner_with_adjustments,
        declared_winner_wins_with_adjustments=None if winner is None else winner == winner_with_adjustments)
