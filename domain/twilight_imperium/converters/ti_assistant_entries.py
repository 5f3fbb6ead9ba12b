"""What each kind of TI Assistant action-log entry becomes in the log.

A translator takes the walk and one entry, in playing order. It either emits
the log lines the entry records and returns None, or emits nothing and
returns why the entry is kept as a ``note`` instead. Kinds without a
translator (planets claimed, techs, agendas, votes...) are kept as notes.

Translated:

* ``ADVANCE_PHASE``: the export stores the state of the phase being left; the
  phase entered follows the game's sequence (after the status phase: the
  agenda phase when the next state shows it). A new strategy phase starts a
  round. A speaker in that state other than the one known is a
  ``speaker_changed`` (the Politics Rider moves the speaker, and the export
  records it only there).
* ``ASSIGN_STRATEGY_CARD``: ``strategy_card_picked`` with the card's initiative.
* ``SELECT_ACTION`` / ``END_TURN``: ``turn_started`` / ``turn_ended``, or
  ``player_passed`` for a pass. A selection names no player: the turn is that
  of the ``END_TURN`` that closes it (its ``prevFaction``).
* ``SELECT_ACTION`` of Trade: also ``trade_primary``; ``MARK_SECONDARY`` DONE
  during it: ``trade_secondary`` (paid: the export does not say whom the
  primary player chose).
* ``SET_SPEAKER``, ``REVEAL_OBJECTIVE``, ``SCORE_OBJECTIVE`` (an objective of
  the reference data: ``objective_scored`` with the card's points; another
  source of VP printed as 1 VP: ``vp_gained``), ``UNSCORE_OBJECTIVE``
  (a ``correction`` voiding that score's line).

Every line carries ``at`` and ``source`` (``actionLog[123]``). ``vp_gained``
already has a ``source`` field of its own, where the VP came from; there the
entry's reference follows it: ``Support for the Throne of Ann (Hacan)
[from actionLog[62]]``.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from domain.conversion import ConversionError, Summary
from domain.twilight_imperium.converters.ti_assistant_shape import Entry, text
from domain.twilight_imperium import reference

OTHER_VP = {reference.key(name): name for name in (
    "Support for the Throne", "Custodians Token", "Imperial Point", "Shard of the Throne",
    "The Crown of Emphidia", "Holy Planet of Ixth", "Styx", "Political Censure", "Mutiny",
    "Seed of an Empire", "Imperial Rider",
)}
"""Sources of victory points that are not objective cards; each card prints 1 VP."""

NEXT_PHASE = {"SETUP": "strategy", "STRATEGY": "action", "ACTION": "status", "AGENDA": "strategy"}
"""The phase after each phase of the export (the status phase is decided apart)."""


class Walk:
    """The conversion in progress: the lines written so far and what later entries need to know.

    ``turn_end`` maps a SELECT_ACTION's index to the END_TURN that closes its
    turn; ``next_phase_change`` maps an ADVANCE_PHASE's index to the next one.
    """

    def __init__(self, factions: dict[str, str], entries: list[Entry], header: dict[str, Any],
                 winner: str | None, summary: Summary):
        self.players = factions
        self.lines: list[dict[str, Any]] = [header]
        self.summary = summary
        summary.types["game"] = 1
        self.winner = winner
        self.round = 0
        player_to_faction = {p: f for f, p in factions.items()}
        self.speaker = player_to_faction.get(header["setup"].get("speaker", ""))
        self.strategic: str | None = None
        self.scores: dict[tuple[str, str, str | None], list[int]] = {}
        self.turn_end, self.next_phase_change = _look_ahead(entries)

    def player(self, entry: Entry, key: str, within: dict[str, Any] | None = None, path: str | None = None) -> str:
        """The player of the faction named at ``key``. Raises ConversionError for an unknown faction."""
        faction = entry.text(key, within, path)
        if faction not in self.players:
            where = f"{path or entry.path}.{key}"
            raise ConversionError(where, f"unknown faction {faction!r} (the export's factions: {', '.join(self.players)})")
        return self.players[faction]

    def emit(self, entry: Entry, line: dict[str, Any]) -> int:
        """Write one log line taken from ``entry``; returns its line number (the header is line 1)."""
        source = entry.source
        if "source" in line:
            # vp_gained's own `source` (where the VP came from) takes the field's name, so the
            # entry's reference is appended to it rather than lost (see the module docstring).
            source = f"{line['source']} [from {entry.source}]"
        self.lines.append({**line, "at": entry.at, "source": source})
        self.summary.types[line["type"]] = self.summary.types.get(line["type"], 0) + 1
        return len(self.lines)

    def translate(self, entry: Entry) -> None:
        """Write what ``entry`` records, or keep it as a note; count it in the summary."""
        translator = TRANSLATORS.get(entry.action)
        reason = translator(self, entry) if translator else ""
        if reason is not None:
            self.note(entry, reason)
        self.summary.count(entry.action, translated=reason is None)

    def note(self, entry: Entry, reason: str) -> None:
        """Keep the entry as a ``note``: its kind and payload, and why it was not translated."""
        payload = json.dumps(entry.event, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        line: dict[str, Any] = {"type": "note", "text": f"TI Assistant {entry.action} {payload}"
                                + (f" (kept as a note: {reason})" if reason else "")}
        faction = entry.event.get("faction", entry.event.get("factionId"))
        if isinstance(faction, str) and faction in self.players:
            line["player"] = self.players[faction]
        self.emit(entry, line)


def _look_ahead(entries: list[Entry]) -> tuple[dict[int, Entry], dict[int, Entry]]:
    """(SELECT_ACTION index -> the END_TURN closing that turn, ADVANCE_PHASE index -> the next ADVANCE_PHASE)."""
    turn_end: dict[int, Entry] = {}
    next_change: dict[int, Entry] = {}
    selected: Entry | None = None
    change: Entry | None = None
    for e in entries:
        if e.action == "SELECT_ACTION":
            selected = e
        elif e.action == "END_TURN" and selected is not None:
            turn_end[selected.index], selected = e, None
        elif e.action == "ADVANCE_PHASE":
            selected = None  # a selection never ended belongs to no turn
            if change is not None:
                next_change[change.index] = e
            change = e
    return turn_end, next_change


# -- rounds, phases, speaker -------------------------------------------------------------


def _state(entry: Entry) -> tuple[dict[str, Any], str, int]:
    """An ADVANCE_PHASE's state, the phase it leaves and its round. Raises ConversionError when malformed."""
    state = entry.event.get("state")
    path = f"{entry.path}.state"
    if not isinstance(state, dict):
        raise ConversionError(path, "missing key `state` or not an object")
    phase = text(state, "phase", path)
    if phase not in NEXT_PHASE and phase != "STATUS":
        raise ConversionError(f"{path}.phase", f"unknown phase {phase!r} (SETUP, STRATEGY, ACTION, STATUS or AGENDA)")
    round_ = state.get("round")
    if not isinstance(round_, int) or isinstance(round_, bool) or round_ < 1:
        raise ConversionError(f"{path}.round", "missing or not a round number")
    return state, phase, round_


def _phase_entered(walk: Walk, entry: Entry, state: dict[str, Any], leaving: str) -> str:
    """The phase the change enters; after the status phase, the agenda phase when the export shows one."""
    if leaving != "STATUS":
        return NEXT_PHASE[leaving]
    following = walk.next_phase_change.get(entry.index)
    if following is not None:
        after = following.event.get("state")
        return "agenda" if isinstance(after, dict) and after.get("phase") == "AGENDA" else "strategy"
    # The last phase change of the export: the agenda phase happens once the Custodians token is gone.
    return "agenda" if state.get("agendaUnlocked") else "strategy"


def advance_phase(walk: Walk, entry: Entry) -> str | None:
    state, leaving, round_ = _state(entry)
    phase = _phase_entered(walk, entry, state, leaving)
    if "speaker" in state and state["speaker"] != walk.speaker:
        player = walk.player(entry, "speaker", state, f"{entry.path}.state")
        walk.emit(entry, {"type": "speaker_changed", "player": player})
        walk.speaker = state["speaker"]
    new_round = round_ if leaving == "SETUP" else round_ + 1
    if phase == "strategy" and new_round > walk.round:
        walk.emit(entry, {"type": "round_started", "round": new_round})
        walk.round = new_round
    walk.emit(entry, {"type": "phase_started", "phase": phase})
    walk.strategic = None
    return None


def set_speaker(walk: Walk, entry: Entry) -> str | None:
    walk.emit(entry, {"type": "speaker_changed", "player": walk.player(entry, "newSpeaker")})
    walk.speaker = entry.event["newSpeaker"]
    return None


# -- strategy cards and turns -------------------------------------------------------------


def assign_strategy_card(walk: Walk, entry: Entry) -> str | None:
    card = entry.text("id")
    player = walk.player(entry, "assignedTo")
    initiative = reference.strategy_cards().get(reference.key(card))
    if initiative is None:
        return f"{card} is not one of the 8 strategy cards, so its initiative is unknown"
    walk.emit(entry, {"type": "strategy_card_picked", "player": player, "card": card, "initiative": initiative})
    return None


def select_action(walk: Walk, entry: Entry) -> str | None:
    action = entry.text("action")
    end = walk.turn_end.get(entry.index)
    if end is None:
        return "no END_TURN closes this turn, so the export does not say whose it was"
    player = walk.player(end, "prevFaction")
    walk.emit(entry, {"type": "turn_started", "player": player})
    walk.strategic = action
    if action == "Trade":
        walk.emit(entry, {"type": "trade_primary", "player": player})
    return None


def end_turn(walk: Walk, entry: Entry) -> str | None:
    player = walk.player(entry, "prevFaction")
    passed = entry.event.get("selectedAction", walk.strategic) == "Pass"
    walk.emit(entry, {"type": "player_passed" if passed else "turn_ended", "player": player})
    return None


def mark_secondary(walk: Walk, entry: Entry) -> str | None:
    player = walk.player(entry, "faction")
    state = entry.text("state")
    if walk.strategic != "Trade":
        what = f"the {walk.strategic} secondary" if walk.strategic else "a secondary outside a strategic action"
        return f"the log format records only the Trade secondary, not {what}"
    if state != "DONE":
        return f"{state}: the Trade secondary was not used"
    walk.emit(entry, {"type": "trade_secondary", "player": player})
    return None


# -- objectives and victory points -----------------------------------------------------------


def reveal_objective(walk: Walk, entry: Entry) -> str | None:
    name = entry.text("objective")
    card = reference.objective(name)
    if card is None or card.kind != "public":
        return f"{name} is not a public objective of the reference data, so its stage is unknown"
    walk.emit(entry, {"type": "objective_revealed", "objective": card.name, "stage": card.stage})
    return None


def _score_key(walk: Walk, entry: Entry) -> tuple[str, str, str | None]:
    """(faction, folded objective, whose card) naming a score, so that an unscore finds it."""
    faction, name = entry.text("faction"), entry.text("objective")
    walk.player(entry, "faction")
    owner = entry.event.get("key")
    if owner is not None:
        walk.player(entry, "key")
    return faction, reference.key(name), owner


def score_objective(walk: Walk, entry: Entry) -> str | None:
    score = _score_key(walk, entry)
    player, name = walk.players[score[0]], entry.text("objective")
    card = reference.objective(name)
    if card is not None:
        line = {"type": "objective_scored", "player": player, "objective": card.name, "kind": card.kind, "points": card.points}
    elif score[1] in OTHER_VP:
        whose = f" of {walk.players[score[2]]} ({score[2]})" if score[2] else ""
        line = {"type": "vp_gained", "player": player, "points": 1, "source": OTHER_VP[score[1]] + whose}
    else:
        return f"{name} is neither an objective of the reference data nor a known source of victory points"
    walk.scores.setdefault(score, []).append(walk.emit(entry, line))
    return None


def unscore_objective(walk: Walk, entry: Entry) -> str | None:
    score = _score_key(walk, entry)
    scored = walk.scores.get(score)
    if not scored:
        return "no earlier score of it stands in the log to be voided"
    line = scored.pop()
    reason = f"TI Assistant: {entry.event['objective']} unscored for {score[0]}"
    walk.emit(entry, {"type": "correction", "voids": line, "reason": reason})
    return None


def end_game(walk: Walk, entry: Entry) -> str | None:
    # The app's winner is recorded as a claim, not as the end: the engine decides the end from the
    # VP track, and says how far the log's VP are from the goal the declared winner must have reached.
    if walk.winner not in walk.players:
        return "the app ended the game here; the export records no winner"
    walk.emit(entry, {"type": "winner_declared", "player": walk.players[walk.winner],
                      "reason": f"the app ended the game with {walk.winner} as the winner"})
    return None


TRANSLATORS: dict[str, Callable[[Walk, Entry], str | None]] = {
    "ADVANCE_PHASE": advance_phase,
    "SET_SPEAKER": set_speaker,
    "ASSIGN_STRATEGY_CARD": assign_strategy_card,
    "SELECT_ACTION": select_action,
    "END_TURN": end_turn,
    "MARK_SECONDARY": mark_secondary,
    "REVEAL_OBJECTIVE": reveal_objective,
    "SCORE_OBJECTIVE": score_objective,
    "UNSCORE_OBJECTIVE": unscore_objective,
    "END_GAME": end_game,
}
"""The kinds of entry this converter translates (END_GAME: the app's winner, as ``winner_declared``)."""
