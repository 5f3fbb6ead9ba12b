"""How each Twilight Imperium line reads in a report ("Ann plays Trade, choosing Bob").

``PHRASES`` maps each event ``type`` of this game to its words, filled from
the line's fields as the log names them (``domain.phrases`` says how they are
used, and tells the events every game has).
"""

from __future__ import annotations

from gamelog.domain.phrases import Phrase, claimed

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
