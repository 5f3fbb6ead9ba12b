"""The JSON documents the CLI prints (README "JSON output"), as msgspec Structs, and how they are encoded.

One Struct per document and per part of one; their fields keep the names and
the order of the JSON that scripts already read, so that encoding them gives
the same bytes as before they were typed. ``replay``'s document is each
game's own (``domain.<game>.replay_document``, on ``domain.replay_document.Replay``).
``gamelog schema NAME`` prints the JSON Schema of ``document_type(NAME)``.
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator, Union

import msgspec
from msgspec import UNSET, UnsetType

from gamelog.domain.replay_document import Document, Replay
from gamelog.domain.games import GAMES

# -- validate ---------------------------------------------------------------------


class InputErrorEntry(Document, kw_only=True):
    """An input error: its line (null for the file itself, such as a missing file), JSON path and message."""

    line: int | None
    path: str
    message: str


class Finding(Document, kw_only=True):
    """A rule finding on a line: the rule's ID, ``violation``, ``unverifiable`` or ``warning``, whose, and what."""

    line: int
    rule: str
    severity: str
    player: str | None
    message: str

    @classmethod
    def of(cls, raised: Any) -> "Finding":
        """The finding a stored ``FindingRaised`` event says (the one place that reads one into a document)."""
        return cls(line=raised.line, rule=raised.rule, severity=raised.severity, player=raised.player,
                   message=raised.message)


class FileCheck(Document, kw_only=True):
    """One log that ``validate`` read: every input error and every finding."""

    path: str
    errors: list[InputErrorEntry]
    findings: list[Finding]


class Validation(Document, kw_only=True):
    """``validate --format json``: one entry per log named."""

    files: list[FileCheck]
    version: int = 1
    """The document's version: 1. Fields are added within a version; a change that is not an addition raises it."""


# -- games ------------------------------------------------------------------------


class GameEntry(Document, kw_only=True):
    """A stored game: its id, game, players, events and last line, its end, its stored versions and fingerprint."""

    id: str
    game: str
    players: list[str]
    events: int
    last_line: int
    finished: bool
    winner: str | None
    versions: int
    fingerprint: str
    at: str | None = None
    """The header's date (``at``), as the log gives it; null where it gives none."""
    sides: dict[str, str] = {}
    """Each player's side (the faction they play), in seat order; empty in a game whose players play no side."""


class Games(Document, kw_only=True):
    """``games --format json``."""

    games: list[GameEntry]
    version: int = 1
    """The document's version: 1. Fields are added within a version; a change that is not an addition raises it."""


# -- report -----------------------------------------------------------------------

Standings = dict[str, dict[str, int | None]]
"""Player -> measure -> value, the score (its ``score_name``) last; null for a measure the log's source does not
record (the report's ``not_recorded``)."""


class Result(Document, kw_only=True):
    """How the game ended, if it did: the winner (null: none), the line, the rule and the reason."""

    finished: bool
    winner: str | None
    line: int | None
    rule: str | None
    reason: str | None


class FindingCounts(Document, kw_only=True):
    """How many findings of each severity the game has."""

    violation: int
    unverifiable: int
    warning: int


class MeasureChange(Document, kw_only=True):
    """A change of a running total: who or what, which measure, by how much, the total after it, and why. The
    total is null for a measure the log's source does not record (the report's ``not_recorded``): the log holds
    the change, not what it was added to."""

    subject: str
    measure: str
    delta: int
    value: int | None
    rule: str
    reason: str


class LineFinding(Document, kw_only=True):
    """A finding as a report's line lists it (the line is the one it sits on)."""

    rule: str
    severity: str
    player: str | None
    message: str


class Line(Document, kw_only=True):
    """One recorded line: who, which event, in words, whether a correction voided it, its changes and findings."""

    line: int
    player: str | None
    type: str
    text: str
    voided: bool
    changes: list[MeasureChange]
    findings: list[LineFinding]


class Period(Document, kw_only=True):
    """One turn or round (0: before the first): who acted, its lines, the standings after it, and the board.

    ``board`` is the counts of what the players share (null for a game without
    one); ``forum`` is the same value under its old name, deprecated: it is
    kept for one schema version (docs/cli.md).
    """

    number: int
    players: list[str]
    first_line: int
    last_line: int
    lines: list[Line]
    standings: Standings
    board: dict[str, int] | None
    forum: dict[str, int] | None


class Report(Document, kw_only=True):
    """``report --format json``: the game turn by turn (or round by round)."""

    game: str
    id: str
    players: list[str]
    by: str
    score: str
    goal: int
    result: Result
    findings: FindingCounts
    opening: Standings
    periods: list[Period]
    not_recorded: list[str] | UnsetType = UNSET
    """The measures of ``opening`` and each period's standings that the log's source does not record (the header's
    ``not_recorded``, as the game reads it): their totals are not known. Absent when the source records them all."""
    states: list[Replay] | UnsetType = UNSET
    """The state after the header, then after each line of ``periods`` in order (``replay --line N``'s document):
    what the HTML report's replay shows. Only the HTML report asks for it; ``--format json`` leaves it out."""
    reconciliation: Reconciliation | UnsetType = UNSET
    """The declared result set against the computed one (``reconcile``'s document), when the log declares one:
    a section of the HTML report; ``--format json`` leaves it out (``reconcile --format json`` gives it)."""
    version: int = 1
    """The document's version: 1. Fields are added within a version; a change that is not an addition raises it."""


# -- audit ------------------------------------------------------------------------


class ScoreEntry(Document, kw_only=True):
    """One change of a player's score: its line, its points, where they come from, the rule, the total after it."""

    line: int
    points: int
    source: str
    rule: str
    total: int


class AuditFinding(Finding, kw_only=True):
    """A finding with its rule's text, whether the seeds state the rule and where it comes from, what the log says
    on its line,
    for a ``CLAIM`` the derivation of the score up to that line, and ``moot_by`` once a correction made it moot."""

    rule_text: str
    in_seeds: bool
    rule_from: str
    """Where the rule comes from, in words (``domain.ruletext.RuleText.rule_from``): the rulebook, or gamelog's
    reading where it is silent, and which part; said apart from ``rule_text``, which holds the rule alone."""
    log: str | None
    derivation: list[ScoreEntry] | UnsetType = UNSET
    moot_by: int | UnsetType = UNSET
    """The line that made this finding moot: a correction (the log decided again no longer raises it), or, for a
    finding open at the end of an earlier import, the first line that extends the log."""
    moot_why: str | UnsetType = UNSET
    """Why it is moot, in words (with ``moot_by``)."""
    not_recorded: str | UnsetType = UNSET
    """What the log's source does not record, so that the rule cannot be checked on this line (the header's
    ``not_recorded`` name: ``secret_objectives``); there only for such an unverifiable finding. The text and
    Markdown audits group these by it, under the other findings."""


class Score(Document, kw_only=True):
    """A player's score and the entries that make it."""

    total: int
    entries: list[ScoreEntry]


class CorrectionEntry(Document, kw_only=True):
    """A correction: its line, the line it voids, why, and what the voided line said."""

    line: int
    voids: int
    reason: str
    voided_line: str | None


class Audit(Document, kw_only=True):
    """``audit --format json``: every finding, how each score was made, the corrections, the fingerprint."""

    game: str
    id: str
    score: str
    findings: list[AuditFinding]
    scores: dict[str, Score]
    corrections: list[CorrectionEntry]
    fingerprint: str | UnsetType = ""
    """The game's fingerprint: the chain head of its whole history (``verify``). Absent from a player's view that
    hides anything (docs/secrets.md): computed over what it hides, it would confirm a guess of it."""
    view_fingerprint: str | UnsetType = UNSET
    """In a player's view that hides anything, the view's own fingerprint: the chain head of the history as the
    view shows it (``Game.as_player(...).history()``)."""
    reconciliation: Reconciliation | UnsetType = UNSET
    """The declared result set against the computed one (``reconcile``'s document), when the log declares one."""
    version: int = 1
    """The document's version: 1. Fields are added within a version; a change that is not an addition raises it."""


# -- audit --without (what-if) ----------------------------------------------------


class StandingsChange(Document, kw_only=True):
    """The standings after one turn or round (``turn`` or ``round``, as the report groups) that differ,
    as recorded and as if the lines were void (null: the game never reaches that period)."""

    turn: int | UnsetType = UNSET
    round: int | UnsetType = UNSET
    actual: Standings
    what_if: Standings | None

    @property
    def number(self) -> int:
        """The turn's or the round's number, whichever the report grouped by."""
        return self.round if self.turn is UNSET else self.turn


class Results(Document, kw_only=True):
    """The end as recorded, and as if the lines were void."""

    actual: Result
    what_if: Result


class WhatIf(Document, kw_only=True):
    """``audit --without LINES --format json``: what changes if those lines were void."""

    game: str
    id: str
    without: list[int]
    score: str
    findings_gone: list[Finding]
    findings_new: list[Finding]
    standings: list[StandingsChange]
    result: Results
    winner_changes: bool
    version: int = 1
    """The document's version: 1. Fields are added within a version; a change that is not an addition raises it."""


# -- verify -----------------------------------------------------------------------


class Problem(Document, kw_only=True):
    """One break in a stored history: the stored event (version) where it is, its kind, what it means.

    A problem in what is derived from the events names its ``table`` (the
    catalog ``gamelog_games``, a view, the views' tracking table); its
    ``version`` is then 0.
    """

    version: int
    kind: str
    message: str
    table: str | None = None


class Verification(Document, kw_only=True):
    """``verify --format json``: whether the stored history is intact, its events, fingerprint and problems."""

    game: str
    intact: bool
    versions: int
    fingerprint: str
    problems: list[Problem]
    version: int = 1
    """The document's version: 1. Fields are added within a version; a change that is not an addition raises it."""


class LogMatch(Document, kw_only=True):
    """``verify LOG --against GAME --format json``: whether the log still matches the stored game, else what differs."""

    log: str
    against: str
    matches: bool
    difference: str | None
    version: int = 1
    """The document's version: 1. Fields are added within a version; a change that is not an addition raises it."""


# -- reconcile --------------------------------------------------------------------


class Declaration(Document, kw_only=True):
    """One declaration of the result: where it is (``LOG:LINE`` of a log line, ``FILE:LINE`` of a results table),
    who declares it (``by``: the line's reason, or the table), what (``kind``: ``winner``, ``score``,
    ``adjustment``, ``win`` for a table's win column) and its own ``value``."""

    where: str
    by: str
    kind: str
    player: str | None
    value: int | str | bool | None
    origin: str | None = None


class Adjustment(Document, kw_only=True):
    """A declared adjustment of one source of points (a line of the log that declares one), as the rules
    weighed it on its ``line``: the points ``declared`` from ``origin`` against those the log ``held``;
    ``points`` is the difference, ``voids`` the lines the what-if leaves out, ``added`` the points no line
    holds (counted as declared)."""

    line: int
    origin: str
    declared: int
    held: int
    points: int
    voids: list[int]
    added: int


class PlayerReconciliation(Document, kw_only=True):
    """One player: the ``computed`` score and its ``sources`` (each source's points; ``source_lines`` the lines
    of each), the ``declared`` score (null: none declared), the ``difference`` (declared minus computed), the
    declared ``adjustments`` and the score ``with_adjustments`` applied (a what-if)."""

    player: str
    faction: str | None
    computed: int
    declared: int | None
    difference: int | None
    sources: dict[str, int]
    adjustments: list[Adjustment]
    with_adjustments: int
    source_lines: dict[str, list[int]] = {}


class Reconciliation(Document, kw_only=True):
    """``reconcile GAME --format json``: a game's declared result set against the one its log computes.

    ``game`` is the game's id (``rules`` names the game), ``declared_from`` every declaration, ``winner_agrees``
    whether the declared winner (null: none declared) is the computed one (true when none is declared), and
    ``winner_with_adjustments`` who wins once the declared adjustments are applied (the what-if of
    ``audit --without``), ``declared_winner_wins_with_adjustments`` whether that is the declared winner (null:
    none declared). ``matched_by`` says how a results table's rows were matched to the game (``id``,
    ``players and factions``; null without a table), ``table_game`` what the table calls it.
    """

    game: str
    declared_from: list[Declaration]
    computed_winner: str | None
    declared_winner: str | None
    winner_agrees: bool
    players: list[PlayerReconciliation]
    rules: str = ""
    score: str = ""
    declared: bool = False
    agrees: bool = True
    winner_with_adjustments: str | None = None
    declared_winner_wins_with_adjustments: bool | None = None
    matched_by: str | None = None
    table_game: str | None = None
    version: int = 1
    """The document's version: 1. Fields are added within a version; a change that is not an addition raises it."""


class StoreReconciliation(Document, kw_only=True):
    """``reconcile --declared FILE --format json`` (no GAME): every game of a results table matched to a stored
    game and reconciled (``games``), and the ids of those that disagree (``disagree``: a score or the winner)."""

    declared: str
    games: list[Reconciliation]
    disagree: list[str]
    version: int = 1
    """The document's version: 1. Fields are added within a version; a change that is not an addition raises it."""
    unmatched: list[str] = msgspec.field(default_factory=list)
    """Each game of the table that matches no stored game, as ``FILE:LINE: what is wrong`` (its first row): the
    command lists the others and exits 2."""


# -- encoding and schemas ---------------------------------------------------------

_encoder = msgspec.json.Encoder()


def encode(document: msgspec.Struct, indent: int = 0) -> str:
    """The document as JSON text: one line with a space after each ``:`` and ``,``, or indented by ``indent``.

    These are the spacings of ``json.dumps`` (which printed the documents
    before they were typed), so scripts see the same bytes.
    """
    return msgspec.json.format(_encoder.encode(document), indent=indent).decode("utf-8")


def encode_pieces(document: msgspec.Struct, indent: int = 0) -> Iterator[str]:
    """:func:`encode` of ``document`` in pieces, the same text: a field holding rows read as they are written
    (``domain.replay_document.StreamedRows``, a list as long as a game) is written a row at a time, the rest at once.

    Each such field is encoded as an empty list first (a top-level key, at the indent of one level: found once
    in the text, as a string holds no line break); its rows, each encoded alone, then take the place of ``[]``,
    laid out as ``msgspec.json.format`` lays out a list of objects. On one line (``indent`` 0) a key is not
    told from a nested one's: the rows are read whole then.
    """
    from gamelog.domain.replay_document import StreamedRows, held

    names = {f.name: f.encode_name for f in msgspec.structs.fields(type(document))}
    lazy = [name for name in document.__struct_fields__ if isinstance(getattr(document, name), StreamedRows)]
    if not lazy or not indent:
        yield encode(held(document), indent)
        return
    text = encode(msgspec.structs.replace(document, **{name: [] for name in lazy}), indent)
    at = 0
    for name in lazy:
        key = _encoder.encode(names[name]).decode("utf-8")
        mark = f"\n{' ' * indent}{key}: []"
        found = text.index(mark, at) + len(mark) - 1  # the "]" of "[]"
        yield text[at:found - 1]
        yield from _list_pieces(getattr(document, name), indent)
        at = found + 1
    yield text[at:]


def _list_pieces(rows: Iterable[Any], indent: int) -> Iterator[str]:
    """A top-level field's list as :func:`encode` writes it (``indent`` 1 or more), a row at a time (``[]`` when
    it has none)."""
    inner = " " * (2 * indent)
    opened = False
    for row in rows:
        body = msgspec.json.format(_encoder.encode(row), indent=indent).decode("utf-8")
        yield ("," if opened else "[") + "\n" + inner + body.replace("\n", "\n" + inner)
        opened = True
    yield "\n" + " " * indent + "]" if opened else "[]"


def replay_type() -> Any:
    """The type of ``replay``'s document: the union of every game's, told apart by ``game``."""
    types = tuple(GAMES[name].engine.STATE.DOCUMENT for name in GAMES)
    return types[0] if len(types) == 1 else Union[types]  # a runtime union, for msgspec


# -- append (and the recorder's POST /api/games/{id}/lines) ---------------------------------------------


class EntryResult(Document, kw_only=True):
    """``appended``: the entry is stored, at ``line`` (the last of its lines); ``lines``: the log's lines now;
    ``findings``: the entry's, as ``validate --format json`` gives them, and ``rules`` the text of each rule they
    cite; ``moved``: not stored because the game moved past the lines it was made against; ``errors``: the reader's
    input errors (nothing decided)."""

    appended: bool
    line: int | None = None
    lines: int
    findings: list[Finding] = []
    rules: dict[str, str] = {}
    moved: bool = False
    errors: list[InputErrorEntry] = []
    version: int = 1
    """The document's version: 1. Fields are added within a version; a change that is not an addition raises it."""


# -- the recorder's log (GET /api/games/{id}/history, its stream) ------------------------------------------------


class LogLine(Document, kw_only=True):
    """One line of the log as a viewer sees it: its number, ``type``, player, words, the line itself (``entry``:
    the log's JSON object), the line that voided it (``voided_by``), and its findings."""

    line: int
    type: str
    player: str | None
    words: str
    entry: dict[str, Any]
    voided_by: int | None = None
    findings: list[Finding] = []


class LogLines(Document, kw_only=True):
    """The log's lines after a point as a viewer sees them, and the stored version they reach (``version``: what
    to read after next time)."""

    id: str
    lines: list[LogLine]
    version: int


NAMES = ("validate", "games", "replay", "report", "stats", "stats-explain", "audit", "what-if", "verify",
         "verify-against", "reconcile", "reconcile-store", "append")
"""Each document by the name ``gamelog schema NAME`` takes, in the order of the commands that print them."""

_TYPES: dict[str, Any] = {
    "validate": Validation,
    "games": Games,
    "report": Report,
    "audit": Audit,
    "what-if": WhatIf,
    "verify": Verification,
    "verify-against": LogMatch,
    "reconcile": Reconciliation,
    "reconcile-store": StoreReconciliation,
    "append": EntryResult,
}


def stats_type() -> Any:
    """The type of ``stats``' document: the union of every game's that declares statistics, told apart by ``game``."""
    import typing

    types = tuple(typing.get_type_hints(GAMES[name].statistics.document)["return"]
                  for name in GAMES if GAMES[name].statistics is not None)
    return types[0] if len(types) == 1 else Union[types]  # a runtime union, for msgspec


def document_type(name: str) -> Any:
    """The type of the document ``name`` (one of :data:`NAMES`); raises KeyError for another name."""
    if name not in NAMES:
        raise KeyError(name)
    if name == "stats-explain":
        from gamelog.projections.reports.statistics import Explanation

        return Explanation
    return replay_type() if name == "replay" else stats_type() if name == "stats" else _TYPES[name]
