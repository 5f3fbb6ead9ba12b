"""The games gamelog knows, by the name a log's header gives in ``game``.

Each game's folder has the same modules (``events``, ``state``, ``rules``,
``game``, ``reference``); its ``game`` module exposes ``RULES``, a
:class:`GameRules` that ties them together. This registry is how the reader,
the store and the CLI find them without knowing any game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
import importlib
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import msgspec


@dataclass(frozen=True)
class GameRules:
    """Everything generic code needs to know about one game.

    ``header_type`` and ``event_types`` are the Structs of the log format;
    ``engine`` is the class that applies the rules (``domain.engine.Engine``);
    ``stored_types`` lists every event class the store may hold for this game.
    ``converters`` maps the name ``--from`` takes (``ti-assistant``) to a function
    ``(export, game_id) -> domain.conversion.Conversion`` turning another tool's
    export of this game into a log.
    """

    name: str
    header_type: type
    event_types: tuple[type, ...]
    engine: type
    stored_types: tuple[type, ...]
    converters: Mapping[str, Callable[[Any, str | None], Any]] = field(default_factory=dict)
    header_decoder: Any = field(init=False, repr=False, compare=False)
    event_decoder: Any = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "header_decoder", msgspec.json.Decoder(self.header_type))
        union = self.event_types[0] if len(self.event_types) == 1 else _union(self.event_types)
        object.__setattr__(self, "event_decoder", msgspec.json.Decoder(union))


def _union(types: tuple[type, ...]) -> Any:
    from typing import Union

    return Union[types]  # a runtime union of the classes, for msgspec


class _Registry(Mapping[str, GameRules]):
    """Game name -> rules, importing a game's package only when it is first asked for."""

    def __init__(self, packages: dict[str, str]):
        self._packages = packages
        self._loaded: dict[str, GameRules] = {}

    def __getitem__(self, name: str) -> GameRules:
        if name not in self._loaded:
            package = self._packages[name]  # KeyError for an unknown game, as a Mapping should
            self._loaded[name] = importlib.import_module(f"domain.{package}.game").RULES
        return self._loaded[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._packages)

    def __len__(self) -> int:
        return len(self._packages)


GAMES: Mapping[str, GameRules] = _Registry({
    "merchant-of-venus": "merchant_of_venus",
    "uchronia": "uchronia",
    "twilight-imperium-4": "twilight_imperium",
})


def converters() -> dict[str, Callable[[Any, str | None], Any]]:
    """Every registered converter across the games, by the name ``--from`` takes."""
    return {name: convert for rules in GAMES.values() for name, convert in rules.converters.items()}
