"""Which gamelog derived a store's views: a number kept beside them, so an upgrade re-derives them by itself.

The views are derived data: what a fold writes for an event is this code's
choice (a statistic counted anew, a column added), and a store keeps the rows
an earlier gamelog wrote. Comparing them with what this gamelog derives would
call every such row altered. So the views carry :data:`DERIVATION`, the number
of the way they were derived (``view_derivation``, one row); the keeper
derives the whole views again when it finds another number (or none, in a
store from before the number was kept), and ``verify`` says so in one line
rather than naming rows.

Raise :data:`DERIVATION` with any change to what the folds write for the same
events: ``tests/test_views_derivation.py`` fails, naming it, when the views of
the examples change and the number does not.
"""

from __future__ import annotations

from typing import Any

DERIVATION = 6
"""The way this gamelog derives the views. 1: the views of issue 20 (statistics); 2: TI4's VP by source from the
one classification (``measures.source``), a correction's change by the line it voids; 3: a game's score after
each period kept as rows of its part of the sums (``view_stat_parts``), not in its JSON; 4: replay snapshots
(``view_snapshots``, and each game's state kept in its running context: ``projections.views.snapshots``); 5: a TI4
line's objective named by the card's printed name once read, whichever spelling the line gives (its alias, another
letter case: issue 33), so the views of a stored line that gave an alias name the card (the examples' views, which
name every card so, are those of 4); 6: each player's seats summed by player and side (``what`` = ``player``: TI4's
per-player figures), and a TI4 state's faction by the name every output gives it (``reference.faction_name``), in
its snapshots.

A replay snapshot is a game's state as its folds make it: a change to a state's fold (``domain``) is a change to
the views too, and raises this number (the digest test folds every example's state after each line)."""

TABLE = "view_derivation"
SCHEMA = f"CREATE TABLE IF NOT EXISTS {TABLE} (derivation INTEGER NOT NULL)"


def derived_by(cursor: Any) -> int | None:
    """The number of the way the views on ``cursor`` were derived (None: not recorded, a store from before it was)."""
    cursor.execute(f"SELECT derivation FROM {TABLE}")
    row = cursor.fetchone()
    return None if row is None else int(row[0])


def record(cursor: Any) -> None:
    """Record, inside the caller's transaction, that this gamelog derives the views on ``cursor``."""
    cursor.execute(f"DELETE FROM {TABLE}")
    cursor.execute(f"INSERT INTO {TABLE} (derivation) VALUES (?)", (DERIVATION,))


def earlier(found: int | None) -> str:
    """In words: views derived by another gamelog (``found``: their number, None when they keep none)."""
    by = "a gamelog that kept no number" if found is None else f"derivation {found}"
    return f"the views were derived by an earlier gamelog ({by}; this one is derivation {DERIVATION})"
