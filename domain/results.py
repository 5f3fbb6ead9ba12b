"""The table agrees on the result: confirmations, disputes and rulings, and the rules they answer to.

Every game's log may hold ``result_confirmed``, ``result_disputed`` and ``ruling`` lines (``domain.events``). None
of them changes a standing, nor do notes and score claims (:data:`QUIET`): every other line is a line of play, and
the last of them is what a confirmation confirms. A later line of play reopens the result: a confirmation made
before it no longer stands. What this module decides is pure: the engine calls its rules as it decides a line, and
:class:`Agreement` keeps what the lines said (bookkeeping of the state, like its findings: not play, so no snapshot
holds it); :meth:`Agreement.standing` says where the result stands.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from gamelog.domain.events import Note, ResultConfirmed, ResultDisputed, Ruling, ScoreClaimed

CONFIRM_RULE = "RESULT-CONFIRM"
"""A confirmation names the game's last line of play."""
FINGERPRINT_RULE = "RESULT-FINGERPRINT"
"""A confirmation's fingerprint is the one its player's view shows after the line it names."""
RULING_RULE = "RESULT-RULING"
"""A ruling resolves a dispute that no ruling has resolved yet."""

RULE_TEXTS = {
    CONFIRM_RULE: "A result_confirmed line confirms the game as it stands after its last line of play: its `lines` "
                  "must be that line (notes, score claims, confirmations, disputes and rulings are no play); a later "
                  "line of play reopens the result (docs/log-format.md).",
    FINGERPRINT_RULE: "A result_confirmed line's `fingerprint` is the one its player's view shows after line `lines` "
                      "(the view's own where it hides anything, else the game's).",
    RULING_RULE: "A ruling resolves a result_disputed line that no earlier ruling resolved.",
}
"""The rules of the result's agreement, which every game shares (``domain.ruletext`` quotes them)."""

RULES = frozenset(RULE_TEXTS)

QUIET = (Note, ScoreClaimed, ResultConfirmed, ResultDisputed, Ruling)
"""The recorded lines that change no standing: every other line is a line of play."""

OPEN, SETTLED, DISPUTED = "open", "settled", "disputed"


def confirmation_problem(event: ResultConfirmed, last_play: int) -> str | None:
    """RESULT-CONFIRM: why ``event`` does not confirm the game as it stands (its last line of play is
    ``last_play``), or None."""
    if event.lines != last_play:
        return (f"{event.player} confirms the game after line {event.lines}, but its last line of play is "
                f"line {last_play}: confirm the game as it stands now")
    return None


def fingerprint_problem(event: ResultConfirmed, shown: str) -> str | None:
    """RESULT-FINGERPRINT: why ``event``'s fingerprint is not ``shown`` (what its player's view shows after line
    ``event.lines``), or None. A confirmation may give the fingerprint's first hex digits (at least 8), as people
    read it."""
    if len(event.fingerprint) < 8 or not shown.startswith(event.fingerprint):
        return (f"{event.player} confirms fingerprint {event.fingerprint[:12]} after line {event.lines}, but "
                f"{event.player}'s view shows {shown[:12]} there")
    return None


@dataclass
class Dispute:
    """A ``result_disputed`` line: whose, why, and the ``ruling`` line that resolved it (None: unresolved)."""

    player: str
    reason: str
    line: int
    resolved_by: int | None = None


@dataclass
class AgreementStanding:
    """Where the result stands: ``state`` (open, settled, disputed), the last line of play (``lines``), the
    players whose confirmation stands, those still to confirm, and every dispute."""

    state: str
    lines: int
    confirmed: list[str]
    pending: list[str]
    disputes: list[Dispute]


@dataclass
class Agreement:
    """What the quiet lines of a game said: which lines change no standing, each player's last confirmation or
    dispute, every dispute and ruling, and the lines a result rule refused (a finding under :data:`RULES`)."""

    quiet: set[int] = field(default_factory=set)
    confirmations: dict[str, tuple[int, ResultConfirmed]] = field(default_factory=dict)
    """Each player's last word on the result: their confirmation (line, line's event), removed by a dispute."""
    disputes: dict[int, Dispute] = field(default_factory=dict)
    refused: set[int] = field(default_factory=set)

    def fold(self, line: int, recorded: Any) -> None:
        """Keep a quiet line (one of :data:`QUIET`)."""
        self.quiet.add(line)
        kind = type(recorded)
        if kind is ResultConfirmed:
            self.confirmations[recorded.player] = (line, recorded)
        elif kind is ResultDisputed:
            self.confirmations.pop(recorded.player, None)
            self.disputes[line] = Dispute(recorded.player, recorded.reason, line)
        elif kind is Ruling:
            dispute = self.disputes.get(recorded.resolves)
            if dispute is not None and dispute.resolved_by is None:
                dispute.resolved_by = line

    def refuse(self, line: int) -> None:
        """A result rule refused ``line``: a confirmation there does not stand."""
        self.refused.add(line)

    def ruling_problem(self, line: int, event: Ruling) -> str | None:
        """RESULT-RULING: why the ruling at ``line`` resolves nothing, or None (read after the ruling is kept)."""
        dispute = self.disputes.get(event.resolves)
        if dispute is None:
            return f"line {event.resolves} holds no result_disputed line; a ruling resolves a dispute"
        if dispute.resolved_by != line:
            return f"the dispute at line {event.resolves} was resolved by the ruling at line {dispute.resolved_by}"
        return None

    def last_play(self, event_lines: Sequence[int], header_line: int, voided: Iterable[int] = (),
                  before: int | None = None) -> int:
        """The game's last line of play before line ``before`` (None: of all): the last of ``event_lines`` (in
        order) that is not quiet, or a later line of ``voided`` (a voided line was play when it was written: a
        confirmation decided again without it, by a correction, confirmed the game as it stood then); the header's
        when there is none."""
        last = header_line
        for line in reversed(event_lines):  # the quiet lines are few and at the end
            if (before is None or line < before) and line not in self.quiet:
                last = line
                break
        return max([last, *(v for v in voided if (before is None or v < before) and v not in self.quiet)])

    def before(self, line: int, voided: Iterable[int] = ()) -> "Agreement":
        """What the lines before ``line`` said: the agreement a correction's deciding again starts from (it decides
        the lines from ``line`` on again, the ``voided`` ones left out: which of those were quiet is kept)."""
        gone = set(voided)
        kept = Agreement(quiet={q for q in self.quiet if q < line or q in gone},
                         refused={r for r in self.refused if r < line})
        kept.confirmations = {p: c for p, c in self.confirmations.items() if c[0] < line}
        kept.disputes = {d.line: Dispute(d.player, d.reason, d.line,
                                         d.resolved_by if d.resolved_by is not None and d.resolved_by < line else None)
                         for d in self.disputes.values() if d.line < line}
        return kept

    def standing(self, players: list[str], last_play: int,
                 fingerprint_ok: Callable[[int, ResultConfirmed], bool] = lambda line, event: True
                 ) -> AgreementStanding:
        """Where the result stands after the game's lines, ``last_play`` its last line of play: a player's
        confirmation stands when it came after ``last_play``, names it, no result rule refused it, and
        ``fingerprint_ok`` (line, confirmation) holds (what the domain cannot check: RESULT-FINGERPRINT)."""
        confirmed = [p for p in players if (c := self.confirmations.get(p)) is not None and c[0] > last_play
                     and c[1].lines == last_play and c[0] not in self.refused and fingerprint_ok(*c)]
        pending = [p for p in players if p not in confirmed]
        disputes = sorted(self.disputes.values(), key=lambda d: d.line)
        state = (DISPUTED if any(d.resolved_by is None for d in disputes)
                 else SETTLED if not pending else OPEN)
        return AgreementStanding(state, last_play, confirmed, pending,
                                 [Dispute(d.player, d.reason, d.line, d.resolved_by) for d in disputes])
