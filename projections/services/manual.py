"""The manual: gamelog's documentation by topic, as ``gamelog help TOPIC`` prints it, wherever gamelog runs from.

Each page of the repository's ``docs/`` is a topic named for its file (``docs/log-format.md`` is ``log-format``).
A ``pip install`` carries the pages as package data (``gamelog/docs/``, pyproject.toml's ``package-data``); a
checkout (and so an editable install) reads them from its ``docs/`` folder. ``docs/`` stays the one source.
"""

from __future__ import annotations

from pathlib import Path

from .errors import BadInput

__all__ = ["TopicNotFound", "help_output", "page", "topics"]

_INSTALLED = Path(__file__).resolve().parent / "docs"
"""Where a wheel puts the pages (pyproject.toml maps ``docs/`` to the package ``gamelog.docs``)."""

_CHECKOUT = Path(__file__).resolve().parents[2] / "docs"
"""Where they are in the repository: projections/services/ is two floors down."""


class TopicNotFound(BadInput):
    """Raised for a topic that is no page of the manual; the text lists the topics there are."""


def _folder() -> Path:
    return _INSTALLED if _INSTALLED.is_dir() else _CHECKOUT


def _title(path: Path) -> str:
    """A page's title: its first ``# `` heading (the topic's name when it has none)."""
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("# "):
                return line[2:].strip()
    return path.stem


def topics() -> dict[str, str]:
    """Every topic, sorted, and its page's title: ``{"cli": "The `gamelog` command", ...}``."""
    return {path.stem: _title(path) for path in sorted(_folder().glob("*.md"))}


def page(topic: str) -> str:
    """The page of ``topic`` (one of :func:`topics`), as written: Markdown, which reads as plain text.

    Raises :class:`TopicNotFound` naming the topics there are, for any other name.
    """
    if topic not in topics():
        raise TopicNotFound(f"no help topic {topic!r}; the topics are: {', '.join(topics())}")
    return (_folder() / f"{topic}.md").read_text(encoding="utf-8")


def help_output(topic: str | None = None) -> str:
    """``gamelog help``: the page of ``topic``, or with none the topics and their titles. Raises as :func:`page`."""
    if topic is not None:
        return page(topic)
    listed = topics()
    width = max(map(len, listed))
    return "\n".join(["The manual's topics (gamelog help TOPIC):",
                      *(f"  {name:<{width}}  {title}" for name, title in listed.items())])
