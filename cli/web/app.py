"""The recorder's HTTP application: the routes of docs/serve.md's contract, on Litestar.

Every route under ``/api/`` takes ``Authorization: Bearer TOKEN`` (never a cookie) and answers JSON; who the token is
(``tokens``) decides what the answer holds (the stored game's ``gamelog.Game``: the host the whole game, a seat
its player's view, a spectator the public one). The API router's guard (:func:`known`) says who the token is before
anything else is read (401, and 403 where a route is the host's: ``opt={"host": True}``); the handlers are given
their game as that viewer may know it (the ``game`` dependency, from the games the server holds decided in memory:
``held.py``), their typed body (``posted``), and return the services' documents, which Litestar encodes. The pages
(``/``, ``/games/{id}``) and their assets are static files of this package that carry no data: a device's token
stays in the page's URL fragment, which no request sends. No traceback ever reaches a client: every error is
``{"errors": [...]}`` with its status, by the error's type (:data:`ERRORS`).
"""

from __future__ import annotations

import asyncio
import logging
import re
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, AsyncIterator, Callable
from urllib.parse import quote

import anyio.to_thread
import msgspec
import segno
from litestar import Litestar, Request, Response, Router, get, post
from litestar.connection import ASGIConnection
from litestar.datastructures import ResponseHeader, State
from litestar.di import NamedDependency, Provide
from litestar.exceptions import HTTPException, NotAuthorizedException, PermissionDeniedException
from litestar.handlers.base import BaseRouteHandler
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import JsonRenderPlugin
from litestar.params import FromPath, FromQuery, Parameter, QueryParameter, RawBody
from litestar.response import ServerSentEvent, ServerSentEventMessage
from litestar.static_files import create_static_files_router

from gamelog.errors import (BadInput, GameNotFound, GamelogError, LogInvalid, NotYourLine, StoreBusy, StoreDamaged,
                            StoreError)
from gamelog.game import Game
from gamelog.listing import list_games
from gamelog.recording import MAX_LINES, EntryResult, header_forms
from gamelog.stores import Store

from gamelog.cli.web.follow import Follower, wait
from gamelog.cli.web.held import HeldGames
from gamelog.cli.web.ids import new_game_refused, reachable
from gamelog.cli.web.tokens import HOST, SEAT, SPECTATOR, Tokens, Viewer

LOG = logging.getLogger("gamelog.serve")
MAX_BODY = 64 * 1024
"""The largest request body taken (a header or a line is far smaller): a larger one is 413."""
HEARTBEAT = 15.0
"""Seconds a stream may stay silent: then a comment, so that a dead connection is noticed."""
STATIC = resources.files(__package__).joinpath("static")
LAST_EVENT_ID = re.compile(r"[0-9]{1,9}")
"""A ``Last-Event-ID`` taken: a line number (at most ``MAX_LINES``' nine digits); anything else is 400."""
Line = Annotated[int, Parameter(ge=0, le=MAX_LINES)]
"""A line number in a query (``line=``, ``after=``): beyond a log's most lines it is 400, before anything is read."""
MaybeLine = Annotated[int | None, Parameter(ge=0, le=MAX_LINES)]
"""A line number a query may leave out (:data:`Line`)."""
SECURITY_HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
                               "script-src 'self' 'unsafe-inline'; "
                               "frame-src blob:; connect-src 'self'; base-uri 'none'; form-action 'none'",
}
"""Every answer's headers: set once on the application (and on the error answers, which are made apart)."""


# -- the documents the API answers that no service gives ----------------------------------------------------------


EntryKey = Annotated[str, msgspec.Meta(min_length=1, max_length=128, pattern=r"^[\x21-\x7e]+$")]
"""A client's idempotency key (``gamelog.idempotency``): printable ASCII, no space, at most 128 characters."""


class LinePosted(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /api/games/{id}/lines``: the line (one object of the game's log), the lines the client has seen,
    whether the table agreed to a line that breaks a rule, the earlier line it replaces, if any, and why
    (``reason``: the correction's, for an undo or a Replace)."""

    line: msgspec.Raw
    after: int | None = None
    anyway: bool = False
    replaces: int | None = None
    reason: str | None = None
    key: EntryKey | None = None
    """The client's idempotency key of this entry (``gamelog.idempotency``): a resend of it gets the first answer."""


class StepTaken(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /api/games/{id}/turn``: the step of the turn flow to take (its ``id`` in the forms' ``turn``), the
    lines the client has seen, and whether the table agreed to a step that breaks a rule."""

    step: str
    after: int | None = None
    anyway: bool = False
    key: EntryKey | None = None
    """The client's idempotency key of this step, as a line's: a resend of it gets the first answer."""


class SeatsAllowed(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /api/games/{id}/settings``: whether every seat may record any player's lines."""

    any_seat: bool


class Me(msgspec.Struct):
    """``GET /api/me``: who the token is."""

    role: str
    player: str | None


class Link(msgspec.Struct, omit_defaults=True):
    """A join link: its token, its URL, and (the host's seats page) its QR code as SVG."""

    token: str
    url: str
    qr: str | None = None


class Seats(msgspec.Struct, omit_defaults=True):
    """A game's join links: one per seat, and the spectators'; whether every seat may record any player's lines
    (the host's seats page)."""

    id: str
    seats: dict[str, Link]
    spectator: Link
    any_seat: bool | None = None


class Moved(msgspec.Struct):
    """``409``: the entry was not stored, the game has moved past the lines it was made against."""

    appended: bool
    lines: int


@dataclass
class Served:
    """What one serving process holds: the store (open), the host's tokens, where devices reach it, the games it
    holds decided, and which games let every seat record any player's lines (the host's choice, for this process)."""

    location: str
    tokens: Tokens
    url: str
    store: Any = None
    held: HeldGames | None = None
    follower: Follower | None = None
    any_seat: set[str] = field(default_factory=set)
    reports: Any = None  # the reports' limiter (see ``report``)
    failed: Exception | None = None  # why the store could not be opened at start-up: what `gamelog serve` says

    def game_url(self, game_id: str, token: str) -> str:
        return f"{self.url}/games/{quote(game_id, safe='')}#token={token}"

    def seats(self, game: Game) -> Seats:
        """The join links of a game: a token and URL per seat, and the spectators'."""
        def link(token: str) -> Link:
            return Link(token=token, url=self.game_url(game.id, token))
        return Seats(id=game.id, seats={p: link(self.tokens.seat(game.id, p)) for p in game.players},
                     spectator=link(self.tokens.spectator(game.id)))


# -- errors: one answer a type ------------------------------------------------------------------------------------


def _problem(status: int, *errors: Any) -> Response:
    return Response(content={"errors": list(errors)}, status_code=status, headers=SECURITY_HEADERS)


def _said(status: int, text: str | None = None) -> Callable[[Request, Exception], Response]:
    """The handler of an error answered ``status`` with ``text``, or with the error's own message."""
    return lambda request, exc: _problem(status, str(exc) if text is None else text)


def _failed(status: int, text: str) -> Callable[[Request, Exception], Response]:
    """The handler of a failure: the server's own log keeps it (never a token: they travel in headers, which are
    not logged); the client reads ``text``."""
    def answer(request: Request, exc: Exception) -> Response:
        LOG.error("%s %s failed", request.method, request.url.path, exc_info=exc)
        return _problem(status, text)
    return answer


ERRORS: dict[type[Exception], Callable[[Request, Exception], Response]] = {
    # a query Litestar refused says which parameter, and why
    HTTPException: lambda request, exc: _problem(exc.status_code, exc.detail,
                                                 *(exc.extra if isinstance(exc.extra, list) else [])),
    LogInvalid: lambda request, exc: _problem(422, *({"line": e.line, "path": e.path, "message": e.message}
                                                     for e in exc.errors)),
    NotYourLine: _said(403),
    GameNotFound: _said(404),
    BadInput: _said(422),
    StoreBusy: _said(503, "the store is busy; try again"),
    StoreDamaged: _failed(500, "the store is damaged; `gamelog verify` says more"),
    StoreError: _failed(500, "the store cannot be used now"),
    GamelogError: _failed(500, "the store cannot be used now"),
    Exception: _failed(500, "internal error"),
}
"""Every error as ``{"errors": [...]}``, its status by its type (the closest class of it listed); never a
traceback. A body that is not the route's document is ``BadInput`` (422, :func:`body_of`)."""


# -- who asks, and what they are given ----------------------------------------------------------------------------


def _token(connection: ASGIConnection) -> str:
    scheme, _, token = connection.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise NotAuthorizedException(detail="no token: send Authorization: Bearer TOKEN")
    return token.strip()


def _checked_id(game_id: str) -> str:
    """A game id from a path, checked like any id (``ids``): one no game could have is 404."""
    if not reachable(game_id):
        raise HTTPException(status_code=404, detail="no such game")
    return game_id


async def known(connection: ASGIConnection, handler: BaseRouteHandler) -> None:
    """The API's guard: who the request's token is, at the game its path (or its ``game`` query) names: 401 for none
    or an unknown one (an unknown game included, so that a token's holder learns nothing of other games' ids), 403
    on a route of the host's (``opt={"host": True}``) for anyone else. Kept on the request's state: its ``viewer``,
    and its ``game`` as the viewer may know it (None: no game named, or the host naming a game not stored)."""
    table: Served = connection.app.state.table
    token = _token(connection)
    game_id = connection.path_params.get("game_id", connection.query_params.get("game"))
    game = None
    if game_id is not None:
        try:
            game = await anyio.to_thread.run_sync(table.held.game, _checked_id(game_id))
        except GameNotFound:
            if not table.tokens.is_host(token):
                raise NotAuthorizedException(detail="unknown token") from None
    viewer = table.tokens.viewer(token, game_id, game.players if game is not None else [])
    if viewer is None:
        raise NotAuthorizedException(detail="unknown token")
    if handler.opt.get("host") and viewer.role != HOST:
        raise PermissionDeniedException(detail="only the host may do this")
    connection.state.viewer = viewer
    connection.state.game = viewer.sees(game) if game is not None else None


def _viewer(request: Request) -> Viewer:
    return request.state.viewer


def _game(request: Request, game_id: FromPath[str]) -> Game:
    """The game the path names, as the token's viewer may know it; 404 for a game not stored (only the host gets
    this far: anyone else's token is 401 there)."""
    if request.state.game is None:
        raise GameNotFound(f"no stored game named {game_id!r}")
    return request.state.game


def _served(state: State) -> Served:
    return state.table


def body_of(kind: type) -> Provide:
    """The request's body read as ``kind`` (a Struct), exactly: an unknown field, a missing one or a value of
    another type is ``BadInput`` (422) naming it. Read from the raw bytes (not Litestar's ``data``, which decodes to
    plain values first): a line's JSON reaches the reader as it was sent, for its own checks (no key twice...)."""
    def decoded(body: RawBody) -> Any:
        try:
            return msgspec.json.decode(body, type=kind)
        except RecursionError:  # a value nested deeper than any line or header is
            raise BadInput("the request's body nests values too deep for a line of a log") from None
        except msgspec.ValidationError as exc:
            raise BadInput(f"the request's body: {exc}") from None
        except msgspec.DecodeError as exc:
            raise BadInput(f"the request's body is not JSON: {exc}") from None
    decoded.__annotations__["return"] = kind
    return Provide(decoded, sync_to_thread=False)


# -- the pages: static, no data -----------------------------------------------------------------------------------


def _secured(response: Any) -> Any:
    """A static file's answer with the headers every answer has (the files router makes its own answer, which the
    application's headers do not reach)."""
    response.headers.update(SECURITY_HEADERS)
    return response


@get(["/", "/games/{game_id:str}"], include_in_schema=False, media_type="text/html",
     sync_to_thread=False)
def page() -> bytes:
    """The page (the host's home, a game's): the same file, which reads its token from the URL's fragment."""
    return STATIC.joinpath("index.html").read_bytes()


@get("/games/{game_id:str}/table", include_in_schema=False, media_type="text/html", sync_to_thread=False)
def table_page() -> bytes:
    """The table's screen for a TV or a laptop in landscape (static; the token in the fragment, as every page)."""
    return STATIC.joinpath("table.html").read_bytes()


# -- the API ------------------------------------------------------------------------------------------------------


@get("/api/me", sync_to_thread=False)
def me(viewer: NamedDependency[Viewer], at: Annotated[str | None, QueryParameter(name="game")] = None) -> Me:
    """Who the token is (at the game ``game`` names, when given: the guard reads it): ``{"role", "player"}``."""
    return Me(role=viewer.role, player=viewer.player)


@get("/api/games", opt={"host": True}, sync_to_thread=True)
def games(table: NamedDependency[Served]) -> Any:
    """The stored games (host): ``games --format json``'s document."""
    return list_games(table.location)


@get("/api/headers", opt={"host": True}, sync_to_thread=False)
def headers() -> Any:
    """The form of each game's header (host): what a new game asks for."""
    return header_forms()


@post("/api/games", opt={"host": True}, status_code=201, sync_to_thread=True)
def create_game(table: NamedDependency[Served], body: RawBody) -> Seats:
    """A new game from its header (host): 201 with each seat's token and URL, and the spectators'."""
    refused = new_game_refused(body)
    if refused is not None:
        raise BadInput(refused)
    return table.seats(table.store.new_game(body))


@get("/api/games/{game_id:str}/seats", opt={"host": True}, sync_to_thread=True)
def seats(table: NamedDependency[Served], game: NamedDependency[Game]) -> Seats:
    """The join links (host): per seat its token, URL and QR code (SVG), and the spectators'."""
    joined = table.seats(game)
    for link in [*joined.seats.values(), joined.spectator]:
        link.qr = segno.make(link.url, error="m").svg_inline(scale=4, dark="#000", light="#fff")
    joined.any_seat = game.id in table.any_seat
    return joined


@post("/api/games/{game_id:str}/settings", opt={"host": True}, status_code=200, sync_to_thread=False,
      dependencies={"allowed": body_of(SeatsAllowed)})
def settings(table: NamedDependency[Served], game: NamedDependency[Game],
             allowed: NamedDependency[SeatsAllowed]) -> SeatsAllowed:
    """Whether every seat may record any player's lines (host); 404 for a game not stored (a game made later
    under its id starts as every game)."""
    (table.any_seat.add if allowed.any_seat else table.any_seat.discard)(game.id)
    return allowed


@post("/api/games/{game_id:str}/lines", dependencies={"posted": body_of(LinePosted)})
async def lines(table: NamedDependency[Served], viewer: NamedDependency[Viewer], game: NamedDependency[Game],
                posted: NamedDependency[LinePosted]) -> Response:
    """Record one line: 201 stored, 200 not stored (it breaks a rule and ``anyway`` is not set), 409 the game moved
    past ``after``, 422 malformed, 403 another player's line from a seat."""
    if viewer.role == SPECTATOR:
        raise NotYourLine("a spectator records nothing")
    # A resend of an entry whose answer was lost (its ``key``) gets the first answer, never a second line.
    result = await anyio.to_thread.run_sync(lambda: table.store.once(
        game.id, f"{viewer.role}:{viewer.player or ''}", posted.key,
        lambda: game.record(bytes(posted.line), after=posted.after, anyway=posted.anyway, replaces=posted.replaces,
                            reason=posted.reason, any_player=game.id in table.any_seat)))
    return _recorded(table, game.id, result)


@post("/api/games/{game_id:str}/turn", dependencies={"taken": body_of(StepTaken)})
async def turn(table: NamedDependency[Served], viewer: NamedDependency[Viewer], game: NamedDependency[Game],
               taken: NamedDependency[StepTaken]) -> Response:
    """Take one step of the turn flow ("End turn: Bob's turn"): its lines stored in one write, answered as a line
    is (201 stored, 200 not stored, 409 moved, 422 no such step now, 403 not this seat's)."""
    if viewer.role == SPECTATOR:
        raise NotYourLine("a spectator records nothing")
    result = await anyio.to_thread.run_sync(lambda: table.store.once(
        game.id, f"{viewer.role}:{viewer.player or ''}", taken.key,
        lambda: game.take_step(taken.step, after=taken.after, anyway=taken.anyway,
                               any_player=game.id in table.any_seat)))
    return _recorded(table, game.id, result)


def _recorded(table: Served, game_id: str, result: EntryResult) -> Response:
    """The answer to a line or a step recorded in the game ``game_id``: 201 stored, 200 not stored, 409 moved, 422
    malformed."""
    if result.appended:
        table.follower.nudge([game_id])  # the held game has the line: its streams in this process send it now
    if result.errors:
        return _problem(422, *msgspec.to_builtins(result.errors))
    if result.moved:
        return Response(Moved(appended=False, lines=result.lines), status_code=409)
    return Response(result, status_code=201 if result.appended else 200)


@get("/api/games/{game_id:str}/replay", sync_to_thread=True)
def replay(game: NamedDependency[Game], line: FromQuery[MaybeLine] = None) -> Any:
    """``replay --format json``'s document, at ``line`` (the end by default), as the token's viewer sees it."""
    return game.state(line=line)


@get("/api/games/{game_id:str}/result", sync_to_thread=True)
def result(game: NamedDependency[Game]) -> Any:
    """Where the game's result stands (``gamelog result --format json``'s document), as the token's viewer sees it:
    the fingerprint is the one that viewer's view shows, what a seat's confirmation gives."""
    return game.result()


@get("/api/games/{game_id:str}/bgstats", sync_to_thread=True)
def bgstats(game: NamedDependency[Game]) -> Any:
    """The game as BG Stats' play document, its push link and a file name (``export --to bgstats``), as the token's
    viewer sees it: what the end page offers."""
    return game.bgstats()


@get("/api/games/{game_id:str}/history", sync_to_thread=True)
def history(game: NamedDependency[Game], after: FromQuery[Line] = 0) -> Any:
    """The log's lines after ``after``, as the token's viewer sees them: words, findings, what voided each."""
    return game.lines(after)


@get("/api/games/{game_id:str}/forms", sync_to_thread=True)
def forms(game: NamedDependency[Game]) -> Any:
    """A form for each kind of line at the game's current state, offered what the token's viewer may know."""
    return game.forms()


@get("/api/games/{game_id:str}/screen", sync_to_thread=True)
def screen(game: NamedDependency[Game]) -> Any:
    """The table's screen (``domain.screen``): whose turn, the round, the score track, the game's own facts and
    panels, the last lines, as the token's viewer sees them."""
    return game.screen()


@get("/api/games/{game_id:str}/log", sync_to_thread=True, media_type="application/jsonl")
def log(viewer: NamedDependency[Viewer], game: NamedDependency[Game]) -> Response:
    """The log as JSON Lines (host, spectator: a seat reads its own view, never the log)."""
    if viewer.role == SEAT:
        raise PermissionDeniedException(detail="a seat reads its own view, not the log")
    return Response(b"".join(game.log()),  # a spectator's: the public view of every line
                    headers={"Content-Disposition": f'attachment; filename="{quote(game.id)}.jsonl"'})


REPORT_MEDIA = {"html": "text/html", "json": "application/json", "csv": "text/csv", "markdown": "text/markdown"}


@get("/api/games/{game_id:str}/report")
async def report(table: NamedDependency[Served], game: NamedDependency[Game], format: FromQuery[str] = "html") -> Response:
    """The game's report in ``format`` (html, markdown, text, json, csv) as the token's viewer sees it: the game
    stored under the id, never a file the id might name."""
    def rendered() -> str:
        with table.store.report(game.id, fmt=format, as_player=game.viewer) as pieces:
            return "".join(pieces)
    # A report reads the views and the history at once (two connections): reports take turns, at most half the
    # pool at a time, so that they never hold every connection while each waits for its second.
    text = await anyio.to_thread.run_sync(rendered, limiter=table.reports)
    # Litestar adds the charset to a text type, once.
    return Response(text, media_type=REPORT_MEDIA.get(format, "text/plain"))


@get("/api/games/{game_id:str}/stream")
async def stream(request: Request, table: NamedDependency[Served], viewer: NamedDependency[Viewer],
                 game_id: FromPath[str], after: FromQuery[MaybeLine] = None) -> ServerSentEvent:
    """``text/event-stream``: one ``line`` event per stored line (``id:`` its line number, data its
    :class:`~gamelog.projections.reports.documents.LogLine`), from after ``Last-Event-ID`` (or ``after``) on, as
    the token's viewer sees it; a comment every so often while nothing is stored."""
    _game(request, game_id)  # 404 for the host naming no stored game
    resume = request.headers.get("last-event-id")
    if resume is not None and not LAST_EVENT_ID.fullmatch(resume.strip()):
        raise HTTPException(status_code=400, detail="Last-Event-ID is the number of the last line seen")
    last = int(resume) if resume is not None else (after or 0)

    async def events() -> AsyncIterator[ServerSentEventMessage]:
        nonlocal last
        while True:
            moved = table.follower.moved(game_id)
            # The held game, caught up by the follower: only the lines after the last one sent are read (from memory),
            # in one worker thread's turn (a wake-up of a game's streams queues one turn a stream).
            seen = await anyio.to_thread.run_sync(lambda: viewer.sees(table.held.game(game_id)).lines(last))
            for line in seen.lines:
                yield ServerSentEventMessage(data=msgspec.json.encode(line).decode(), event="line", id=str(line.line))
                last = line.line
            if not await wait(moved, HEARTBEAT):
                yield ServerSentEventMessage(comment="waiting")

    return ServerSentEvent(events(), headers={"X-Accel-Buffering": "no"})


API = Router("/", route_handlers=[me, games, headers, create_game, seats, settings, lines, turn, replay, result,
                                  bgstats, history, forms, screen, log, report, stream],
             guards=[known], dependencies={"viewer": Provide(_viewer, sync_to_thread=False),
                                          "game": Provide(_game, sync_to_thread=False)})
"""Every route of the API: each request's token known first (:func:`known`)."""


def create_app(location: str, host_token: str, url: str) -> Litestar:
    """The recorder's application over the store at ``location`` (opened at start-up, closed at shutdown), the
    host's token ``host_token`` (every other token derived from it), reached by devices at ``url``."""
    table = Served(location, Tokens(host_token), url.rstrip("/"))

    @asynccontextmanager
    async def opened(app: Litestar) -> AsyncIterator[None]:
        try:
            table.store = await anyio.to_thread.run_sync(Store, location)
        except Exception as exc:  # what `gamelog serve` says then: the store's error, not the port's
            table.failed = exc
            raise
        # As many worker threads as the store's pool has connections (each request holds one at most): a burst of
        # entries queues for a thread instead of every thread holding one connection and waiting for a second.
        anyio.to_thread.current_default_thread_limiter().total_tokens = table.store.connections
        table.reports = anyio.CapacityLimiter(max(1, table.store.connections // 2))
        table.held = await anyio.to_thread.run_sync(HeldGames, table.store)
        table.follower = Follower(table.held)
        following = asyncio.create_task(table.follower.run())
        try:
            yield
        finally:
            following.cancel()
            await anyio.to_thread.run_sync(table.follower.stop)  # its read under way returned: the store may close
            await anyio.to_thread.run_sync(table.store.close)

    return Litestar(
        route_handlers=[page, table_page, API, create_static_files_router("/assets", [Path(str(STATIC))], include_in_schema=False,
                                                              after_request=_secured)],
        dependencies={"table": Provide(_served, sync_to_thread=False)},
        lifespan=[opened],
        state=State({"table": table}),
        response_headers=[ResponseHeader(name=name, value=value) for name, value in SECURITY_HEADERS.items()],
        exception_handlers=ERRORS,
        request_max_body_size=MAX_BODY,
        openapi_config=OpenAPIConfig(title="gamelog recorder", version="1", path="/api",
                                     render_plugins=[JsonRenderPlugin()], use_handler_docstrings=True),
        debug=False,
        logging_config=None,
    )
