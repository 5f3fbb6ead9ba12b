"""What a Merchant of Venus log holds that a rule keeps hidden: nothing.

What the rules keep face down (the culture tokens of an unexplored system, the Bonus Cup's draws) is on no log line
until it is turned up, and then it is public; credits, cargo, deeds and net worth are public at all times
(MOV-NET-WORTH: "Net worth is public at all times"). So every player's view is the full view.
"""

from __future__ import annotations

from gamelog.domain.secrets import nothing_hidden

HIDDEN = nothing_hidden
"""This game's ``GameRules.secrets``: nothing is hidden."""
