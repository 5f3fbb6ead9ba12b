"""TI Assistant exports to log format v1 (Twilight Imperium 4).

TI Assistant (a web app that tables use to run a game of Twilight Imperium)
exports a game as one JSON object::

    {"data": {"factions": [{"id": "Council Keleres", "playerName": "Tanys", ...}, ...],
              "options": {"victory-points": 10, ...}, "winner": "Council Keleres"},
     "timers": {...},
     "actionLog": [{"timestampMillis": 1739054700496, "gameSeconds": 31764,
                    "data": {"action": "END_GAME", "event": {}, "timestamp": ...}}, ...]}

The action log runs newest first; the log is written in playing order. The
players are ``data.factions`` in its order (the app lists them by seat,
clockwise), each named by ``playerName`` (or by the faction when the name is
missing or repeated). What each kind of entry becomes is in
``ti_assistant_entries``, checked access to the export's values in
``ti_assistant_shape``; this module reads the export, writes the header and
walks the entries.

The game's ``id`` is the caller's, else ``ti-assistant-<UTC start>``: the
time of the oldest entry, which a later export of the same game keeps, so
importing it again appends only what is new.
"""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone
from typing import Any

from gamelog.domain.conversion import Conversion, ConversionError, Summary
from gamelog.domain.events import MAX_AMOUNT, MAX_TOTAL
from gamelog.domain.twilight_imperium.converters.ti_assistant_entries import Declarations, Walk
from gamelog.domain.twilight_imperium.converters.ti_assistant_shape import Entry, iso, member, text
from gamelog.domain.twilight_imperium import reference

SOURCE = "ti-assistant"
GAME = "twilight-imperium-4"


# -- reading the export ----------------------------------------------------------------


NOT_OURS = "not a TI Assistant export?"


def parse(export: bytes | str | Any) -> Any:
    """The export as parsed JSON. Raises ConversionError at ``$`` for bytes that are not UTF-8 JSON."""
    if isinstance(export, (bytes, bytearray)):
        try:
            export = bytes(export).decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ConversionError("$", f"not UTF-8 text (byte {exc.start})") from exc
    if not isinstance(export, str):
        return export
    try:
        parsed = json.loads(export)
    except json.JSONDecodeError as exc:
        # A file cut short (an interrupted download) fails here, at its last line.
        raise ConversionError("$", f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno}); "
                                   "is the export complete?") from exc
    if _SURROGATE_ESCAPE.search(export):  # json reads "\ud800" alone as a str no UTF-8 can hold
        _no_lone_surrogate(parsed, "$")
    return parsed


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]|[\ud800-\udfff]")


def _no_lone_surrogate(value: Any, path: str) -> None:
    """Raise ConversionError at the path of the first string holding a lone UTF-16 surrogate (not text)."""
    if isinstance(value, str):
        if any("\ud800" <= c <= "\udfff" for c in value):
            raise ConversionError(path, "a lone UTF-16 surrogate (a \\ud800-\\udfff escape without its pair) is "
                                        "not text")
    elif isinstance(value, dict):
        for key, item in value.items():
            _no_lone_surrogate(key, path)
            _no_lone_surrogate(item, f"{path}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _no_lone_surrogate(item, f"{path}[{index}]")


def read_entry(raw: Any, index: int) -> Entry:
    """One action-log entry, checked. Raises ConversionError naming the path of what is wrong."""
    path = f"$.actionLog[{index}]"
    data = member(raw, "data", path, dict, "an action-log entry")
    action = text(data, "action", f"{path}.data")
    event = member(data, "event", f"{path}.data", dict, f"the {action} entry's payload")
    # timestampMillis is on every entry; data.timestamp (the client's clock) is not.
    millis = raw.get("timestampMillis", data.get("timestamp"))
    if not isinstance(millis, int) or isinstance(millis, bool) or millis < 0:
        raise ConversionError(f"{path}.timestampMillis", "missing or not a time in milliseconds")
    return Entry(index, action, event, millis)


def read_entries(root: Any) -> list[Entry]:
    """The action log in playing order (the export lists it newest first).

    Raises ConversionError when it is missing, empty, or runs oldest first
    (an export of another shape, whose order cannot be trusted).
    """
    log = member(root, "actionLog", "$", list, NOT_OURS)
    if not log:
        raise ConversionError("$.actionLog", "the action log is empty; there is no game to convert")
    entries = [read_entry(raw, i) for i, raw in enumerate(log)]
    if entries[0].millis < entries[-1].millis:
        raise ConversionError("$.actionLog", "the action log runs oldest first; TI Assistant lists the newest entry first")
    return entries[::-1]


def read_factions(data: dict[str, Any]) -> dict[str, str]:
    """Faction -> player name, in seating order. Raises ConversionError for a malformed list."""
    factions = member(data, "factions", "$.data", list, NOT_OURS)
    if not factions:
        raise ConversionError("$.data.factions", "no factions: a game needs at least one player")
    names = [text(f if isinstance(f, dict) else {}, "id", f"$.data.factions[{i}]") for i, f in enumerate(factions)]
    if len(set(names)) != len(names):
        raise ConversionError("$.data.factions", "a faction is listed twice")
    people = [f.get("playerName") for f in factions]
    out = {}
    for faction, person in zip(names, people):
        # A player is named by the person when every person has a distinct name, else by the faction.
        usable = isinstance(person, str) and person.strip() and people.count(person) == 1 and person not in names
        out[faction] = person.strip() if usable else faction
    return out


def colors_of(data: dict[str, Any], factions: dict[str, str]) -> dict[str, str]:
    """Player -> the faction's colour as the app names it (``data.factions[].color``), where it names one."""
    out = {}
    for entry in data.get("factions", []):
        if isinstance(entry, dict) and entry.get("id") in factions and isinstance(entry.get("color"), str):
            colour = entry["color"].strip()
            if colour:
                out[factions[entry["id"]]] = colour
    return out


def expansions_of(data: dict[str, Any]) -> list[str]:
    """The expansions the game was played with, as the app names them (``data.options.expansions``: ``"POK"``,
    ``"CODEX ONE"``...); none where it names none. Raises :class:`ConversionError` for a value that is not a list of
    names."""
    options = data.get("options", {})
    named = options.get("expansions", []) if isinstance(options, dict) else []
    if not isinstance(named, list) or not all(isinstance(e, str) for e in named):
        raise ConversionError("$.data.options.expansions", "expected a list of expansion names")
    return list(dict.fromkeys(e.strip() for e in named if e.strip()))


def vp_goal(data: dict[str, Any]) -> int:
    """The game's victory point goal (``data.options["victory-points"]``, 10 when absent)."""
    options = data.get("options", {})
    goal = options.get("victory-points", 10) if isinstance(options, dict) else 10
    if not isinstance(goal, int) or isinstance(goal, bool) or goal <= 0:
        raise ConversionError("$.data.options.victory-points", "expected a whole number of victory points above 0")
    return goal


def first_speaker(entries: list[Entry], factions: dict[str, str]) -> str | None:
    """The speaker at the start: the first the log states (a phase change's state, or a speaker change's previous one)."""
    for e in entries:
        state = e.event.get("state")
        if e.action == "ADVANCE_PHASE" and isinstance(state, dict) and state.get("speaker") in factions:
            return state["speaker"]
        if e.action == "SET_SPEAKER" and e.event.get("prevSpeaker") in factions:
            return e.event["prevSpeaker"]
    return None


NOT_RECORDED = ["secret_objectives", "trade_goods", "command_tokens", "trade_chosen", "secondary_order"]
"""What a TI Assistant export does not record: secret objective draws, trade goods and command tokens gained or
spent, whom the Trade holder chose; secondaries are in the order they were clicked."""


def header(data: dict[str, Any], factions: dict[str, str], entries: list[Entry], game_id: str | None) -> dict[str, Any]:
    """The log's header line: the app's faction names, their commodity values where the TI4 data know them."""
    commodities, unknown = {}, []
    for faction, player in factions.items():
        known = reference.faction(faction)
        if known is None:
            unknown.append(player)  # an unknown faction is no input error: the header says its value is not known
        else:
            commodities[player] = known[1]
    setup: dict[str, Any] = {
        "factions": {player: faction for faction, player in factions.items()},
        "commodities": commodities,
        "vp_goal": vp_goal(data),
    }
    if unknown:
        setup["unknown_commodities"] = unknown
    if colors := colors_of(data, factions):
        setup["colors"] = colors
    if expansions := expansions_of(data):
        setup["expansions"] = expansions
    speaker = first_speaker(entries, factions)
    if speaker is not None:
        setup["speaker"] = factions[speaker]
    start = entries[0].millis
    game_id = game_id if game_id is not None else f"ti-assistant-{datetime.fromtimestamp(start // 1000, tz=timezone.utc):%Y%m%dT%H%M%SZ}"
    return {"type": "game", "game": GAME, "id": game_id, "players": list(factions.values()), "setup": setup,
            "not_recorded": NOT_RECORDED, "at": iso(start), "source": "data"}


ADDITIONS = ("winner", "finalScoreOverrides", "imperialVPOverrides")
"""What the Hall of Records (the archive of our real exports) adds to an export's ``data``; TI Assistant writes none."""


def declared(data: dict[str, Any], factions: dict[str, str]) -> Declarations:
    """An archive's own result fields: ``data.winner`` (a faction), ``data.finalScoreOverrides`` (faction -> final
    VP) and ``data.imperialVPOverrides`` (faction -> the Imperial points the table applied).

    Raises ConversionError naming the field for a value of the wrong kind or a faction not in the game.
    """
    winner = data.get("winner")
    if winner is not None and winner not in factions:
        what = f"unknown faction {winner!r}" if isinstance(winner, str) else "expected a faction's name"
        raise ConversionError("$.data.winner", f"{what} (the export's factions: {', '.join(factions)})")
    return Declarations(winner, _by_faction(data, "finalScoreOverrides", factions, minimum=None),
                        _by_faction(data, "imperialVPOverrides", factions, minimum=0))


def _by_faction(data: dict[str, Any], key: str, factions: dict[str, str], minimum: int | None) -> dict[str, int]:
    value = data.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ConversionError(f"$.data.{key}", "expected an object: faction -> victory points")
    for faction, points in value.items():
        if faction not in factions:
            raise ConversionError(f"$.data.{key}", f"unknown faction {faction!r} (the export's factions: {', '.join(factions)})")
        if not isinstance(points, int) or isinstance(points, bool) or minimum is not None and points < minimum \
                or abs(points) > (MAX_TOTAL if minimum is None else MAX_AMOUNT):
            least = "a whole number" if minimum is None else f"a whole number from {minimum}"
            raise ConversionError(f"$.data.{key}.{faction}", f"expected {least} of victory points, not {json.dumps(points)[:40]}")
    return dict(value)


def convert(export: bytes | str | Any, game_id: str | None = None) -> Conversion:
    """Convert a TI Assistant export (bytes, text or parsed JSON) to a v1 log and its summary.

    Raises ConversionError, naming the JSON path, for an export that is not
    valid JSON, is another app's, or lacks what this converter reads.
    """
    root = parse(export)
    data = member(root, "data", "$", dict, NOT_OURS)
    factions = read_factions(data)
    entries = read_entries(root)
    walk = Walk(factions, entries, header(data, factions, entries, game_id), declared(data, factions), Summary(SOURCE))
    for entry in entries:
        walk.translate(entry)
    walk.declare(entries[-1])
    return Conversion(walk.lines, walk.summary)
