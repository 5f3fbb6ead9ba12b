"""A finished game handed to BG Stats (``gamelog export --to bgstats``, the recorder's end page), and a BG Stats
backup (``BGStatsExport.json``) read as a declared-results table (``gamelog reconcile --declared``).

The play is made from what gamelog computed: the standings and the winner at the end (the game's engine), the
time of play from the lines' ``at`` (``domain.timing``), the sides the game's statistics name (a TI4 faction), the
game's published title and BoardGameGeek id from the registry (``GameRules.title``, ``bgg_id``).
"""

from __future__ import annotations

import msgspec
from msgspec import UNSET

from gamelog.domain.games import GAMES
from gamelog.domain.timing import stamp, timing
from gamelog.projections.reports.bgstats import SOURCE_NAME, SUFFIX, BGStatsGame, BGStatsPlay, BGStatsPlayer, push_link
from gamelog.projections.reports.results import result_line
from gamelog.projections.store.application import GameStore

from .results import standing_of
from .secrecy import Public, redaction, seats_of
from .sources import Source, StoredGame

__all__ = ["BGStatsOffer", "BGStatsPlay", "bgstats_offer", "bgstats_seen", "bgstats_play", "play_matches", "push_link", "title_of"]


def title_of(game: str) -> str:
    """The game's published name (``GameRules.title``, else its name in gamelog)."""
    return GAMES[game].title or game


def bgstats_play(source: Source) -> BGStatsPlay:
    """``source``'s game as BG Stats' play document: every field of its push format gamelog can fill. The play's
    date is its first line's ``at`` (UTC), its length the game's; both are left out of a log without ``at``."""
    rules = GAMES[source.game]
    state, standing = standing_of(source)
    line_recorded = rules.engine.LINE_RECORDED
    recorded = [(e.line, e.event) for e in source.history() if type(e) is line_recorded]
    header = recorded[0][1]
    players = list(header.players)
    played = timing(recorded, players, rules.round_of)
    winner = state.ended.winner if state.ended is not None else None
    scores = {p: state.score(p) for p in players}
    first = played.turns[0].player if played.turns else players[0]
    sides = dict(seats_of(source.game, header))
    began = next((when for _, event in recorded[:2] if (when := stamp(event.at)) is not None), None)

    def placed_before(other: str, player: str) -> bool:  # a better score, or the winner's on an equal one
        better = scores[other] > scores[player] if rules.highest_wins else scores[other] < scores[player]
        return better or scores[other] == scores[player] and other == winner

    return BGStatsPlay(
        sourceName=SOURCE_NAME, sourcePlayId=f"{source.id}#{source.fingerprint()}",
        playDate=began.strftime("%Y-%m-%d %H:%M:%S") if began is not None else UNSET,
        durationMin=round(played.length / 60) if played.length is not None else UNSET,
        comments=f"gamelog {source.id}: {result_line(standing)}",
        game=BGStatsGame(name=title_of(source.game), bggId=rules.bgg_id if rules.bgg_id is not None else UNSET,
                         highestWins=rules.highest_wins, noPoints=False, sourceGameId=source.game),
        players=[BGStatsPlayer(name=p, score=scores[p], winner=p == winner,
                               rank=1 + sum(placed_before(o, p) for o in players if o != p),
                               startPlayer=p == first, role=sides[p] if sides.get(p, p) != p else UNSET,
                               sourcePlayerId=p)
                 for p in players])


def play_matches(label: str, game: str, date: str | None) -> bool:
    """Whether the BG Stats play ``label`` (``results_table``'s name of a play of a BG Stats backup) may be
    ``game``'s: the same title (in any case), and the same day where the game's lines say when it was played
    (``date``, ``YYYY-MM-DD``)."""
    title, _, rest = label.rpartition(" on ")
    return title.casefold() == title_of(game).casefold() and (date is None or rest.startswith(date))


def played_on(source: Source) -> str | None:
    """The day ``source``'s game was played (``YYYY-MM-DD``, UTC), from its first lines' ``at`` (None: not recorded)."""
    for n, event in enumerate(source.history()):
        when = stamp(getattr(getattr(event, "event", None), "at", None))
        if when is not None:
            return when.strftime("%Y-%m-%d")
        if n > 4:
            return None
    return None


class BGStatsOffer(msgspec.Struct, kw_only=True):
    """What the recorder's end page offers: the play document, its push link, and the file name to save it as."""

    play: BGStatsPlay
    link: str
    filename: str


def bgstats_seen(store: GameStore, game_id: str, viewer: str | Public | None) -> BGStatsOffer:
    """The stored game ``game_id`` as BG Stats' play, as ``viewer`` (a player, ``PUBLIC``, None: the host) may see
    it, with its push link. Raises ``GameNotFound`` and the store's errors."""
    return bgstats_offer(StoredGame(store, game_id, ""), viewer)


def bgstats_offer(source: Source, viewer: str | Public | None) -> BGStatsOffer:
    """``source``'s game as BG Stats' play, as ``viewer`` (a player, ``PUBLIC``, None: the host) may see it, with its
    push link and a file name (what the recorder's end page offers). Raises what ``secrecy.redaction`` raises."""
    play = bgstats_play(source)
    if viewer is not None:
        play = redaction(source, viewer)(play)
    return BGStatsOffer(play=play, link=push_link(play), filename=f"{source.id}{SUFFIX}")
