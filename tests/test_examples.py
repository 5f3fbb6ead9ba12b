"""Every example log reports exactly the violations its comments announce.

A comment line ``# violation RULE: why`` announces one violation of RULE on the
next event line; a legal example announces none and must have none.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from gamelog.domain.events import FindingRaised
from gamelog.domain.replay import run
from tests.conftest import EXAMPLES

ANNOTATION = re.compile(r"^#\s*violation\s+(.+?):")


def announced(path: Path) -> Counter:
    expected: Counter = Counter()
    pending: list[str] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        stripped = line.strip()
        if m := ANNOTATION.match(stripped):
            pending.append(m.group(1).strip())
        elif stripped and not stripped.startswith("#"):
            expected.update((number, rule) for rule in pending)
            pending = []
    return expected


EXAMPLE_LOGS = sorted(EXAMPLES.glob("*/*.jsonl"))


@pytest.mark.parametrize("path", EXAMPLE_LOGS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_example_reports_exactly_its_annotated_violations(path):
    result = run(path.read_bytes())
    assert result.errors == []
    found = Counter((e.line, e.rule) for e in result.events if isinstance(e, FindingRaised) and e.severity == "violation")
    assert found == announced(path)


def test_the_disputed_merchant_of_venus_game_breaks_every_rule():
    rules = {rule for _, rule in announced(EXAMPLES / "merchant-of-venus" / "disputed.jsonl")}
    assert rules == {"MOV-BUY", "MOV-IOU", "MOV-SELL", "MOV-LIMIT", "MOV-COMMISSION", "MOV-PASSENGER", "MOV-HAZARD",
                     "MOV-RELIC", "MOV-CAPACITY", "MOV-BONUS-CUP", "MOV-TURN-END", "MOV-NET-WORTH", "MOV-WIN", "MOV-PAY", "CLAIM"}
