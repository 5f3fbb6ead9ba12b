"""The recorder's HTTP application: the routes of docs/serve.md's contract, on Litestar.

Every route under ``/api/`` takes ``Authorization: Bearer TOKEN`` (never a cookie) and answers JSON; who the token is
(``tokens``) decides what the answer holds (``gamelog.table``: the host everything, a seat its player's view, a
spectator the public one). The pages (``/``, ``/games/{id}``) and their assets are static files of this package
that carry no data: a device's token stays in the page's URL fragment, which no request sends. No traceback ever
reaches a client: every error is ``{"errors": [...]}`` with its status.
"""

from __future__ import annotations

import asyncio
import logging
import re
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from importlib import resources
from typing import Annotated, Any, AsyncIterator
from urllib.parse import quote

import anyio.to_thread
import msgspec
import segno
from litestar import Litestar, Request, Response, get, post
from litestar.exceptions import HTTPException
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import JsonRenderPlugin
from litestar.params import FromPath, FromQuery, Parameter
from litestar.response import ServerSentEvent, ServerSentEventMessage

from gamelog.errors import BadInput, GameNotFound, GamelogError, LogInvalid, StoreBusy, StoreDamaged, StoreError
from gamelog.idempotency import once
from gamelog.listing import list_games
from gamelog.recording import MAX_LINES, NotYourLine, header_forms, new_game, export_log
from gamelog.sources import open_game_store
from gamelog.table import HOST, SEAT, SPECTATOR, Viewer, forms_seen, lines_seen, record_entry, replay_seen, report_seen

from gamelog.cli.web.follow import Follower, wait
from gamelog.cli.web.ids import new_game_refused, reachable
from gamelog.cli.web.tokens import Tokens

LOG = logging.getLogger("gamelog.serve")
MAX_BODY = 64 * 1024
"""The largest request body taken (a header or a line is far smaller): a larger one is 413."""
HEARTBEAT = 15.0
"""Seconds a stream may stay silent: then a comment, so that a dead connection is noticed."""
STATIC = resources.files(__package__).joinpath("static")
_ASSETS = {"app.js": "text/javascript", "app.css": "text/css"}
"""Each asset's media type: Litestar adds the charset (``; charset=utf-8``) to a text type, once."""
LAST_EVENT_ID = re.compile(r"[0-9]{1,9}")
"""A ``Last-Event-ID`` taken: a line number (at most ``MAX_LINES``' nine digits); anything else is 400."""
Line = Annotated[int, Parameter(ge=0, le=MAX_LINES)]
"""A line number in a query (``line=``, ``after=``): beyond a log's most lines it is 400, before anything is read."""
MaybeLine = Annotated[int | None, Parameter(ge=0, le=MAX_LINES)]
"""A line number a query may leave out (:data:`Line`)."""
_SECURITY_HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
                               "script-src 'self' 'unsafe-inline'; "
                               "frame-src blob:; connect-src 'self'; base-uri 'none'; form-action 'none'",
}


class LinePosted(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /api/games/{id}/lines``: the line (one object of the game's log), the lines the client has seen,
    whether the table agreed to a line that breaks a rule, and the earlier line it replaces, if any."""

    line: msgspec.Raw
    after: int | None = None
    anyway: bool = False
    replaces: int | None = None
    key: Annotated[str, msgspec.Meta(min_length=1, max_length=128, pattern=r"^[\x21-\x7e]+$")] | None = None
    """The client's idempotency key of this entry (``gamelog.idempotency``): a resend of it gets the first answer."""


class SeatsAllowed(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /api/games/{id}/settings``: whether every seat may record any player's lines."""

    any_seat: bool


@dataclass
class Served:
    """What one serving process holds: the store (open), the host's tokens, where devices reach it, and which
    games let every seat record any player's lines (the host's choice, for this process)."""

    location: str
    tokens: Tokens
    url: str
    store: Any = None
    follower: Follower | None = None
    any_seat: set[str] = field(default_factory=set)
    reports: Any = None
    failed: Exception | None = None

    def game_url(self, game_id: str, token: str) -> str:
        return f"{self.url}/games/{quote(game_id, safe='')}#token={token}"


def _problem(status: int, *errors: Any) -> Response:
    return Response(content={"errors": list(errors)}, status_code=status, headers=_SECURITY_HEADERS)


def _answer(content: Any, status: int = 200) -> Response:
    return Response(content=msgspec.to_builtins(content), status_code=status, headers=_SECURITY_HEADERS)


def _errors(request: Request, exc: Exception) -> Response:
    """Every error as ``{"errors": [...]}``, its status by kind; never a traceback."""
    if isinstance(exc, HTTPException):  # a query Litestar refused says which parameter, and why
        return _problem(exc.status_code, exc.detail, *(exc.extra if isinstance(exc.extra, list) else []))
    if isinstance(exc, LogInvalid):
        return _problem(422, *({"line": e.line, "path": e.path, "message": e.message} for e in exc.errors))
    if isinstance(exc, NotYourLine):
        return _problem(403, str(exc))
    if isinstance(exc, GameNotFound):
        return _problem(404, str(exc))
    if isinstance(exc, BadInput):
        return _problem(422, str(exc))
    if isinstance(exc, StoreBusy):
        return _problem(503, "the store is busy; try again")
    # What the server's own log keeps of a failure (never a token: they travel in headers, which are not logged).
    LOG.error("%s %s failed", request.method, request.url.path, exc_info=exc)
    if isinstance(exc, StoreDamaged):
        return _problem(500, "the store is damaged; `gamelog verify` says more")
    if isinstance(exc, (StoreError, GamelogError)):
        return _problem(500, "the store cannot be used now")
    return _problem(500, "internal error")


def _token(request: Request) -> str:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise HTTPException(status_code=401, detail="no token: send Authorization: Bearer TOKEN")
    return token.strip()


def _checked_id(game_id: str) -> str:
    """A game id from a path, checked like any id (``ids``): one no game could have is 404."""
    if not reachable(game_id):
        raise HTTPException(status_code=404, detail="no such game")
    return game_id


def _table(request: Request) -> Served:
    return request.app.state.table


async def _viewer(request: Request, game_id: str | None = None) -> Viewer:
    """Who the request's token is at ``game_id``: 401 for none or an unknown one (an unknown game included, so
    that a token's holder learns nothing of other games' ids)."""
    table, token = _table(request), _token(request)
    players: list[str] = []
    if game_id is not None:
        summary = await anyio.to_thread.run_sync(table.store.summary, _checked_id(game_id))
        players = list(summary.players) if summary is not None else []
        if summary is None and not table.tokens.is_host(token):
            raise HTTPException(status_code=401, detail="unknown token")
    viewer = table.tokens.viewer(token, game_id, players)
    if viewer is None:
        raise HTTPException(status_code=401, detail="unknown token")
    return viewer


def _host_only(viewer: Viewer) -> None:
    if viewer.role != HOST:
        raise HTTPException(status_code=403, detail="only the host may do this")


async def _run(function: Any, *args: Any, **kwargs: Any) -> Any:
    return await anyio.to_thread.run_sync(lambda: function(*args, **kwargs))


def _seats(table: Served, game_id: str, players: list[str]) -> dict[str, Any]:
    """The join links of a game: a token and URL per seat, and the spectators'."""
    seats = {p: {"token": table.tokens.seat(game_id, p), "url": table.game_url(game_id, table.tokens.seat(game_id, p))}
             for p in players}
    watch = table.tokens.spectator(game_id)
    return {"id": game_id, "seats": seats, "spectator": {"token": watch, "url": table.game_url(game_id, watch)}}


# -- the pages: static, no data ---------------------------------------------------------------------------------


def _page() -> Response:
    return Response(content=STATIC.joinpath("index.html").read_bytes(), media_type="text/html",
                    headers=_SECURITY_HEADERS)


@get("/", include_in_schema=False)
async def host_page() -> Response:
    return _page()


@get("/games/{game_id:str}", include_in_schema=False)
async def game_page(game_id: FromPath[str]) -> Response:
    return _page()


@get("/assets/{name:str}", include_in_schema=False)
async def asset(name: FromPath[str]) -> Response:
    if name not in _ASSETS:
        raise HTTPException(status_code=404, detail="no such file")
    return Response(content=STATIC.joinpath(name).read_bytes(), media_type=_ASSETS[name], headers=_SECURITY_HEADERS)


# -- the API ----------------------------------------------------------------------------------------------------


@get("/api/me")
async def me(request: Request, game: FromQuery[str | None] = None) -> Response:
    """Who the token is (at ``game``, when given): ``{"role", "player"}``."""
    viewer = await _viewer(request, game)
    return _answer({"role": viewer.role, "player": viewer.player})


@get("/api/games")
async def games(request: Request) -> Response:
    """The stored games (host): ``games --format json``'s document."""
    _host_only(await _viewer(request))
    return _answer(await _run(list_games, _table(request).location))


@get("/api/headers")
async def headers(request: Request) -> Response:
    """The form of each game's header (host): what a new game asks for."""
    _host_only(await _viewer(request))
    return _answer(header_forms())


@post("/api/games")
async def create_game(request: Request) -> Response:
    """A new game from its header (host): 201 with each seat's token and URL, and the spectators'."""
    table = _table(request)
    _host_only(await _viewer(request))
    body = await request.body()
    refused = new_game_refused(body)
    if refused is not None:
        raise BadInput(refused)
    game_id = await _run(new_game, table.store, body)
    summary = await _run(table.store.summary, game_id)
    return _answer(_seats(table, game_id, list(summary.players)), 201)


@get("/api/games/{game_id:str}/seats")
async def seats(request: Request, game_id: FromPath[str]) -> Response:
    """The join links (host): per seat its token, URL and QR code (SVG), and the spectators'."""
    table = _table(request)
    _host_only(await _viewer(request, game_id))
    summary = await _run(table.store.summary, game_id)
    if summary is None:
        raise GameNotFound(f"no stored game named {game_id!r}")
    joined = _seats(table, game_id, list(summary.players))
    for link in [*joined["seats"].values(), joined["spectator"]]:
        link["qr"] = segno.make(link["url"], error="m").svg_inline(scale=4, dark="#000", light="#fff")
    joined["any_seat"] = game_id in table.any_seat
    return _answer(joined)


@post("/api/games/{game_id:str}/settings")
async def settings(request: Request, game_id: FromPath[str]) -> Response:
    """Whether every seat may record any player's lines (host)."""
    table = _table(request)
    _host_only(await _viewer(request, game_id))
    if await _run(table.store.summary, game_id) is None:  # a game made later under this id starts as every game
        raise GameNotFound(f"no stored game named {game_id!r}")
    allowed = _decoded(await request.body(), SeatsAllowed)
    (table.any_seat.add if allowed.any_seat else table.any_seat.discard)(game_id)
    return _answer({"any_seat": allowed.any_seat})


def _decoded(body: bytes, kind: type) -> Any:
    try:
        return msgspec.json.decode(body, type=kind)
    except RecursionError:  # a value nested deeper than any line or header is
        raise BadInput("the request's body nests values too deep for a line of a log") from None
    except msgspec.ValidationError as exc:
        raise BadInput(f"the request's body: {exc}") from None
    except msgspec.DecodeError as exc:
        raise BadInput(f"the request's body is not JSON: {exc}") from None


@post("/api/games/{game_id:str}/lines")
async def lines(request: Request, game_id: FromPath[str]) -> Response:
    """Record one line: 201 stored, 200 not stored (it breaks a rule and ``anyway`` is not set), 409 the game moved
    past ``after``, 422 malformed, 403 another player's line from a seat."""
    table = _table(request)
    viewer = await _viewer(request, game_id)
    posted = _decoded(await request.body(), LinePosted)
    result = await _run(once, table.store, game_id, f"{viewer.role}:{viewer.player or ''}", posted.key,
                        lambda: record_entry(table.store, game_id, viewer, bytes(posted.line), after=posted.after,
                                             anyway=posted.anyway, replaces=posted.replaces,
                                             any_seat=game_id in table.any_seat))
    if result.errors:
        return _problem(422, *msgspec.to_builtins(result.errors))
    if result.moved:
        return _answer({"appended": False, "lines": result.lines}, 409)
    return _answer(result, 201 if result.appended else 200)


@get("/api/games/{game_id:str}/replay")
async def replay(request: Request, game_id: FromPath[str], line: FromQuery[MaybeLine] = None) -> Response:
    """``replay --format json``'s document, at ``line`` (the end by default), as the token's viewer sees it."""
    viewer = await _viewer(request, game_id)
    return _answer(await _run(replay_seen, _table(request).store, game_id, viewer, line))


@get("/api/games/{game_id:str}/history")
async def history(request: Request, game_id: FromPath[str], after: FromQuery[Line] = 0) -> Response:
    """The log's lines after ``after``, as the token's viewer sees them: words, findings, what voided each."""
    viewer = await _viewer(request, game_id)
    return _answer(await _run(lines_seen, _table(request).store, game_id, viewer, after))


@get("/api/games/{game_id:str}/forms")
async def forms(request: Request, game_id: FromPath[str]) -> Response:
    """A form for each kind of line at the game's current state, offered what the token's viewer may know."""
    viewer = await _viewer(request, game_id)
    return _answer(await _run(forms_seen, _table(request).store, game_id, viewer))


@get("/api/games/{game_id:str}/log")
async def log(request: Request, game_id: FromPath[str]) -> Response:
    """The log as JSON Lines (host, spectator: a seat reads its own view, never the log)."""
    viewer = await _viewer(request, game_id)
    if viewer.role == SEAT:
        raise HTTPException(status_code=403, detail="a seat reads its own view, not the log")
    table = _table(request)
    if viewer.role == SPECTATOR:  # the public view of every line
        seen = await _run(lines_seen, table.store, game_id, viewer)
        body = b"".join(msgspec.json.encode(s.entry) + b"\n" for s in seen.lines)
    else:
        body = await _run(lambda: b"".join(export_log(table.store, game_id)))
    return Response(content=body, media_type="application/jsonl",
                    headers={**_SECURITY_HEADERS, "Content-Disposition": f'attachment; filename="{quote(game_id)}.jsonl"'})


@get("/api/games/{game_id:str}/report")
async def report(request: Request, game_id: FromPath[str], format: FromQuery[str] = "html") -> Response:
    """The game's report in ``format`` (html, markdown, text, json, csv) as the token's viewer sees it."""
    viewer = await _viewer(request, game_id)
    table = _table(request)

    def rendered() -> str:
        with report_seen(table.store, game_id, viewer, format) as pieces:
            return "".join(pieces)
    media = {"html": "text/html", "json": "application/json", "csv": "text/csv", "markdown": "text/markdown"}
    # A report reads the views and the history at once (two connections): reports take turns, at most half the
    # pool at a time, so that they never hold every connection while each waits for its second.
    body = await anyio.to_thread.run_sync(rendered, limiter=table.reports)
    return Response(content=body, media_type=media.get(format, "text/plain"),
                    headers=_SECURITY_HEADERS)


@get("/api/games/{game_id:str}/stream")
async def stream(request: Request, game_id: FromPath[str], after: FromQuery[MaybeLine] = None) -> ServerSentEvent:
    """``text/event-stream``: one ``line`` event per stored line (``id:`` its line number, data its
    :class:`~gamelog.table.LineSeen`), from after ``Last-Event-ID`` (or ``after``) on, as the token's viewer sees
    it; a comment every so often while nothing is stored."""
    viewer = await _viewer(request, game_id)
    table = _table(request)
    resume = request.headers.get("last-event-id")
    if resume is not None and not LAST_EVENT_ID.fullmatch(resume.strip()):
        raise HTTPException(status_code=400, detail="Last-Event-ID is the number of the last line seen")
    last = int(resume) if resume is not None else (after or 0)

    async def events() -> AsyncIterator[ServerSentEventMessage]:
        nonlocal last
        version = 0  # the stored events read so far: after the first read, only what is new is read
        while True:
            moved = table.follower.moved()
            seen = await _run(lines_seen, table.store, game_id, viewer, last, version)
            version = seen.version
            for line in seen.lines:
                yield ServerSentEventMessage(data=msgspec.json.encode(line).decode(), event="line", id=str(line.line))
                last = line.line
            if not await wait(moved, HEARTBEAT):
                yield ServerSentEventMessage(comment="waiting")

    return ServerSentEvent(events(), headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


def create_app(location: str, host_token: str, url: str) -> Litestar:
    """The recorder's application over the store at ``location`` (opened at start-up, closed at shutdown), the
    host's token ``host_token`` (every other token derived from it), reached by devices at ``url``."""
    table = Served(location, Tokens(host_token), url.rstrip("/"))

    @asynccontextmanager
    async def opened(app: Litestar) -> AsyncIterator[None]:
        try:
            table.store = await _run(open_game_store, location)
        except Exception as exc:  # what `gamelog serve` says then: the store's error, not the port's
            table.failed = exc
            raise
        # As many worker threads as the store's pool has connections (each request holds one at most): a burst of
        # entries queues for a thread instead of every thread holding one connection and waiting for a second.
        anyio.to_thread.current_default_thread_limiter().total_tokens = table.store.connections
        table.reports = anyio.CapacityLimiter(max(1, table.store.connections // 2))
        table.follower = Follower(table.store)
        following = asyncio.create_task(table.follower.run())
        try:
            yield
        finally:
            following.cancel()
            await anyio.to_thread.run_sync(table.store.close)

    app = Litestar(
        route_handlers=[host_page, game_page, asset, me, games, headers, create_game, seats, settings, lines, replay,
                        history, forms, log, report, stream],
        lifespan=[opened],
        exception_handlers={Exception: _errors},
        request_max_body_size=MAX_BODY,
        openapi_config=OpenAPIConfig(title="gamelog recorder", version="1", path="/api",
                                     render_plugins=[JsonRenderPlugin()], use_handler_docstrings=True),
        debug=False,
        logging_config=None,
    )
    app.state.table = table
    return app
