"""What Merchant of Venus counts: credits and deeds, whose sum is a player's net worth (MOV-NET-WORTH).

A deed counts at its full value, whatever was paid for it; the game ends when
a player's net worth reaches the header's goal at the end of their turn
(MOV-WIN).
"""

from __future__ import annotations

from gamelog.domain.measures import Measures, Step, change
from gamelog.domain.merchant_of_venus.events import CreditsChanged, DeedChanged


def _deed(e: DeedChanged) -> Step:
    sign = 1 if e.gained else -1
    what = f"{e.deed.kind.replace('_', ' ')} deed at {e.deed.culture} (full value c{e.deed.value})"
    return Step(e.player, "deeds", sign * e.deed.value, "MOV-NET-WORTH", ("gained " if e.gained else "lost ") + what)


MEASURES = Measures(
    steps={CreditsChanged: change("credits"), DeedChanged: _deed},
    standings=("credits", "deeds"),
    score=("credits", "deeds"),
    score_name="net_worth",
    goal=lambda header: header.setup.goal,
    goal_label=lambda credits: f"goal c{credits}",
)
