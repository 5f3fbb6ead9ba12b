"""The command line as shells and their users expect it (issue 23 item 5): formats in any case, stdin as ``-``,
capped input errors, NO_COLOR and --color, examples in every help, and a file that is not a store said so."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from gamelog.cli import terminal
from gamelog.cli.main import main
from tests.conftest import EXAMPLES

UCHRONIA = str(EXAMPLES / "uchronia" / "complete-3p.jsonl")


def invoke(*args: str, input: bytes | None = None, env: dict[str, str] | None = None):
    return CliRunner().invoke(main, list(args), input=input, env={"COLUMNS": "80", **(env or {})})


@pytest.mark.parametrize("args, starts", [
    (["report", UCHRONIA, "--format", "HTML"], "<!DOCTYPE html>"),
    (["report", UCHRONIA, "--format", "Json"], "{"),
    (["report", UCHRONIA, "--format", "MARKDOWN"], "# uchronia"),
    (["audit", UCHRONIA, "--format", "JSON"], "{"),
    (["replay", UCHRONIA, "--format", "Json"], "{"),
    (["validate", UCHRONIA, "--format", "JSON"], "{"),
    (["report", UCHRONIA, "--by", "ROUND", "--format", "text"], None),
    (["schema", "Report"], "{"),
])
def test_formats_and_choices_are_taken_in_any_case(args, starts):
    result = invoke(*args)
    if starts is None:  # uchronia has no rounds: the choice was taken, the service refused it
        assert result.exit_code == 2 and "not played in rounds" in result.stderr
        return
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(starts)


BOLD = "\x1b[1m"


@pytest.mark.parametrize("group, env, tty, bold", [
    ([], {}, True, True),  # auto on a terminal: bold
    ([], {}, False, False),  # auto, piped: plain
    ([], {"NO_COLOR": "1"}, True, False),  # https://no-color.org: any non-empty value
    ([], {"NO_COLOR": ""}, True, True),  # empty: as if unset
    (["--color", "never"], {}, True, False),
    (["--color", "always"], {}, False, True),  # even piped
    (["--color", "ALWAYS"], {"NO_COLOR": "1"}, False, True),  # asked for outright: the option wins
    (["--color", "auto"], {"NO_COLOR": "yes"}, True, False),
])
def test_no_color_and_the_color_option(monkeypatch, group, env, tty, bold):
    monkeypatch.setattr(terminal, "_stdout_is_terminal", lambda: tty)
    result = CliRunner().invoke(main, [*group, "report", UCHRONIA], env={"COLUMNS": "80", **env},
                                color=tty)  # the runner's stdout as a terminal: click keeps what was styled
    assert result.exit_code == 0, result.output
    assert (BOLD in result.stdout) is bold


def test_a_report_written_to_a_file_is_never_styled(tmp_path):
    target = tmp_path / "r.txt"
    assert invoke("--color", "always", "report", UCHRONIA, "-o", str(target)).exit_code == 0
    assert "\x1b" not in target.read_text()


@pytest.fixture
def foreign_database(tmp_path):
    import sqlite3
    from contextlib import closing

    path = tmp_path / "other.db"
    with closing(sqlite3.connect(path)) as db:
        db.execute("CREATE TABLE notes (text)")
        db.commit()
    return str(path)


@pytest.mark.parametrize("command", [["games"], ["replay", "some-game"], ["report", "some-game"], ["audit", "some-game"],
                                     ["verify", "some-game"], ["projections", "status"], ["import", UCHRONIA]])
@pytest.mark.parametrize("what", ["README", "folder", "foreign database"])
def test_a_file_that_is_not_a_store_exits_2_saying_so(command, what, foreign_database, tmp_path):
    location = {"README": str(EXAMPLES.parent / "README.md"), "folder": str(tmp_path),
                "foreign database": foreign_database}[what]
    before = open(location, "rb").read() if what != "folder" else None
    result = invoke("--store", location, *command)
    assert result.exit_code == 2, result.output
    assert "is not a gamelog store" in result.stderr or "not a gamelog store" in result.stderr
    assert "damaged" not in result.stderr and len(result.stderr.splitlines()) == 1
    if before is not None:
        assert open(location, "rb").read() == before  # not turned into a store


LOG = open(UCHRONIA, "rb").read()


@pytest.mark.parametrize("args, expect", [
    (["validate", "-"], "<stdin>: no findings"),
    (["validate", "-", "-"], "<stdin>: no findings\n<stdin>: no findings"),  # read once, the same bytes twice
    (["replay", "-"], "uchronia 'uchronia-3p-demo' after line 121"),
    (["report", "-"], "uchronia 'uchronia-3p-demo': Ann, Bob, Cy"),
    (["audit", "-"], "audit of uchronia 'uchronia-3p-demo'"),
    (["verify", "-"], "<stdin>: game 'uchronia-3p-demo'"),
    (["import", "-"], "<stdin>: imported "),
])
def test_a_dash_reads_the_log_from_stdin(args, expect, tmp_path):
    result = invoke("--store", str(tmp_path / "s.sqlite"), *args, input=LOG)
    assert result.exit_code == 0, result.output
    assert expect in result.output


def test_a_dash_names_stdin_in_input_errors(tmp_path):
    result = invoke("validate", "-", input=LOG[:300])
    assert result.exit_code == 2
    assert result.stderr.startswith("<stdin>:") and "<stdin>: 1 input error" in result.stdout


def test_an_export_from_stdin_is_imported(tmp_path):
    export = (EXAMPLES.parent / "tests" / "fixtures" / "ti-assistant" / "small-game.json").read_bytes()
    result = invoke("--store", str(tmp_path / "s.sqlite"), "import", "--from", "ti-assistant", "-", input=export)
    assert result.exit_code == 0, result.output
    assert "<stdin>: converted" in result.stderr


@pytest.fixture
def fifty_errors(tmp_path):
    import json

    path = tmp_path / "bad.jsonl"
    header = {"type": "game", "game": "uchronia", "id": "x", "players": ["Ann", "Bob"]}
    path.write_text("\n".join([json.dumps(header)] + [json.dumps({"type": "bogus"})] * 50) + "\n")
    return str(path)


@pytest.mark.parametrize("command, flag, shown", [
    (["validate"], [], 20), (["validate"], ["--max-errors", "5"], 5), (["validate"], ["--max-errors", "0"], 50),
    (["import"], [], 20), (["import"], ["--max-errors", "1"], 1), (["import"], ["--max-errors", "0"], 50),
    (["replay"], [], 20), (["report"], [], 20), (["audit"], [], 20), (["verify"], [], 20),
])
def test_input_errors_are_capped(command, flag, shown, fifty_errors, tmp_path):
    result = invoke("--store", str(tmp_path / "s.sqlite"), *command, *flag, fifty_errors)
    assert result.exit_code == 2, result.output
    errors = [line for line in result.stderr.splitlines() if "unknown event type 'bogus'" in line]
    assert len(errors) == shown
    more = [line for line in result.stderr.splitlines() if line.startswith("... and ")]
    assert more == ([] if shown == 50 else [f"... and {50 - shown} more input error{'s' if 50 - shown > 1 else ''} "
                                            "(--max-errors 0 shows all)"])


TI_EXPORT = str(EXAMPLES.parent / "tests" / "fixtures" / "ti-assistant" / "small-game.json")


@pytest.mark.parametrize("command", [["validate"], ["import"], ["replay"], ["report"], ["audit"], ["verify"]])
@pytest.mark.parametrize("path, says", [
    (str(EXAMPLES.parent / "README.md"), "not a gamelog log: its first line is not a JSON object"),
    (str(EXAMPLES.parent / "docs" / "cli.md"), "not a gamelog log: its first line is not a JSON object"),
    (TI_EXPORT, "looks like a ti-assistant export: give --from ti-assistant"),
])
def test_a_file_that_is_not_a_log_says_so_in_one_line(command, path, says, tmp_path):
    result = invoke("--store", str(tmp_path / "s.sqlite"), *command, path)
    assert result.exit_code == 2, result.output
    errors = [line for line in result.stderr.splitlines() if ":" in line and "nothing stored" not in line]
    assert len(errors) == 1 and says in errors[0], result.stderr


@pytest.mark.parametrize("version, errors", [(None, []), (1, []), (2, ["log format version 2: this gamelog reads "
                                                                       "version 1; upgrade gamelog"])])
def test_the_log_header_may_give_its_format_version(version, errors):
    from gamelog.domain.reader import LogReader
    import json

    header = {"type": "game", "game": "uchronia", "id": "v", "players": ["Ann", "Bob"]}
    if version is not None:
        header["version"] = version
    lines = [json.dumps(header), json.dumps({"type": "turn_started", "player": "Ann"}), '{"type": "bogus"}']
    reader = LogReader(("\n".join(lines[:2 if version != 2 else 3]) + "\n").encode())
    list(reader.events())
    assert [e.message for e in reader.errors] == errors  # a later version: one error, its lines not read


def test_format_version_1_leaves_the_fingerprint_unchanged(tmp_path):
    plain = b'{"type": "game", "game": "uchronia", "id": "v", "players": ["Ann", "Bob"]}\n'
    versioned = plain.replace(b"]}", b'], "version": 1}')
    fingerprints = {invoke("verify", "-", input=log).stdout.split("fingerprint ")[1] for log in (plain, versioned)}
    assert len(fingerprints) == 1


def _commands(group, prefix=()):
    for name, command in group.commands.items():
        yield (*prefix, name)
        if hasattr(command, "commands"):
            yield from _commands(command, (*prefix, name))


@pytest.mark.parametrize("command", [(), *_commands(main)], ids=lambda c: " ".join(c) or "gamelog")
def test_every_commands_help_has_examples(command):
    out = invoke(*command, "--help").stdout
    examples = out.split("Examples:\n\n", 1)[1].split("\n\n")[0].splitlines()
    assert examples and all(line.startswith("    ") and "gamelog " in line for line in examples), out  # as lines (\b)


def test_an_export_on_one_line_is_told_what_it_looks_like_too(tmp_path):
    """A real TI Assistant export is one JSON object on one line: its first line is an object but no header."""
    import json

    one_line = tmp_path / "export.json"
    one_line.write_text(json.dumps(json.loads(open(TI_EXPORT, encoding="utf-8").read())), encoding="utf-8")
    result = invoke("--store", str(tmp_path / "s.sqlite"), "import", str(one_line))
    assert result.exit_code == 2
    assert (f'{one_line}:1: the first object must be the game header, "type": "game"; it looks like a ti-assistant '
            "export: give --from ti-assistant at $.type") in result.stderr
