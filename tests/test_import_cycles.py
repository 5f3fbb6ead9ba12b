"""No module of the generic code is in an import circle (issue 32, section 8): a constant two renderers share (the
HTML pages' stylesheet) lives below both, not in one that imports the other inside a function to dodge the circle."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import ROOT
from tests.test_layers import FOLDERS, _generic_modules


def _module_names() -> dict[str, Path]:
    """Every module of the package by its dotted name (a package by its own: ``gamelog.projections.reports``)."""
    names = {}
    for folder, package in FOLDERS.items():
        for path in (ROOT / folder).rglob("*.py"):
            parts = list(path.relative_to(ROOT / folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            names[".".join([package, *parts])] = path
    return names


def _imported(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The package's modules that ``path`` imports anywhere in it (at its top or inside a function), but for a type
    checker's."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    # What only a type checker reads (``if TYPE_CHECKING:``) runs no import: no circle at run time.
    checked_only = {id(n) for block in ast.walk(tree) if isinstance(block, ast.If)
                    and ast.unparse(block.test) == "TYPE_CHECKING" for n in ast.walk(block)}
    found = set()
    for node in ast.walk(tree):
        if id(node) in checked_only:
            continue
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([package.rsplit(".", node.level - 1)[0], *([base] if base else [])])
            found |= {base, *(f"{base}.{alias.name}" for alias in node.names)}
    return {module for module in found if module in known and module != name}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    circles.append(sorted(component))
    return circles


def test_the_finder_finds_a_circle():
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": set()}) == []


def test_no_module_of_the_generic_code_is_in_an_import_circle():
    known = _module_names()
    graph = {name: _imported(name, path, known) for name, path in known.items()}
    generic = {path.resolve() for path in _generic_modules()}
    circles = [c for c in _circles(graph) if any(known[m].resolve() in generic for m in c)]
    assert circles == []


def test_the_stylesheet_lives_below_the_renderers_that_inline_it():
    known = _module_names()
    for renderer in ("gamelog.projections.reports.html", "gamelog.projections.reports.reconcile_formats"):
        assert "gamelog.projections.reports.stylesheet" in _imported(renderer, known[renderer], known)
    stylesheet = "gamelog.projections.reports.stylesheet"
    assert _imported(stylesheet, known[stylesheet], known) == set()
