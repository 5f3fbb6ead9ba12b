"""Generated Merchant of Venus logs of realistic shape, of any length, for benchmarks.

Four players trade in turn: land at an open spaceport, buy Finest Dust at
Dell, carry it to Shenna, sell it and draw from the Bonus Cup, sometimes
paying a hazard on the way. Every line is legal, so the rules do their full
work and no finding shortcuts it. The goal is set out of reach so the game
never ends.
"""

from __future__ import annotations

import json
from typing import BinaryIO

PLAYERS = ["Qossuth", "Whynom", "Human", "Eeepeeep"]


def _turn(player: str, carrying: bool, turn: int) -> list[dict]:
    events: list[dict] = [{"type": "turn_started", "player": player}]
    if turn % 7 == 0:
        events.append({"type": "hazard_paid", "player": player, "cost": 20})
    if carrying:
        events += [
            {"type": "landed", "player": player, "venue": "open_spaceport", "culture": "Shenna"},
            {"type": "goods_sold", "player": player, "good": "Finest Dust", "culture": "Shenna", "resale_value": 50},
            {"type": "bonus_cup_draw", "token": "demand: Mulch Wine +40", "placed_at": "Shenna"},
        ]
    else:
        events += [
            {"type": "landed", "player": player, "venue": "open_spaceport", "culture": "Dell"},
            {"type": "goods_bought", "player": player, "good": "Finest Dust", "culture": "Dell", "unit_price": 10, "dots": 2},
        ]
    events.append({"type": "turn_ended", "player": player})
    return events


def write_log(out: BinaryIO, events: int, game_id: str = "bench") -> int:
    """Write a log of at least ``events`` events after the header; return the number written."""
    header = {"type": "game", "game": "merchant-of-venus", "id": game_id, "players": PLAYERS,
              "setup": {"starting_credits": 500, "holds": 2, "goal": 1_000_000_000}}
    out.write(json.dumps(header).encode() + b"\n")
    written = turn = 0
    carrying = dict.fromkeys(PLAYERS, False)
    while written < events:
        player = PLAYERS[turn % len(PLAYERS)]
        lines = _turn(player, carrying[player], turn // len(PLAYERS))
        carrying[player] = not carrying[player]
        out.write(b"".join(json.dumps(e).encode() + b"\n" for e in lines))
        written += len(lines)
        turn += 1
    return written
