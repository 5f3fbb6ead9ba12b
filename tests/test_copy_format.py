"""The events' binary COPY data (``projections.store.backends.copy_format``), as PostgreSQL's manual lays it out,
and read back by PostgreSQL itself."""

from __future__ import annotations

import uuid

import pytest

from gamelog.projections.store.backends.copy_format import binary_rows

UID = uuid.UUID("00112233-4455-6677-8899-aabbccddeeff")


def test_one_row_is_the_signature_four_fields_and_the_trailer():
    data = binary_rows(UID, [(7, "é", b'{"a":1}')])
    assert data == (
        b"PGCOPY\n\xff\r\n\x00" + b"\x00\x00\x00\x00" + b"\x00\x00\x00\x00"  # signature, flags, no extension
        + b"\x00\x04"                                                        # four fields
        + b"\x00\x00\x00\x10" + bytes.fromhex("00112233445566778899aabbccddeeff")  # uuid
        + b"\x00\x00\x00\x08" + b"\x00\x00\x00\x00\x00\x00\x00\x07"          # int8 7
        + b"\x00\x00\x00\x02" + "é".encode()                                 # text: its UTF-8 bytes
        + b"\x00\x00\x00\x07" + b'{"a":1}'                                   # bytea
        + b"\xff\xff")                                                       # the trailer


def test_no_rows_is_the_signature_and_the_trailer():
    assert binary_rows(UID, []) == b"PGCOPY\n\xff\r\n\x00" + bytes(8) + b"\xff\xff"


def test_postgresql_reads_back_what_was_written(tmp_path):
    from tests.conftest import _plain, postgres_url

    psycopg = pytest.importorskip("psycopg")
    url = _plain(postgres_url())  # skips, saying why, where no PostgreSQL is named
    rows = [(1, "domain.events:Header", b'{"x":"\\u0000 \\n\\t"}'), (2, "t\u00fcpic \u2603", bytes(range(256))),
            (2**40, "", b"")]
    schema = f"copy_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(url, autocommit=True) as conn:
        try:
            conn.execute(f'CREATE SCHEMA "{schema}"')
            conn.execute(f'CREATE TABLE "{schema}".events (originator_id uuid, originator_version bigint, topic text, '
                         "state bytea)")
            with conn.cursor() as cursor, cursor.copy(
                    f'COPY "{schema}".events (originator_id, originator_version, topic, state) FROM STDIN '
                    "(FORMAT BINARY)") as copy:
                copy.write(binary_rows(UID, rows))
            got = conn.execute(f'SELECT originator_id, originator_version, topic, state FROM "{schema}".events '
                               "ORDER BY originator_version").fetchall()
        finally:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    assert got == [(UID, version, topic, state) for version, topic, state in rows]
