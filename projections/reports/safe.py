"""User text made safe for each output: a terminal, a Markdown table, a spreadsheet.

A log is written by people and by other tools, so a player's name, a note or
a reason may hold anything. Printed raw, an ``ESC[2J`` clears the reader's
screen, a ``|`` or a newline breaks a Markdown table and ``<script>`` runs on
a forge that renders HTML, and a cell starting with ``=`` is a formula to a
spreadsheet (CSV formula injection). Each renderer passes user text through
the function for its output; none of them changes the stored log.
"""

from __future__ import annotations

import re
import unicodedata

_WHITESPACE_CONTROLS = re.compile(r"[\t\n\r\x0b\x0c\x85\u2028\u2029]")
# Bidirectional overrides and isolates reorder what a terminal shows (the "Trojan source" trick).
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def clean(text: str) -> str:
    """``text`` on one line with no control characters: line breaks and tabs become spaces, the others go.

    Removed: C0 and C1 controls (``ESC`` among them, so no terminal escape
    survives), ``DEL``, and the bidirectional overrides.
    """
    text = _WHITESPACE_CONTROLS.sub(" ", text)
    if text.isprintable():
        return text
    return "".join(c for c in text if c == " " or not (unicodedata.category(c) == "Cc" or c in _BIDI))


_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>|&~])")


def markdown(text: str | None) -> str:
    """``text`` for a Markdown table cell or heading: cleaned, and every character Markdown or HTML reads escaped.

    ``|`` would end the cell and ``<`` open an HTML tag (``<script>``); ``*``,
    ``_``, `````, ``[``, ``]``, ``~`` and ``&`` would format, link or name an
    entity. Each is backslash-escaped, which CommonMark renders as the
    character itself.
    """
    return _MARKDOWN_SPECIAL.sub(r"\\\1", clean(text or ""))


_CSV_KEPT = frozenset("\t\n\r")
"""The control characters a CSV cell keeps: a quoted cell holds line breaks and tabs as they are."""
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a CSV cell as a formula (OWASP, "CSV Injection")."""


def csv_cell(value: object) -> object:
    """A CSV cell: text without control characters but its line breaks and tabs (a CSV is read on terminals too:
    no escape, ``NUL`` or bidirectional override survives), and text that a spreadsheet would read as a formula
    gets a leading ``'``; numbers stay numbers."""
    if isinstance(value, str):
        if not value.isprintable():
            value = "".join(c for c in value if c in _CSV_KEPT or not (unicodedata.category(c) == "Cc" or c in _BIDI))
        if value.startswith(FORMULA_STARTS):
            return "'" + value
    return value
