"""One router of ``stats --explain`` (issue 32, section 8): every game declares its figures' patterns and the lines
behind each (``ROUTES``); ``domain.statistics.explainer`` matches a figure to its pattern and resolves its names."""

from __future__ import annotations

import pytest

from gamelog.domain.games import GAMES
from gamelog.domain.statistics import Explained, SideRow, explainer


class Sides:
    """Figures of two sides, whose lines say what was asked of them."""

    def sides(self) -> list[SideRow]:
        return [SideRow("Federation of Sol", 2, 1, 20, 200), SideRow("Arborec", 1, 0, 7, 49)]

    def win_lines(self, side: str) -> list[Explained]:
        return [Explained("g1", 9, f"{side} won", 1)]

    def score_lines(self, side: str, period: int | None) -> list[Explained]:
        return [Explained("g1", period or 0, f"{side} scored", 1)]


ROUTES = {
    "factions/FACTION/wins": lambda figures, faction: figures.win_lines(faction),
    "rounds/ROUND/FACTION/mean_vp": lambda figures, round_, faction: figures.score_lines(faction, round_),
    "objectives/OBJECTIVE/scored": lambda figures, objective: [Explained("g2", 1, objective, 1)],
    "imperial_points": lambda figures: [],
}
explain = explainer(ROUTES)


def test_a_side_is_named_in_any_case_and_a_period_is_a_number():
    assert explain(Sides(), "factions/federation of sol/wins") == [Explained("g1", 9, "Federation of Sol won", 1)]
    assert explain(Sides(), "rounds/3/ARBOREC/mean_vp") == [Explained("g1", 3, "Arborec scored", 1)]
    assert explain(Sides(), "objectives/Corner the Market/scored") == [Explained("g2", 1, "Corner the Market", 1)]
    assert explain(Sides(), "imperial_points") == []


@pytest.mark.parametrize("figure", ["factions/Arborec/losses", "rounds/three/Arborec/mean_vp", "factions/Arborec",
                                    "imperial_points/2"])
def test_a_figure_no_pattern_takes_names_every_pattern(figure):
    with pytest.raises(KeyError) as raised:
        explain(Sides(), figure)
    assert raised.value.args[0] == (f"no figure {figure!r}: --explain takes factions/FACTION/wins, "
                                    "rounds/ROUND/FACTION/mean_vp, objectives/OBJECTIVE/scored, imperial_points")


def test_a_side_the_games_do_not_have_is_said_so():
    with pytest.raises(KeyError, match="no faction 'Sardakk' in the games chosen"):
        explain(Sides(), "factions/Sardakk/wins")


@pytest.mark.parametrize("game", ["merchant-of-venus", "twilight-imperium-4", "uchronia"])
def test_every_game_explains_through_the_one_router(game):
    statistics = GAMES[game].statistics
    assert statistics.explain.__qualname__ == "explainer.<locals>.explain"
    module = __import__(GAMES.package(game) + ".statistics", fromlist=["ROUTES"])
    assert statistics.figures == tuple(module.ROUTES)
    with pytest.raises(KeyError, match="--explain takes " + ", ".join(statistics.figures)):
        statistics.explain(Sides(), "no/such/figure")
