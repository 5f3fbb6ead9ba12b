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
"""Fields every line may hold that the table never types: a converter's provenance, not a move (a line whose own
``source`` is required asks for it)."""
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
    offered: list[Any] = []
    player: bool = False
    item: "EntryField | None" = None
    fields: list["EntryField"] = []
    value: Any = None
    """The value the state or the reference data fix, filled in (null: nothing fixed)."""
    values: list[Any] | None = None
    """The only values the rules allow now (null: the rules do not restrict the field); ``by`` names the rule."""
    by: str | None = None
    follows: str | None = None
    """Another field of the form whose value fixes this one: ``value_for`` maps each of its values to this field's
    value, ``maximum_for`` to this field's most (a good's price, how many of it the holds take)."""
    value_for: dict[str, Any] = {}
    maximum_for: dict[str, int] = {}
    open_list: bool = False
    """``values`` is a deck's list that tells nothing of another player's hand (a secret objective to draw: the
    deck less what this player may know is out of it); it is shown only to the player it is made for."""


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


class Next(Document, kw_only=True):
    """What comes next as the rules see it: ``player``, who is due (null: nobody in particular, or the game is
    over); ``starts_turn``: their turn has not started yet (the next line of play starts it); ``over``: the game
    has ended (nothing more is played)."""

    player: str | None
    starts_turn: bool
    over: bool


class EntryForms(Document, kw_only=True):
    """What the recorder shows at one point of a game: whose turn it is (``due``: under way, or next; ``next``
    says which; ``active``: the player whose turn is under way, None between turns and once the game is over), the
    lines of the log so far, a form for each kind of line, and the steps of the turn flow offered now (``turn``)."""

    game: str
    id: str
    players: list[str]
    due: str | None
    lines: int
    forms: list[EntryForm]
    next: Next | None = None
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


def offers_telling_nothing(forms: EntryForms, hidden: Callable[[str], bool], *, own: bool) -> EntryForms:
    """``forms`` for a viewer who may not see the names ``hidden`` says: a field whose offers hold one of them
    offers nothing (it is typed), since the rest of its list would tell which one it is (the place where the name
    stands, or where it is missing). An open list (``open_list``: a deck less what its player may know) is kept for
    that player (``own``: the forms were made for the viewer's own player), and offers nothing to anyone else,
    whose view its missing cards would tell."""

    def shown(values: list[Any] | None, field: EntryField) -> bool:
        if field.open_list:
            return own
        return not any(isinstance(v, str) and hidden(v) for v in values or ())

    def told(field: EntryField) -> EntryField:
        item = told(field.item) if field.item is not None else None
        offered = field.offered if shown(field.offered, field) else []
        values = field.values if shown(field.values, field) else None
        value = field.value if not (isinstance(field.value, str) and hidden(field.value)) else None
        value_for = {k: v for k, v in field.value_for.items() if not hidden(k)}
        return msgspec.structs.replace(field, offered=offered, values=values, value=value, value_for=value_for,
                                       item=item, fields=[told(f) for f in field.fields])

    return msgspec.structs.replace(forms, forms=[msgspec.structs.replace(form, fields=[told(f) for f in form.fields])
                                                 for form in forms.forms])


def open_lists_kept(seen: EntryForms, told: EntryForms) -> EntryForms:
    """``seen`` (the forms as a view shows them, every hidden name replaced) with each open list of ``told`` (the
    same forms before the view) put back as it was: a deck's list less what its own player may know is the same
    whatever the other hands hold, so no name in it is another player's secret, and a name replaced in it would
    tell where another hand's card is."""

    def kept(field: EntryField, before: EntryField) -> EntryField:
        if before.open_list:
            return before
        item = kept(field.item, before.item) if field.item is not None and before.item is not None else field.item
        return msgspec.structs.replace(field, item=item, fields=[kept(f, b) for f, b in zip(field.fields, before.fields)])

    return msgspec.structs.replace(seen, forms=[
        msgspec.structs.replace(form, fields=[kept(f, b) for f, b in zip(form.fields, before.fields)])
        for form, before in zip(seen.forms, told.forms)])


def header_form(header_type: type) -> EntryForm:
    """The form of a game's header (what a new game needs: its id, its players in seat order, its setup)."""
    return _form(header_type, {}, ())


def _tag(event_type: type) -> str:
    return event_type.__struct_config__.tag


def _form(event_type: type, offers: Mapping[str, Offer], players: tuple[str, ...]) -> EntryForm:
    info = mi.type_info(event_type)
    player_fields = getattr(event_type, "PLAYER_FIELDS", {})
    # A player field offers the players and the other words it may hold (the bank may be paid: MOV-PAY).
    fields = [_field(f.encode_name, f.type, f.required, _default(f), offers.get(f.encode_name),
                     players + tuple(sorted(player_fields[f.encode_name])) if f.encode_name in player_fields else None)
              for f in info.fields if not (f.encode_name in SKIPPED and not f.required) and not _fixed(f.type)]
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
    offered = list(offer.offered) if offer is not None and offer.offered else list(players or ())
    base = {"name": name, "required": required, "optional": optional, "default": default, "offered": offered,
            "player": players is not None, **_rules_answer(offer)}
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
        return EntryField(kind="list", item=item, **(base | {"value": None, "values": None, "by": None}))
    if isinstance(type_, mi.DictType):  # a value by player (factions, starting credits by player)
        return EntryField(kind="map", item=_field("value", type_.value_type, True, None, None, None), **base)
    if isinstance(type_, mi.StructType):
        parts = [_field(f.encode_name, f.type, f.required, _default(f), None, None) for f in type_.fields
                 if f.encode_name not in SKIPPED]
        return EntryField(kind="group", fields=parts, **base)
    return EntryField(kind="json", **base)


def _rules_answer(offer: Offer | None) -> dict[str, Any]:
    """The fields of an :class:`EntryField` that say what the rules allow and the data fix (``domain.entries``)."""
    if offer is None:
        return {}
    return {"value": offer.value, "values": list(offer.values) if offer.values is not None else None,
            "by": offer.by, "follows": offer.follows, "value_for": dict(offer.value_for),
            "maximum_for": dict(offer.maximum_for), "open_list": offer.open_list}
