"""What a seat may store, and what it is told of an entry (docs/serve.md, "What a seat may record"; docs/secrets.md).

A seat (one player's device at the table) is answered from what that player may know: its entry is decided by
the game's engine against the stored history *as the seat sees it* (every other player's secret replaced, as
``--as PLAYER`` shows it), so the answer (stored or not, its findings, their messages, the rules' texts) is the
same whether or not another hand holds the card the entry names. What only the whole game can decide (a secret
drawn twice) is decided again when the line is stored, by the whole game's engine: the host and the audit see it,
and the seat sees it once the card is public.

A seat records only what is its own, read off what the engine decides of the line (its decided changes), not off
field names: a line of another player's, a line that takes anything from another player (a decided count of
theirs going down: credits, VP, cards, goods, a monopoly passing away from them), and a line that names no player
but changes the players' standings (a winner declared for no one, a monopoly left to no one, two players' strategy
cards swapped) are the host's. A seat may still give (pay another player: their count goes up).
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator

import msgspec

from gamelog.domain.engine import Engine
from gamelog.domain.events import Correction, FindingRaised, Tally
from gamelog.domain.games import GAMES
from gamelog.projections.reports.documents import Finding

from .errors import NotYourLine
from .secrecy import as_told, seat_history

__all__ = ["NotYourLine", "SeatDecision", "seat_decision"]


class SeatDecision:
    """An entry decided as one seat may know the game: its findings (the seat's answer), each line's, and every
    event the engine decided of its lines (``decided``); ``whole``: it was decided on the whole game's engine (the
    seat knows all of the game), so ``decided`` is what to store."""

    def __init__(self, findings: list[Finding], decided: list[Any], whole: bool):
        self.findings = findings
        self.decided = decided
        self.whole = whole


def seat_decision(game: str, history: list[Any], new: list[tuple[int, Any]], seat: str, *,
                  own_lines_only: bool = True, attest: Any = None, held: Any = None) -> SeatDecision:
    """Decide ``new`` (the entry's lines: (line, recorded event)) for ``seat`` against ``history`` (the stored
    game's every event, the header's first) as that seat sees it. With ``own_lines_only`` (the host did not let
    every seat record any line), each line must be the seat's own (see the module). Returns the findings the seat
    is told (never one whose message or presence depends on another player's secret). ``attest`` tells a
    confirmation's fingerprint as its player's view shows it (the engine's ``attest``: RESULT-FINGERPRINT).
    ``held``: the whole game's engine at the end of ``history``, when the caller has it: where the seat knows the
    whole game (nothing is hidden from it), the entry is decided on it (the seat's decision is then the whole
    game's, and ``decided`` what to store; the engine has recorded the lines, even when this raises), else it
    gives the state the seat's view is made at, and is not changed.

    Raises :class:`NotYourLine`."""
    rules = GAMES[game]
    known = seat_history(game, history, seat, held.state if held is not None else None)
    if held is not None and known is history:
        engine = held
    else:
        engine = rules.engine.from_history(known)
        engine.attest = attest
    # The lines a correction voids, read only for a correction: a seat's other entries cost nothing per stored line.
    recorded = ({e.line: e.event for e in history if type(e) is rules.engine.LINE_RECORDED}
                if any(isinstance(event, Correction) for _, event in new) else {})
    players = list(engine.state.header.players)
    findings: list[Finding] = []
    everything: list[Any] = []
    for line, event in new:
        before = None
        if own_lines_only:
            _check_names(seat, line, event, recorded, type(engine))
            before = _standings(engine.state, players) if _names_no_player(event) else None
        decided = engine.record(line, event)
        everything += decided
        if own_lines_only:
            _check_changes(seat, line, event, decided, players, rules.engine.LINE_RECORDED)
            if before is not None and _changes_standings(before, _standings(engine.state, players)):
                raise NotYourLine(f"line {line} names no player but changes the players' standings: the host's line")
        findings += [_told(Finding.of(d)) for d in decided if isinstance(d, FindingRaised) and not d.open_at_end]
    return SeatDecision(findings, everything, whole=engine is held)


def _told(finding: Finding) -> Finding:
    """``finding`` as the seat reads it: a secret hidden from it reads the placeholder (:func:`~.secrecy.as_told`)."""
    message = as_told(finding.message)
    return finding if message == finding.message else msgspec.structs.replace(finding, message=message)


def _names_no_player(event: Any) -> bool:
    """Whether a line names no player at all (no player field, or its ``player`` empty)."""
    return getattr(event, "player", None) is None and not isinstance(event, Correction)


def _check_names(seat: str, line: int, event: Any, recorded: dict[int, Any], engine: type[Engine]) -> None:
    """The line's own player, and the player of the line it voids, must be the seat's; a declaration of the result
    (what the game takes after its end: who won) that names no player speaks for every player."""
    player = getattr(event, "player", None)
    if player is not None and player != seat:
        raise NotYourLine(f"line {line} is {player}'s; {seat} records only their own lines")
    if isinstance(event, Correction):
        voided = getattr(recorded.get(event.voids), "player", None)
        if voided is not None and voided != seat:
            raise NotYourLine(f"line {event.voids} is {voided}'s; {seat} voids only their own lines")
        instead = (event.replacement or {}).get("player")
        if instead is not None and instead != seat:
            raise NotYourLine(f"line {line} puts a line of {instead}'s in place of line {event.voids}; "
                              f"{seat} records only their own lines")
    declarations = tuple(t for t in engine.AFTER_END if t not in Engine.AFTER_END)
    if player is None and "player" in type(event).PLAYER_FIELDS and isinstance(event, declarations):
        raise NotYourLine(f"line {line} declares the result for no player: the host's line")


def _check_changes(seat: str, line: int, event: Any, decided: Iterable[Any], players: list[str],
                   line_recorded: type) -> None:
    """Nothing the engine decided of the line takes from another player: no count of theirs goes down, nothing
    passes away from them; and a line naming no player changes no player's counts."""
    unnamed = _names_no_player(event)
    for change in decided:
        if isinstance(change, (FindingRaised, line_recorded)):
            continue
        whose = getattr(change, "player", None)
        previous = getattr(change, "previous", None)
        if previous is not None and previous != seat and previous in players and previous != whose:
            raise NotYourLine(f"line {line} takes from {previous}: only the host records that")
        if whose is None or whose not in players:
            continue
        if unnamed:
            raise NotYourLine(f"line {line} names no player but changes {whose}'s standing: the host's line")
        if whose != seat and isinstance(change, Tally) and change.amount() < 0:
            raise NotYourLine(f"line {line} takes from {whose}: only the host records that")


def _standings(state: Any, players: list[str]) -> tuple[Any, dict[str, set[str]]]:
    """What a line naming no player must leave as it is when a seat records it: each player's standing as the
    replay shows it (``players`` of its document: VP, money, cards scored...) with the game's result, and the names
    each player holds (the strings of every mapping of the state keyed by the players: cards, strategy cards...)."""
    document = msgspec.to_builtins(state.document())
    shown = (document.get("players"), document.get("finished"), document.get("winner"))
    held: dict[str, set[str]] = {player: set() for player in players}
    for value in vars(state).values():
        if isinstance(value, dict) and value and set(value) <= set(players):
            for player, holding in value.items():
                held[player] |= set(_names_in(holding))
    return shown, held


def _changes_standings(before: tuple[Any, dict[str, set[str]]], after: tuple[Any, dict[str, set[str]]]) -> bool:
    """Whether a player's standing changed, or a name one player held passed to another (two strategy cards
    swapped); a holding cleared for everyone (a new round's picks) moves nothing."""
    if before[0] != after[0]:
        return True
    lost = {player: names - after[1].get(player, set()) for player, names in before[1].items()}
    gained = {player: names - before[1].get(player, set()) for player, names in after[1].items()}
    return any(lost[giver] & gained[taker] for giver in lost for taker in gained if giver != taker)


def _names_in(value: Any, depth: int = 0) -> Iterator[str]:
    """The strings a value of the state holds, at any depth (a dataclass's fields, lists, tuples, sets, dicts)."""
    if depth > 8:
        return
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _names_in(key, depth + 1)
            yield from _names_in(item, depth + 1)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            yield from _names_in(item, depth + 1)
    elif hasattr(value, "__dict__") or hasattr(value, "__slots__"):
        for name in getattr(value, "__slots__", ()) or vars(value):
            yield from _names_in(getattr(value, name, None), depth + 1)
