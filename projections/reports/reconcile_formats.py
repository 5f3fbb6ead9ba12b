"""Rendering a reconciliation (``reconcile.reconciliation``) as text, Markdown, JSON or HTML.

Pure functions of the document, like the other renderers: user text (names,
reasons, a table's file name) is cleaned for a terminal, escaped for Markdown
and HTML. A game with no declaration says so in one line.
"""

from __future__ import annotations

from html import escape
from pathlib import PurePath

from gamelog.domain.messages import signed
from gamelog.projections.reports.documents import Declaration, Reconciliation, StoreReconciliation, encode
from gamelog.projections.reports.safe import clean, markdown
from gamelog.projections.reports.stylesheet import CSS
from gamelog.projections.reports.terminal import WIDTH, table, wrap


def nothing_declared(doc: Reconciliation) -> str:
    """The one line of a game that declares nothing."""
    return f"{doc.game}: no result is declared (by the log or a results table)"


def _value(d: Declaration) -> str:
    if d.kind == "winner":
        return f"winner {d.player or 'none'}"
    if d.kind == "win":
        return f"{d.player} {'won' if d.value else 'did not win'}"
    if d.kind == "adjustment":
        return f"{d.player}: {d.value} VP from {d.origin}"
    return f"{d.player}: {d.value}"


def _by(d: Declaration) -> str:
    return f" ({d.by})" if d.by else ""


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _verdict(doc: Reconciliation) -> str:
    """The reconciliation in sentences: what disagrees with the log first (the winner, each score that differs,
    computed then declared), then what agrees, then the winner once the declared adjustments apply."""
    winner = doc.computed_winner or "none"
    declared = [p for p in doc.players if p.declared is not None]
    off = [f"{p.player} (computed {p.computed}, declared {p.declared})" for p in declared if p.difference]
    same = [p.player for p in declared if not p.difference]
    disagree, agree = [], []
    if doc.declared_winner is not None and not doc.winner_agrees:
        disagree.append(f"the winner (computed {winner}, declared {doc.declared_winner})")
    elif doc.declared_winner is not None:
        agree.append(f"the winner ({winner})")
    if off:
        disagree.append(f"the score{'s' if len(off) > 1 else ''} of {_and(off)}")
    if same:
        agree.append(f"the score{'s' if len(same) > 1 else ''} of {_and(same)}" if off else
                     "the score" + (f" of {same[0]}" if len(same) == 1 else "s"))
    sentences = [f"Disagrees with the log: {'; '.join(disagree)}."] if disagree else []
    if agree:
        sentences.append(f"{'Agrees' if disagree else 'Agrees with the log'}: {'; '.join(agree)}.")
    if doc.declared_winner is None:
        sentences.append(f"No winner is declared; the log's is {winner}.")
    if any(p.adjustments for p in doc.players):
        then = doc.winner_with_adjustments or "none"
        text = f"With the declared adjustments the winner is {then}"
        if doc.declared_winner_wins_with_adjustments is not None:
            text += f" (the declared winner {'wins' if doc.declared_winner_wins_with_adjustments else 'does not win'})"
        sentences.append(text + ".")
    return " ".join(sentences)


def _num(value: int | None) -> str:
    return "-" if value is None else str(value)


def _diff(value: int | None) -> str:
    return "-" if value is None else signed(value) if value else "0"


def _lines(lines: list[int]) -> str:
    return ", ".join(map(str, lines))


def render_text(doc: Reconciliation, width: int = WIDTH) -> str:
    """The reconciliation for a terminal, wrapped to ``width``."""
    if not doc.declared:
        return clean(nothing_declared(doc))  # one line, whatever the width: a script reads it as one
    out = wrap(clean(f"reconcile {doc.rules} {doc.game!r}: {len(doc.declared_from)} declaration"
                     f"{'s' if len(doc.declared_from) != 1 else ''}, "
                     f"{'agrees' if doc.agrees else 'disagrees'} with the log"), width, 0, 2)
    if doc.matched_by and doc.table_game:
        out += wrap(clean(f"the results table's game {doc.table_game!r}, matched by {doc.matched_by}"), width, 0, 2)
    out += wrap(clean(_verdict(doc)), width, 0, 2)
    out.append("")
    rows = [[clean(p.player), _num(p.computed), _num(p.declared), _diff(p.difference), _num(p.with_adjustments)]
            for p in doc.players]
    out += table(["player", "computed", "declared", "difference", "with adjustments"], rows, width)
    for p in doc.players:
        out.append("")
        faction = f" ({p.faction})" if p.faction else ""
        out += wrap(clean(f"{p.player}{faction}: {p.computed} {doc.score.upper() if doc.score == 'vp' else doc.score}"
                          " computed"), width, 0, 2)
        for source, points in p.sources.items():
            out += wrap(clean(f"{source}: {signed(points)}, line{'s' if len(p.source_lines.get(source, [])) > 1 else ''} "
                              f"{_lines(p.source_lines.get(source, []))}"), width, 2, 4)
        for a in p.adjustments:
            voids = f", the what-if voids line{'s' if len(a.voids) > 1 else ''} {_lines(a.voids)}" if a.voids else ""
            added = f", adds {a.added} no line holds" if a.added else ""
            out += wrap(clean(f"declared adjustment (line {a.line}): {a.declared} from {a.origin}, the log gives "
                              f"{a.held}: {signed(a.points)}{voids}{added}"), width, 2, 4)
    out += ["", "declared by:"]
    for d in doc.declared_from:
        out += wrap(clean(f"{d.where}: {_value(d)}{_by(d)}"), width, 2, 4)
    return "\n".join(out)


def render_markdown(doc: Reconciliation) -> str:
    """The reconciliation as Markdown (user text escaped)."""
    if not doc.declared:
        return markdown(nothing_declared(doc))
    out = [f"# Reconciliation of {markdown(doc.game)}", "",
           markdown(_verdict(doc))]
    if doc.matched_by and doc.table_game:
        out.append(f"The results table's game {markdown(doc.table_game)}, matched by {markdown(doc.matched_by)}.")
    out += ["", "| player | faction | computed | declared | difference | with adjustments |", "| --- | --- | ---: | ---: | ---: | ---: |"]
    out += [f"| {markdown(p.player)} | {markdown(p.faction or '')} | {p.computed} | {_num(p.declared)} | "
            f"{_diff(p.difference)} | {p.with_adjustments} |" for p in doc.players]
    for p in doc.players:
        out += ["", f"## {markdown(p.player)}: {p.computed} computed", "", "| source | points | lines |", "| --- | ---: | --- |"]
        out += [f"| {markdown(s)} | {signed(v)} | {_lines(p.source_lines.get(s, []))} |" for s, v in p.sources.items()]
        for a in p.adjustments:
            out.append(f"\nDeclared adjustment (line {a.line}): {a.declared} from {markdown(a.origin)}, the log gives "
                       f"{a.held} ({signed(a.points)}); the what-if voids {_lines(a.voids) or 'no line'}"
                       + (f" and adds {a.added}" if a.added else "") + ".")
    out += ["", "## Declared by", ""]
    out += [f"- {markdown(d.where)}: {markdown(_value(d) + _by(d))}" for d in doc.declared_from]
    return "\n".join(out)


def render_json(doc: Reconciliation | StoreReconciliation) -> str:
    return encode(doc, indent=1)


def html_section(doc: Reconciliation, heading: str = "h2") -> str:
    """The reconciliation as an HTML section (the report's, and the page's own)."""
    if not doc.declared:
        return f'<section class="declared"><{heading}>Declared result</{heading}><p>{escape(nothing_declared(doc))}</p></section>'
    sub = "h3" if heading == "h2" else "h4"
    rows = "".join(f"<tr><td>{escape(p.player)}</td><td>{escape(p.faction or '')}</td><td>{p.computed}</td>"
                   f"<td>{_num(p.declared)}</td><td>{escape(_diff(p.difference))}</td><td>{p.with_adjustments}</td></tr>"
                   for p in doc.players)
    parts = [f"<{heading}>Declared result</{heading}>",
             f"<p>{escape(_verdict(doc))}</p>",
             '<div class="scroll"><table><tr><th>player</th><th>faction</th><th>computed</th><th>declared</th>'
             f"<th>difference</th><th>with adjustments</th></tr>{rows}</table></div>"]
    for p in doc.players:
        sources = "".join(f"<tr><td>{escape(s)}</td><td>{escape(signed(v))}</td>"
                          f"<td>{escape(_lines(p.source_lines.get(s, [])))}</td></tr>" for s, v in p.sources.items())
        parts.append(f"<{sub}>{escape(p.player)}: {p.computed} computed</{sub}>"
                     f'<div class="scroll"><table class="sources"><tr><th>source</th><th>points</th><th>lines</th></tr>'
                     f"{sources}</table></div>")
        parts += [f"<p>Declared adjustment (line {a.line}): {a.declared} from {escape(a.origin)}, the log gives {a.held} "
                  f"({escape(signed(a.points))}); the what-if voids {escape(_lines(a.voids)) or 'no line'}.</p>"
                  for a in p.adjustments]
    parts.append("<ul>" + "".join(f"<li>{escape(d.where)}: {escape(_value(d) + _by(d))}</li>"
                                  for d in doc.declared_from) + "</ul>")
    return '<section class="declared">' + "".join(parts) + "</section>"


def _table_name(doc: StoreReconciliation) -> str:
    """The results table's name, as a page's title says it: its file's name, not the path it was read from."""
    return PurePath(doc.declared).name or doc.declared


def render_html(doc: Reconciliation | StoreReconciliation) -> str:
    """A self-contained page."""
    if isinstance(doc, StoreReconciliation):
        title = f"Reconciliation of {_table_name(doc)}"
        body = f"<p>The table read: {escape(doc.declared)}</p>"
        body += "".join(f"<h2>{escape(g.game)}</h2>" + html_section(g, "h3") for g in doc.games)
        body += f"<p>Disagree: {escape(', '.join(doc.disagree) or 'none')}</p>"
        if doc.unmatched:
            body += "<p>Not stored:</p><ul>" + "".join(f"<li>{escape(u)}</li>" for u in doc.unmatched) + "</ul>"
    else:
        title = f"Reconciliation of {doc.game}"
        body = html_section(doc)
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>{escape(title)}</title>'
            f"<style>{CSS}</style></head><body><h1>{escape(title)}</h1>{body}</body></html>\n")


def render_store_text(doc: StoreReconciliation, width: int = WIDTH) -> str:
    out: list[str] = []
    for g in doc.games:
        out += [render_text(g, width), ""]
    out += wrap(clean(f"{len(doc.games)} game{'s' if len(doc.games) != 1 else ''} of {doc.declared}; disagree: "
                      f"{', '.join(doc.disagree) or 'none'}"
                      + (f"; {len(doc.unmatched)} not stored (on stderr)" if doc.unmatched else "")), width, 0, 2)
    return "\n".join(out)


def render_store_markdown(doc: StoreReconciliation) -> str:
    parts = [render_markdown(g).replace("\n## ", "\n### ").replace("# Reconciliation", "## Reconciliation", 1)
             for g in doc.games]
    unmatched = ["Not stored:\n\n" + "\n".join(f"- {markdown(u)}" for u in doc.unmatched)] if doc.unmatched else []
    return "\n\n".join([f"# Reconciliation of {markdown(_table_name(doc))}",
                        f"The table read: {markdown(doc.declared)}", *parts,
                        f"Disagree: {markdown(', '.join(doc.disagree) or 'none')}", *unmatched])


def render_reconciliation(doc: Reconciliation | StoreReconciliation, fmt: str, width: int = WIDTH) -> str:
    """``doc`` (a game's reconciliation, or a store's) in the format ``fmt``: text, markdown, json or html
    (``registry`` names them); raises KeyError for another."""
    store = isinstance(doc, StoreReconciliation)
    renderers = {
        "text": lambda: render_store_text(doc, width) if store else render_text(doc, width),
        "markdown": lambda: render_store_markdown(doc) if store else render_markdown(doc),
        "json": lambda: render_json(doc),
        "html": lambda: render_html(doc),
    }
    return renderers[fmt]()
