"""What a floor hands down is typed by a Protocol (issue 32, section 8): the line index an importer gives the engine
(``domain.history.EventIndex``, in memory or spilled to disk) and the engine a correction restates
(``domain.corrections.Restating``), rather than ``Any``."""

from __future__ import annotations

import ast
import typing

from gamelog.domain import corrections, engine, history, replay
from gamelog.domain.events import Note
from gamelog.domain.games import GAMES
from gamelog.projections.importing.spill import FLUSH, SpilledIndex
from tests.conftest import ROOT


def _annotations(function) -> dict[str, object]:
    return typing.get_type_hints(function, localns={"GameState": engine.GameState})  # corrections names it for checkers


def test_restate_is_handed_an_engine_typed_by_what_it_asks_of_it():
    hints = _annotations(corrections.restate)
    assert hints["engine"] is corrections.Restating
    header = GAMES["merchant-of-venus"].header_type
    made = GAMES["merchant-of-venus"].engine(
        header(game="merchant-of-venus", id="g", players=["Ann"]), 1)
    assert isinstance(made, corrections.Restating)  # the engine is what the protocol names
    assert not isinstance(object(), corrections.Restating)


def test_every_index_an_engine_is_handed_is_an_event_index():
    for function in (replay.decide, replay.decide_lines, engine.Engine.__init__, engine.Engine.from_history):
        assert _annotations(function)["index"] == history.EventIndex | None, function
    assert isinstance(history.LineIndex(), history.EventIndex)
    with SpilledIndex() as spilled:
        assert isinstance(spilled, history.EventIndex)
        assert not issubclass(SpilledIndex, history.LineIndex)  # a protocol it meets, not a class it extends
        events = [(line, Note(text=f"line {line}")) for line in range(1, FLUSH + 10)]
        for line, event in events:
            spilled.add(line, event)
        # From the chunk on disk and the lines still in memory, as the in-memory index gives them.
        assert list(spilled.between(FLUSH - 2, FLUSH + 3)) == events[FLUSH - 3:FLUSH + 3]


def test_neither_the_index_nor_restate_is_typed_any():
    assert "Any" not in (ROOT / "domain" / "history.py").read_text(encoding="utf-8")
    for path in ("domain/history.py", "domain/corrections.py", "projections/importing/spill.py"):
        tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
        typed = [(node.arg, ast.unparse(node.annotation)) for node in ast.walk(tree)
                 if isinstance(node, ast.arg) and node.annotation is not None]
        assert [name for name, annotation in typed if name in ("engine", "event", "index") and "Any" in annotation] == []
