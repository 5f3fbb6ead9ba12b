"""Event policies, and the events every game has.

Two kinds of event live in a game's history:

* **Recorded** events are what people wrote in the log, one per line
  (``turn_started``, ``correction``...). They are decoded from JSON Lines with
  ``forbid_unknown_fields``, because a misspelled field in a hand-written log is
  a mistake to report, not data to ignore.
* **Derived** events are what the domain decided from them: a commission, the
  end of a turn, a finding. They are stored after the line that caused them and
  carry its number in ``line``. Every field added to a derived event after the
  first release must have a default, so that stored events stay readable.

Both are frozen msgspec Structs: immutable, cheap, encoded by msgspec.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Any, ClassVar, NamedTuple, Union

import msgspec

from gamelog.domain.msgspec_wording import invalid_at

# --- The range of every integer a log may hold ---------------------------------------
# The store keeps totals in signed 64-bit integers (SQLite INTEGER, PostgreSQL BIGINT),
# so every integer of a log is bounded, and the bounds are chosen so that no sum of a
# log's values can pass 2**63 - 1: one line changes a count by at most an amount times a
# quantity (a deal's price times its size; a commission is a tenth of a deal), so after
# at most MAX_LINES lines any count is within MAX_TOTAL = 10**17, and what the views add
# up (a score of a few counts, a correction's differences) stays below 10**18 < 2**63 - 1.
# A real game is far inside them: its prices and scores are in the tens or thousands.

MAX_AMOUNT = 1_000_000
"""The largest amount one line may state: credits, a price, a cost, VP, points, trade goods, tokens."""

MAX_QUANTITY = 1_000
"""The largest number of things one line may deal in at once (``quantity``)."""

MAX_LINES = 100_000_000
"""The most lines a log may have (blank lines and comments count): so also the largest line number."""

MAX_TOTAL = MAX_AMOUNT * MAX_QUANTITY * MAX_LINES
"""The largest total a log can reach (10**17): the bound of a goal and of a score a line claims."""

PositiveInt = Annotated[int, msgspec.Meta(ge=1, le=MAX_AMOUNT, description="a whole number from 1 to 1,000,000")]
"""An amount or cost: a whole number above zero, at most :data:`MAX_AMOUNT`."""

NonNegativeInt = Annotated[int, msgspec.Meta(ge=0, le=MAX_AMOUNT, description="a whole number from 0 to 1,000,000")]
"""An amount that may be zero, at most :data:`MAX_AMOUNT`."""

SignedInt = Annotated[int, msgspec.Meta(ge=-MAX_AMOUNT, le=MAX_AMOUNT,
                                        description="a whole number from -1,000,000 to 1,000,000")]
"""A change that may be negative (a VP adjustment), within :data:`MAX_AMOUNT` either way."""

Quantity = Annotated[int, msgspec.Meta(ge=1, le=MAX_QUANTITY, description="a whole number from 1 to 1,000")]
"""How many things one line deals in, at most :data:`MAX_QUANTITY`."""

LineNumber = Annotated[int, msgspec.Meta(ge=1, le=MAX_LINES, description="a line number, from 1 to 100,000,000")]
"""A line of the log (what a correction voids), at most :data:`MAX_LINES`."""

Goal = Annotated[int, msgspec.Meta(ge=1, le=MAX_TOTAL, description="a whole number from 1 to 10**17")]
"""A total that ends the game (a goal, a threshold), at most :data:`MAX_TOTAL`."""

Score = Annotated[int, msgspec.Meta(ge=-MAX_TOTAL, le=MAX_TOTAL, description="a whole number from -10**17 to 10**17")]
"""A total a line states (a claimed score, a declared final score), within :data:`MAX_TOTAL` either way."""

Name = Annotated[str, msgspec.Meta(min_length=1)]

MAX_PLAYERS = 100
"""The most players a game's header may name: what a report holds grows with the players (a column, a series,
a field of every state each), so their number is bounded as the lines are (``MAX_LINES``)."""

PLAYER: dict[str, frozenset[str]] = {"player": frozenset()}
"""``Recorded.PLAYER_FIELDS`` of an event whose only player field is ``player``."""

CORRECTION_RULE = "LOG-CORRECTION"
"""A correction voids an earlier event line: not the header, not a correction, and no line twice."""


FORMAT_VERSION = 1
"""The log format's version this reader reads: a header may say ``"version": 1``; a higher one is refused."""


class Recorded(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    tag_field="type",
    forbid_unknown_fields=True,
    omit_defaults=True,
):
    """Base of every object of a recorded log, tagged by its ``type``.

    ``at`` (when it was recorded) and ``source`` (where a converter took it
    from) may stand on any object; they are kept and shown, never used to order
    events: the line order is the order of play.

    ``PLAYER_FIELDS`` names the fields that must hold a player of the header,
    with the other words each may hold instead (``bank``); the reader checks
    them, so rules can trust every name they see.
    """

    PLAYER_FIELDS: ClassVar[dict[str, frozenset[str]]] = {}

    at: str | None = None
    source: str | None = None


class Derived(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """Base of every event the domain decides; ``line`` is the log line that caused it."""

    line: int


class Tally(Derived, frozen=True, kw_only=True):
    """A derived event that adds to a running count: credits, VP, cards, tokens...

    A correction decides the log again without the voided line and stores,
    for each count, the difference between what the rules decide now and what
    they decided before (:meth:`net`), so that a projection adding these
    events up reaches the corrected totals. Events of one count share a
    :meth:`key`: the event's class and every field but the line, the amount,
    the rule and the reason.
    """

    AMOUNT: ClassVar[str] = "count"
    _UNKEYED: ClassVar[frozenset[str]] = frozenset({"line", "count", "delta", "rule", "reason"})

    def key(self) -> tuple:
        """What this event counts: its class and its identifying fields."""
        return (type(self),) + tuple(getattr(self, f) for f in self.__struct_fields__ if f not in self._UNKEYED)

    def amount(self) -> int:
        """How much it adds to its count (negative: takes away)."""
        return getattr(self, self.AMOUNT)

    def net(self, line: int, amount: int, reason: str) -> list["Tally"]:
        """The events, caused by ``line``, that add ``amount`` to this event's count."""
        changes: dict[str, object] = {"line": line, self.AMOUNT: amount}
        if "rule" in self.__struct_fields__:
            changes["rule"] = CORRECTION_RULE
        if "reason" in self.__struct_fields__:
            changes["reason"] = reason
        return [msgspec.structs.replace(self, **changes)]


class Counted(Tally, frozen=True, kw_only=True):
    """Something gained (``count`` > 0) or lost (< 0): a token, a card, a reveal."""

    count: int = 1


class Change(Tally, frozen=True, kw_only=True):
    """A player's running count (credits, VP, trade goods...) changes by ``delta`` under ``rule``.

    Each game names its counts with subclasses of its own (one for its
    credits, one for its VP...); a count changes only through its class, so
    the projections add up exactly what the rules decided.
    """

    AMOUNT = "delta"
    player: str
    delta: int
    rule: str
    reason: str


_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ].*)?", re.S)
"""The start ISO 8601's extended form gives every date and time (``2025-03-12``), which ``stats --since`` compares."""


def is_iso_8601(text: str) -> bool:
    """Whether ``text`` is a date, or a date and a time, as ISO 8601 writes them: ``2025-03-12``,
    ``2025-03-12T19:30:00Z``, ``2025-03-12 19:30+01:00`` (not ``12/03/2025``, ``yesterday evening``)."""
    if not _ISO_DATE.fullmatch(text):
        return False
    try:
        datetime.fromisoformat(text)
    except ValueError:
        return False
    return True


class GameHeader(Recorded, kw_only=True):
    """The first line of every log: the game's ``id`` in a store and its players in seating order.

    Each game's ``Header`` adds ``game`` and its ``setup``, and extends
    :meth:`check` (raising ``ValueError`` with the path, which the reader turns
    into an input error of the header line).
    """

    id: Name
    players: Annotated[list[Name], msgspec.Meta(extra_json_schema={"minItems": 1, "maxItems": MAX_PLAYERS})]
    """The players in seating order: from 1 to :data:`MAX_PLAYERS`, each named once (checked by :meth:`check`, in
    gamelog's words; the schema says the same)."""
    version: Annotated[int, msgspec.Meta(ge=1, le=FORMAT_VERSION, description="the log format's version")] = 1
    """The log format's version (optional, 1 by default; omitted when 1, so a stored header is unchanged)."""

    def __post_init__(self) -> None:
        self.check()

    def same_game(self, other: "GameHeader") -> bool:
        """Whether ``other`` names the same game as this header: equal but for the setup's ``ADDED_LATER`` fields
        (added to the log format later, filled by converters, read by no rule), so that a later export of a game
        stored before a converter filled them still extends it rather than conflicts."""
        return self == other or _identity(self) == _identity(other)

    def check(self) -> None:
        """Raise ``ValueError`` (with the field's path) when the header is not a game's."""
        if not self.players:
            raise invalid_at("a game needs at least one player", "$.players")
        if len(self.players) > MAX_PLAYERS:
            raise invalid_at(f"a game has at most {MAX_PLAYERS} players, this header names {len(self.players):,}",
                             "$.players")
        if len(set(self.players)) != len(self.players):
            raise invalid_at("player names must be unique", "$.players")


def _identity(header: GameHeader) -> GameHeader:
    """``header`` with its setup's ``ADDED_LATER`` fields at their defaults."""
    setup = getattr(header, "setup", None)
    shown = getattr(type(setup), "ADDED_LATER", ())
    if not shown:
        return header
    defaults = {f.name: f.default if f.default is not msgspec.NODEFAULT else f.default_factory()
                for f in msgspec.structs.fields(setup) if f.name in shown}
    return msgspec.structs.replace(header, setup=msgspec.structs.replace(setup, **defaults))


class PlayerRecorded(Recorded, kw_only=True):
    """A recorded event done by (or to) one player of the header, named in ``player``."""

    PLAYER_FIELDS = PLAYER
    player: Name


# --- Recorded events every game has -------------------------------------------------


class TurnStarted(PlayerRecorded, tag="turn_started"):
    """That player's turn begins."""



class TurnEnded(PlayerRecorded, tag="turn_ended"):
    """That player's turn ends; end-of-turn rules are checked here."""



class Correction(Recorded, tag="correction"):
    """The event at line ``voids`` is void: kept in the log, without effect on state.

    ``replacement``, when given, is the line it should have been (one JSON object of the game's log, no
    correction): decided at the voided line's place, as if it had been written there, and every later line
    decided again after it (``domain.corrections``). The reader checks it as it checks any line.
    """

    voids: LineNumber
    reason: str
    replacement: dict[str, Any] | None = None


class Note(Recorded, tag="note"):
    """A remark kept in the log and shown in reports."""

    PLAYER_FIELDS = PLAYER
    text: str
    player: str | None = None


class ScoreClaimed(PlayerRecorded, tag="score_claimed"):
    """What the table believed a player's ``score`` was at this point.

    ``vp`` and ``net_worth`` are its older names, from logs written before
    ``score``: they stay valid and mean the same (docs/log-format.md), so a
    claim states exactly one of the three. A line is stored as written, in
    the field it names.
    """

    STATED: ClassVar[tuple[str, ...]] = ("score", "vp", "net_worth")
    """The fields a claim may state its score in: ``score``, then its older names."""

    score: Score | None = None
    vp: Score | None = None
    net_worth: Score | None = None

    def __post_init__(self) -> None:
        if sum(getattr(self, name) is not None for name in self.STATED) != 1:
            raise ValueError("score_claimed needs exactly one of " + ", ".join(f"`{n}`" for n in self.STATED))

    def stated(self) -> tuple[str, int]:
        """(the field the score is stated in, the score claimed)."""
        return next((name, value) for name in self.STATED if (value := getattr(self, name)) is not None)


COMMON_EVENTS = (TurnStarted, TurnEnded, Correction, Note, ScoreClaimed)


# --- Derived events every game has --------------------------------------------------


class FindingRaised(Derived, frozen=True, kw_only=True):
    """A rule finding on a line: stored so that an audit reads it back.

    ``severity`` is ``violation`` (the log breaks the rule), ``unverifiable``
    (the log lacks what the rule needs) or ``warning`` (legal but suspicious).
    ``open_at_end`` marks what a rule requires at once and the log ended
    before doing (a fourth secret objective drawn on the last line of play):
    stored with the log's last line, and made moot by the first line of a later
    import that extends the log, whose lines the rule then decides as usual.
    """

    rule: str
    severity: str
    message: str
    player: str | None = None
    open_at_end: bool = False


class TurnBegan(Derived, frozen=True, kw_only=True):
    """Turn number ``turn`` (counted from 1) is ``player``'s."""

    player: str
    turn: int


class TurnFinished(Derived, frozen=True, kw_only=True):
    """The turn is over; ``rule`` and ``cause`` say what ended it."""

    player: str
    turn: int
    rule: str
    cause: str


class LineVoided(Derived, frozen=True, kw_only=True):
    """The correction at ``line`` voids line ``voided``."""

    voided: int
    reason: str


class GameWon(Derived, frozen=True, kw_only=True):
    """The game is over; ``winner`` won (None when it could not be decided) for ``reason``."""

    winner: str | None
    rule: str
    reason: str


class FindingMooted(Derived, frozen=True, kw_only=True):
    """A finding stored for line ``about`` that the correction at ``line`` made moot.

    The finding stays in the history (the table saw it); deciding the log
    again without the voided line no longer raises it. A finding open at the
    end of the log (``FindingRaised.open_at_end``) is made moot the same way by
    the first line that extends the log (``line``, which is then no correction).
    """

    about: int
    rule: str
    severity: str
    message: str
    player: str | None = None


class StateRestated(Derived, frozen=True, kw_only=True):
    """The state after the correction at ``line``, decided again as if line ``voided`` had never been written.

    ``snapshot`` is the game's state encoded (``GameState.snapshot``), so that
    a stored game replays to it without deciding again; ``turn`` and ``ended``
    repeat what projections need of it (the turn now under way, the end if
    the game is over after the correction).
    """

    voided: int
    turn: int
    ended: GameWon | None
    snapshot: bytes


class ScoreChecked(Derived, frozen=True, kw_only=True):
    """A ``score_claimed`` line compared with the computed score at that line."""

    player: str
    claimed: int
    computed: int


COMMON_DERIVED = (FindingRaised, TurnBegan, TurnFinished, LineVoided, GameWon, ScoreChecked, FindingMooted, StateRestated)
"""The derived events every game stores."""


# --- A game's event lists, made from its classes --------------------------------------


class GameEvents(NamedTuple):
    """What a game's ``events`` module gives its ``RULES``, made by :func:`game_events`.

    ``line_recorded`` is the game's ``LineRecorded`` (one recorded line as
    stored: the header or an event); ``recorded`` every type a log line after
    the header may have (:data:`COMMON_EVENTS` and the game's own);
    ``stored`` every class the store may hold for the game (``LineRecorded``,
    the game's derived events, :data:`COMMON_DERIVED`).
    """

    header: type
    line_recorded: type
    recorded: tuple[type, ...]
    stored: tuple[type, ...]


def game_events(module: str, header: type, recorded: tuple[type, ...], derived: tuple[type, ...]) -> GameEvents:
    """The event lists of the game whose ``events`` module is ``module``, and its ``LineRecorded`` class.

    ``recorded`` are the game's own line types, ``derived`` its own derived
    events. The ``LineRecorded`` class is made here but belongs to ``module``
    (which must bind it to the name ``LineRecorded``): the store names a class
    by its module and name, so every game's recorded lines keep the topic
    ``<game package>.events:LineRecorded`` they have always had.
    """
    every = COMMON_EVENTS + tuple(recorded)
    line_recorded = msgspec.defstruct(
        "LineRecorded", [("event", Union[(header, *every)])], bases=(Derived,), module=module,
        frozen=True, kw_only=True, namespace={"__doc__": "A log line as recorded (the header, or one event)."})
    return GameEvents(header, line_recorded, every, (line_recorded, *derived, *COMMON_DERIVED))
