"""The shell's options as a user types them (issue 32, section 6).

``-o -`` is standard output for every command with ``-o``; ``--color`` works after the command as before it, and
``audit`` and ``validate`` colour each finding by its severity as ``report`` does, ``NO_COLOR`` honoured;
``reconcile --declared TABLE`` with no GAME reconciles the table's games the store holds and lists the others
(exit 0, 1 with ``--strict``); ``convert`` writes its bytes to stdout without click's deprecated binary stream.
"""

from __future__ import annotations

import json
import re
import tomllib

import pytest
from click.testing import CliRunner

from gamelog.cli.main import main
from tests.conftest import EXAMPLES, ROOT

ANSI = re.compile(r"\x1b\[[0-9;]*m")
RED = "\x1b[31m"
UCHRONIA = str(EXAMPLES / "uchronia" / "disputed.jsonl")
TI = str(EXAMPLES / "twilight-imperium-4" / "complete-4p.jsonl")
EXPORT = str(EXAMPLES / "twilight-imperium-4" / "ti-assistant-small.json")


def run(*args: str, **kwargs):
    return CliRunner().invoke(main, list(args), **kwargs)


@pytest.mark.parametrize("command", [
    ["report", TI],
    ["report", TI, "--format", "html"],
    ["stats", TI, "--format", "json"],
    ["reconcile", TI, "--declared", str(EXAMPLES / "twilight-imperium-4" / "results.csv")],
    ["convert", "--from", "ti-assistant", EXPORT],
])
def test_dash_is_standard_output_for_every_command_with_o(command, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    store = ["--store", str(tmp_path / "s.sqlite")]  # before the command: convert has none of its own
    to_stdout = run(*store, *command, "-o", "-")
    plain = run(*store, *command)
    assert to_stdout.exit_code == plain.exit_code == 0, to_stdout.output
    assert to_stdout.stdout_bytes == plain.stdout_bytes and len(to_stdout.stdout_bytes) > 100
    assert list(tmp_path.iterdir()) == []  # no file named "-", nor the store (nothing was stored)
    written = run(*store, *command, "-o", "out")
    assert (tmp_path / "out").read_bytes().rstrip(b"\n") == plain.stdout_bytes.rstrip(b"\n")
    assert written.exit_code == 0


def test_convert_writes_the_logs_bytes_to_stdout_with_what_click_8_offers(tmp_path):
    assert "get_binary_stream" not in (ROOT / "cli" / "convert.py").read_text(encoding="utf-8")
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    assert "click>=8.1,<9" in dependencies
    printed = run("convert", "--from", "ti-assistant", EXPORT).stdout_bytes
    assert run("convert", "--from", "ti-assistant", EXPORT, "-o", str(tmp_path / "g.jsonl")).exit_code == 0
    assert printed == (tmp_path / "g.jsonl").read_bytes() and printed.startswith(b'{"type": "game"')


@pytest.mark.parametrize("before, after, coloured", [
    ([], ["--color", "always"], True),
    ([], ["--color", "never"], False),
    (["--color", "always"], ["--color", "never"], False),  # the command's own wins, as for --store
    (["--color", "never"], ["--color", "always"], True),
    (["--color", "always"], [], True),
])
def test_color_is_taken_after_the_command_as_before_it(before, after, coloured):
    for command in (["report", UCHRONIA], ["audit", UCHRONIA], ["validate", UCHRONIA]):
        result = run(*before, *command, *after, color=True)
        assert (RED in result.stdout) is coloured, (before, command, after)


def test_audit_and_validate_colour_each_finding_by_its_severity_as_report_does():
    for command in (["audit", UCHRONIA], ["validate", UCHRONIA], ["report", UCHRONIA],
                    ["audit", UCHRONIA, "--without", "5"]):
        out = run("--color", "always", *command, color=True).stdout
        findings = [line for line in out.splitlines() if re.search(r"\bviolation UCH-", ANSI.sub("", line))]
        assert findings and all(line.startswith(RED) or line.lstrip().startswith(RED) for line in findings), command
        assert ANSI.sub("", out) == run("--color", "never", *command).stdout  # the same text, styled
    for command in ("validate", "audit"):  # a warning yellow, an unverifiable finding cyan, as in the report
        warned = run("--color", "always", command, str(EXAMPLES / "merchant-of-venus" / "disputed.jsonl"),
                     color=True).stdout
        assert re.search(r"\x1b\[33m[^\x1b]*warning MOV-SELL", warned), command
        unverifiable = run("--color", "always", command, TI, color=True).stdout
        # validate gives each finding its line; audit groups the unverifiable ones by rule, each rule and line cyan.
        said = "unverifiable LRR 34.10" if command == "validate" else r"LRR 34.10 \(4\)"
        assert re.search(r"\x1b\[36m[^\x1b]*" + said, unverifiable), command
        if command == "audit":
            assert re.search(r"\x1b\[36m    line 145 \[Bob\]", unverifiable)


def test_no_color_turns_colour_off_on_a_terminal_and_always_still_wins(monkeypatch):
    monkeypatch.setattr("gamelog.cli.terminal._stdout_is_terminal", lambda: True)
    for command in (["audit", UCHRONIA], ["validate", UCHRONIA]):
        assert RED in run(*command, color=True).stdout  # auto, on a terminal
        assert RED not in run(*command, color=True, env={"NO_COLOR": "1"}).stdout
        assert RED in run(*command, "--color", "always", color=True, env={"NO_COLOR": "1"}).stdout


def _table(tmp_path) -> str:
    """The example's results table, and two games the store will not hold (rows 6-7 and 8)."""
    lines = (EXAMPLES / "twilight-imperium-4" / "results.csv").read_text(encoding="utf-8").splitlines()
    lines += ["Eve,Arborec,elsewhere,10,1,10,0", "Fay,Arborec,elsewhere,10,0,4,0", "Gus,Arborec,nowhere,10,1,10,0"]
    path = tmp_path / "results.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def test_reconcile_of_a_table_whose_games_are_partly_stored_reconciles_those_and_lists_the_others(tmp_path):
    store, table = str(tmp_path / "s.sqlite"), _table(tmp_path)
    assert run("import", TI, "--store", store).exit_code == 0
    result = run("reconcile", "--declared", table, "--store", store)
    assert result.exit_code == 0, result.output
    assert "Error" not in result.stderr
    assert re.findall(r"results\.csv:(\d+): the game '(\w+)' is no stored game", result.stderr) == [
        ("6", "elsewhere"), ("8", "nowhere")]
    assert "1 game of" in " ".join(result.stdout.split()) and "2 not stored" in result.stdout
    document = json.loads(run("reconcile", "--declared", table, "--store", store, "--format", "json").stdout)
    assert [g["game"] for g in document["games"]] == ["ti4-complete-4p"]
    assert [u.split(": ", 1)[0].rsplit(":", 1)[1] for u in document["unmatched"]] == ["6", "8"]
    strict = run("reconcile", "--declared", table, "--store", store, "--strict")
    assert strict.exit_code == 1 and strict.stdout == result.stdout and strict.stderr == result.stderr
    whole = run("reconcile", "--declared", str(EXAMPLES / "twilight-imperium-4" / "results.csv"), "--store", store,
                "--strict")
    assert whole.exit_code == 0 and whole.stderr == ""  # every game stored: nothing to be strict about


def test_a_row_of_a_player_the_matched_game_lacks_is_still_an_input_error(tmp_path):
    store = str(tmp_path / "s.sqlite")
    assert run("import", TI, "--store", store).exit_code == 0
    lines = (EXAMPLES / "twilight-imperium-4" / "results.csv").read_text(encoding="utf-8").splitlines()
    lines.append("Zed,Arborec,ti4-complete-4p,10,0,3,0")
    table = tmp_path / "bad.csv"
    table.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run("reconcile", "--declared", str(table), "--store", store)
    assert result.exit_code == 2 and re.search(r"bad\.csv:6: .*Zed", result.stderr), result.output
