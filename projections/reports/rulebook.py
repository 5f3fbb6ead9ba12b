"""``docs/rules.md``: every rule a finding may cite, by game, generated from what the audit quotes.

The texts are ``domain.ruletext.rules()`` (``domain/data/RULES.md``, the log
format's own rules, each game's ``RULE_TEXTS``); the grouping follows
RULES.md's sections, a game's own rules joining its section. Regenerate the
page after changing any of them (a test fails until it is current)::

    python -m projections.reports.rulebook > docs/rules.md
"""

from __future__ import annotations

import re
from importlib import resources

from gamelog.domain.games import GAMES
from gamelog.domain.ruletext import OWN_RULES, RuleText, rules
from gamelog.projections.reports.safe import markdown

_SECTION = re.compile(r"## (.+) \(`([a-z0-9-]+)`\)")
_ROW = re.compile(r"\| (.+?) \| .* \|$")

HEADER = """\
# The rules gamelog checks, by ID

Every finding of `validate`, `audit` and `report` cites one of these IDs. The texts are gamelog's English digest of
the rulebook pages it was built from (the *seeds*); a rule marked **not in the seeds** is filled in from the
published rules or is our reading where the seeds are silent (*partly*: the part in italics), and the audit
says where each rule it cites comes from, apart from the rule's text. Each game's setup can override what its rules leave open (a goal, a threshold...): see
[the log format](log-format.md).

This page is generated from `domain/data/RULES.md` (the digest), `domain/ruletext.py` (the log format's own rules)
and each game's `RULE_TEXTS` in its `game.py` (its own rules, those the seeds are silent on):
`python -m projections.reports.rulebook > docs/rules.md`. A test fails when it is not current.
"""


def sections() -> list[tuple[str, list[RuleText]]]:
    """(heading, rules) in RULES.md's order, each game's own rules after its digest's, then the log format's."""
    every = rules()
    text = resources.files("gamelog.domain").joinpath("data", "RULES.md").read_text(encoding="utf-8")
    out: list[tuple[str, list[RuleText]]] = []
    placed: set[str] = set()
    game = None
    for line in text.splitlines():
        heading = _SECTION.fullmatch(line)
        if heading:
            game = heading.group(2)
            out.append((f"{heading.group(1)} (`{game}`)", []))
            continue
        if line.startswith("## "):
            game = None
        row = _ROW.match(line)
        if game and row:
            rule_id = row.group(1).replace("**", "").replace("`", "").strip()
            if rule_id in every and rule_id not in placed:
                out[-1][1].append(every[rule_id])
                placed.add(rule_id)
    for heading, found in out:
        name = heading.rsplit("`", 2)[-2]
        if name in GAMES:
            found += [every[r] for r in GAMES[name].rule_texts if r not in placed]
            placed.update(GAMES[name].rule_texts)
    out.append(("The log format's own (every game)", [every[r] for r in OWN_RULES]))
    placed.update(OWN_RULES)
    rest = [r for rule_id, r in every.items() if rule_id not in placed]
    if rest:
        out.append(("Other games", rest))
    return out


def render_rulebook() -> str:
    """The page, in Markdown."""
    out = [HEADER]
    for heading, found in sections():
        out += [f"## {heading}", "", "| ID | in the seeds | rule |", "| --- | --- | --- |"]
        out += [f"| {r.id} | {_in_seeds(r)} | {_marked(r)} |" for r in found]
        out.append("")
    return "\n".join(out)


def _in_seeds(rule: RuleText) -> str:
    """yes, no (the whole rule is our reading), or partly (the text marks the part the seeds don't state)."""
    if rule.in_seeds:
        return "yes"
    return "no" if rule.reading == rule.text else "partly"


def _marked(rule: RuleText) -> str:
    """The rule's text in Markdown, the part the seeds don't state in italics when they state the rest."""
    text = markdown(rule.text)
    if rule.in_seeds or rule.reading == rule.text:
        return text
    for reading in (rule.reading, rule.reading[:1].upper() + rule.reading[1:]):  # a sentence of its own: capitalised
        if (part := markdown(reading)) in text:
            return text.replace(part, f"*{part}*", 1)
    return text


if __name__ == "__main__":
    print(render_rulebook(), end="")
