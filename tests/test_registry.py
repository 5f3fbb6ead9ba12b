"""A report format is one registration: plugged in from a fixture, ``gamelog report --format`` offers it."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from gamelog.cli.main import main
from gamelog.domain.games import plugged_in
from gamelog.projections.reports.registry import (AUDIT_FORMATS, REPORT_FORMATS, plugged_in_format, register_format,
                                                  report_formats)
from tests.conftest import EXAMPLES
from tests.fixtures.report_format import lines

SEED = str(EXAMPLES / "merchant-of-venus" / "seed-examples.jsonl")


def test_a_format_from_a_fixture_is_offered_by_report_and_gone_after():
    with plugged_in_format("lines", lines) as plugged:
        assert plugged.whole is False and report_formats()[-1] == "lines"
        result = CliRunner().invoke(main, ["report", SEED, "--format", "lines"])
        assert result.exit_code == 0, result.output
        out = result.stdout.splitlines()
        assert out[0] == "seed-examples" and out[1] == "turn 1: lines 5-11, 5 events"
        assert out[-1].startswith("turn 12: lines ") and len(out) == 13
        assert "lines" in CliRunner().invoke(main, ["report", "--help"]).stdout
    assert "lines" not in REPORT_FORMATS
    gone = CliRunner().invoke(main, ["report", SEED, "--format", "lines"])
    assert gone.exit_code == 2 and "'lines' is not one of" in gone.stderr


def test_a_plugged_in_format_reports_a_stored_game_and_the_fourth_game(tmp_path):
    store = str(tmp_path / "gamelog.sqlite")
    assert CliRunner().invoke(main, ["import", "--store", store, SEED]).exit_code == 0
    with plugged_in_format("lines", lines):
        stored = CliRunner().invoke(main, ["report", "seed-examples", "--store", store, "--format", "lines"])
        assert stored.stdout == CliRunner().invoke(main, ["report", SEED, "--format", "lines"]).stdout
        with plugged_in("tests.fixtures.coin_toss"):
            flip = tmp_path / "flip.jsonl"
            flip.write_text('{"type": "game", "game": "coin-toss", "id": "flip", "players": ["Ann", "Bob"], '
                            '"setup": {"goal": 1}}\n{"type": "round_started", "round": 1}\n')
            result = CliRunner().invoke(main, ["report", str(flip), "--format", "lines"])
            assert result.exit_code == 0, result.output
            assert result.stdout.splitlines()[0] == "flip"


def test_every_format_is_registered_once_and_html_is_one_of_them():
    assert report_formats() == ["text", "markdown", "json", "csv", "html"]
    assert [name for name, f in REPORT_FORMATS.items() if f.sampled] == ["html"]
    assert [name for name, f in REPORT_FORMATS.items() if f.whole] == []
    assert list(AUDIT_FORMATS) == ["text", "json", "markdown"]
    with pytest.raises(ValueError, match="registered already"):
        register_format("csv", lines)
