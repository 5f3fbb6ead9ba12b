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


def _turn(player: str, carrying: bool, turn: int, findings: bool = False) -> list[dict]:
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
            # With findings, a price the reference data does not give: a MOV-BUY warning on every purchase.
            {"type": "goods_bought", "player": player, "good": "Finest Dust", "culture": "Dell",
             "unit_price": 11 if findings else 10, "dots": 2},
        ]
    events.append({"type": "turn_ended", "player": player})
    return events


def write_log(out: BinaryIO, events: int, game_id: str = "bench", findings: bool = False) -> int:
    """Write a log of at least ``events`` events after the header; return the number written.

    With ``findings``, every purchase is at a price the reference data does not give (a MOV-BUY warning: one
    finding every ten lines or so, the game otherwise as legal as without): a findings-heavy log for the memory
    benchmark."""
    header = {"type": "game", "game": "merchant-of-venus", "id": game_id, "players": PLAYERS,
              "setup": {"starting_credits": 500, "holds": 2, "goal": 1_000_000_000}}
    out.write(json.dumps(header).encode() + b"\n")
    written = turn = 0
    carrying = dict.fromkeys(PLAYERS, False)
    while written < events:
        player = PLAYERS[turn % len(PLAYERS)]
        lines = _turn(player, carrying[player], turn // len(PLAYERS), findings)
        carrying[player] = not carrying[player]
        out.write(b"".join(json.dumps(e).encode() + b"\n" for e in lines))
        written += len(lines)
        turn += 1
    return written


# --- Uchronia ------------------------------------------------------------------------------


def uchronia_lines(turns: int, game_id: str = "uchronia-generated", threshold: int | None = None) -> list[dict]:
    """A legal two-player Uchronia game of ``turns`` turns, short of the threshold.

    ``threshold`` sets the setup's VP threshold; given, the game may be of any
    length (the 30-turn cap keeps the default threshold out of reach).

    Each turn the active player completes the wood building begun on their
    last turn (one resource: UCH-COST) and begins the next one, with a wood
    card put on the Forum for it (UCH-START); every third turn the wood
    monopoly changes hands (UCH-SCORE).
    """
    players = ["Ann", "Bob"]
    lines: list[dict] = [{"type": "game", "game": "uchronia", "id": game_id, "players": players,
                          "setup": {"last_turn_card": "Bob", "forum": ["wood"]}}]
    if threshold is not None:
        lines[0]["setup"]["threshold"] = threshold
    started: dict[str, str | None] = dict.fromkeys(players)
    for turn in range(turns if threshold is not None else min(turns, 30)):  # 1 VP a building: 30 turns stay below the 20 VP threshold
        player = players[turn % 2]
        lines.append({"type": "turn_started", "player": player})
        if started[player]:
            lines.append({"type": "resource_moved", "player": player, "building": started[player], "color": "wood"})
        building = f"House {turn}"
        lines.append({"type": "forum_card_added", "color": "wood", "player": player})
        lines.append({"type": "construction_started", "player": player, "building": building, "color": "wood"})
        started[player] = building
        if turn % 3 == 2:
            lines.append({"type": "monopoly_changed", "color": "wood", "player": player, "operations": 1})
        lines.append({"type": "turn_ended", "player": player})
    return lines


# --- Twilight Imperium 4 ------------------------------------------------------------------


def twilight_lines(rounds: int, game_id: str = "ti4-generated", endless: bool = False) -> list[dict]:
    """A legal four-player Twilight Imperium game of ``rounds`` rounds (at most 8: 10 public objectives).

    ``endless`` lifts the cap: the rounds after the eighth reveal no objective.

    Every round: each player picks two strategy cards (rotating), the Trade
    holder plays Trade on their turn with the next player chosen and the
    others paying a strategy token (LRR 90), everyone passes in initiative
    order, and the status phase reveals the next public objective (stage I
    first) and gives back the tokens spent.
    """
    from gamelog.domain.twilight_imperium import reference

    players = ["Ann", "Bob", "Cy", "Dee"]
    cards = sorted(reference.strategy_cards().items(), key=lambda item: item[1])  # (name key, initiative)
    names = {1: "Leadership", 2: "Diplomacy", 3: "Politics", 4: "Construction", 5: "Trade", 6: "Warfare",
             7: "Technology", 8: "Imperial"}
    publics = [o for o in dict.fromkeys(o.name for o in reference.objectives().values() if o.kind == "public")]
    stage = {o.name: o.stage for o in reference.objectives().values() if o.kind == "public"}
    order = [n for n in publics if stage[n] == 1][:5] + [n for n in publics if stage[n] == 2][:5]
    lines: list[dict] = [{"type": "game", "game": "twilight-imperium-4", "id": game_id, "players": players,
                          "setup": {"factions": {"Ann": "Hacan", "Bob": "Sol", "Cy": "Arborec", "Dee": "Letnev"}}}]
    lines += [{"type": "objective_revealed", "objective": name, "stage": stage[name]} for name in order[:2]]
    for r in range(1, (rounds if endless else min(rounds, 8)) + 1):
        lines += _twilight_round(r, players, names, len(cards))
        if r + 1 < len(order):
            lines.append({"type": "objective_revealed", "objective": order[r + 1], "stage": stage[order[r + 1]]})
        for player in players:
            if player != _holder(5, r, players):
                lines.append({"type": "command_tokens_gained", "player": player, "pool": "strategy", "amount": 1,
                              "reason": "status phase: gain command tokens"})
    return lines


def _holder(initiative: int, round_: int, players: list[str]) -> str:
    """Who holds the card of ``initiative`` in ``round_``: the cards rotate one seat a round."""
    return players[((initiative - 1) % len(players) + round_) % len(players)]


def _twilight_round(r: int, players: list[str], names: dict[int, str], count: int) -> list[dict]:
    lines: list[dict] = [{"type": "round_started", "round": r}, {"type": "phase_started", "phase": "strategy"}]
    lines += [{"type": "strategy_card_picked", "player": _holder(i, r, players), "card": names[i], "initiative": i}
              for i in range(1, count + 1)]
    lines.append({"type": "phase_started", "phase": "action"})
    by_initiative = sorted(players, key=lambda p: min(i for i in range(1, count + 1) if _holder(i, r, players) == p))
    trader = _holder(5, r, players)
    chosen = players[(players.index(trader) + 1) % len(players)]
    for player in by_initiative:
        lines.append({"type": "turn_started", "player": player})
        if player == trader:
            lines.append({"type": "trade_primary", "player": player, "chosen": [chosen]})
            for k in range(1, len(players)):  # clockwise from the trader's left
                other = players[(players.index(trader) + k) % len(players)]
                lines.append({"type": "trade_secondary", "player": other, "free": other == chosen})
        lines.append({"type": "turn_ended", "player": player})
    for player in by_initiative:
        lines += [{"type": "turn_started", "player": player}, {"type": "player_passed", "player": player}]
    lines.append({"type": "phase_started", "phase": "status"})
    return lines


def log_bytes(lines: list[dict]) -> bytes:
    return b"".join(json.dumps(line).encode() + b"\n" for line in lines)
