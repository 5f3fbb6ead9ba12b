"""gamelog installs as one package, ``gamelog``, whatever the repository's top level looks like.

The repository keeps the top level its users fixed (``domain/``, ``projections/``, ``cli/``); pyproject.toml maps
them into ``gamelog.domain``, ``gamelog.projections`` and ``gamelog.cli``, and the service layer
(``projections/services/``) is the package ``gamelog`` itself. These tests build the wheel a user's ``pip install .``
builds and read what it would put into site-packages.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT

FLOORS = {"gamelog.domain": "domain", "gamelog.projections": "projections", "gamelog.cli": "cli"}
DATA = {"gamelog.example_logs": "examples", "gamelog.docs": "docs"}
"""Packages of data only: the example logs, for ``gamelog.examples.path`` (the docs' examples from a pip install),
and the manual, for ``gamelog help TOPIC`` (``gamelog.manual``)."""


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]


def _package_folders() -> set[str]:
    """Every folder of the three floors that is a package, by the name it installs under."""
    names = {"gamelog", *DATA}
    for package, folder in FLOORS.items():
        for init in sorted((ROOT / folder).rglob("__init__.py")):
            relative = init.parent.relative_to(ROOT / folder)
            if relative.parts[:1] == ("services",) and folder == "projections":
                continue  # the service layer installs as the package `gamelog` itself
            names.add(".".join([package, *relative.parts]))
    return names


def test_every_package_folder_is_listed_in_pyproject_and_nothing_else():
    settings = _pyproject()
    assert set(settings["packages"]) == _package_folders()
    assert settings["package-dir"] == {"gamelog": "projections/services", **FLOORS, **DATA}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    return build_wheel(tmp_path_factory)


def build_wheel(tmp_path_factory) -> Path:
    """The wheel a user's ``pip install .`` builds, in a folder of its own."""
    # Built from a copy: setuptools builds in the source folder and never empties its build/, so a wheel built
    # in place can carry a module the checkout no longer has.
    source = tmp_path_factory.mktemp("source") / "gamelog"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".git", "build", "*.egg-info", "__pycache__",
                                                                "*.sqlite*", ".venv", ".hypothesis"))
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(source)],
                   check=True, capture_output=True)
    (found,) = out.glob("gamelog-*.whl")
    return found


def test_the_wheel_puts_one_package_at_the_top_of_site_packages(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    tops = {name.split("/", 1)[0] for name in names}
    assert {top for top in tops if not top.endswith(".dist-info")} == {"gamelog"}
    assert "gamelog/__init__.py" in names and "gamelog/cli/main.py" in names
    assert "gamelog/domain/data/RULES.source.txt" in names  # and the rules' digest beside it
    assert "gamelog/domain/twilight_imperium/data/ti4_public_objectives.csv" in names
    assert "gamelog/examples.py" in names and "gamelog/example_logs/uchronia/tiebreak-2p.jsonl" in names
    assert "gamelog/manual.py" in names and "gamelog/__main__.py" in names  # gamelog help TOPIC, python -m gamelog
    pages = {f"gamelog/docs/{page.name}" for page in (ROOT / "docs").glob("*.md")}
    assert len(pages) >= 7 and pages <= set(names)  # every page of the manual, and none of docs/'s pictures
    assert not [name for name in names if name.startswith("gamelog/docs/") and not name.endswith(".md")]
    assert not any(name.startswith("gamelog/projections/services/") for name in names)
    entry_points = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("entry_points.txt"))).decode()
    assert "gamelog = gamelog.cli.main:main" in entry_points


def test_import_gamelog_works_from_any_folder(tmp_path):
    done = subprocess.run([sys.executable, "-c", "import gamelog, gamelog.cli.main; print(gamelog.__name__)"],
                          cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "gamelog"


def test_no_module_imports_the_service_layer_by_its_folders_name():
    """``projections/services/`` installs as ``gamelog`` itself: ``gamelog.projections.services`` resolves only in an
    editable install, so a module importing it works here and fails on a user's ``pip install .``."""
    root = Path(__file__).resolve().parents[1]
    wrong = [str(path.relative_to(root)) for folder in ("domain", "projections", "cli", "tests")
             for path in (root / folder).rglob("*.py")
             if path.name != "test_packaging.py"
             and re.search(r"gamelog\.projections\.services\b", path.read_text(encoding="utf-8"))]
    assert wrong == []
