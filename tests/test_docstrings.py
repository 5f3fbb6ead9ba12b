"""Docstrings that name what exists (issue 32, section 8): every module a docstring names as ``domain.x.y`` (or
``projections...``, ``cli...``, ``gamelog...``) is there with that attribute, and a constant's docstring follows the
constant it describes (two in a row: one of them describes nothing)."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

from tests.conftest import ROOT

FOLDERS = ("domain", "projections", "cli")
NAMED = re.compile(r"``((?:gamelog\.)?(?:domain|projections|cli)(?:\.[A-Za-z_]\w*)+)")
"""A dotted name in a docstring's code span (``domain.engine.RuleFinding``)."""


def _modules() -> list[Path]:
    return sorted(p for folder in FOLDERS for p in (ROOT / folder).rglob("*.py") if "__pycache__" not in p.parts)


def _has(obj: object, attribute: str) -> bool:
    """Whether ``obj`` has ``attribute``: as an attribute, or a field it declares (a dataclass's with a factory)."""
    return hasattr(obj, attribute) or attribute in getattr(obj, "__annotations__", {})


def _resolves(name: str) -> bool:
    """Whether the dotted ``name`` is a module of the package, or an attribute (an attribute's...) of one."""
    dotted = name if name.startswith("gamelog.") else f"gamelog.{name}"
    services = "gamelog.projections." + "services."  # the folder a docstring may name: the package's root
    dotted = dotted.replace(services, "gamelog.")
    parts = dotted.split(".")
    for cut in range(len(parts), 1, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            if not _has(found, attribute):
                return False
            found = getattr(found, attribute, None)
        return True
    return False


def test_the_resolver_tells_a_name_that_is_not_there():
    assert _resolves("domain.engine.RuleFinding") and _resolves("gamelog.projections.reports.stylesheet.CSS")
    assert not _resolves("domain.findings") and not _resolves("domain.engine.NoSuchThing")


def test_every_module_a_docstring_names_exists():
    missing = []
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                for name in NAMED.findall(ast.get_docstring(node) or ""):
                    if not _resolves(name):
                        missing.append(f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 1)}: {name}")
    assert missing == []


def test_no_constant_has_two_docstrings():
    found = []
    for path in _modules():
        body = ast.parse(path.read_text(encoding="utf-8")).body
        for before, node in zip(body, body[1:]):
            if all(isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)
                   for n in (before, node)):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []
