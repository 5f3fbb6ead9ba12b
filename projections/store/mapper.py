"""Storing msgspec events with eventsourcing: the envelope and the mapper.

eventsourcing's default ``Mapper`` reads ``vars(event)``, which msgspec Structs
don't have, and its JSON transcoder is several times slower than msgspec. So
the store keeps the domain's own Structs: an :class:`Envelope` carries one with
the aggregate's ID and version, and :class:`StructMapper` encodes its payload
with one cached msgspec encoder and decodes it with one cached decoder per
topic (the payload's class). The domain never sees the store's IDs. The
store seals each encoded event with its chain hash (``projections.store.chain``);
decoding opens the seal.

Stored data never chooses code: a topic is resolved only to one of the
registered games' event classes (their ``stored_types``), never imported, so a
forged topic such as ``os:system`` is an event that cannot be decoded.
"""

from __future__ import annotations

from binascii import unhexlify
from functools import lru_cache
from operator import attrgetter, call
from typing import Any, Sequence
from uuid import UUID

import msgspec
from eventsourcing.persistence import Mapper, MapperDeserialisationError, StoredEvent
from eventsourcing.utils import get_topic

from gamelog.domain.games import GAMES
from gamelog.projections.store.chain import CHAIN_AT, EVENT_AT, PAYLOAD_AT, open_sealed, sealed_head


class Envelope:
    """One stored event of a game: the aggregate's ID and version, and the domain event."""

    __slots__ = ("originator_id", "originator_version", "payload")

    def __init__(self, originator_id: UUID, originator_version: int, payload: Any):
        self.originator_id = originator_id
        self.originator_version = originator_version
        self.payload = payload


_encode = msgspec.json.Encoder().encode


PACKAGE_PREFIX = "gamelog."
"""Dropped from a topic: stores written before gamelog installed as one package name ``domain.…`` modules, and a
topic is hashed into the chain, so a class keeps the topic it had (and every fingerprint stays what it was)."""


@lru_cache(maxsize=None)
def _topic(cls: type) -> str:
    return get_topic(cls).removeprefix(PACKAGE_PREFIX)


def encoded_topic(cls: type) -> str:
    """The topic the store keeps for events of class ``cls``."""
    return _topic(cls)


def encoded(payload: Any) -> tuple[str, bytes]:
    """(topic, canonical encoding) of a domain event, as the store keeps it."""
    return _topic(type(payload)), _encode(payload)


class UnknownTopic(LookupError):
    """Raised when a stored topic names no event class of a registered game."""


_classes: dict[str, type] = {}


def event_class(topic: str) -> type:
    """The registered games' event class whose topic this is; raises :class:`UnknownTopic`.

    The registry is read again when a topic is not known yet, so a game plugged
    in later is found.
    """
    cls = _classes.get(topic)
    if cls is None:
        # The games imported already first: a store of one game's events need not import every game's package.
        for names in (GAMES.loaded(), list(GAMES)):
            for name in names:
                for stored in GAMES[name].stored_types:
                    _classes[_topic(stored)] = stored
            cls = _classes.get(topic)
            if cls is not None:
                break
        if cls is None:
            shown = topic if len(topic) <= 60 else topic[:60] + "..."
            raise UnknownTopic(f"the topic {shown!r} is not an event class of any registered game")
    return cls


_HEAD, _MIDDLE = sealed_head()

_decoders: dict[type, msgspec.json.Decoder] = {}
_by_topic: dict[str, Any] = {}  # a topic's decode, once its class is known


def _decoder(topic: str) -> msgspec.json.Decoder:
    cls = event_class(topic)
    decoder = _decoders.get(cls)
    if decoder is None:
        decoder = _decoders[cls] = msgspec.json.Decoder(cls)
    return decoder


@lru_cache(maxsize=None)
def _sealed_decoder(topic: str) -> Any:
    """A topic's sealed state decoder: the seal's two fields, its event decoded as the topic's class
    (raises :class:`UnknownTopic`; a topic that raises is not kept)."""
    sealed = msgspec.defstruct("Sealed", [("chain", str), ("event", event_class(topic))], gc=False)
    return msgspec.json.Decoder(sealed).decode


_chain, _event = attrgetter("chain"), attrgetter("event")


def _decode(topic: str) -> Any:
    decode = _by_topic.get(topic)
    if decode is None:
        decode = _by_topic[topic] = _decoder(topic).decode
    return decode


class DecodeFailed(MapperDeserialisationError):
    """Raised when a stored event does not decode (an unknown topic, a broken seal, NULL, bytes that are not its type's).

    The library's own error, so its callers of the mapper see what they expect;
    gamelog's code above the store catches it by this name.
    """


class StructMapper(Mapper):
    """Maps :class:`Envelope` objects to eventsourcing's ``StoredEvent`` and back, with msgspec."""

    def __init__(self) -> None:
        super().__init__(transcoder=None)  # type: ignore[arg-type]  # msgspec does the transcoding

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        topic, state = encoded(domain_event.payload)
        return StoredEvent(
            originator_id=domain_event.originator_id,
            originator_version=domain_event.originator_version,
            topic=topic,
            state=state,
        )

    @staticmethod
    def decode_payload(topic: str, state: bytes) -> Any:
        """The domain event in a stored (sealed) state; raises :class:`DecodeFailed`."""
        # The hot path of every read (a replay, a rebuild): a state as seal() wrote it, its topic's decoder
        # known, is decoded from a slice in this one call. A state that only looks so (its slice not one JSON
        # value of the type) is opened as any other below, which decides what it holds.
        decode = _by_topic.get(topic)
        if decode is not None and type(state) is bytes and state.startswith(_HEAD) \
                and state.startswith(_MIDDLE, EVENT_AT) and state.endswith(b"}"):
            try:
                unhexlify(state[CHAIN_AT:EVENT_AT])  # a chain hash opening it would take (strict: no spaces)
                return decode(state[PAYLOAD_AT:-1])
            except Exception:
                pass
        try:
            return _decode(topic)(open_sealed(state)[1])
        except Exception as exc:  # an unknown topic, a broken seal, NULL, bytes that are not the type's
            raise DecodeFailed(f"it cannot be decoded: {exc}") from exc

    @staticmethod
    def decode_sealed(topics: Sequence[str], states: Sequence[Any]) -> list[Any] | None:
        """The domain events of stored rows (their topics and states, in order) when every state opens as sealed
        with a chain hash of 64 hex digits and its event decodes as its topic's class; None when one does not
        (NULL, a broken seal, bytes that are not the type's, a topic no registered game has), for
        :meth:`decode_payload` to open them one by one and say which.

        A page of rows at once, with no Python step a row (a replay's reading was mostly that step): each state
        decoded whole as its topic's sealed class (what opening it and decoding its event do, in one msgspec
        call), the chain hashes read as hex together.
        """
        try:
            sealed = list(map(call, map(_sealed_decoder, topics), states))
            chains = "".join(map(_chain, sealed))
            if len(chains) != 64 * len(sealed):
                return None  # a chain hash of another length: opened one by one, as every other
            unhexlify(chains)
            return list(map(_event, sealed))
        except Exception:  # a row that does not open so: the caller opens them one by one
            return None

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        """Decode a stored event; raises :class:`DecodeFailed` when its bytes are not its type's."""
        payload = self.decode_payload(stored_event.topic, stored_event.state)
        originator_id = stored_event.originator_id
        if not isinstance(originator_id, UUID):
            originator_id = UUID(str(originator_id))
        return Envelope(originator_id, stored_event.originator_version, payload)
