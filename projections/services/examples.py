"""The example logs shipped with gamelog (the repository's ``examples/``), for the docs' examples and a first try.

``gamelog.examples.path("GAME/FILE.jsonl")`` is the file's path wherever gamelog runs from: a
``pip install`` carries the logs as package data (``gamelog/example_logs/``, pyproject.toml's ``package-data``); a
checkout has them in its ``examples/`` folder. ``examples/README.md`` says what each one shows.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["names", "path"]

_INSTALLED = Path(__file__).resolve().parent / "example_logs"
"""Where a wheel puts them (pyproject.toml maps ``examples/`` to the package ``gamelog.example_logs``)."""

_CHECKOUT = Path(__file__).resolve().parents[2] / "examples"
"""Where they are in the repository (and so in an editable install): projections/services/ is two floors down."""


def _folder() -> Path:
    return _INSTALLED if _INSTALLED.is_dir() else _CHECKOUT


def names() -> list[str]:
    """Every example, as :func:`path` takes it (``GAME/FILE``), sorted."""
    folder = _folder()
    return sorted(str(p.relative_to(folder).as_posix()) for p in folder.glob("*/*") if p.is_file())


def path(name: str) -> Path:
    """The path of the example ``name`` (``GAME/FILE``: a game's folder and a file, as :func:`names` lists them).

    Raises FileNotFoundError naming the examples there are, for a name that is none of them.
    """
    found = _folder() / name
    if name not in names():
        raise FileNotFoundError(f"no example {name!r}; the examples are: {', '.join(names())}")
    return found
