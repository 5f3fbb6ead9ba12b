"""Uchronia state: the Forum, each player's buildings, Operations limit and VP, the monopolies.

The state is only ever changed by folding events (``GameState.apply``); it
decides nothing. A player's VP are the sum of their :class:`VpChanged`
events, so the audit can show each entry.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


from gamelog.domain.engine import GameState, folds
from gamelog.domain.uchronia import replay_document
from gamelog.domain.events import TurnBegan, TurnFinished
from gamelog.domain.uchronia.events import (
    BuildingCompleted,
    BuildingStarted,
    ConstructionStarted,
    ForumChanged,
    LineRecorded,
    MonopolySet,
    ResourceMoved,
    ResourcePlaced,
    ThresholdReached,
    VpChanged,
)
from gamelog.domain.uchronia.reference import COLORS


@dataclass
class Site:
    """A building under construction: its color, cost, VP and the resources under it.

    ``placed`` counts the resources of its color (those that count toward its
    cost, UCH-COMPLETE); ``other`` those of another color the table put under
    it anyway (a UCH-MOVE violation, applied as recorded, never counted).
    """

    color: str
    cost: int
    vp: int
    line: int
    turn: int
    placed: int = 0
    other: int = 0


@dataclass(frozen=True)
class Built:
    """A completed building and the line whose resource completed it."""

    name: str
    color: str
    vp: int
    line: int


@dataclass
class Player:
    """One player's Residence: buildings built and being built, Operations limit, VP."""

    operations_limit: int
    vp: int = 0
    built: list[Built] = field(default_factory=list)
    under_construction: dict[str, Site] = field(default_factory=dict)


@dataclass
class Monopoly:
    """Who holds a color's monopoly, and with how many Operations of it."""

    player: str | None = None
    operations: int = 0


class UchroniaState(GameState):
    """The Forum, every player's Residence, the monopolies, the threshold and the bonus window."""

    LINE_RECORDED = LineRecorded
    CONSTANT = GameState.CONSTANT | {"threshold", "last_turn_card", "_in_use", "vp_changes"}

    by_player: dict[str, Player]
    forum: dict[str, int]
    monopolies: dict[str, Monopoly]
    reached: ThresholdReached | None
    bonus_open: BuildingCompleted | None

    def __init__(self, header: Any, header_line: int):
        super().__init__(header, header_line)
        self.threshold = header.threshold()
        self.last_turn_card = header.last_turn_holder()
        self.by_player = {p: Player(operations_limit=header.setup.operations_limit) for p in header.players}
        # The setup's Forum cards arrive as ForumChanged events (UchroniaEngine.open_game).
        self.forum = {c: 0 for c in COLORS}
        self.monopolies = {c: Monopoly() for c in COLORS}
        self.reached: ThresholdReached | None = None
        # UCH-MONOPOLY-BONUS: the completion a monopoly holder may still answer with a Forum card.
        self.bonus_open: BuildingCompleted | None = None
        # How many buildings of each name (case aside) are built or being built, for UCH-UNIQUE: kept by the
        # folds, dropped by a restore, counted again when next asked (None: not counted).
        self._in_use: dict[str, int] | None = None
        # Counts every change of anyone's VP (a fold or a restore): UCH-THRESHOLD need not be asked again while it
        # stands where the rule last found no one at the threshold (UchroniaEngine.note_threshold).
        self.vp_changes = 0

    def restore(self, snapshot: bytes) -> None:
        super().restore(snapshot)
        self._in_use = None
        self.vp_changes += 1

    def score(self, player: str) -> int:
        return self.by_player[player].vp

    # -- questions ---------------------------------------------------------------------

    def building_in_use(self, name: str) -> tuple[str, str, int] | None:
        """(player, "built" or "under construction", line) for a building of that name, case aside."""
        key = name.casefold()
        if key not in self._names_in_use():  # most names: no scan of every player's buildings
            return None
        for player, p in self.by_player.items():
            for b in p.built:
                if b.name.casefold() == key:
                    return player, "built", b.line
            for site_name, site in p.under_construction.items():
                if site_name.casefold() == key:
                    return player, "under construction", site.line
        return None

    def _names_in_use(self) -> dict[str, int]:
        if self._in_use is None:
            self._in_use = {}
            for p in self.by_player.values():
                for name in [b.name for b in p.built] + list(p.under_construction):
                    self._use(name, 1)
        return self._in_use

    def _use(self, name: str, n: int) -> None:
        """Count ``n`` more buildings named ``name`` in use (when they are being counted)."""
        if self._in_use is not None:
            key = name.casefold()
            count = self._in_use.get(key, 0) + n
            if count:
                self._in_use[key] = count
            else:
                self._in_use.pop(key, None)

    def built_by(self, player: str, name: str) -> Built | None:
        """The player's completed building of that name (case aside), if any."""
        return next((b for b in self.by_player[player].built if b.name.casefold() == name.casefold()), None)

    # -- facts stated by recorded lines ----------------------------------------------

    @folds(ConstructionStarted, ResourceMoved)
    def _building_action(self, line: int, event: ConstructionStarted | ResourceMoved) -> None:
        # Another building action means the last completion is no longer "just now".
        self.bonus_open = None

    @folds(TurnBegan)
    def _turn_began(self, event: TurnBegan) -> None:
        super()._turn_began(event)
        self.bonus_open = None

    @folds(TurnFinished)
    def _turn_finished(self, event: TurnFinished) -> None:
        super()._turn_finished(event)
        self.bonus_open = None

    # -- derived events ----------------------------------------------------------------

    @folds(ForumChanged)
    def _forum(self, e: ForumChanged) -> None:
        self.forum[e.color] += e.count
        if e.rule == "UCH-MONOPOLY-BONUS" and e.count < 0:
            self.bonus_open = None  # one card per completion

    @folds(BuildingStarted)
    def _started(self, e: BuildingStarted) -> None:
        sites = self.by_player[e.player].under_construction
        if not e.undoes:
            if e.building not in sites:
                sites[e.building] = Site(e.color, e.cost, e.vp, e.line, e.turn)
                self._use(e.building, 1)
        elif e.building in sites and sites[e.building].line == e.undoes:
            del sites[e.building]
            self._use(e.building, -1)

    @folds(ResourcePlaced)
    def _placed(self, e: ResourcePlaced) -> None:
        site = self.by_player[e.player].under_construction.get(e.building)
        if site is None:
            return
        if e.counts:
            site.placed += e.count
        else:
            site.other += e.count

    @folds(BuildingCompleted)
    def _completed(self, e: BuildingCompleted) -> None:
        p = self.by_player[e.player]
        if not e.undoes:
            if p.under_construction.pop(e.building, None) is not None:
                self._use(e.building, -1)
            p.built.append(Built(e.building, e.color, e.vp, e.line))
            self._use(e.building, 1)
            p.operations_limit = e.operations_limit
            self.bonus_open = e
            return
        kept = [b for b in p.built if not (b.name == e.building and b.line == e.undoes)]
        self._use(e.building, len(kept) - len(p.built))
        p.built = kept
        if e.building not in p.under_construction:
            self._use(e.building, 1)
        p.under_construction[e.building] = Site(e.color, e.cost, e.vp, e.started_line, e.started_turn, placed=e.cost)
        p.operations_limit = e.operations_limit - 1
        if self.bonus_open is not None and self.bonus_open.line == e.undoes:
            self.bonus_open = None

    @folds(VpChanged)
    def _vp(self, e: VpChanged) -> None:
        self.by_player[e.player].vp += e.delta
        self.vp_changes += 1

    @folds(MonopolySet)
    def _monopoly(self, e: MonopolySet) -> None:
        self.monopolies[e.color] = Monopoly(e.player, e.operations)

    @folds(ThresholdReached)
    def _reached(self, e: ThresholdReached) -> None:
        self.reached = e

    # -- output ------------------------------------------------------------------------

    def monopolies_of(self, player: str) -> list[str]:
        """The colors whose monopoly ``player`` holds."""
        return [c for c, m in self.monopolies.items() if m.player == player]

    DOCUMENT = replay_document.Replay

    def document_fields(self) -> dict[str, Any]:
        """Its players, and the rest of its part of ``replay --format json``."""
        players = {
            name: replay_document.Player(
                vp=p.vp,
                built=[b.name for b in p.built],
                under_construction={n: s.placed for n, s in p.under_construction.items()},
                operations_limit=p.operations_limit,
                monopolies={c: self.monopolies[c].operations for c in self.monopolies_of(name)},
                buildings=[replay_document.Building(name=b.name, color=b.color, vp=b.vp, line=b.line) for b in p.built],
            )
            for name, p in self.by_player.items()
        }
        return {
            "players": players,
            "end": self._end_document(),
            "monopolies": {c: replay_document.Monopoly(player=m.player, operations=m.operations) for c, m in self.monopolies.items()},
            "threshold": self._threshold_document(),
            "last_turn_card": self.last_turn_card,
        }

    def board(self) -> dict[str, int]:
        """The Forum: its cards by color."""
        return dict(self.forum)

    def _threshold_document(self) -> replay_document.Threshold:
        r = self.reached
        if r is None:
            return replay_document.Threshold(vp=self.threshold, reached=False)
        return replay_document.Threshold(vp=self.threshold, reached=True, by=r.player, line=r.line, turn=r.turn, with_vp=r.vp)

    def _end_document(self) -> replay_document.End | None:
        e = self.ended
        return None if e is None else replay_document.End(line=e.line, winner=e.winner, rule=e.rule, reason=e.reason)
