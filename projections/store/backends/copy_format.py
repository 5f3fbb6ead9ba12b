"""PostgreSQL's binary ``COPY`` format, written for the events table's rows in one pass.

The format is PostgreSQL's own (its manual, "COPY", section "Binary Format"):
an 11-byte signature, a 32-bit flags field and a 32-bit header-extension
length; then per row a 16-bit field count and, per field, a 32-bit length and
the field's bytes in the type's binary send format; then a 16-bit -1. The
events table's four columns are a ``uuid`` (its 16 bytes), an ``int8`` (big
endian), a ``text`` (its UTF-8) and a ``bytea`` (its bytes).

psycopg's ``Copy.write_row`` adapts each value through its dumpers, several
Python calls a value in its pure-Python build (a third of a PostgreSQL import's
time); the rows here are packed with one ``struct`` call a row and handed to
``Copy.write`` whole.
"""

from __future__ import annotations

import struct
from typing import Iterable
from uuid import UUID

SIGNATURE = b"PGCOPY\n\xff\r\n\x00" + bytes(4) + bytes(4)
"""The signature, the flags (no OIDs) and the header extension's length (none)."""
TRAILER = b"\xff\xff"
"""The field count -1 that ends the data."""

_ROW = struct.Struct("!hi16siqi")
"""A row's field count (4), the uuid's length (16) and bytes, the int8's length (8) and value, the text's length."""
_LENGTH = struct.Struct("!i").pack


def binary_rows(originator_id: UUID, rows: Iterable[tuple[int, str, bytes]]) -> bytes:
    """The whole ``COPY ... (FORMAT BINARY)`` data of a game's events: (version, topic, state) rows, each under
    ``originator_id``, with the signature before them and the trailer after; columns (originator_id,
    originator_version, topic, state). Raises ``struct.error`` for a version outside int8 or a field past 2 GB."""
    uid, pack = originator_id.bytes, _ROW.pack
    parts = [SIGNATURE]
    for version, topic, state in rows:
        encoded = topic.encode()
        parts.append(pack(4, 16, uid, 8, version, len(encoded)))
        parts.append(encoded)
        parts.append(_LENGTH(len(state)))
        parts.append(state)
    parts.append(TRAILER)
    return b"".join(parts)
