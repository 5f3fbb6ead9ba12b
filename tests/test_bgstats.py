"""The finished game to BG Stats (issue 39): ``gamelog export --to bgstats`` checked field by field against BG Stats'
published push format (BG Stats' support page on pushing plays: its fields and their types), its push link, and a
``BGStatsExport.json`` made from BG Stats' backup tables read by ``reconcile --declared``."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote

from click.testing import CliRunner

from gamelog.cli.main import main
from gamelog.bgstats import bgstats_play, push_link
from gamelog.game import stored_game
from gamelog.recording import new_game
from gamelog.sources import StoredGame, opened_game_store
from tests.conftest import EXAMPLES

FIXTURE = Path(__file__).parent / "fixtures" / "bgstats" / "BGStatsExport.json"
TI4 = EXAMPLES / "twilight-imperium-4" / "complete-4p.jsonl"  # Bob 10 (wins), Ann 7, Cy 6, Dee 6
UCHRONIA = EXAMPLES / "uchronia" / "complete-3p.jsonl"  # Bob 18 (wins), Ann 15, Cy 5

# The push format's fields and their JSON types (https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-
# other-apps-or-websites/): every field gamelog writes is one of these, of its type.
PLAY = {"sourceName": str, "sourcePlayId": str, "playDate": str, "durationMin": int, "location": str, "board": str,
        "comments": str, "game": dict, "players": list}
GAME = {"name": str, "bggId": int, "highestWins": bool, "noPoints": bool, "sourceGameId": str}
PLAYER = {"name": str, "score": int, "winner": bool, "rank": int, "startPlayer": bool, "role": str,
          "sourcePlayerId": str}


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def exported(*args: str) -> dict:
    said = run("export", *args, "--to", "bgstats")
    assert said.exit_code == 0, said.output
    return json.loads(said.stdout)


def typed(value: dict, fields: dict[str, type]) -> None:
    assert set(value) <= set(fields), set(value) - set(fields)
    for name, kind in fields.items():
        if name in value:
            assert type(value[name]) is kind, (name, value[name])


def test_a_ti4_game_is_bg_stats_play_field_by_field(tmp_path):
    store = str(tmp_path / "s.sqlite")
    assert run("import", str(TI4), "--store", store).exit_code == 0
    play = exported("ti4-complete-4p", "--store", store)
    typed(play, PLAY)
    fingerprint = json.loads(run("verify", "ti4-complete-4p", "--store", store, "--format", "json").stdout)["fingerprint"]
    assert play["sourceName"] == "gamelog" and play["sourcePlayId"] == f"ti4-complete-4p#{fingerprint}"
    typed(play["game"], GAME)
    assert play["game"] == {"name": "Twilight Imperium: Fourth Edition", "bggId": 233078, "highestWins": True,
                            "noPoints": False, "sourceGameId": "twilight-imperium-4"}
    for player in play["players"]:
        typed(player, PLAYER)
    by_name = {p["name"]: p for p in play["players"]}
    assert [(p["name"], p["score"], p["winner"], p["rank"], p["role"]) for p in play["players"]] == [
        ("Ann", 7, False, 2, "Emirates of Hacan"), ("Bob", 10, True, 1, "Federation of Sol"),
        ("Cy", 6, False, 3, "Arborec"), ("Dee", 6, False, 3, "Barony of Letnev")]
    assert [p["name"] for p in play["players"] if p["startPlayer"]] == ["Bob"]  # the first turn is Bob's
    assert all(by_name[name]["sourcePlayerId"] == name for name in by_name)
    # The log has no `at`: no date, no length (BG Stats asks for them), never a made-up one.
    assert "playDate" not in play and "durationMin" not in play
    assert play["comments"] == "gamelog ti4-complete-4p: open: no seat has confirmed the game after line 281"


def test_a_game_without_a_bgg_id_is_matched_by_its_title_and_has_no_roles(tmp_path):
    store = str(tmp_path / "s.sqlite")
    assert run("import", str(UCHRONIA), "--store", store).exit_code == 0
    play = exported("uchronia-3p-demo", "--store", store)
    assert play["game"] == {"name": "Uchronia", "highestWins": True, "noPoints": False, "sourceGameId": "uchronia"}
    assert all("role" not in p for p in play["players"])
    assert [p["rank"] for p in play["players"]] == [2, 1, 3]


def test_a_recorded_game_has_its_date_and_length_and_a_push_link(locations, tmp_path):
    clock = iter(["2026-12-05T18:00:00Z", "2026-12-05T18:02:00Z", "2026-12-05T18:44:31Z", "2026-12-05T19:31:10Z"])
    with opened_game_store(locations.new()) as store:
        new_game(store, json.dumps({"type": "game", "game": "uchronia", "id": "evening", "players": ["Ann", "Bob"]})
                 .encode(), clock=lambda: next(clock))
        for line in ({"type": "turn_started", "player": "Ann"}, {"type": "turn_ended", "player": "Ann"},
                     {"type": "turn_started", "player": "Bob"}):
            assert stored_game(store, "evening").record(json.dumps(line).encode(), clock=lambda: next(clock)).appended
        play = bgstats_play(StoredGame(store, "evening", ""))
    assert (play.playDate, play.durationMin) == ("2026-12-05 18:00:00", 91)  # 18:00:00 to 19:31:10
    link = push_link(play)
    assert link.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    sent = json.loads(unquote(link.split("data=", 1)[1]))
    assert sent["playDate"] == "2026-12-05 18:00:00" and [p["name"] for p in sent["players"]] == ["Ann", "Bob"]
    assert [p["startPlayer"] for p in sent["players"]] == [True, False]


def test_reconcile_reads_a_bg_stats_backup_matched_by_title_day_and_players(tmp_path):
    # Undated, the game could be either TI4 play of the backup: said, not guessed.
    undated = run("reconcile", str(TI4), "--declared", str(FIXTURE))
    assert undated.exit_code == 2 and "2 plays of the BG Stats backup may be ti4-complete-4p" in undated.output
    dated = tmp_path / "dated.jsonl"
    lines = TI4.read_text().splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("{"))
    lines[header] = json.dumps({**json.loads(lines[header]), "at": "2026-12-05T18:31:00Z"})
    dated.write_text("\n".join(lines) + "\n")
    said = run("reconcile", str(dated), "--declared", str(FIXTURE), "--format", "json")
    document = json.loads(said.stdout)
    assert document["table_game"] == "Twilight Imperium: Fourth Edition on 2026-12-05 (play 3)"
    assert document["matched_by"] == "title, day and players"
    declared = {p["player"]: (p["computed"], p["declared"]) for p in document["players"]}
    assert declared == {"Ann": (7, 9), "Bob": (10, 10), "Cy": (6, 6), "Dee": (6, 6)}  # Ann's 9 is not the log's 7
    assert document["agrees"] is False


def test_reconcile_of_a_whole_store_against_a_bg_stats_backup(tmp_path):
    store = str(tmp_path / "s.sqlite")
    assert run("import", str(UCHRONIA), "--store", store).exit_code == 0
    said = run("reconcile", "--declared", str(FIXTURE), "--store", store, "--format", "json")
    document = json.loads(said.stdout)
    assert [g["game"] for g in document["games"]] == ["uchronia-3p-demo"]
    assert document["disagree"] == [] and len(document["unmatched"]) == 2  # the two TI4 plays: no such stored game


def test_the_recorder_offers_the_finished_game_to_bg_stats_to_every_token(locations):
    from litestar.testing import TestClient

    from gamelog.cli.web.app import create_app
    from gamelog.cli.web.tokens import Tokens

    location = locations.new()
    assert run("import", str(TI4), "--store", location).exit_code == 0
    host = "host-token-of-the-bg-stats-offer-test"
    with TestClient(create_app(location, host, "http://127.0.0.1:8737")) as client:
        for token in (host, Tokens(host).seat("ti4-complete-4p", "Cy"), Tokens(host).spectator("ti4-complete-4p")):
            got = client.get("/api/games/ti4-complete-4p/bgstats", headers={"Authorization": f"Bearer {token}"})
            assert got.status_code == 200, got.text
            offer = got.json()
            assert offer["filename"] == "ti4-complete-4p.bgsplay"
            assert json.loads(unquote(offer["link"].split("data=", 1)[1])) == offer["play"]
            assert offer["play"]["game"]["bggId"] == 233078 and offer["play"]["players"][1]["winner"] is True
        assert client.get("/api/games/ti4-complete-4p/bgstats").status_code == 401
