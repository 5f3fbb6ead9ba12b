"""A results table: the declared result of one game or many, as an archive keeps them (CSV).

Each row is one player of one game: the game, the player or their faction,
the declared score, whether they won. The columns are found by their
headings (case, spaces and underscores aside), the Hall of Records' first
(``GameID``, ``Player``, ``Faction``, ``Score``, ``Win``: its
``ti4_master_data.csv``), then other usual names (:data:`HEADINGS`); a
table of another layout names its columns with a mapping
(``game=Match,player=Who,score=Final,win=Won``, ``gamelog reconcile
--columns``). Other columns are not read. A row's numbers are checked here;
whether its game and player exist is the matching's (``reconciling``).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from .errors import BadInput

FIELDS = ("game", "player", "faction", "score", "win")
"""What a row may say, by the names a column mapping uses."""

HEADINGS: dict[str, tuple[str, ...]] = {
    "game": ("gameid", "game", "id", "file"),
    "player": ("player", "name"),
    "faction": ("faction",),
    "score": ("score", "vp", "points", "finalscore"),
    "win": ("win", "winner", "won"),
}
"""Each field's headings, in the order they are tried (the Hall of Records' first), folded as :func:`_folded` does."""

TRUE, FALSE = ("1", "true", "yes", "y", "x"), ("0", "false", "no", "n", "")


class TableInvalid(BadInput):
    """Raised for a results table that cannot be read: every problem as ``FILE:LINE: what is wrong``."""


@dataclass(frozen=True)
class DeclaredRow:
    """One row: its line in the file, the game it names ("" when the table has no game column), the player
    and the faction (either may be ""), the score and the win (None: left empty)."""

    line: int
    game: str
    player: str
    faction: str
    score: int | None
    win: bool | None


@dataclass(frozen=True)
class ResultsTable:
    """A results table read: its name (the file as given), its rows, and whether it has a game column."""

    name: str
    rows: list[DeclaredRow]
    has_games: bool

    def where(self, row: DeclaredRow) -> str:
        return f"{self.name}:{row.line}"


def _folded(heading: str) -> str:
    return "".join(c for c in heading.casefold() if c not in " _-")


def parse_columns(mapping: str | None) -> dict[str, str]:
    """``field=HEADING,...`` as a dict; raises :class:`BadInput` for a field not in :data:`FIELDS`."""
    out: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in (mapping or "").split(","))):
        name, sep, heading = part.partition("=")
        if not sep or name.strip() not in FIELDS or not heading.strip():
            raise BadInput(f"--columns: {part!r} is not FIELD=HEADING (fields: {', '.join(FIELDS)})")
        out[name.strip()] = heading.strip()
    return out


def _columns(name: str, headings: list[str], mapping: dict[str, str]) -> dict[str, int]:
    folded = [_folded(h) for h in headings]
    found: dict[str, int] = {}
    for field_name in FIELDS:
        wanted = (_folded(mapping[field_name]),) if field_name in mapping else HEADINGS[field_name]
        index = next((folded.index(h) for h in wanted if h in folded), None)
        if index is None and field_name in mapping:
            raise TableInvalid(f"{name}:1: no column {mapping[field_name]!r} for {field_name} (the columns: "
                               f"{', '.join(headings)})")
        if index is not None:
            found[field_name] = index
    if "player" not in found and "faction" not in found or "score" not in found and "win" not in found:
        raise TableInvalid(f"{name}:1: a results table names a player or a faction, and a score or a win, in its "
                           f"columns (found: {', '.join(headings) or 'none'}); name them with --columns "
                           "(gamelog help cli, reconcile)")
    return found


def _score(text: str) -> int | None:
    text = text.strip()
    if not text:
        return None
    value = int(text)  # ValueError: not a whole number
    if abs(value) > 10**17:
        raise ValueError(text)
    return value


def _win(text: str) -> bool | None:
    folded = text.strip().casefold()
    if folded in TRUE:
        return True
    if folded in FALSE:
        return None if not folded else False
    raise ValueError(text)


def read_table(path: str, columns: str | None = None) -> ResultsTable:
    """The results table at ``path`` (UTF-8 CSV, a heading row first), its columns found as the module says, or by
    ``columns`` (``field=HEADING,...``).

    Raises :class:`TableInvalid` naming ``FILE:LINE`` for each row that cannot be read (a score that is not a
    whole number, a win that is not 1/0, yes/no or true/false, a row with no player), and :class:`BadInput`
    for a file that cannot be read.
    """
    mapping = parse_columns(columns)
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except OSError as exc:
        raise BadInput(f"{path}: cannot read the results table: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise TableInvalid(f"{path}:{line}: not UTF-8 text (byte {exc.start})") from None
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        headings = next(reader)
    except StopIteration:
        raise TableInvalid(f"{path}:1: the results table is empty") from None
    found = _columns(path, headings, mapping)
    rows, problems = [], []
    start = reader.line_num + 1
    for cells in reader:
        line, start = start, reader.line_num + 1
        if not any(c.strip() for c in cells):
            continue

        def cell(field_name: str) -> str:
            index = found.get(field_name)
            return cells[index].strip() if index is not None and index < len(cells) else ""

        try:
            score = _score(cell("score"))
        except ValueError:
            problems.append(f"{path}:{line}: the score {cell('score')[:60]!r} is not a whole number")
            continue
        try:
            win = _win(cell("win"))
        except ValueError:
            problems.append(f"{path}:{line}: the win {cell('win')[:60]!r} is not 1 or 0 (yes/no, true/false)")
            continue
        if not cell("player") and not cell("faction"):
            problems.append(f"{path}:{line}: the row names no player and no faction")
            continue
        if "game" in found and not cell("game"):
            problems.append(f"{path}:{line}: the row names no game")
            continue
        rows.append(DeclaredRow(line, cell("game"), cell("player"), cell("faction"), score, win))
    if problems:
        raise TableInvalid("\n".join(problems))
    return ResultsTable(path, rows, "game" in found)
