"""The text of every rule a finding may cite, so an audit can quote it.

The rules come from RULES.md, gamelog's English digest (shipped as package
data in ``data/``): each table row ``| ID | rule |``. A rule marked
"(not in the seeds)" there is our reading or the published rules, and the
audit says so. A few IDs are gamelog's own, all of them not in the seeds: the
log format's corrections and score claims are defined here; a game's own
(its turn order where the seeds are silent, say) are in its ``game``
module (``RULE_TEXTS``), which :class:`~domain.games.GameRules` carries.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from gamelog.domain.games import GAMES
from gamelog.domain.results import RULE_TEXTS as RESULT_RULES

_NOT_IN_SEEDS = "(not in the seeds)"
# RULES.md marks what the seeds leave to our reading as **(not in the seeds)** or, inside a
# sentence, **not in the seeds:**; a rule's text always carries the one marker, so a finding
# citing any of them says so in the same words.
_MARKER = re.compile(r"\*\*\s*\(?\s*not in the seeds\s*\)?\s*:?\s*\*\*:?", re.I)


@dataclass(frozen=True)
class RuleText:
    """A rule's ID, its one-line text, and whether the seeds (the rulebook pages) state it."""

    id: str
    text: str
    in_seeds: bool


OWN_RULES = {
    "LOG-CORRECTION": "A correction voids an earlier event line: not the header, not a correction, and no line twice (docs/log-format.md).",
    "CLAIM": "A score_claimed line states what the table believed a score was; it must equal the score the log gives at that line.",
    **RESULT_RULES,
}
"""The rules of the log format itself, which every game shares."""

# A rule ID as RULES.md writes one: a prefix and words (``ABC-SOME-RULE``), or a
# rulebook's section number (``LRR 90.1``, ``LRR 90 comment 1``); other rows
# (the seeds' file table) are not rules.
_RULE_ID = re.compile(r"[A-Z][A-Z0-9]*-[A-Z0-9-]+|[A-Z]+ [0-9][0-9.–]*( comment \d+)?")


def _clean(cell: str) -> str:
    return re.sub(r"\*\*|`", "", _MARKER.sub(_NOT_IN_SEEDS, cell)).strip()


@cache
def _digest() -> dict[str, RuleText]:
    """RULES.md's rules by ID, then the log format's own."""
    text = resources.files("gamelog.domain").joinpath("data", "RULES.md").read_text(encoding="utf-8")
    out: dict[str, RuleText] = {}
    for line in text.splitlines():
        cells = [c for c in line.split("|")[1:-1]]
        if len(cells) != 2 or cells[0].strip() in ("ID", "---", "") or set(cells[0].strip()) <= {"-"}:
            continue
        rule_id, body = _clean(cells[0]), _clean(cells[1])
        if not _RULE_ID.fullmatch(rule_id):
            continue
        # The marker stays in the text: it says which part of the rule the seeds don't state.
        out[rule_id] = RuleText(rule_id, body, _NOT_IN_SEEDS not in body)
    for rule_id, body in OWN_RULES.items():
        out[rule_id] = _own(rule_id, body)
    return out


def _own(rule_id: str, body: str) -> RuleText:
    return RuleText(rule_id, f"{_NOT_IN_SEEDS} {body}", False)


def rules() -> dict[str, RuleText]:
    """Every rule by ID: RULES.md's rows, the log format's own, then each registered game's own.

    Not cached: a game may be plugged into the registry (or taken out) at any time.
    """
    out = dict(_digest())
    for name in GAMES:
        for rule_id, body in GAMES[name].rule_texts.items():
            out.setdefault(rule_id, _own(rule_id, body))
    return out


def rule(rule_id: str) -> RuleText:
    """The rule cited as ``rule_id``; an unknown ID gets a text that says so (never raises)."""
    found = _digest().get(rule_id)
    if found is not None:
        return found
    for name in GAMES:
        body = GAMES[name].rule_texts.get(rule_id)
        if body is not None:
            return _own(rule_id, body)
    return RuleText(rule_id, "(no text: this rule ID is not in RULES.md)", False)
