"""Twilight Imperium 4 in ``replay --format json``: players' points and holdings, objectives, phase, speaker (docs/cli.md)."""

from __future__ import annotations

from msgspec import UNSET, UnsetType

from gamelog.domain import replay_document as common


class Player(common.Document, kw_only=True, omit_defaults=True):
    """One player's faction, VP, trade goods, commodities and their value, command tokens, objectives, home;
    ``vp_by_source`` splits the VP (``stage I``, ``stage II``, ``secrets``, ``other``); ``color`` is the player's
    colour at the table, when the header's ``setup.colors`` names it: None otherwise, and then absent from the JSON
    (``omit_defaults``: ``color`` is the only field with a default).

    What the header's ``not_recorded`` names is null, never a number the log cannot know: ``trade_goods`` (for
    ``trade_goods``), the three token pools (for ``command_tokens``), ``secret_objectives_held`` (for
    ``secret_objectives``)."""

    faction: str | None
    vp: int
    trade_goods: int | None
    commodities: int
    commodity_value: int
    strategy_tokens: int | None
    tactic_tokens: int | None
    fleet_tokens: int | None
    scored: list[str]
    secret_objectives_held: list[str] | None
    controls_home_system: bool
    vp_by_source: dict[str, int]
    color: str | None = None


class Objective(common.Document, kw_only=True):
    """A public objective revealed, and its stage (1 or 2)."""

    objective: str
    stage: int


class Replay(common.Replay, kw_only=True, tag="twilight-imperium-4"):
    """The state of a Twilight Imperium 4 game; ``vp_goal`` is the VP that win (TI4-VP-GOAL); ``turn_of_round``
    counts the turns of the round under way from 1 (null before its first); ``not_recorded`` is the header's (what
    the log's source does not record), there only when it names something."""

    players: dict[str, Player]
    revealed_objectives: list[Objective]
    phase: str | None
    speaker: str
    initiative_order: list[str]
    vp_goal: int
    turn_of_round: int | None
    not_recorded: list[str] | UnsetType = UNSET
