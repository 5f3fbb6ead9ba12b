"""The views carry the number of the way they were derived; views an earlier gamelog derived are derived again.

``projections.views.derivation``: a change to what the folds write must raise ``DERIVATION``, or a store from
before the change would keep rows this gamelog would never write (and ``verify`` would call them altered).
"""

from __future__ import annotations

import hashlib
import json

from click.testing import CliRunner

from gamelog.cli.main import main
from gamelog.domain.games import GAMES
from gamelog.domain.replay import run
from gamelog.projections.views.derivation import DERIVATION
from gamelog.projections.views.folder import TABLES
from gamelog.projections.views.keeper import derived_views
from tests.conftest import EXAMPLES
from tests.test_tamper import Raw

DIGESTS = {
    # DERIVATION -> the digest of every example's views (views_digest). When a change to the folds changes it,
    # raise DERIVATION in projections/views/derivation.py (saying why there) and add its digest here.
    3: "69132f81fe4e262b3545c7fc49d78ff22e8bcaa0ad8fcbc8497338599f09bd49",
    4: "3374448d0387210140a4af1593bbc7a4daa402d64878730505d21bc2b200d114",
    5: "3374448d0387210140a4af1593bbc7a4daa402d64878730505d21bc2b200d114",  # the examples give no alias
    6: "952bbd609f0f122134a07c042defd0e8b3a2592fa096276618d5d80591b372d2",
}


def views_digest() -> str:
    """A digest of every row of the views of every example log, folded in memory, table by table in key order;
    and of the replay snapshot (``view_snapshots``) of each example's state after each of its lines, which the
    examples are too short to hold many of: a change to a state's fold changes them."""
    digest = hashlib.sha256()
    for path in sorted(EXAMPLES.glob("*/*.jsonl")):
        events = run(path.read_bytes()).events
        with derived_views(events) as cursor:
            for table in TABLES:
                cursor.execute(f"SELECT * FROM {table}")
                rows = sorted(json.dumps([v.hex() if isinstance(v, bytes) else v for v in row], sort_keys=True)
                              for row in cursor.fetchall())
                digest.update(f"{path.name}/{table}:{len(rows)}\n".encode())
                for row in rows:
                    digest.update(row.encode() + b"\n")
        state = GAMES[events[0].event.game].engine.from_history(events[:1], history=False).state
        for before, event in zip(events, events[1:]):
            if event.line != before.line:
                digest.update(state.replay_snapshot())
            state.apply(event)
        digest.update(state.replay_snapshot())
    return digest.hexdigest()


def test_the_views_of_the_examples_are_what_this_derivation_gives():
    got = views_digest()
    assert DIGESTS.get(DERIVATION) == got, (
        f"the views of the examples changed ({got}): if the folds were meant to change, raise DERIVATION in "
        "projections/views/derivation.py and add its digest to DIGESTS; if not, the change alters the views")


def gamelog(*args: str):
    return CliRunner().invoke(main, list(args))


GAME = EXAMPLES / "twilight-imperium-4" / "complete-4p.jsonl"


def test_views_an_earlier_gamelog_derived_are_derived_again(locations):
    location = locations.new()
    assert gamelog("import", "--store", location, str(GAME)).exit_code == 0
    expected = gamelog("stats", "--store", location, "--format", "json").output
    raw = Raw(location)
    # What an earlier gamelog left: its own count of a source (complete-4p line 75's Custodians point as
    # "manual"), and no number, or another, for the way the views were derived.
    for stale in ("DELETE FROM {t}", "UPDATE {t} SET derivation = 1"):
        raw.run(f"UPDATE {raw.name('view_stat_facts')} SET name = 'manual' WHERE line = 75 AND fact = 'vp'")
        raw.run(stale.format(t=raw.name("view_derivation")))
        said = gamelog("verify", "ti4-complete-4p", "--store", location)
        assert said.exit_code == 3, said.output
        assert "view_derivation: the views were derived by an earlier gamelog" in said.output
        assert f"this one is derivation {DERIVATION}" in said.output and "view_stat_facts" not in said.output
        # Any command reading the views derives them again, once: the figures are this gamelog's.
        assert gamelog("stats", "--store", location, "--format", "json").output == expected
        assert raw.run(f"SELECT derivation FROM {raw.name('view_derivation')}") == [(DERIVATION,)]
        assert gamelog("verify", "ti4-complete-4p", "--store", location).exit_code == 0


def test_views_of_this_derivation_are_not_derived_again(locations):
    location = locations.new()
    assert gamelog("import", "--store", location, str(GAME)).exit_code == 0
    raw = Raw(location)
    # A row changed behind gamelog's back stays changed (it is damage for verify to name, not an upgrade).
    raw.run(f"UPDATE {raw.name('view_stat_facts')} SET name = 'manual' WHERE line = 75 AND fact = 'vp'")
    assert gamelog("stats", "--store", location).exit_code == 0
    said = gamelog("verify", "ti4-complete-4p", "--store", location)
    assert said.exit_code == 3 and "view_stat_facts" in said.output, said.output
