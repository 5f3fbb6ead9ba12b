"""AsyncTI4 saves to log format v1 (Twilight Imperium 4): a round-level log of what a save tells.

A save (``asyncti4_save``) is the game's state now, with breadcrumbs of its
history in the newer saves. The log is written in this order:

1. the header: players (by the display name the save gives each seat; by the
   Discord user id where names are missing or repeated), factions, the VP
   goal, and ``not_recorded`` (a save keeps no secret draws, trade goods,
   command tokens, Trade choices or secondaries), then notes with the
   colours, the seats on the map, the rule variants and decks;
2. per round up to the save's: ``round_started``, the strategy phase with the
   picks the breadcrumbs give (``Round<N>SCPickFor<faction>``), the action
   phase, the status phase with the objectives the breadcrumbs place in it
   (``<faction>round<N>PO`` / ``SO``) and the public objective revealed then
   (the first two in setup, one per status phase, in the save's reveal order,
   when the count of reveals fits the rounds played);
3. the end: a note, then every VP the breadcrumbs do not place in a round
   (all of them in older saves), the laws in play, what was not read, and
   the winner when the bot's end flag is set.

The VP per player are the bot's own total (``asyncti4_points``). The game's id
is the caller's, else the game's name in the save (``pbd10972``): saves of one
game share it, and a later save's rounds are written as the earlier's were.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from gamelog.domain.conversion import Conversion, ConversionError, Summary
from gamelog.domain.twilight_imperium import reference
from gamelog.domain.twilight_imperium.converters.asyncti4_points import Point, points, public_card, totals
from gamelog.domain.twilight_imperium.converters.asyncti4_save import Save, Seat, read_save, unescape

SOURCE = "asyncti4"
GAME = "twilight-imperium-4"
NOT_RECORDED = ["secret_objectives", "trade_goods", "command_tokens", "trade_chosen", "secondary_order",
                "score_timing"]
"""What no save tells: secret draws and returns, trade goods and commodities over time, command tokens, whom the
Trade holder chose, the order of secondaries (and no turn order inside a round). ``score_timing``: a save places some
points in a round through its breadcrumbs, never all (custom points, action-phase secrets, every point of a save from
before 2025), and those it cannot place are written at the end; the checks of when a point was scored (the phase,
one public and one secret a status phase, nothing after the end) are then unverifiable, never findings of where the
converter put it. Every save of a game gives the same header, so that a later save's log can extend an earlier
one's."""
INFO_READ = frozenset({"round", "phase_of_game", "vp_count", "game_has_ended", "ended_date", "creation_date",
                       "player_count_for_map", "revealedPublicObjectives", "customPublicVP", "scoredPublicObjectives",
                       "so_to_po", "law", "law_info", "strategy_card_set", "check_reacts_info"})
MODES = ("base_game_mode", "absol_mode", "discordant_stars_mode", "thunders_edge_mode", "miltymod_mode", "homebrew_sc_mode")
DECKS = ("stage_1_public_deck_id", "stage_2_public_deck_id", "so_deck_id", "agenda_deck_id", "relic_deck_id")
SEAT_READ = frozenset({"faction", "color", "dummy", "secret_objectives_scored", "promissory_notes_play_area"})
CARDS = {number: name for name, number in reference.strategy_cards().items()}
"""Initiative number -> strategy card (folded name), as the bot records picks."""
PHASES = ("strategy", "action", "status", "agenda")


def _date(save: Save) -> str | None:
    """``creation_date`` (``2025.06.17``) as ISO 8601, or None."""
    raw = save.value("creation_date")
    try:
        return datetime.strptime(raw, "%Y.%m.%d").strftime("%Y-%m-%d")
    except ValueError:
        return None


def _iso(millis: str | None) -> str | None:
    if not millis or not millis.isdigit() or int(millis) <= 0:
        return None
    moment = datetime.fromtimestamp(int(millis) // 1000, tz=timezone.utc)
    return f"{moment:%Y-%m-%dT%H:%M:%S}.{int(millis) % 1000:03d}Z"


def name_players(save: Save) -> dict[str, Seat]:
    """Player name -> seat, in the save's seat order: the display name, else (missing or repeated) the user id."""
    playing = [s for s in save.seats if s.plays]
    if not playing:
        raise ConversionError("-playerinfo-", "no seat holds a faction: there is no game to convert")
    names = [s.name for s in playing]
    ids = {s.user_id for s in save.seats}
    out: dict[str, Seat] = {}
    for seat in playing:
        usable = seat.name and names.count(seat.name) == 1 and seat.name not in ids
        out[seat.name if usable else seat.user_id] = seat
    return out


class Writer:
    """The log being written, and the summary of what became of each kind of entry."""

    def __init__(self) -> None:
        self.lines: list[dict[str, Any]] = []
        self.summary = Summary(SOURCE)

    def write(self, line: dict[str, Any], at: str | None) -> None:
        if at is not None:
            line = {**line, "at": at}
        self.lines.append(line)
        self.summary.types[line["type"]] = self.summary.types.get(line["type"], 0) + 1

    def note(self, text: str, source: str, at: str | None, player: str | None = None) -> None:
        line = {"type": "note", "text": text, "source": source}
        if player is not None:
            line["player"] = player
        self.write(line, at)


def convert(export: bytes | str, game_id: str | None = None) -> Conversion:
    """Convert an AsyncTI4 save (bytes or text) to a v1 log and its summary.

    Raises ConversionError (``at line N`` or at the game-info key) for text
    that is not a save, a save cut short, or a save with no player.
    """
    save = read_save(export)
    seats = name_players(save)
    players = {seat.user_id: name for name, seat in seats.items()}
    faction_of = {seat.faction: name for name, seat in seats.items()}
    w = Writer()
    goal = save.number("vp_count", 10)
    rounds = save.number("round", 1)
    if goal <= 0:
        raise ConversionError("game-info key vp_count", "expected a VP goal above 0")
    created = _date(save)
    notes: list[tuple[str, str]] = []
    sources = points(save, players, seats, notes)
    placed = _place(save, faction_of, sources)
    _header(w, save, seats, goal, game_id, created)
    reveals, reveal_rounds = _reveals(save, rounds, w)
    for card in reveals[:2] if reveal_rounds is not None else []:
        w.write({"type": "objective_revealed", "objective": card.name, "stage": card.stage,
                 "source": "revealedPublicObjectives (setup)"}, created)
    for r in range(1, rounds + 1):
        _round(w, save, r, rounds, seats, faction_of, placed,
               reveals[1 + r] if reveal_rounds is not None and r in reveal_rounds else None)
    _end(w, save, seats, sources, placed, notes, reveals if reveal_rounds is None else [], goal)
    return Conversion(w.lines, w.summary)


def _header(w: Writer, save: Save, seats: dict[str, Seat], goal: int, game_id: str | None, created: str | None) -> None:
    factions = {name: seat.faction or "" for name, seat in seats.items()}
    setup: dict[str, Any] = {"factions": factions, "vp_goal": goal}
    unknown = [name for name, faction in factions.items() if reference.faction(faction) is None]
    if unknown:
        setup["unknown_commodities"] = unknown
    colors = {name: colour for name, seat in seats.items()
              if (colour := seat.keys.get("color", "").strip()) and colour != "null"}
    if colors:
        setup["colors"] = colors
    w.write({"type": "game", "game": GAME, "id": game_id if game_id is not None else save.game_name,
             "players": list(seats), "setup": setup, "not_recorded": NOT_RECORDED, "source": "gameinfo"}, created)
    for seat in save.seats:
        w.summary.count("seat", seat.plays)
        if not seat.plays:
            why = "no faction" if seat.faction is None else "the neutral (dummy) seat"
            w.note(f"the seat of {seat.name or seat.user_id} (user {seat.user_id}) is not a player: {why}",
                   f"-player- at line {seat.line}", created)
    colours = ", ".join(f"{name} {seat.keys.get('color', '').strip() or 'no colour'}" for name, seat in seats.items())
    people = ", ".join(f"{name} is user {seat.user_id}" for name, seat in seats.items())
    w.note(f"AsyncTI4 game {save.game_name}: {len(seats)} players, "
           f"{save.value('player_count_for_map', '?')} seats on the map; colours: {colours}; {people}", "playerinfo", created)
    modes = [m.removesuffix("_mode") for m in MODES if save.value(m) == "true"]
    decks = ", ".join(f"{d} {save.value(d)}" for d in DECKS if save.value(d))
    w.note(f"strategy cards {save.value('strategy_card_set') or 'not stated'}; variants: {', '.join(modes) or 'none'}; "
           f"decks: {decks or 'not stated'}", "gameinfo", created)


def _place(save: Save, faction_of: dict[str | None, str], sources: list[Point]) -> dict[int, list[Point]]:
    """Round -> the scores the breadcrumbs place in its status phase (``<faction>round<N>PO`` / ``SO``)."""
    placed: dict[int, list[Point]] = {}
    taken: set[int] = set()
    for key, value in save.breadcrumbs.items():
        for faction, player in faction_of.items():
            prefix = f"{faction}round"
            if not key.startswith(prefix) or not key.endswith(("PO", "SO")) or not key[len(prefix):-2].isdigit():
                continue
            name = reference.key(unescape(value))
            match = next((i for i, p in enumerate(sources) if i not in taken and p.player == player
                          and p.line["type"] == "objective_scored" and p.secret == key.endswith("SO")
                          and reference.key(p.name) == name), None)
            if match is not None:
                taken.add(match)
                placed.setdefault(int(key[len(prefix):-2]), []).append(sources[match])
    return placed


def _reveals(save: Save, rounds: int, w: Writer) -> tuple[list[reference.Objective], set[int] | None]:
    """The public cards in reveal order, and the rounds whose status phase revealed the 3rd, 4th...

    None for the rounds when the count of reveals does not fit the rounds
    played (an agenda or card revealed one more): then every reveal is
    written at the end, not placed.
    """
    order = sorted(save.pairs("revealedPublicObjectives"), key=lambda p: int(p[1]) if p[1].isdigit() else 0)
    cards = []
    for obj, _ in order:
        card = public_card(obj)
        w.summary.count("revealed objective", card is not None)
        if card is not None:
            cards.append(card)
    flagged = sorted(int(k[len("revealedPOInRound"):]) for k in save.breadcrumbs
                     if k.startswith("revealedPOInRound") and k[len("revealedPOInRound"):].isdigit())
    status_done = rounds - 1 + (save.value("phase_of_game").startswith("agenda"))
    if flagged:
        fits = flagged == list(range(1, len(flagged) + 1)) and len(cards) == 2 + len(flagged)
        return cards, set(flagged) if fits else None
    for done in (status_done, status_done + 1):
        if len(cards) == 2 + done and done <= rounds:
            return cards, set(range(1, done + 1))
    return cards, None


def _phase_of_save(save: Save) -> int:
    """The index in PHASES of the phase the save stands in (``statusScoring`` is the status phase)."""
    raw = save.value("phase_of_game").casefold()
    return next((i for i, p in enumerate(PHASES) if raw.startswith(p)), 2)


def _round(w: Writer, save: Save, r: int, rounds: int, seats: dict[str, Seat], faction_of: dict[str | None, str],
           placed: dict[int, list[Point]], reveal: reference.Objective | None) -> None:
    crumbs = save.breadcrumbs
    at = _iso(crumbs.get(f"startTimeOfRound{r}Strategy"))
    w.write({"type": "round_started", "round": r, "source": f"round {r}"}, at)
    last = _phase_of_save(save) if r == rounds else 2
    w.write({"type": "phase_started", "phase": "strategy", "source": f"round {r}"}, at)
    for name, seat in seats.items():
        key = f"Round{r}SCPickFor{seat.faction}"
        if key not in crumbs:
            continue
        value = crumbs[key]
        if value.isdigit() and int(value) in CARDS:
            card = CARDS[int(value)]
            w.write({"type": "strategy_card_picked", "player": name, "card": card.capitalize(),
                     "initiative": int(value), "source": f"check_reacts_info {key}"}, at)
            w.summary.count("strategy card pick", True)
        else:
            w.note(f"{name}'s pick in round {r} is recorded as {unescape(value)!r}, not a strategy card",
                   f"check_reacts_info {key}", at, name)
            w.summary.count("strategy card pick", False)
    if last >= 1:
        w.write({"type": "phase_started", "phase": "action", "source": f"round {r}"}, at)
    if last >= 2:
        status_at = _iso(crumbs.get(f"startTimeOfRound{r}StatusScoring")) or at
        w.write({"type": "phase_started", "phase": "status", "source": f"round {r}"}, status_at)
        for point in sorted(placed.get(r, []), key=lambda p: (list(seats).index(p.player), p.secret)):
            faction = seats[point.player].faction
            w.write({**point.line, "phase": "status",
                     "source": f"check_reacts_info {faction}round{r}{'SO' if point.secret else 'PO'}"}, status_at)
            w.summary.count(point.kind, True)
        if reveal is not None:
            w.write({"type": "objective_revealed", "objective": reveal.name, "stage": reveal.stage,
                     "source": f"revealedPublicObjectives (round {r})"}, status_at)
    if last >= 3:
        w.write({"type": "phase_started", "phase": "agenda", "source": f"round {r}"},
                _iso(crumbs.get(f"startTimeOfRound{r}Agenda1")) or at)


def _end(w: Writer, save: Save, seats: dict[str, Seat], sources: list[Point], placed: dict[int, list[Point]],
         notes: list[tuple[str, str]], reveals: list[reference.Objective], goal: int) -> None:
    at = _iso(save.value("ended_date")) if save.value("game_has_ended") == "true" else None
    for card in reveals:
        w.write({"type": "objective_revealed", "objective": card.name, "stage": card.stage,
                 "source": "revealedPublicObjectives (round not known)"}, at)
    placed_ids = {id(p) for ps in placed.values() for p in ps}
    final = totals(list(seats), sources)
    winners = [p for p, vp in final.items() if vp >= goal and vp == max(final.values())]
    winner = winners[0] if len(winners) == 1 and save.value("game_has_ended") == "true" else None
    loose = [p for p in sources if id(p) not in placed_ids]
    # The winner's points come last, so that no other line follows the point that reached the goal.
    loose.sort(key=lambda p: (p.player == winner, list(seats).index(p.player)))
    if loose:
        w.note(f"the save does not tell in which round these {len(loose)} victory point sources were gained "
               "(no breadcrumb places them): they are written here, at the end", "scoredPublicObjectives", at)
    for point in loose:
        w.write(dict(point.line), at)
        w.summary.count(point.kind, True)
    for kind, text in notes:
        w.note(text, kind, at)
        w.summary.count(kind, False)
    targets = dict(save.pairs("law_info"))
    for law, number in save.pairs("law"):
        target = f", elected {targets[law]}" if targets.get(law) else ""
        w.note(f"law in play at the save: {law} (card {number}){target}", f"law {law}", at)
        w.summary.count("law", False)
    _bookkeeping(w, save, at)
    vp = ", ".join(f"{p} {n}" for p, n in final.items())
    if save.value("game_has_ended") == "true":
        reason = (f"the bot's end flag is set; {winner} has {final[winner]} of {goal} VP by the bot's count" if winner
                  else f"the bot's end flag is set with no single player at the VP goal of {goal}")
        w.write({"type": "winner_declared", "player": winner, "reason": reason, "scores": final,
                 "source": "game_has_ended"}, at)
    else:
        w.note(f"the game goes on at the save (round {save.value('round')}, {save.value('phase_of_game')}): VP {vp}",
               "game_has_ended", at)


def _bookkeeping(w: Writer, save: Save, at: str | None) -> None:
    """Counts what was read and not converted, with one note per kind naming it (keys by name, never their text)."""
    skipped = []
    for key in save.info:
        w.summary.count("game-info key", key in INFO_READ)
        if key not in INFO_READ:
            skipped.append(key)
    for _ in range(save.info_lines - len(save.info)):
        w.summary.count("game-info key", False)  # a repeated key or a value's continuation line
    if skipped:
        w.note(f"game-info keys not converted ({len(skipped)}): {', '.join(k or '(empty)' for k in skipped)[:2000]}",
               "gameinfo", at)
    seat_skipped: set[str] = set()
    for seat in save.seats:
        for key in seat.keys:
            w.summary.count("player key", key in SEAT_READ)
            if key not in SEAT_READ:
                seat_skipped.add(key)
    if seat_skipped:
        w.note(f"player keys not converted: {', '.join(sorted(seat_skipped))}", "playerinfo", at)
    crumbs_used = 0
    for k in save.breadcrumbs:
        # Read: picks, reveals, round times and the per-round scores (``<faction>round<N>PO`` / ``SO``).
        read = k.startswith(("Round", "revealedPOInRound", "startTimeOfRound")) or (k[-2:] in ("PO", "SO") and "round" in k)
        crumbs_used += read
        w.summary.count("breadcrumb", read)
    if len(save.breadcrumbs) > crumbs_used:
        w.note(f"{len(save.breadcrumbs) - crumbs_used} of {len(save.breadcrumbs)} breadcrumbs (check_reacts_info) "
               "not converted: message ids, reactions, votes, free text", "check_reacts_info", at)
    for line in save.unknown_sections:
        w.summary.count("unknown section", False)
        w.note(f"a line of the player section outside any -player- block: {line!r}", "playerinfo", at)
    if save.tiles:
        for _ in range(save.tiles):
            w.summary.count("map tile", False)
        w.note(f"{save.tiles} map tiles (units, tokens) not converted: the log is round-level", "-tile-", at)
