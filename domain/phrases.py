"""How a recorded line reads in words ("Qossuth buys 2 Melf Pelts..."): the events every game has, and the fallback.

A phrase is filled from the event's fields as the log names them. Each game's
``phrases`` module holds the phrases of its own events (``PHRASES``, by
``type``); :class:`~domain.games.GameRules` puts them after the ones here. A
type without a phrase (a new one, say), or a phrase that needs a field the
line lacks, falls back to the fields in log order, so nothing is ever left out
of a report.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Callable, Mapping

from gamelog.domain.events import ScoreClaimed

Phrase = Callable[[dict[str, Any]], str]
"""The words of one event type, from its fields (by their names in the log)."""


def claimed(fields: dict[str, Any]) -> int:
    """The score a ``score_claimed`` line claims, whichever of its fields states it (for a game's own words)."""
    return next(fields[name] for name in ScoreClaimed.STATED if fields.get(name) is not None)


def either(field: str, yes: str, no: str = "") -> Phrase:
    """``yes`` when the line's ``field`` is set (true, non-empty), else ``no``."""
    return lambda f: yes if f.get(field) else no


COMMON: dict[str, Phrase] = {
    "turn_started": lambda f: f"{f['player']}'s turn begins",
    "turn_ended": lambda f: f"{f['player']} ends the turn",
    "correction": lambda f: f"line {f['voids']} is void: {f['reason']}",
    "note": lambda f: f"note: {f['text']}",
    "score_claimed": lambda f: f"{f['player']} claims a score of {claimed(f)}",
}
"""The phrases of ``domain.events.COMMON_EVENTS``."""


def tell(event: Any, phrases: Mapping[str, Phrase]) -> tuple[str, str | None, str]:
    """(type, player, words) for a recorded event, with ``phrases`` by type."""
    tag, fields = _shape(type(event))
    values = {encoded: getattr(event, name) for name, encoded in fields}
    words = phrases.get(tag)
    if words is not None:
        try:
            return tag, values.get("player"), words(values)
        except (KeyError, TypeError):
            pass  # a field the phrase needs is absent: say it plainly below
    return tag, values.get("player"), _plain(tag, values)


def _plain(tag: str, values: dict[str, Any]) -> str:
    parts = [f"{key} {value if type(value) in (str, int) else json.dumps(value, ensure_ascii=False)}"
             for key, value in values.items()
             if key not in ("player", "at", "source") and value not in (None, [], False)]
    return tag.replace("_", " ") + (": " + ", ".join(parts) if parts else "")


@lru_cache(maxsize=None)
def _shape(cls: type) -> tuple[str, tuple[tuple[str, str], ...]]:
    """A recorded event class's tag and its (attribute, name in the log) pairs."""
    return cls.__struct_config__.tag, tuple(zip(cls.__struct_fields__, cls.__struct_encode_fields__))
