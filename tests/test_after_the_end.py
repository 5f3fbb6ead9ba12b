"""After the end of the game, in every game (issue 12 item 9).

``score_claimed``, ``note`` and ``correction`` after the end are not moves: they break no end-of-game
rule (MOV-WIN, TI4-VP-GOAL, UCH-THRESHOLD, the rule an Uchronia line after the end breaks), and a
``winner_declared`` is the table's announcement, allowed there in Uchronia and Twilight Imperium. A
wrong claim after the end is still a CLAIM, and a move after the end breaks the game's end rule. The
shared engine decides this (``Engine.AFTER_END``); each game is tried here on a small log.
"""

from __future__ import annotations

import pytest

from gamelog.domain.replay import run
from tests.conftest import log_bytes


def E(type_: str, **fields) -> dict:
    return {"type": type_, **fields}


class Game:
    """A small log of one game that ends at ``end_line``, and what may and may not follow it."""

    def __init__(self, header: dict, events: list[dict], end_line: int, winner: str, score: str, value: int,
                 end_rule: str, move: dict, after: list[dict] = ()):
        self.header, self.events, self.end_line = header, events, end_line
        self.winner, self.score, self.value, self.end_rule, self.move = winner, score, value, end_rule, move
        self.after = list(after)
        # The note inside the game, which a correction after the end voids (it changes nothing else).
        self.note_line = 2 + next(i for i, e in enumerate(events) if e["type"] == "note")

    def run(self, *more: dict):
        outcome = run(log_bytes(self.header, *self.events, *more))
        assert outcome.errors == []
        return outcome


# Merchant of Venus: Ann starts with c2000 (the goal): at the end of her first turn (line 4) she wins.
MOV = Game(
    {"game": "merchant-of-venus", "id": "end", "players": ["Ann", "Bob"], "setup": {"starting_credits": 2000}},
    [E("turn_started", player="Ann"), E("note", text="Ann counts her credits"), E("turn_ended", player="Ann")],
    end_line=4, winner="Ann", score="net_worth", value=2000, end_rule="MOV-WIN",
    move=E("turn_started", player="Bob"),
)

# Uchronia: the threshold is 1 and Ann holds the Last Turn card; her wood monopoly (1 VP) reaches it,
# and the game ends after her turn (line 5).
UCH = Game(
    {"game": "uchronia", "id": "end", "players": ["Ann", "Bob"], "setup": {"threshold": 1, "last_turn_card": "Ann"}},
    [E("turn_started", player="Ann"), E("note", text="Ann plays a Trade order"),
     E("monopoly_changed", color="wood", player="Ann", operations=1), E("turn_ended", player="Ann")],
    end_line=5, winner="Ann", score="vp", value=1, end_rule="UCH-THRESHOLD",
    move=E("forum_card_added", color="clay"), after=[E("winner_declared", player="Ann")],
)

# Twilight Imperium 4: the goal is 3 and Bob gains 3 VP at line 3: the game ends there.
TI = Game(
    {"game": "twilight-imperium-4", "id": "end", "players": ["Ann", "Bob"],
     "setup": {"factions": {"Ann": "The Emirates of Hacan", "Bob": "Federation of Sol"}, "vp_goal": 3}},
    [E("note", text="the agenda phase"), E("vp_gained", player="Bob", points=3, source="agendas")],
    end_line=3, winner="Bob", score="vp", value=3, end_rule="TI4-VP-GOAL",
    move=E("vp_gained", player="Ann", points=1, source="late"), after=[E("winner_declared", player="Bob")],
)

GAMES = {"merchant-of-venus": MOV, "uchronia": UCH, "twilight-imperium-4": TI}


def violations(outcome) -> list[tuple[int, str]]:
    return [(e.line, e.rule) for e in outcome.events if type(e).__name__ == "FindingRaised" and e.severity == "violation"]


@pytest.mark.parametrize("name", GAMES)
def test_the_small_game_ends_where_its_rule_says(name):
    game = GAMES[name]
    state = game.run().state
    assert (state.ended.line, state.ended.winner) == (game.end_line, game.winner)
    assert violations(game.run()) == []


@pytest.mark.parametrize("name", GAMES)
def test_a_note_a_right_claim_a_declared_winner_and_a_correction_after_the_end_break_nothing(name):
    game = GAMES[name]
    note_line = game.note_line
    after = [E("note", text="good game"), E("score_claimed", player=game.winner, **{game.score: game.value}), *game.after,
             E("correction", voids=note_line, reason="the note was about another game")]
    outcome = game.run(*after)
    assert violations(outcome) == []
    assert [e for e in outcome.events if type(e).__name__ == "FindingRaised"] == []
    assert outcome.state.ended.line == game.end_line and outcome.state.ended.winner == game.winner
    assert outcome.state.score(game.winner) == game.value
    assert note_line in outcome.state.voided


@pytest.mark.parametrize("name", GAMES)
def test_a_wrong_claim_after_the_end_is_a_claim_and_nothing_else(name):
    game = GAMES[name]
    claim_line = len(game.events) + 2
    outcome = game.run(E("score_claimed", player=game.winner, **{game.score: game.value - 1}))
    assert violations(outcome) == [(claim_line, "CLAIM")]
    (claim,) = [e for e in outcome.events if type(e).__name__ == "FindingRaised"]
    assert claim.message == f"{game.winner}'s {game.score} is claimed as {game.value - 1}, but the log gives {game.value}"


@pytest.mark.parametrize("name", GAMES)
def test_a_move_after_the_end_breaks_the_end_rule(name):
    game = GAMES[name]
    move_line = len(game.events) + 3
    outcome = game.run(E("note", text="one more"), game.move)
    assert (move_line, game.end_rule) in violations(outcome)
    (after,) = [e for e in outcome.events if type(e).__name__ == "FindingRaised" and e.rule == game.end_rule]
    assert after.message == f"the game ended at line {game.end_line}; nothing may follow it"


def test_voiding_the_winning_line_after_the_end_undoes_the_end_and_makes_a_claim_wrong():
    # Twilight Imperium: without Bob's 3 VP (line 3) the game never ended, so Bob's claim of 3 (line 4) is
    # wrong, decided again: a CLAIM on the correction's line; no end rule is broken by anything.
    outcome = TI.run(E("score_claimed", player="Bob", vp=3), E("correction", voids=3, reason="the agenda was vetoed"))
    assert violations(outcome) == [(5, "CLAIM")]
    assert outcome.state.ended is None and outcome.state.score("Bob") == 0


def test_a_winner_declared_after_the_end_that_names_another_player_is_still_checked():
    # Uchronia's UCH-WINNER: Ann won; a declaration of Bob after the end is a finding of the winner, not of the end.
    outcome = UCH.run(E("winner_declared", player="Bob"))
    assert violations(outcome) == [(6, "UCH-WINNER")]
