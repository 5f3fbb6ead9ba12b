"""``--as`` takes a player's name in any case and the faction they play (issue 32, section 3); a name that is no
player's, or more than one player's, is an error naming the choices (exit 2)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import gamelog
from gamelog.cli.main import main
from gamelog.secrecy import player_named
from tests.conftest import EXAMPLES

TI4 = str(EXAMPLES / "twilight-imperium-4" / "complete-4p.jsonl")  # Cy plays the Arborec, Ann The Emirates of Hacan


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def held(*args: str) -> dict:
    code, out = run("replay", TI4, "--format", "json", *args)
    assert code == 0, out
    return {name: p["secret_objectives_held"] for name, p in json.loads(out)["players"].items()}


@pytest.mark.parametrize("given", ["Cy", "cy", "CY", "Arborec", "arborec", "The Arborec"])
def test_as_names_a_player_by_name_in_any_case_or_by_faction(given):
    viewed = held("--as", given)
    assert viewed["Cy"] == ["Mine Rare Metals"]  # Cy's own secret, which another player's view hides
    assert viewed == held("--as", "Cy") != held("--as", "Ann")


def test_a_faction_named_without_the_article_the_header_gives():
    assert held("--as", "emirates of hacan") == held("--as", "Ann")
    assert held("--as", "emirates of hacan") != held("--as", "Cy")


@pytest.mark.parametrize("command", [["replay", TI4], ["report", TI4], ["audit", TI4], ["stats", TI4]])
def test_an_unknown_name_names_the_players_and_factions(command):
    code, out = run(*command, "--as", "Sol")
    assert code == 2
    assert "no player 'Sol' in" in out
    assert "(players: Ann, Bob, Cy, Dee; or a faction: Emirates of Hacan, Federation of Sol, Arborec, " \
           "Barony of Letnev)" in out


def test_a_name_of_two_players_is_ambiguous():
    seats = [("Ann", "Arborec"), ("ann", "Federation of Sol"), ("Bob", "Barony of Letnev")]
    assert player_named("ann", seats, "'g'") == "ann"  # as written wins
    with pytest.raises(gamelog.PlayerNotFound, match=r"'ANN' names more than one player in 'g': Ann, ann \(players"):
        player_named("ANN", seats, "'g'")
    # A player named as another's faction: both are meant, so neither is chosen.
    with pytest.raises(gamelog.PlayerNotFound, match="'arborec' names more than one player in 'g': Arborec, Ann"):
        player_named("arborec", [("Ann", "Arborec"), ("Arborec", "Federation of Sol")], "'g'")


def test_the_python_api_takes_the_same_names():
    game = gamelog.read_log(TI4)
    assert game.as_player("arborec").viewer == "Cy"
    assert game.as_player("arborec").end() == game.as_player("Cy").end()
    with pytest.raises(gamelog.PlayerNotFound, match="or a faction: Emirates of Hacan"):
        game.as_player("Zed")
