"""Output files (issue 25 items 10 and 11): ``-o`` never replaces the store or the command's own input, every
write is atomic and replaces a symbolic link rather than writing through it, and the command says what it wrote."""

from __future__ import annotations

import os
import shutil

import pytest
from click.testing import CliRunner

from gamelog.cli.main import main
from tests.conftest import EXAMPLES

SEED = EXAMPLES / "uchronia" / "tiebreak-2p.jsonl"
GAME = "uchronia-2p-tiebreak"
EXPORT = EXAMPLES.parent / "tests" / "fixtures" / "ti-assistant" / "small-game.json"


def gamelog(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def store(tmp_path):
    location = str(tmp_path / "s.sqlite")
    assert gamelog("import", "--store", location, str(SEED)).exit_code == 0
    return location


# --- item 11: the store and the command's inputs are refused as -o ---

@pytest.mark.parametrize("side", ["", "-wal"])
def test_report_refuses_to_write_over_its_store(store, side):
    before = open(store, "rb").read()
    result = gamelog("--store", store, "report", GAME, "-o", store + side)
    assert result.exit_code == 2, result.output
    assert f"would replace the store {store}" in result.output
    assert open(store, "rb").read() == before
    assert gamelog("--store", store, "report", GAME).exit_code == 0


def test_report_refuses_the_store_spelled_another_way(store, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = gamelog("--store", "s.sqlite", "report", GAME, "-o", "./../" + tmp_path.name + "/s.sqlite")
    assert result.exit_code == 2 and "would replace the store" in result.output


def test_report_refuses_to_write_over_the_log_it_reads(tmp_path):
    log = tmp_path / "u.jsonl"
    shutil.copy(SEED, log)
    result = gamelog("report", str(log), "-o", str(log), "--store", str(tmp_path / "none.sqlite"))
    assert result.exit_code == 2 and f"would replace {log}, which this command reads" in result.output
    assert log.read_bytes() == SEED.read_bytes()


def test_convert_refuses_to_write_over_its_export(tmp_path):
    export = tmp_path / "export.json"
    shutil.copy(EXPORT, export)
    result = gamelog("convert", "--from", "ti-assistant", str(export), "-o", str(export))
    assert result.exit_code == 2 and "which this command reads" in result.output
    assert export.read_bytes() == EXPORT.read_bytes()


# --- item 10: atomic writes that replace a symbolic link, never follow it; what was written is said ---

def test_convert_replaces_a_symbolic_link_and_never_writes_its_target(tmp_path):
    target = tmp_path / "precious.txt"
    target.write_text("keep me\n")
    link = tmp_path / "out.jsonl"
    link.symlink_to(target)
    result = gamelog("convert", "--from", "ti-assistant", str(EXPORT), "-o", str(link))
    assert result.exit_code == 0, result.output
    assert target.read_text() == "keep me\n"
    assert not link.is_symlink() and link.read_text().startswith('{"type": "game"')
    assert f"({link})" in result.stderr


def test_convert_writes_atomically(tmp_path, monkeypatch):
    out = tmp_path / "out.jsonl"
    out.write_text("the old log\n")
    import gamelog.cli.output as output

    real_replace = os.replace

    def no_rename(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(output.os, "replace", no_rename)
    result = gamelog("convert", "--from", "ti-assistant", str(EXPORT), "-o", str(out))
    monkeypatch.setattr(output.os, "replace", real_replace)
    assert result.exit_code == 2 and "cannot write" in result.output
    assert out.read_text() == "the old log\n"  # not truncated, not half-written
    assert [p.name for p in tmp_path.iterdir()] == ["out.jsonl"]  # no temporary file left


def test_report_says_what_it_wrote(store, tmp_path):
    out = tmp_path / "r.html"
    result = gamelog("--store", store, "report", GAME, "--format", "html", "-o", str(out))
    assert result.exit_code == 0 and result.stdout == ""
    assert result.stderr == f"{GAME}: the html report written to {out}\n"
    assert out.read_text().startswith("<!DOCTYPE html>")
