"""Importing gamelog from a given checkout, for benchmarks that measure two checkouts in the same runs.

gamelog installs as one package whose parts live in the repository's top-level folders (pyproject.toml's
``package-dir``), so putting a checkout on ``sys.path`` does not make ``import gamelog`` read it. This finder does:
it maps each package named in that checkout's ``package-dir`` to its folder, ahead of the installed copy.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys
import tomllib
from pathlib import Path


class _CheckoutFinder(importlib.abc.MetaPathFinder):
    """Finds the packages of ``package-dir`` in one checkout; their submodules are then found in their folders."""

    def __init__(self, root: Path, folders: dict[str, str]):
        self.root = root
        self.folders = folders

    def find_spec(self, name: str, path: object = None, target: object = None) -> importlib.machinery.ModuleSpec | None:
        folder = self.folders.get(name)
        if folder is None:
            return None
        where = self.root / folder
        return importlib.util.spec_from_file_location(name, where / "__init__.py", submodule_search_locations=[str(where)])


def import_gamelog_from(root: str | Path) -> None:
    """Make ``import gamelog`` (and its floors) read the checkout at ``root``.

    Raises ``FileNotFoundError`` when ``root`` has no pyproject.toml, and ``KeyError`` when it maps no package
    (a checkout from before gamelog installed as one package: measure it from its own virtual environment).
    """
    root = Path(root).resolve()
    settings = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    sys.meta_path.insert(0, _CheckoutFinder(root, dict(settings["package-dir"])))
