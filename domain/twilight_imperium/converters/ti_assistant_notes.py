"""TI Assistant entries the log does not model, in words: the text of the ``note`` each one becomes.

A note reads as a sentence a player would say ("Kortali Tribunal skips the
Politics secondary"), then, in brackets, why the log keeps it as a note. The
entry itself is named by the line's ``source`` (``actionLog[N]``); a kind
without a sentence here is told plainly, its kind and fields in words.
"""

from __future__ import annotations

import re
from typing import Any, Callable

Sentence = Callable[[dict[str, Any]], str]


def _who(e: dict[str, Any]) -> str:
    return str(e.get("faction") or e.get("factionId") or "a faction")


def _secondary(e: dict[str, Any]) -> str:
    state = str(e.get("state", "")).upper()
    verb = {"DONE": "follows", "SKIPPED": "skips", "PENDING": "has yet to decide on"}.get(state, "marks")
    card = e.get(STRATEGIC)
    return f"{_who(e)} {verb} " + (f"the {card} secondary" if card else "a secondary")


STRATEGIC = "\0strategic"
"""The key under which :func:`sentence` hands a phrase the strategy card whose primary is under way (not an
export's field: no field name starts with a NUL)."""


def _votes(e: dict[str, Any]) -> str:
    target = e.get("target")
    if target in (None, "Abstain") or not e.get("votes"):
        return f"{_who(e)} abstains"
    extra = f" (and {e['extraVotes']} extra)" if e.get("extraVotes") else ""
    return f"{_who(e)} casts {e['votes']} vote{'s' if e['votes'] != 1 else ''}{extra} for {target}"


def _leader(e: dict[str, Any]) -> str:
    return f"{e.get('leaderId', 'a leader')} goes from {e.get('prevState', '?')} to {e.get('state', '?')}"


def _end_turn(e: dict[str, Any]) -> str:
    who = e.get("prevFaction")
    return f"{who} ends an action" if who else "an action ends"


def _action_card(e: dict[str, Any]) -> str:
    target = e.get("target")
    return f"{e.get('card', 'an action card')} is played" + (f" on {target}" if target and target != "None" else "")


SENTENCES: dict[str, Sentence] = {
    "MARK_SECONDARY": _secondary,
    "MARK_PRIMARY": lambda e: "the strategy card's primary is done" if e.get("completed") else "the strategy card's primary is undone",
    "CLAIM_PLANET": lambda e: f"{_who(e)} takes {e.get('planet', 'a planet')}",
    "UNCLAIM_PLANET": lambda e: f"{_who(e)} loses {e.get('planet', 'a planet')}",
    "ADD_ATTACHMENT": lambda e: f"{e.get('attachment', 'an attachment')} is attached to {e.get('planet', 'a planet')}",
    "ADD_TECH": lambda e: f"{_who(e)} researches {e.get('tech', 'a technology')}",
    "REMOVE_TECH": lambda e: f"{_who(e)} loses {e.get('tech', 'a technology')}",
    "CHOOSE_STARTING_TECH": lambda e: f"{_who(e)} starts with {e.get('tech', 'a technology')}",
    "CHOOSE_SUB_FACTION": lambda e: f"{_who(e)} plays as the {e.get('subFaction', '?')} branch",
    "PLAY_COMPONENT": lambda e: f"{_who(e)} uses {e.get('name', 'a component')}",
    "SELECT_SUB_COMPONENT": lambda e: f"the component's choice: {e.get('subComponent', '?')}",
    "UPDATE_LEADER_STATE": _leader,
    "GAIN_RELIC": lambda e: f"{_who(e)} gains the relic {e.get('relic', '?')}",
    "PLAY_RELIC": lambda e: f"{e.get('relic', 'a relic')} is used" + (f" on {e['tech']}" if e.get("tech") else ""),
    "REVEAL_AGENDA": lambda e: f"the agenda {e.get('agenda', '?')} is revealed",
    "SELECT_SUB_AGENDA": lambda e: f"the agenda resolves as {e.get('subAgenda', '?')}",
    "SELECT_ELIGIBLE_OUTCOMES": lambda e: f"the agenda's outcomes: {e.get('outcomes', '?')}",
    "START_VOTING": lambda e: "voting begins",
    "CAST_VOTES": _votes,
    "SPEAKER_TIE_BREAK": lambda e: f"the speaker breaks the tie for {e.get('tieBreak', '?')}",
    "RESOLVE_AGENDA": lambda e: f"{e.get('agenda', 'the agenda')} is resolved" + (f" for {e['target']}" if e.get("target") else ""),
    "REPEAL_AGENDA": lambda e: f"{e.get('agenda', 'a law')} is repealed",
    "PLAY_RIDER": lambda e: f"{_who(e)} plays {e.get('rider', 'a rider')} on {e.get('outcome', '?')}",
    "PLAY_ACTION_CARD": _action_card,
    "PLAY_PROMISSORY_NOTE": lambda e: f"{e.get('card', 'a promissory note')} is played" + (f" on {e['target']}" if e.get("target") else ""),
    "PLAY_ADJUDICATOR_BAAL": lambda e: f"Adjudicator Ba'al is played on system {e.get('systemId', '?')}",
    "SWAP_MAP_TILES": lambda e: "two tiles of the map are swapped",
    "COMMIT_TO_EXPEDITION": lambda e: f"{_who(e)} commits to the {_words(str(e.get('expedition', '?')))} expedition",
    "UNSCORE_OBJECTIVE": lambda e: f"{_who(e)} loses {e.get('objective', 'an objective')}"
                                   + (f" ({e['key']}'s)" if e.get("key") else ""),
    "END_TURN": _end_turn,
    "SELECT_ACTION": lambda e: f"another action: {_words(str(e.get('action', '?')))}",
    "END_GAME": lambda e: "the game ends",
}
"""A sentence for each kind of entry the log keeps as a note, from its fields."""


def _words(name: str) -> str:
    """``tradeGoods``, ``MARK_PRIMARY``, ``stage_two`` -> ``trade goods``, ``mark primary``, ``stage two``."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).replace("_", " ")
    return spaced.lower() if spaced.isupper() or any(c.islower() for c in spaced) else spaced


def _plain(kind: str, event: dict[str, Any]) -> str:
    fields = [f"{_words(k)} {v if isinstance(v, (str, int)) else '…'}" for k, v in sorted(event.items())
              if v not in (None, "", [], {})]
    return f"TI Assistant records {_words(kind)}" + (f" ({', '.join(fields)})" if fields else "")


def sentence(kind: str, event: dict[str, Any], reason: str, strategic: str | None = None) -> str:
    """The note's text for an entry of ``kind`` with fields ``event``, kept as a note for ``reason`` (may be empty);
    ``strategic`` is the strategy card whose primary is under way, if any (a secondary follows it)."""
    said = SENTENCES.get(kind)
    try:
        text = said({**event, STRATEGIC: strategic}) if said else _plain(kind, event)
    except (KeyError, TypeError, ValueError, AttributeError):
        text = _plain(kind, event)
    return text + (f" (kept as a note: {reason})" if reason else "")
