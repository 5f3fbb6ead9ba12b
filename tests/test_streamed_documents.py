"""Documents whose long lists are written as their rows are read (issue 24: ``stats`` and ``audit --without`` of a
long game in bounded memory): the text is the text of the same document held whole, byte for byte."""

from __future__ import annotations

import io
import json

import pytest

import gamelog
from gamelog.auditing import what_if, what_if_output
from gamelog.domain.merchant_of_venus.statistics import Stats, Turn
from gamelog.domain.replay_document import StreamedRows, held
from gamelog.domain.statistics import PeriodRow, by_period
from gamelog.projections.reports.documents import (Finding, Result, Results, StandingsChange, WhatIf, encode,
                                                   encode_pieces)
from gamelog.projections.reports.redaction import Redaction
from gamelog.stats import Filters, stats, stats_output, stats_pieces
from tests.benchmarks.generate import write_log
from tests.conftest import EXAMPLES


@pytest.fixture(scope="module")
def long_games(tmp_path_factory):
    """A store of two generated Merchant of Venus games (a few hundred turns: a row a player and turn), the
    disputed example, which the generated ones outlast, and a Twilight Imperium game (secrets, for a player's
    view)."""
    store = str(tmp_path_factory.mktemp("streamed") / "s.sqlite")
    with gamelog.open_store(store) as opened:
        for game_id, events in (("long-a", 3000), ("long-b", 2000)):
            log = io.BytesIO()
            write_log(log, events, game_id=game_id, findings=True)
            log.seek(0)
            opened.import_log(log, name=game_id)
        opened.import_log(str(EXAMPLES / "merchant-of-venus" / "disputed.jsonl"))
        opened.import_log(str(EXAMPLES / "twilight-imperium-4" / "disputed.jsonl"))
    return store


@pytest.mark.parametrize("fmt", ["text", "json", "markdown", "csv"])
@pytest.mark.parametrize("arguments, filters", [
    ((), Filters()),  # the sums across games
    (("long-a",), Filters()),  # one game: the sums less the others
    (("long-a", "long-b", "disputed"), Filters()),  # every game named
    ((), Filters(player="Ann")),  # disputed alone: read game by game
    ((), Filters(player="nobody")),  # no game: every list empty
])
def test_stats_written_as_read_are_the_held_document_s_text(long_games, fmt, arguments, filters):
    """``stats_output`` (the views open, the per-turn rows read as they are written) writes what the held document
    (``stats``, every list a list) writes, in every format."""
    with stats_output(long_games, arguments, fmt, filters=filters, game="merchant-of-venus") as pieces:
        streamed = "".join(pieces)
    whole = "".join(stats_pieces(stats(long_games, arguments, filters=filters, game="merchant-of-venus"), fmt))
    assert streamed == whole
    if fmt == "json" and filters.player is None:
        document = json.loads(streamed)
        # 4 players a turn from turn 1 on, and turns counted in order: the generated games last hundreds of turns.
        assert len(document["turns"]) > 400 and document["turns"][0]["turn"] == 1
        assert [t["turn"] for t in document["turns"]] == sorted(t["turn"] for t in document["turns"])


def _stats(turns: list[Turn]) -> Stats:
    return Stats(games=1, finished=0, players=[], turns=StreamedRows(lambda: iter(turns)), money=[],
                 commission_shares=[], turns_to_goal=None)


@pytest.mark.parametrize("count", [0, 1, 3])
def test_a_document_s_streamed_list_encodes_as_the_list_would(count):
    """``encode_pieces`` lays a streamed list out as ``msgspec.json.format`` lays out the list: ``[]`` when empty,
    one row an object indented two levels, the document's other fields around it."""
    turns = [Turn(turn=n, player=f"P{n}", mean_net_worth=500.5 + n, games=1, spread=None) for n in range(count)]
    document = _stats(turns)
    assert "".join(encode_pieces(document, indent=1)) == encode(held(document), indent=1)
    assert "".join(encode_pieces(document)) == encode(held(document))  # on one line: held, then written
    expected = '"turns": []' if not count else '"turns": [\n  {\n   "turn": 0,\n   "player": "P0",'
    assert expected in "".join(encode_pieces(document, indent=1))


def test_a_what_if_s_three_streamed_lists_encode_as_the_lists_would():
    gone = [Finding(line=3, rule="MOV-BUY", severity="warning", player="Ann", message="c11")]
    changes = [StandingsChange(turn=n, actual={"Ann": {"net_worth": n}}, what_if=None) for n in (2, 5)]
    document = WhatIf(game="merchant-of-venus", id="g", without=[3], score="net_worth",
                      findings_gone=StreamedRows(lambda: iter(gone)), findings_new=StreamedRows(lambda: iter([])),
                      standings=StreamedRows(lambda: iter(changes)), result=_results(), winner_changes=False)
    assert "".join(encode_pieces(document, indent=1)) == encode(held(document), indent=1)


def _results() -> Results:
    result = Result(finished=False, winner=None, line=None, rule=None, reason=None)
    return Results(actual=result, what_if=result)


def test_periods_in_order_come_by_side_within_each_and_out_of_order_is_an_error():
    rows = [PeriodRow(1, "bob", 1, 5, 25), PeriodRow(1, "Ann", 1, 7, 49), PeriodRow(2, "Cy", 1, 1, 1),
            PeriodRow(2, "ann", 1, 2, 4)]
    assert [(r.period, r.side) for r in by_period(rows)] == [(1, "Ann"), (1, "bob"), (2, "ann"), (2, "Cy")]
    with pytest.raises(ValueError, match="period 1 read after period 2"):
        list(by_period([PeriodRow(2, "Ann", 1, 1, 1), PeriodRow(1, "Ann", 1, 1, 1)]))


def test_a_player_s_view_hides_names_in_rows_read_as_they_are_written():
    rows = [Finding(line=4, rule="TI4-X", severity="warning", player="Ann", message="scored Become the Gatekeeper")]
    document = WhatIf(game="twilight-imperium-4", id="g", without=[4], score="vp",
                      findings_gone=StreamedRows(lambda: iter(rows)), findings_new=[], standings=[],
                      result=_results(), winner_changes=False)
    seen = held(Redaction({"Become the Gatekeeper"})(document))
    assert seen.findings_gone[0].message == "scored [hidden]" and rows[0].message == "scored Become the Gatekeeper"


@pytest.mark.parametrize("fmt", ["text", "json", "markdown"])
@pytest.mark.parametrize("game, without, as_player", [
    ("long-a", [1500], None),  # a purchase gone: the standings of every later turn differ
    ("long-a", [1500, 1501], None),
    ("ti4-disputed", [3], None),
    ("ti4-disputed", [3, 20], "Ann"),  # Ann's view: the others' secret objectives hidden, in every row
])
def test_a_what_if_written_as_read_is_the_held_document_s_text(long_games, fmt, game, without, as_player):
    """``what_if_output`` (the standings and findings read from the comparison's scratch tables as they are
    written) writes what ``what_if`` (the document held whole) gives, and the same violations."""
    with what_if_output(game, long_games, without, fmt=fmt, as_player=as_player) as written:
        streamed, violations = "".join(written.pieces), written.violations
    answer = what_if(game, long_games, without, fmt=fmt, as_player=as_player)
    assert (streamed, violations) == (answer.text, answer.violations)
    if game == "long-a" and fmt == "json":
        assert len(json.loads(streamed)["standings"]) == len(answer.document.standings) > 100
