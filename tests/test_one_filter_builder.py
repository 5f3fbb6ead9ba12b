"""One builder of the SQL that chooses games by their bucket (issue 32, section 8): the games' query and the sums
across games' read the same conditions, each on its own table's columns."""

from __future__ import annotations

from gamelog.projections.reports.statistics import (GAME_COLUMNS, SUM_COLUMNS, Filters, bucket_conditions, chosen)

EVERY = Filters(players=4, goal=10, expansion="POK", since="2025-01-01", until="2025-12-31", clean=True)


def test_the_sums_are_chosen_by_their_own_columns():
    assert bucket_conditions("twilight-imperium-4", EVERY, SUM_COLUMNS) == (
        ["kind = ?", "players = ?", "goal = ?", "expansions LIKE ?", "day <> '' AND day >= ?",
         "day <> '' AND day <= ?", "clean = 1"],
        ["twilight-imperium-4", 4, 10, "%,pok,%", "2025-01-01", "2025-12-31"])


def test_the_games_are_chosen_by_the_same_conditions_on_theirs():
    where, params = bucket_conditions("twilight-imperium-4", EVERY, GAME_COLUMNS)
    assert where[:6] == ["g.kind = ?", "g.players = ?", "g.goal = ?", "g.expansions LIKE ?",
                         "g.at <> '' AND SUBSTR(g.at, 1, 10) >= ?", "g.at <> '' AND SUBSTR(g.at, 1, 10) <= ?"]
    assert where[6].startswith("NOT EXISTS (SELECT 1 FROM view_findings f WHERE f.game = g.game")
    assert params == ["twilight-imperium-4", 4, 10, "%,pok,%", "2025-01-01", "2025-12-31"]


def test_no_filter_is_the_kind_alone_and_the_per_game_ones_follow_the_bucket():
    assert bucket_conditions("uchronia", Filters(), SUM_COLUMNS) == (["kind = ?"], ["uchronia"])
    sql, params = chosen("uchronia", Filters(goal=12, player="Ann", ids=("a", "b")))
    assert sql == ("SELECT g.game FROM view_stat_games g WHERE g.kind = ? AND g.goal = ? AND g.game IN (?, ?) AND "
                   "g.game IN (SELECT s.game FROM view_stat_seats s WHERE LOWER(s.player) = ?)")
    assert params == ("uchronia", 12, "a", "b", "ann")
