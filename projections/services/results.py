"""Where a game's result stands: who confirmed it, who disputes it, and the fingerprint each seat confirms
(docs/log-format.md, "The result"). What ``gamelog result``, the recorder's ``GET /api/games/{id}/result`` and
every output that shows the result's state read, and what the recorder decides a confirmation's fingerprint with.

The domain decides the lines (``domain.results``); what it cannot know is a fingerprint, which is the store's hash
chain over the history as a player's view shows it: that is computed here (:func:`shown_fingerprint`), and asked
of the domain's own rule (``fingerprint_problem``), so the rule stays in one place.
"""

from __future__ import annotations

from itertools import takewhile
from typing import Any, Callable

from gamelog.domain.games import GAMES
from gamelog.domain.results import AgreementStanding, fingerprint_problem
from gamelog.projections.reports.documents import GameResult, ResultDispute, ResultStanding, encode
from gamelog.projections.reports.reconcile import fold
from gamelog.projections.reports.redaction import Redaction
from gamelog.projections.reports.results import render_result_text, result_line
from gamelog.projections.store.application import GameStore
from gamelog.projections.store.verify import fingerprint_of

from .secrecy import Public, redaction
from .sources import Source, StoredGame, open_game

__all__ = ["agreement_line", "attestation", "game_result", "standing_at_end", "result", "result_line", "result_output", "result_seen",
           "shown_fingerprint", "standing_of"]


def shown_fingerprint(source: Source, viewer: str | Public | None, lines: int, view: Redaction | None = None) -> str:
    """The fingerprint of ``source``'s history up to line ``lines`` as ``viewer`` (a player, :data:`PUBLIC`, or
    None: the whole game) sees it: the game's own where the view hides nothing, else the view's own (docs/secrets.md).
    ``view``: the viewer's redaction, when the caller has it. Raises what ``secrecy.redaction`` raises."""
    if view is None:
        view = redaction(source, viewer)  # None: the full view
    events = takewhile(lambda event: event.line <= lines, source.history())
    return fingerprint_of(source.id, view.each(events))


def attestation(source: Source) -> Callable[[str, int], str]:
    """What a player's view shows as the fingerprint after a line of ``source``'s history (the engine's ``attest``,
    for deciding a confirmation: RESULT-FINGERPRINT); asked only of a line the history holds."""
    return lambda player, lines: shown_fingerprint(source, player, lines)


def standing_of(source: Source) -> tuple[Any, AgreementStanding]:
    """``source``'s game at its end (its state) and where its result stands (:func:`standing_at_end`)."""
    state = GAMES[source.game].engine.from_history(source.history(), history=False).state
    return state, standing_at_end(source, state)


def standing_at_end(source: Source, state: Any) -> AgreementStanding:
    """Where ``source``'s result stands, ``state`` its game folded to the end: a confirmation stands when it names the
    last line of play, no result rule refused it, and its fingerprint is the one its player's view shows there."""
    views: dict[str, Redaction] = {}

    def fingerprint_ok(line: int, event: Any) -> bool:
        seen = views.setdefault(event.player, redaction(source, event.player))
        return fingerprint_problem(event, shown_fingerprint(source, event.player, event.lines, seen)) is None

    return state.agreement.standing(list(state.players), state.last_play(), fingerprint_ok)


def agreement_line(source: Source) -> str:
    """Where ``source``'s result stands, in one line (what the report, the audit and reconcile show)."""
    return result_line(standing_of(source)[1])


def game_result(source: Source, viewer: str | Public | None = None) -> GameResult:
    """Where ``source``'s result stands, as ``viewer`` (a player, :data:`PUBLIC`, None: the host) sees it: settled
    when every player's confirmation stands (:func:`standing_of`) and no dispute is unresolved, disputed while one
    is, else open; the fingerprint after the last line of play as the viewer's view shows it. Raises
    :class:`~.errors.PlayerNotFound` for a viewer who is no player of the game."""
    state, standing = standing_of(source)
    view = redaction(source, viewer)  # None: the full view
    scores = sorted(((p, state.score(p)) for p in state.players), key=lambda ps: -ps[1])
    points = fold(source.game, source.history()).points  # how each score was made, by source
    order = {name: i for i, name in enumerate(GAMES[source.game].results.order)}
    document = GameResult(
        state=standing.state, lines=standing.lines, fingerprint=shown_fingerprint(source, viewer, standing.lines, view),
        winner=state.ended.winner if state.ended is not None else None,
        standings=[ResultStanding(player=p, score=s, sources={
            name: n for name, n in sorted(points.get(p, {}).items(), key=lambda kv: (order.get(kv[0], len(order)), kv[0]))
            if n}) for p, s in scores],
        confirmed=standing.confirmed, pending=standing.pending,
        disputes=[ResultDispute(player=d.player, reason=d.reason, line=d.line, resolved_by=d.resolved_by)
                  for d in standing.disputes])
    return view(document)


def result_seen(store: GameStore, game_id: str, viewer: str | Public | None) -> GameResult:
    """:func:`game_result` of the stored game ``game_id``. Raises ``GameNotFound`` and the store's errors."""
    return game_result(StoredGame(store, game_id, ""), viewer)


def result(game: str, store: str, *, as_player: str | None = None, source_format: str | None = None) -> GameResult:
    """:func:`game_result` of GAME (a log file, or a stored game's id in ``store``), as ``as_player`` sees it.
    Raises ``GameNotFound``, ``BadInput``, ``PlayerNotFound`` and the store's errors."""
    with open_game(game, store, source_format) as source:
        return game_result(source, as_player)


def result_output(game: str, store: str, *, fmt: str = "text", as_player: str | None = None,
                  source_format: str | None = None) -> str:
    """``gamelog result``: :func:`result` as text (its state's line, fingerprint, winner, standings, disputes) or
    JSON (``fmt``). Raises what :func:`result` raises."""
    document = result(game, store, as_player=as_player, source_format=source_format)
    return encode(document, indent=1) if fmt == "json" else render_result_text(document)
