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


def sealed_chain(previous: bytes, encoded: Iterable[tuple[str, bytes]]) -> tuple[list[bytes], bytes]:
    """Each (topic, payload encoding) sealed with its chain hash, following ``previous``; and the chain head after.

    :func:`event_hash`, :func:`link` and :func:`seal` for each, written out in one loop (an import's hot path),
    each topic's hash prefix made once.
    """
    sha256 = hashlib.sha256
    prefixes: dict[str, bytes] = {}
    sealed = []
    for topic, payload in encoded:
        prefix = prefixes.get(topic)
        if prefix is None:
            prefix = prefixes[topic] = EVENT_PREFIX + topic.encode() + b"\x00"
        previous = sha256(CHAIN_PREFIX + previous + sha256(prefix + payload).digest()).digest()
        sealed.append(_HEAD + previous.hex().encode() + _MIDDLE + payload + b"}")
    return sealed, previous


def seal(chain: bytes, payload: bytes) -> bytes:
    """The stored state: the chain hash after this event, and the event's encoding."""
    return _HEAD + chain.hex().encode() + _MIDDLE + payload + b"}"


_HEAD = b'{"chain":"'
CHAIN_AT = len(_HEAD)
EVENT_AT = CHAIN_AT + 64
_MIDDLE = b'","event":'
PAYLOAD_AT = EVENT_AT + len(_MIDDLE)


def sealed_head() -> tuple[bytes, bytes]:
    """What :func:`seal` writes before the chain hash, and between it and the payload: a state as written is
    ``head + chain hash (CHAIN_AT:EVENT_AT) + middle + payload (PAYLOAD_AT:-1) + b"}"``."""
    return _HEAD, _MIDDLE


def open_sealed(state: bytes) -> tuple[bytes, bytes]:
    """(chain hash, payload encoding) of a stored state; raises ``msgspec.DecodeError`` if it is not sealed."""
    sealed = _sealed.decode(state)
    return bytes.fromhex(sealed.chain), bytes(sealed.event)


@dataclass(frozen=True)
class ChainBreak:
    """One break in a stored history, as ``verify`` finds it: the version where it is, what kind, and what it means.

    A break between the events and what gamelog derives from them (the catalog,
    a view, the views' tracking position) names its ``table``; its ``version`` is 0.
    (The report's document of it is ``projections.reports.documents.Problem``.)
    """

    version: int
    kind: str  # altered, missing, reordered, duplicated, inserted, truncated, undecodable, damaged, derived
    message: str
    table: str | None = None


@dataclass(frozen=True)
class StoredLink:
    """What verification needs of one stored event (``notification_id``: its place in the store's log)."""

    version: int
    topic: str
    state: bytes | None
    notification_id: int = 0


WINDOW = 64
"""How far (in positions) a moved event's true neighbour is looked for."""


def check(events: Iterable[StoredLink]) -> tuple[list[ChainBreak], bytes, int]:
    """Check a game's stored events in version order: (problems, chain head, last version).

    Each event's stored chain hash must follow from the chain hash stored
    before it and its own content; versions must run 1, 2, 3... Where the
    chain breaks, each event's true predecessor is looked for nearby, which
    tells a moved event (reordered) or a copy (duplicated) from one whose
    content was changed (altered); an intact event after a removed or
    overwritten one is not blamed for it.
    """
    rows, problems = _open_rows(events)
    chains = [chain for _, chain, _ in rows]
    first_seen: dict[bytes, int] = {}
    for i, chain in enumerate(chains):
        first_seen.setdefault(chain, i)
    pred = [_predecessor(rows, i) for i in range(len(rows))]
    original = _original_positions(pred)
    skipped = {i for i, (version, _, _) in enumerate(rows) if i and version != rows[i - 1][0] + 1}
    for i, (version, chain, own) in enumerate(rows):
        before = chains[i - 1] if i else GENESIS
        if link(before, own) == chain or (i in skipped and pred[i] is None):
            continue  # intact, or the event right after a gap (the gap is named already)
        if first_seen[chain] != i:
            problems.append(ChainBreak(version, "duplicated", f"event {version} is a copy of event {rows[first_seen[chain]][0]}"))
        elif pred[i] is not None and original.get(i) != i:
            problems.append(ChainBreak(version, "reordered", f"event {version} belongs at another place in the history"))
        elif pred[i] is None and not (i and first_seen[chains[i - 1]] != i - 1):
            problems.append(ChainBreak(version, "altered", f"event {version} was altered (or forged): its hash does not follow the chain"))
    head = chains[-1] if chains else GENESIS
    return sorted(problems, key=lambda p: (p.version, p.kind)), head, rows[-1][0] if rows else 0


def _open_rows(events: Iterable[StoredLink]) -> tuple[list[tuple[int, bytes, bytes]], list[ChainBreak]]:
    """(version, stored chain hash, own hash) of each readable event, and the problems of the rest and of gaps."""
    rows: list[tuple[int, bytes, bytes]] = []
    problems: list[ChainBreak] = []
    expected = 1
    for row in events:
        if row.version > expected:
            gap = f"{expected}" if row.version == expected + 1 else f"{expected}-{row.version - 1}"
            problems.append(ChainBreak(expected, "missing", f"event(s) {gap} are missing"))
        expected = row.version + 1
        try:
            chain, payload = open_sealed(row.state)  # type: ignore[arg-type]  # NULL raises TypeError
        except (msgspec.DecodeError, ValueError, TypeError):
            problems.append(ChainBreak(row.version, "altered", f"event {row.version} is not a sealed event: its bytes were changed"))
            continue
        rows.append((row.version, chain, event_hash(row.topic or "", payload)))  # a NULL topic breaks the chain
    return rows, problems


def _predecessor(rows: list[tuple[int, bytes, bytes]], i: int) -> int | None:
    """The position whose chain hash this event's own chain hash was made from (-1: the start), if nearby."""
    _, chain, own = rows[i]
    if link(GENESIS, own) == chain:
        return -1
    for j in sorted(range(max(0, i - WINDOW), min(len(rows), i + WINDOW)), key=lambda j: abs(j - i + 1)):
        if j != i and link(rows[j][1], own) == chain:
            return j
    return None


def _original_positions(pred: list[int | None]) -> dict[int, int]:
    """Each event's position in the history as it was written, following the predecessors from the start."""
    after: dict[int, int] = {}
    for i, j in enumerate(pred):
        if j is not None:
            after.setdefault(j, i)
    original, position, at = {}, -1, 0
    while position in after and after[position] not in original:
        position = after[position]
        original[position] = at
        at += 1
    return original
