"""Merchant of Venus reference data: cultures, goods and equipment as printed.

The tables ship with the package (``data/*.csv``, each with a ``.source.txt``
giving its provenance: the 1988 Avalon Hill components as transcribed in
chiendarrendor/AlbertsGameMachine). The FFG 2012 Classic game mostly reuses
them but not everywhere, so a log's stated value always wins: a difference is
at most a ``warning``, never a violation. The data are read once, from the
installed package, never from the user's files.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from functools import cache
from importlib import resources

SPACEPORT_DEED_VALUE = 200
"""mov_rules_constants.json: a merchant spaceport deed costs (and is worth) c200."""


@cache
def key(name: str) -> str:
    """A culture or good name folded so that 'Humans', 'Human' and 'humans' match."""
    folded = name.strip().casefold().replace(" ", "")
    return folded[:-1] if folded.endswith("s") else folded


@dataclass(frozen=True)
class Good:
    name: str
    factory: bool
    seller: str
    buy_price: int
    resale_value: int
    buyers: tuple[str, ...]


@dataclass(frozen=True)
class Culture:
    name: str
    iou_value: int
    factory_deed_value: int


def _rows(filename: str) -> list[dict[str, str]]:
    text = resources.files(__package__).joinpath("data", filename).read_text(encoding="utf-8")
    return list(csv.DictReader(io.StringIO(text)))


@cache
def cultures() -> dict[str, Culture]:
    """Cultures by folded name (see :func:`key`)."""
    return {
        key(r["culture_name"]): Culture(r["culture_name"], int(r["iou_value"]), int(r["factory_deed_cost"]))
        for r in _rows("mov_cultures.csv")
        if r["iou_value"]  # the Galactic Base row is no culture: no IOU, no factory
    }


@cache
def goods() -> dict[str, Good]:
    """Goods and factory goods by folded name."""
    return {
        key(r["good"]): Good(
            name=r["good"],
            factory=r["kind"] == "factory_good",
            seller=r["source_culture_name"],
            buy_price=int(r["buy_price"]),
            resale_value=int(r["sell_price"]),
            buyers=tuple(b.strip() for b in r["buyer_culture_names"].split(";")),
        )
        for r in _rows("mov_goods.csv")
    }


@cache
def equipment_prices() -> dict[str, int]:
    """Equipment and relic prices by folded item name."""
    return {key(r["item"]): int(r["price"]) for r in _rows("mov_equipment_and_relics.csv")}
