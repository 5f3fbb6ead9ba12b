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

_NOT_IN_SEEDS = "(not in the seeds)"
# RULES.md marks what the seeds leave to our reading as **(not in the seeds)** or, inside a
# sentence, **not in the seeds:**; a rule's text always carries the one marker, so a finding
# citing any of them says so in the same words.
_MARKER = re.compile(r"\*\*\s*\(?\s*not in the seeds\s*\)?\s*:?\s*\*\*:?", re.I)


SEEDS = "the rulebook"
"""Where a rule comes from when the rulebook pages gamelog was built from state it whole (``RuleText.rule_from``)."""


@dataclass(frozen=True)
class RuleText:
    """A rule's ID, its one-line text, whether the seeds (the rulebook pages) state it, and ``reading``: the words
    of it that are not theirs but the published rules' or gamelog's reading where they are silent (the whole text,
    for a rule they do not state at all; empty when they state it whole). ``text`` holds no marker: where a rule
    comes from is said apart from it, in words (:attr:`rule_from`)."""

    id: str
    text: str
    in_seeds: bool
    reading: str = ""

    @property
    def rule_from(self) -> str:
        """Where the rule comes from, in words, for a person reading a finding that cites it."""
        if not self.reading:
            return SEEDS
        if self.reading == self.text:
            return "gamelog's reading: the rulebook pages gamelog was built from do not state this rule"
        return f"{SEEDS}, and gamelog's reading where its pages are silent: {self.reading}"


def _read(rule_id: str, text: str) -> RuleText:
    """The rule whose text (RULES.md's, cleaned) may carry the marker once: the text without it, and the words the
    marker marks (to the end of its sentence or of the parenthesis it stands in; the whole text at its start)."""
    at = text.find(_NOT_IN_SEEDS)
    if at < 0:
        return RuleText(rule_id, text, True)
    before, after = text[:at].rstrip(), text[at + len(_NOT_IN_SEEDS):].lstrip()
    if not before:
        return RuleText(rule_id, after, False, after)
    depth, end = 0, len(after)
    for index, char in enumerate(after):
        if char == "(":
            depth += 1
        elif char == ")" and depth == 0 or char == "." and after[index + 1:index + 2] in ("", " ") and depth == 0:
            end = index + (char == ".")
            break
        elif char == ")":
            depth -= 1
    reading = after[:end].rstrip(" .;,")
    if before.endswith("."):  # the marked words were a sentence of their own
        after = after[:1].upper() + after[1:]
    joined = f"{before}{after}" if before.endswith("(") else f"{before} {after}"
    return RuleText(rule_id, joined, False, reading)


OWN_RULES = {
    "LOG-CORRECTION": "A correction voids an earlier event line: not the header, not a correction, and no line twice (docs/log-format.md).",
    "CLAIM": "A score_claimed line states what the table believed a score was; it must equal the score the log gives at that line.",
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
        out[rule_id] = _read(rule_id, body)  # the marker leaves the text: its part is the rule's ``reading``
    for rule_id, body in OWN_RULES.items():
        out[rule_id] = _own(rule_id, body)
    return out


def _own(rule_id: str, body: str) -> RuleText:
    return RuleText(rule_id, body, False, body)


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
