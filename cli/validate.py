"""``gamelog validate LOG...``: every input error and every rule finding; nothing stored."""

from __future__ import annotations

import json
from typing import Any

import click

from cli.errors import EXIT_INPUT, EXIT_OK, EXIT_VIOLATION
from domain.engine import VIOLATION
from domain.events import FindingRaised
from domain.reader import LogReader
from domain.replay import decide
from projections.importing.spill import SpilledIndex


def check_file(path: str) -> dict[str, Any]:
    """Read and decide one log, keeping only its errors and findings (constant memory)."""
    try:
        handle = open(path, "rb")
    except OSError as exc:
        return {"path": path, "errors": [{"line": None, "path": "$", "message": f"cannot read the file: {exc.strerror or exc}"}],
                "findings": []}
    with handle, SpilledIndex() as index:  # bounded memory on logs of any length
        reader = LogReader(handle)
        findings = [finding_json(e) for e in decide(reader, index) if type(e) is FindingRaised]
    errors = [{"line": e.line, "path": e.path, "message": e.message} for e in reader.errors]
    return {"path": path, "errors": errors, "findings": findings}


def finding_json(finding: FindingRaised) -> dict[str, Any]:
    """A finding as CLI.md's JSON shows it."""
    return {"line": finding.line, "rule": finding.rule, "severity": finding.severity,
            "player": finding.player, "message": finding.message}


@click.command()
@click.argument("logs", nargs=-1, required=True, metavar="LOG...")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text for people, json for programs (one document on stdout).")
def validate(logs: tuple[str, ...], fmt: str) -> None:
    """Check logs: report every input error and every rule finding; store nothing.

    Exit 0 when no log breaks a rule, 1 when one does (a violation), 2 when a
    log is malformed or missing.
    """
    results = [check_file(path) for path in logs]
    if fmt == "json":
        click.echo(json.dumps({"files": results}, ensure_ascii=False))
    else:
        for result in results:
            _print_text(result)
    if any(r["errors"] for r in results):
        raise SystemExit(EXIT_INPUT)
    violated = any(f["severity"] == VIOLATION for r in results for f in r["findings"])
    raise SystemExit(EXIT_VIOLATION if violated else EXIT_OK)


def _print_text(result: dict[str, Any]) -> None:
    path = result["path"]
    for e in result["errors"]:
        if e["line"] is None:  # the file itself, not one of its lines
            click.echo(f"Error: {path}: {e['message']}", err=True)
            continue
        click.echo(f"{path}:{e['line']}: {e['message']} at {e['path']}", err=True)
    for f in result["findings"]:
        who = f" [{f['player']}]" if f["player"] else ""
        click.echo(f"{path}:{f['line']}: {f['severity']} {f['rule']}{who}: {f['message']}")
    counts: dict[str, int] = {}
    for f in result["findings"]:
        counts[f["severity"]] = counts.get(f["severity"], 0) + 1
    if result["errors"]:
        summary = f"{len(result['errors'])} input error(s); not a valid log"
    else:
        summary = ", ".join(f"{n} {s}(s)" for s, n in sorted(counts.items())) or "no findings"
    click.echo(f"{path}: {summary}")
