"""An AsyncTI4 save read into its parts: the game-info keys, the seats, the breadcrumbs, what was not read.

AsyncTI4 (the Discord bot on which many online TI4 games are played) keeps a
game as a text save of its current state: three lines (owner id, owner name,
game name), ``-mapinfo-``, a ``-gameinfo-`` section of ``key value`` lines,
a ``-playerinfo-`` section of ``-player-`` blocks (user id, display name,
``key value`` lines), ``-endmapinfo-``, then the map's ``-tile-`` blocks. A
``key value`` line is split at its first space; keys come and go between the
bot's versions, so only the few keys the converter needs are read and every
other one is counted as not converted. ``check_reacts_info`` holds the bot's
breadcrumbs (``key,value`` entries joined by ``:``, escaped as ``{sp}``...).

:func:`read_save` raises ConversionError (at ``line N``) for text that is not
a save, or a save cut short.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gamelog.domain.conversion import ConversionError

NOT_A_SAVE = "not an AsyncTI4 save"
ESCAPES = {"{sp}": " ", "{usc}": "_", "{cln}": ":", "{cma}": ",", "{dsh}": "-", "{smc}": ";", "{pip}": "|", "666fin": ":"}
"""How the bot escapes characters inside breadcrumb values (docs/log-format.md, AsyncTI4 saves)."""


def unescape(value: str) -> str:
    """A breadcrumb value as written by people: ``Erect{sp}a{sp}Monument`` -> ``Erect a Monument``."""
    for code, char in ESCAPES.items():
        value = value.replace(code, char)
    return value


@dataclass
class Seat:
    """One ``-player-`` block: the user id and display name, its ``key value`` lines, where it starts."""

    user_id: str
    name: str
    keys: dict[str, str]
    line: int

    @property
    def faction(self) -> str | None:
        value = self.keys.get("faction", "null").strip()
        return None if value in ("", "null") else value

    @property
    def plays(self) -> bool:
        """A seat with a faction that is not the Thunder's Edge neutral (``dummy``) seat: a player."""
        return self.faction is not None and self.keys.get("dummy", "false").strip() != "true"


@dataclass
class Save:
    """A save's parts: the game's name, its game-info keys (first occurrence), its seats, its tiles, its breadcrumbs."""

    owner: str
    game_name: str
    info: dict[str, str]
    info_lines: int
    seats: list[Seat]
    tiles: int
    breadcrumbs: dict[str, str] = field(default_factory=dict)
    unknown_sections: list[str] = field(default_factory=list)

    def value(self, key: str, default: str = "") -> str:
        return self.info.get(key, default).strip()

    def number(self, key: str, default: int) -> int:
        """A whole-number game-info value; ``default`` when absent. Raises ConversionError when not a number."""
        raw = self.value(key)
        if not raw:
            return default
        if not raw.isdigit():
            raise ConversionError(f"game-info key {key}", f"expected a whole number, found {raw!r}")
        return int(raw)

    def pairs(self, key: str) -> list[tuple[str, str]]:
        """A game-info value ``a,b;c,d;`` as pairs (see :func:`pairs`)."""
        return pairs(self.value(key))


def pairs(value: str) -> list[tuple[str, str]]:
    """A ``a,b;c,d;`` value as pairs, split at the first comma; an item without a comma has an empty second."""
    out = []
    for item in value.split(";"):
        if item.strip():
            first, _, second = item.partition(",")
            out.append((first.strip(), second.strip()))
    return out


def _key_value(line: str) -> tuple[str, str]:
    key, _, value = line.partition(" ")
    return key, value


def _breadcrumbs(raw: str) -> dict[str, str]:
    """``check_reacts_info``'s entries (``key,value`` joined by ``:``), first occurrence of a key kept."""
    out: dict[str, str] = {}
    for entry in raw.split(":"):
        key, _, value = entry.partition(",")
        if key:
            out.setdefault(key, value)
    return out


def _text(export: bytes | str) -> str:
    if isinstance(export, (bytes, bytearray)):
        try:
            return bytes(export).decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ConversionError(f"byte {exc.start}", f"{NOT_A_SAVE}: not UTF-8 text") from exc
    if isinstance(export, str):
        return export
    raise ConversionError("line 1", f"{NOT_A_SAVE}: expected the save's text, not {type(export).__name__}")


def _foreign(first: str) -> str:
    """What a file that is not a save looks like, for the error: JSON (another tool's, or a log), or other text."""
    if first.lstrip().startswith(("{", "[")):
        if '"actionLog"' in first or '"data"' in first:
            return f"{NOT_A_SAVE}: this is JSON (a TI Assistant export? convert it with --from ti-assistant)"
        if '"type"' in first:
            return f"{NOT_A_SAVE}: this is JSON (a gamelog log? validate or import it as it is)"
        return f"{NOT_A_SAVE}: this is JSON"
    return f"{NOT_A_SAVE}: a save starts with the owner's id, their name, the game's name and -mapinfo-"


def read_save(export: bytes | str) -> Save:
    """Split a save into its parts. Raises ConversionError (``at line N``) for text that is not a whole save."""
    lines = _text(export).replace("\r\n", "\n").split("\n")
    if len(lines) < 5 or lines[3] != "-mapinfo-" or not lines[0].strip().isdigit():
        raise ConversionError("line 1", _foreign(lines[0] if lines else ""))
    owner, game_name = lines[1], lines[2].strip()
    if not game_name:
        raise ConversionError("line 3", "the save names no game")
    sections = {m: i for i, m in reversed(list(enumerate(lines))) if m in ("-gameinfo-", "-endgameinfo-", "-playerinfo-", "-endplayerinfo-", "-endmapinfo-")}
    for marker in ("-gameinfo-", "-endgameinfo-", "-playerinfo-", "-endplayerinfo-", "-endmapinfo-"):
        if marker not in sections:
            raise ConversionError(f"line {len(lines)}", f"the save has no {marker} line: it is cut short (is the file complete?)")
    last = next((line for line in reversed(lines) if line.strip()), "")
    if last not in ("-endtile-", "-endmapinfo-"):
        raise ConversionError(f"line {len(lines)}", f"the save ends inside a map tile ({last[:40]!r}): it is cut short (is the file complete?)")
    info: dict[str, str] = {}
    start, end = sections["-gameinfo-"] + 1, sections["-endgameinfo-"]
    for line in lines[start:end]:
        key, value = _key_value(line)
        info.setdefault(key, value)
    seats, unknown = _seats(lines, sections["-playerinfo-"] + 1, sections["-endplayerinfo-"])
    tiles = sum(1 for line in lines[sections["-endmapinfo-"]:] if line == "-tile-")
    save = Save(owner, game_name, info, end - start, seats, tiles, _breadcrumbs(info.get("check_reacts_info", "")), unknown)
    return save


def _seats(lines: list[str], start: int, end: int) -> tuple[list[Seat], list[str]]:
    """The ``-player-`` blocks between ``start`` and ``end``; anything else there is an unknown section's line."""
    seats: list[Seat] = []
    unknown: list[str] = []
    i = start
    while i < end:
        if lines[i] != "-player-":
            if lines[i].strip():
                unknown.append(lines[i][:40])
            i += 1
            continue
        if i + 2 >= end:
            raise ConversionError(f"line {i + 1}", "a -player- block without its user id and name: the save is cut short")
        user_id, name, keys, j = lines[i + 1].strip(), lines[i + 2].strip(), {}, i + 3
        while j < end and lines[j] != "-endplayer-":
            key, value = _key_value(lines[j])
            keys.setdefault(key, value)
            j += 1
        if j >= end:
            raise ConversionError(f"line {i + 1}", "a -player- block without its -endplayer- line: the save is cut short")
        seats.append(Seat(user_id, name, keys, i + 1))
        i = j + 1
    return seats, unknown
