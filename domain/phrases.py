"""How a recorded line reads in words ("Qossuth buys 2 Melf Pelts..."): the events every game has, and the fallback.

A phrase is filled from the event's fields as the log names them. Each game's
``phrases`` module holds the phrases of its own events (``PHRASES``, by
``type``); :class:`~domain.games.GameRules` puts them after the ones here. A
type without a phrase (a new one, say), or a phrase that needs a field the
line lacks, falls back to the fields in log order, so nothing is ever left out
of a report.
"""

from __future__ import annotations

import json
import operator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Mapping

from gamelog.domain.events import ScoreClaimed
from gamelog.domain.replay_document import Replay

Phrase = Callable[[dict[str, Any]], str]
"""The words of one event type, from its fields (by their names in the log)."""


def claimed(fields: dict[str, Any]) -> int:
    """The score a ``score_claimed`` line claims, whichever of its fields states it (for a game's own words)."""
    return next(fields[name] for name in ScoreClaimed.STATED if fields.get(name) is not None)


def either(field: str, yes: str, no: str = "") -> Phrase:
    """``yes`` when the line's ``field`` is set (true, non-empty), else ``no``."""
    return lambda f: yes if f.get(field) else no


COMMON: dict[str, Phrase] = {
    "turn_started": lambda f: f"{f['player']}'s turn begins",
    "turn_ended": lambda f: f"{f['player']} ends the turn",
    "correction": lambda f: f"line {f['voids']} is void: {f['reason']}",
    "note": lambda f: f"note: {f['text']}",
    "score_claimed": lambda f: f"{f['player']} claims a score of {claimed(f)}",
}
"""The phrases of ``domain.events.COMMON_EVENTS``."""

KINDS: dict[str, str] = {
    "turn_started": "Start a turn",
    "turn_ended": "End the turn",
    "correction": "Void a line",
    "note": "Note",
    "score_claimed": "Claim a score",
}
"""The kinds of line every game has, named as players would (the forms' ``label``); each game's ``phrases.KINDS``
names its own (``GameRules.kind``)."""


def tell(event: Any, phrases: Mapping[str, Phrase]) -> tuple[str, str | None, str]:
    """(type, player, words) for a recorded event, with ``phrases`` by type."""
    tag, names, values_of = _reading(type(event))
    values = dict(zip(names, values_of(event)))
    if tag == "correction" and values.get("replacement"):  # a Replace reads as the line it puts in place
        instead = values["replacement"]
        return tag, None, f"line {values['voids']} replaced by: {_said(instead.get('type'), instead, phrases)} " \
                          f"({values['reason']})"
    return tag, values.get("player"), _said(tag, values, phrases)


def _said(tag: Any, values: dict[str, Any], phrases: Mapping[str, Phrase]) -> str:
    """The words of one line's ``values`` (by their names in the log), by its ``tag``'s phrase, else plainly."""
    words = phrases.get(tag)
    if words is not None:
        try:
            return words(values)
        except (KeyError, TypeError):
            pass  # a field the phrase needs is absent: say it plainly below
    return _plain(str(tag), {k: v for k, v in values.items() if k != "type"})


def _plain(tag: str, values: dict[str, Any]) -> str:
    parts = [f"{key} {value if type(value) in (str, int) else json.dumps(value, ensure_ascii=False)}"
             for key, value in values.items()
             if key not in ("player", "at", "source") and value not in (None, [], False)]
    return tag.replace("_", " ") + (": " + ", ".join(parts) if parts else "")


@lru_cache(maxsize=None)
def _reading(cls: type) -> tuple[str, tuple[str, ...], Callable[[Any], tuple[Any, ...]]]:
    """A recorded event class's tag, its fields' names in the log, and what reads their values (in that order)
    in one call: every recorded line of a report is told."""
    fields = cls.__struct_fields__
    if len(fields) == 1:
        one = operator.attrgetter(fields[0])
        return cls.__struct_config__.tag, tuple(cls.__struct_encode_fields__), lambda event: (one(event),)
    read = operator.attrgetter(*fields) if fields else (lambda event: ())
    return cls.__struct_config__.tag, tuple(cls.__struct_encode_fields__), read


# -- the state in words ------------------------------------------------------------------

Rows = dict[str, str]
"""A part of a state in words: label -> value, in the order they are shown."""

DASH = "\u2014"
"""Nothing (no value, an empty list)."""

NOT_RECORDED = "not recorded"
"""The words of a count the log's source does not record: never a number."""


def humanise(key: str) -> str:
    """A field's name as words: ``voided_lines`` -> ``voided lines``."""
    return key.replace("_", " ")


def plain_value(value: Any) -> str:
    """Any JSON value in words: lists joined, objects as "key value" pairs (keys in words), nothing as a dash."""
    if value is None:
        return DASH
    if value is True or value is False:
        return "yes" if value else "no"
    if isinstance(value, list):
        if not value:
            return DASH
        return ("; " if any(isinstance(v, dict) for v in value) else ", ").join(plain_value(v) for v in value)
    if isinstance(value, dict):
        if not value:
            return DASH
        return ", ".join(f"{humanise(k)} " + (f"({plain_value(v)})" if isinstance(v, dict) else plain_value(v))
                         for k, v in value.items())
    return humanise(value) if isinstance(value, str) and "_" in value and " " not in value else str(value)


def listed(items: list[Any]) -> str:
    """Items joined by commas, a dash for none."""
    return ", ".join(str(i) for i in items) if items else DASH


GENERIC_GAME_FIELDS = frozenset(Replay.__struct_fields__)
"""The fields of every replay document (``domain.replay_document.Replay``): worded once, by :func:`state_words`."""


def _plain_player(document: dict[str, Any], player: str) -> Rows:
    return {humanise(k): plain_value(v) for k, v in document["players"][player].items()}


def _plain_game(document: dict[str, Any]) -> Rows:
    return {humanise(k): plain_value(v) for k, v in document.items() if k not in GENERIC_GAME_FIELDS}


def _no_side(document: dict[str, Any], player: str) -> str | None:
    return None


def _turn_words(document: dict[str, Any]) -> str:
    parts = [f"round {document['round']}"] if document.get("round") else []
    if document.get("turn"):
        parts.append(f"turn {document['turn']}")
    return ", ".join(parts) or "before the first turn"


@dataclass(frozen=True)
class StatePhrases:
    """How a game's state (its ``replay --format json`` document, as JSON values) reads to a player.

    ``player(document, name)`` gives a player's rows, ``game(document)`` the
    game's own (beyond the fields every game has, which :func:`state_words`
    words), ``when(document)`` where the game stands ("round 3, turn 2 of the
    round"); ``side(document, name)`` is who the player plays (a faction), and
    ``colour(document, name)`` the colour of their pieces at the table (a CSS
    colour; None: not known); ``score_detail(document,
    name)`` says where a player's score comes from (shown beside it in the
    standings). A game without its own keeps the plain words.
    """

    player: Callable[[dict[str, Any], str], Rows] = _plain_player
    game: Callable[[dict[str, Any]], Rows] = _plain_game
    when: Callable[[dict[str, Any]], str] = _turn_words
    side: Callable[[dict[str, Any], str], str | None] = _no_side
    colour: Callable[[dict[str, Any], str], str | None] = _no_side
    side_name: str = "side"
    score_detail: Callable[[dict[str, Any], str], str | None] = _no_side


PLAIN_STATE = StatePhrases()
"""The state in plain words: every field, its name in words."""


def state_words(phrases: StatePhrases, document: dict[str, Any], board_title: str | None = None) -> dict[str, Any]:
    """A replay document in words: ``{"when": ..., "players": {name: rows}, "game": rows}``.

    The game's rows follow what every game has: the board (under
    ``board_title``), the end (who won, or that it is not over), and the
    lines a correction voided.
    """
    game: Rows = {}
    if document.get("board") is not None:
        game[board_title or "board"] = ", ".join(f"{k} {v}" for k, v in document["board"].items()) or DASH
    game.update(phrases.game(document))
    end = document.get("end")
    if document.get("finished"):
        who = f"{document['winner']} won" if document.get("winner") else "no winner"
        game["result"] = who + (f" at line {end['line']} ({end['reason']})" if isinstance(end, dict) else "")
    else:
        game["result"] = "not over yet"
    game["voided lines"] = listed(document.get("voided_lines") or [])
    return {"when": phrases.when(document),
            "players": {name: phrases.player(document, name) for name in document["players"]},
            "game": game}
