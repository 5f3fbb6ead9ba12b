"""Text for people: it fits the terminal, reads as English, and no log can write to the reader's screen.

Issue 15 item 3 (width, sentences, counts, the progress bar) and issue 14
items 15-17 (CSV formulas, terminal escapes, Markdown injection).
"""

from __future__ import annotations

import csv
import json
import re
import io
import sys

import click
import pytest
from click.testing import CliRunner

from gamelog.cli import terminal
from gamelog.cli.main import main
from gamelog.projections.reports.safe import clean, csv_cell, markdown
from gamelog.projections.reports.terminal import table, wrap
from tests.conftest import EXAMPLES, log_bytes

EXAMPLE_LOGS = sorted(EXAMPLES.glob("*/*.jsonl"))
ESCAPE = "\x1b[2J"


def run(*args: str, columns: int = 80, code: int | None = None) -> str:
    result = CliRunner().invoke(main, list(args), env={"COLUMNS": str(columns)}, catch_exceptions=False)
    if code is not None:
        assert result.exit_code == code, result.output
    return result.stdout


def too_wide(text: str, columns: int) -> list[str]:
    return [line for line in text.splitlines() if len(line) > columns]


@pytest.mark.parametrize("path", EXAMPLE_LOGS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_text_of_every_example_fits_80_columns(path):
    for command in (["report"], ["replay"], ["audit"], ["audit", "--player"]):
        args = [*command, str(path)]
        if command[-1] == "--player":
            args = ["audit", str(path), "--player", first_player(path)]
        out = run(*args)
        assert out.strip() and too_wide(out, 80) == [], args


@pytest.mark.parametrize("columns", [40, 60, 120])
def test_the_report_follows_the_terminal_width(columns):
    out = run("report", str(EXAMPLES / "twilight-imperium-4" / "disputed.jsonl"), columns=columns)
    assert too_wide(out, columns) == []
    # The longest finding's text is all there, only folded: nothing is cut.
    assert ("! violation LRR 90.6: the Trade secondary follows a Trade primary in the same strategic action; "
            "none was used") in " ".join(out.split())


def first_player(path) -> str:
    import json

    return json.loads(next(line for line in path.read_text().splitlines() if line.startswith("{")))["players"][0]


def test_a_wrapped_line_hangs_under_its_text():
    assert wrap("Ann credits +8 = 188  [MOV-COMMISSION] commission on Bob's purchase of 1 Bionic Perfume (c80)",
                80, 9, 11) == [
        "         Ann credits +8 = 188  [MOV-COMMISSION] commission on Bob's purchase of",
        "           1 Bionic Perfume (c80)"]
    # A word longer than the line is broken rather than overflowing.
    assert wrap("x" * 100, 40) == ["x" * 40, "x" * 40, "x" * 20]


def test_a_table_too_wide_continues_in_a_second_block_repeating_its_first_column():
    rows = [["faction", "The Emirates of Hacan", "Federation of Sol", "Barony of Letnev"], ["VP", "7", "10", "6"]]
    assert table(["", "Ann", "Bob", "Dee"], rows, 60) == [
        "           Ann                    Bob",
        "  faction  The Emirates of Hacan  Federation of Sol",
        "  VP       7                      10",
        "",
        "           Dee",
        "  faction  Barony of Letnev",
        "  VP       6"]


def test_replay_reads_as_sentences_and_tables_not_raw_keys():
    out = run("replay", str(EXAMPLES / "uchronia" / "complete-3p.jsonl"))
    lines = out.splitlines()
    assert lines[0] == "uchronia 'uchronia-3p-demo' after line 121 (turn 15)"
    assert lines[1] == "Finished at line 119: Bob won (UCH-WINNER: most VP: Bob 18 (then Ann 15, Cy 5);"
    assert lines[2].startswith("  Ann reached the 18 VP threshold at line 104")
    assert "                    Ann  Bob  Cy" in lines and "  VP                 15   18   5" in lines
    # The state in the game's own words (its STATE phrases), not "name Insula, color wood, vp 1, line 18".
    assert "  Ann, buildings: Insula (wood, 1 VP, line 18), Horreum (brick, 2 VP, line 31)," in lines
    assert "name Insula" not in out and "operations_limit" not in out
    ti4 = run("replay", str(EXAMPLES / "twilight-imperium-4" / "complete-4p.jsonl"), "--round", "3")
    assert ti4.startswith("twilight-imperium-4 'ti4-complete-4p' after line 153 (round 3, turn 8 of the\nround)")
    # Ann's faction as every output names it ("Emirates of Hacan": the header's "The Emirates of Hacan").
    assert "  home system  controlled         controlled         controlled" in ti4.splitlines()
    assert "True" not in ti4 and "Initiative order: Cy, Ann, Bob, Dee" in ti4.splitlines()
    assert "  Ann, VP: 4 (stage I 3, secrets 1)" in ti4.splitlines()
    mov = run("replay", str(EXAMPLES / "merchant-of-venus" / "seed-examples.jsonl"))
    assert "  Human, where: the merchant spaceport of YXKLYX (owned by Human)" in mov.splitlines()


def test_replay_says_not_recorded_for_what_the_logs_source_does_not_record(tmp_path):
    export = EXAMPLES / "twilight-imperium-4" / "ti-assistant-small.json"
    log = tmp_path / "small.jsonl"
    log.write_text(run("convert", "--from", "ti-assistant", str(export)), encoding="utf-8")
    out = run("replay", str(log))
    # The header says trade goods and command tokens are not recorded: no number stands for them.
    for what in ("trade goods", "command tokens"):
        rows = [line for line in out.splitlines() if line.startswith(f"  {what} ")]
        assert rows and all(line.split(what, 1)[1].split() == ["not", "recorded"] * (len(line.split()) // 2 - 1)
                            for line in rows), rows


def test_counts_read_as_english():
    disputed = str(EXAMPLES / "twilight-imperium-4" / "disputed.jsonl")
    assert run("validate", disputed).splitlines()[-1] == f"{disputed}: 21 violations, 2 unverifiable"
    assert "Findings: 21 violations, 2 unverifiable" in run("report", disputed)
    assert run("audit", disputed).startswith(
        "audit of twilight-imperium-4 'ti4-disputed' (fingerprint e77706e8b0a0cfd4): 21\n  violations, 2 unverifiable\n")
    seed = str(EXAMPLES / "merchant-of-venus" / "seed-examples.jsonl")
    assert run("validate", seed).splitlines()[-1] == f"{seed}: no findings"
    what_if = run("audit", str(EXAMPLES / "twilight-imperium-4" / "complete-4p.jsonl"), "--without", "281")
    assert "  VP after round 6: Ann 7, Bob 10, Cy 6, Dee 6  ->  Ann 7, Bob 8, Cy 6, Dee 6" in what_if.splitlines()
    assert "Findings: none" in run("report", str(EXAMPLES / "uchronia" / "complete-3p.jsonl"))


# -- the progress bar -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("columns", range(1, 130))
def test_the_progress_bar_line_never_reaches_the_terminals_last_column(columns):
    label = "importing /a/very/long/folder/name/that/goes/on/and/on/tournament-2024-final-table.jsonl"
    fitted = terminal.fit(label, columns)
    if columns < 12:
        assert fitted is None
        return
    shown, bar = fitted
    line = terminal.BAR_TEMPLATE % {"label": shown, "bar": "#" * bar, "info": "100%"}
    assert len(line) <= columns - 1 and bar >= 1
    if columns >= 60:
        assert shown.endswith("final-table.jsonl") and bar >= 10


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("columns", [20, 50, 200])
def test_the_progress_bar_goes_to_stderr_fits_and_ends_at_100_percent(monkeypatch, columns):
    err = _Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr(terminal, "_stderr_columns", lambda: columns)
    with terminal.progress(1000, "importing examples/merchant-of-venus/seed-examples.jsonl") as to:
        assert to is not None
        for position in (10, 500, 997):  # the work reports its last line short of the end
            to(position)
    shown = err.getvalue().replace("\x1b[?25l", "").replace("\x1b[?25h", "")  # click hides the cursor meanwhile
    frames = [frame.rstrip() for frame in shown.replace("\n", "\r").split("\r") if frame.strip()]
    assert frames and all(len(frame) <= columns - 1 for frame in frames)
    assert frames[-1].endswith("100%") and not any(frame.endswith("100%") for frame in frames[:-1])


def test_no_progress_bar_when_stderr_is_not_a_terminal(monkeypatch):
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    with terminal.progress(10, "importing x") as to:
        assert to is None
    assert sys.stderr.getvalue() == ""


# -- user text: escapes, Markdown, CSV formulas -----------------------------------------------------------------


HOSTILE_NOTE = f"{ESCAPE}cleared | <script>alert(1)</script>\nsecond line *bold* [x](http://e)\u202etxt.exe"


@pytest.fixture
def hostile(tmp_path):
    path = tmp_path / "hostile.jsonl"
    path.write_bytes(log_bytes(
        {"game": "uchronia", "id": "hostile", "players": ["=1+2", "@Bob"]},
        {"type": "turn_started", "player": "=1+2"},
        {"type": "note", "player": "=1+2", "text": HOSTILE_NOTE},
        {"type": "turn_ended", "player": "=1+2"}))
    return str(path)


def test_safe_helpers():
    assert clean(f"a{ESCAPE}b\x07c\x9bd\nnext\ttab\u202eend") == "a[2Jbcd next tabend"
    assert clean("Égée, Ænima: plain text stays") == "Égée, Ænima: plain text stays"
    assert markdown("a | b <script> *x* `y` [l](u) _z_ & ~s~\nz") == (
        "a \\| b \\<script\\> \\*x\\* \\`y\\` \\[l\\](u) \\_z\\_ \\& \\~s\\~ z")
    assert [csv_cell(v) for v in ("=SUM(A1)", "+1", "-1", "@x", "\tx", "\rx", "Ann", -1, 0)] == [
        "'=SUM(A1)", "'+1", "'-1", "'@x", "'\tx", "'\rx", "Ann", -1, 0]


@pytest.mark.parametrize("command", [["report"], ["replay"], ["audit"], ["validate"]])
def test_no_control_character_from_a_log_reaches_the_terminal(hostile, command):
    out = run(*command, hostile)
    assert "\x1b" not in out and "\u202e" not in out
    assert all(c == "\n" or c.isprintable() for c in out)


def test_the_report_written_to_a_file_holds_no_escape(hostile, tmp_path):
    for fmt in ("text", "markdown"):
        target = tmp_path / f"report.{fmt}"
        run("report", hostile, "--format", fmt, "-o", str(target), code=0)
        written = target.read_text(encoding="utf-8")
        assert "\x1b" not in written and "cleared" in written


def test_markdown_escapes_user_text_in_tables(hostile):
    md = run("report", hostile, "--format", "markdown")
    (row,) = [line for line in md.splitlines() if line.startswith("| 3 |")]
    assert row == ("| 3 | =1+2 | note: \\[2Jcleared \\| \\<script\\>alert(1)\\</script\\> second line \\*bold\\* "
                   "\\[x\\](http://e)txt.exe |  |  |")
    # Five cells: every | of the note is escaped, and its newline did not end the row.
    assert row.replace("\\|", "").count("|") == 6
    assert "<script>" not in md


def test_csv_neutralises_formulas_in_user_text(hostile):
    rows = list(csv.reader(io.StringIO(run("report", hostile, "--format", "csv"))))
    assert [r[5] for r in rows[1:]] == ["'=1+2", "'@Bob"]
    assert rows[1][:5] == ["uchronia", "hostile", "1", "2", "4"]


def test_validate_and_games_show_hostile_names_without_their_escapes(tmp_path, monkeypatch):
    log = tmp_path / "names.jsonl"
    log.write_bytes(log_bytes(
        {"game": "merchant-of-venus", "id": "names", "players": [f"Ann{ESCAPE}", "Bob"]},
        {"type": "turn_started", "player": "Bob"}))  # out of turn: a finding that names the player
    runner = CliRunner()
    monkeypatch.chdir(tmp_path)  # the default store is made here
    out = runner.invoke(main, ["validate", str(log)]).stdout
    assert "\x1b" not in out and "Ann\\x1b[2J" in out  # a finding quotes it escaped, as the reader does
    runner.invoke(main, ["import", str(log)])
    listing = runner.invoke(main, ["games"]).stdout
    assert "\x1b" not in listing and "Ann[2J, Bob" in listing


# -- every command's text at 80 columns (issue 23 item 5) -------------------------------------------------------


def test_every_commands_text_fits_80_columns_for_every_example(tmp_path, monkeypatch):
    monkeypatch.chdir(EXAMPLES.parent)  # the examples named as a user in the repository names them
    store = str(tmp_path / "s.sqlite")
    outputs = []
    for path in (p.relative_to(EXAMPLES.parent) for p in EXAMPLE_LOGS):
        for args in (["validate", str(path)], ["import", "--store", store, str(path)],
                     ["verify", str(path)],
                     ["report", str(path), "--format", "markdown"]):
            result = CliRunner().invoke(main, args, env={"COLUMNS": "80"})
            outputs.append((args, result.stdout + result.stderr))
    for args in (["games", "--store", store], ["projections", "status", "--store", store],
                 ["projections", "rebuild", "--store", store], ["verify", "ti4-complete-4p", "--store", store],
                 ["replay", "ti4-complete-4p", "--store", store], ["--help"],
                 ["audit", "ti4-complete-4p", "--without", "281", "--store", store],
                 ["reconcile", "ti4-complete-4p", "--declared", "examples/twilight-imperium-4/results.csv", "--store", store],
                 ["reconcile", "--declared", "examples/twilight-imperium-4/results.csv", "--store", store],
                 *([name, "--help"] for name in main.list_commands(click.Context(main)))):
        result = CliRunner().invoke(main, args, env={"COLUMNS": "80"})
        outputs.append((args, result.stdout + result.stderr))
    for args, out in outputs:
        if args[-1:] == ["markdown"]:
            continue  # Markdown tables are one row a line: a forge renders them, not a terminal
        # A line about a file (FILE: ..., FILE:LINE: ...) stays one line whatever its length, as a compiler's
        # diagnostics do: editors and grep read it.
        wide = [line for line in too_wide(out, 80) if not re.match(r"^(Error: )?\S+\.jsonl(:\d+)?: ", line)]
        assert out.strip() and wide == [], (args, wide)


def test_the_games_table_becomes_one_block_a_game_when_too_wide(tmp_path):
    store = str(tmp_path / "s.sqlite")
    for path in EXAMPLE_LOGS:
        CliRunner().invoke(main, ["import", "--store", store, str(path)])
    wide = CliRunner().invoke(main, ["games", "--store", store], env={"COLUMNS": "400"}).stdout
    assert wide.splitlines()[0].split() == ["id", "game", "date", "players", "log", "lines", "last", "line",
                                            "finished", "winner", "fingerprint"]
    narrow = CliRunner().invoke(main, ["games", "--store", store], env={"COLUMNS": "80"}).stdout
    assert too_wide(narrow, 80) == [] and "  log lines: 61" in narrow.splitlines()
    # --format table: the table whatever the width (for less -S, or a file), one line a game.
    table = CliRunner().invoke(main, ["games", "--store", store, "--format", "table"], env={"COLUMNS": "80"}).stdout
    assert table.splitlines()[0] == wide.splitlines()[0] and len(table.splitlines()) == len(EXAMPLE_LOGS) + 1


# --- issue 25 item 9: verify's text and the CSV report clean control characters too ---

CONTROLS = ("\x1b", "\x07", "\u202e", "\x00")


@pytest.fixture
def escaping_id(tmp_path):
    path = tmp_path / "escaping.jsonl"
    path.write_bytes(log_bytes(
        {"game": "uchronia", "id": f"g{ESCAPE}\x1b]0;owned\x07", "players": ["Ann", "Bob"]},
        {"type": "turn_started", "player": "Ann"},
        {"type": "note", "player": "Ann", "text": "bell\x07 nul\x00 esc\x1b[2J rtl\u202etxt.exe"},
        {"type": "turn_ended", "player": "Ann"}))
    return str(path)


def test_verify_text_holds_no_control_character(escaping_id, tmp_path):
    store = str(tmp_path / "s.sqlite")
    run("import", "--store", store, escaping_id, code=0)
    game = f"g{ESCAPE}\x1b]0;owned\x07"
    outputs = [run("verify", game, "--store", store, code=0),
               run("verify", game, "--fingerprint", "00", "--store", store, code=3),
               run("verify", escaping_id, "--fingerprint", "00", code=3),
               run("verify", escaping_id, "--against", game, "--store", store, code=0)]
    for out in outputs:
        assert not any(c in out for c in CONTROLS), repr(out)
        assert "owned" in out or "matches" in out


def test_the_csv_report_holds_no_control_character(escaping_id):
    out = run("report", escaping_id, "--format", "csv", code=0)
    assert not any(c in out for c in CONTROLS), repr(out)
    assert "g[2J]0;owned," in out


def test_wrapping_a_long_word_copies_a_bounded_piece_a_line_and_gives_textwraps_lines(monkeypatch):
    # Issue 23: a megabyte of control characters (each quoted as \x01) made the text audit take 24 s, textwrap
    # copying the rest of a long word once a line. Counted, not timed: every long word the wrapper breaks is a
    # piece of a few lines' width, whatever the word's length.
    import textwrap

    from gamelog.projections.reports.terminal import PIECE

    seen: list[int] = []
    original = textwrap.TextWrapper._handle_long_word

    def counted(self, chunks, line, length, width):
        seen.append(len(chunks[-1]))
        return original(self, chunks, line, length, width)

    monkeypatch.setattr(textwrap.TextWrapper, "_handle_long_word", counted)
    word = "".join(chr(ord("a") + i % 26) for i in range(200_003))
    for text in (word, f"pays c5 for {word} and {word[:500]} then more words"):
        seen.clear()
        lines = wrap(text, 80, "line 3: ")
        # A call a line, each on a piece shorter than 2 * PIECE lines (textwrap alone: the whole rest of the word).
        assert len(seen) >= 200_003 // 72 and max(seen) < 2 * PIECE * 80 == 640
        assert lines == textwrap.wrap(text, width=80, initial_indent="line 3: ", subsequent_indent=" " * 8,
                                      break_on_hyphens=False)


def test_a_prefix_wider_than_the_width_still_ends():
    # textwrap alone never returns when the prefix leaves no room (it takes an empty rest for ever).
    assert wrap("ab cd", 40, "y" * 50) == ["y" * 50 + "a", " " * 50 + "b", " " * 50 + "c", " " * 50 + "d"]


def test_the_text_audit_of_a_megabyte_of_control_characters_shows_them_all_quoted(tmp_path):
    header = {"game": "merchant-of-venus", "id": "ctl", "players": ["Ann", "Bob"]}
    log = tmp_path / "ctl.jsonl"
    paid = {"type": "credits_paid", "player": "Ann", "amount": 5, "to": "bank", "reason": "\x01" * 1_000_000}
    log.write_bytes(log_bytes(header, '{"type": "turn_started", "player": "Ann"}', json.dumps(paid)))
    out = run("audit", str(log), code=1)
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 80 and "\x01" not in out
    # The violation's message quotes the reason whole, 4 characters a control character, wrapped under its text.
    message = "".join(line.strip() for line in lines if line.startswith(("line 3:", "    ")))
    assert message.count("\\x01") == 1_000_000
