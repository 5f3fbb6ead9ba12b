"""How each Uchronia line reads in a report ("Ann starts Temple (marble)").

``PHRASES`` maps each event ``type`` of this game to its words, filled from
the line's fields as the log names them (``domain.phrases`` says how they are
used, and tells the events every game has).
"""

from __future__ import annotations

from gamelog.domain.phrases import Phrase, claimed

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
