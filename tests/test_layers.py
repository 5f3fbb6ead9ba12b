"""The floors' imports run one way: cli -> services (the package ``gamelog``) -> reports -> views -> store -> domain.

``cli/`` parses, calls one service and prints: no command imports another
command's module, and nothing in it speaks to a database library. The
services print nothing and know nothing of click, so Python programs use them
as they are.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import ROOT

FLOORS = {
    "gamelog.domain": 0,
    "gamelog.projections.store": 1,
    "gamelog.projections.importing": 2,
    "gamelog.projections.views": 2,
    "gamelog.projections.reports": 3,
    "gamelog": 4,  # the services: projections/services/
    "gamelog.cli": 5,
}
FOLDERS = {"domain": "gamelog.domain", "projections/store": "gamelog.projections.store",
           "projections/importing": "gamelog.projections.importing", "projections/views": "gamelog.projections.views",
           "projections/reports": "gamelog.projections.reports", "projections/services": "gamelog", "cli": "gamelog.cli"}
LIBRARIES = ("eventsourcing", "sqlite3", "psycopg", "psycopg_pool")


ENTRY_POINTS = {ROOT / "projections" / "services" / "__main__.py"}
"""``python -m gamelog``: the command's second door, which imports ``cli/`` from the package; no floor of its own."""


def _modules(folder: str) -> list[Path]:
    return sorted(p for p in (ROOT / folder).rglob("*.py") if "__pycache__" not in p.parts and p not in ENTRY_POINTS)


def _imports(path: Path) -> list[str]:
    """Every module ``path`` imports (absolute; a relative import of the services named under ``gamelog``)."""
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = f"gamelog.{base}" if base else "gamelog"
            names += [base] + [f"{base}.{alias.name}" for alias in node.names]
    return names


def _floor(module: str) -> int | None:
    """The floor of a gamelog module (the longest package it is in), None for another library's."""
    if module != "gamelog" and not module.startswith("gamelog."):
        return None
    for package in sorted(FLOORS, key=len, reverse=True):
        if module == package or module.startswith(package + "."):
            return FLOORS[package]
    return None


@pytest.mark.parametrize("folder", sorted(FOLDERS))
def test_no_import_runs_back_up_a_floor(folder):
    mine = FLOORS[FOLDERS[folder]]
    upward = [f"{path.relative_to(ROOT)}: {name}" for path in _modules(folder) for name in _imports(path)
              if (_floor(name) or 0) > mine]
    assert upward == []


def _command_modules() -> set[str]:
    """The cli modules that define a command (``main`` assembles them)."""
    return {p.stem for p in _modules("cli") if p.stem != "main"
            and ("@click.command" in p.read_text(encoding="utf-8") or "@click.group" in p.read_text(encoding="utf-8"))}


def test_no_command_imports_another_commands_module_nor_a_database_library():
    commands = _command_modules()
    assert {"report", "audit", "importing", "convert", "verify"} <= commands
    assert not commands & {"errors", "options", "output", "terminal"}
    found = []
    for path in _modules("cli"):
        for name in _imports(path):
            if name.split(".")[0] in LIBRARIES:
                found.append(f"{path.relative_to(ROOT)} imports {name}")
            command = name.removeprefix("gamelog.cli.").split(".")[0] if name.startswith("gamelog.cli.") else None
            if command in commands and path.stem != "main" and command != path.stem:
                found.append(f"{path.relative_to(ROOT)} imports the command module {name}")
    assert found == []


def test_the_services_know_nothing_of_click_and_print_nothing():
    for path in _modules("projections/services"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        assert not [n for n in _imports(path) if n.split(".")[0] == "click"], path
        assert not [n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "print"], path


def _generic_modules() -> list[Path]:
    """Every module outside the game folders (a game may name its Structs as another game does)."""
    games = {init.parent for init in (ROOT / "domain").glob("*/__init__.py")}
    return [path for folder in FOLDERS for path in _modules(folder) if not any(g in path.parents for g in games)]


def test_no_two_modules_of_the_generic_code_define_the_same_public_class_name():
    where: dict[str, list[str]] = {}
    for path in _generic_modules():
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                where.setdefault(node.name, []).append(str(path.relative_to(ROOT)))
    assert {name: paths for name, paths in where.items() if len(paths) > 1} == {}


def test_the_front_door_imports_only_from_the_service_layer():
    """``import gamelog`` gives the API (docs/python-api.md): names re-exported from the services' own modules."""
    tree = ast.parse((ROOT / "projections" / "services" / "__init__.py").read_text(encoding="utf-8"))
    assert isinstance(tree.body[0], ast.Expr) and isinstance(tree.body[0].value, ast.Constant)  # its docstring
    assert not [node for node in tree.body if isinstance(node, ast.ImportFrom) and node.level == 1]  # all lazy
    import gamelog  # each name is imported when first asked for, from the service module _NAMES says

    assert set(gamelog._NAMES.values()) == {"errors", "game", "stores"}
    services = ROOT / "projections" / "services"
    assert all((services / f"{module}.py").is_file() for module in gamelog.SERVICES)


def _service_modules() -> set[str]:
    """The modules of the service layer, as the package names them (``gamelog.reporting``...)."""
    return {f"gamelog.{p.stem}" for p in _modules("projections/services") if p.stem != "__init__"}


SHARED_SERVICES = {"gamelog.errors", "gamelog.formats", "gamelog.sources", "gamelog.converting", "gamelog.wording"}
"""What every command may ask besides its own service: the errors, the formats and their layout, what the shared
options read (``cli/options.py``: the store's location, the tools ``--from`` takes) and how a message words an
option (``gamelog.wording``, entered by the group for every command)."""


SERVER_LIBRARIES = {"litestar", "uvicorn", "anyio", "msgspec", "segno"}
"""What the recorder's entry point (``cli/web/``, ``gamelog serve``) may import besides the service layer: its ASGI
framework and server, the JSON its requests carry, and the QR codes of its links."""


def test_the_cli_imports_only_the_service_layer_click_and_its_own_modules():
    services, stdlib = _service_modules(), __import__("sys").stdlib_module_names
    found = []
    for path in _modules("cli"):
        served = path.parent.name == "web" or path.name == "serve.py"
        for name in _imports(path):
            top = name.split(".")[0]
            if name.startswith("gamelog.cli") or top in ("click", "__future__") or top in stdlib:
                continue
            if served and top in SERVER_LIBRARIES:
                continue
            if name in services or name.rpartition(".")[0] in services:  # a module, or a name from one
                continue
            found.append(f"{path.relative_to(ROOT)}: {name}")
    assert found == []


def _imported_from(path: Path) -> dict[str, str]:
    """Each name ``path`` imports from a module of the service layer -> that module."""
    names = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module in _service_modules():
            names.update({alias.asname or alias.name: node.module for alias in node.names})
    return names


def test_each_command_calls_one_service():
    """A command's function calls one function of its service (the shared ones aside: errors, formats, options)."""
    calls = {}
    for path in _modules("cli"):
        imported = _imported_from(path)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for function in (n for n in tree.body if isinstance(n, ast.FunctionDef)):
            decorated = [ast.unparse(d) for d in function.decorator_list]
            if not any(d.startswith(("click.command", "click.group", "projections.command")) for d in decorated):
                continue
            called = {ast.unparse(n.func).split(".")[0] for n in ast.walk(function) if isinstance(n, ast.Call)}
            calls[f"{path.stem}.{function.name}"] = sorted(
                name for name in called if name in imported and imported[name] not in SHARED_SERVICES
                and name[:1].islower())  # a service function, not a class of values it takes (Filters)
    assert {"report.report", "stats.stats", "audit.audit", "validate.validate", "verify.verify"} <= set(calls)
    assert {command: names for command, names in calls.items() if len(names) > 1} == {}


ROLES = {"HOST", "SEAT", "SPECTATOR", "Viewer"}
"""The served recorder's words for who looks (``cli/web/tokens.py``): below it a game is seen whole, as a player
(``Game.as_player``) or as no player (``Game.public``)."""


def test_nothing_below_the_served_recorder_names_its_roles():
    found = []
    for folder in FOLDERS:
        for path in _modules(folder):
            if path.parent == ROOT / "cli" / "web":
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                named = (node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute)
                         else node.name if isinstance(node, ast.ClassDef) else None)
                if named in ROLES or isinstance(node, ast.Constant) and node.value in ("host", "spectator"):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {named or node.value!r}")
    assert found == []
    tokens = ast.parse((ROOT / "cli" / "web" / "tokens.py").read_text(encoding="utf-8"))
    defined = {target.id for node in tokens.body if isinstance(node, ast.Assign) for target in ast.walk(node.targets[0])
               if isinstance(target, ast.Name)} | {node.name for node in tokens.body if isinstance(node, ast.ClassDef)}
    assert ROLES <= defined  # the words are the served recorder's own


def test_a_view_is_made_in_one_module():
    """What a viewer may not see is made in ``gamelog.secrecy`` alone (``viewer_redaction``): every other module
    asks it, so no entry point makes a view of its own."""
    makers = sorted({str(path.relative_to(ROOT)) for folder in FOLDERS for path in _modules(folder)
                     for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                     if isinstance(node, ast.Call) and ast.unparse(node.func).split(".")[-1] == "Redaction"})
    assert makers == ["projections/services/secrecy.py"]
