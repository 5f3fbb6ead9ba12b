"""The catalog row of a game, derived from its events: what an import writes, ``verify`` checks and a rebuild repairs.

The catalog (``gamelog_games``) is derived data, like the views: its game,
players, event count, last line, end and winner all follow from the stored
events. Its ``versions`` and ``fingerprint`` are different: they record the
chain as the import wrote it, which is what tamper evidence compares the
stored events with, so nothing re-derives them from the (possibly altered)
events.
"""

from __future__ import annotations

from typing import Any, Iterable

from gamelog.domain.games import GAMES
from gamelog.projections.store.application import GameStore, GameSummary
from gamelog.projections.store.chain import ChainBreak

TABLE = "gamelog_games"
DERIVED = ("game", "players", "events", "last_line", "finished", "winner")
"""The catalog's columns that follow from the events."""


def summarise(state: Any, versions: int, fingerprint: str) -> GameSummary:
    """The catalog row of a game whose state (``domain.engine.GameState``) is ``state``."""
    header = state.header
    return GameSummary(id=header.id, game=header.game, players=list(header.players), events=len(state.event_lines),
                       last_line=state.line, finished=state.ended is not None,
                       winner=state.ended.winner if state.ended else None, versions=versions, fingerprint=fingerprint)


def derive_summary(events: Iterable[Any], versions: int, fingerprint: str) -> GameSummary:
    """Fold a game's stored events (the header's first) into its catalog row.

    Raises :class:`~projections.store.errors.StoreDamaged` (from
    ``GameStore.history``) when the events cannot be read.
    """
    it = iter(events)
    first = next(it)
    engine = GAMES[first.event.game].engine.from_history([first], history=False)
    for event in it:
        engine.apply(event)
    return summarise(engine.state, versions, fingerprint)


def compare_summary(stored: GameSummary | None, derived: GameSummary) -> list[ChainBreak]:
    """Each derived column of the catalog row that differs from what the events give, as a problem."""
    if stored is None:
        return [ChainBreak(0, "derived", f"{TABLE}: no row for game {derived.id!r}, whose events are stored", TABLE)]
    problems = []
    for name in DERIVED:
        kept, right = getattr(stored, name), getattr(derived, name)
        if kept != right:
            problems.append(ChainBreak(0, "derived", f"{TABLE}: row {stored.id!r}: {name} is {_shown(kept)}; "
                                                  f"the events give {_shown(right)}", TABLE))
    return problems


def repair_catalog(store: GameStore, progress: Any = None) -> int:
    """Write every game's derived catalog columns again from its events; return how many rows changed.

    A game stored without its row (older gamelog stored a header-only log so)
    gets one, its ``versions`` and ``fingerprint`` those of the stored chain.
    The rows' ``versions`` and ``fingerprint`` are kept: they are the import's
    record that ``verify`` compares the events with; a row whose derived
    columns cannot be read (its players not JSON) is written again whole,
    keeping them. Raises :class:`~projections.store.errors.StoreDamaged` when
    a game's events cannot be read.
    """
    changed = 0
    records, kept = store.import_records(), store.readable_games()
    for game_id in store.stored_game_ids():
        versions, fingerprint = records.get(game_id) or (store.count_events(game_id), store.head(game_id).hex())
        derived = derive_summary(store.history(game_id), versions, fingerprint)
        if kept.get(game_id) != derived:
            with store.transaction() as cursor:
                store.save_summary(cursor, derived)
            changed += 1
    return changed


def rows_without_events(store: GameStore) -> list[str]:
    """The ids of the catalog's rows whose game has no stored event (its events deleted): nothing derives them,
    and a repair does not remove them (they are the record that the events were there)."""
    stored = set(store.stored_game_ids())
    return sorted(game_id for game_id in store.import_records() if game_id not in stored)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:60] + "..."

