"""msgspec's error messages, read: the one module that depends on their wording.

msgspec says what is wrong with an input in a message only: its
``DecodeError`` and ``ValidationError`` carry no field, path or value apart
from the text. The reader (``domain.reader``) tells a log's errors in
gamelog's own words, at their JSON path, quoting the log's values itself,
so it must take msgspec's messages apart. Every reading of their wording is
here, and only here: the reader works from :class:`MsgspecMessage`.
``tests/test_msgspec_contract.py`` feeds msgspec an input for each wording
read here and fails, naming the installed msgspec version and the message it
got, when an upgrade rewords one; no other module of gamelog may hold these
words (:data:`WORDS`, checked by the same test).

Written against msgspec 0.23 (pyproject.toml allows 0.18 on); the messages read:

* ``... - at `$.setup.colors[0]``` : the JSON path of the value at fault, after
  any message about a value (none when the fault is the whole input). A path
  is ``$``, then ``.name`` for a field and ``[0]`` for an array's item;
  ``[...]`` stands for the value of a dict's key, which it does not name.
  msgspec passes the message of a ``ValueError`` raised by a top-level
  Struct's ``__post_init__`` on whole, so a header's own checks
  (``domain.events``, a game's ``events``) place their message at a path by
  ending it the same way;
* ``Object missing required field `name```;
* ``Object contains unknown field `name``` (the name as the log wrote it);
* ``Invalid enum value 'moon'``: a value no member of an enum or ``Literal``
  has; ``Invalid value 'moon'``: a tag no class of a tagged union has. Both
  echo the value with Python's ``repr`` (the reader quotes it itself);
* ``JSON is malformed: ...``: not JSON (msgspec's words after the colon say how);
* ``Invalid UTF-8 ...``: bytes that are not UTF-8.

Every other message (``Expected `int`, got `str```, ``Input data was
truncated``...) is passed on as msgspec wrote it: its wording is not read.
"""

from __future__ import annotations

import re
from typing import NamedTuple

import msgspec

MALFORMED = "malformed"
"""The input is not JSON; ``text`` is msgspec's account of why."""
NOT_UTF8 = "not UTF-8"
"""The input's bytes are not UTF-8."""
MISSING_FIELD = "missing field"
"""The object at ``path`` lacks the required field ``field``."""
UNKNOWN_FIELD = "unknown field"
"""The object at ``path`` holds ``field``, which its type does not have."""
BAD_ENUM = "bad enum value"
"""The value at ``path`` is none of its enum's or ``Literal``'s; ``echo`` precedes the value in msgspec's words."""
BAD_TAG = "bad tag"
"""The tag at ``path`` names no class of its tagged union; ``echo`` precedes the value in msgspec's words."""
OTHER = "other"
"""Any other message: ``text`` (without its path) is msgspec's, unread."""

_MISSING = re.compile(r"Object missing required field `([^`]+)`")
_UNKNOWN = re.compile(r"Object contains unknown field `(.*)`", re.S)
_AT = re.compile(r"^(.*) - at `([^`]+)`$", re.S)
_ECHOES = (("Invalid enum value ", BAD_ENUM), ("Invalid value ", BAD_TAG))
"""The starts of the messages that echo the input's value, and what each means."""
_MALFORMED = "JSON is malformed: "
_UTF8 = "UTF-8"
_PATH = re.compile(r"\$((?:\.[A-Za-z_]\w*|\[\d+\])*)")
_STEP = re.compile(r"\.([A-Za-z_]\w*)|\[(\d+)\]")

WORDS = ("Object missing required field", "Object contains unknown field", "Invalid enum value", "Invalid value ",
         _MALFORMED, "Invalid UTF-8")
"""msgspec's words this module reads, which no other module of gamelog may hold (the path's `` - at ``
excepted: a header's checks write it, see above)."""


class MsgspecMessage(NamedTuple):
    """A msgspec decoding error's message in parts: what is wrong (``kind``: a constant above) and where.

    ``text`` is msgspec's message without its path, ``path`` the JSON path it
    names (``$`` when it names none), ``field`` the field a ``MISSING_FIELD``
    or ``UNKNOWN_FIELD`` names, ``echo`` the words before the echoed value of
    a ``BAD_ENUM`` or ``BAD_TAG`` (``"Invalid enum value "``).
    """

    kind: str
    text: str
    path: str = "$"
    field: str = ""
    echo: str = ""


def read_message(exc: msgspec.MsgspecError) -> MsgspecMessage:
    """``exc``'s message in parts. Never raises: a message it cannot read is ``OTHER``, its text whole."""
    text = str(exc)
    # ValidationError is a DecodeError too: only a plain DecodeError means bad JSON.
    if not isinstance(exc, msgspec.ValidationError):
        if _UTF8 in text:
            return MsgspecMessage(NOT_UTF8, text)
        return MsgspecMessage(MALFORMED, text.removeprefix(_MALFORMED))
    path = "$"
    if m := _AT.match(text):
        text, path = m.group(1), m.group(2)
    if m := _MISSING.fullmatch(text):
        return MsgspecMessage(MISSING_FIELD, text, path, field=m.group(1))
    if m := _UNKNOWN.fullmatch(text):
        return MsgspecMessage(UNKNOWN_FIELD, text, path, field=m.group(1))
    for echo, kind in _ECHOES:
        if text.startswith(echo):
            return MsgspecMessage(kind, text, path, echo=echo)
    return MsgspecMessage(OTHER, text, path)


def path_steps(path: str) -> list[str | int] | None:
    """The fields (str) and indexes (int) of a msgspec JSON path: ``$.setup.colors[0]`` -> ``["setup", "colors", 0]``.

    None when the path cannot be followed (msgspec's ``[...]``, a dict's
    value, names no key).
    """
    if not (m := _PATH.fullmatch(path)):
        return None
    return [name if name else int(index) for name, index in _STEP.findall(m.group(1))]


def invalid_at(message: str, path: str) -> ValueError:
    """The ``ValueError`` a Struct's ``__post_init__`` raises for the value at ``path`` (``$.setup.threshold``):
    msgspec passes its text on in a ValidationError, and :func:`read_message` reads the path back out of it."""
    return ValueError(f"{message} - at `{path}`")
