"""Converters: another tool's record of a game in, a log in format v1 out (the contract every game's converters keep).

A converter is pure: it takes the other tool's export (its bytes, or the JSON
already parsed) and an optional game id, and returns a :class:`Conversion`:
the log's lines (the header first) with a :class:`Summary` of what it did
with each kind of entry. It reads and writes no file; the CLI owns files and
their names. Each game lists its converters in its ``GameRules.converters``
(``domain.games``), by the name ``--from`` takes.

Nothing is invented and nothing is dropped: an entry becomes the log events it
records, or a ``note`` line that keeps it when the log format has no event for
it. Every line carries ``source`` (the entry it came from) and ``at`` (when it
was recorded).

An export that is malformed or is not what the converter reads raises
:class:`ConversionError`, naming the JSON path of the offending value.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any


class ConversionError(ValueError):
    """The export cannot be converted: ``message`` says why, ``path`` where (``$.actionLog[3].data``).

    Read as an input error: ``FILE: <message> at <path>``.
    """

    def __init__(self, path: str, message: str):
        super().__init__(f"{message} at {path}")
        self.path = path
        self.message = message

    def describe(self, filename: str) -> str:
        """The error as users read it: ``FILE: <message> at $.path``."""
        return f"{filename}: {self.message} at {self.path}"


@dataclass
class KindCount:
    """What became of one kind of entry: each entry is either translated or kept as a note."""

    entries: int = 0
    translated: int = 0
    noted: int = 0


@dataclass
class Summary:
    """What a conversion did: per kind of source entry, how many were translated or kept as notes.

    ``types`` counts the log lines written by their ``type`` (the header included).
    """

    source_format: str
    entries: int = 0
    kinds: dict[str, KindCount] = field(default_factory=dict)
    types: dict[str, int] = field(default_factory=dict)

    def count(self, kind: str, translated: bool) -> None:
        """Record one source entry of ``kind``: translated, or kept as a note."""
        c = self.kinds.setdefault(kind, KindCount())
        c.entries += 1
        self.entries += 1
        if translated:
            c.translated += 1
        else:
            c.noted += 1

    @property
    def lines(self) -> int:
        return sum(self.types.values())

    def to_json(self) -> dict[str, Any]:
        return {
            "from": self.source_format,
            "entries": self.entries,
            "lines": self.lines,
            "kinds": {k: vars(c) for k, c in sorted(self.kinds.items())},
            "types": dict(sorted(self.types.items())),
        }

    def describe(self) -> str:
        """A table for people: each kind, its entries, how many translated and kept as notes."""
        width = max([len(k) for k in self.kinds] + [4])
        rows = [f"{'kind':<{width}}  entries  translated  notes"]
        for kind, c in sorted(self.kinds.items(), key=lambda kv: (-kv[1].entries, kv[0])):
            rows.append(f"{kind:<{width}}  {c.entries:>7}  {c.translated:>10}  {c.noted:>5}")
        translated = sum(c.translated for c in self.kinds.values())
        noted = sum(c.noted for c in self.kinds.values())
        rows.append(f"{'total':<{width}}  {self.entries:>7}  {translated:>10}  {noted:>5}")
        written = ", ".join(f"{t} {n}" for t, n in sorted(self.types.items()))
        rows.append(f"{self.lines} log lines written: {written}")
        return "\n".join(rows)


@dataclass
class Conversion:
    """A converted game: the log's lines as JSON objects (header first) and the summary."""

    lines: list[dict[str, Any]]
    summary: Summary

    def to_bytes(self) -> bytes:
        """The log as JSON Lines (UTF-8, LF, one object per line)."""
        return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in self.lines).encode("utf-8")
