"""The text of every rule a finding may cite, so an audit can quote it.

The rules come from RULES.md, gamelog's English digest (shipped as package
data in ``data/``): each table row ``| ID | rule |``. A rule marked
"(not in the seeds)" there is our reading or the published rules, and the
audit says so. A few IDs are gamelog's own (the log format's corrections,
score claims, turn order where the seeds are silent); they are defined here,
all of them not in the seeds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

_NOT_IN_SEEDS = "(not in the seeds)"


@dataclass(frozen=True)
class RuleText:
    """A rule's ID, its one-line text, and whether the seeds (the rulebook pages) state it."""

    id: str
    text: str
    in_seeds: bool


OWN_RULES = {
    "LOG-CORRECTION": "A correction voids an earlier event line: not the header, not a correction, and no line twice (LOG_FORMAT.md).",
    "CLAIM": "A score_claimed line states what the table believed a score was; it must equal the score the log gives at that line.",
    "UCH-TURN": "Game actions happen inside a turn; turns follow seating order.",
    "UCH-FORUM": "A card can leave the Forum only if one of its color is there.",
    "TI4-TURN": "Action-phase turns follow initiative order, skipping players who have passed.",
    "TI4-VP-SOURCE": "Victory points come from objectives and from other sources: the Custodians token (the first to "
                     "take Mecatol Rex, once per game), the Imperial primary while holding Mecatol Rex, Support for the Throne, "
                     "Styx, relics (Shard of the Throne, The Crown of Emphidia), agendas and riders (Political Censure, Holy "
                     "Planet of Ixth, Mutiny, Seed of an Empire, Imperial Rider) and other cards; a point is lost only if it "
                     "was held from that source, and a point one player holds at a time (Custodians, Styx, a relic, "
                     "Political Censure) is not held by two.",
}


def _clean(cell: str) -> str:
    return re.sub(r"\*\*|`", "", cell).strip()


@cache
def rules() -> dict[str, RuleText]:
    """Every rule by ID: RULES.md's rows, then gamelog's own."""
    text = resources.files("domain").joinpath("data", "RULES.md").read_text(encoding="utf-8")
    out: dict[str, RuleText] = {}
    for line in text.splitlines():
        cells = [c for c in line.split("|")[1:-1]]
        if len(cells) != 2 or cells[0].strip() in ("ID", "---", "") or set(cells[0].strip()) <= {"-"}:
            continue
        rule_id, body = _clean(cells[0]), _clean(cells[1])
        if not re.fullmatch(r"(MOV|UCH|TI4)-[A-Z-]+|LRR [0-9][0-9.–]*( comment \d+)?", rule_id):
            continue
        # The marker stays in the text: it says which part of the rule the seeds don't state.
        out[rule_id] = RuleText(rule_id, body, _NOT_IN_SEEDS not in body)
    for rule_id, body in OWN_RULES.items():
        out[rule_id] = RuleText(rule_id, f"{_NOT_IN_SEEDS} {body}", False)
    return out


def rule(rule_id: str) -> RuleText:
    """The rule cited as ``rule_id``; an unknown ID gets a text that says so (never raises)."""
    return rules().get(rule_id) or RuleText(rule_id, "(no text: this rule ID is not in RULES.md)", False)
