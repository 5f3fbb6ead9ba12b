"""Twilight Imperium 4 reference data: factions, objectives and strategy cards as printed.

The tables ship with the package (``data/*.csv``, each with a ``.source.txt``
giving its provenance: AsyncTI4/TI4_map_generator_bot, base game and Prophecy
of Kings). The project's data notes call them authoritative, so a score whose points,
stage or phase differ from the card is a finding (LRR 34.2–34.4); an
objective missing from them is taken as the log states it. The data are read
once, from the installed package, never from the user's files.
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from dataclasses import dataclass
from functools import cache
from importlib import resources

_NOT_ALNUM = re.compile(r"[^0-9a-z]+")


def key(name: str) -> str:
    """A name folded so that 'The Emirates of Hacan', 'emirates of hacan' and "Jol-Nar" match their forms.

    Case, a leading "The", spaces and punctuation are ignored.
    """
    folded = name.strip().casefold()
    folded = folded.removeprefix("the ")
    return _NOT_ALNUM.sub("", folded)


@dataclass(frozen=True)
class Objective:
    """One objective card: ``kind`` is ``public`` or ``secret``; ``phase`` is lower case; ``alias`` its short
    name in the data (a log may name the card by it)."""

    name: str
    kind: str
    stage: int | None
    points: int
    phase: str
    text: str
    alias: str = ""

    @property
    def trade_goods_cost(self) -> int:
        """LRR 34.10: trade goods the card makes the player spend when scoring it."""
        m = re.search(r"(\d+) trade goods", self.text)
        return int(m.group(1)) if m and self.text.startswith("Spend") else 0

    @property
    def tokens_cost(self) -> int:
        """LRR 34.10: command tokens (tactic and/or strategy pools) spent when scoring it."""
        m = re.search(r"Spend a total of (\d+) tokens", self.text)
        return int(m.group(1)) if m else 0

    @property
    def untracked_cost(self) -> bool:
        """LRR 34.10: the card spends resources or influence, which logs do not track."""
        return self.text.startswith("Spend") and bool(re.search(r"\d+ (resources|influence)", self.text))


def _rows(filename: str) -> list[dict[str, str]]:
    text = resources.files(__package__).joinpath("data", filename).read_text(encoding="utf-8")
    return list(csv.DictReader(io.StringIO(text)))


@cache
def objectives() -> dict[str, Objective]:
    """The 40 public and 40 secret objectives by folded name and by alias."""
    out: dict[str, Objective] = {}
    for kind, filename in (("public", "ti4_public_objectives.csv"), ("secret", "ti4_secret_objectives.csv")):
        for r in _rows(filename):
            stage = int(r["stage"]) if kind == "public" else None
            card = Objective(r["name"], kind, stage, int(r["points"]), r["phase"].casefold(), r["text"], r["alias"])
            out[key(r["name"])] = card
            out.setdefault(key(r["alias"]), card)
    return out


def objective(name: str) -> Objective | None:
    """The card of that name (or alias), or None when the data do not have it."""
    return objectives().get(key(name))


def printed_objective(name: str) -> str:
    """The printed name of the objective ``name`` spells (its name in any letter case or spacing, or its alias):
    how a line names a card once read, so that every output names it one way; ``name`` itself for a card the
    data do not have."""
    card = objectives().get(key(name))
    return name if card is None else card.name


@cache
def _faction_index() -> dict[str, tuple[str, int]]:
    """Folded name, alias and every word unique to one faction -> (printed name, commodities)."""
    rows = _rows("ti4_faction_commodities.csv")
    words = [{key(w) for w in re.split(r"[\s]+", r["faction_name"]) if len(key(w)) >= 3} for r in rows]
    counts = Counter(w for ws in words for w in ws)
    index: dict[str, tuple[str, int]] = {}
    for r, ws in zip(rows, words):
        value = (r["faction_name"], int(r["commodities"]))
        for k in [key(r["faction_name"]), key(r["alias"])] + sorted(w for w in ws if counts[w] == 1):
            index.setdefault(k, value)
    return index


def faction(name: str) -> tuple[str, int] | None:
    """(printed name, commodity value) of a faction named in full, without "The", or by a word of its own.

    "The Emirates of Hacan", "Emirates of Hacan" and "Hacan" all match; None when nothing does.
    """
    return _faction_index().get(key(name))


def faction_names() -> list[str]:
    """Every faction the data have, as outputs name it (:func:`faction_name`): what a misspelt one is held to."""
    return sorted({printed.removeprefix("The ") for printed, _ in _faction_index().values()})


def faction_name(name: str) -> str:
    """A faction's name as every output writes it (replay, report, reconcile, stats): its printed name without
    "The" when the data know it ("arborec", "Hacan" and "The Emirates of Hacan" are "Arborec" and "Emirates of
    Hacan"), else ``name`` as given (a faction the data do not have)."""
    known = faction(name)
    return known[0].removeprefix("The ") if known is not None else name


@cache
def strategy_cards() -> dict[str, int]:
    """The 8 strategy cards' initiative numbers by folded name."""
    return {key(r["name"]): int(r["initiative"]) for r in _rows("ti4_strategy_cards.csv")}


TRADE_INITIATIVE = 5
"""ti4_strategy_cards.csv: Trade's initiative number (LRR 90)."""


@cache
def strategy_card_names() -> tuple[str, ...]:
    """The 8 strategy cards' printed names, in initiative order."""
    return tuple(r["name"] for r in sorted(_rows("ti4_strategy_cards.csv"), key=lambda r: int(r["initiative"])))
