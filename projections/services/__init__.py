"""gamelog: recorded tabletop games as an append-only, event-sourced history (docs/python-api.md).

Read a log and ask it anything, as python-chess reads a game::

    import gamelog

    game = gamelog.read_log("game.jsonl")      # a path, or a handle (binary or text)
    game.state(turn=3).players                 # every player at the end of turn 3
    game.findings                              # every finding, with its rule and line
    game.derivation(game.players[0])           # how a player's score was made, line by line

    with gamelog.open_store("tournament.sqlite") as store:
        store.import_log("game.jsonl")
        store.game(game.id).end().winner

This package is gamelog's service layer: the ``gamelog`` command calls the
same services (``gamelog.reporting``, ``gamelog.auditing``...). Its errors
are in :mod:`gamelog.errors`.

Every public name (``__all__``) is there after a plain ``import gamelog``, and
each is imported when first asked for: ``gamelog --version`` loads none of
them, and a program pays only for what it uses. The modules not in
``__all__`` are the services' internals: not attributes of the package.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any

_NAMES = {
    **dict.fromkeys(["BadInput", "GameNotFound", "GamelogError", "InputError", "LogInvalid", "NotPlayedInRounds",
                     "NotYourLine", "PlayerNotFound", "PointNotInGame", "StoreBusy", "StoreDamaged", "StoreError",
                     "StoreReadOnly"],
                    "errors"),
    "Game": "game", "read_log": "game",
    "ImportResult": "stores", "Outcome": "stores", "Store": "stores", "open_store": "stores",
}
"""Each public class and function, and the module of the package that holds it."""

SERVICES = ("auditing", "converting", "errors", "examples", "importing", "listing", "reconciling", "replaying",
            "reporting", "secrecy", "sources", "stats", "validating", "verifying", "views")
"""The service modules a program may use as the command does (docs/python-api.md, "The services")."""

FLOORS = ("cli", "domain", "projections")
"""The floors the package holds (docs/architecture.md): attributes once imported (``import gamelog.domain.reader``)."""

__all__ = sorted([*_NAMES, *SERVICES, "__version__"])


class _Package(types.ModuleType):
    """The package ``gamelog``, whose internal modules stay off it: importing ``gamelog.inputs`` (as a service
    does) would set it as an attribute of the package, and ``dir(gamelog)`` would list what is no API."""

    def __setattr__(self, name: str, value: Any) -> None:
        if (isinstance(value, types.ModuleType) and value.__name__ == f"{self.__name__}.{name}"
                and name not in SERVICES and name not in FLOORS):
            return  # an internal module: reached through sys.modules (``from .inputs import ...``), not the package
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def __getattr__(name: str) -> Any:
    """A public name, imported when first asked for; ``__version__`` read from the installed metadata
    (importlib.metadata costs a command's start-up some 50 ms: only a program that asks pays it).

    Raises AttributeError for any other name, an internal module's among them.
    """
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("gamelog")
        except PackageNotFoundError:  # imported from a checkout that was never installed
            return "0+unknown"
    if name in SERVICES:
        value: Any = importlib.import_module(f"{__name__}.{name}")
    elif name in _NAMES:
        value = getattr(importlib.import_module(f"{__name__}.{_NAMES[name]}"), name)
    else:
        raise AttributeError(f"module 'gamelog' has no attribute {name!r}")
    globals()[name] = value  # asked once: a plain attribute from then on
    return value


def __dir__() -> list[str]:
    return list(__all__)
