"""A per-player view of any output: every name the player may not see replaced, wherever it stands (docs/secrets.md).

What is hidden is decided by the game (``domain.secrets.hidden_from``, each game's ``secrets.py``); this is the one
place that applies it, to whatever a command or the Python API gives: a document (a msgspec Struct: a replay
state, a report, an audit and its parts, a what-if), a stored event, or a string. It walks every field, list item,
dict key and value, and replaces each hidden name in every string (in any letter case, the longest names first) by
:data:`PLACEHOLDER`, so that a line's words, a note that quotes a secret, a finding's message, what the log says on
a voided line, a correction and the states the HTML replay embeds are covered alike, in every format, since every
format is rendered from these documents. The stored history is never changed: the view is derived from it.
With nothing hidden the view *is* the value given (the same object).
"""

from __future__ import annotations

import re
from typing import Any, Iterable, TypeVar

import msgspec

from gamelog.domain.replay_document import StreamedRows

T = TypeVar("T")

PLACEHOLDER = "[hidden]"
"""What a hidden name reads as in a player's view."""


class Redaction:
    """The names one player may not see at one point of a game, and the view of any value without them.

    ``hidden`` is what the game's plug-in decided (``domain.secrets.hidden_from``); an empty one changes nothing.
    """

    def __init__(self, hidden: Iterable[str] = (), placeholder: str = PLACEHOLDER):
        self.hidden = frozenset(name for name in hidden if name)
        self.placeholder = placeholder
        names = sorted(self.hidden, key=lambda name: (-len(name), name))  # "X II" before "X"
        self._pattern = re.compile("|".join(map(re.escape, names)), re.IGNORECASE) if names else None

    def __bool__(self) -> bool:
        """True when something is hidden."""
        return self._pattern is not None

    def hides(self, text: str) -> bool:
        """Whether ``text`` holds a hidden name."""
        return self._pattern is not None and self._pattern.search(text) is not None

    def text(self, text: str) -> str:
        """``text`` with every hidden name replaced."""
        if self._pattern is None:
            return text
        return self._pattern.sub(self.placeholder, text)

    def __call__(self, value: T) -> T:
        """The player's view of ``value``: a string, a msgspec Struct, a list, tuple or dict of them (at any depth),
        a copy with every hidden name replaced; any other value as it is. ``value`` itself is not changed."""
        if self._pattern is None:
            return value
        return self._walk(value)

    def each(self, values: Iterable[T]) -> Iterable[T]:
        """The view of each of ``values`` as it is read (a stream of periods, findings, entries...)."""
        if self._pattern is None:
            return values
        return (self._walk(value) for value in values)

    def _walk(self, value: Any) -> Any:
        if isinstance(value, StreamedRows):  # rows read as they are written: each seen as it is read
            return StreamedRows(lambda: (self._walk(row) for row in value))
        if isinstance(value, str):
            return self._pattern.sub(self.placeholder, value) if self._pattern.search(value) else value
        if isinstance(value, msgspec.Struct):
            changes = {}
            for name in value.__struct_fields__:
                field = getattr(value, name)
                seen = self._walk(field)
                if seen is not field:
                    changes[name] = seen
            return msgspec.structs.replace(value, **changes) if changes else value
        if isinstance(value, (list, tuple)):
            seen = [self._walk(item) for item in value]
            if all(a is b for a, b in zip(seen, value)):
                return value
            return type(value)(seen) if type(value) in (list, tuple) else value.__class__(*seen)
        if isinstance(value, dict):
            seen_items = [(self._walk(k), self._walk(v)) for k, v in value.items()]
            if all(k is k0 and v is v0 for (k, v), (k0, v0) in zip(seen_items, value.items())):
                return value
            out: dict[Any, Any] = {}
            for k, v in seen_items:
                while k in out:  # two hidden keys read alike: keep both entries (a dict keyed by a secret's name)
                    k = f"{k}'"
                out[k] = v
            return out
        return value


def audit_parts_view(parts: Any, redaction: Redaction) -> Any:
    """The player's view of an audit read as it is written (``projections.reports.audit.AuditParts``): its head,
    and each finding, correction and score entry as it is read."""
    if not redaction:
        return parts
    from gamelog.projections.reports.audit import AuditParts

    class _Viewed(AuditParts):
        def findings(self):  # type: ignore[no-untyped-def]
            return redaction.each(super().findings())

        def corrections(self):  # type: ignore[no-untyped-def]
            return redaction.each(super().corrections())

        def entries(self, player: str):  # type: ignore[no-untyped-def]
            return redaction.each(super().entries(player))

    return _Viewed(parts.cursor, redaction(parts.head), parts.players, parts.counts, parts.totals)
