"""TI4's VP by source in ``gamelog stats`` is the one classification ``reconcile`` and the state use.

A point comes from the source of the line that scored it (``measures.source``, TI4-VP-SOURCE): the statistics,
the reconciliation and the report's VP by source must never disagree about the same game.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from gamelog.cli.main import main
from tests.conftest import ROOT, shared_path

COMPLETE = str(ROOT / "examples" / "twilight-imperium-4" / "complete-4p.jsonl")

# The statistics' source keys (``vp_sources[].source``) and the reconciliation's names of the same sources.
NAMES = {"stage_1": "stage I objectives", "stage_2": "stage II objectives", "secrets": "secret objectives",
         "custodians": "Custodians", "imperial": "Imperial", "agendas": "agendas", "relics": "relics",
         "support_for_the_throne": "Support for the Throne", "manual": "manual adjustments",
         # a correction's change when the line it voids scored nothing: the reconciliation names it by the measure
         "corrections": "vp"}


def run(*args: str) -> dict:
    result = CliRunner().invoke(main, [*args, "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.output)


def test_a_vp_gained_line_counts_for_the_source_its_words_name():
    # complete-4p.jsonl line 75: Cy (Arborec) gains 1 VP, "Custodians token"; line 223: Bob (Federation of Sol)
    # gains 1 VP, "Imperial: Mecatol Rex". Neither is a "manual" point.
    document = run("stats", COMPLETE)
    sources = {(s["faction"], s["source"]): s["vp"] for s in document["vp_sources"]}
    assert sources[("Arborec", "custodians")] == 1 and sources[("Federation of Sol", "imperial")] == 1
    assert not any(source == "manual" for _, source in sources)
    assert [(c["faction"], c["taken"]) for c in document["custodians"]] == [("Arborec", 1)]
    assert document["imperial_points"] == 1


def by_source(stats: dict, reconciled: dict) -> tuple[dict, dict]:
    """Each faction's VP by source as the statistics count them and as the reconciliation does, in its names."""
    counted: dict[tuple[str, str], int] = {}
    for row in stats["vp_sources"]:
        if row["vp"]:
            key = (row["faction"], NAMES.get(row["source"], "other VP"))
            counted[key] = counted.get(key, 0) + row["vp"]
    # The statistics name a faction by its printed name without "The" (statistics.faction_of), and count an origin
    # the rules do not list (the reconciliation names it as written: "Styx") and other public objectives as other.
    computed: dict[tuple[str, str], int] = {}
    for p in reconciled["players"]:
        for source, vp in p["sources"].items():
            if vp:
                key = (p["faction"].removeprefix("The "), source if source in NAMES.values() else "other VP")
                computed[key] = computed.get(key, 0) + vp
    return counted, computed


def test_the_example_game_by_source_is_the_reconciliations():
    counted, computed = by_source(run("stats", COMPLETE), run("reconcile", COMPLETE))
    assert counted == computed


@pytest.mark.parametrize("name", ["LjnqDB", "nHg8Hw", "9-8-25"])
def test_each_real_export_by_source_is_the_reconciliations(name, tmp_path):
    store = str(tmp_path / "store.sqlite")
    path = str(shared_path("data", "real", f"ti-assistant-{name}.json"))
    result = CliRunner().invoke(main, ["import", "--from", "ti-assistant", path, "--store", store])
    assert result.exit_code == 0, result.output
    (game,) = [line for line in CliRunner().invoke(main, ["games", "--store", store]).output.splitlines()
               if line.startswith("ti-assistant-")]
    counted, computed = by_source(run("stats", "--store", store), run("reconcile", game, "--store", store))
    assert counted == computed


def test_a_correction_takes_back_the_points_from_the_voided_lines_source(tmp_path):
    # nHg8Hw: the export unscores the Firmament's Erect a Monument (a stage I objective) and a secret of the
    # Crimson Rebellion: the log voids each scoring line, so those points leave stage I and the secrets, not a
    # source of their own. Counted by hand from the export (tests/test_stats_real.py): the Firmament scored four
    # stage I lines, one voided; the Crimson Rebellion three secrets, one voided.
    path = str(shared_path("data", "real", "ti-assistant-nHg8Hw.json"))
    sources = {(row["faction"], row["source"]): row["vp"]
               for row in run("stats", "--from", "ti-assistant", path)["vp_sources"]}
    assert sources[("Firmament", "stage_1")] == 3 and sources[("Crimson Rebellion", "secrets")] == 2
    assert not any(source == "corrections" for _, source in sources)


def test_explain_counts_one_line_and_one_game_in_the_singular():
    # complete-4p.jsonl line 75: the Arborec's only Custodians point.
    result = CliRunner().invoke(main, ["stats", COMPLETE, "--explain", "vp_sources/Arborec/custodians"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == "vp_sources/Arborec/custodians: 1 from 1 line in 1 game"
