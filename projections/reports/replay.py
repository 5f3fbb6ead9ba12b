"""Rendering a replayed state (``replay``'s document, built by the game's ``state.document()``) as text or JSON.

The text is generic over every game's document (no game is named here): in the game's own words
(``domain.phrases.state_words``, the phrases its plug-in gives), it says where the game stands in a sentence, puts
each player's short values in one aligned table (players as columns), tells their longer ones in sentences, then
the game's own rows.
"""

from __future__ import annotations

from typing import Any

import msgspec

from gamelog.domain.games import GAMES
from gamelog.domain.phrases import DASH, state_words
from gamelog.domain.replay_document import Replay
from gamelog.projections.reports.documents import encode
from gamelog.projections.reports.safe import clean
from gamelog.projections.reports.terminal import WIDTH, table, wrap


def render_replay_json(document: Replay) -> str:
    """The state as one JSON document, on one line."""
    return encode(document)


def render_replay_text(document: Replay, width: int = WIDTH) -> str:
    """Where the game stands, the players' short values as a table, their longer ones and the game's in sentences,
    all in the game's own words (its ``state_phrases``, as the HTML report's replay shows them: a count the log's
    source does not record reads "not recorded", a round's turns are counted within it).

    Every line is at most ``width`` wide; user text is cleaned of control
    characters (``safe.clean``).
    """
    rules = GAMES[document.game]
    board = rules.measures.board
    words = state_words(rules.state_phrases, msgspec.to_builtins(document), board.title if board else None)
    out: list[str] = []
    say = lambda text, indent=0, hanging=None: out.extend(wrap(clean(text), width, indent, hanging))
    say(f"{document.game} {document.id!r} after line {document.line} ({words['when']})")
    say(_status(document), hanging=2)
    if document.voided_lines:
        say("Voided lines: " + ", ".join(map(str, document.voided_lines)) + ".", hanging=2)
    players: dict[str, dict[str, str]] = words["players"]
    labels = list(dict.fromkeys(key for rows in players.values() for key in rows))
    short = [key for key in labels if all(len(rows.get(key, DASH)) <= CELL for rows in players.values())]
    if short:
        out.append("")
        out += table(["", *(clean(p) for p in players)],
                     [[clean(key), *(clean(rows.get(key, DASH)) for rows in players.values())] for key in short], width)
    sentences = [(f"{name}, {key}", rows[key]) for name, rows in players.items() for key in labels
                 if key not in short and rows.get(key, DASH) != DASH]
    if sentences:
        out.append("")
        for title, text in sentences:
            say(f"{title}: {text}", 2, 4)
    game = {key: text for key, text in words["game"].items() if key not in SAID}
    if game:
        out.append("")
        for key, text in game.items():
            say(f"{key[0].upper()}{key[1:]}: {text}", 0, 2)
    return "\n".join(out)


CELL = 24
"""The longest value a player's table holds; a longer one (a list of objectives) is a sentence of its own."""

SAID = ("result", "voided lines")
"""The game's rows the opening sentences already say."""


def _status(document: Replay) -> str:
    end = document.end
    if not document.finished or end is msgspec.UNSET or end is None:
        return "Not finished."
    who = f"{document.winner} won" if document.winner else "no winner"
    return f"Finished at line {end.line}: {who} ({end.rule}: {end.reason})."


