"""What an Uchronia log holds that a rule keeps hidden: nothing.

A log records the Forum's cards (face up, UCH-START), the buildings started and built, resources moved and the
cards taken from the Forum into a hand (UCH-MONOPOLY-BONUS: the card came from the open Forum, so everyone saw
it). A hand's other cards and the draw deck are on no line. So every player's view is the full view.
"""

from __future__ import annotations

from gamelog.domain.secrets import nothing_hidden

HIDDEN = nothing_hidden
"""This game's ``GameRules.secrets``: nothing is hidden."""
