"""gamelog: recorded tabletop games as an append-only, event-sourced history (docs/python-api.md).

Read a log and ask it anything, as python-chess reads a game::

    import gamelog

    game = gamelog.read_log("game.jsonl")      # a path, or a handle opened "rb"
    game.state(turn=3).players                 # every player at the end of turn 3
    game.findings                              # every finding, with its rule and line
    game.derivation(game.players[0])           # how a player's score was made, line by line

    with gamelog.open_store("tournament.sqlite") as store:
        store.import_log("game.jsonl")
        store.game(game.id).end().winner

This package is gamelog's service layer: the ``gamelog`` command calls the
same services (``gamelog.reporting``, ``gamelog.auditing``...). Its errors
are in :mod:`gamelog.errors`.
"""

from .errors import (BadInput, GameNotFound, GamelogError, InputError, LogInvalid, NotPlayedInRounds,
                     PlayerNotFound, PointNotInGame, StoreBusy, StoreDamaged, StoreError, StoreReadOnly)
from .game import Game, read_log
from .stores import ImportResult, Outcome, Store, open_store



def __getattr__(name: str) -> str:
    """``__version__``, read from the installed metadata when first asked for (importlib.metadata costs a
    command's start-up some 50 ms: only a program that asks pays it)."""
    if name != "__version__":
        raise AttributeError(f"module 'gamelog' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("gamelog")
    except PackageNotFoundError:  # imported from a checkout that was never installed
        return "0+unknown"

__all__ = ["BadInput", "Game", "GameNotFound", "GamelogError", "ImportResult", "InputError", "LogInvalid",
           "NotPlayedInRounds", "Outcome", "PlayerNotFound", "PointNotInGame", "Store", "StoreBusy", "StoreDamaged",
           "StoreError", "StoreReadOnly", "__version__", "open_store", "read_log"]
