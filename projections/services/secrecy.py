"""Per-player views (``--as PLAYER``): what one player may know at one point of a game (docs/secrets.md).

The game's plug-in decides which names that player may not see there (``domain.secrets.hidden_from``, each game's
``secrets.py``); :class:`~gamelog.projections.reports.redaction.Redaction` replaces them in whatever a service
gives. The point is the one the output shows: the state asked for (``replay``, :meth:`gamelog.Game.state`), else
the end of the history (a report, an audit, a what-if, the HTML report's embedded states: a secret scored by the
end is public in all of it). The stored history is never changed. PLAYER is a player's name in any case, or the
faction (the side) they play (:func:`player_named`); :data:`PUBLIC` is the viewer with no seat (a spectator, the
statistics' lines), who sees what every player may know.

A view shows no value computed over what it hides: where it hides anything, an audit's ``fingerprint`` (the chain
head of the whole history, which a guess of the secret put in place of the placeholder would match) gives way to
the view's own, ``view_fingerprint``: the chain head of the history as the view shows it (:func:`view_fingerprint`);
and no list is in an order a hidden value makes (:func:`what_if_view`).
"""

from __future__ import annotations

import re
from itertools import chain, groupby, takewhile
from typing import Any, Iterable

import msgspec
from msgspec import UNSET

from gamelog.domain.events import FindingRaised, Note, ResultConfirmed, ResultDisputed, Ruling
from gamelog.domain.replay import state_at
from gamelog.domain.replay_document import StreamedRows
from gamelog.domain.games import GAMES
from gamelog.domain.secrets import Secrets, hidden_from, nothing_hidden
from gamelog.projections.reports.documents import Audit, Finding, WhatIf
from gamelog.projections.reports.redaction import PLACEHOLDER, Redaction
from gamelog.projections.store.verify import fingerprint_of

from .errors import PlayerNotFound
from .sources import Source

__all__ = ["FULL_VIEW", "as_told", "seat_history", "PUBLIC", "Public", "fingerprinted", "player_named", "player_not_found", "redaction",
           "redaction_at", "seats_of", "viewer_redaction", "view_fingerprint", "what_if_view"]


class Public(str):
    """The viewer who holds no seat at the table (a spectator): what they may not see is what any player keeps from
    another (each player's secret, for every player), so what they see is what every player may know. It reaches
    each game's plug-in (``domain.secrets.Hidden``) as a viewer's name that is no player's: a name no command line
    can give (``"\\0"``)."""

    def __new__(cls) -> Public:
        return super().__new__(cls, "\0")

    def __repr__(self) -> str:
        return "PUBLIC"


PUBLIC = Public()
"""The public view: pass it where a player is asked for (``as_player``)."""

FULL_VIEW = Redaction()
"""The view that hides nothing: the whole game's (the host's, a Python program's that asks as no player)."""


def player_not_found(game_id: str, players: Iterable[str], player: str) -> PlayerNotFound:
    """The error for ``player``, who is not one of ``players`` of ``game_id``."""
    return PlayerNotFound(f"no player {player!r} in {game_id!r} (players: {', '.join(players)})")


def seats_of(game: str, header: Any) -> list[tuple[str, str]]:
    """(player, the side they play) for each player of a game's header: the side as the game's statistics name it
    (a faction), the player's own name in a game without sides."""
    statistics = GAMES[game].statistics
    return [(p, statistics.side(header, p) if statistics is not None else p) for p in header.players]


def player_named(given: str, seats: Iterable[tuple[str, str]], where: str) -> str:
    """The player ``given`` names among ``seats`` ((player, side) pairs; ``where`` says whose, in messages): a
    player's name as written, else in any case, else the side (faction) one player plays, in any case and with or
    without "The". Raises :class:`~.errors.PlayerNotFound` naming the choices, for a name that is no player's nor
    side's, or that names more than one player (two players whose names differ only in case, a player named as
    another's faction)."""
    seats = list(dict.fromkeys(seats))
    players = list(dict.fromkeys(p for p, _ in seats))
    if given in players:
        return given
    folded = given.casefold()
    found = list(dict.fromkeys([p for p in players if p.casefold() == folded] +
                               [p for p, side in seats if side != p
                                and side.casefold() in (folded, folded.removeprefix("the "))]))
    if len(found) == 1:
        return found[0]
    sides = list(dict.fromkeys(side for p, side in seats if side != p))
    choices = f"players: {', '.join(players)}" + (f"; or a faction: {', '.join(sides)}" if sides else "")
    if found:
        raise PlayerNotFound(f"{given!r} names more than one player in {where}: {', '.join(found)} ({choices})")
    raise PlayerNotFound(f"no player {given!r} in {where} ({choices})")


def _viewer(source: Source, header: Any, player: str | Public) -> str:
    """The player ``player`` names in ``source``'s game (:func:`player_named`); :data:`PUBLIC` as it is."""
    return player if isinstance(player, Public) else player_named(player, seats_of(source.game, header),
                                                                  repr(header.id))


def viewer_redaction(game: str, header: Any, viewer: str | Public | None, history: Iterable[Any],
                     state: Any) -> Redaction:
    """What ``viewer`` (one of the players of ``header``'s game ``game``, as :func:`player_named` gives them, or
    :data:`PUBLIC`; None: the full view, which hides nothing) may not see of that game at ``state``'s point,
    ``history`` its events up to there (or further: only those up to the point are read), as the game's plug-in
    decides. The one place a view's :class:`~gamelog.projections.reports.redaction.Redaction` is made: a game whose
    plug-in hides nothing is not folded for it. The view also leaves out every finding the viewer could not have
    been told (:func:`_withheld`: one whose presence or words come of another player's secret)."""
    if viewer is None or GAMES[game].secrets in (None, nothing_hidden):
        return FULL_VIEW
    events = list(takewhile(lambda event: event.line <= state.line, history))
    # What the view shows as it is, never as a secret's word: the game's id, its game's name, its players.
    kept = [header.id, game, *header.players]
    hidden = hidden_from(game, viewer, events, state)
    known = _known_by(game, viewer, events, state)
    withheld = _withheld(game, viewer, events, known)
    if isinstance(viewer, Public) or known is None:
        return Redaction(hidden, kept=kept, withheld=withheld)
    # A secret the viewer holds that another player holds too is hidden in that player's things (``shared``).
    line_recorded = GAMES[game].engine.LINE_RECORDED
    others = [player for player in header.players if player != viewer]
    theirs = [event.line for event in events if type(event) is line_recorded and _whose(event) in others]
    return Redaction(hidden, kept=kept, withheld=withheld, shared=known.hidden, others=others, others_lines=theirs)


def seat_history(game: str, history: list[Any], seat: str, state: Any = None) -> list[Any]:
    """``history`` as ``seat`` knows it: in every event but the seat's own, each secret another player holds
    replaced (even a card the seat holds too: that another hand holds it is what the seat may not learn); the
    seat's own lines and what they decided as they are. ``history`` itself when the seat knows all of it.
    ``state``: the game at the end of ``history``, when the caller has it (else it is folded). Each secret hidden
    is named for its line (:func:`_apart`): what the rules decide of it is said to the seat by :func:`as_told`."""
    rules = GAMES[game]
    if rules.secrets is None:
        return history
    known = _known_by(game, seat, history, state or rules.engine.from_history(history, history=False).state)
    if known is None:
        return history
    return [event if _whose(event) == seat else _apart(known(event), event, known.placeholder) for event in history]


def as_told(message: str) -> str:
    """A finding's ``message`` decided on a history as a seat knows it (:func:`seat_history`), as the seat reads it:
    each secret hidden, whatever line it was hidden on, reads the placeholder."""
    return _HIDDEN_ON_A_LINE.sub(PLACEHOLDER, message)


def _known_by(game: str, viewer: str | Public, history: list[Any], state: Any) -> Redaction | None:
    """What ``viewer`` does not know of ``history`` (``state`` its game at its end): each secret another player
    holds there (every player's for :data:`PUBLIC`), even one the viewer holds too; None when there is none."""
    everyone = hidden_from(game, PUBLIC, history, state)  # every unscored secret any player holds there
    held = set(everyone.names) if isinstance(viewer, Public) else set()
    for player in state.header.players:
        if player != viewer and not isinstance(viewer, Public):  # what that player holds: hidden from all but them
            held |= everyone.names - hidden_from(game, player, history, state).names
    if not held:
        return None
    return Redaction(Secrets(frozenset(held), everyone.fold), kept=[state.header.id, game, *state.header.players])


_HIDDEN_ON_A_LINE = re.compile(r"\[hidden on line \d+\]")
"""A secret hidden on one line as :func:`_apart` names it."""


def _apart(seen: Any, event: Any, placeholder: str) -> Any:
    """``seen`` (``event`` as a view shows it) with each secret it hides named for its line ("[hidden on line 3]"):
    two hidden cards are never the same card to the rules deciding the game again (the viewer does not know that
    they are), so no clash is found between them that the viewer could not have found."""
    if seen is event:
        return event
    named = f"[hidden on line {event.line}]".encode()
    return msgspec.json.decode(msgspec.json.encode(seen).replace(placeholder.encode(), named), type=type(seen))


_NOT_DECIDED_AGAIN = (Note, ResultConfirmed, ResultDisputed, Ruling)
"""Lines whose findings no secret decides (a note, the result's lines: a confirmation's fingerprint is its own view's
already): what they raised is shown as it is."""


def _withheld(game: str, viewer: str | Public, events: list[Any],
              known: Redaction | None) -> dict[tuple[int, str, str], str]:
    """The findings of ``events`` (a game's history up to a point) that ``viewer`` may not be told, each
    (line, rule, message) with its severity: every finding whose line, decided again against the game as the
    viewer knows it (:func:`seat_history`'s), does not raise it in the same words as the viewer reads them. So a
    secret drawn twice ("… is held by Cy") is the host's and the audit's until the card is public, and a seat learns
    no hand from a finding on its own line (issue 38, item 1; docs/secrets.md). ``known`` is what the viewer does
    not know (:func:`_known_by`; None: nothing)."""
    if known is None:
        return {}
    rules = GAMES[game]
    line_recorded = rules.engine.LINE_RECORDED
    raised: dict[int, list[FindingRaised]] = {}  # the index of a recorded line -> the findings its decision raised
    deciding = 0
    for at, event in enumerate(events):
        if type(event) is line_recorded:
            deciding = at
        elif isinstance(event, FindingRaised) and deciding and not event.open_at_end \
                and not isinstance(events[deciding].event, _NOT_DECIDED_AGAIN):
            raised.setdefault(deciding, []).append(event)
    if not raised:
        return {}
    seen = [event if _whose(event) == viewer else _apart(known(event), event, known.placeholder) for event in events]
    # Up to the first event the viewer knows less of, the game as they know it is the game: decided alike.
    first = next((at for at, (shown, event) in enumerate(zip(seen, events)) if shown is not event), len(events))
    withheld: dict[tuple[int, str, str], str] = {}
    for at, findings in raised.items():
        if at < first:
            continue
        try:
            engine = rules.engine.from_history(seen[:at])
            told = {(d.line, d.rule, known.text(as_told(d.message)))
                    for d in engine.record(seen[at].line, seen[at].event) if isinstance(d, FindingRaised)}
        except Exception:  # a line the rules cannot decide as the viewer knows it: what it raised is not theirs
            told = set()
        for finding in findings:
            if (finding.line, finding.rule, known.text(finding.message)) not in told:
                withheld[finding.line, finding.rule, finding.message] = finding.severity
    return withheld


def _whose(event: Any) -> str | None:
    """The player a stored event is about: its own ``player``, or its recorded line's."""
    player = getattr(event, "player", None)
    return player if player is not None else getattr(getattr(event, "event", None), "player", None)


def redaction_at(source: Source, player: str | Public, state: Any) -> Redaction:
    """What ``player`` (a player's name in any case, or their faction; or :data:`PUBLIC`) may not see of
    ``source``'s game at ``state``'s point (its state there, from ``domain.replay.state_at``), as the game's
    plug-in decides. Raises :class:`~.errors.PlayerNotFound` for a name that is no player's of the game (or more
    than one player's)."""
    viewer = _viewer(source, state.header, player)
    return viewer_redaction(source.game, state.header, viewer, source.history(), state)


def redaction(source: Source, player: str | Public | None) -> Redaction:
    """What ``player`` (a player's name in any case, or their faction; or :data:`PUBLIC`: what every player may
    know; None: the full view, which hides nothing) may not see of ``source``'s game at the end of its history. A
    game whose plug-in hides nothing is not folded for it.

    Raises :class:`~.errors.PlayerNotFound` for a name that is no player's of the game (or more than one player's).
    """
    if player is None:
        return FULL_VIEW
    events = iter(source.history())
    header = next(events)
    player = _viewer(source, header.event, player)  # before folding the game: an unknown player costs nothing
    if GAMES[source.game].secrets in (None, nothing_hidden):
        return FULL_VIEW
    return redaction_at(source, player, state_at(source.game, chain([header], events)))


def view_fingerprint(source: Source, view: Redaction) -> str:
    """The fingerprint of ``source``'s history as ``view`` shows it: the chain head (``verify``'s, over the same
    encoding) of every event with what the view hides replaced, as ``Game.as_player(...).history()`` gives them.
    It is computed over what the viewer sees, so it confirms no guess of what the view hides."""
    return fingerprint_of(source.id, view.each(source.history()))


def fingerprinted(audit: Audit, source: Source, view: Redaction) -> Audit:
    """``audit``'s head (or whole document), already seen through ``view``, with the fingerprint a view may show:
    the game's own when the view hides nothing (the view is then the full one), else none but the view's own
    (``view_fingerprint``). ``audit`` itself is not changed."""
    if not view:
        return audit
    return msgspec.structs.replace(audit, fingerprint=UNSET, view_fingerprint=view_fingerprint(source, view))


def what_if_view(diff: WhatIf, view: Redaction) -> WhatIf:
    """The what-if ``diff`` as the player of ``view`` may see it. Its findings gone and new are listed by line, rule,
    severity and message: in a view that hides anything, findings alike but for their message are in the order of
    the message as the view shows it, so that their order tells nothing of what the messages hide (two findings of
    a line under one rule naming two hidden cards). ``diff`` itself is not changed."""
    if not view:
        return diff
    seen = view(diff)
    return msgspec.structs.replace(seen, findings_gone=_in_shown_order(seen.findings_gone),
                                   findings_new=_in_shown_order(seen.findings_new))


def _in_shown_order(findings: Iterable[Finding]) -> Any:
    """``findings`` (in line, rule and severity order), each run alike in those sorted by what it shows; rows read
    as they are written stay so (a run is one line's: a few findings are held at a time)."""
    def ordered() -> Iterable[Finding]:
        for _, alike in groupby(findings, key=lambda f: (f.line, f.rule, f.severity)):
            yield from sorted(alike, key=lambda f: (f.message, f.player or ""))
    return StreamedRows(ordered) if isinstance(findings, StreamedRows) else list(ordered())
