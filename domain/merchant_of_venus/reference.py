"""Merchant of Venus reference data: cultures, goods and equipment as printed.

The tables ship with the package (``data/*.csv``, each with a ``.source.txt``
giving its provenance: the 1988 Avalon Hill components as transcribed in
chiendarrendor/AlbertsGameMachine). The FFG 2012 Classic game mostly reuses
them but not everywhere. Where the seeds (the FFG rulebook's pages) state a
fact, it wins over those tables: ``data/mov_seed_facts.csv`` holds each such
fact with its seed and the seed's words, and is applied over them here (the
seed's Bionic Perfume sold to the Volois is no warning). A log's stated value
always wins: a difference is at most a ``warning``, never a violation, and
says whether the seeds or the 1988 data give the value (:func:`source_of`).
The data are read once, from the installed package, never from the user's
files.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources


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
    dots: int = 1
    """Capacity dots (MOV-CAPACITY): the 1988 table gives none; the seeds give two for some goods, else one."""


@dataclass(frozen=True)
class Culture:
    name: str
    iou_value: int
    factory_deed_value: int


@dataclass(frozen=True)
class SeedFact:
    """A component fact the seeds state (``data/mov_seed_facts.csv``): it wins over the 1988 tables.

    ``kind`` is ``good``, ``culture`` or ``equipment``; ``field`` names the
    attribute it sets (``buyers``, ``iou_value``, ``price``...); ``seed`` is the
    seed file and ``section`` where in it; ``data_1988`` what the 1988 table
    holds ("agrees", or the value the seed replaces).
    """

    kind: str
    subject: str
    field: str
    value: str
    data_1988: str
    seed: str
    section: str


DATA_1988 = "the reference data (1988 edition)"
"""How a warning names a value taken from the 1988 tables."""


def _rows(filename: str) -> list[dict[str, str]]:
    text = resources.files(__package__).joinpath("data", filename).read_text(encoding="utf-8")
    return list(csv.DictReader(io.StringIO(text)))


@cache
def seed_facts() -> dict[tuple[str, str, str], SeedFact]:
    """The seeds' facts by (kind, folded subject, field)."""
    facts = (SeedFact(**{f: r[f] for f in SeedFact.__dataclass_fields__}) for r in _rows("mov_seed_facts.csv"))
    return {(f.kind, key(f.subject), f.field): f for f in facts}


def source_of(kind: str, subject: str, field: str) -> str:
    """Who states a reference value: the seed (file and section) where it does, else the 1988 data."""
    fact = seed_facts().get((kind, key(subject), field))
    return DATA_1988 if fact is None else f"the rulebook (seeds/{fact.seed}, {fact.section})"


def _value(fact: SeedFact, like: object) -> object:
    """The seed's value read as the type of the 1988 value it replaces."""
    if isinstance(like, bool):
        return fact.value.strip().casefold() == "true"
    if isinstance(like, int):
        return int(fact.value)
    if isinstance(like, tuple):
        return tuple(v.strip() for v in fact.value.split(";"))
    return fact.value


def _with_seeds(kind: str, item: object, subject: str) -> object:
    """``item`` (a Good or Culture) with every field the seeds state set to the seed's value."""
    changes = {f.field: _value(f, getattr(item, f.field)) for (k, s, _), f in seed_facts().items() if k == kind and s == key(subject)}
    return replace(item, **changes) if changes else item


@cache
def cultures() -> dict[str, Culture]:
    """Cultures by folded name (see :func:`key`), the seeds' facts applied."""
    return {
        key(r["culture_name"]): _with_seeds("culture", Culture(r["culture_name"], int(r["iou_value"]), int(r["factory_deed_cost"])),
                                            r["culture_name"])
        for r in _rows("mov_cultures.csv")
        if r["iou_value"]  # the Galactic Base row is no culture: no IOU, no factory
    }


@cache
def goods() -> dict[str, Good]:
    """Goods and factory goods by folded name, the seeds' facts applied."""
    return {
        key(r["good"]): _with_seeds("good", Good(
            name=r["good"],
            factory=r["kind"] == "factory_good",
            seller=r["source_culture_name"],
            buy_price=int(r["buy_price"]),
            resale_value=int(r["sell_price"]),
            buyers=tuple(b.strip() for b in r["buyer_culture_names"].split(";")),
        ), r["good"])
        for r in _rows("mov_goods.csv")
    }


@cache
def buyer_keys(good: str) -> frozenset[str]:
    """The folded names (:func:`key`) of the cultures that buy ``good`` (a name :func:`goods` holds)."""
    return frozenset(key(b) for b in goods()[key(good)].buyers)


@cache
def equipment_prices() -> dict[str, int]:
    """Equipment and relic prices by folded item name, the seeds' prices applied."""
    prices = {key(r["item"]): int(r["price"]) for r in _rows("mov_equipment_and_relics.csv")}
    for (kind, item, field), fact in seed_facts().items():
        if kind == "equipment" and field == "price":
            prices[item] = int(fact.value)
    return prices


@cache
def equipment_names() -> tuple[str, ...]:
    """The names of the equipment and drives a port sells (the equipment table's rows that are no relic)."""
    return tuple(r["item"] for r in _rows("mov_equipment_and_relics.csv") if r["category"] != "relic")


@cache
def relic_names() -> tuple[str, ...]:
    """The names of the relics (the equipment table's relic rows)."""
    return tuple(r["item"] for r in _rows("mov_equipment_and_relics.csv") if r["category"] == "relic")


def _engine_name(printed: str) -> str:
    """The name the engine counts an equipment row by: ``shield`` for the Shield, ``drive:<colors>`` for a drive
    (``drive:red+yellow`` for the Combined Drive, whose colors its effect names), else the printed name."""
    folded = printed.casefold()
    if folded.startswith("shield"):
        return "shield"
    if folded == "combined drive":
        return "drive:red+yellow"
    if folded.endswith(" drive"):
        return f"drive:{folded.removesuffix(' drive')}"
    return printed


@cache
def equipment_by_name() -> dict[str, str]:
    """The engine's name of each piece of equipment a port sells, by every name a line may give it, folded
    (:func:`key`): its printed name (``Shield -20``, ``Yellow Drive``) and its short one (``shield``,
    ``drive:yellow``)."""
    names: dict[str, str] = {}
    for printed in equipment_names():
        short = _engine_name(printed)
        names[key(printed)] = names[key(short)] = short
    return names


def equipment_item(name: str) -> str | None:
    """The engine's name for the equipment ``name`` gives (printed or short; a drive's colors in any order), or
    None when no equipment a port sells has that name."""
    folded = name.strip().casefold()
    if folded.startswith("drive:"):  # the colors of a drive in any order: drive:yellow+red is the Combined Drive
        folded = "drive:" + "+".join(sorted(c.strip() for c in folded[6:].split("+") if c.strip()))
    return equipment_by_name().get(key(folded))


def equipment_printed(short: str) -> str:
    """The printed name of the equipment the engine names ``short`` (``shield``: ``Shield -20``)."""
    return next((p for p in equipment_names() if _engine_name(p) == short), short)
