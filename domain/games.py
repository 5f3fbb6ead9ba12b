"""The games gamelog knows, by the name a log's header gives in ``game``: one line each.

Each game is one folder (a package) with the same modules: ``events`` (the
log's lines and the derived events), ``state`` (their fold), ``rules`` (each
rule checked, citing its ID), ``game`` (the engine that decides, its own rule
texts, and ``RULES``), ``reference`` (its reference data), ``phrases`` (how
each event reads in words), ``measures`` (what it counts, its score and goal),
``statistics`` (what it counts across games) and ``replay_document``
(its part of ``replay --format json``). Its ``game`` module's ``RULES``, a
:class:`GameRules`, ties them together: the reader, the store, the views,
the reports and the CLI find every game through this registry, and know none
of them by name.

A game may be plugged in from elsewhere (:func:`register`, or
:func:`plugged_in` for a while); see ``docs/adding-a-game.md``.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable

import msgspec

from gamelog.domain.declarations import ResultSources
from gamelog.domain.events import GameEvents
from gamelog.domain.measures import Measures
from gamelog.domain.phrases import COMMON, KINDS, PLAIN_STATE, Phrase, StatePhrases, humanise, tell

_NOTHING_COUNTED = Measures(steps={}, standings=(), score=(), score_name="score")


@dataclass(frozen=True)
class GameRules:
    """Everything generic code needs to know about one game.

    ``events`` is the game's :class:`~domain.events.GameEvents` (from
    ``domain.events.game_events``): the Structs of the log format
    (``header_type``, ``event_types``) and every event class the store may
    hold for this game (``stored_types``). ``engine`` is the class that
    applies the rules (``domain.engine.Engine``).
    ``converters`` maps the name ``--from`` takes (``ti-assistant``) to a function
    ``(export, game_id) -> domain.conversion.Conversion`` turning another tool's
    export of this game into a log.
    ``phrases`` gives the words of each of its event types (by ``type``; the
    events every game has are told by ``domain.phrases``), ``measures`` what it
    counts (:class:`~domain.measures.Measures`), ``rounds`` the recorded event
    class that begins a round (its ``round`` field is the round's number;
    None when the game has turns only), ``state_phrases`` how its state reads
    to a player (``domain.phrases.StatePhrases``), ``rule_texts`` the texts of its own
    rule IDs (those RULES.md does not hold), and ``statistics`` what it counts
    across games (a :class:`~domain.statistics.Statistics`, from its
    ``statistics`` module; None: ``gamelog stats`` has nothing to say of it).
    ``turn_steps`` gives its own steps of the turn flow (its ``game`` module's,
    ``domain.turn_flow``; None: the steps every game has), ``kinds`` the name
    of each of its kinds of line in players' words (its ``phrases.KINDS``;
    ``domain.phrases.KINDS`` names the common ones, :meth:`kind` any), and
    ``screen`` its facts and panels on the table's screen (its
    ``replay_document.screen``, ``domain.screen``; None: the score track only).
    ``secrets`` is its ``secrets.HIDDEN`` (``domain.secrets.Hidden``): what
    a player may not see at a point of the game, what ``--as PLAYER`` hides
    (None: nothing is hidden). ``results`` reads what its log declares of the
    result and where each point of its score comes from
    (``domain.declarations``; by default: nothing declared, one source).

    Made from them: ``period``, how its reports group by default (``"round"``
    for a game with rounds, else ``"turn"``), and ``round_of``, the round a
    recorded line begins (None for any other line; ``round_of`` itself is None
    when the game has no rounds).
    """

    name: str
    events: GameEvents
    engine: type
    converters: Mapping[str, Callable[[Any, str | None], Any]] = field(default_factory=dict)
    phrases: Mapping[str, Phrase] = field(default_factory=dict)
    measures: Measures = _NOTHING_COUNTED
    rounds: type | None = None
    rule_texts: Mapping[str, str] = field(default_factory=dict)
    secrets: Callable[[str, Any, Any], Any] | None = None
    results: ResultSources = ResultSources()
    state_phrases: StatePhrases = PLAIN_STATE
    statistics: Any = None
    offers: Callable[[Any, str | None], Mapping[str, Mapping[str, Any]]] | None = None
    turn_steps: Callable[[Any], Any] | None = None
    kinds: Mapping[str, str] = field(default_factory=dict)
    screen: Callable[[dict[str, Any]], Any] | None = None
    header_type: type = field(init=False, repr=False, compare=False)
    event_types: tuple[type, ...] = field(init=False, repr=False, compare=False)
    stored_types: tuple[type, ...] = field(init=False, repr=False, compare=False)
    period: str = field(init=False, repr=False, compare=False)
    round_of: Callable[[Any], int | None] | None = field(init=False, repr=False, compare=False)
    header_decoder: Any = field(init=False, repr=False, compare=False)
    event_decoder: Any = field(init=False, repr=False, compare=False)
    events_decoder: Any = field(init=False, repr=False, compare=False)
    words: Mapping[str, Phrase] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        made = {
            "header_type": self.events.header,
            "event_types": self.events.recorded,
            "stored_types": self.events.stored,
            "period": "turn" if self.rounds is None else "round",
            "round_of": None if self.rounds is None else self._round_begun,
            "header_decoder": msgspec.json.Decoder(self.events.header),
            "event_decoder": msgspec.json.Decoder(_union(self.events.recorded)),
            # Many lines at once, as one JSON array (the reader's fast path, domain.reader).
            "events_decoder": msgspec.json.Decoder(list[_union(self.events.recorded)]),
            "words": {**COMMON, **self.phrases},
        }
        for name, value in made.items():
            object.__setattr__(self, name, value)

    def _round_begun(self, recorded: Any) -> int | None:
        return recorded.round if type(recorded) is self.rounds else None

    def kind(self, tag: str) -> str:
        """The name of the kind of line ``tag`` in players' words ("Pay a hazard"), for a form."""
        return self.kinds.get(tag) or KINDS.get(tag) or humanise(tag)

    def phrase(self, recorded: Any) -> tuple[str, str | None, str]:
        """(type, player, words) for one of this game's recorded events."""
        return tell(recorded, self.words)

    def goal(self, header: Any) -> int | None:
        """The score that ends the game, as ``header`` sets it (None: the game has none)."""
        return self.measures.goal(header)


def _union(types: tuple[type, ...]) -> Any:
    from typing import Union

    return types[0] if len(types) == 1 else Union[types]  # a runtime union of the classes, for msgspec


class _Registry(Mapping[str, GameRules]):
    """Game name -> rules, importing a game's package only when it is first asked for."""

    def __init__(self, packages: dict[str, str]):
        self._packages = dict(packages)
        self._loaded: dict[str, GameRules] = {}

    def __getitem__(self, name: str) -> GameRules:
        if name not in self._loaded:
            package = self._packages[name]  # KeyError for an unknown game, as a Mapping should
            self._loaded[name] = _rules_of(package, name)
        return self._loaded[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._packages)

    def __len__(self) -> int:
        return len(self._packages)

    def loaded(self) -> list[str]:
        """The games whose packages are imported already (a lookup that may find its answer there need not
        import the others)."""
        return list(self._loaded)

    def package(self, name: str) -> str:
        """The import path of game ``name``'s folder; raises ``KeyError`` for a game the registry does not hold."""
        return self._packages[name]

    def register(self, package: str) -> GameRules:
        """Plug in the game whose folder is the importable ``package``; returns its rules.

        Raises ``ValueError`` when a game of that name is already registered,
        and ``ImportError`` (or ``AttributeError``) when ``package.game`` has no ``RULES``.
        """
        rules = _rules_of(package)
        if rules.name in self._packages:
            raise ValueError(f"a game named {rules.name!r} is already registered")
        self._packages[rules.name] = package
        self._loaded[rules.name] = rules
        return rules

    def unregister(self, name: str) -> None:
        """Take the game ``name`` out of the registry; raises ``KeyError`` for a game it does not hold."""
        del self._packages[name]
        self._loaded.pop(name, None)


def _rules_of(package: str, name: str | None = None) -> GameRules:
    rules = importlib.import_module(f"{package}.game").RULES
    if name is not None and rules.name != name:
        raise ValueError(f"{package}.game.RULES is the game {rules.name!r}, registered as {name!r}")
    return rules


GAMES = _Registry({
    "merchant-of-venus": "gamelog.domain.merchant_of_venus",
    "uchronia": "gamelog.domain.uchronia",
    "twilight-imperium-4": "gamelog.domain.twilight_imperium",
})


def converters() -> dict[str, Callable[[Any, str | None], Any]]:
    """Every registered converter across the games, by the name ``--from`` takes."""
    return {name: convert for rules in GAMES.values() for name, convert in rules.converters.items()}


def register(package: str) -> GameRules:
    """Plug a game in for good (see :meth:`_Registry.register`)."""
    return GAMES.register(package)


def unregister(name: str) -> None:
    """Take a game out (see :meth:`_Registry.unregister`)."""
    GAMES.unregister(name)


@contextmanager
def plugged_in(package: str) -> Iterator[GameRules]:
    """The game in ``package`` registered for the ``with`` block only, then taken out again."""
    rules = register(package)
    try:
        yield rules
    finally:
        unregister(rules.name)
