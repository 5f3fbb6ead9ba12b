"""The shape of a TI Assistant export's values: one action-log entry, and checked access to JSON.

Every accessor raises ConversionError naming the JSON path of a value that is
missing or of the wrong kind, so that a malformed export is reported where it
is wrong.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from gamelog.domain.conversion import ConversionError


@dataclass(frozen=True)
class Entry:
    """One action-log entry: its index in the export, its kind, its payload and when it was recorded."""

    index: int
    action: str
    event: dict[str, Any]
    millis: int

    @property
    def path(self) -> str:
        """The JSON path of the entry's payload, for errors."""
        return f"$.actionLog[{self.index}].data.event"

    @property
    def source(self) -> str:
        return f"actionLog[{self.index}]"

    @property
    def at(self) -> str:
        return iso(self.millis)

    def text(self, key: str, within: dict[str, Any] | None = None, path: str | None = None) -> str:
        """A required non-empty string of the payload (or of ``within`` at ``path``).

        Raises ConversionError naming its path when it is missing or not a string.
        """
        obj, where = (self.event, self.path) if within is None else (within, path)
        return text(obj, key, where)


def iso(millis: int) -> str:
    """Milliseconds since the epoch as ISO 8601 UTC (``2025-02-08T15:03:14.796Z``)."""
    moment = datetime.fromtimestamp(millis // 1000, tz=timezone.utc)
    return f"{moment:%Y-%m-%dT%H:%M:%S}.{millis % 1000:03d}Z"


def text(obj: dict[str, Any], key: str, path: str) -> str:
    """``obj[key]`` as a non-empty string; raises ConversionError at ``path.key`` otherwise."""
    if key not in obj:
        raise ConversionError(f"{path}.{key}", f"missing key `{key}`")
    value = obj[key]
    if not isinstance(value, str) or not value:
        raise ConversionError(f"{path}.{key}", f"expected a non-empty string, not {json.dumps(value)[:40]}")
    return value


def member(obj: Any, key: str, path: str, kind: type, what: str) -> Any:
    """``obj[key]`` of JSON type ``kind`` (dict, list); raises ConversionError naming the path otherwise."""
    if not isinstance(obj, dict):
        raise ConversionError(path, f"expected an object ({what})")
    if key not in obj:
        raise ConversionError(f"{path}.{key}", f"missing key `{key}` ({what})")
    if not isinstance(obj[key], kind):
        raise ConversionError(f"{path}.{key}", f"expected {'an object' if kind is dict else 'an array'} ({what})")
    return obj[key]
