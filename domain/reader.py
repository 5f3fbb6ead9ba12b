"""Reading a recorded log (format v1): bytes in, typed events out, every error kept.

The reader takes bytes or an open binary handle, never a path: the caller owns
files and their names. It reads line by line, so each error knows its line and
a log of any length is read in constant memory. It collects every input error
of the file instead of stopping at the first (``LogReader.errors``); a caller
that must not act on a bad file checks ``errors`` once the events are consumed.

Blank lines and lines whose first non-blank character is ``#`` are skipped but
counted: an event's position is its line number in the file.

A mistake that would give an error on every line it touches is said once, with
its fix: CRLF line endings (at the first line that has them), one object
printed over several lines (at its first line, naming the last), a JSON array
instead of JSON Lines. A message names what would be right where the game's
types tell it (``domain.expected``): the field or value meant, the fields a
line takes, the values a field may hold.

Beyond what the types say, a line must be strict JSON (no key twice in an
object, nesting at most 64 deep, no whitespace JSON does not allow:
``domain.strict_json``), every integer within its range (``domain.events``),
and a log at most ``MAX_LINES`` long. A message quotes the log's values with
``domain.messages.quote``, so that every input error is one printable line.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from itertools import islice
from typing import Any, BinaryIO, Callable, Iterator

import msgspec

from gamelog.domain.errors import InputError
from gamelog.domain.events import FORMAT_VERSION, MAX_LINES, PLAYER, Correction, Recorded, is_iso_8601
from gamelog.domain.games import GAMES, GameRules
from gamelog.domain import expected
from gamelog.domain.messages import MESSAGE_LIMIT, cut, did_you_mean, quote
from gamelog.domain.msgspec_wording import (
    BAD_ENUM, BAD_TAG, MALFORMED, MISSING_FIELD, NOT_UTF8, UNKNOWN_FIELD, path_steps, read_message)
from gamelog.domain.strict_json import (
    JSON_SPACE, MAX_DEPTH, may_repeat_a_key, not_json, open_brackets, repeated_key, step, stray_space, too_deep)

_BOM = b"\xef\xbb\xbf"
_NOT_FOUND = object()


class _HeaderProbe(msgspec.Struct):
    """Just enough of the first object to know which game's types read the rest (any JSON fits)."""

    type: Any = None
    game: Any = None
    players: Any = None
    version: Any = None


_probe = msgspec.json.Decoder(_HeaderProbe)
_any_object = msgspec.json.Decoder(dict)
_any_value = msgspec.json.Decoder().decode  # generic: an object decodes to a dict, one value per key
_encode = msgspec.json.Encoder().encode


def _error(line: int, message: str, path: str = "$") -> InputError:
    """An input error whose message and path are printable and of bounded length, whatever the log holds."""
    return InputError(line, cut(message), cut(path, MESSAGE_LIMIT))


def _line_error(line: int, raw: bytes, exc: Exception, rules: GameRules | None = None,
                header: bool = False) -> InputError:
    """The input error of a line that did not decode: what JSON forbids first, then what the types say (of the
    game ``rules``, when known: the header line's, or an event's; ``domain.expected`` names what would be right)."""
    if (message := stray_space(raw)) is not None:
        return _error(line, message)
    if isinstance(exc, RecursionError) or too_deep(raw):
        return _error(line, f"arrays and objects nested deeper than {MAX_DEPTH} levels")
    if (repeated := repeated_key(raw)) is not None:
        return _repeated(line, repeated)
    return _error(line, *_describe(exc, raw, rules, header))


def _repeated(line: int, repeated: tuple[str, str]) -> InputError:
    """The input error of a key repeated in one object: ``repeated`` is the key and its path (``strict_json``)."""
    key, path = repeated
    return _error(line, f"duplicate key {quote(key)}: a key appears at most once in an object", path)


def _describe(exc: msgspec.MsgspecError, raw: bytes, rules: GameRules | None = None,
              header: bool = False) -> tuple[str, str]:
    """Turn a msgspec error into (message, JSON path) in our own words, quoting the log's values safely; with the
    game's ``rules``, naming the field or value that would be right (``domain.expected``)."""
    said = read_message(exc)
    if said.kind == NOT_UTF8:
        return "invalid UTF-8 in a string", "$"
    if said.kind == MALFORMED:
        return not_json(raw) or "invalid JSON: " + said.text, "$"
    line_type = expected.line_type(rules, header, _value_at(raw, "$.type")) if rules is not None else None
    steps = path_steps(said.path)
    if said.kind == MISSING_FIELD:
        return "missing required field", f"{said.path}.{said.field}"
    if said.kind == UNKNOWN_FIELD:
        if line_type is not None and steps is not None:
            return expected.unknown_field(line_type, steps, said.field), said.path + step(said.field)
        return "unknown field", said.path + step(said.field)
    if said.kind in (BAD_ENUM, BAD_TAG) and (value := _value_at(raw, said.path)) is not _NOT_FOUND:
        if said.kind == BAD_TAG and said.path == "$.type":
            if value == "game":
                return "a second game header; the header stands on the first line only", said.path
            guess = did_you_mean(value, expected.event_types(rules)) if rules is not None else None
            return f"unknown event type {quote(value)}{': ' + guess if guess else ''}", said.path
        if line_type is not None and steps is not None and (
                message := expected.bad_value(line_type, steps, quote(value), value)) is not None:
            return message, said.path
        return f"{quote(value)} is none of the values this field may hold", said.path
    return said.text, said.path


def _value_at(raw: bytes, path: str) -> Any:
    """The value at a JSON path such as ``$.players[0]`` of ``raw`` (:data:`_NOT_FOUND` if it cannot be told)."""
    steps = path_steps(path)
    if steps is None:
        return _NOT_FOUND
    try:
        value = msgspec.json.decode(raw)
        for key in steps:
            value = value[key]
    except (msgspec.MsgspecError, RecursionError, LookupError, TypeError):
        return _NOT_FOUND
    return value


_HASH = ord("#")
_SLASH = ord("/")
_BACKSLASH = ord("\\")
_STOP = object()

CHUNK_BYTES = 65536
"""About how many bytes of lines the reader decodes at once (one JSON array)."""
CHUNK_LINES = 1000
"""Lines taken at once from a source that is only an iterable of lines."""

NOT_A_LOG = "not a gamelog log: its first line is not a JSON object"
"""The one input error of a file whose first line is no JSON object at all: the rest of it is not read."""

NOT_AN_ARRAY = ("not a gamelog log: it is a JSON array, and a log is JSON Lines: one JSON object per line "
                "(the header first), not an array of them")
"""The one input error of a file that is a JSON array (of events, say) rather than JSON Lines."""

CRLF = ("the lines end with CRLF (Windows line endings), from this one on: a log's lines end with LF; save the "
        "file with LF line endings (your editor's line-ending setting, or dos2unix FILE)")
"""The input error of a file saved with CRLF, said once at its first such line."""

NOT_A_HEADER = 'the first object must be the game header, "type": "game"'
"""The input error of a first line that is a JSON object but no game header (another tool's one-line export)."""


def _not_a_log(raw: bytes) -> bool:
    """Whether a first line that did not decode says the file is no log at all: text that is not JSON (a Markdown
    heading), a JSON value that is not an object (another tool's save starting with a number), or the lone opening
    ``{`` of a JSON document printed over many lines (another tool's export). A header that is an object but wrong
    (a key twice, too deep, a field missing) is a log with errors, each line checked."""
    stripped = raw.strip()
    return stripped == b"{" or not stripped.startswith(b"{")


class LogReader:
    """Reads one log: ``header`` first, then ``events()`` yields ``(line, event)``.

    Construct it with the log's bytes or an open binary handle. The header is
    read at construction; if it is missing or malformed, ``header`` is None and
    ``errors`` says why, and every later line has been checked as well (against
    the game the header names, when it names one), so that ``errors`` then
    holds every input error of the file and ``events()`` yields nothing.
    Otherwise ``events()`` yields every well-formed event line and appends
    each bad one to ``errors``.

    ``header`` (a header already read, at line ``header_line``) reads ``source`` as the lines of that game's log
    from line ``first_line`` on: what a new entry of a stored game is, read at its own line number (no header is
    read from ``source``).
    """

    def __init__(self, source: bytes | BinaryIO, *, header: Any = None, header_line: int = 1,
                 first_line: int | None = None):
        handle = io.BytesIO(source) if isinstance(source, (bytes, bytearray)) else source
        self._lines = iter(handle)
        # Lines are read a chunk at a time where the source can say where a chunk ends (a file, standard input).
        self._source = handle if hasattr(handle, "readlines") else None
        self.errors: list[InputError] = []
        self.line = 0
        self.header = None
        self.rules: GameRules | None = None
        self._named: GameRules | None = None  # the game the header names, valid or not: its types word the errors
        self._crlf_said = False
        self._spread: _Spread | None = None  # an object printed over several lines, while its lines are read
        self.header_line = 0
        if header is None:
            self._read_header()
        else:  # the lines after a header read before: numbered from first_line
            self.header, self.rules, self.header_line = header, GAMES[header.game], header_line
            self._named = self.rules  # its types word the errors, as for a header read here
            self.line = header_line if first_line is None else first_line - 1

    def _next_significant(self) -> tuple[int, bytes] | None:
        """The next line that is neither blank nor a comment, with its number (None at the end, or past MAX_LINES)."""
        for raw in self._lines:
            stripped = self._significant(raw)
            if stripped is _STOP:
                return None
            if stripped is not None:
                return self.line, stripped
        return None

    def _significant(self, raw: bytes) -> Any:
        """Count ``raw`` as the next line; its bytes to decode, None for a blank or a comment, or :data:`_STOP`
        past MAX_LINES (what follows is not read)."""
        # The hot path of every line read one at a time: the rare cases (past the last
        # line, a BOM, CRLF) tested only when the cheap test says they may be there.
        self.line = line = self.line + 1
        if line > MAX_LINES:
            self.errors.append(_error(line, f"the log goes on past line {MAX_LINES:,}, the most a log may have"))
            self._lines = iter(())  # what follows is not read
            self._source = None
            return _STOP
        if line == 1 and raw.startswith(_BOM):
            self.errors.append(_error(1, "the file starts with a UTF-8 byte order mark (BOM); save it as UTF-8 without BOM"))
            raw = raw[3:]
        if raw[-2:] == b"\r\n":
            if not self._crlf_said:  # a file saved with CRLF has it on every line: said once, with the fix
                self._crlf_said = True
                self.errors.append(_error(line, CRLF))
            raw = raw[:-2]
        stripped = raw.strip(JSON_SPACE)  # only JSON's whitespace: any other byte is the line's (stray_space)
        if not stripped or stripped[0] == _HASH:
            return None
        # A comment as another language writes it: said, then skipped as a comment is (the next line is no knock-on).
        if stripped[0] == _SLASH and stripped[:2] in (b"//", b"/*"):
            self.errors.append(_error(line, f"a comment starts with `#` in a log, not `{stripped[:2].decode()}`"))
            return None
        return stripped

    def _chunk(self) -> list[bytes]:
        """The next lines of the log, about :data:`CHUNK_BYTES` of them (none at the end)."""
        if self._source is not None:
            return self._source.readlines(CHUNK_BYTES)
        return list(islice(self._lines, CHUNK_LINES))

    def _read_header(self) -> None:
        """Read the header line; when it is not a valid header, check every later line all the same."""
        found = self._next_significant()
        if found is None:
            self.errors.append(_error(max(self.line, 1), 'the log is empty: it needs a header line ({"type": "game", ...})'))
            return
        self.header_line, raw = found
        try:
            probe = _probe.decode(raw)
        except (msgspec.MsgspecError, RecursionError) as exc:
            if _not_a_log(raw):  # a README, another tool's JSON document: one error says so, not one per line
                array = raw.startswith(b"[")
                self.errors.append(_error(self.header_line, NOT_AN_ARRAY if array else NOT_A_LOG))
                self._lines, self._source = iter(()), None
                return None
            self.errors.append(_line_error(self.header_line, raw, exc))
            return self._check_rest(None, None)
        if isinstance(probe.version, int) and not isinstance(probe.version, bool) and probe.version > FORMAT_VERSION:
            # A later format: its lines may mean what this reader cannot tell. One error says so; nothing more is read.
            self.errors.append(_error(self.header_line, f"log format version {probe.version}: this gamelog reads "
                                                        f"version {FORMAT_VERSION}; upgrade gamelog", "$.version"))
            self._lines, self._source = iter(()), None
            return None
        repeated = repeated_key(raw)  # one line: checked exactly, without counting first
        rules = self._named = self._named_game(probe, repeated)
        if rules is None:
            return self._check_rest(None, None)
        if repeated is not None:
            self.errors.append(_repeated(self.header_line, repeated))
        else:
            try:
                header = rules.header_decoder.decode(raw)
                if header.at is None or is_iso_8601(header.at):
                    self.header, self.rules = header, rules
                    return
                # A date written another way would be read as no date at all (stats --since): said, as any error.
                self.errors.append(_error(self.header_line, f"{quote(header.at)} is no ISO 8601 date: the header's "
                                                            f"`at` is written 2025-03-12, or 2025-03-12T19:30:00Z with "
                                                            f"the time", "$.at"))
            except (msgspec.MsgspecError, RecursionError) as exc:
                self.errors.append(_line_error(self.header_line, raw, exc, rules, header=True))
        self._check_rest(rules, _players_of(probe, repeated))

    def _named_game(self, probe: _HeaderProbe, repeated: tuple[str, str] | None) -> GameRules | None:
        """The game the header line names, or None (with the input error) when it names none for certain."""
        if repeated is not None and repeated[1] in ("$.type", "$.game"):
            self.errors.append(_repeated(self.header_line, repeated))
            return None
        if probe.type != "game":
            self.errors.append(_error(self.header_line, NOT_A_HEADER, "$.type"))
            return None
        rules = GAMES.get(probe.game) if isinstance(probe.game, str) else None
        if rules is None:
            known = ", ".join(sorted(GAMES))
            self.errors.append(_error(self.header_line, f"unknown game {quote(probe.game)} (known: {known})", "$.game"))
        return rules

    def _check_rest(self, rules: GameRules | None, players: frozenset[str] | None) -> None:
        """After a bad header: every later line checked, against ``rules``' events when the header names a game."""
        decode = rules.event_decoder.decode if rules is not None else _any_object.decode
        for _ in self._read(decode, None, players):
            pass

    def events(self) -> Iterator[tuple[int, Recorded]]:
        """Every well-formed event after the header, with its line number."""
        if self.header is None:
            return iter(())
        return self._read(self.rules.event_decoder.decode, self.rules.events_decoder.decode, frozenset(self.header.players))

    def _read(self, decode: Callable[[bytes], Any], decode_many: Callable[[bytes], list] | None,
              players: frozenset[str] | None) -> Iterator[tuple[int, Any]]:
        """Each line after the header decoded, each bad one in ``errors``; players checked when ``players`` is known.

        A chunk of lines is decoded at once, as one JSON array, by ``decode_many`` (when given): when it holds
        only events, each on its own line, no key twice and every player known, its events are those the lines
        decode to one at a time. Any other chunk (a comment, a blank, an error, an unknown player) is read again
        line by line (:meth:`_exact`), so every error is the one that line gives alone.
        """
        while lines := self._chunk():
            if (decode_many is not None and self._spread is None
                    and (events := self._at_once(lines, decode_many, players)) is not None):
                first = self.line + 1
                self.line += len(lines)
                yield from zip(range(first, first + len(events)), events)
                continue
            for raw in lines:
                stripped = self._significant(raw)
                if stripped is _STOP:
                    break
                if stripped is None or (self._spread is not None and self._spread_goes_on(stripped)):
                    continue
                if (event := self._exact(stripped, decode, players)) is not None:
                    yield self.line, event
            else:
                continue
            break
        if self._spread is not None:  # the file ends inside it
            self._spread_ends(closed=False)

    def _spread_goes_on(self, raw: bytes) -> bool:
        """Whether ``raw`` is a line of the object :attr:`_spread` holds (read, and said once when it closes); a
        line that is a whole object of its own ends it unclosed, and is read as it is."""
        spread = self._spread
        if raw[:1] == b"{" and open_brackets(raw) == 0:
            self._spread_ends(closed=False)
            return False
        spread.depth += open_brackets(raw)
        spread.last = self.line
        if spread.depth <= 0:
            self._spread_ends(closed=True)
        return True

    def _spread_ends(self, closed: bool) -> None:
        """Say the object :attr:`_spread` held: once for all its lines; as its first line's own error when no
        line went on with it (a line cut short, not an object printed over several)."""
        spread, self._spread = self._spread, None
        if spread.last == spread.line:
            self.errors.append(spread.error)
        else:
            how = "" if closed else ", and never closed"
            self.errors.append(_error(spread.line, f"one JSON object printed over lines {spread.line}-{spread.last}"
                                                   f"{how}: a log holds one JSON object per line; join them into one"))

    def _at_once(self, lines: list[bytes], decode_many: Callable[[bytes], list],
                 players: frozenset[str] | None) -> list | None:
        """The events of ``lines`` decoded as one array; None when a line must be read alone (see :meth:`_read`)."""
        if self.line + len(lines) > MAX_LINES:
            return None
        blob = b",".join(lines)
        if b"\r" in blob or _BACKSLASH in blob:  # CRLF is an error of its own; a backslash may hide a colon
            return None
        array = b"[" + blob + b"]"
        try:
            events = decode_many(array)
        except (msgspec.MsgspecError, RecursionError):
            return None
        # A blank or comment line is no array item (a decode error); two values on one line are two items.
        if len(events) != len(lines) or not _one_value_each(lines):
            return None
        if players is not None:
            for event in events:
                fields = event.PLAYER_FIELDS
                if fields is PLAYER:  # most lines: one `player` field, checked inline
                    if event.player in players:
                        continue
                elif not fields or _named_players_known(event, fields, players):
                    continue
                if _unknown_player(event, players) is not None:
                    return None
        # Every colon outside strings is a key's: the same count as the events' (strict_json) clears every line.
        if blob.count(b":") != _encode(events).count(b":") and not _cleared_again(array):
            return None
        if any(type(event) is Correction and event.replacement is not None for event in events):
            return None  # a replacement is checked as a line of its own (_exact)
        return events

    def _exact(self, raw: bytes, decode: Callable[[bytes], Any], players: frozenset[str] | None) -> Any:
        """The event of one line, checked exactly; None (its error in ``errors``) when the line is bad."""
        try:
            event = decode(raw)
        except (msgspec.MsgspecError, RecursionError) as exc:
            error = _line_error(self.line, raw, exc, self._named)
            if raw[:1] == b"{" and (depth := open_brackets(raw)) > 0:  # maybe an object printed over several lines
                self._spread = _Spread(self.line, depth, error)
            else:
                self.errors.append(error)
            return None
        # msgspec keeps the last of two equal keys: a cheap count clears almost every line (strict_json).
        if may_repeat_a_key(raw, _encode(event)) and not _cleared_again(raw) and (repeated := repeated_key(raw)) is not None:
            self.errors.append(_repeated(self.line, repeated))
            return None
        # The common case, one `player` field naming a player, is checked inline (it is most lines).
        if players is not None and (event.PLAYER_FIELDS is not PLAYER or event.player not in players):
            bad = _unknown_player(event, players)
            if bad is not None:
                self.errors.append(_error(self.line, *bad))
                return None
        if type(event) is Correction and event.replacement is not None and players is not None:
            problem = _replacement_problem(event.replacement, decode, players)
            if problem is not None:
                self.errors.append(_error(self.line, *problem))
                return None
        return event


@dataclass
class _Spread:
    """An object whose first line (``line``) opens more brackets than it closes: ``depth`` still open after the
    ``last`` line read of it; ``error`` is what its first line alone gives."""

    line: int
    depth: int
    error: InputError
    last: int = 0

    def __post_init__(self) -> None:
        self.last = self.line


_STRING = re.compile(rb'"[^"]*"')
"""A JSON string in a line with no backslash (the only lines read at once)."""


def _one_value_each(lines: list[bytes]) -> bool:
    """Whether each line of a chunk that decoded as one array holds whole values: as many items as lines could be
    one value split over two lines and two values on another line. A line that continues a value split inside an
    object starts with a key or a colon, not ``{``; one that continues an array follows a line that opens a ``[``
    it does not close.

    The common chunk is checked whole, not line by line (a Python loop over every line was about 8% of
    ``validate``): the lines joined by a NUL byte, which no line of a chunk that decoded holds (JSON allows
    no raw control character, in a string or out of one), so each ``NUL {`` is a line starting with ``{``;
    then only the lines holding a ``[`` are looked at one by one. A chunk with a line that starts with spaces
    is checked line by line.
    """
    joined = b"\0".join(lines)
    if joined[:1] != b"{" or joined.count(b"\0{") != len(lines) - 1:
        return all(line.lstrip()[:1] == b"{" and _balanced(line) for line in lines)
    at = joined.find(b"[")
    while at != -1:  # each line holding a "[" (a list field, or a string): its brackets outside strings balance
        start, end = joined.rfind(b"\0", 0, at) + 1, joined.find(b"\0", at)
        end = len(joined) if end == -1 else end
        if not _balanced(joined[start:end]):
            return False
        at = joined.find(b"[", end)
    return True


def _balanced(line: bytes) -> bool:
    """Whether ``line`` (no backslash) opens as many ``[`` and ``{`` as it closes, outside its strings."""
    if b"[" not in line:
        return True  # a line starting with "{" that continues no array (see _one_value_each)
    bare = _STRING.sub(b"", line)
    return bare.count(b"[") == bare.count(b"]") and bare.count(b"{") == bare.count(b"}")


def _cleared_again(raw: bytes) -> bool:
    """Whether ``raw`` (JSON that decoded, with no backslash) holds no key twice, by the colons of its generic
    re-encoding: an object decodes to a dict, one value per key, and defaulted fields are written back too
    (the typed re-encoding omits them, so a line writing a default is not cleared by it)."""
    if _BACKSLASH in raw:
        return False
    try:
        again = _encode(_any_value(raw))
    except (msgspec.MsgspecError, RecursionError, ValueError, OverflowError):
        return False
    return raw.count(b":") == again.count(b":")


def _replacement_problem(replacement: dict[str, Any], decode: Callable[[bytes], Any],
                         players: frozenset[str]) -> tuple[str, str] | None:
    """(message, path) when a correction's ``replacement`` is not one line of the game's log (every check a line
    gets, its paths under ``$.replacement``), or is a correction or a header; None when it is one."""
    raw = _encode(replacement)
    try:
        event = decode(raw)
    except (msgspec.MsgspecError, RecursionError) as exc:
        wrong = _line_error(0, raw, exc)
        return wrong.message, "$.replacement" + wrong.path[1:]
    if type(event) is Correction:
        return "a replacement is the line the voided one should have been, not another correction", "$.replacement.type"
    bad = _unknown_player(event, players)
    if bad is not None:
        return bad[0], "$.replacement" + bad[1][1:]
    return None


def _players_of(probe: _HeaderProbe, repeated: tuple[str, str] | None) -> frozenset[str] | None:
    """The players a header that is not valid names, to check the later lines against (None: not known)."""
    if not isinstance(probe.players, list) or (repeated is not None and repeated[1].startswith("$.players")):
        return None  # no list, or two of them: no line's players are checked
    return frozenset(p for p in probe.players if isinstance(p, str)) or None


def _named_players_known(event: Recorded, fields: dict[str, frozenset[str]], players: frozenset[str]) -> bool:
    """Whether each field of ``fields`` that names one player (not a list) names a known one or none: the quick
    check of a chunk's lines; any other answers False, and :func:`_unknown_player` tells."""
    for field, others in fields.items():
        value = getattr(event, field)
        if value is not None and (type(value) is not str or value not in players and value not in others):
            return False
    return True


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
                return f"unknown player {quote(name)} (one of: {allowed})", f"$.{encoded}{where}"
    return None
