"""What Merchant of Venus counts across games (``gamelog stats``), and its document (docs/cli.md, "stats").

Every fact is read off an event the rules stored:

* ``turn``: a ``turn_started`` line, its player's;
* ``income`` (by source) and ``spending`` (by kind): every ``CreditsChanged``, by the rule that moved it:
  ``sales`` (MOV-SELL), ``commissions`` (MOV-COMMISSION), ``fares`` (MOV-PASSENGER), ``bonuses`` (credits
  received, MOV-PAY: the Bonus Cup's and other players' payments); ``purchases`` (MOV-BUY), ``hazards``
  (MOV-HAZARD), ``payments`` (MOV-PAY: deeds, debts); a correction's are ``corrections``, the starting
  credits ``starting``.

A player's net worth (credits and deeds, MOV-NET-WORTH) after each turn is the views' score after it.
Turns to the goal are the turns a winner took in the games they won (MOV-WIN ended them).
"""

from __future__ import annotations

from typing import Iterable

from msgspec import UNSET, UnsetType

from gamelog.domain.events import CORRECTION_RULE, TurnStarted
from gamelog.domain.merchant_of_venus.events import CreditsChanged
from gamelog.domain.replay_document import Document, StreamedRows
from gamelog.domain.statistics import (PlayTime, Fact, Figures, Route, Statistics, StatsDocument, by_name, by_period,
                                      explainer, mean, named, rate, side_routes, spread)

_INCOME = {"MOV-SELL": "sales", "MOV-COMMISSION": "commissions", "MOV-PASSENGER": "fares", "MOV-PAY": "bonuses"}
_SPENDING = {"MOV-BUY": "purchases", "MOV-HAZARD": "hazards", "MOV-PAY": "payments"}
INCOME = ("sales", "commissions", "fares", "bonuses", "corrections", "starting")
SPENDING = ("purchases", "hazards", "payments", "corrections")


def _turn(e: TurnStarted, memo: dict) -> Iterable[Fact]:
    return (Fact(e.player, "turn", "", "", 1),)


def _credits(e: CreditsChanged, memo: dict) -> Iterable[Fact]:
    if e.rule == "setup":
        return (Fact(e.player, "income", "starting", "", e.delta),)
    if e.rule == CORRECTION_RULE:
        return (Fact(e.player, "income" if e.delta > 0 else "spending", "corrections", "", abs(e.delta)),)
    if e.delta > 0:
        return (Fact(e.player, "income", _INCOME.get(e.rule, "bonuses"), "", e.delta),)
    return (Fact(e.player, "spending", _SPENDING.get(e.rule, "payments"), "", -e.delta),)


FACTS = {TurnStarted: _turn, CreditsChanged: _credits}


class Player(Document, kw_only=True):
    """A player over the ``games`` they played: ``wins`` (each from the game's own end), ``win_rate``, the mean
    and spread of their final net worth, ``turns`` taken, and ``turns_to_goal``: mean turns in the games won."""

    player: str
    games: int
    wins: int
    win_rate: float | None
    mean_net_worth: float | None
    net_worth_spread: float | None
    turns: int
    turns_to_goal: float | None


class Turn(Document, kw_only=True):
    """A player's net worth after a turn of the game (all players' turns counted): mean and spread over ``games``."""

    turn: int
    player: str
    mean_net_worth: float | None
    games: int
    spread: float | None


class Money(Document, kw_only=True):
    """Credits a player gained from a source (``flow`` ``income``) or spent on a kind (``spending``), over ``games``."""

    player: str
    flow: str
    kind: str
    credits: int
    games: int
    mean_credits: float | None


class Share(Document, kw_only=True):
    """What part of a player's income (starting credits left out) came from commissions, over ``games``."""

    player: str
    commissions: int
    income: int
    share: float | None
    games: int


class Stats(StatsDocument, kw_only=True, tag_field="game", tag="merchant-of-venus"):
    """``stats --format json`` for Merchant of Venus (docs/cli.md): each list a table of ``--table NAME``."""

    games: int
    finished: int
    players: list[Player]
    turns: list[Turn]
    money: list[Money]
    commission_shares: list[Share]
    turns_to_goal: float | None
    version: int = 1
    """The document's version: 1. Fields are added within a version; a change that is not an addition raises it."""
    mean_game_seconds: int | None | UnsetType = UNSET
    """The games' mean length in seconds, from their lines' ``at`` (null: no game's lines have it: not recorded)."""
    time_per_player: list[PlayTime] | UnsetType = UNSET
    """Each player's time (their turns') over the games whose lines have ``at``."""




def document(figures: Figures) -> Stats:
    """The figures of the games ``figures`` reads, as :class:`Stats`."""
    games, finished = figures.count()
    sides = {s.side: s for s in figures.sides()}
    turns = {t.side: t for t in figures.tallies("turn", True)}
    players = []
    for s in sorted(sides.values(), key=lambda s: by_name(s.side)):
        taken = turns.get(s.side)
        players.append(Player(player=s.side, games=s.games, wins=s.wins, win_rate=rate(s.wins, s.games),
                              mean_net_worth=mean(s.score, s.games), net_worth_spread=spread(s.score, s.squares, s.games),
                              turns=taken.amount if taken else 0,
                              turns_to_goal=mean(taken.won, s.wins) if taken else None))
    money = []
    income: dict[str, int] = {}
    commissions: dict[str, int] = {}
    for flow, kinds in (("income", INCOME), ("spending", SPENDING)):
        for t in sorted(figures.tallies(flow, True), key=lambda t: (by_name(t.side), kinds.index(t.name) if t.name in kinds else 99)):
            if t.side not in sides:
                continue
            money.append(Money(player=t.side, flow=flow, kind=t.name, credits=t.amount, games=sides[t.side].games,
                               mean_credits=mean(t.amount, sides[t.side].games)))
            if flow == "income" and t.name not in ("starting", "corrections"):
                income[t.side] = income.get(t.side, 0) + t.amount
                if t.name == "commissions":
                    commissions[t.side] = t.amount
    shares = [Share(player=p, commissions=commissions.get(p, 0), income=income.get(p, 0),
                    share=rate(commissions.get(p, 0), income.get(p, 0)), games=sides[p].games)
              for p in sorted(sides, key=by_name)]
    # A row a player and turn: read as it is written (StreamedRows), not held.
    periods = StreamedRows(lambda: (Turn(turn=p.period, player=p.side, mean_net_worth=mean(p.score, p.games),
                                         games=p.games, spread=spread(p.score, p.squares, p.games))
                                    for p in by_period(figures.periods())))
    won_turns = sum(t.won for t in turns.values())
    wins = sum(s.wins for s in sides.values())
    return Stats(games=games, finished=finished, players=players, turns=periods, money=money,
                 commission_shares=shares, turns_to_goal=mean(won_turns, wins))


ROUTES: dict[str, Route] = {
    **side_routes("players", "PLAYER", "mean_net_worth", "turns", "TURN"),
    "players/PLAYER/turns": lambda figures, player: figures.fact_lines("turn", None, None, player),
    "money/PLAYER/income/KIND":
        lambda figures, player, kind: figures.fact_lines("income", named(list(INCOME), kind, "income"), None, player),
    "money/PLAYER/spending/KIND":
        lambda figures, player, kind: figures.fact_lines("spending", named(list(SPENDING), kind, "spending"), None,
                                                         player),
}
"""The figures ``--explain`` opens (upper case: a name to give, in any case) and the lines behind each."""

FIGURES = tuple(ROUTES)


STATISTICS = Statistics(
    facts=FACTS,
    document=document,
    explain=explainer(ROUTES),
    figures=FIGURES,
    charts=(("bars", "players", "player", "win_rate", "games"),
            ("lines", "turns", "player", "mean_net_worth", "turn"),
            ("heat", "money", "player", "credits", "kind")),
    percentages=("win_rate", "share"),
    links=(("players", "wins", "players/{player}/wins"), ("players", "mean_net_worth", "players/{player}/mean_net_worth"),
           ("players", "turns", "players/{player}/turns"),
           ("turns", "mean_net_worth", "turns/{turn}/{player}/mean_net_worth"),
           ("money", "credits", "money/{player}/{flow}/{kind}")),
)
