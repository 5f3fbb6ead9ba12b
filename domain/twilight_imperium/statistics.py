"""What Twilight Imperium 4 counts across games (``gamelog stats``), and its document (docs/cli.md, "stats").

Every fact is read off an event the rules stored:

* ``revealed`` (objective, ``public``): a ``PublicRevealed`` (count 1; -1 undone);
* ``scored`` (objective, ``public`` or ``secret``): an ``ObjectiveMarked``, whose player scored it (-1: unscored);
* ``vp`` (its source): every ``VpChanged``, by the source of the line that moved it, as ``measures.source``
  classifies it for ``reconcile`` and the state (TI4-VP-SOURCE): a public objective's points are ``stage_1`` or
  ``stage_2`` (the card's stage), a secret's ``secrets``; a point by its origin (``custodians``, ``imperial``,
  ``support_for_the_throne``, ``relics``, ``agendas``, ``manual``: the app's manual update); a ``vp_gained`` or
  ``vp_lost`` line by the words its ``source`` begins with ("Custodians token" is ``custodians``); anything else
  ``other``; a correction's change, the source of the line it voids (``corrections`` when that line scored none);
* ``picked`` (strategy card, its position in the round's picks) and ``picked_round`` (strategy card, the round): a
  ``strategy_card_picked`` line; ``imperial_round`` (the round): an Imperial point's ``VpChanged``.

A faction's win counts only from the game's own end (the ``GameWon`` the VP goal or LRR 34.15 stored); a game
without one is unfinished, and no one's win.
"""

from __future__ import annotations

from typing import Any, Iterable

from msgspec import UNSET, UnsetType

from gamelog.domain.events import CORRECTION_RULE, Correction
from gamelog.domain.replay_document import Document, StreamedRows
from gamelog.domain.statistics import (PlayTime, Explained, Fact, Figures, Route, Statistics, StatsDocument, by_name,
                                      by_period, explainer, mean, named, rate, side_routes, spread)
from gamelog.domain.twilight_imperium import measures
from gamelog.domain.twilight_imperium.events import (ObjectiveMarked, ObjectiveScored, PublicRevealed, RoundStarted,
                                                     StrategyCardPicked, VpChanged, VpGained, VpLost, VpScored)

GAME = "twilight-imperium-4"

SOURCES = ("stage_1", "stage_2", "secrets", "custodians", "imperial", "support_for_the_throne", "relics", "agendas",
           "other", "manual", "corrections")
"""Where VP come from, in the order documents list them."""

_SOURCES = {measures.STAGE_1: "stage_1", measures.STAGE_2: "stage_2", measures.SECRETS: "secrets",
            measures.CUSTODIANS: "custodians", measures.IMPERIAL: "imperial", measures.SUPPORT: "support_for_the_throne",
            measures.RELICS: "relics", measures.AGENDAS: "agendas", measures.MANUAL: "manual"}
"""The one classification of a scoring line (``measures.source``, which ``reconcile`` and the state's VP by source
read too) -> the source's key here; any other (another public objective, an origin the rules do not list) is
``other``."""


# -- the facts ---------------------------------------------------------------------------


def _round_started(e: RoundStarted, memo: dict) -> Iterable[Fact]:
    memo["picks"] = 0  # the position of the next pick counts from the round's first
    memo["round"] = e.round
    return ()


def _picked(e: StrategyCardPicked, memo: dict) -> Iterable[Fact]:
    memo["picks"] = memo.get("picks", 0) + 1
    return (Fact(e.player, "picked", e.card, str(memo["picks"]), 1),
            Fact(e.player, "picked_round", e.card, str(memo.get("round", 0)), 1))


def _scoring_line(e: ObjectiveScored | VpScored | VpGained | VpLost, memo: dict) -> Iterable[Fact]:
    # The VP the line's rules move next (its VpChanged) come from the source the line names.
    memo["source"] = _SOURCES.get(measures.source(e) or "", "other")
    return ()


def _revealed(e: PublicRevealed, memo: dict) -> Iterable[Fact]:
    return (Fact("", "revealed", e.objective, "public", e.count),)


def _marked(e: ObjectiveMarked, memo: dict) -> Iterable[Fact]:
    return (Fact(e.player, "scored", e.objective, e.kind, e.count),)


def _correction(e: Correction, memo: dict) -> Iterable[Fact]:
    # A correction's change of VP is the voided line's points going (or coming back): that line's source, as
    # ``reconcile`` reads it; ``corrections`` when the voided line scored nothing.
    memo["source"] = memo.get("lines", {}).get(str(e.voids), "corrections")
    return ()


def _vp(e: VpChanged, memo: dict) -> Iterable[Fact]:
    source = memo.get("source", "other")
    if e.rule != CORRECTION_RULE:
        memo.setdefault("lines", {})[str(e.line)] = source  # what a later correction voiding the line takes back
    if source == "imperial":  # Imperial points are counted by round too
        return (Fact(e.player, "vp", source, "", e.delta),
                Fact(e.player, "imperial_round", source, str(memo.get("round", 0)), e.delta))
    return (Fact(e.player, "vp", source, "", e.delta),)


FACTS = {
    RoundStarted: _round_started,
    StrategyCardPicked: _picked,
    ObjectiveScored: _scoring_line,
    VpScored: _scoring_line,
    VpGained: _scoring_line,
    VpLost: _scoring_line,
    Correction: _correction,
    PublicRevealed: _revealed,
    ObjectiveMarked: _marked,
    VpChanged: _vp,
}


# -- the document --------------------------------------------------------------------------


class Faction(Document, kw_only=True):
    """A faction over the games it played: ``games``, ``wins`` (each from the game's own end), ``win_rate``,
    ``mean_vp`` (final VP), and the spread of its final VP."""

    faction: str
    games: int
    wins: int
    win_rate: float | None
    mean_vp: float | None
    vp_spread: float | None


class Player(Document, kw_only=True):
    """A player over the games they played, whatever their faction: ``games``, ``wins`` (each from the game's own
    end), ``win_rate``, ``mean_vp`` (final VP), and the ``factions`` they played, by name."""

    player: str
    games: int
    wins: int
    win_rate: float | None
    mean_vp: float | None
    factions: list[str]


class VpSource(Document, kw_only=True):
    """A faction's VP from one source: ``vp`` in all, over the ``games`` it played; ``mean_vp`` a game."""

    faction: str
    source: str
    vp: int
    games: int
    mean_vp: float | None


class Objective(Document, kw_only=True):
    """An objective: ``revealed`` (games it was public in; for a secret, games it was scored in), ``scored``
    (times), ``games`` the figures rest on, ``scorers_per_game``, ``mean_round`` of scoring."""

    objective: str
    kind: str
    revealed: int
    scored: int
    games: int
    scorers_per_game: float | None
    mean_round: float | None


class ObjectiveFaction(Document, kw_only=True):
    """How often a faction scored an objective: ``scored`` times over the ``games`` it played; ``rate`` a game."""

    objective: str
    faction: str
    scored: int
    games: int
    rate: float | None


class Round(Document, kw_only=True):
    """A faction's VP after a round: the mean and spread over the ``games`` that reached that round."""

    round: int
    faction: str
    mean_vp: float | None
    games: int
    spread: float | None


class Custodians(Document, kw_only=True):
    """Who took the Custodians token: ``taken`` (games), of which ``wins``; ``win_rate`` when taking it."""

    faction: str
    taken: int
    wins: int
    win_rate: float | None


class ImperialRound(Document, kw_only=True):
    """Imperial points scored in a round: ``points`` over the ``games`` in which any were."""

    round: int
    points: int
    games: int


class StrategyCard(Document, kw_only=True):
    """A strategy card: ``picks``, in ``games``; its ``mean_position`` in the round's picks; ``wins`` (picks by the
    game's winner) and ``win_rate`` when picked."""

    card: str
    picks: int
    games: int
    mean_position: float | None
    wins: int
    win_rate: float | None


class PickPosition(Document, kw_only=True):
    """How many times a card was the ``position``-th pick of a round."""

    card: str
    position: int
    picks: int


class CardRound(Document, kw_only=True):
    """How many times a card was picked in a round, over ``games``."""

    card: str
    round: int
    picks: int
    games: int


class RoundsPerGame(Document, kw_only=True):
    """How many ``games`` lasted ``rounds`` rounds."""

    rounds: int
    games: int


class Stats(StatsDocument, kw_only=True, tag_field="game", tag="twilight-imperium-4"):
    """``stats --format json`` for Twilight Imperium 4 (docs/cli.md): each list a table of ``--table NAME``."""

    games: int
    finished: int
    factions: list[Faction]
    players: list[Player]
    """Each player over the games chosen (``--player NAME`` keeps the games NAME played: the others' rows in them
    say who of them wins most)."""
    objectives: list[Objective]
    rounds: list[Round]
    vp_sources: list[VpSource]
    objective_factions: list[ObjectiveFaction]
    custodians: list[Custodians]
    imperial_points: int
    imperial_per_game: float | None
    imperial_rounds: list[ImperialRound]
    strategy_cards: list[StrategyCard]
    pick_positions: list[PickPosition]
    card_rounds: list[CardRound]
    rounds_per_game: list[RoundsPerGame]
    version: int = 1
    """The document's version: 1. Fields are added within a version; a change that is not an addition raises it."""
    mean_game_seconds: int | None | UnsetType = UNSET
    """The games' mean length in seconds, from their lines' ``at`` (null: no game's lines have it: not recorded)."""
    time_per_player: list[PlayTime] | UnsetType = UNSET
    """Each player's time (their turns') over the games whose lines have ``at``."""




def document(figures: Figures) -> Stats:
    """The figures of the games ``figures`` reads, as :class:`Stats`."""
    games, finished = figures.count()
    sides = {row.side: row for row in figures.sides()}
    factions = [Faction(faction=s.side, games=s.games, wins=s.wins, win_rate=rate(s.wins, s.games),
                        mean_vp=mean(s.score, s.games), vp_spread=spread(s.score, s.squares, s.games))
                for s in sorted(sides.values(), key=lambda s: by_name(s.side))]
    by_player: dict[str, list] = {}
    for row in figures.players():
        total = by_player.setdefault(row.player, [0, 0, 0, set()])  # games, wins, final VP, factions
        total[0] += row.games
        total[1] += row.wins
        total[2] += row.score
        if row.side != row.player:  # a player of no faction is their own side: no faction played
            total[3].add(row.side)
    players = [Player(player=name, games=t[0], wins=t[1], win_rate=rate(t[1], t[0]), mean_vp=mean(t[2], t[0]),
                      factions=sorted(t[3], key=by_name))
               for name, t in sorted(by_player.items(), key=lambda item: by_name(item[0]))]
    rounds = StreamedRows(lambda: (Round(round=p.period, faction=p.side, mean_vp=mean(p.score, p.games),
                                         games=p.games, spread=spread(p.score, p.squares, p.games))
                                   for p in by_period(figures.periods())))

    vp = figures.tallies("vp", True)
    vp_sources = [VpSource(faction=t.side, source=t.name, vp=t.amount, games=sides[t.side].games,
                           mean_vp=mean(t.amount, sides[t.side].games))
                  for t in sorted(vp, key=lambda t: (by_name(t.side), SOURCES.index(t.name) if t.name in SOURCES else 99))
                  if t.side in sides]

    revealed = {t.name: t for t in figures.tallies("revealed", False)}
    scored = sorted(figures.tallies("scored", False), key=lambda t: (t.detail != "public", by_name(t.name)))
    objectives = []
    for t in scored:
        shown = revealed[t.name].games if t.detail == "public" and t.name in revealed else t.games
        objectives.append(Objective(objective=t.name, kind=t.detail, revealed=shown, scored=t.amount, games=shown,
                                    scorers_per_game=mean(t.amount, shown), mean_round=mean(t.periods, t.amount)))
    never = sorted((t for n, t in revealed.items() if n not in {s.name for s in scored}), key=lambda t: by_name(t.name))
    objectives += [Objective(objective=t.name, kind="public", revealed=t.games, scored=0, games=t.games,
                             scorers_per_game=0.0 if t.games else None, mean_round=None) for t in never]
    objective_factions = [ObjectiveFaction(objective=t.name, faction=t.side, scored=t.amount,
                                           games=sides[t.side].games, rate=rate(t.amount, sides[t.side].games))
                          for t in sorted(figures.tallies("scored", True), key=lambda t: (by_name(t.name), by_name(t.side)))
                          if t.side in sides]

    custodians = [Custodians(faction=t.side, taken=t.games, wins=t.won, win_rate=rate(t.won, t.games))
                  for t in sorted(vp, key=lambda t: by_name(t.side)) if t.name == "custodians" and t.amount > 0]
    imperial_rounds = [ImperialRound(round=int(t.detail), points=t.amount, games=t.games)
                       for t in sorted(figures.tallies("imperial_round", False), key=lambda t: int(t.detail))]
    imperial_points = sum(t.amount for t in vp if t.name == "imperial")

    picks = figures.tallies("picked", False)
    cards: dict[str, list[int]] = {}
    for t in picks:
        card = cards.setdefault(t.name, [0, 0, 0])  # picks, the sum of their positions, picks by the winner
        card[0] += t.amount
        card[1] += t.amount * int(t.detail)
        card[2] += t.won
    card_games = {name: n for name, n in figures.games_with("picked")}
    strategy_cards = [StrategyCard(card=name, picks=c[0], games=card_games.get(name, 0),
                                   mean_position=mean(c[1], c[0]), wins=c[2], win_rate=rate(c[2], c[0]))
                      for name, c in sorted(cards.items(), key=lambda item: by_name(item[0]))]
    pick_positions = [PickPosition(card=t.name, position=int(t.detail), picks=t.amount)
                      for t in sorted(picks, key=lambda t: (by_name(t.name), int(t.detail)))]
    card_rounds = [CardRound(card=t.name, round=int(t.detail), picks=t.amount, games=t.games)
                   for t in sorted(figures.tallies("picked_round", False), key=lambda t: (by_name(t.name), int(t.detail)))]
    return Stats(games=games, finished=finished, factions=factions, players=players, objectives=objectives,
                 rounds=rounds, vp_sources=vp_sources, objective_factions=objective_factions, custodians=custodians,
                 imperial_points=imperial_points, imperial_per_game=mean(imperial_points, games),
                 imperial_rounds=imperial_rounds, strategy_cards=strategy_cards, pick_positions=pick_positions,
                 card_rounds=card_rounds,
                 rounds_per_game=[RoundsPerGame(rounds=n, games=g) for n, g in sorted(figures.period_counts())])


# -- --explain ---------------------------------------------------------------------------

def _tallied(figures: Figures, fact: str, given: str, what: str) -> list[Explained]:
    """The lines of fact ``fact`` of the name ``given`` (in any case) among those the games chosen tally."""
    return figures.fact_lines(fact, named([t.name for t in figures.tallies(fact, False)], given, what), None, None)


ROUTES: dict[str, Route] = {
    **side_routes("factions", "FACTION", "mean_vp", "rounds", "ROUND"),
    "objectives/OBJECTIVE/scored": lambda figures, objective: _tallied(figures, "scored", objective, "objective"),
    "objectives/OBJECTIVE/revealed": lambda figures, objective: _tallied(figures, "revealed", objective, "objective"),
    "vp_sources/FACTION/SOURCE":
        lambda figures, faction, source: figures.fact_lines("vp", named(list(SOURCES), source, "source"), None,
                                                            faction),
    "custodians/FACTION/taken": lambda figures, faction: figures.fact_lines("vp", "custodians", None, faction),
    "strategy_cards/CARD/picks": lambda figures, card: _tallied(figures, "picked", card, "strategy card"),
    "imperial_points": lambda figures: figures.fact_lines("vp", "imperial", None, None),
}
"""The figures ``--explain`` opens (upper case: a name to give, in any case) and the lines behind each."""

FIGURES = tuple(ROUTES)


WORDS = {
    "vp_sources": "VP by source", "objective_factions": "objectives by faction", "custodians": "the Custodians token",
    "imperial_points": "Imperial points", "imperial_per_game": "Imperial points a game",
    "imperial_rounds": "Imperial points by round", "pick_positions": "strategy cards by pick position",
    "card_rounds": "strategy cards by round", "rounds_per_game": "rounds a game", "scorers_per_game": "scorers a game",
    "rate": "scored in (of its games)", "mean_position": "mean pick position", "taken": "games taken",
}
"""The human formats' words for the names of the document's tables, columns and figures, where the name with
spaces for its underscores would not do."""


def faction_of(header: Any, player: str) -> str:
    """A player's faction as every output names it (``Header.faction_name``: "letnev", "Barony of Letnev" and "The
    Barony of Letnev" are one faction, "Barony of Letnev"), the player's name without one."""
    return header.faction_name(player) or player


STATISTICS = Statistics(
    facts=FACTS,
    document=document,
    explain=explainer(ROUTES),
    side=faction_of,
    side_name="faction",
    expansions=lambda header: tuple(header.setup.expansions),
    figures=FIGURES,
    charts=(("bars", "factions", "faction", "win_rate", "games"),
            ("lines", "rounds", "faction", "mean_vp", "round"),
            ("heat", "pick_positions", "card", "picks", "position")),
    words=WORDS,
    values={"source": {key: words for words, key in _SOURCES.items()} | {"other": measures.OTHER}},
    percentages=("win_rate", "rate"),
    links=(("factions", "wins", "factions/{faction}/wins"), ("factions", "mean_vp", "factions/{faction}/mean_vp"),
           ("rounds", "mean_vp", "rounds/{round}/{faction}/mean_vp"),
           ("objectives", "scored", "objectives/{objective}/scored"),
           ("objectives", "revealed", "objectives/{objective}/revealed"),
           ("vp_sources", "vp", "vp_sources/{faction}/{source}"), ("custodians", "taken", "custodians/{faction}/taken"),
           ("strategy_cards", "picks", "strategy_cards/{card}/picks"), ("summary", "imperial_points", "imperial_points")),
)
