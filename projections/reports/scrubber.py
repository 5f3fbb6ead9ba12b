"""The HTML report's replay: a slider over every line of the log, showing the state after the line it stands on.

The states (``Report.states``: ``replay --line N``'s document after each
line; of a long log, after each line the page keeps: ``sampling``), in the
game's own words (``domain.phrases.state_words``: rows of label and text per
player and for the game), are embedded in the page as JSON, each as the
changes from the one before it (a list of ``[path, value]`` to set, ``[path]``
to remove and ``[path, items, "append"]`` to lengthen a list), written a
position at a time, so that a long game does not repeat its whole state on
every line; the page's script keeps a copy of every ``sqrt(n)``-th state and
rebuilds the others from it when asked. Beside
the state it shows the line in words, its changes and its findings, and it
moves a cursor on the charts. The slider takes a finger as well as the
keys; notes are stepped over unless the "stop at notes" toggle is checked;
the address's ``#line=N`` follows the slider (``history.replaceState``) and
is read on load and when it changes. Everything is in the page: it works
offline, from a file.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import msgspec

from gamelog.domain.replay_document import Replay
from gamelog.domain.measures import Board
from gamelog.projections.reports.documents import Line

Path = list[str]

APPEND = "append"
"""The third item of a change that adds items at the end of a list: ``[path, items, "append"]``."""


def changes(old: Any, new: Any, depth: int = 3, path: Path | None = None) -> list[list[Any]]:
    """What turns ``old`` into ``new`` (JSON values): ``[path, value]`` to set, ``[path]`` to remove, and
    ``[path, items, "append"]`` to add items at the end of a list (or text at the end of a text).

    Objects are compared key by key down to ``depth`` levels (the document,
    a player, a field); below that a changed value is given whole, but for a
    list that grew at its end (a player's rows of buildings), given by its new
    items: what a list costs the page is its length once, not once a position.
    """
    path = path or []
    if isinstance(old, list) and isinstance(new, list) and len(new) > len(old) and new[:len(old)] == old:
        return [[path, new[len(old):], APPEND]]
    if isinstance(old, str) and isinstance(new, str) and len(new) > len(old) and new.startswith(old):
        return [[path, new[len(old):], APPEND]]  # a text that grew at its end (a state's list of buildings, in words)
    if not (isinstance(old, dict) and isinstance(new, dict)) or depth == 0:
        return [] if old == new else [[path, new]]
    out: list[list[Any]] = []
    for key, value in new.items():
        if key not in old:
            out.append([[*path, key], value])
        elif old[key] != value:
            out.extend(changes(old[key], value, depth - 1, [*path, key]))
    out.extend([[*path, key]] for key in old if key not in new)
    return out


def replay_data(states: Iterable[Replay], lines: Sequence[tuple[int, Line]], header_period: int,
                board: Board | None, by: str, change_words: Any, describe: Any = None) -> str:
    """The JSON the page's script reads: one position per state (the header's, then each line's, with its words,
    changes and findings; ``note`` on a note's), and the board's colours and patterns. ``lines`` pairs each line
    with its period's number; ``change_words(change)`` words a change; ``describe(document)`` gives what the page
    shows of a state (its JSON values; ``domain.phrases.state_words``), the document itself by default. Safe inside
    a ``<script>`` element."""
    return "".join(replay_pieces(states, lines, header_period, board, by, change_words, describe))


def replay_pieces(states: Iterable[Replay], lines: Sequence[tuple[int, Line]], header_period: int,
                  board: Board | None, by: str, change_words: Any, describe: Any = None) -> Iterator[str]:
    """:func:`replay_data` a position at a time, reading ``states`` as it goes: only the state before is held."""
    subjects = None if board is None else {s: [board.colours[s], board.patterns.get(s, "plain")] for s in board.subjects}
    opening = {"by": by, "board": subjects, "board_title": board.title if board else None, "positions": []}
    yield _safe(encode(opening)[:-2])  # open: the positions follow
    previous: dict[str, Any] = {}
    described = [(header_period, None), *lines]
    for i, (state, (period, line)) in enumerate(zip(states, described)):
        document = msgspec.to_builtins(state)
        document.pop("forum", None)  # the deprecated name of "board": the page shows the board once
        document = describe(document) if describe is not None else document
        position: dict[str, Any] = {"line": state.line, "period": period}
        if line is None:
            position.update(player=None, text="the header: the game is set up", voided=False, changes=[], findings=[])
        else:
            position.update(player=line.player, text=line.text, voided=line.voided,
                            changes=[f"{change_words(c)} ({c.rule})" for c in line.changes],
                            findings=[{"severity": f.severity, "rule": f.rule, "message": f.message} for f in line.findings])
            if line.type == "note":
                position["note"] = True  # the scrubber steps over notes unless asked not to
        position["state"] = changes(previous, document)
        yield ("," if i else "") + _safe(encode(position))
        previous = document
    yield "]}"


def encode(value: Any) -> str:
    return msgspec.json.encode(value).decode("utf-8")


def _safe(text: str) -> str:
    # "<" only occurs inside JSON strings, where \u003c means the same: no "</script>" can end the element early.
    return text.replace("<", "\\u003c")


CONTROLS = """<div class="controls" id="replay-controls">
<button type="button" data-go="first" aria-label="first line: the header" title="the header (Home)">&#x25C0;&#x25C0;</button>
<button type="button" data-go="previous" aria-label="previous line" title="the line before (&#x2190;)">&#x25C0;</button>
<input type="range" id="scrub" min="0" max="{last}" value="{last}" step="1" aria-label="line of the log">
<button type="button" data-go="next" aria-label="next line" title="the next line (&#x2192;)">&#x25B6;</button>
<button type="button" data-go="last" aria-label="last line" title="the last line (End)">&#x25B6;&#x25B6;</button>
{notes}<output id="where" for="scrub"></output></div>"""

NOTES_TOGGLE = '<label><input type="checkbox" id="show-notes"> stop at notes</label>'
"""The controls' toggle, in a log with notes: the scrubber steps over them unless it is checked."""

PANEL = '<div class="now"><div id="line-now" aria-live="polite"></div><div id="state-now"></div></div>'

SCRIPT = r"""(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("replay-data").textContent);
  var slider = document.getElementById("scrub");
  var states = keyframes(data.positions);

  function apply(doc, change) {
    var path = change[0], at = doc, key = path[path.length - 1];
    for (var i = 0; i < path.length - 1; i++) {
      if (at[path[i]] === null || typeof at[path[i]] !== "object") { at[path[i]] = {}; }
      at = at[path[i]];
    }
    // A copy of the value: the states are rebuilt from the changes again and again, which must stay as they are.
    if (change.length > 2) {
      at[key] = typeof change[1] === "string" ? (at[key] || "") + change[1]
        : (at[key] || []).concat(JSON.parse(JSON.stringify(change[1])));
    }
    else if (change.length > 1) { at[key] = JSON.parse(JSON.stringify(change[1])); } else { delete at[key]; }
  }

  // The state at each position, rebuilt from its changes when asked: a copy is kept every "every" positions only
  // (a long game's states, each held whole, would not fit in a browser's memory).
  function keyframes(positions) {
    var every = Math.max(1, Math.ceil(Math.sqrt(positions.length))), kept = [], doc = {};
    positions.forEach(function (position, i) {
      position.state.forEach(function (change) { apply(doc, change); });
      if (i % every === 0) { kept.push(JSON.parse(JSON.stringify(doc))); }
    });
    return {at: function (index) {
      var from = Math.floor(index / every), state = JSON.parse(JSON.stringify(kept[from]));
      for (var i = from * every + 1; i <= index; i++) {
        positions[i].state.forEach(function (change) { apply(state, change); });
      }
      return state;
    }};
  }

  function el(tag, attributes, children) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (a) { node.setAttribute(a, attributes[a]); });
    (children || []).forEach(function (c) { node.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
    return node;
  }

  var SVG = "http://www.w3.org/2000/svg";
  function swatch(subject) {
    var look = data.board[subject], svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("class", "swatch"); svg.setAttribute("width", "12"); svg.setAttribute("height", "12");
    svg.setAttribute("aria-hidden", "true");
    [look[0], look[1] === "plain" ? null : "url(#pattern-" + look[1] + ")"].forEach(function (fill) {
      if (!fill) { return; }
      var rect = document.createElementNS(SVG, "rect");
      rect.setAttribute("width", "12"); rect.setAttribute("height", "12"); rect.setAttribute("fill", fill);
      svg.appendChild(rect);
    });
    return svg;
  }

  // A cell of the state: its words (the game's own, from its plug-in), and for the board its swatches (no text).
  function cell(path, text) {
    var td = el("td", {"data-key": JSON.stringify(path)});
    if (data.board && path[0] === "game" && path[1] === data.board_title) {
      String(text).split(", ").forEach(function (part, i) {
        if (i) { td.appendChild(document.createTextNode(", ")); }
        var subject = Object.keys(data.board).filter(function (s) { return part.indexOf(s + " ") === 0; })[0];
        if (subject) { td.appendChild(swatch(subject)); }
        td.appendChild(document.createTextNode(part));
      });
    } else {
      td.textContent = text;
    }
    return td;
  }

  function showState(doc, line) {
    var players = Object.keys(doc.players || {});
    var rows = [];
    players.forEach(function (p) {
      Object.keys(doc.players[p]).forEach(function (f) { if (rows.indexOf(f) < 0) { rows.push(f); } });
    });
    var table = el("table", {"class": "players"}, [el("tr", {}, [el("th")].concat(players.map(function (p) {
      return el("th", {"scope": "col"}, [p]);
    })))]);
    rows.forEach(function (f) {
      table.appendChild(el("tr", {}, [el("th", {"scope": "row"}, [f])].concat(players.map(function (p) {
        return cell(["players", p, f], doc.players[p][f] === undefined ? "\u2014" : doc.players[p][f]);
      }))));
    });
    var game = el("table", {"class": "game"});
    Object.keys(doc.game || {}).forEach(function (key) {
      game.appendChild(el("tr", {}, [el("th", {"scope": "row"}, [key]), cell(["game", key], doc.game[key])]));
    });
    var box = document.getElementById("state-now");
    box.textContent = "";
    box.appendChild(el("h3", {}, ["The state after line " + line]));
    box.appendChild(el("div", {"class": "scroll players-box"}, [table]));
    box.appendChild(cards(doc, players, rows));
    box.appendChild(el("div", {"class": "scroll"}, [game]));
  }

  // A phone's view of the players: one card each, its rows one under another (the page shows it or the table).
  function cards(doc, players, rows) {
    return el("div", {"class": "cards"}, players.map(function (p) {
      return el("div", {"class": "card"}, [el("h4", {}, [p]), el("table", {}, rows.filter(function (f) {
        return doc.players[p][f] !== undefined;
      }).map(function (f) {
        return el("tr", {}, [el("th", {"scope": "row"}, [f]), el("td", {}, [doc.players[p][f]])]);
      }))]);
    }));
  }

  function showLine(position) {
    var box = document.getElementById("line-now");
    box.textContent = "";
    var said = el("span", {"class": position.voided ? "void" : ""}, [position.text]);
    box.appendChild(el("p", {"class": "said"}, [el("b", {}, ["Line " + position.line]),
      position.player ? " (" + position.player + "): " : ": ", said,
      position.voided ? " (voided by a correction)" : ""]));
    if (position.changes.length) {
      box.appendChild(el("ul", {"class": "changes"}, position.changes.map(function (c) { return el("li", {}, [c]); })));
    }
    if (position.findings.length) {
      box.appendChild(el("ul", {"class": "findings"}, position.findings.map(function (f) {
        return el("li", {"class": f.severity}, [f.severity + " ", el("span", {"class": "rule"}, [f.rule]), ": " + f.message]);
      })));
    } else {
      box.appendChild(el("p", {"class": "quiet"}, ["No finding on this line."]));
    }
  }

  // The x of a position on a chart: evenly spaced (data-dx), or by period (data-starts: the first position of each
  // period's band, data-band its width; a period's positions spread across it, as charts.positions_x places them).
  function xOf(svg, at) {
    var x0 = parseFloat(svg.dataset.x0);
    if (svg.dataset.starts === undefined) { return x0 + at * parseFloat(svg.dataset.dx); }
    if (at === 0) { return x0; }
    var starts = svg.dataset.starts.split(" ").map(Number), b = 0;
    while (b + 1 < starts.length && starts[b + 1] <= at) { b++; }
    var end = b + 1 < starts.length ? starts[b + 1] : data.positions.length;
    return x0 + parseFloat(svg.dataset.band) * (b + (at - starts[b] + 1) / (end - starts[b]));
  }

  function mark(index, position) {
    document.querySelectorAll("svg.chart").forEach(function (svg) {
      var cursor = svg.querySelector(".cursor"), at = index;
      if (svg.dataset.columns !== undefined) {
        at = svg.dataset.columns.split(" ").indexOf(String(position.period));
      }
      if (at < 0) { cursor.setAttribute("visibility", "hidden"); return; }
      var x = xOf(svg, at);
      if (cursor.tagName === "line") { cursor.setAttribute("x1", x); cursor.setAttribute("x2", x); }
      else { cursor.setAttribute("x", x); }
      cursor.setAttribute("visibility", "visible");
    });
    document.querySelectorAll("tr.current").forEach(function (row) { row.classList.remove("current"); });
    var row = document.querySelector('tr[data-position="' + index + '"]');
    if (row) { row.classList.add("current"); }
  }

  function go(index) {
    index = Math.max(0, Math.min(data.positions.length - 1, index));
    shown = index;
    var position = data.positions[index];
    slider.value = String(index);
    var doc = states.at(index);
    document.getElementById("where").textContent = "line " + position.line + " (" + (index + 1) + " of " +
      data.positions.length + ")" + (doc.when ? ", " + doc.when : "");
    showLine(position);
    showState(doc, position.line);
    mark(index, position);
    follow(position);
  }

  // #line=N follows the scrubber, so that the address shares the moment shown (no new history entry).
  function follow(position) {
    var hash = "#line=" + position.line;
    if (window.location.hash === hash) { return; }
    try { history.replaceState(null, "", hash); } catch (e) { window.location.replace(hash); }
  }

  function asked() {
    var found = /^#line=(\d+)$/.exec(window.location.hash);
    return found ? parseInt(found[1], 10) : null;
  }

  // The position of a line: the last at or before it (a line the report does not hold goes to the one before).
  function positionOf(line) {
    var at = 0;
    data.positions.forEach(function (position, i) { if (position.line <= line) { at = i; } });
    return at;
  }

  // Notes are stepped over unless the toggle asks for them; a position asked for by its line is shown all the same.
  var notes = document.getElementById("show-notes");
  function skipped(i) { return !(notes && notes.checked) && !!data.positions[i].note; }
  function step(from, by) {
    var i = Math.max(0, Math.min(data.positions.length - 1, from + by));
    while (i > 0 && i < data.positions.length - 1 && skipped(i)) { i += by; }
    if (skipped(i)) { i = from; }
    return i;
  }

  function current() { return parseInt(slider.value, 10); }
  var shown = 0;
  var moves = {first: function () { return 0; }, previous: function () { return step(current(), -1); },
               next: function () { return step(current(), 1); },
               last: function () { return step(data.positions.length, -1); }};
  // A drag (by touch too) or the slider's own keys land on a note: on to the next line in the same direction.
  slider.addEventListener("input", function () {
    var i = current();
    go(skipped(i) ? step(i, i >= shown ? 1 : -1) : i);
  });
  document.querySelectorAll("[data-go]").forEach(function (button) {
    button.addEventListener("click", function () { go(moves[button.dataset.go]()); });
  });
  document.querySelectorAll("[data-position]").forEach(function (target) {
    target.addEventListener("click", function () { go(parseInt(target.dataset.position, 10)); });
  });
  // Arrows anywhere on the page step through the log (the slider handles its own keys when it has the focus).
  document.addEventListener("keydown", function (event) {
    if (event.target === slider || event.altKey || event.ctrlKey || event.metaKey) { return; }
    var keys = {ArrowLeft: "previous", ArrowRight: "next", Home: "first", End: "last"};
    if (keys[event.key]) { event.preventDefault(); go(moves[keys[event.key]]()); }
  });
  // A link to a line (a finding) shows it: the replay scrolls into view there, from its heading (the controls
  // stick to the window's top once passed, so they would not move a page scrolled below them, as a phone's is).
  window.addEventListener("hashchange", function () {
    if (asked() === null) { return; }
    go(positionOf(asked()));
    (document.getElementById("replay") || document.getElementById("replay-controls")).scrollIntoView();
  });
  go(asked() === null ? moves.last() : positionOf(asked()));
}());"""
