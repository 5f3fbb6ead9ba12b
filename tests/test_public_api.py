"""What a program sees of ``import gamelog`` (issue 32, section 5).

The public names are there after a plain ``import gamelog`` and the internals are not attributes of the package;
``stats`` takes an open store; a colour the log does not give is None; ``Game.kind`` is the kind of game
(``Game.name``, its old name, warns); ``read_log`` and ``import_log`` take a text handle; every answer is plain data
through ``to_dict()`` or ``msgspec.to_builtins``; and the Python API page's doctest passes from an empty folder
with gamelog installed from its wheel, as a user's ``pip install .`` installs it.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import warnings
import zipfile

import msgspec
import pytest
from click.testing import CliRunner

import gamelog
from gamelog.cli.main import main
from tests.conftest import EXAMPLES, ROOT

TI = EXAMPLES / "twilight-imperium-4" / "complete-4p.jsonl"
INTERNALS = ("game", "stores", "inputs", "outputs", "progress", "results_table", "superseding")


def _python(code: str, cwd, env: dict[str, str] | None = None) -> str:
    done = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, **(env or {})})
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_plain_import_gives_every_public_name_and_no_internal_module(tmp_path):
    code = f"""
import gamelog
assert dir(gamelog) == sorted(gamelog.__all__), dir(gamelog)
assert callable(gamelog.stats.stats) and callable(gamelog.read_log) and gamelog.Store.__name__ == "Store"
for name in gamelog.__all__:
    getattr(gamelog, name)
game = gamelog.read_log({str(TI)!r})
game.audit()
print(sorted(name for name in {INTERNALS!r} if hasattr(gamelog, name)))
print(dir(gamelog) == sorted(gamelog.__all__))
"""
    assert _python(code, tmp_path).split() == ["[]", "True"]
    with pytest.raises(AttributeError, match="no attribute 'inputs'"):
        gamelog.inputs  # noqa: B018 (the attribute itself is the test)


def test_stats_takes_an_open_store_as_it_takes_its_location(tmp_path):
    location = str(tmp_path / "s.sqlite")
    with gamelog.open_store(location) as store:
        store.import_log(TI)
        store.import_log(EXAMPLES / "twilight-imperium-4" / "disputed.jsonl")
        from_store = gamelog.stats.stats(store)
        explained = gamelog.stats.explain(store, "factions/Federation of Sol/wins")
    assert from_store == gamelog.stats.stats(location)
    assert from_store.games == 2
    assert explained.total == 1 and [line.game for line in explained.lines] == ["ti4-complete-4p"]


def test_a_colour_the_header_does_not_give_is_none_and_absent_from_the_json(tmp_path):
    plain = gamelog.read_log(TI).end()
    assert [plain.players[p].color for p in ("Ann", "Bob")] == [None, None]
    assert "color" not in json.loads(msgspec.json.encode(plain))["players"]["Ann"]
    lines = TI.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["setup"]["colors"] = {"Ann": "Orange"}
    coloured = tmp_path / "coloured.jsonl"
    coloured.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    end = gamelog.read_log(coloured).end()
    assert (end.players["Ann"].color, end.players["Bob"].color) == ("Orange", None)
    printed = json.loads(CliRunner().invoke(main, ["replay", str(coloured), "--format", "json"]).stdout)
    assert printed["players"]["Ann"]["color"] == "Orange" and "color" not in printed["players"]["Bob"]


def test_kind_is_the_kind_of_game_and_name_its_old_name_warns():
    game = gamelog.read_log(EXAMPLES / "uchronia" / "tiebreak-2p.jsonl")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert (game.id, game.kind) == ("uchronia-2p-tiebreak", "uchronia")
        assert repr(game) == "<gamelog.Game 'uchronia-2p-tiebreak' (uchronia, 2 players)>"
    with pytest.warns(DeprecationWarning, match="Game.kind"):
        assert game.name == "uchronia"


def test_a_text_handle_is_read_and_imported_as_the_file_is(tmp_path):
    path = EXAMPLES / "merchant-of-venus" / "seed-examples.jsonl"
    text = path.read_text(encoding="utf-8")
    from_text = gamelog.read_log(io.StringIO(text), name="seed.jsonl")
    assert from_text.end() == gamelog.read_log(path).end()
    bad = '{"type": "game", "game": "uchronia", "id": "x", "players": ["Ann", "Bob"]}\n{"type": "teleported"}\n'
    with pytest.raises(gamelog.LogInvalid) as invalid:
        gamelog.read_log(io.StringIO(bad), name="bad.jsonl")
    assert invalid.value.lines() == ["bad.jsonl:2: unknown event type 'teleported' at $.type"]
    with gamelog.open_store(tmp_path / "s.sqlite") as store, open(path, encoding="utf-8") as handle:
        result = store.import_log(handle)
        assert (result.outcome, result.events) == (gamelog.Outcome.IMPORTED, 61)
        assert store.game("seed-examples").end() == from_text.end()


def test_every_answer_is_plain_data_as_the_json_prints_it():
    game = gamelog.read_log(TI)
    printed = json.loads(CliRunner().invoke(main, ["replay", str(TI), "--format", "json"]).stdout)
    assert game.end().to_dict() == msgspec.to_builtins(game.end()) == printed
    audit = CliRunner().invoke(main, ["audit", str(TI), "--format", "json"])
    assert game.audit().to_dict() == json.loads(audit.stdout)


def test_the_examples_the_docs_use_are_packaged(tmp_path):
    assert gamelog.examples.path("merchant-of-venus/seed-examples.jsonl").read_bytes() == (
        EXAMPLES / "merchant-of-venus" / "seed-examples.jsonl").read_bytes()
    assert "uchronia/tiebreak-2p.jsonl" in gamelog.examples.names()
    with pytest.raises(FileNotFoundError, match="no example 'chess/game.jsonl'; the examples are: merchant-of"):
        gamelog.examples.path("chess/game.jsonl")


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """gamelog installed from its wheel (its dependencies are this environment's) into a folder of its own."""
    from tests.test_packaging import build_wheel

    wheel = build_wheel(tmp_path_factory)
    target = tmp_path_factory.mktemp("site")
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "-q", "--target",
                    str(target), str(wheel)], check=True, capture_output=True)
    return wheel, target


@pytest.mark.slow  # the wheel is built
def test_the_python_api_page_passes_as_a_doctest_from_an_empty_folder_with_gamelog_installed(installed, tmp_path):
    wheel, target = installed
    names = zipfile.ZipFile(wheel).namelist()
    assert "gamelog/example_logs/merchant-of-venus/seed-examples.jsonl" in names
    assert "gamelog/example_logs/twilight-imperium-4/results.csv" in names
    page = ROOT / "docs" / "python-api.md"
    code = f"""
import doctest, gamelog
assert gamelog.__file__.startswith({str(target)!r}), gamelog.__file__
result = doctest.testfile({str(page)!r}, module_relative=False)
print(result.attempted, result.failed)
"""
    attempted, failed = map(int, _python(code, tmp_path, {"PYTHONPATH": str(target)}).split()[-2:])
    assert attempted >= 60 and failed == 0
    assert list(tmp_path.iterdir()) == []  # the examples remove the store they made


@pytest.mark.slow  # the wheel is built
def test_the_readmes_python_example_runs_from_an_empty_folder_with_gamelog_installed(installed, tmp_path):
    _, target = installed
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (example,) = re.findall(r"```python\n(.*?)```", readme, re.DOTALL)
    said = _python(example, tmp_path, {"PYTHONPATH": str(target)})
    assert said.split() == ["1992", "Human"]  # what the example's comment says it prints
    assert list(tmp_path.iterdir()) == []
