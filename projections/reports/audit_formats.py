"""Rendering an audit (``audit.audit_parts``) and a what-if (``whatif.compare_paged``) as text, Markdown or JSON.

Pure functions of what they render, like the report's renderers (``formats``);
an audit is written a finding, an entry, a correction at a time, as its parts
are read.
A finding reads as everywhere else (``domain.messages``). The unverifiable findings follow the others, grouped
by reason (what the log's source does not record: an export without secret objectives; else what the log cannot
hold) and by rule, each with its count: what leads is what the log shows.
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator

from msgspec import UNSET

from gamelog.domain.engine import UNVERIFIABLE
from gamelog.domain.messages import finding, not_recorded, plural, severity_counts, signed
from gamelog.projections.reports.audit import AuditParts
from gamelog.domain.replay_document import held
from gamelog.projections.reports.documents import (Audit, AuditFinding, Result, ScoreEntry, Standings,
                                                   StandingsChange, WhatIf, encode, encode_pieces)
from gamelog.projections.reports.reconcile_formats import render_markdown as render_reconciliation_markdown
from gamelog.projections.reports.reconcile_formats import render_text as render_reconciliation_text
from gamelog.projections.reports.safe import clean, markdown
from gamelog.projections.reports.terminal import WIDTH, Style, label, plain, severity_color, wrap
from gamelog.projections.store.verify import SHORT


def _entries_text(entries: Iterable[ScoreEntry], indent: str, width: int) -> Iterator[str]:
    return (text for e in entries
            for text in wrap(clean(f"{e.source} [{e.rule}]"), width,
                             f"{indent}line {e.line:>5}  {signed(e.points):>7}  = {e.total:<7} "))


class _Object(list):
    """A JSON object's (key, value) pairs, written as they come (a value may be an iterator: an array)."""


def _json(value: Any, depth: int = 0) -> Iterator[str]:
    """``encode(value, indent=1)`` piece by piece, indented for ``depth``: an iterator is an array, an
    :class:`_Object` an object, written an item at a time; anything else is encoded whole."""
    if isinstance(value, (_Object, Iterator)):
        opening, closing = "{}" if isinstance(value, _Object) else "[]"
        pad, first = "\n" + " " * (depth + 1), True
        for item in value:
            yield (opening if first else ",") + pad
            if isinstance(value, _Object):
                key, item = item
                yield encode(key) + ": "
            yield from _json(item, depth + 1)
            first = False
        yield opening + closing if first else "\n" + " " * depth + closing
    else:
        yield encode(value, indent=1).replace("\n", "\n" + " " * depth)


def audit_json_pieces(parts: AuditParts) -> Iterator[str]:
    """The audit as one JSON document, written a finding, an entry, a correction at a time: the same bytes as
    ``documents.encode(audit, indent=1)`` of the whole document (``audit.build_audit``)."""
    head = parts.head
    scores = _Object((p, _Object([("total", parts.totals[p]), ("entries", parts.entries(p))])) for p in parts.players)
    return _json(_Object([("game", head.game), ("id", head.id), ("score", head.score), ("findings", parts.findings()),
                          ("scores", scores), ("corrections", parts.corrections()),
                          *[(name, value) for name, value in (("fingerprint", head.fingerprint),
                                                              ("view_fingerprint", head.view_fingerprint),
                                                              ("reconciliation", head.reconciliation))
                            if value is not UNSET],
                          ("version", head.version)]))


def _reason(f: AuditFinding) -> str | None:
    """The group of an unverifiable finding: what the log's source does not record (``secret_objectives``), ``""``
    for another reason (what the log cannot hold, which its message says); None for a violation or a warning."""
    if f.not_recorded is not UNSET:
        return f.not_recorded
    return "" if f.severity == UNVERIFIABLE else None


class _Unchecked:
    """An audit's findings read in two parts: :meth:`others` (the violations and warnings, in line order), then
    :meth:`groups` (the unverifiable ones, by reason, then by rule, in the order first found, each group read
    again from the views when it is written: none is held)."""

    def __init__(self, parts: AuditParts):
        self.parts = parts
        self.counts: dict[str, dict[str, int]] = {}
        """Reason (:func:`_reason`) -> rule -> how many findings, as :meth:`others` counted them."""

    def others(self) -> Iterator[AuditFinding]:
        for f in self.parts.findings():
            reason = _reason(f)
            if reason is None:
                yield f
            else:
                rules = self.counts.setdefault(reason, {})
                rules[f.rule] = rules.get(f.rule, 0) + 1

    def groups(self) -> Iterator[tuple[str, str, int, Iterator[tuple[str, int, Iterator[AuditFinding]]]]]:
        """(the reason in words, ``""`` for what the log cannot hold; the group's heading; how many findings; each
        rule's (ID, count, findings)), once :meth:`others` has been read: what the source does not record first."""
        for reason in sorted(self.counts, key=lambda r: r == ""):
            rules = self.counts[reason]
            count = sum(rules.values())
            yield (reason.replace("_", " "), _lacks(reason, count), count,
                   ((rule, n, self._of(reason, rule)) for rule, n in rules.items()))

    def _of(self, reason: str, rule: str) -> Iterator[AuditFinding]:
        return (f for f in self.parts.findings() if _reason(f) == reason and f.rule == rule)


def _lacks(reason: str, count: int) -> str:
    """A group's heading: what the log lacks, and what that leaves unchecked."""
    rules = "its rule" if count == 1 else "their rules"
    if not reason:
        return f"the log does not hold what {plural(count, 'line')} need to be checked against {rules}"
    return f"the log's source does not record {reason.replace('_', ' ')}, so {plural(count, 'line')} cannot be " \
           f"checked against {rules}"


def _unchecked_line(f: AuditFinding) -> str:
    """What cannot be checked on a line: the log's words there when the source's lack is the reason (the group
    says it), else the finding's own message, which says what is missing."""
    lacking = not_recorded(f.message) if f.not_recorded is not UNSET else None
    said = f.message if lacking is None else f.log or lacking[1]
    return said + ("" if f.moot_by is UNSET else f" (moot: {f.moot_why})")


def _joined(lines: Iterable[str]) -> Iterator[str]:
    """The pieces of ``"\\n".join(lines)``, without holding the lines."""
    first = True
    for line in lines:
        yield line if first else "\n" + line
        first = False


def _fingerprint_named(audit: Audit) -> tuple[str, str]:
    """(what the audit's fingerprint is called, the fingerprint): the game's, or in a player's view that hides
    anything the view's own (docs/secrets.md)."""
    if audit.fingerprint is UNSET:
        return "view fingerprint", str(audit.view_fingerprint)
    return "fingerprint", audit.fingerprint


def audit_text_pieces(parts: AuditParts, width: int = WIDTH, style: Style = plain) -> Iterator[str]:
    """Every finding with its rule text and the log's words, the corrections, the scores; one player's derivation.

    Every line is at most ``width`` wide (wrapped with a hanging indent); user
    text is cleaned of control characters (``safe.clean``); each finding's
    line is in its severity's colour (``style``: ``click.style`` on a
    terminal). Written a finding at a time.
    """
    return _joined(_audit_text_lines(parts, width, style))


def _audit_text_lines(parts: AuditParts, width: int, style: Style) -> Iterator[str]:
    audit = parts.head

    def say(text: str, indent: int | str = 0, hanging: int | None = None, **styles: Any) -> Iterator[str]:
        return (style(part, **styles) if styles else part for part in wrap(clean(text), width, indent, hanging))

    named, fingerprint = _fingerprint_named(audit)
    yield from say(f"audit of {audit.game} {audit.id!r} ({named} {fingerprint[:SHORT]}): "
                   f"{severity_counts(parts.counts)}", hanging=2)
    unchecked = _Unchecked(parts)
    for f in unchecked.others():
        yield from say(finding(f"line {f.line}", f.severity, f.rule, f.player, f.message), hanging=4,
                       fg=severity_color(f.severity))
        yield from say(f.rule_text, "    rule: ")
        yield from say(f.rule_from, "    from: ")
        if f.log:
            yield from say(f.log, "    log:  ")
        if f.moot_by is not UNSET:
            yield from say(f.moot_why, "    moot: ")
        if f.derivation is not UNSET:  # a CLAIM: even an empty derivation says how the score stood
            yield from say(f"the log's {label(audit.score)} up to line {f.line}:", 4, 6)
            yield from _entries_text(f.derivation, "      ", width)
    for _, heading, _, rules in unchecked.groups():
        yield from say(f"{heading}:", hanging=2)
        for rule_id, n, findings in rules:
            first = True
            for f in findings:  # the rule and each of its lines in the colour of an unverifiable finding
                if first:
                    yield from say(f"{rule_id} ({n}): {f.rule_text} (from {f.rule_from})", 2, 4,
                                   fg=severity_color(f.severity))
                    first = False
                yield from say(f"line {f.line}" + (f" [{f.player}]" if f.player else "") + f": {_unchecked_line(f)}",
                               4, 6, fg=severity_color(f.severity))
    for c in parts.corrections():
        yield from say(f"correction at line {c.line}: voids line {c.voids} ({c.reason}): {c.voided_line}", hanging=2)
    yield from say(f"{label(audit.score)}: " + ", ".join(f"{p} {parts.totals[p]}" for p in parts.players), hanging=2)
    if len(parts.players) == 1:
        (player,) = parts.players
        yield from say(f"how {player}'s {label(audit.score)} of {parts.totals[player]} was made:", hanging=2)
        yield from _entries_text(parts.entries(player), "  ", width)
    if audit.reconciliation is not UNSET:  # the log declares a result: set against the computed one
        yield ""
        yield from render_reconciliation_text(audit.reconciliation, width).split("\n")


def audit_markdown_pieces(parts: AuditParts) -> Iterator[str]:
    """The findings as a table, the corrections as a list, and each player's score entries as a table; a row at a time."""
    return _joined(_audit_markdown_lines(parts))


def _audit_markdown_lines(parts: AuditParts) -> Iterator[str]:
    audit = parts.head
    named, fingerprint = _fingerprint_named(audit)
    yield from [f"# Audit of {audit.game} {markdown(audit.id)}", "", f"{named.capitalize()}: `{fingerprint}`", "",
                "| line | severity | rule | player | finding | rule text | rule from | log |",
                "| ---: | --- | --- | --- | --- | --- | --- | --- |"]
    unchecked = _Unchecked(parts)
    for f in unchecked.others():
        moot = "" if f.moot_by is UNSET else f" (moot: {f.moot_why})"
        yield (f"| {f.line} | {f.severity} | `{f.rule}` | {markdown(f.player)} | {markdown(f.message)}{moot} | "
               f"{markdown(f.rule_text)} | {markdown(f.rule_from)} | {markdown(f.log)} |")
    for reason, heading, count, rules in unchecked.groups():
        title = f"Not recorded by the log's source: {reason}" if reason else "Not held by the log"
        yield from ["", f"## {markdown(title)} ({count})", "", f"{markdown(heading[:1].upper() + heading[1:])}."]
        for rule_id, n, findings in rules:
            first = True
            for f in findings:
                if first:
                    yield from ["", f"`{rule_id}` ({n}): {markdown(f.rule_text)} (from {markdown(f.rule_from)})", "",
                                "| line | player | " + ("log |" if reason else "finding |"), "| ---: | --- | --- |"]
                    first = False
                yield f"| {f.line} | {markdown(f.player)} | {markdown(_unchecked_line(f))} |"
    heading = ["", "## Corrections", ""]
    for c in parts.corrections():
        yield from heading
        heading = []
        yield f"- line {c.line} voids line {c.voids} ({markdown(c.reason)}): {markdown(c.voided_line)}"
    for player in parts.players:
        yield from ["", f"## {markdown(player)}: {label(audit.score)} {parts.totals[player]}", "",
                    "| line | points | total | source | rule |", "| ---: | ---: | ---: | --- | --- |"]
        yield from (f"| {e.line} | {signed(e.points)} | {e.total} | {markdown(e.source)} | `{e.rule}` |"
                    for e in parts.entries(player))
    if audit.reconciliation is not UNSET:
        yield ""
        yield from render_reconciliation_markdown(audit.reconciliation).replace("\n## ", "\n### ").replace(
            "# Reconciliation", "## Declared result: reconciliation", 1).split("\n")


def render_what_if_json(diff: WhatIf) -> Iterator[str]:
    """The what-if as one JSON document, in pieces: its lists written as they are read (``encode_pieces``)."""
    return encode_pieces(diff, indent=1)


def render_what_if_text(diff: WhatIf, width: int = WIDTH, style: Style = plain) -> Iterator[str]:
    """What changes: findings that go and come, standings that differ, the end; in pieces, the lists' rows
    written as they are read (none held).

    Every line is at most ``width`` wide; user text is cleaned (``safe.clean``); a finding that goes or comes is
    in its severity's colour (``style``).
    """
    def say(text: str, indent: int | str = 0, hanging: int | None = None, **styles: Any) -> list[str]:
        return [style(part, **styles) if styles else part for part in wrap(clean(text), width, indent, hanging)]

    which = f"line{'s' if len(diff.without) > 1 else ''} {', '.join(map(str, diff.without))}"
    head = say(f"what if {which} of {diff.game} {diff.id!r} had not counted:", hanging=2)
    actual, what_if = diff.result.actual, diff.result.what_if
    end = say(f"end: {_end(actual)}  ->  {_end(what_if)}" + ("  (the winner changes)" if diff.winner_changes else ""),
              2, 4)
    if not any(_any(rows) for rows in (diff.findings_gone, diff.findings_new, diff.standings)) and \
            not diff.winner_changes:
        yield "\n".join([head[0], "  nothing else changes", *head[1:], *end])
        return
    yield "\n".join(head)
    for name, findings in (("findings that go", diff.findings_gone), ("findings that come", diff.findings_new)):
        for f in findings:
            yield from ("\n" + line for line in say(f"{name}: " + finding(f"line {f.line}", f.severity, f.rule, None,
                                                                             f.message), 2, 4,
                                                     fg=severity_color(f.severity)))
    for s in diff.standings:
        yield from ("\n" + line for line in say(f"{label(diff.score)} after {_period(s)}: "
                                                 f"{_standing(s.actual, diff.score)}  ->  "
                                                 f"{_standing(s.what_if, diff.score)}", 2, 4))
    yield from ("\n" + line for line in end)


def _any(rows: Iterable[Any]) -> bool:
    """Whether there is a row (the first read, if they are read as they are written)."""
    return next(iter(rows), None) is not None


def render_what_if_markdown(diff: WhatIf) -> str:
    """What changes, in Markdown: the findings that go and come as tables, the standings that differ, the end.

    Every piece of user text is escaped (``safe.markdown``).
    """
    diff = held(diff)  # each list is asked whether it has rows, then written
    which = f"line{'s' if len(diff.without) > 1 else ''} {', '.join(map(str, diff.without))}"
    out = [f"# What if {which} of {diff.game} {markdown(diff.id)} had not counted", ""]
    if not diff.findings_gone and not diff.findings_new and not diff.standings and not diff.winner_changes:
        out += ["Nothing else changes.", ""]
    for name, findings in (("Findings that go", diff.findings_gone), ("Findings that come", diff.findings_new)):
        if findings:
            out += [f"## {name}", "", "| line | severity | rule | player | finding |", "| ---: | --- | --- | --- | --- |"]
            out += [f"| {f.line} | {f.severity} | `{f.rule}` | {markdown(f.player)} | {markdown(f.message)} |"
                    for f in findings]
            out.append("")
    if diff.standings:
        score = label(diff.score)
        out += [f"## {markdown(score)}", "", "| after | actual | what if |", "| --- | --- | --- |"]
        out += [f"| {_period(s)} | {markdown(_standing(s.actual, diff.score))} | "
                f"{markdown(_standing(s.what_if, diff.score))} |" for s in diff.standings]
        out.append("")
    actual, what_if = diff.result.actual, diff.result.what_if
    out += ["## End", "", f"- actual: {markdown(_end(actual))}", f"- what if: {markdown(_end(what_if))}"]
    if diff.winner_changes:
        out.append("- **the winner changes**")
    return "\n".join(out)


def _period(change: StandingsChange) -> str:
    """``turn 6`` or ``round 6``, as the report grouped."""
    return f"turn {change.turn}" if change.turn is not UNSET else f"round {change.round}"


def _standing(standings: Standings | None, score: str) -> str:
    if standings is None:
        return "(no such period)"
    return ", ".join(f"{p} {row[score]}" for p, row in standings.items())


def _end(result: Result) -> str:
    return f"{result.winner or 'no winner'} ({result.reason})" if result.finished else "not finished"
