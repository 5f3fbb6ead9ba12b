"""What a Twilight Imperium 4 log holds that a rule keeps from the other players: unscored secret objectives.

LRR 34.17–34.19 (RULES.md): a secret objective belongs to one player, who keeps it hidden until they score it
(LRR 34.18: scoring puts the card face up). A log records which secrets a player draws
(``secret_objective_drawn``), returns to the deck (``secret_objective_returned``, LRR 34.21) and scores
(``objective_scored`` of ``kind`` secret). At one point of the game a player may see:

* the secret objectives they hold there themselves;
* every objective that is public there: revealed (``objective_revealed``), made public
  (``objective_made_public``: Classified Document Leaks) or scored by anyone (the card is face up);
* no secret objective that another player holds there (drawn, neither returned nor scored, and not public), in any
  spelling a line gives it. A secret nobody holds there is no one's secret: a card returned to the deck, or named
  only by a line a correction voided (the game is the log without that line), is shown as the log gives it.

A line names a card by its printed name once read (``events``: an alias or another letter case is resolved
then). What is hidden is each card with every spelling it has: its printed name, its alias in the reference data,
and any name the lines give a card the data do not have; names are compared as the reference data fold them
(``reference.key``), so a field holding the card in any accepted spelling is known for it, and a note or a
finding quoting the card by its name or its alias is covered (as whole words: docs/secrets.md).
"""

from __future__ import annotations

from typing import Any, Iterable

from gamelog.domain.secrets import Secrets
from gamelog.domain.twilight_imperium import reference
from gamelog.domain.twilight_imperium.events import (LineRecorded, ObjectiveScored, SecretChanged,
                                                     SecretObjectiveDrawn, SecretObjectiveReturned)


def _spellings(history: Iterable[Any]) -> dict[str, set[str]]:
    """Every name the lines up to the point give a secret objective, by its folded name (a card the reference data
    do not have is named as each line spells it)."""
    names: dict[str, set[str]] = {}
    for event in history:
        if type(event) is LineRecorded:
            line = event.event
            if isinstance(line, (SecretObjectiveDrawn, SecretObjectiveReturned)) or (
                    isinstance(line, ObjectiveScored) and line.kind == "secret"):
                names.setdefault(reference.key(line.objective), set()).add(line.objective)
        elif isinstance(event, SecretChanged):
            names.setdefault(reference.key(event.objective), set()).add(event.objective)  # a correction's, too
    return names


def _known(viewer: str, state: Any) -> set[str]:
    """The folded names ``viewer`` knows at the point: their own unscored secrets (none for a viewer who holds no
    seat), and every public objective."""
    seat = state.by_player.get(viewer)
    known = {reference.key(name) for name in seat.secrets} if seat is not None else set()
    known |= {reference.key(name) for player in state.by_player.values() for name in player.scored}
    known |= {reference.key(name) for name, _, _ in state.revealed}  # revealed and made public
    return known


def hidden(viewer: str, history: Iterable[Any], state: Any) -> Secrets:
    """The secret objectives ``viewer`` may not see at ``state``'s point (``domain.secrets.Hidden``): those another
    player holds there, unscored and not public, each with every spelling it has (printed name, alias, and the
    names the lines give a card the data do not have), folded as the reference data fold names."""
    known = _known(viewer, state)
    held = {reference.key(name): name for player, hand in state.by_player.items() if player != viewer
            for name in hand.secrets if name.strip() and reference.key(name) not in known}
    if not held:
        return Secrets(fold=reference.key)
    names: set[str] = set()
    spellings = _spellings(history)
    for key, name in held.items():
        names.add(name)
        names.update(spellings.get(key, ()))
        card = reference.objective(name)
        if card is not None:
            names.update(spelling for spelling in (card.name, card.alias) if spelling)
    return Secrets(frozenset(names), reference.key)


HIDDEN = hidden
"""This game's ``GameRules.secrets``."""
