"""Shared test helpers: building small logs, and finding the examples and ../shared."""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
SHARED = ROOT.parent / "shared"

# No test may fail for being slow: on a loaded machine an example takes what it takes. A test's own @settings
# overrides only what it names, so the profile's deadline=None holds for every property test.
settings.register_profile("gamelog", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("gamelog")

SLOW = {
    "test_html_browser.py": "drives headless Chromium",
    "test_html_size.py": "renders reports of 200,000-line logs",
    "test_crash.py": "kills importing processes and waits for their helpers",
    "test_concurrency.py": "several writer processes on one store",
    "test_archive_import.py": "imports in worker processes",
    "test_properties.py": "hundreds of generated logs per property",
    "test_correction_properties.py": "generated corrections, each game decided again",
    "test_projections.py": "generated histories folded and rebuilt",
    "test_packaging.py": "builds the wheel",
    "test_progress_shown.py": "runs each long command in a child on a pseudo-terminal",
    "test_stats_real.py": "the real exports of ../shared",
    "test_ti_assistant_real.py": "the real exports of ../shared",
    "test_phone_layout.py": "drives headless Chromium",
    "test_serve_browser.py": "drives headless Chromium against a served game",
    "test_serve_browser_flow.py": "drives headless Chromium through the turn flow and the table's screen",
    "test_serve_processes.py": "starts gamelog serve processes",
    "test_serve_secrets.py": "generated games recorded through the served API",
    "test_result_browser.py": "drives three headless Chromiums against a served game",
    "test_result_properties.py": "generated agreements, each game read again per confirmation",
    "test_serve_seats.py": "generated entries posted to two served games at once, on each backend",
}
"""The test files marked ``slow`` (the README: ``python -m pytest -m "not slow"`` runs the rest), and why. A slow test
in a file of fast ones says ``@pytest.mark.slow`` itself (``test_public_api.py``'s, which build the wheel)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.name in SLOW:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _no_user_settings(tmp_path_factory, monkeypatch) -> Path:
    """Every test reads the settings of an empty folder, never the user's own (``$XDG_CONFIG_HOME/gamelog/
    config.toml``: a store or a colour set there would change what the commands print); a test that writes
    ``gamelog/config.toml`` under the folder returned gives gamelog settings."""
    home = tmp_path_factory.mktemp("config-home")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home))
    return home


def log_bytes(header: dict, *events: dict | str) -> bytes:
    """A log: the header, then each event (a dict, or a raw line such as a comment)."""
    lines = [json.dumps({"type": "game", **header})]
    lines += [e if isinstance(e, str) else json.dumps(e) for e in events]
    return ("\n".join(lines) + "\n").encode()


def open_lists_left_out(forms: str) -> str:
    """A ``/forms`` answer (JSON text) with each open list's values left out, for a scan for other hands' cards.

    Why it may be left out: an open list (``open_list``, a secret objective to draw) is the deck less what its own
    player may know is out of it; it holds another hand's cards because it is never made less them, so it is the
    same whatever the other hands hold (``tests/test_offers.py`` checks that) and tells nothing of them. Everything
    else in the answer is scanned."""
    document = json.loads(forms)

    def cleared(field: dict) -> dict:
        if field.get("open_list"):
            return field | {"offered": [], "values": None}
        return field | {"fields": [cleared(f) for f in field.get("fields", [])],
                        "item": cleared(field["item"]) if field.get("item") else field.get("item")}

    for form in document.get("forms", []):
        form["fields"] = [cleared(f) for f in form["fields"]]
    return json.dumps(document)


def shared_path(*parts: str) -> Path:
    """A file of ../shared; skips the test where it is absent (a user's clone), fails under CI."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{path} is required when CI is set")
        pytest.skip(f"{path} is absent (../shared is not part of a clone)")
    return path


def damage_events_page(location: str) -> None:
    """Break a SQLite store's file as a disk would: the events table's root page gets a b-tree page type that
    does not exist, so SQLite calls the file malformed at the next read of that table."""
    import sqlite3

    with sqlite3.connect(location) as conn:
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'stored_events'").fetchone()[0]
        page = conn.execute("PRAGMA page_size").fetchone()[0]
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    with open(location, "r+b") as handle:  # the events table's root page: its b-tree page type byte
        handle.seek((root - 1) * page)
        assert handle.read(1) == b"\x05"  # an interior page of a table b-tree
        handle.seek((root - 1) * page)
        handle.write(b"\xff")


# --- Stores on each backend (SQLite always; PostgreSQL when GAMELOG_TEST_POSTGRES names a database) ---

POSTGRES_ENV = "GAMELOG_TEST_POSTGRES"
BACKENDS = ["sqlite", "postgresql"]



def postgres_url() -> str:
    """The test database's URL; skips the test without one (fails under CI, or when unreachable)."""
    url = os.environ.get(POSTGRES_ENV, "").strip()
    if not url:
        if os.environ.get("CI"):
            pytest.fail(f"{POSTGRES_ENV} must name a PostgreSQL database when CI is set")
        pytest.skip(f"PostgreSQL: set {POSTGRES_ENV}=postgresql://user@host:port/db to run this on PostgreSQL")
    import psycopg

    try:
        psycopg.connect(_plain(url), connect_timeout=5).close()
    except psycopg.Error as exc:
        pytest.fail(f"{POSTGRES_ENV}={url} cannot be reached: {exc}")
    return url


def _plain(url: str) -> str:
    """The URL without gamelog's own query (``?schema=``), as libpq takes it."""
    return url.split("?", 1)[0]


class Locations:
    """Fresh, empty store locations of one backend for one test; :meth:`drop` removes them.

    SQLite: files in the test's tmp_path. PostgreSQL: a new schema per
    location (``?schema=gl_test_...``) in the test database.
    """

    def __init__(self, backend: str, tmp_path: Path):
        self.backend = backend
        self.tmp_path = tmp_path
        self.base = postgres_url() if backend == "postgresql" else ""
        self.schemas: list[str] = []

    def new(self) -> str:
        """A location no other test uses."""
        if self.backend == "sqlite":
            return str(self.tmp_path / f"store-{len(list(self.tmp_path.glob('store-*.sqlite')))}-{uuid.uuid4().hex[:6]}.sqlite")
        schema = f"gl_test_{uuid.uuid4().hex[:16]}"
        self.schemas.append(schema)
        return f"{_plain(self.base)}?schema={schema}"

    def drop(self) -> None:
        """Drop this test's PostgreSQL schemas (SQLite files go with tmp_path)."""
        if not self.schemas:
            return
        import psycopg

        with psycopg.connect(_plain(self.base), autocommit=True) as conn:
            for schema in self.schemas:
                conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


@pytest.fixture(params=BACKENDS)
def locations(request, tmp_path):
    """Makes fresh store locations on each backend in turn."""
    made = Locations(request.param, tmp_path)
    yield made
    made.drop()
