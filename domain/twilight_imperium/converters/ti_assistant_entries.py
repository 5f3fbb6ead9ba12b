"""What each kind of TI Assistant action-log entry becomes in the log.

A translator takes the walk and one entry, in playing order. It either emits
the log lines the entry records and returns None, or emits nothing and
returns why the entry is kept as a ``note`` instead. Kinds without a
translator (techs, votes, leaders...) are kept as notes.

Turns, as the app plays them:

* ``SELECT_ACTION`` / ``END_TURN``: ``turn_started`` / ``turn_ended``, or
  ``player_passed`` for a pass. A selection names no player: the turn is that
  of the ``END_TURN`` that closes it (its ``prevFaction``). An ``END_TURN``
  with ``samePlayer`` does not end the turn (another action follows in it);
  one with no selection before it (``skipTurn``) is a turn with no action;
  a last selection that no ``END_TURN`` closes is the turn of the strategy
  card's holder (the game ended in it).
* ``SWAP_STRATEGY_CARDS``: ``strategy_cards_swapped``; ``UNPASS``:
  ``player_unpassed``.
* ``ADVANCE_PHASE``: the export stores the state of the phase being left; the
  phase entered follows the game's sequence (after the status phase: the
  agenda phase when the next state shows it). A new strategy phase starts a
  round. A speaker in that state other than the one known is a
  ``speaker_changed`` (the Politics Rider moves the speaker, and the export
  records it only there).
* ``ASSIGN_STRATEGY_CARD``: ``strategy_card_picked`` with the card's initiative.
* ``SELECT_ACTION`` of another strategy card: also ``strategic_action`` (the
  Imperial primary scores a public objective in the action phase only after
  it, LRR 34.5). ``SELECT_SUB_COMPONENT`` of a strategy card after
  ``PLAY_COMPONENT`` of Overrule (which performs a readied card's primary
  ability): ``strategic_action`` ``through`` Overrule; the component itself
  stays a note.
* ``SELECT_ACTION`` of Trade: also ``trade_primary``; ``MARK_SECONDARY`` DONE
  during it: ``trade_secondary`` (paid: the export does not say whom the
  primary player chose, which the header's ``not_recorded`` says).

Victory points, as the app counts them (its ``computeVPs``: the faction's
own points plus every objective it is a scorer of). Each point is a line:
``objective_scored`` for an objective card, ``vp_scored`` naming its source
for any other:

* ``SCORE_OBJECTIVE`` of a card of the reference data: ``objective_scored``;
  of another source (Support for the Throne, with ``key`` naming whose):
  ``vp_scored``. ``UNSCORE_OBJECTIVE``: a card's score is voided by a
  ``correction``; another source's point is lost.
* ``CLAIM_PLANET``: the first claim of Mecatol Rex scores the Custodians
  Token; a claim of Styx moves the Styx point (``UNCLAIM_PLANET`` takes it).
* ``SELECT_ACTION`` of Imperial (or Aeterna) by the player who controls Mecatol
  Rex: the Imperial Point.
* ``GAIN_RELIC`` / ``LOSE_RELIC`` / ``PURGE_RELIC`` of Shard of the Throne:
  its point moves; a purge with ``unravel`` scores Unravel.
* ``RESOLVE_AGENDA``: Political Censure, Shard of the Throne and The Crown
  of Emphidia score their target; Holy Planet of Ixth the planet's owner;
  Mutiny each player who voted For (For: +1, Against: -1 but never below 0);
  Seed of an Empire the players with the most (For) or fewest (Against) VP;
  an Imperial Rider on the outcome scores its player; Classified Document
  Leaks makes the target ``objective_made_public``. ``REPEAL_AGENDA`` of
  Political Censure takes its point back.
* ``REVEAL_OBJECTIVE`` of a stage I or II card: ``objective_revealed``; of
  another card (a secret, another deck): ``objective_made_public``.
* ``MANUAL_VP_UPDATE``: ``vp_scored`` of a manual correction.
* ``END_GAME``: a note. The result itself is the VP track's: the engine ends
  the game when a player reaches the goal.

After the last entry, what an archive declares of the result (the Hall of
Records adds these to the export's ``data``; TI Assistant writes none), each
line's ``source`` naming its field: ``data.winner``: ``winner_declared``;
each of ``data.finalScoreOverrides``: ``score_declared``; each of
``data.imperialVPOverrides`` (the Imperial points the table applied):
``adjustment_declared`` of the Imperial Point, which the rules weigh and never
apply.

Every line carries ``at`` and ``source`` (``actionLog[123]``); ``vp_scored``
names where its point came from in ``origin``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from gamelog.domain.conversion import ConversionError, Summary
from gamelog.domain.twilight_imperium.converters.ti_assistant_notes import sentence
from gamelog.domain.twilight_imperium.converters.ti_assistant_shape import Entry, text
from gamelog.domain.twilight_imperium import reference

OTHER_VP = {reference.key(name): name for name in (
    "Support for the Throne", "Custodians Token", "Imperial Point", "Shard of the Throne",
    "The Crown of Emphidia", "Holy Planet of Ixth", "Styx", "Political Censure", "Mutiny",
    "Seed of an Empire", "Imperial Rider", "The Silver Flame", "Zealous Orthodoxy", "Unravel",
)}
"""Sources of victory points that are not objective cards (the app's objectives of type OTHER); each gives 1 VP."""

AGENDA_VP = frozenset({"Political Censure", "Shard of the Throne", "The Crown of Emphidia"})
"""Agendas whose elected player scores 1 VP (the app scores the target)."""

PRIMARY_THROUGH = frozenset({"Overrule"})
"""Components whose sub-component is a strategy card whose primary ability the player performs (Thunder's Edge's
Overrule: "ACTION: Perform the primary ability of a readied or unchosen strategy card", the app's data)."""

IMPERIAL = frozenset({"Imperial", "Aeterna"})
"""Strategy cards whose primary scores the Imperial Point for the holder of Mecatol Rex."""

NEXT_PHASE = {"SETUP": "strategy", "STRATEGY": "action", "ACTION": "status", "AGENDA": "strategy"}
"""The phase after each phase of the export (the status phase is decided apart)."""


@dataclass
class Turns:
    """Who plays each action, read ahead from the END_TURN entries.

    ``player`` maps a SELECT_ACTION's index to the faction whose turn it is in
    (the ``prevFaction`` of the END_TURN closing that turn); ``first`` holds
    the selections that start a turn (the others follow a ``samePlayer``
    END_TURN); ``empty`` the END_TURN entries that close a turn with no
    selection (``skipTurn``); ``open`` the selections no END_TURN closes.
    """

    player: dict[int, str] = field(default_factory=dict)
    closer: dict[int, int] = field(default_factory=dict)
    first: set[int] = field(default_factory=set)
    empty: set[int] = field(default_factory=set)
    open: set[int] = field(default_factory=set)


def read_turns(entries: list[Entry]) -> Turns:
    turns = Turns()
    selected: list[Entry] = []
    for e in entries:
        if e.action == "SELECT_ACTION":
            if not selected:
                turns.first.add(e.index)
            selected.append(e)
        elif e.action == "END_TURN":
            faction = e.event.get("prevFaction")
            if not selected and not e.event.get("samePlayer"):
                turns.empty.add(e.index)
            for s in selected:
                if isinstance(faction, str):
                    turns.player[s.index], turns.closer[s.index] = faction, e.index
            if not e.event.get("samePlayer"):
                selected = []
        elif e.action == "ADVANCE_PHASE":
            turns.open.update(s.index for s in selected if s.index not in turns.player)
            selected = []
    turns.open.update(s.index for s in selected if s.index not in turns.player)
    return turns


@dataclass(frozen=True)
class Declarations:
    """What an archive declares of the result: the winner (a faction), final scores and Imperial points by faction."""

    winner: str | None = None
    final_scores: dict[str, int] = field(default_factory=dict)
    imperial: dict[str, int] = field(default_factory=dict)


class Walk:
    """The conversion in progress: the lines written so far and what later entries need to know.

    Besides the turns read ahead, it follows what the app derives points
    from: who owns each planet, who holds each strategy card and relic, the
    players' VP so far, and the votes and riders of the agenda being resolved.
    """

    def __init__(self, factions: dict[str, str], entries: list[Entry], header: dict[str, Any],
                 declared: Declarations, summary: Summary):
        self.players = factions
        self.lines: list[dict[str, Any]] = [header]
        self.summary = summary
        summary.types["game"] = 1
        self.declared = declared
        self.round = 0
        player_to_faction = {p: f for f, p in factions.items()}
        self.speaker = player_to_faction.get(header["setup"].get("speaker", ""))
        self.strategic: str | None = None
        self.active: str | None = None
        self.component: tuple[str, str] | None = None  # (component, faction) played in this turn
        self.scores: dict[tuple[str, str, str | None], list[tuple[int, int]]] = {}
        self.turns = read_turns(entries)
        self.next_phase_change = _next_phase_changes(entries)
        self.owner: dict[str, str] = {}
        self.custodians_taken = False
        self.cards: dict[str, str] = {}
        self.relics: dict[str, str] = {}
        self.vp: dict[str, int] = {f: 0 for f in factions}
        self.votes: list[dict[str, Any]] = []
        self.riders: list[dict[str, Any]] = []
        self.sub_agenda: str | None = None

    def player(self, entry: Entry, key: str, within: dict[str, Any] | None = None, path: str | None = None) -> str:
        """The player of the faction named at ``key``. Raises ConversionError for an unknown faction."""
        return self.players[self.faction(entry, key, within, path)]

    def faction(self, entry: Entry, key: str, within: dict[str, Any] | None = None, path: str | None = None) -> str:
        """The faction named at ``key``, one of the export's. Raises ConversionError otherwise."""
        faction = entry.text(key, within, path)
        if faction not in self.players:
            where = f"{path or entry.path}.{key}"
            raise ConversionError(where, f"unknown faction {faction!r} (the export's factions: {', '.join(self.players)})")
        return faction

    def emit(self, entry: Entry, line: dict[str, Any]) -> int:
        """Write one log line taken from ``entry``; returns its line number (the header is line 1)."""
        self.lines.append({**line, "at": entry.at, "source": entry.source})
        self.summary.types[line["type"]] = self.summary.types.get(line["type"], 0) + 1
        return len(self.lines)

    def point(self, entry: Entry, faction: str, source: str, why: str, lost: bool = False) -> int:
        """One ``vp_scored`` line: ``faction`` gains (or loses) 1 VP from ``source``."""
        self.vp[faction] += -1 if lost else 1
        line: dict[str, Any] = {"type": "vp_scored", "player": self.players[faction], "points": 1, "origin": source,
                                "reason": f"{why} [{entry.source}]"}
        if lost:
            line["lost"] = True
        return self.emit(entry, line)

    def declare(self, last: Entry) -> None:
        """Write what the archive declares of the result, after the last entry (at its time), each line's
        ``source`` naming the export's field."""
        d, app = self.declared, "TI Assistant writes none"
        lines: list[tuple[str, dict[str, Any]]] = []
        if d.winner is not None:
            lines.append(("data.winner", {"type": "winner_declared", "player": self.players[d.winner],
                                          "reason": f"the archive's data.winner: {d.winner} ({app})"}))
        for faction, score in d.final_scores.items():
            lines.append(("data.finalScoreOverrides", {
                "type": "score_declared", "player": self.players[faction], "score": score,
                "reason": f"the archive's data.finalScoreOverrides: {faction} {score} VP ({app})"}))
        for faction, points in d.imperial.items():
            lines.append(("data.imperialVPOverrides", {
                "type": "adjustment_declared", "player": self.players[faction], "origin": "Imperial Point",
                "points": points,
                "reason": f"the archive's data.imperialVPOverrides: {faction} {points} Imperial VP applied ({app})"}))
        for source, line in lines:
            self.lines.append({**line, "at": last.at, "source": source})
            self.summary.types[line["type"]] = self.summary.types.get(line["type"], 0) + 1

    def translate(self, entry: Entry) -> None:
        """Write what ``entry`` records, or keep it as a note; count it in the summary."""
        translator = TRANSLATORS.get(entry.action)
        reason = translator(self, entry) if translator else ""
        if reason is not None:
            self.note(entry, reason)
        self.summary.count(entry.action, translated=reason is None)

    def note(self, entry: Entry, reason: str) -> None:
        """Keep the entry as a ``note``: what it records in a sentence, and why it was not translated
        (``ti_assistant_notes``; the line's ``source`` names the entry)."""
        line: dict[str, Any] = {"type": "note", "text": sentence(entry.action, entry.event, reason, self.strategic)}
        faction = entry.event.get("faction", entry.event.get("factionId"))
        if isinstance(faction, str) and faction in self.players:
            line["player"] = self.players[faction]
        self.emit(entry, line)


def _next_phase_changes(entries: list[Entry]) -> dict[int, Entry]:
    """ADVANCE_PHASE index -> the next ADVANCE_PHASE."""
    out: dict[int, Entry] = {}
    change: Entry | None = None
    for e in entries:
        if e.action == "ADVANCE_PHASE":
            if change is not None:
                out[change.index] = e
            change = e
    return out


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
        walk.cards = {}
    walk.emit(entry, {"type": "phase_started", "phase": phase})
    walk.strategic = walk.active = None
    return None


def set_speaker(walk: Walk, entry: Entry) -> str | None:
    walk.emit(entry, {"type": "speaker_changed", "player": walk.player(entry, "newSpeaker")})
    walk.speaker = entry.event["newSpeaker"]
    return None


# -- strategy cards and turns -------------------------------------------------------------


def assign_strategy_card(walk: Walk, entry: Entry) -> str | None:
    card = entry.text("id")
    faction = walk.faction(entry, "assignedTo")
    initiative = reference.strategy_cards().get(reference.key(card))
    if initiative is None:
        return f"{card} is not one of the 8 strategy cards, so its initiative is unknown"
    walk.cards[card] = faction
    walk.emit(entry, {"type": "strategy_card_picked", "player": walk.players[faction], "card": card, "initiative": initiative})
    return None


def swap_strategy_cards(walk: Walk, entry: Entry) -> str | None:
    one, two = entry.text("cardOne"), entry.text("cardTwo")
    walk.cards[one], walk.cards[two] = walk.cards.get(two, ""), walk.cards.get(one, "")
    walk.emit(entry, {"type": "strategy_cards_swapped", "cards": [one, two]})
    return None


def unpass(walk: Walk, entry: Entry) -> str | None:
    walk.emit(entry, {"type": "player_unpassed", "player": walk.player(entry, "factionId")})
    return None


def _turn_player(walk: Walk, entry: Entry, action: str) -> str | None:
    """The faction whose turn a selection is in: its END_TURN's, else (the game's last turn) the card holder's."""
    if entry.index in walk.turns.player:
        faction = walk.turns.player[entry.index]
        if faction not in walk.players:
            where = f"$.actionLog[{walk.turns.closer[entry.index]}].data.event.prevFaction"
            raise ConversionError(where, f"unknown faction {faction!r} (the export's factions: {', '.join(walk.players)})")
        return faction
    holder = walk.cards.get(action)
    return holder if holder in walk.players else None


def select_action(walk: Walk, entry: Entry) -> str | None:
    action = entry.text("action")
    faction = _turn_player(walk, entry, action)
    if faction is None:
        return "no END_TURN closes this turn and no strategy card names its player, so the export does not say whose it was"
    emitted = False
    if entry.index in walk.turns.first:
        walk.emit(entry, {"type": "turn_started", "player": walk.players[faction]})
        walk.active, emitted = faction, True
    walk.strategic, walk.component = action, None
    if action == "Trade":
        walk.emit(entry, {"type": "trade_primary", "player": walk.players[faction]})
        emitted = True
    elif reference.key(action) in reference.strategy_cards():
        walk.emit(entry, {"type": "strategic_action", "player": walk.players[faction], "card": action})
        emitted = True
    if action in IMPERIAL and walk.owner.get("Mecatol Rex") == faction:
        walk.point(entry, faction, "Imperial Point", f"{action} primary while controlling Mecatol Rex")
        emitted = True
    return None if emitted else f"another action ({action}) in {faction}'s turn"


def end_turn(walk: Walk, entry: Entry) -> str | None:
    faction = walk.faction(entry, "prevFaction")
    player = walk.players[faction]
    if entry.event.get("samePlayer"):
        return f"{faction}'s turn goes on: another action follows in it"
    passed = entry.event.get("selectedAction", walk.strategic) == "Pass"
    if entry.index in walk.turns.empty:
        walk.emit(entry, {"type": "turn_started", "player": player})  # a turn with no action (skipTurn)
    walk.emit(entry, {"type": "player_passed" if passed else "turn_ended", "player": player})
    walk.active = walk.strategic = walk.component = None
    return None


def play_component(walk: Walk, entry: Entry) -> str | None:
    """Kept as a note (the log format records no components); remembered for the sub-component chosen next."""
    faction = entry.event.get("factionId")
    name = entry.event.get("name")
    walk.component = (name, faction) if isinstance(name, str) and faction in walk.players else None
    return ""


def select_sub_component(walk: Walk, entry: Entry) -> str | None:
    """A strategy card chosen for a component that performs its primary ability: ``strategic_action`` through it."""
    card = entry.event.get("subComponent")
    played = walk.component
    if played is None or played[0] not in PRIMARY_THROUGH or not isinstance(card, str) \
            or reference.key(card) not in reference.strategy_cards():
        return ""
    walk.emit(entry, {"type": "strategic_action", "player": walk.players[played[1]], "card": card, "through": played[0]})
    return None


def mark_secondary(walk: Walk, entry: Entry) -> str | None:
    player = walk.player(entry, "faction")
    state = entry.text("state")
    if walk.strategic != "Trade":
        return "the log format records only the Trade secondary"  # the note's sentence names the card
    if state != "DONE":
        return "a Trade secondary not used is no line of the log"
    walk.emit(entry, {"type": "trade_secondary", "player": player})
    return None


# -- objectives ----------------------------------------------------------------------------


def reveal_objective(walk: Walk, entry: Entry) -> str | None:
    name = entry.text("objective")
    card = reference.objective(name)
    if card is not None and card.kind == "public":
        walk.emit(entry, {"type": "objective_revealed", "objective": card.name, "stage": card.stage})
    else:
        what = "a secret objective" if card is not None else "a card that is not a stage I or II objective"
        walk.emit(entry, {"type": "objective_made_public", "objective": card.name if card else name,
                          "reason": f"TI Assistant reveals {what} as public"})
    return None


def _score_key(walk: Walk, entry: Entry) -> tuple[str, str, str | None]:
    """(faction, folded objective, whose card) naming a score, so that an unscore finds it."""
    faction, name = walk.faction(entry, "faction"), entry.text("objective")
    owner = entry.event.get("key")
    if owner is not None:
        walk.faction(entry, "key")
    return faction, reference.key(name), owner


def _public(walk: Walk, name: str) -> bool:
    """True when a secret card was made public earlier in the log (Classified Document Leaks)."""
    return any(l["type"] == "objective_made_public" and l["objective"] == name for l in walk.lines)


def score_objective(walk: Walk, entry: Entry) -> str | None:
    score = _score_key(walk, entry)
    faction, name = score[0], entry.text("objective")
    card = reference.objective(name)
    if card is not None:
        kind = "public" if card.kind == "secret" and _public(walk, card.name) else card.kind
        line = walk.emit(entry, {"type": "objective_scored", "player": walk.players[faction], "objective": card.name,
                                 "kind": kind, "points": card.points})
        walk.vp[faction] += card.points
        walk.scores.setdefault(score, []).append((line, card.points))
    elif score[1] in OTHER_VP:
        whose = f" of {walk.players[score[2]]} ({score[2]})" if score[2] else ""
        walk.point(entry, faction, OTHER_VP[score[1]], f"scored{whose}")
    else:
        return f"{name} is neither an objective of the reference data nor a known source of victory points"
    return None


def unscore_objective(walk: Walk, entry: Entry) -> str | None:
    score = _score_key(walk, entry)
    faction = score[0]
    if score[1] in OTHER_VP and reference.objective(entry.text("objective")) is None:
        held = sum(1 if not l.get("lost") else -1 for l in walk.lines
                   if l["type"] == "vp_scored" and l["origin"] == OTHER_VP[score[1]] and l["player"] == walk.players[faction]
                   and (score[2] is None or f"({score[2]})" in l["reason"] or l.get("lost")))
        if held <= 0:
            return "no point of it stands in the log to be lost (the app changes nothing)"
        whose = f" of {walk.players[score[2]]} ({score[2]})" if score[2] else ""
        walk.point(entry, faction, OTHER_VP[score[1]], f"unscored{whose}", lost=True)
        return None
    scored = walk.scores.get(score)
    if not scored:
        return "no earlier score of it stands in the log to be voided (the app changes nothing)"
    line, points = scored.pop()
    walk.vp[faction] -= points
    reason = f"TI Assistant: {entry.event['objective']} unscored for {faction}"
    walk.emit(entry, {"type": "correction", "voids": line, "reason": reason})
    return None


# -- planets and relics --------------------------------------------------------------------


def claim_planet(walk: Walk, entry: Entry) -> str | None:
    faction, planet = walk.faction(entry, "faction"), entry.text("planet")
    before = walk.owner.get(planet)
    walk.owner[planet] = faction
    emitted = False
    if planet == "Mecatol Rex" and before is None and not walk.custodians_taken:
        walk.custodians_taken = True
        walk.point(entry, faction, "Custodians Token", "first to take Mecatol Rex")
        emitted = True
    if planet == "Styx" and before != faction:
        if before is not None:
            walk.point(entry, before, "Styx", f"Styx taken by {faction}", lost=True)
        walk.point(entry, faction, "Styx", "controls Styx")
        emitted = True
    return None if emitted else "the log format does not track planets"


def unclaim_planet(walk: Walk, entry: Entry) -> str | None:
    faction, planet = walk.faction(entry, "faction"), entry.text("planet")
    if walk.owner.get(planet) == faction:
        del walk.owner[planet]
        if planet == "Styx":
            walk.point(entry, faction, "Styx", "no longer controls Styx", lost=True)
            return None
    return "the log format does not track planets"


def gain_relic(walk: Walk, entry: Entry) -> str | None:
    faction, relic = walk.faction(entry, "faction"), entry.text("relic")
    walk.relics[relic] = faction
    if relic == "Shard of the Throne":
        walk.point(entry, faction, relic, "gained the relic")
        return None
    return "the log format does not track relics"


def lose_relic(walk: Walk, entry: Entry) -> str | None:
    faction, relic = walk.faction(entry, "faction"), entry.text("relic")
    walk.relics.pop(relic, None)
    if relic == "Shard of the Throne":
        walk.point(entry, faction, relic, "lost the relic", lost=True)
        return None
    return "the log format does not track relics"


def purge_relic(walk: Walk, entry: Entry) -> str | None:
    relic = entry.text("relic")
    owner = walk.relics.pop(relic, None)
    if owner is None:
        return f"the log format does not track relics ({relic} purged)"
    if entry.event.get("unravel"):
        walk.point(entry, owner, "Unravel", f"purged {relic}")
    if relic == "Shard of the Throne":
        walk.point(entry, owner, relic, "purged the relic", lost=True)
    return None if entry.event.get("unravel") or relic == "Shard of the Throne" else f"{relic} purged; it gives no VP"


# -- agendas -------------------------------------------------------------------------------


def reveal_agenda(walk: Walk, entry: Entry) -> str | None:
    walk.votes, walk.riders, walk.sub_agenda = [], [], None
    return "the log format does not track agendas"


def cast_votes(walk: Walk, entry: Entry) -> str | None:
    walk.votes.append(entry.event)
    return "the log format does not track votes"


def play_rider(walk: Walk, entry: Entry) -> str | None:
    walk.riders.append(entry.event)
    return "a rider gives VP (Imperial Rider) when its outcome wins; the resolution says"


def select_sub_agenda(walk: Walk, entry: Entry) -> str | None:
    walk.sub_agenda = entry.text("subAgenda")
    return "Covert Legislation: the agenda it resolves as"


def resolve_agenda(walk: Walk, entry: Entry) -> str | None:
    agenda, target = entry.text("agenda"), entry.text("target")
    if agenda == "Covert Legislation" and walk.sub_agenda:
        agenda = walk.sub_agenda
    lines = len(walk.lines)
    if agenda in AGENDA_VP and target in walk.players:
        walk.point(entry, target, agenda, f"elected by {agenda}")
    elif agenda == "Holy Planet of Ixth":
        owner = target if target in walk.players else walk.owner.get(target)
        if owner is not None:
            walk.point(entry, owner, agenda, f"controls {target}")
    elif agenda == "Classified Document Leaks":
        card = reference.objective(target)
        walk.emit(entry, {"type": "objective_made_public", "objective": card.name if card else target,
                          "reason": "Classified Document Leaks"})
    elif agenda == "Mutiny":
        _mutiny(walk, entry, target)
    elif agenda == "Seed of an Empire":
        best = (max if target == "For" else min)(walk.vp.values())
        for faction, vp in list(walk.vp.items()):
            if vp == best:
                walk.point(entry, faction, agenda, f"{'most' if target == 'For' else 'fewest'} VP ({vp})")
    for rider in walk.riders:
        if rider.get("rider") == "Imperial Rider" and rider.get("outcome") == target and rider.get("faction") in walk.players:
            walk.point(entry, rider["faction"], "Imperial Rider", f"its outcome ({target}) won {agenda}")
    return None if len(walk.lines) > lines else f"{agenda} ({target}) gives no VP"


def _mutiny(walk: Walk, entry: Entry, target: str) -> None:
    """Mutiny: each player who voted For gains 1 VP (For) or loses 1 VP, never below 0 (Against)."""
    for vote in walk.votes:
        faction = vote.get("faction")
        if vote.get("target") != "For" or faction not in walk.players:
            continue
        if target == "For":
            walk.point(entry, faction, "Mutiny", "voted For; Mutiny passed")
        elif walk.vp[faction] > 0:
            walk.point(entry, faction, "Mutiny", "voted For; Mutiny failed", lost=True)


def repeal_agenda(walk: Walk, entry: Entry) -> str | None:
    agenda, target = entry.text("agenda"), entry.event.get("target")
    if agenda in AGENDA_VP and target in walk.players:
        walk.point(entry, target, agenda, f"{agenda} repealed", lost=True)
        return None
    return f"{agenda} repealed; it gives no VP"


def manual_vp_update(walk: Walk, entry: Entry) -> str | None:
    faction, vps = walk.faction(entry, "faction"), entry.event.get("vps")
    if not isinstance(vps, int) or isinstance(vps, bool) or vps == 0:
        return "no change of VP"
    for _ in range(abs(vps)):
        walk.point(entry, faction, "Manual VP update", "set by hand in the app", lost=vps < 0)
    return None


def end_game(walk: Walk, entry: Entry) -> str | None:
    # The app stores no winner: the VP track makes the result. An archive's own fields follow the last entry.
    d = walk.declared
    follows = "; the archive's declared result follows at the end of the log" if d.winner or d.final_scores or d.imperial else ""
    return f"the app ended the game here{follows}"


TRANSLATORS: dict[str, Callable[[Walk, Entry], str | None]] = {
    "ADVANCE_PHASE": advance_phase,
    "SET_SPEAKER": set_speaker,
    "ASSIGN_STRATEGY_CARD": assign_strategy_card,
    "SWAP_STRATEGY_CARDS": swap_strategy_cards,
    "UNPASS": unpass,
    "SELECT_ACTION": select_action,
    "END_TURN": end_turn,
    "MARK_SECONDARY": mark_secondary,
    "PLAY_COMPONENT": play_component,
    "SELECT_SUB_COMPONENT": select_sub_component,
    "REVEAL_OBJECTIVE": reveal_objective,
    "SCORE_OBJECTIVE": score_objective,
    "UNSCORE_OBJECTIVE": unscore_objective,
    "CLAIM_PLANET": claim_planet,
    "UNCLAIM_PLANET": unclaim_planet,
    "GAIN_RELIC": gain_relic,
    "LOSE_RELIC": lose_relic,
    "PURGE_RELIC": purge_relic,
    "REVEAL_AGENDA": reveal_agenda,
    "CAST_VOTES": cast_votes,
    "PLAY_RIDER": play_rider,
    "SELECT_SUB_AGENDA": select_sub_agenda,
    "RESOLVE_AGENDA": resolve_agenda,
    "REPEAL_AGENDA": repeal_agenda,
    "MANUAL_VP_UPDATE": manual_vp_update,
    "END_GAME": end_game,
}
"""The kinds of entry this converter reads; a translator that returns a reason keeps its entry as a note."""
