"""Twilight Imperium 4 in ``replay --format json``: players' points and holdings, objectives, phase, speaker (docs/cli.md)."""

from __future__ import annotations

from gamelog.domain import replay_document as common


class Player(common.Document, kw_only=True):
    """One player's faction, VP, trade goods, commodities and their value, command tokens, objectives, home."""

    faction: str | None
    vp: int
    trade_goods: int
    commodities: int
    commodity_value: int
    strategy_tokens: int
    tactic_tokens: int
    fleet_tokens: int
    scored: list[str]
    secret_objectives_held: list[str]
    controls_home_system: bool


class Objective(common.Document, kw_only=True):
    """A public objective revealed, and its stage (1 or 2)."""

    objective: str
    stage: int


class Replay(common.Replay, kw_only=True, tag="twilight-imperium-4"):
    """The state of a Twilight Imperium 4 game; ``vp_goal`` is the VP that win (TI4-VP-GOAL)."""

    players: dict[str, Player]
    revealed_objectives: list[Objective]
    phase: str | None
    speaker: str
    initiative_order: list[str]
    vp_goal: int
