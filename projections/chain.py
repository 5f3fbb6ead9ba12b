"""Tamper evidence: every stored event carries a hash chained to the one before it.

An event's hash covers its canonical encoding (the msgspec JSON the store
keeps) and its topic; the chain hash covers the previous chain hash and this
event's hash. The two use different domain-separation prefixes, so an
event's hash can never equal a chain hash. The chain head of a game is its
*fingerprint*: players who keep it outside the store can prove later that
nothing was altered, removed, inserted or reordered.

The stored state of an event is ``{"chain": HEX, "event": <payload>}``;
this module seals and opens that envelope and checks a stored sequence.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Iterable

import msgspec

EVENT_PREFIX = b"gamelog/event/v1\x00"
CHAIN_PREFIX = b"gamelog/chain/v1\x00"
GENESIS = bytes(32)
"""The chain hash before a game's first event."""


def event_hash(topic: str, payload: bytes) -> bytes:
    """The hash of one event: its topic and its canonical encoding."""
    return hashlib.sha256(EVENT_PREFIX + topic.encode() + b"\x00" + payload).digest()


def link(previous: bytes, event: bytes) -> bytes:
    """The chain hash after an event, from the chain hash before it and the event's hash."""
    return hashlib.sha256(CHAIN_PREFIX + previous + event).digest()


class _Sealed(msgspec.Struct):
    chain: str
    event: msgspec.Raw


_sealed = msgspec.json.Decoder(_Sealed)


def seal(chain: bytes, payload: bytes) -> bytes:
    """The stored state: the chain hash after this event, and the event's encoding."""
    return b'{"chain":"' + chain.hex().encode() + b'","event":' + payload + b"}"


def open_sealed(state: bytes) -> tuple[bytes, bytes]:
    """(chain hash, payload encoding) of a stored state; raises ``msgspec.DecodeError`` if it is not sealed."""
    sealed = _sealed.decode(state)
    return bytes.fromhex(sealed.chain), bytes(sealed.event)


@dataclass(frozen=True)
class Problem:
    """One break in a stored history: the version where it is, what kind, and what it means."""

    version: int
    kind: str  # altered, missing, reordered, duplicated, inserted (past the catalog), truncated
    message: str


@dataclass(frozen=True)
class StoredLink:
    """What verification needs of one stored event."""

    version: int
    topic: str
    state: bytes


def check(events: Iterable[StoredLink]) -> tuple[list[Problem], bytes, int]:
    """Check a game's stored events in version order: (problems, chain head, last version).

    Each event's stored chain hash must follow from the previous stored chain
    hash and its own content; versions must run 1, 2, 3... A break names
    the kind: an event whose content fits another position was moved or
    copied there; one that fits nowhere was altered or forged.
    """
    rows = list(events)
    problems: list[Problem] = []
    previous, expected_version = GENESIS, 1
    links: list[tuple[int, bytes, bytes, bytes]] = []  # version, previous chain, event hash, chain
    for row in rows:
        try:
            chain, payload = open_sealed(row.state)
        except (msgspec.DecodeError, ValueError):
            problems.append(Problem(row.version, "altered", f"event {row.version} is not a sealed event: its bytes were changed"))
            previous, expected_version = GENESIS, row.version + 1
            continue
        if row.version > expected_version:
            gap = f"{expected_version}" if row.version == expected_version + 1 else f"{expected_version}-{row.version - 1}"
            problems.append(Problem(expected_version, "missing", f"event(s) {gap} are missing"))
        own = event_hash(row.topic, payload)
        links.append((row.version, previous, own, chain))
        previous, expected_version = chain, row.version + 1
    by_hash: dict[bytes, list[int]] = {}
    for version, _, own, _ in links:
        by_hash.setdefault(own, []).append(version)
    fits = {(before, chain): version for version, before, _, chain in links}
    for version, before, own, chain in links:
        if link(before, own) == chain:
            continue
        if len(by_hash[own]) > 1 and by_hash[own][0] != version:
            problems.append(Problem(version, "duplicated", f"event {version} repeats event {by_hash[own][0]}"))
        elif any(link(b, own) == c for (b, c) in fits):
            problems.append(Problem(version, "reordered", f"event {version} belongs at another place in the history"))
        else:
            problems.append(Problem(version, "altered", f"event {version} was altered (or forged): its hash does not follow the chain"))
    return sorted(problems, key=lambda p: (p.version, p.kind)), previous, expected_version - 1
