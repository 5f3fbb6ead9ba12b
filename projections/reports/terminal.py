"""Text for a terminal: lines wrapped to a width with a hanging indent, aligned tables, fields named in words.

The text renderers (report, replay, audit) build their lines with these, so
that every one of them fits the width it is given (80 columns by default:
``cli`` passes the terminal's) and reads the same way.
"""

from __future__ import annotations

import textwrap
from typing import Any, Callable, Sequence

WIDTH = 80
"""The width text is wrapped to when no terminal says otherwise."""

MIN_WIDTH = 40
"""Narrower than this, wrapping makes things worse than letting the terminal fold the lines."""

Style = Callable[..., str]
"""How a line is styled: ``click.style`` on a terminal (``style(text, bold=True, fg="red")``), :func:`plain` elsewhere."""


def plain(text: str, **_: Any) -> str:
    """A line as it is: no style."""
    return text


def severity_color(severity: str) -> str:
    """The colour a finding of ``severity`` is shown in, by every text renderer (report, audit, what-if, validate)."""
    return {"violation": "red", "warning": "yellow"}.get(severity, "cyan")


class _Wrapper(textwrap.TextWrapper):
    """``textwrap``'s wrapping in time linear in the text's length, with the same lines.

    ``textwrap`` breaks a word longer than a line by cutting the line's part
    off the front of the rest of the word, copying that rest once a line: a
    word of n characters costs n**2 / width (a megabyte of control characters,
    each quoted as ``\\x01``, took seconds). Here such a word is first cut
    into pieces of :data:`PIECE` lines' width or more, each still longer
    than a line: ``textwrap`` fills each line from a piece exactly as from
    the whole word, and copies at most a piece a line.
    """

    def _split_chunks(self, text: str) -> list[str]:
        chunks = super()._split_chunks(text)
        size = PIECE * self.width
        if all(len(chunk) < 2 * size for chunk in chunks):
            return chunks
        out: list[str] = []
        for chunk in chunks:
            if len(chunk) < 2 * size:
                out.append(chunk)
                continue
            cut = range(0, len(chunk) - size, size)  # the last piece takes the rest: from size to 2 * size - 1
            out.extend(chunk[i:i + size] for i in cut[:-1])
            out.append(chunk[cut[-1]:])
        return out


PIECE = 4
"""A long word is cut into pieces this many lines wide or more (see :class:`_Wrapper`)."""


def wrap(text: str, width: int, indent: int | str = 0, hanging: int | None = None) -> list[str]:
    """``text`` as lines of at most ``width`` characters: the first indented by ``indent``, the rest by ``hanging``.

    ``indent`` is a number of spaces or a prefix (``"  12  "``); ``hanging``
    defaults to the prefix's length, so continuation lines start under the text.
    A word longer than a line is broken, so nothing overflows.
    """
    first = indent if isinstance(indent, str) else " " * indent
    rest = " " * (len(first) if hanging is None else hanging)
    # textwrap never ends when a prefix leaves no room on its line (it takes the empty rest of a word for ever):
    # a prefix wider than the width gets one character of text a line.
    width = max(width, MIN_WIDTH, len(first) + 1, len(rest) + 1)
    return _Wrapper(width=width, initial_indent=first, subsequent_indent=rest,
                    break_on_hyphens=False).wrap(text) or [first.rstrip()]


def table(header: Sequence[str], rows: Sequence[Sequence[str]], width: int, indent: str = "  ") -> list[str]:
    """An aligned table: numbers right-aligned, text left; columns past ``width`` go to a further block.

    The first column (what each row is) is repeated in every block, so each
    block reads on its own. A column's header is aligned as its cells are.
    """
    numeric = [i > 0 and all(_is_number(r[i]) for r in rows) for i in range(len(header))]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    blocks: list[list[int]] = [[]]
    used = len(indent) + widths[0]
    for i in range(1, len(header)):
        if blocks[-1] and used + 2 + widths[i] > max(width, MIN_WIDTH):
            blocks.append([])
            used = len(indent) + widths[0]
        blocks[-1].append(i)
        used += 2 + widths[i]
    out: list[str] = []
    for n, block in enumerate(blocks):
        if n:
            out.append("")
        for row in [header, *rows]:
            cells = [row[0].ljust(widths[0])] + [row[i].rjust(widths[i]) if numeric[i] else row[i].ljust(widths[i])
                                                 for i in block]
            out.append((indent + "  ".join(cells)).rstrip())
    return out


def _is_number(cell: str) -> bool:
    return cell.lstrip("+-").isdigit()


def label(key: str) -> str:
    """A field's name as words: ``trade_goods`` -> ``trade goods``, ``vp`` -> ``VP``."""
    return " ".join("VP" if word == "vp" else word for word in key.split("_"))
