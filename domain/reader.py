"""Reading a recorded log (format v1): bytes in, typed events out, every error kept.

The reader takes bytes or an open binary handle, never a path: the caller owns
files and their names. It reads line by line, so each error knows its line and
a log of any length is read in constant memory. It collects every input error
of the file instead of stopping at the first (``LogReader.errors``); a caller
that must not act on a bad file checks ``errors`` once the events are consumed.

Blank lines and lines whose first non-blank character is ``#`` are skipped but
counted: an event's position is its line number in the file.
"""

from __future__ import annotations

import io
import re
from typing import BinaryIO, Iterator

import msgspec

from domain.errors import InputError
from domain.events import PLAYER, Recorded
from domain.games import GAMES, GameRules

_BOM = b"\xef\xbb\xbf"
_MISSING = re.compile(r"Object missing required field `([^`]+)`(?: - at `([^`]+)`)?")
_UNKNOWN = re.compile(r"Object contains unknown field `([^`]+)`(?: - at `([^`]+)`)?")
_AT = re.compile(r"^(.*) - at `([^`]+)`$", re.S)


class _HeaderProbe(msgspec.Struct):
    """Just enough of the first object to know which game's types read the rest."""

    type: str | None = None
    game: str | None = None


_probe = msgspec.json.Decoder(_HeaderProbe)


def _describe(exc: msgspec.MsgspecError) -> tuple[str, str]:
    """Turn a msgspec error into (message, JSON path) in our own words."""
    text = str(exc)
    # ValidationError is a DecodeError too: only a plain DecodeError means bad JSON.
    if not isinstance(exc, msgspec.ValidationError):
        if "UTF-8" in text:
            return "invalid UTF-8 in a string", "$"
        return "invalid JSON: " + text.removeprefix("JSON is malformed: "), "$"
    if m := _MISSING.fullmatch(text):
        base = m.group(2) or "$"
        return "missing required field", f"{base}.{m.group(1)}"
    if m := _UNKNOWN.fullmatch(text):
        base = m.group(2) or "$"
        return "unknown field", f"{base}.{m.group(1)}"
    if m := _AT.match(text):
        message, path = m.group(1), m.group(2)
        if path == "$.type" and message.startswith("Invalid value"):
            return "unknown event type " + message.removeprefix("Invalid value "), path
        return message, path
    return text, "$"


class LogReader:
    """Reads one log: ``header`` first, then ``events()`` yields ``(line, event)``.

    Construct it with the log's bytes or an open binary handle. The header is
    read at construction; if it is missing or malformed, ``header`` is None and
    ``errors`` says why (no event can then be typed). ``events()`` yields every
    well-formed event line and appends each bad one to ``errors``.
    """

    def __init__(self, source: bytes | BinaryIO):
        self._lines = iter(io.BytesIO(source) if isinstance(source, (bytes, bytearray)) else source)
        self.errors: list[InputError] = []
        self.line = 0
        self.header = None
        self.rules: GameRules | None = None
        self.header_line = 0
        self._read_header()

    def _next_significant(self) -> tuple[int, bytes] | None:
        """The next line that is neither blank nor a comment, with its number."""
        for raw in self._lines:
            self.line += 1
            if self.line == 1 and raw.startswith(_BOM):
                self.errors.append(InputError(1, "the file starts with a UTF-8 byte order mark (BOM); save it as UTF-8 without BOM"))
                raw = raw[3:]
            if raw.endswith(b"\r\n"):
                self.errors.append(InputError(self.line, "the line ends with CRLF; logs use LF line endings"))
                raw = raw[:-2]
            stripped = raw.strip()
            if not stripped or stripped.startswith(b"#"):
                continue
            return self.line, stripped
        return None

    def _read_header(self) -> None:
        found = self._next_significant()
        if found is None:
            self.errors.append(InputError(max(self.line, 1), 'the log is empty: it needs a header line ({"type": "game", ...})'))
            return
        line, raw = found
        self.header_line = line
        try:
            probe = _probe.decode(raw)
        except msgspec.MsgspecError as exc:
            self.errors.append(InputError(line, *_describe(exc)))
            return
        if probe.type != "game":
            self.errors.append(InputError(line, 'the first object must be the game header, "type": "game"', "$.type"))
            return
        rules = GAMES.get(probe.game or "")
        if rules is None:
            known = ", ".join(sorted(GAMES))
            self.errors.append(InputError(line, f"unknown game {probe.game!r} (known: {known})", "$.game"))
            return
        try:
            self.header = rules.header_decoder.decode(raw)
        except msgspec.MsgspecError as exc:
            self.errors.append(InputError(line, *_describe(exc)))
            return
        self.rules = rules

    def events(self) -> Iterator[tuple[int, Recorded]]:
        """Every well-formed event after the header, with its line number."""
        if self.header is None:
            return
        decode = self.rules.event_decoder.decode
        players = frozenset(self.header.players)
        errors = self.errors
        while (found := self._next_significant()) is not None:
            line, raw = found
            try:
                event = decode(raw)
            except msgspec.MsgspecError as exc:
                message, path = _describe(exc)
                if path == "$.type" and "'game'" in message:
                    message = "a second game header; the header stands on the first line only"
                errors.append(InputError(line, message, path))
                continue
            # The common case, one `player` field naming a player, is checked inline (it is most lines).
            if event.PLAYER_FIELDS is not PLAYER or event.player not in players:
                bad = _unknown_player(event, players)
                if bad is not None:
                    errors.append(InputError(line, *bad))
                    continue
            yield line, event


def _unknown_player(event: Recorded, players: frozenset[str]) -> tuple[str, str] | None:
    """(message, path) when a field that names a player names none of the header's."""
    for field, others in event.PLAYER_FIELDS.items():
        value = getattr(event, field)
        names = value if isinstance(value, list) else (value,)  # a field may list several players
        for index, name in enumerate(names):
            if name is not None and name not in players and name not in others:
                allowed = ", ".join(sorted(players | others))
                encoded = dict(zip(event.__struct_fields__, event.__struct_encode_fields__))[field]
                where = f"[{index}]" if isinstance(value, list) else ""
                return f"unknown player {name!r} (one of: {allowed})", f"$.{encoded}{where}"
    return None
