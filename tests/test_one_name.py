"""One name for one thing (issue 32, section 8; docs/architecture.md, "One name per thing"): a change of a running
total is a *measure change* in code and documents, never a "track" (but for the table's stored name), and the
figures across games are *statistics* (``stats`` is the command's name)."""

from __future__ import annotations

import ast
import re

from tests.conftest import ROOT
from tests.test_layers import _generic_modules


def test_no_name_in_the_code_calls_a_measure_change_a_track():
    names = set()
    for path in _generic_modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
                names.add(node.name)
            elif isinstance(node, ast.Name):
                names.add(node.id)
    # "tracking" is eventsourcing's word for a projection's position (TrackingRecorder...): another thing.
    assert sorted(n for n in names if re.search(r"track(?!ing|ed)", n, re.IGNORECASE)) == []


def test_the_docs_name_each_once():
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = page.split("## One name per thing", 1)[1].split("\n## ", 1)[0]
    assert "**measure change**" in section and "`view_tracks`" in section
    assert "**Statistics**" in section and "`stats` is only the command's name" in section


def test_prose_calls_the_figures_statistics_not_stats():
    # "stats" as a noun in a message or a docstring (not the command `stats`, a name like stats_formats, or JSON).
    noun = re.compile(r"\b(?:the|of|these|its|game) stats\b", re.IGNORECASE)
    found = [f"{path.relative_to(ROOT)}: {match.group(0)}" for path in _generic_modules()
             for match in noun.finditer(path.read_text(encoding="utf-8"))]
    found += [f"{page.name}: {match.group(0)}" for page in sorted((ROOT / "docs").glob("*.md"))
              for match in noun.finditer(page.read_text(encoding="utf-8"))]
    assert found == []
