"""How each Uchronia line reads in a report ("Ann starts Temple (marble)").

``PHRASES`` maps each event ``type`` of this game to its words, filled from
the line's fields as the log names them (``domain.phrases`` says how they are
used, and tells the events every game has).
"""

from __future__ import annotations

from typing import Any

from gamelog.domain.phrases import DASH, Phrase, Rows, StatePhrases, claimed, humanise, listed

PHRASES: dict[str, Phrase] = {
    "score_claimed": lambda f: f"{f['player']} claims {claimed(f)} VP",
    "construction_started": lambda f: f"{f['player']} starts {f['building']} ({f['color']})",
    "resource_moved": lambda f: f"{f['player']} moves a {f['color']} resource to {f['building']}",
    "forum_card_added": lambda f: f"a {f['color']} card goes onto the Forum" + (f" ({f['player']})" if f.get("player") else ""),
    "forum_card_removed": lambda f: f"a {f['color']} card leaves the Forum: {f['reason']}",
    "forum_card_taken": lambda f: f"{f['player']} takes a {f['color']} card from the Forum",
    "monopoly_changed": lambda f: (f"{f['player']} holds" if f.get("player") else "no one holds")
                                  + f" the {f['color']} monopoly ({f['operations']} Operations)",
    "vp_adjusted": lambda f: f"{f['player']} {f['delta']:+d} VP: {f['reason']}",
    "winner_declared": lambda f: (f"{f['player']} is declared the winner" if f.get("player") else "no winner is declared")
                                 + (f" ({f['reason']})" if f.get("reason") else ""),
}


# -- the state in words ------------------------------------------------------------------


def _player(document: dict[str, Any], name: str) -> Rows:
    p = document["players"][name]
    return {
        "VP": str(p["vp"]),
        "buildings": listed([f"{b['name']} ({b['color']}, {b['vp']} VP, line {b['line']})" for b in p["buildings"]]),
        "under construction": listed([f"{building} ({n} resource{'s' if n != 1 else ''} placed)"
                                      for building, n in p["under_construction"].items()]),
        "operations limit": str(p["operations_limit"]),
        "monopolies": listed([f"{colour} ({n} operation{'s' if n != 1 else ''})" for colour, n in p["monopolies"].items()]),
    }


def _game(document: dict[str, Any]) -> Rows:
    t = document["threshold"]
    threshold = f"{t['vp']} VP, " + (f"reached by {t['by']} at line {t['line']} (turn {t['turn']}) with {t['with_vp']} VP"
                                     if t["reached"] and "by" in t else "reached" if t["reached"] else "not reached yet")
    return {
        "monopolies": listed([f"{colour}: {m['player'] or 'nobody'}" for colour, m in document["monopolies"].items()]),
        "threshold": threshold,
        "last turn card": document["last_turn_card"] or DASH,
    }


STATE = StatePhrases(player=_player, game=_game)
"""An Uchronia state as its players say it: buildings with their colour and VP, monopolies by colour."""

KINDS: dict[str, str] = {
    "construction_started": "Start a building",
    "forum_card_added": "Add a Forum card",
    "forum_card_removed": "Remove a Forum card",
    "forum_card_taken": "Take a Forum card",
    "monopoly_changed": "Monopoly changes hands",
    "resource_moved": "Move a resource",
    "vp_adjusted": "Adjust VP",
    "winner_declared": "Declare the winner",
}
"""This game's kinds of line as players name them (the forms' ``label``, ``GameRules.kind``)."""
