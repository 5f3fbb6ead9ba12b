"""The result's state in words: ``gamelog result``'s text, and the one line every other output shows of it
("settled: confirmed by all 4 seats after line 281")."""

from __future__ import annotations

from typing import Any

from gamelog.projections.reports.documents import GameResult

SHORT = 16
"""Hex digits of a fingerprint as the text shows it (the JSON gives all 64)."""


def result_line(result: Any) -> str:
    """Where the result stands, in one line: its state, who confirmed the game after which line, who has not.
    ``result``: a :class:`GameResult`, or the domain's ``AgreementStanding`` (the same fields)."""
    after = f"after line {result.lines}"
    seats = len(result.confirmed) + len(result.pending)
    if not result.pending:
        confirmed = f"confirmed by all {seats} seats {after}" if seats != 1 else f"confirmed by its seat {after}"
    elif result.confirmed:
        confirmed = f"confirmed by {', '.join(result.confirmed)} {after}; waiting for {', '.join(result.pending)}"
    else:
        confirmed = f"no seat has confirmed the game {after}"
    unresolved = [d for d in result.disputes if d.resolved_by is None]
    if unresolved:
        said = "; ".join(f"{d.player} disputes it at line {d.line}: {d.reason}" for d in unresolved)
        return f"{result.state}: {said}; {confirmed}"
    return f"{result.state}: {confirmed}"


def render_result_text(result: GameResult) -> str:
    """``gamelog result``'s text: the state's line, the fingerprint, the winner, the standings and every dispute."""
    out = [result_line(result), f"fingerprint: {result.fingerprint[:SHORT]} (after line {result.lines})",
           f"winner: {result.winner if result.winner is not None else 'none yet'}",
           "standings:"]
    for s in result.standings:
        made = ", ".join(f"{source} {points}" for source, points in s.sources.items())
        out.append(f"  {s.player} {s.score}" + (f" ({made})" if made else ""))
    for d in result.disputes:
        ruled = f"resolved by the ruling at line {d.resolved_by}" if d.resolved_by is not None else "unresolved"
        out.append(f"dispute at line {d.line} by {d.player}: {d.reason} ({ruled})")
    return "\n".join(out)
