"""The ``--as`` property, served: over generated TI4 games of secret objectives drawn (by name or alias), returned
and scored, a seat's every answer is its player's view (the replay equals ``replay --as``) and never holds the name
or alias of a secret another player holds unscored; the spectators' holds no one's."""

from __future__ import annotations

import csv
import json

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from litestar.testing import TestClient

from gamelog.cli.main import main
from gamelog.cli.web.app import create_app
from tests.conftest import ROOT, open_lists_left_out

TOKEN = "host-token-of-the-served-property-test"
PLAYERS = ["Ann", "Bob", "Cy"]
with (ROOT / "domain" / "twilight_imperium" / "data" / "ti4_secret_objectives.csv").open() as handle:
    SECRETS = [(row["name"], row["alias"]) for row in csv.DictReader(handle)][:12]

# An action: (kind, player, card, by alias).
actions = st.tuples(st.sampled_from(["draw", "draw", "return", "score"]), st.sampled_from(PLAYERS),
                    st.integers(0, len(SECRETS) - 1), st.booleans())


def lines_of(plan: list[tuple[str, str, int, bool]]) -> tuple[list[dict], dict[str, set[int]]]:
    """The lines the plan makes (a card drawn only when no one holds it), and who holds which card at the end."""
    held: dict[str, set[int]] = {p: set() for p in PLAYERS}
    scored: set[int] = set()  # face up for good: never drawn again
    lines: list[dict] = []
    for kind, player, card, alias in plan:
        name = SECRETS[card][1 if alias else 0]
        holder = next((p for p, cards in held.items() if card in cards), None)
        if kind == "score" and holder is not None:
            scored.add(card)
        if kind == "draw" and holder is None and card not in scored:
            held[player].add(card)
            lines.append({"type": "secret_objective_drawn", "player": player, "objective": name})
        elif kind in ("return", "score") and holder is not None:
            held[holder].discard(card)
            lines.append({"type": "secret_objective_returned", "player": holder, "objective": name} if kind == "return"
                         else {"type": "objective_scored", "player": holder, "objective": name, "kind": "secret",
                               "points": 1})
    return lines, held


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(actions, min_size=1, max_size=14))
def test_every_served_answer_is_the_viewers_view_and_holds_no_other_hand(tmp_path_factory, plan):
    folder = tmp_path_factory.mktemp("served")
    lines, held = lines_of(plan)
    header = {"type": "game", "game": "twilight-imperium-4", "id": "served-secrets", "players": PLAYERS,
              "setup": {"factions": {"Ann": "Arborec", "Bob": "Federation of Sol", "Cy": "Barony of Letnev"}}}
    with TestClient(create_app(str(folder / "s.sqlite"), TOKEN, "http://127.0.0.1:8737")) as client:
        host = {"Authorization": f"Bearer {TOKEN}"}
        made = client.post("/api/games", content=json.dumps(header), headers=host).json()
        for after, line in enumerate(lines, 1):
            stored = client.post("/api/games/served-secrets/lines", content=json.dumps(
                {"line": line, "after": after, "anyway": True}), headers=host)
            assert stored.status_code == 201, stored.text
        log = folder / "exported.jsonl"
        log.write_text(client.get("/api/games/served-secrets/log", headers=host).text)
        viewers = {p: made["seats"][p]["token"] for p in PLAYERS} | {None: made["spectator"]["token"]}
        for player, token in viewers.items():
            seat = {"Authorization": f"Bearer {token}"}
            answers = [client.get(f"/api/games/served-secrets/{what}", headers=seat).text
                       for what in ("replay", "history", "forms", "report?format=json", "report?format=text")]
            answers[2] = open_lists_left_out(answers[2])  # the deck to draw from: the reason is open_lists_left_out's
            if player is not None:  # the seat's replay is `replay --as` of the same log
                as_player = CliRunner().invoke(main, ["replay", str(log), "--as", player, "--format", "json"])
                assert json.loads(answers[0]) == json.loads(as_player.stdout)
            seen = "\n".join(answers).casefold()
            for other, cards in held.items():
                if other == player:
                    continue
                for card in cards:
                    name, alias = SECRETS[card]
                    assert name.casefold() not in seen, (player, name)
                    assert f'"{alias.casefold()}"' not in seen, (player, alias)
