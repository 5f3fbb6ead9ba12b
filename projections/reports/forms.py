"""The recorder's forms: one for each kind of line a game's log holds, made from its event types.

A form is what a page needs to ask for one line: its fields, each with its kind (text, a number and its range, a
yes/no, one of a fixed set, a list of them, a group of fields), whether the log requires it, its default, and
what the state offers for it (``domain.entries``: the players, the player whose turn it is first; the game's own
offers: what a place sells, the cards on the table). Everything comes from the event types'
msgspec definitions (``msgspec.inspect``), so a new event type, or a fourth game's plug-in, has its form with no
page code; nothing here names a game. The header has a form too: a new game is its header.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

import msgspec
import msgspec.inspect as mi

from gamelog.domain.entries import Offer
from gamelog.domain.replay_document import Document

SKIPPED = frozenset({"at", "source"})
"""Fields every line may hold that the table never types: a converter's provenance, not a move."""
COMMON_LAST = ("correction", "note", "score_claimed")
"""The lines every game has, offered after the game's own (they are not moves)."""


class EntryField(Document, kw_only=True):
    """One field of a form: ``name`` as the log spells it; ``kind`` is ``text``, ``number``, ``bool``, ``choice``
    (one of ``choices``, which are then the only values), ``list`` (of ``item``), ``group`` (of ``fields``), ``map``
    (an ``item`` by player), or ``json`` (any JSON value, where no simpler kind fits); ``offered``: values the state makes likely, the likeliest
    first (for ``text``, suggestions; a ``list`` offers its items' values); ``player``: it names a player."""

    name: str
    kind: str
    required: bool
    optional: bool = False
    """The field may be null (left empty)."""
    default: Any = None
    minimum: int | None = None
    maximum: int | None = None
    choices: list[Any] = []
    offered: list[str] = []
    player: bool = False
    item: "EntryField | None" = None
    fields: list["EntryField"] = []


class EntryForm(Document, kw_only=True):
    """The form of one kind of line: its ``type`` tag and its fields, in the order the log format gives them, and
    its ``label``, the kind named in players' words ("Pay a hazard": ``GameRules.kind``)."""

    type: str
    fields: list[EntryField]
    label: str = ""


class TurnStepForm(Document, kw_only=True):
    """One step of the turn flow (``domain.turn_flow``), taken in one tap (``POST .../turn`` with its ``id``): its
    ``label`` in players' words ("End turn: Bob's turn") and the ``lines`` it records, each a line of the log."""

    id: str
    label: str
    lines: list[dict[str, Any]]


class EntryForms(Document, kw_only=True):
    """What the recorder shows at one point of a game: whose turn it is (``due``: under way, or next; ``active``:
    the player whose turn is under way, None between turns and once the game is over), the lines of the log so far,
    a form for each kind of line, and the steps of the turn flow offered now (``turn``)."""

    game: str
    id: str
    players: list[str]
    due: str | None
    lines: int
    forms: list[EntryForm]
    active: str | None = None
    turn: list[TurnStepForm] = []


def entry_forms(event_types: tuple[type, ...], offers: Mapping[str, Mapping[str, Offer]],
                players: tuple[str, ...], label: Callable[[str], str] = str) -> list[EntryForm]:
    """A form for each of ``event_types`` (the game's own first, the lines every game has last), each field
    offered what ``offers`` give it, and every player field the ``players`` (the player due first); ``label``
    names each kind (by its ``type``) in players' words."""
    forms = [msgspec.structs.replace(form, label=label(form.type))
             for form in (_form(t, offers.get(_tag(t), {}), players) for t in event_types)]
    own = [f for f in forms if f.type not in COMMON_LAST]
    return own + sorted((f for f in forms if f.type in COMMON_LAST), key=lambda f: COMMON_LAST.index(f.type))


def offers_telling_nothing(forms: EntryForms, hidden: Callable[[str], bool]) -> EntryForms:
    """``forms`` for a viewer who may not see the names ``hidden`` says: a field whose offers hold one of them
    offers nothing (it is typed), since the rest of its list would tell which one it is (the place where the name
    stands, or where it is missing: a secret to draw is offered from the cards others hold too)."""

    def told(field: EntryField) -> EntryField:
        item = told(field.item) if field.item is not None else None
        offered = [] if any(hidden(o) for o in field.offered) else field.offered
        return msgspec.structs.replace(field, offered=offered, item=item, fields=[told(f) for f in field.fields])

    return msgspec.structs.replace(forms, forms=[msgspec.structs.replace(form, fields=[told(f) for f in form.fields])
                                                 for form in forms.forms])


def header_form(header_type: type) -> EntryForm:
    """The form of a game's header (what a new game needs: its id, its players in seat order, its setup)."""
    return _form(header_type, {}, ())


def _tag(event_type: type) -> str:
    return event_type.__struct_config__.tag


def _form(event_type: type, offers: Mapping[str, Offer], players: tuple[str, ...]) -> EntryForm:
    info = mi.type_info(event_type)
    player_fields = getattr(event_type, "PLAYER_FIELDS", {})
    fields = [_field(f.encode_name, f.type, f.required, _default(f), offers.get(f.encode_name),
                     players if f.encode_name in player_fields else None)
              for f in info.fields if f.encode_name not in SKIPPED and not _fixed(f.type)]
    return EntryForm(type=_tag(event_type), fields=fields)


def _fixed(type_: Any) -> bool:
    """Whether a field can hold one value only (a header's ``game``): nothing to ask."""
    return isinstance(type_, mi.LiteralType) and len(type_.values) == 1


def _default(f: mi.Field) -> Any:
    if f.default is not msgspec.NODEFAULT:
        return msgspec.to_builtins(f.default)
    return None


def _field(name: str, type_: Any, required: bool, default: Any, offer: Offer | None,
           players: tuple[str, ...] | None) -> EntryField:
    optional = False
    if isinstance(type_, mi.UnionType):
        kinds = [t for t in type_.types if not isinstance(t, mi.NoneType)]
        optional = len(kinds) < len(type_.types)
        # A union of kinds (a number, or one by player): the simplest one first, which a table types most often.
        type_ = next((t for t in kinds if not isinstance(t, (mi.DictType, mi.StructType))), kinds[0])
    if isinstance(type_, mi.Metadata):
        type_ = type_.type
    offered = list(players) if players is not None else list(offer.choices) if offer is not None else []
    base = {"name": name, "required": required, "optional": optional, "default": default, "offered": offered,
            "player": players is not None}
    if isinstance(type_, mi.BoolType):
        return EntryField(kind="bool", **base)
    if isinstance(type_, mi.IntType):
        maximum = type_.le if offer is None or offer.maximum is None else min(offer.maximum, type_.le or offer.maximum)
        return EntryField(kind="number", minimum=type_.ge, maximum=maximum, **base)
    if isinstance(type_, mi.LiteralType):
        return EntryField(kind="choice", choices=list(type_.values), **base)
    if isinstance(type_, mi.StrType):
        return EntryField(kind="text", **base)
    if isinstance(type_, (mi.ListType, mi.VarTupleType, mi.SetType, mi.FrozenSetType)):
        item = _field("item", type_.item_type, True, None, offer, players)
        return EntryField(kind="list", item=item, **base)
    if isinstance(type_, mi.DictType):  # a value by player (factions, starting credits by player)
        return EntryField(kind="map", item=_field("value", type_.value_type, True, None, None, None), **base)
    if isinstance(type_, mi.StructType):
        parts = [_field(f.encode_name, f.type, f.required, _default(f), None, None) for f in type_.fields
                 if f.encode_name not in SKIPPED]
        return EntryField(kind="group", fields=parts, **base)
    return EntryField(kind="json", **base)
