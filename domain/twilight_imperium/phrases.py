"""How each Twilight Imperium line reads in a report ("Ann plays Trade, choosing Bob").

``PHRASES`` maps each event ``type`` of this game to its words, filled from
the line's fields as the log names them (``domain.phrases`` says how they are
used, and tells the events every game has).
"""

from __future__ import annotations

from typing import Any

from gamelog.domain.phrases import DASH, NOT_RECORDED, Phrase, Rows, StatePhrases, claimed, humanise, listed

PHRASES: dict[str, Phrase] = {
    "score_claimed": lambda f: f"{f['player']} claims {claimed(f)} VP",
    "round_started": lambda f: f"round {f['round']} begins",
    "phase_started": lambda f: f"the {f['phase']} phase begins",
    "strategy_card_picked": lambda f: f"{f['player']} picks {f['card']} (initiative {f['initiative']})",
    "trade_primary": lambda f: f"{f['player']} plays Trade" + (f", choosing {', '.join(f['chosen'])}" if f.get("chosen") else ""),
    "trade_secondary": lambda f: f"{f['player']} follows Trade" + (" (free)" if f.get("free") else ""),
    "trade_goods_gained": lambda f: f"{f['player']} gains {f['amount']} trade goods: {f['reason']}",
    "trade_goods_spent": lambda f: f"{f['player']} spends {f['amount']} trade goods: {f['reason']}",
    "commodities_given": lambda f: f"{f['player']} gives {f['amount']} commodities to {f['to']}",
    "command_token_spent": lambda f: f"{f['player']} spends a {f['pool']} command token: {f['reason']}",
    "command_tokens_gained": lambda f: f"{f['player']} gains {f['amount']} {f['pool']} command token(s): {f['reason']}",
    "objective_revealed": lambda f: f"{f['objective']} (stage {f['stage']}) is revealed",
    "secret_objective_drawn": lambda f: f"{f['player']} draws a secret objective: {f['objective']}",
    "secret_objective_returned": lambda f: f"{f['player']} returns a secret objective: {f['objective']}",
    "combat_started": lambda f: f"a {f['kind']} combat begins",
    "combat_ended": lambda f: f"the {f['kind']} combat ends",
    "home_system_control": lambda f: f"{f['player']} " + ("controls" if f["controls_all"] else "does not control") + " every home planet",
    "objective_scored": lambda f: f"{f['player']} scores {f['objective']} ({f['kind']}, {f['points']} VP)",
    "vp_gained": lambda f: f"{f['player']} gains {f['points']} VP: {f['source']}",
    "vp_lost": lambda f: f"{f['player']} loses {f['points']} VP: {f['source']}",
    "player_passed": lambda f: f"{f['player']} passes",
    "speaker_changed": lambda f: f"{f['player']} becomes the speaker",
    "objective_made_public": lambda f: f"{f['objective']} is made public: {f['reason']}",
    "vp_scored": lambda f: f"{f['player']} {'loses' if f.get('lost') else 'gains'} {f.get('points', 1)} VP: {f['origin']}"
                           + (f" ({f['reason']})" if f.get("reason") else ""),
    "strategy_cards_swapped": lambda f: f"the holders of {f['cards'][0]} and {f['cards'][1]} swap them",
    "player_unpassed": lambda f: f"{f['player']} is back in the action phase",
    "strategic_action": lambda f: (f"{f['player']} performs {f['card']}'s primary ability through {f['through']}" if f.get("through")
                                   else f"{f['player']} plays {f['card']} (strategic action)"),
    "winner_declared": lambda f: (f"{f['player']} is declared the winner" if f.get("player") else "no winner is declared")
                                 + (f" ({f['reason']})" if f.get("reason") else ""),
    "score_declared": lambda f: f"{f['player']} is declared to end with {f['score']} VP"
                                + (f" ({f['reason']})" if f.get("reason") else ""),
    "adjustment_declared": lambda f: f"{f['player']} is declared to end with {f['points']} VP from {f['origin']}"
                                     + (f" ({f['reason']})" if f.get("reason") else ""),
}


# -- the state in words ------------------------------------------------------------------

TABLE_COLOURS = {
    "red": "#d62728", "blue": "#1f5fbf", "green": "#2e8b3a", "yellow": "#b58900", "purple": "#7b3fa0",
    "black": "#222222", "orange": "#e07000", "pink": "#d6409f", "magenta": "#c2187d", "rose": "#d9577a",
    "emerald": "#138a5e", "forest": "#2f5d34", "gold": "#a67c00", "lavender": "#8a6fc4", "orca": "#3b4a5a",
    "bloodred": "#8b0000", "petrol": "#0e5e6f", "gray": "#707070", "grey": "#707070", "brown": "#8b5a2b",
    "teal": "#00807a", "navy": "#1b2a6b", "lime": "#5a9a16", "turquoise": "#139a9a", "chocolate": "#7b3f00",
    "spring": "#0d9a63", "sunset": "#e0552b", "tan": "#9c7a4a", "lightgray": "#8a8a8a", "chrome": "#6c7a89",
    "rainbow": "#9a4fd0", "ethereal": "#5b6fd8", "lightblue": "#3f8fd6", "darkgreen": "#1e5a2a",
}
"""The colours players pick in TI Assistant and AsyncTI4 (by the name their exports give), as CSS colours dark
enough to read as a line and as text on white (yellow and gold are darkened)."""


def _number(document: dict[str, Any], what: str, value: Any) -> str:
    return NOT_RECORDED if what in document.get("not_recorded", ()) else str(value)


def _sources(p: dict[str, Any]) -> str:
    """Where a player's VP come from: each source with any, as TI Assistant splits them."""
    return ", ".join(f"{source} {n}" for source, n in p.get("vp_by_source", {}).items() if n)


def _vp(p: dict[str, Any]) -> str:
    parts = _sources(p)
    return f"{p['vp']}" + (f" ({parts})" if parts else "")


def _player(document: dict[str, Any], name: str) -> Rows:
    p = document["players"][name]
    tokens = ", ".join(f"{pool} {p[f'{pool}_tokens']}" for pool in ("tactic", "fleet", "strategy"))
    return {
        "faction": p["faction"] or DASH,
        "VP": _vp(p),
        "objectives scored": listed(p["scored"]),
        "secret objectives held": (NOT_RECORDED if "secret_objectives" in document.get("not_recorded", ())
                                   else listed(p["secret_objectives_held"])),
        "trade goods": _number(document, "trade_goods", p["trade_goods"]),
        "commodities": f"{p['commodities']} of {p['commodity_value']}",
        "command tokens": _number(document, "command_tokens", tokens),
        "home system": "controlled" if p["controls_home_system"] else "not all of it controlled",
    }


def _objectives(revealed: list[dict[str, Any]]) -> str:
    stages = {1: "stage I", 2: "stage II"}
    groups: dict[str, list[str]] = {}
    for o in revealed:
        groups.setdefault(stages.get(o["stage"], "made public otherwise"), []).append(o["objective"])
    return "; ".join(f"{stage}: {', '.join(names)}" for stage, names in groups.items()) or DASH


def _game(document: dict[str, Any]) -> Rows:
    return {
        "phase": f"the {document['phase']} phase" if document["phase"] else "setup",
        "speaker": document["speaker"],
        "initiative order": listed(document["initiative_order"]),
        "public objectives": _objectives(document["revealed_objectives"]),
        "VP to win": str(document["vp_goal"]),
        "not recorded by the log's source": ", ".join(humanise(w) for w in document.get("not_recorded", ())) or DASH,
    }


def _when(document: dict[str, Any]) -> str:
    if not document.get("round"):
        return "before the first round"
    turn = document.get("turn_of_round")
    return f"round {document['round']}" + (f", turn {turn} of the round" if turn else "")


STATE = StatePhrases(
    player=_player,
    game=_game,
    when=_when,
    side=lambda document, name: document["players"][name]["faction"],
    side_name="faction",
    score_detail=lambda document, name: _sources(document["players"][name]) or None,
    colour=lambda document, name: TABLE_COLOURS.get(str(document["players"][name].get("color", "")).casefold().replace(" ", "")),
)
"""A Twilight Imperium state as its players say it: VP by source, what the log's source does not record as such."""

KINDS: dict[str, str] = {
    "round_started": "New round",
    "phase_started": "New phase",
    "strategy_card_picked": "Pick a strategy card",
    "trade_primary": "Trade (primary)",
    "trade_secondary": "Trade (secondary)",
    "trade_goods_gained": "Gain trade goods",
    "trade_goods_spent": "Spend trade goods",
    "commodities_given": "Give commodities",
    "command_token_spent": "Spend a command token",
    "command_tokens_gained": "Gain command tokens",
    "objective_revealed": "Reveal an objective",
    "secret_objective_drawn": "Draw a secret objective",
    "secret_objective_returned": "Return a secret objective",
    "combat_started": "Combat begins",
    "combat_ended": "Combat ends",
    "home_system_control": "Home system control",
    "objective_scored": "Score an objective",
    "vp_gained": "Gain a VP",
    "vp_lost": "Lose a VP",
    "player_passed": "Pass",
    "speaker_changed": "New speaker",
    "winner_declared": "Declare the winner",
    "score_declared": "Declare a score",
    "adjustment_declared": "Declare an adjustment",
    "vp_scored": "Score VP",
    "objective_made_public": "Make an objective public",
    "strategy_cards_swapped": "Swap strategy cards",
    "player_unpassed": "Back from a pass",
    "strategic_action": "Strategic action",
}
"""This game's kinds of line as players name them (the forms' ``label``, ``GameRules.kind``)."""
