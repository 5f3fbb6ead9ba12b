"""The games gamelog knows, by the name a log's header gives in ``game``.

Each game's folder has the same modules (``events``, ``state``, ``rules``,
``game``, ``reference``); its ``game`` module exposes ``RULES``, a
:class:`GameRules` that ties them together. This registry is how the reader,
the store and the CLI find them without knowing any game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgspec


@dataclass(frozen=True)
class GameRules:
    """Everything generic code needs to know about one game.

    ``header_type`` and ``event_types`` are the Structs of the log format;
    ``engine`` is the class that applies the rules (``domain.engine.Engine``);
    ``stored_types`` lists every event class the store may hold for this game.
    """

    name: str
    header_type: type
    event_types: tuple[type, ...]
    engine: type
    stored_types: tuple[type, ...]
    header_decoder: Any = field(init=False, repr=False, compare=False)
    event_decoder: Any = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "header_decoder", msgspec.json.Decoder(self.header_type))
        union = self.event_types[0] if len(self.event_types) == 1 else _union(self.event_types)
        object.__setattr__(self, "event_decoder", msgspec.json.Decoder(union))


def _union(types: tuple[type, ...]) -> Any:
    from typing import Union

    return Union[types]  # noqa: UP007 - a runtime union of classes


def _load() -> dict[str, GameRules]:
    from domain.merchant_of_venus.game import RULES as MOV

    return {rules.name: rules for rules in (MOV,)}


GAMES: dict[str, GameRules] = _load()
