"""What a Twilight Imperium 4 log holds that a rule keeps from the other players: unscored secret objectives.

LRR 34.17–34.19 (RULES.md): a secret objective belongs to one player, who keeps it hidden until they score it
(LRR 34.18: scoring puts the card face up). A log records which secrets a player draws
(``secret_objective_drawn``), returns to the deck (``secret_objective_returned``, LRR 34.21) and scores
(``objective_scored`` of ``kind`` secret). At one point of the game a player may see:

* the secret objectives they hold there themselves;
* every objective that is public there: revealed (``objective_revealed``), made public
  (``objective_made_public``: Classified Document Leaks) or scored by anyone (the card is face up);
* no other secret objective that another player's lines name: drawn, returned, held, or named by a score that a
  correction voided (a returned card goes back face down; a voided line is still what the player typed).

Names are compared as the reference data fold them (``reference.key``); the card's printed name is hidden with
the name the log gives, so a note or a finding quoting either is covered.
"""

from __future__ import annotations

from typing import Any, Iterable

from gamelog.domain.twilight_imperium import reference
from gamelog.domain.twilight_imperium.events import (LineRecorded, ObjectiveScored, SecretChanged,
                                                     SecretObjectiveDrawn, SecretObjectiveReturned)


def _others_secrets(viewer: str, history: Iterable[Any], state: Any) -> set[str]:
    """Every name another player's lines up to the point give as their secret objective, and what they hold there."""
    names: set[str] = set()
    for event in history:
        if type(event) is LineRecorded:
            line = event.event
            secret = isinstance(line, (SecretObjectiveDrawn, SecretObjectiveReturned)) or (
                isinstance(line, ObjectiveScored) and line.kind == "secret")
            if secret and line.player != viewer:
                names.add(line.objective)
        elif isinstance(event, SecretChanged) and event.player != viewer:
            names.add(event.objective)  # what a correction decided again, too
    for player, held in state.by_player.items():
        if player != viewer:
            names.update(held.secrets)
    return names


def _known(viewer: str, state: Any) -> set[str]:
    """The folded names ``viewer`` knows at the point: their own unscored secrets, and every public objective."""
    known = {reference.key(name) for name in state.by_player[viewer].secrets}
    known |= {reference.key(name) for player in state.by_player.values() for name in player.scored}
    known |= {reference.key(name) for name, _, _ in state.revealed}  # revealed and made public
    return known


def hidden(viewer: str, history: Iterable[Any], state: Any) -> frozenset[str]:
    """The secret objectives' names ``viewer`` may not see at ``state``'s point (``domain.secrets.Hidden``)."""
    known = _known(viewer, state)
    names: set[str] = set()
    for name in _others_secrets(viewer, history, state):
        if reference.key(name) in known or not name.strip():
            continue
        names.add(name)
        card = reference.objective(name)
        if card is not None:
            names.add(card.name)  # a line may give an alias; a note or a finding the printed name
    return frozenset(names)


HIDDEN = hidden
"""This game's ``GameRules.secrets``."""
