"""The recorder's host secret: the host's token, from which every seat's and spectator's token is derived
(docs/serve.md, "Security"). It is kept in the store itself (``GameStore.kept_secret``), made once: every link and
QR code handed out works after a restart, and every server on one PostgreSQL store accepts the same devices with
nothing given by hand. A secret given by hand (``GAMELOG_HOST_TOKEN``, or a file) is used instead when it is
strong enough; rotating the kept one makes every link handed out so far stop working, on purpose.
"""

from __future__ import annotations

import math
import secrets

from .errors import BadInput
from .sources import opened_game_store

__all__ = ["MIN_BITS", "WeakSecret", "estimated_bits", "host_secret", "new_secret"]

MIN_BITS = 128
"""The least strength a host secret given by hand may have, by :func:`estimated_bits`."""
KEPT_AS = "host_secret"
"""The name the store keeps the host secret under."""


class WeakSecret(BadInput):
    """Raised for a host secret given by hand that is weaker than :data:`MIN_BITS`."""


def estimated_bits(secret: str) -> float:
    """A plain estimate of a secret's strength: its length times log2 of the distinct characters it uses (22 × ``a``
    is 0; 43 random URL-safe characters about 240)."""
    distinct = len(set(secret))
    return len(secret) * math.log2(distinct) if distinct > 1 else 0.0


def new_secret() -> str:
    """A new random host secret: 32 bytes (256 bits), URL-safe."""
    return secrets.token_urlsafe(32)


def host_secret(location: str, given: str | None = None, *, rotate: bool = False) -> str:
    """The host secret of the recorder on the store at ``location``: ``given`` (by hand) when given, else the one
    the store keeps (made and kept the first time; ``rotate``: a new one kept in its place). Opening the store here
    says a store that cannot be opened as the store's own error, before any server starts.

    Raises :class:`WeakSecret` for a ``given`` weaker than :data:`MIN_BITS`, :class:`BadInput` for ``rotate`` with
    a ``given`` secret (only a kept one is rotated), and the store's errors."""
    if given is not None:
        if rotate:
            raise BadInput("--rotate-host-token makes a new kept secret: give no GAMELOG_HOST_TOKEN or "
                           "--host-token-file with it")
        bits = estimated_bits(given)
        if bits < MIN_BITS:
            raise WeakSecret(f"the host token is too weak: about {bits:.0f} bits by its length and the characters it "
                             f"uses, at least {MIN_BITS} are needed (leave it out: the store keeps a random one)")
    with opened_game_store(location) as store:
        if given is not None:  # the store is opened all the same: one that cannot be is said now
            return given
        return store.kept_secret(KEPT_AS, new_secret, anew=rotate)
