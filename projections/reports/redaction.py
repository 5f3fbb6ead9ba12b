"""A per-player view of any output: every value the player may not see replaced, wherever it stands (docs/secrets.md).

What is hidden is decided by the game (``domain.secrets.hidden_from``, each game's ``secrets.py``: a
:class:`~gamelog.domain.secrets.Secrets`); this is the one place that applies it, to whatever a command or the
Python API gives: a document (a msgspec Struct: a replay state, a report, an audit and its parts, a what-if), a
stored event, or a string. It walks every field, list item, dict key and value, and hides a secret by what the
value is, not by its letters:

* a value that *is* the secret (it folds, as the game folds names, to one of its spellings: the card's name or
  alias in any letter case) reads :data:`PLACEHOLDER` whole;
* any other text (a line's words, a note, a correction's reason, a finding's message, a claim's derivation) has
  each secret replaced where it stands as whole words of one of its spellings (in any letter case, the longest
  first), never inside another word ("pe" is not hidden in "imperium"), and never inside a value the view shows
  as it is (``kept``: the game's id, its game's name, its players, as written).

Every format is rendered from these documents, so none has its own rule. The stored history is never changed: the
view is derived from it. With nothing hidden the view *is* the value given (the same object).
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from typing import Any, Iterable, Mapping, TypeVar

import msgspec

from gamelog.domain.replay_document import StreamedRows
from gamelog.domain.secrets import Secrets
from gamelog.projections.reports.documents import FindingCounts

T = TypeVar("T")

PLACEHOLDER = "[hidden]"
"""What a hidden value reads as in a player's view."""

_WORD = re.compile(r"[^\W_]+")
"""A run of letters and digits: a name's words, which a text may part by any spaces or punctuation."""

_APART = r"[\w-]"
"""What may not touch a hidden name in a text: a letter, digit, underscore or hyphen (it would be part of a longer
word or of an id, as "pe" is of "imperium" and of "pe-2024")."""


def _spelled(name: str) -> str:
    """The pattern of ``name`` as whole words of a text: its words in order, parted by any spaces or punctuation
    (a wrapped line, "Prove-Endurance"), with nothing word-like either side."""
    words = _WORD.findall(name)
    body = r"[\W_]*".join(map(re.escape, words)) if words else re.escape(name)
    return rf"(?<!{_APART}){body}(?!{_APART})"


class Redaction:
    """What one player may not see at one point of a game, and the view of any value without it.

    ``hidden`` is what the game's plug-in decided (``domain.secrets.hidden_from``: a
    :class:`~gamelog.domain.secrets.Secrets`, or bare names compared in any letter case); an empty one changes
    nothing. ``kept`` are values the view shows as they are (the game's id, its game's name, its players): never
    hidden, as a field's value or within a text, as written. ``withheld`` are the findings the view leaves out
    ((line, rule, message) as stored, with their severity; the game's counts less them). In a player's view, the
    other players' things (``others``, ``others_lines``) hide ``shared`` too: what the viewer holds and another
    player holds as well.
    """

    def __init__(self, hidden: Secrets | Iterable[str] = (), placeholder: str = PLACEHOLDER, kept: Iterable[str] = (),
                 withheld: Mapping[tuple[int, str, str], str] | None = None, shared: Iterable[str] = (),
                 others: Iterable[str] = (), others_lines: Iterable[int] = ()):
        secrets = hidden if isinstance(hidden, Secrets) else Secrets(frozenset(hidden))
        # A card the viewer holds that another player holds too (``shared``: drawn twice) is hidden in that player's
        # things (``others``: what names them; ``others_lines``: their lines) as their other secrets are, or the view
        # would tell that they hold it. The scope is a part of this one view (made in ``secrecy``).
        shared = frozenset(name for name in shared if name) - frozenset(secrets.names)
        self._others, self._others_lines = frozenset(others), frozenset(others_lines)
        self._theirs = None if not shared else type(self)(Secrets(frozenset(secrets.names) | shared, secrets.fold),
                                                          placeholder, kept, withheld)
        self.withheld = dict(withheld or {})
        """The findings the view leaves out, (line, rule, message) as stored, each with its severity: those the
        player could not have been told (``secrecy``'s ``_withheld``)."""
        self._fewer = Counter(self.withheld.values())  # severity -> how many the view leaves out
        self.hidden = frozenset(name for name in secrets.names if name)
        self.placeholder = placeholder
        names = sorted(self.hidden, key=lambda name: (-len(name), name))  # "X II" before "X"
        self._pattern = re.compile("|".join(map(_spelled, names)), re.IGNORECASE) if names else None
        self._fold = lru_cache(maxsize=1 << 14)(secrets.fold)  # a view's strings repeat (players, rules, cards)
        self._folded = frozenset(filter(None, map(secrets.fold, self.hidden)))
        # A value spelling a secret is about as long as a spelling: a longer text (a line's words) is not folded.
        self._spelling_at_most = 4 * max(map(len, self.hidden), default=0) + 8
        self._kept = frozenset(value for value in kept if value)
        shown = sorted(self._kept, key=lambda value: (-len(value), value))
        self._shown = re.compile("|".join(map(re.escape, shown))) if shown else None

    def __bool__(self) -> bool:
        """True when something is hidden (a name, or a finding)."""
        return self._pattern is not None or bool(self.withheld) or self._theirs is not None

    def _is_theirs(self, value: Any) -> bool:
        """Whether a Struct is another player's: it names them as its ``player``, or it is one of their lines (a
        line's document: its ``line`` with its player, words or event; not a state, which has ``players``)."""
        whose = getattr(value, "player", None)
        if isinstance(whose, str) and whose in self._others:
            return True
        on = getattr(value, "line", None)
        return (isinstance(on, int) and on in self._others_lines and not hasattr(value, "players")
                and any(hasattr(value, name) for name in ("player", "words", "text", "event", "entry")))

    def counted(self, counts: Mapping[str, int]) -> dict[str, int]:
        """The whole game's findings by severity (``counts``), as the view shows them: less those it leaves out."""
        return {severity: max(0, count - self._fewer[severity]) for severity, count in counts.items()}

    def _withholds(self, value: Any, line: int | None = None) -> bool:
        """Whether ``value`` is a finding the view leaves out (``line``: the line it sits on, for a finding that
        does not say it: a report's line's)."""
        if not self.withheld or not isinstance(value, msgspec.Struct):
            return False
        message, rule = getattr(value, "message", None), getattr(value, "rule", None)
        if not isinstance(message, str) or not isinstance(rule, str):
            return False
        return (getattr(value, "line", line), rule, message) in self.withheld

    def hides(self, text: str) -> bool:
        """Whether ``text`` holds a hidden name."""
        return self._pattern is not None and self._pattern.search(text) is not None

    def text(self, text: str) -> str:
        """``text`` as the view shows it: each secret's whole words replaced; a value that is a secret in a
        spelling no words give ("P.E.", folded as the game folds names), the placeholder."""
        if self._pattern is None or text in self._kept:
            return text
        if self._pattern.search(text):
            kept = [match.span() for match in self._shown.finditer(text)] if self._shown is not None else []

            def replaced(match: re.Match[str]) -> str:
                start, end = match.span()
                if any(a <= start and end <= b for a, b in kept):  # a word of a value shown as it is: "Pe", a player
                    return match.group()
                return self.placeholder

            seen = self._pattern.sub(replaced, text)
            if seen != text:
                return seen
        if len(text) <= self._spelling_at_most and self._fold(text) in self._folded:
            return self.placeholder
        return text

    def __call__(self, value: T) -> T:
        """The player's view of ``value``: a string, a msgspec Struct, a list, tuple or dict of them (at any depth),
        a copy with every hidden name replaced; any other value as it is. ``value`` itself is not changed."""
        if not self:
            return value
        return self._walk(value)

    def each(self, values: Iterable[T]) -> Iterable[T]:
        """The view of each of ``values`` as it is read (a stream of periods, findings, entries...), without the
        findings it leaves out."""
        if not self:
            return values
        return (self._walk(value) for value in values if not self._withholds(value))

    def _walk(self, value: Any, line: int | None = None) -> Any:
        if isinstance(value, StreamedRows):  # rows read as they are written: each seen as it is read
            return StreamedRows(lambda: (self._walk(row) for row in value if not self._withholds(row)))
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, FindingCounts) and self._fewer:  # the whole game's counts, less what is left out
            return msgspec.structs.replace(value, **self.counted(msgspec.structs.asdict(value)))
        if isinstance(value, msgspec.Struct):
            if self._theirs is not None and self._is_theirs(value):
                return self._theirs._walk(value, line)
            changes = {}
            on = getattr(value, "line", line)
            on = on if isinstance(on, int) else line
            for name in value.__struct_fields__:
                field = getattr(value, name)
                seen = self._walk(field, on)
                if seen is not field:
                    changes[name] = seen
            return msgspec.structs.replace(value, **changes) if changes else value
        if isinstance(value, (list, tuple)):
            seen = [self._walk(item, line) for item in value if not self._withholds(item, line)]
            if len(seen) == len(value) and all(a is b for a, b in zip(seen, value)):
                return value
            return type(value)(seen) if type(value) in (list, tuple) else value.__class__(*seen)
        if isinstance(value, dict):
            theirs = self._theirs
            whose = value.get("player")
            if theirs is not None and isinstance(whose, str) and whose in self._others:  # a log's line read as JSON
                return theirs._walk(value, line)
            seen_items = [(self._walk(k), theirs._walk(v) if theirs is not None and isinstance(k, str)
                           and k in self._others else self._walk(v)) for k, v in value.items()]
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

    return _Viewed(parts.cursor, redaction(parts.head), parts.players, redaction.counted(parts.counts), parts.totals)
