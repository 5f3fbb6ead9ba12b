"""Twilight Imperium 4 in ``replay --format json``: players' points and holdings, objectives, phase, speaker (docs/cli.md)."""

from __future__ import annotations

from msgspec import UNSET, UnsetType

from gamelog.domain import replay_document as common
from gamelog.domain.screen import ScreenFact, Panel, mark


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


def screen(document: dict) -> tuple[list[ScreenFact], list[Panel], dict[str, str]]:
    """Twilight Imperium 4 on the table's screen (``domain.screen``), as TI Assistant's main screen shows it: the
    round, phase, speaker and initiative order; the public objectives with who scored each, and the secrets
    scored (public once scored); each player's faction as their note."""
    players = document.get("players") or {}
    names = list(players)
    revealed = document.get("revealed_objectives") or []
    public = {o["objective"] for o in revealed}
    stage = {1: "I", 2: "II"}
    rows = [[o["objective"], stage.get(o.get("stage"), str(o.get("stage"))),
             *(mark(o["objective"] in (players[n].get("scored") or [])) for n in names)] for o in revealed]
    rows += [[objective, "secret", *(mark(n == holder) for n in names)]
             for holder in names for objective in players[holder].get("scored") or [] if objective not in public]
    facts = [ScreenFact(label=label, value=str(value)) for label, value in (
        ("Round", document.get("round")), ("Phase", document.get("phase")), ("Speaker", document.get("speaker")),
        ("Initiative", ", ".join(document.get("initiative_order") or [])), ("Goal", f"{document.get('vp_goal')} VP"))
        if value not in (None, "", "None VP")]
    panels = [Panel(title="Objectives", columns=["Objective", "Stage", *names], rows=rows),
              Panel(title="Players", columns=["Player", "Faction", "VP", "Trade goods", "Commodities", "Tokens"],
                    rows=[[n, p.get("faction") or "", str(p.get("vp", 0)), _count(p.get("trade_goods")),
                           f"{_count(p.get('commodities'))}/{_count(p.get('commodity_value'))}",
                           "/".join(_count(p.get(f"{pool}_tokens")) for pool in ("tactic", "fleet", "strategy"))]
                          for n, p in players.items()])]
    return facts, panels, {n: p.get("faction") or "" for n, p in players.items()}


def _count(value: object) -> str:
    return "?" if value is None else str(value)
