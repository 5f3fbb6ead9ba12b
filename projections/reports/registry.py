"""The report and audit formats by name: each registered once, beside the renderers; ``--format`` reads this.

A report format renders either a period at a time (``render(head, periods,
layout)``: the report's head, its periods as they are read, and the
terminal's layout); or, registered with ``whole=True``, from the full report
document (periods and the state after every line read in), called as
``render(report, report.periods, layout)``; or, registered with
``sampled=True`` (the HTML report), from a ``sampling.Sample``: the lines a
page can hold and the states after them, read as they are written.
Either way it gives the text as pieces. Adding a format is one
:func:`register_format` (as a decorator or a call); ``gamelog report
--format`` offers it from then on. An audit format is one
:func:`register_audit_format`: how it writes an audit, and a what-if. A
reconcile format is one :func:`register_reconcile_format`: how it writes a
reconciliation of a game, or of a store (``reconcile`` with no GAME).
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

from gamelog.projections.reports.audit import AuditParts
from gamelog.projections.reports.audit_formats import (audit_json_pieces, audit_markdown_pieces, audit_text_pieces,
                                                       render_what_if_json, render_what_if_markdown,
                                                       render_what_if_text)
from gamelog.projections.reports.documents import Period, Reconciliation, StoreReconciliation, WhatIf, encode
from gamelog.projections.reports.formats import csv_pieces, json_pieces, markdown_pieces, text_pieces
from gamelog.projections.reports.html import html_pieces
from gamelog.projections.reports.reconcile_formats import render_reconciliation
from gamelog.projections.reports.stats_formats import (explain_csv, explain_html, explain_markdown, explain_text,
                                                       stats_csv, stats_html, stats_json, stats_markdown, stats_text)
from gamelog.projections.reports.terminal import WIDTH, Style, plain


@dataclass(frozen=True)
class Layout:
    """What a renderer may ask of where its text goes: how to style a line (``click.style`` on a terminal,
    plain otherwise; called as ``style(text, bold=True, fg="red")``) and the width to wrap to."""

    style: Style = plain
    width: int = WIDTH
    brief: bool = False
    """Text for a person at a terminal: the headline first and the rest named, not printed (``stats`` shows its
    summary and results unless ``--all``)."""


ReportRender = Callable[[Any, Iterable[Period], Layout], Iterable[str]]


@dataclass(frozen=True)
class ReportFormat:
    """One report format: its name (``--format NAME``), how it renders, and what a file of it is."""

    name: str
    render: ReportRender
    whole: bool = False
    """Rendered from the full report document (``model.build_report`` with the history) rather than a period at
    a time."""
    sampled: bool = False
    """Rendered from a :class:`~projections.reports.sampling.Sample` (the report at a resolution a page holds,
    read in one pass, with the states after its kept lines folded as they are written), called as
    ``render(sample, sample.report.periods, layout)``."""
    media_type: str = "text/plain"
    suffix: str = ".txt"


REPORT_FORMATS: dict[str, ReportFormat] = {}


def register_format(name: str, render: ReportRender | None = None, *, whole: bool = False, sampled: bool = False,
                    media_type: str = "text/plain", suffix: str = ".txt") -> Any:
    """Register the report format ``name``: ``register_format("x", render)``, or ``@register_format("x")`` over
    ``render``. Returns ``render``. Raises ValueError when ``name`` is taken."""
    def register(function: ReportRender) -> ReportRender:
        if name in REPORT_FORMATS:
            raise ValueError(f"a report format named {name!r} is registered already")
        REPORT_FORMATS[name] = ReportFormat(name, function, whole, sampled, media_type, suffix)
        return function

    return register if render is None else register(render)


def unregister_format(name: str) -> None:
    """Take the report format ``name`` out of the registry (a format plugged in for a while)."""
    del REPORT_FORMATS[name]


@contextmanager
def plugged_in_format(name: str, render: ReportRender, **options: Any) -> Iterator[ReportFormat]:
    """The report format registered for the ``with`` block only, then taken out again."""
    register_format(name, render, **options)
    try:
        yield REPORT_FORMATS[name]
    finally:
        unregister_format(name)


def report_formats() -> list[str]:
    """The names of the report formats, in the order they were registered."""
    return list(REPORT_FORMATS)


def _named(kind: str, table: dict[str, Any], name: str) -> Any:
    """``table[name]``; raises KeyError whose text names the known ones (what the user reads)."""
    try:
        return table[name]
    except KeyError:
        raise KeyError(f"unknown {kind} {name!r} (known: {', '.join(table)})") from None


def report_format(name: str) -> ReportFormat:
    """The report format ``name``; raises KeyError naming the known ones."""
    return _named("report format", REPORT_FORMATS, name)


@dataclass(frozen=True)
class AuditFormat:
    """One audit format: how it writes an audit (a finding, an entry at a time) and a what-if (``--without``: its
    text, or pieces of it, the document's lists being read as they are written)."""

    name: str
    audit: Callable[[AuditParts, Layout], Iterable[str]]
    what_if: Callable[[WhatIf, Layout], str | Iterable[str]]


AUDIT_FORMATS: dict[str, AuditFormat] = {}


def register_audit_format(name: str, *, audit: Callable[[AuditParts, Layout], Iterable[str]],
                          what_if: Callable[[WhatIf, Layout], str | Iterable[str]]) -> AuditFormat:
    """Register the audit format ``name``; raises ValueError when it is taken."""
    if name in AUDIT_FORMATS:
        raise ValueError(f"an audit format named {name!r} is registered already")
    AUDIT_FORMATS[name] = AuditFormat(name, audit, what_if)
    return AUDIT_FORMATS[name]


def audit_formats() -> list[str]:
    """The names of the audit formats, in the order they were registered."""
    return list(AUDIT_FORMATS)


def audit_format(name: str) -> AuditFormat:
    """The audit format ``name``; raises KeyError naming the known ones."""
    return _named("audit format", AUDIT_FORMATS, name)


ReconcileRender = Callable[[Reconciliation | StoreReconciliation, Layout], str]
"""How a reconcile format writes a reconciliation (of a game, or of a store's games) for a layout."""

RECONCILE_FORMATS: dict[str, ReconcileRender] = {}


def register_reconcile_format(name: str, render: ReconcileRender) -> ReconcileRender:
    """Register the reconcile format ``name``; raises ValueError when it is taken."""
    if name in RECONCILE_FORMATS:
        raise ValueError(f"a reconcile format named {name!r} is registered already")
    RECONCILE_FORMATS[name] = render
    return render


def reconcile_formats() -> list[str]:
    """The names of the reconcile formats, in the order they were registered."""
    return list(RECONCILE_FORMATS)


def reconcile_format(name: str) -> ReconcileRender:
    """The reconcile format ``name``; raises KeyError naming the known ones."""
    return _named("reconcile format", RECONCILE_FORMATS, name)


@dataclass(frozen=True)
class StatsFormat:
    """One ``stats`` format: how it writes the statistics (``table``: the one table asked for, None: all) and the
    lines behind one figure (``--explain``). A ``traced`` format's ``stats`` is given the document with the lines
    behind its figures (``statistics.Traced``), every other's the document alone."""

    name: str
    stats: Callable[[Any, Layout, str | None], Iterable[str]]
    explain: Callable[[Any, Layout], Iterable[str]]
    traced: bool = False


STATS_FORMATS: dict[str, StatsFormat] = {}


def register_stats_format(name: str, *, stats: Callable[[Any, Layout, str | None], Iterable[str]],
                          explain: Callable[[Any, Layout], Iterable[str]], traced: bool = False) -> StatsFormat:
    """Register the ``stats`` format ``name`` (``traced``: its ``stats`` takes a ``statistics.Traced``); raises
    ValueError when it is taken."""
    if name in STATS_FORMATS:
        raise ValueError(f"a stats format named {name!r} is registered already")
    STATS_FORMATS[name] = StatsFormat(name, stats, explain, traced)
    return STATS_FORMATS[name]


def stats_formats() -> list[str]:
    """The names of the ``stats`` formats, in the order they were registered."""
    return list(STATS_FORMATS)


def stats_format(name: str) -> StatsFormat:
    """The ``stats`` format ``name``; raises KeyError naming the known ones."""
    return _named("stats format", STATS_FORMATS, name)


# gamelog's own formats, in the order `--help` lists them.
register_format("text", lambda head, periods, layout: text_pieces(head, periods, layout.style, layout.width))
register_format("markdown", lambda head, periods, _: markdown_pieces(head, periods),
                media_type="text/markdown", suffix=".md")
register_format("json", lambda head, periods, _: json_pieces(head, periods), media_type="application/json",
                suffix=".json")
register_format("csv", lambda head, periods, _: csv_pieces(head, periods), media_type="text/csv", suffix=".csv")
register_format("html", lambda sample, _, __: html_pieces(sample), sampled=True, media_type="text/html",
                suffix=".html")

register_audit_format("text", audit=lambda parts, layout: audit_text_pieces(parts, layout.width, layout.style),
                      what_if=lambda diff, layout: render_what_if_text(diff, layout.width, layout.style))
register_audit_format("json", audit=lambda parts, _: audit_json_pieces(parts),
                      what_if=lambda diff, _: render_what_if_json(diff))
register_audit_format("markdown", audit=lambda parts, _: audit_markdown_pieces(parts),
                      what_if=lambda diff, _: render_what_if_markdown(diff))

register_reconcile_format("text", lambda doc, layout: render_reconciliation(doc, "text", layout.width))
register_reconcile_format("markdown", lambda doc, _: render_reconciliation(doc, "markdown"))
register_reconcile_format("json", lambda doc, _: render_reconciliation(doc, "json"))
register_reconcile_format("html", lambda doc, _: render_reconciliation(doc, "html"))

register_stats_format("text", stats=lambda doc, layout, table: stats_text(doc, layout.width, table, layout.brief),
                      explain=lambda explained, layout: explain_text(explained, layout.width))
register_stats_format("markdown", stats=lambda doc, _, table: stats_markdown(doc, table),
                      explain=lambda explained, _: explain_markdown(explained))
register_stats_format("json", stats=lambda doc, _, table: stats_json(doc, table),
                      explain=lambda explained, _: [encode(explained, indent=1) + "\n"])
register_stats_format("csv", stats=lambda doc, _, table: stats_csv(doc, table),
                      explain=lambda explained, _: explain_csv(explained))
register_stats_format("html", stats=lambda traced, _, table: stats_html(traced, table),
                      explain=lambda explained, _: explain_html(explained), traced=True)
