"""Benchmark of the recorder's typing (issue 36, "Too much typing"): taps and typed characters per entry.

Run on demand (not part of the test suite):

    python tests/benchmarks/bench_taps.py                 # the examples' Merchant of Venus and TI4 games
    python tests/benchmarks/bench_taps.py --json          # the figures as one JSON object

Each example game is recorded again into a fresh store, a line at a time, as the page would record it: before each
line the forms document of the seat recording it (``Game.forms`` as that seat: the line's player's seat, else the player whose
turn is under way, else the host) says what the page shows, and the line is counted as the page takes it:

* a step of the turn flow (``turn``) whose lines are the log's next lines: **1 tap** (``POST .../turn``);
* otherwise a form: its kind picked (a select, **2 taps**; none when the form shown is that kind already), each
  field the line writes: nothing when the page shows that value already (the seat's own player first in a
  player select, a value the form fills in, the value the same form held on the entry before), a select or an
  offered suggestion **2 taps**, a checkbox **1 tap**, a typed field **1 tap plus its characters**; then
  **Record**, 1 tap.

The issue's targets: a Merchant of Venus turn at most 12 taps and 10 characters at the median, a TI4 round at most
70 taps with no card name typed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from gamelog.domain.reader import LogReader  # noqa: E402
from gamelog.game import stored_game  # noqa: E402
from gamelog.recording import new_game  # noqa: E402
from gamelog.sources import opened_game_store  # noqa: E402

EXAMPLES = ROOT / "examples"
GAMES = {"merchant-of-venus": EXAMPLES / "merchant-of-venus" / "seed-examples.jsonl",
         "twilight-imperium-4": EXAMPLES / "twilight-imperium-4" / "complete-4p.jsonl"}
CARD_FIELDS = frozenset({"objective", "card"})
"""The fields whose values are a card's name: typing one counts against the TI4 target."""


def _lines(path: Path) -> tuple[bytes, list[dict[str, Any]]]:
    reader = LogReader(path.read_bytes())
    import msgspec

    events = [msgspec.to_builtins(event) for _, event in reader.events()]
    assert not reader.errors, reader.errors
    return msgspec.json.encode(reader.header), events


def _field_cost(field: dict[str, Any], value: Any, shown: Any) -> tuple[int, int]:
    """(taps, characters) to make ``field`` hold ``value`` where the page shows ``shown``."""
    if value == shown:
        return 0, 0
    kind = field["kind"]
    if kind == "bool":
        return 1, 0
    if kind == "choice" or (kind == "text" and field["offered"] and field["player"]):
        return 2, 0
    if kind == "list" and isinstance(value, list):
        taps = chars = 0
        for i, item in enumerate(value):
            t, c = _field_cost(field["item"], item, None)
            taps, chars = taps + t + (1 if i else 0), chars + c
        return taps, chars
    if kind == "text" and value in field["offered"]:
        return 2, 0  # the field, then the suggestion
    text = value if isinstance(value, str) else json.dumps(value)
    return 1, len(text)


def _shown(field: dict[str, Any], seat: str | None, before: dict[str, Any] | None) -> Any:
    """What the page shows in ``field`` before anything is typed."""
    if before is not None and field["name"] in before:
        return before[field["name"]]  # the same form keeps what the entry before held
    if "value" in field and field["value"] is not None:  # a value the form fills in (the state fixes it)
        return field["value"]
    if field["kind"] == "choice":
        return field["default"] if field["default"] is not None else (field["choices"][0] if field["required"] else None)
    if field["kind"] == "text" and field["player"] and field["offered"]:
        offered = ([seat] if seat in field["offered"] else []) + [p for p in field["offered"] if p != seat]
        return offered[0] if field["required"] else None
    if field["kind"] == "text" and len(field["offered"]) == 1:
        return field["offered"][0]
    return field["default"]


def record(game: str, path: Path) -> list[dict[str, Any]]:
    """Record the example game again a line at a time; each entry's cost (taps, characters, card names typed) and
    the turn and round it belongs to."""
    header, events = _lines(path)
    costs: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as folder, opened_game_store(str(Path(folder) / "taps.sqlite")) as store:
        game_id = new_game(store, header)
        game = stored_game(store, game_id)
        kind_shown: str | None = None
        before: dict[str, Any] | None = None
        active: str | None = None
        turn = round_ = 0
        at = 0
        while at < len(events):
            line = events[at]
            seat = line.get("player") or active
            forms = msgspec_json((game if seat is None else game.as_player(seat)).forms())
            step = next((s for s in forms["turn"] if s["lines"] == events[at:at + len(s["lines"])]), None)
            if step is not None:
                result = game.take_step(step["id"], after=forms["lines"])
                assert result.appended, (at, step, result)
                cost = {"taps": 1, "chars": 0, "cards": 0, "lines": len(step["lines"])}
                taken = step["lines"]
            else:
                form = next(f for f in forms["forms"] if f["type"] == line["type"])
                taps, chars, cards = (0 if kind_shown == line["type"] else 2), 0, 0
                kept = before if kind_shown == line["type"] else None
                for field in form["fields"]:
                    if field["name"] not in line:
                        continue
                    t, c = _field_cost(field, line[field["name"]], _shown(field, seat, kept))
                    taps, chars = taps + t, chars + c
                    if field["name"] in CARD_FIELDS and c:
                        cards += 1
                result = game.record(json.dumps(line).encode(), anyway=True)
                assert result.appended, (at, line, result)
                cost = {"taps": taps + 1, "chars": chars, "cards": cards, "lines": 1}
                kind_shown, before = line["type"], {k: v for k, v in line.items() if k != "type"}
                taken = [line]
            for made in taken:
                if made["type"] == "turn_started":
                    active, turn = made["player"], turn + 1
                elif made["type"] in ("turn_ended", "player_passed"):
                    active = None
                elif made["type"] == "round_started":
                    round_ = made["round"]
            costs.append({**cost, "turn": turn, "round": round_, "type": taken[0]["type"]})
            at += len(taken)
    return costs


def msgspec_json(document: Any) -> dict[str, Any]:
    import msgspec

    return msgspec.to_builtins(document)


def per(costs: list[dict[str, Any]], key: str) -> dict[int, dict[str, int]]:
    """Taps, characters and card names typed summed by ``key`` (``turn`` or ``round``), from the first on."""
    out: dict[int, dict[str, int]] = {}
    for cost in costs:
        if cost[key] <= 0:
            continue  # the setup before the first turn or round
        group = out.setdefault(cost[key], {"taps": 0, "chars": 0, "cards": 0})
        for name in ("taps", "chars", "cards"):
            group[name] += cost[name]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    options = parser.parse_args()
    mov = per(record("merchant-of-venus", GAMES["merchant-of-venus"]), "turn")
    ti4 = per(record("twilight-imperium-4", GAMES["twilight-imperium-4"]), "round")
    figures = {
        "merchant-of-venus turn": {"turns": len(mov), "median taps": statistics.median(t["taps"] for t in mov.values()),
                                   "median characters": statistics.median(t["chars"] for t in mov.values()),
                                   "target": "at most 12 taps and 10 characters"},
        "twilight-imperium-4 round": {"rounds": len(ti4), "median taps": statistics.median(r["taps"] for r in ti4.values()),
                                      "most taps": max(r["taps"] for r in ti4.values()),
                                      "median characters": statistics.median(r["chars"] for r in ti4.values()),
                                      "card names typed": sum(r["cards"] for r in ti4.values()),
                                      "target": "at most 70 taps, no card name typed"},
    }
    if options.json:
        print(json.dumps(figures, indent=1))
        return
    for name, figure in figures.items():
        print(f"{name}: " + ", ".join(f"{k} {v}" for k, v in figure.items()))


if __name__ == "__main__":
    main()
