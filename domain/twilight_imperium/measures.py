"""What Twilight Imperium counts: each player's VP (the score), trade goods and commodities.

The game ends when a player reaches the header's VP goal (TI4-VP-GOAL).
"""

from __future__ import annotations

from gamelog.domain.measures import Measures, change
from gamelog.domain.twilight_imperium.events import CommoditiesChanged, TradeGoodsChanged, VpChanged

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
