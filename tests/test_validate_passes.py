"""``validate`` keeps no history until a log's first correction, and spools its findings (issue 24, items 3 and 8).

What it reports must be what deciding the whole log with history gives
(``domain.replay.run``, the path every other command takes): the same input
errors and the same findings in the same order, on every example, on
generated logs with corrections early, late and none, and on a source that
cannot be read twice (standard input as a pipe keeps the history throughout).
"""

from __future__ import annotations

import io
import json

import msgspec
import pytest
from click.testing import CliRunner

import gamelog.projections.reports.validation as validation
from gamelog.cli.main import main
from gamelog.domain.events import FindingRaised
from gamelog.domain.replay import run
from gamelog.projections.reports.documents import Finding, Validation, encode
from tests.benchmarks.generate import write_log
from tests.conftest import EXAMPLES

LOGS = sorted(EXAMPLES.rglob("*.jsonl"))


def _expected(data: bytes) -> tuple[list, list]:
    decided = run(data)
    findings = [Finding(line=e.line, rule=e.rule, severity=e.severity, player=e.player, message=e.message)
                for e in decided.events if type(e) is FindingRaised]
    return [(e.line, e.path, e.message) for e in decided.errors], findings


class _Pipe(io.BytesIO):
    """A source read once: standard input as a pipe."""

    def seekable(self) -> bool:
        return False


def _generated(corrections: list[int]) -> bytes:
    log = io.BytesIO()
    write_log(log, 600)
    lines = log.getvalue().decode().splitlines()
    for at in corrections:  # each voids the purchase before it: the later sale may break a rule
        bought = max(n for n, text in enumerate(lines[:at], 1) if '"goods_bought"' in text)
        lines.insert(at, json.dumps({"type": "correction", "voids": bought, "reason": "no room"}))
    return ("\n".join(lines) + "\n").encode()


@pytest.mark.parametrize("log", LOGS, ids=lambda p: p.name)
def test_validate_reports_what_deciding_with_history_does_on_every_example(log):
    data = log.read_bytes()
    errors, findings = _expected(data)
    for source in (io.BytesIO(data), _Pipe(data)):
        check = validation.check_file(str(log), source)
        assert [(e.line, e.path, e.message) for e in check.errors] == errors
        assert check.findings == findings


@pytest.mark.parametrize("corrections", [[], [40], [300, 500], [598]])
def test_a_correction_anywhere_decides_the_log_again_with_the_same_findings(corrections):
    data = _generated(corrections)
    errors, findings = _expected(data)
    assert not errors
    if corrections:  # the corrections change what is found: the test would not tell a missed one otherwise
        assert any("correction of line" in f.message or "decided again" in f.message for f in findings) or \
            findings != _expected(_generated([]))[1]
    for source in (io.BytesIO(data), _Pipe(data)):
        assert validation.check_file("gen.jsonl", source).findings == findings


def test_findings_go_to_a_spool_on_disk_past_its_memory_and_read_back_in_order(monkeypatch, tmp_path):
    monkeypatch.setattr(validation, "SPOOL_IN_MEMORY", 256)
    log = EXAMPLES / "merchant-of-venus" / "disputed.jsonl"
    _, findings = _expected(log.read_bytes())
    assert len(findings) >= 3
    with validation.check_log(str(log)) as checked:
        assert checked._spool._rolled  # past 256 bytes the findings are in a file, not in memory
        assert list(checked.findings()) == findings
        assert sum(checked.counts.values()) == len(findings)


def test_the_json_pieces_are_the_document_byte_for_byte():
    logs = [str(p) for p in LOGS[:3]] + ["missing.jsonl"]
    expected = encode(Validation(files=[validation.check_file(p) for p in logs]))
    checks = [validation.check_log(p) for p in logs]
    assert "".join(validation.validation_json_pieces(checks)) == expected
    out = CliRunner().invoke(main, ["validate", "--format", "json", *logs])
    assert out.stdout.rstrip("\n") == expected
    assert msgspec.json.decode(out.stdout)["version"] == 1


def _ti4(*events: dict) -> bytes:
    header = {"type": "game", "game": "twilight-imperium-4", "id": "f", "players": ["Ann", "Bob"],
              "setup": {"factions": {"Ann": "Arborec", "Bob": "Federation of Sol"}}}
    return "".join(json.dumps(e) + "\n" for e in (header, *events)).encode()


FOURTH = [{"type": "secret_objective_drawn", "player": "Ann", "objective": "Become the Gatekeeper"},
          {"type": "round_started", "round": 1}, {"type": "phase_started", "phase": "status"},
          *({"type": "secret_objective_drawn", "player": "Ann", "objective": name}
            for name in ("Forge an Alliance", "Mine Rare Metals", "Monopolize Production"))]


@pytest.mark.parametrize("tail, found", [
    ([], [(7, "LRR 34.20–34.21")]),                                                   # the log ends on the draw
    ([{"type": "note", "text": "later"}, {"type": "correction", "voids": 8, "reason": "x"}],
     [(9, "LRR 34.20–34.21")]),                                                       # both passes: a correction
    ([{"type": "correction", "voids": 2, "reason": "never drawn"}], []),               # three held once voided
], ids=["end", "after-a-correction", "voided"])
def test_validate_decides_the_end_of_the_log_in_either_pass(tail, found):
    data = _ti4(*FOURTH, *tail)
    assert [(f.line, f.rule) for f in _expected(data)[1] if f.rule.startswith("LRR 34.2")] == found
    for source in (io.BytesIO(data), _Pipe(data)):
        assert [(f.line, f.rule) for f in validation.check_file("f.jsonl", source).findings
                if f.rule.startswith("LRR 34.2")] == found
