"""What JSON forbids, or a log must not hold, that msgspec lets through: checked per line, cheaply.

msgspec decodes a line fast and typed, but it keeps the last of two equal keys,
raises ``RecursionError`` (no line, no path) on very deep nesting, and the
reader's stripping of a line would accept the ASCII whitespace JSON does not
(``\\x0b``, ``\\x0c``). Each function here answers one of these questions about
a line's bytes; none raises. They run on the error path, except the one
that runs on every decoded line, a cheap count (:func:`may_repeat_a_key`),
which leaves the exact search (:func:`repeated_key`) to the rare lines it
cannot clear: reading stays within a few percent of its speed without them.
"""

from __future__ import annotations

import json
import re
from typing import Any

from gamelog.domain.messages import quote

MAX_DEPTH = 64
"""Arrays and objects nested deeper than this are an input error (a log's own types nest 4 deep)."""

JSON_SPACE = b" \t\r\n"
"""The whitespace JSON allows around a value (RFC 8259, section 2)."""

_OTHER_SPACE = b"\x0b\x0c"
"""What ``bytes.strip()`` removes beyond JSON's whitespace."""

_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*+"|[\[\]{}]')
"""A JSON string (skipped whole, so brackets inside it do not count) or one bracket."""

_BACKSLASH = ord("\\")  # an int: ``in`` then looks for one byte (memchr), ten times faster than for b"\\"

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,59}")


_CURLY_QUOTES = ("\u201c", "\u201d", "\u2018", "\u2019", "\u201e", "\u00ab", "\u00bb")
"""The quotes a word processor or a phone keyboard types for ``"``: JSON knows none of them."""

_SINGLE_QUOTED = re.compile(r"""(?:^\{|[,:\[])\s*'|'\s*[:,}\]]""")
"""A single quote where JSON has a string's double quote: after ``{``, ``,``, ``:`` or ``[``, or before one."""

_TRAILING_COMMENT = re.compile(rb"[}\]]\s*(//|#)")
"""A comment after the object, on its line."""


def not_json(line: bytes) -> str | None:
    """What a ``line`` that is not JSON was meant to be, in words that say the fix (a comment after the object,
    single or curly quotes); None when it looks like no mistake in particular."""
    if (found := _TRAILING_COMMENT.search(line)) is not None:
        return (f"a comment after the object: in a log a comment is a line of its own, starting with `#`, "
                f"not text after `{found.group(1).decode()}`")
    text = line.decode("utf-8", "replace")
    if any(q in text for q in _CURLY_QUOTES):
        return ("curly quotes (\u201c \u201d \u2018 \u2019): JSON needs straight double quotes (\") around keys and "
                "strings")
    if _SINGLE_QUOTED.search(text):
        return "single quotes: JSON needs straight double quotes (\") around keys and strings"
    return None


def open_brackets(line: bytes) -> int:
    """How many more ``{`` and ``[`` than ``}`` and ``]`` ``line`` holds (those in strings do not count): above
    zero for the first lines of an object printed over several."""
    depth = 0
    for token in _TOKEN.finditer(line):
        kind = token[0][:1]
        if kind in b"[{":
            depth += 1
        elif kind in b"]}":
            depth -= 1
    return depth


def stray_space(line: bytes) -> str | None:
    """The message for non-JSON whitespace at the start or end of a stripped ``line``, or None."""
    for where, byte in (("start", line[:1]), ("end", line[-1:])):
        if byte and byte in _OTHER_SPACE:
            return f"non-JSON whitespace {quote(byte.decode())} at the {where} of the line (JSON allows space, tab, CR and LF)"
    return None


def too_deep(line: bytes) -> bool:
    """Whether arrays and objects nest deeper than :data:`MAX_DEPTH` in ``line`` (brackets in strings do not count)."""
    if line.count(b"[") + line.count(b"{") <= MAX_DEPTH:  # the usual case: too few brackets to nest that deep
        return False
    depth = 0
    for token in _TOKEN.finditer(line):
        kind = token[0][:1]
        if kind in b"[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif kind in b"]}":
            depth -= 1
    return False


def may_repeat_a_key(line: bytes, decoded_again: bytes) -> bool:
    """Whether ``line`` may hold a key twice in one object, given the encoding of what it decoded to.

    Every key is followed by a colon, and a colon outside strings is a key's.
    Decoding keeps one value per key (and drops defaulted fields) and encoding
    writes strings' colons as they were, so a line with a repeated key has
    more colons than ``decoded_again``: equal counts clear the line. A colon
    written as an escape (``\\u003a``) is the one way a string's colon is
    not counted in the line, so a line with a backslash is never cleared
    (looking for one byte is the cheapest test).
    """
    return _BACKSLASH in line or line.count(b":") != decoded_again.count(b":")


def repeated_key(line: bytes) -> tuple[str, str] | None:
    """A key that appears twice in one object of ``line``, and its JSON path: ``("player", "$.player")``; or None.

    None as well when ``line`` is not JSON: that is reported on its own.
    """
    try:
        found = _within(json.loads(line.decode(), object_pairs_hook=_object))  # UTF-8, as msgspec reads it
    except (ValueError, RecursionError):
        return None
    return None if found is None else (found.key, "$" + found.path)


class _Repeated:
    """Stands, while parsing, for an object that repeats ``key``; ``path`` is the key's, relative to the object."""

    def __init__(self, key: str, path: str):
        self.key = key
        self.path = path


def _object(pairs: list[tuple[str, Any]]) -> Any:
    """``json``'s hook for each object: a :class:`_Repeated` when it (or a value in it) repeats a key."""
    seen = set()
    for key, value in pairs:
        if key in seen:
            return _Repeated(key, step(key))
        seen.add(key)
        if (inner := _within(value)) is not None:
            return _Repeated(inner.key, step(key) + inner.path)
    return None  # the values themselves are not needed, only where a key repeats


def _within(value: Any) -> _Repeated | None:
    """The :class:`_Repeated` in ``value`` (itself, or in an array at any depth), with the path from ``value``."""
    if isinstance(value, _Repeated):
        return value
    if isinstance(value, list):
        for index, item in enumerate(value):
            if (inner := _within(item)) is not None:
                return _Repeated(inner.key, f"[{index}]{inner.path}")
    return None


def step(key: str) -> str:
    """One step of a JSON path: ``.name``, or ``[<quoted key>]`` for a key that is not a plain name."""
    return f".{key}" if _NAME.fullmatch(key) else f"[{quote(key)}]"
