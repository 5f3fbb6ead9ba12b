"""``gamelog audit GAME``: every finding with its rule and line, how each score was made, and what-ifs."""

from __future__ import annotations

import json
import os
from contextlib import ExitStack
from typing import Any

import click

from cli.errors import EXIT_OK, EXIT_VIOLATION, InputProblem
from cli.report import keeper_for
from cli.sources import load_game, store_option
from domain.replay import PointNotReached, without as replay_without
from projections.reports.audit import build_audit
from projections.views.keeper import views_in_memory
from projections.reports.model import build_report
from projections.store.verify import SHORT, fingerprint_of
from projections.reports.whatif import compare


def _lines(text: str) -> list[int]:
    try:
        lines = sorted({int(part) for part in text.split(",") if part.strip()})
    except ValueError:
        raise click.BadParameter(f"{text!r}: give line numbers separated by commas, such as 12,40") from None
    if not lines or lines[0] < 1:
        raise click.BadParameter("give at least one line number from 1 up")
    return lines


@click.command()
@click.argument("game")
@click.option("--player", help="Show how this player's score (VP, or net worth) was made, line by line.")
@click.option("--without", "without_", metavar="LINE[,LINE...]", help="Replay as if these lines were void and show what changes; nothing is edited.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True)
@store_option
def audit(game: str, player: str | None, without_: str | None, fmt: str, store: str) -> None:
    """Audit GAME: every finding (violation, unverifiable, warning) with its line, its rule and what the log says.

    GAME is a log file or a stored game's id. Exit 1 when the game (or, with
    --without, the game without those lines) breaks a rule, 0 otherwise.
    """
    lines = _lines(without_) if without_ is not None else None
    with ExitStack() as stack:
        _audit(stack, game, player, lines, fmt, store)


def _audit(stack: ExitStack, game: str, player: str | None, lines: list[int] | None, fmt: str, store: str) -> None:
    events, cursor, game_id, fingerprint = _open(stack, game, store, need_events=lines is not None)
    document = build_audit(cursor, game_id)
    document["fingerprint"] = fingerprint
    if player is not None and player not in document["scores"]:
        raise InputProblem(f"no player {player!r} in {game_id!r} (players: {', '.join(document['scores'])})")
    if lines is not None:
        try:
            hypothetical = replay_without(document["game"], events, set(lines))
        except PointNotReached as exc:
            raise InputProblem(f"{game}: {exc}") from exc
        what_if_cursor = views_in_memory(hypothetical).cursor()
        diff = compare(build_report(cursor, game_id), build_report(what_if_cursor, game_id), lines)
        click.echo(json.dumps(diff, ensure_ascii=False, indent=1) if fmt == "json" else _what_if_text(diff))
        violated = build_audit(what_if_cursor, game_id)["findings"]
    else:
        if player is not None:
            document["scores"] = {player: document["scores"][player]}
        render = {"json": lambda d: json.dumps(d, ensure_ascii=False, indent=1), "text": _text, "markdown": _markdown}[fmt]
        click.echo(render(document))
        violated = document["findings"]
    raise SystemExit(EXIT_VIOLATION if any(f["severity"] == "violation" for f in violated) else EXIT_OK)


def _open(stack: ExitStack, game: str, store: str, need_events: bool) -> tuple[list[Any] | None, Any, str, str]:
    """(events when asked for, a cursor on the game's views, the game's id, its fingerprint)."""
    if os.path.isfile(game):
        source = load_game(game, store)
        events = list(source.events)
        return events, views_in_memory(events).cursor(), source.id, fingerprint_of(source.id, events)
    keeper = keeper_for(store)
    summary = next((g for g in keeper.store.games() if g.id == game), None)
    if summary is None:
        raise InputProblem(f"no log file or stored game named {game!r} (in {store})")
    cursor = stack.enter_context(keeper.connection())
    return (list(keeper.store.history(game)) if need_events else None), cursor, game, summary.fingerprint


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _entries_text(entries: list[dict[str, Any]], indent: str) -> list[str]:
    return [f"{indent}line {e['line']:>5}  {_signed(e['points']):>7}  = {e['total']:<7} {e['source']} [{e['rule']}]" for e in entries]


def _text(doc: dict[str, Any]) -> str:
    counts: dict[str, int] = {}
    for f in doc["findings"]:
        counts[f["severity"]] = counts.get(f["severity"], 0) + 1
    summary = ", ".join(f"{n} {s}(s)" for s, n in sorted(counts.items())) or "no findings"
    out = [f"audit of {doc['game']} {doc['id']!r} (fingerprint {doc['fingerprint'][:SHORT]}): {summary}"]
    for f in doc["findings"]:
        who = f" [{f['player']}]" if f["player"] else ""
        out.append(f"line {f['line']}: {f['severity']} {f['rule']}{who}: {f['message']}")
        out.append(f"    rule: {f['rule_text']}")
        if f["log"]:
            out.append(f"    log:  {f['log']}")
        if "derivation" in f:
            out.append(f"    the log's {doc['score'].replace('_', ' ')} up to line {f['line']}:")
            out += _entries_text(f["derivation"], "      ")
    for c in doc["corrections"]:
        out.append(f"correction at line {c['line']}: voids line {c['voids']} ({c['reason']}): {c['voided_line']}")
    out.append(f"{doc['score'].replace('_', ' ')}: " + ", ".join(f"{p} {s['total']}" for p, s in doc["scores"].items()))
    if len(doc["scores"]) == 1:
        (player, score), = doc["scores"].items()
        out.append(f"how {player}'s {doc['score'].replace('_', ' ')} of {score['total']} was made:")
        out += _entries_text(score["entries"], "  ")
    return "\n".join(out)


def _markdown(doc: dict[str, Any]) -> str:
    out = [f"# Audit of {doc['game']} `{doc['id']}`", "", f"Fingerprint: `{doc['fingerprint']}`", "", "| line | severity | rule | player | finding | rule text | log |",
           "| ---: | --- | --- | --- | --- | --- | --- |"]
    esc = lambda s: (s or "").replace("|", "\\|")
    for f in doc["findings"]:
        out.append(f"| {f['line']} | {f['severity']} | `{f['rule']}` | {esc(f['player'])} | {esc(f['message'])} | "
                   f"{esc(f['rule_text'])} | {esc(f['log'])} |")
    if doc["corrections"]:
        out += ["", "## Corrections", ""] + [f"- line {c['line']} voids line {c['voids']} ({esc(c['reason'])}): {esc(c['voided_line'])}"
                                             for c in doc["corrections"]]
    for player, score in doc["scores"].items():
        out += ["", f"## {player}: {doc['score'].replace('_', ' ')} {score['total']}", "", "| line | points | total | source | rule |",
                "| ---: | ---: | ---: | --- | --- |"]
        out += [f"| {e['line']} | {_signed(e['points'])} | {e['total']} | {esc(e['source'])} | `{e['rule']}` |" for e in score["entries"]]
    return "\n".join(out)


def _what_if_text(diff: dict[str, Any]) -> str:
    which = f"line{'s' if len(diff['without']) > 1 else ''} {', '.join(map(str, diff['without']))}"
    out = [f"what if {which} of {diff['game']} {diff['id']!r} had not counted:"]
    for label, key in (("findings that go", "findings_gone"), ("findings that come", "findings_new")):
        for f in diff[key]:
            out.append(f"  {label}: line {f['line']}: {f['severity']} {f['rule']}: {f['message']}")
    for s in diff["standings"]:
        number = next(v for k, v in s.items() if k not in ("actual", "what_if"))
        out.append(f"  {diff['score'].replace('_', ' ')} after {number}: {_standing(s['actual'], diff['score'])}  ->  "
                   f"{_standing(s['what_if'], diff['score'])}")
    actual, what_if = diff["result"]["actual"], diff["result"]["what_if"]
    out.append(f"  end: {_end(actual)}  ->  {_end(what_if)}" + ("  (the winner changes)" if diff["winner_changes"] else ""))
    if len(out) == 2 and not diff["winner_changes"]:
        out.insert(1, "  nothing else changes")
    return "\n".join(out)


def _standing(standings: dict[str, dict[str, int]] | None, score: str) -> str:
    if standings is None:
        return "(no such period)"
    return ", ".join(f"{p} {row[score]}" for p, row in standings.items())


def _end(result: dict[str, Any]) -> str:
    return f"{result['winner'] or 'no winner'} ({result['reason']})" if result["finished"] else "not finished"
