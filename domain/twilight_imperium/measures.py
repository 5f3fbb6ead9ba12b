"""What Twilight Imperium counts: each player's VP (the score), trade goods and commodities; where VP come from.

The game ends when a player reaches the header's VP goal (TI4-VP-GOAL).

``RESULTS`` is how ``gamelog reconcile`` reads a game's result
(``domain.declarations``). The sources of VP follow the rules' own list
(TI4-VP-SOURCE, LRR 34): public objectives by stage, secret objectives, the
Custodians token, the Imperial primary, agendas and riders, relics, Support
for the Throne, and VP set by hand (the app's manual update); any other
origin (Styx, Unravel...) is named as it is. A ``vp_gained`` or ``vp_lost``
line is put to the source its ``source`` begins with ("Custodians token",
"Imperial: Mecatol Rex", "agenda: ..."), else to ``other VP``. Declarations are the lines another source writes about the
result: ``winner_declared`` (and its older ``scores``), ``score_declared``,
and ``adjustment_declared`` as the rules weighed it (``AdjustmentWeighed``).
"""

from __future__ import annotations

from typing import Any

from gamelog.domain.declarations import Declared, ResultSources
from gamelog.domain.measures import Measures, change
from gamelog.domain.twilight_imperium import reference
from gamelog.domain.twilight_imperium.events import (AdjustmentWeighed, CommoditiesChanged, ObjectiveScored,
                                                     ScoreDeclared, TradeGoodsChanged, VpChanged, VpGained, VpLost,
                                                     VpScored, WinnerDeclared)

MEASURES = Measures(
    steps={
        VpChanged: change("vp"),
        TradeGoodsChanged: change("trade_goods"),
        CommoditiesChanged: change("commodities"),
    },
    standings=("vp", "trade_goods", "commodities"),
    score=("vp",),
    score_name="vp",
    goal=lambda header: header.setup.vp_goal,
    goal_label=lambda vp: f"{vp} VP",
    unrecorded=lambda header: frozenset(header.not_recorded) & {"trade_goods"},
)


# -- where VP come from, and what is declared of the result ------------------------------

STAGE_1, STAGE_2, OTHER_PUBLIC, SECRETS = "stage I objectives", "stage II objectives", "other public objectives", "secret objectives"
CUSTODIANS, IMPERIAL, AGENDAS, RELICS = "Custodians", "Imperial", "agendas", "relics"
SUPPORT, MANUAL, OTHER = "Support for the Throne", "manual adjustments", "other VP"

ORDER = (STAGE_1, STAGE_2, OTHER_PUBLIC, SECRETS, CUSTODIANS, IMPERIAL, AGENDAS, RELICS, SUPPORT, MANUAL, OTHER)
"""The sources in the order a reconciliation lists them (any other after, by name)."""

BY_ORIGIN = {
    "Custodians Token": CUSTODIANS,
    "Imperial Point": IMPERIAL,
    "Political Censure": AGENDAS, "Holy Planet of Ixth": AGENDAS, "Mutiny": AGENDAS, "Seed of an Empire": AGENDAS,
    "Imperial Rider": AGENDAS,
    "Shard of the Throne": RELICS, "The Crown of Emphidia": RELICS,
    "Support for the Throne": SUPPORT,
    "Manual VP update": MANUAL,
}
"""A ``vp_scored`` origin -> its source (TI4-VP-SOURCE's list: relics, agendas and riders...)."""

WORDS = {**{reference.key(origin): source for origin, source in BY_ORIGIN.items()},
         reference.key("Custodians"): CUSTODIANS, reference.key("Imperial"): IMPERIAL, reference.key("agenda"): AGENDAS,
         reference.key("relic"): RELICS, reference.key("manual"): MANUAL}
"""The first words of a ``vp_gained`` or ``vp_lost`` line's ``source`` that name a source ("Custodians token",
"Imperial: Mecatol Rex", "agenda: ..."), folded."""


def _named_by(text: str) -> str:
    """The source whose name a free text begins with (the longest that fits), else ``other VP``."""
    folded = reference.key(text)
    return next((source for words, source in sorted(WORDS.items(), key=lambda w: -len(w[0]))
                 if folded.startswith(words)), OTHER)


def source(recorded: Any) -> str | None:
    """The source of the VP a recorded line scores (None for a line that scores none)."""
    if isinstance(recorded, ObjectiveScored):
        if recorded.kind == "secret":
            return SECRETS
        card = reference.objective(recorded.objective)
        stage = card.stage if card is not None and card.kind == "public" else None
        return {1: STAGE_1, 2: STAGE_2}.get(stage, OTHER_PUBLIC)
    if isinstance(recorded, VpScored):
        return BY_ORIGIN.get(recorded.origin, recorded.origin)
    if isinstance(recorded, (VpGained, VpLost)):
        return _named_by(recorded.source)
    return None


def declarations(event: Any) -> list[Declared]:
    """The declarations a stored event makes: a recorded line's (``event`` of a ``LineRecorded``) or a weighing."""
    if isinstance(event, AdjustmentWeighed):
        return [Declared("adjustment", event.line, event.player, event.declared, origin=event.origin, held=event.held,
                         voids=event.voids, added=event.added)]
    line, recorded = getattr(event, "line", 0), getattr(event, "event", None)
    if isinstance(recorded, WinnerDeclared):
        return [Declared("winner", line, recorded.player, by=recorded.reason),
                *(Declared("score", line, player, score, by=recorded.reason) for player, score in recorded.scores.items())]
    if isinstance(recorded, ScoreDeclared):
        return [Declared("score", line, recorded.player, recorded.score, by=recorded.reason)]
    return []


RESULTS = ResultSources(source=source, order=ORDER, declarations=declarations,
                  types=("winner_declared", "score_declared", "adjustment_declared"))
