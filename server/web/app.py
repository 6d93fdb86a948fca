"""The pages and the JSON API (starlette), over a :class:`~.book.GameBook`.

API (also in the README):

* ``GET /api/games[?game=TYPE]`` -- every game: id, game, title, status, players, progress, result.
* ``GET /api/games/ID[?steps=1]`` -- one game: its summary, its number of steps and, with
  ``steps=1``, every step's label, player to move and move.
* ``GET /api/games/ID/steps/N`` -- step N (``-1``: the newest): its SVG, its text board, its
  state (the XML ``<state>`` for XML games), the move that led to it.
* ``GET /api/games/ID/stream[?step=1]`` and ``GET /api/stream`` -- server-sent events: the game's
  (with ``step=1`` also its newest step, drawn) or the list's newest summary whenever it changed,
  paced and budgeted as :mod:`.live` says. A slow reader gets the newest summary, never a backlog.
* ``POST /api/upload`` (body: the file, ``X-File-Name``: its name) -- open a replay or log.
* ``POST /api/games/ID/play-from/N`` (JSON ``{"passphrase": ...}``) -- prepare a room from step N
  (no passphrase on loopback when the server has none of its own: ``Gate.prepares_freely``).
* ``GET /tournament/ID``, ``GET /api/tournaments[/ID]`` -- a tournament's run page (:mod:`.tournament`).
* ``GET /tournament/new``, ``POST /api/tournaments`` -- start a league (:mod:`.tournament_start`).
* ``POST /api/games/ID/control`` (JSON ``{"action": "pause|unpause|step|start|cancel", "passphrase": ...}``;
  the passphrase only off loopback) -- what the admin lobby's pause/step/cancel do, to a live
  room; a game's summary lists the actions possible now as ``controls``.
* ``GET /api/tables`` -- the games a table can be set for and the kinds of seat.
* ``POST /api/tables`` (JSON ``{"game": ..., "seats": [SEAT, SEAT], "names": [...], "timeout": false}``,
  a SEAT ``you``, ``person``, ``bot``, ``open`` or ``{"kind": "command", "command": "... {host} {port}
  {reservation}"}``) -- a table of the game's family, its seats filled (:mod:`.table_host`; an XML game: a prepared room, server/xml/seats.py).
* ``POST /api/seats`` (JSON ``{"reservation": CODE}``) -- a person's seat in a room prepared elsewhere.
* ``GET /api/seats/ID[?after=N|?wait=turn]`` -- a person's seat: the state, whose turn, the last move, the
  clock, the board drawn, and on its turn its legal moves; ``after=N`` waits for version > N,
  ``wait=turn`` for its turn or the end.
* ``POST /api/seats/ID/move`` (JSON ``{"index": N}`` or a raw ``<data class="move" .../>``) -- send a move.

Assets are read from the package once, at start-up; no request path is ever joined to a file
system path. Everything a client sent (names, map names, file names) reaches the page as JSON
and is put into the page as text, never as markup.
"""

from __future__ import annotations

import html
import json
import logging
from importlib import resources
from urllib.parse import parse_qs, quote, unquote

import trio
from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route

from .auth import COOKIE, Gate
from .book import GameBook, GameRecord, Step
from .files import MAX_UPLOAD_BYTES, FileError, open_bytes
from .live import FEED_INTERVAL, LIST_INTERVAL, Feed, Feeds, StepCache
from .seat_routes import same_origin, seat_routes
from .settings import WebSettings
from .tournament import routes as tournament_routes
from .tournament_start import routes as tournament_start_routes

log = logging.getLogger("swc.web")

ASSETS = {
    "viewer.js": "text/javascript; charset=utf-8",
    "list.js": "text/javascript; charset=utf-8",
    "result_table.js": "text/javascript; charset=utf-8",
    "seat_common.js": "text/javascript; charset=utf-8",
    "seat.js": "text/javascript; charset=utf-8",
    "seat_family.js": "text/javascript; charset=utf-8",
    "play_family.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
    "favicon.svg": "image/svg+xml",
}
PAGES = ("index.html", "game.html", "login.html", "seat.html", "seat_family.html")
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; object-src 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def _load_assets() -> dict[str, bytes]:
    folder = resources.files(__package__) / "static"
    return {name: (folder / name).read_bytes() for name in (*ASSETS, *PAGES)}


def default_renderer(game_type: str, state: object, last_move: object | None, previous: object | None = None) -> str:
    from swc_local.games.views import render

    return render(game_type, state, last_move, previous)


class WebContext:
    """What the routes need: the book, the gate, "play from here" (``play_from(record, index) ->
    dict``, lent by a door's family, server/door.py's ``share_with_viewer``; None in ``swc
    view``), the limits (the viewer's settings section, server/web/settings.py), and how files
    are read: every family's reader by name (``readers``, server/web/files.py's
    ``family_readers``) and the families' own ways of reading an upload (``upload_readers``); a
    running door's family may put its own limits on its readers (``share_with_viewer``)."""

    def __init__(self, book: GameBook, gate: Gate, play_from=None, renderer=default_renderer,
                 upload_limit: int | None = None, limits: WebSettings | None = None,
                 readers: dict | None = None, upload_readers: dict | None = None) -> None:
        self.book = book
        self.gate = gate
        self.play_from = play_from
        self.renderer = renderer
        self.readers = dict(readers or {})
        self.upload_readers = dict(upload_readers or {})
        self.limits = limits = limits or WebSettings()
        self.upload_limit = upload_limit or limits.max_upload_bytes
        book.uploads_kept, book.uploads_kept_bytes = limits.uploads_kept, limits.uploads_kept_bytes
        self.assets = _load_assets()
        self.feeds = Feeds()
        self.steps = StepCache()
        self.open_streams = [0]  # event streams open now (a list: shared with the generators)
        self.streams_by_peer: dict[str, int] = {}
        self.uploads_reading = 0  # upload bodies being read now (at most UPLOADS_AT_ONCE)
        self._reading: trio.Lock | None = None
        self.tables = None  # every family's persons' tables (server/web/table_host.py); None in swc view

    @property
    def reading(self) -> trio.Lock:
        if self._reading is None:
            self._reading = trio.Lock()
        return self._reading

    def step_json(self, record: GameRecord, index: int, count: int) -> dict:
        """Step ``index`` built once (the cache) for every page and API call that shows it."""
        stable = record.stable(index, count)
        return self.steps.get((record.id, index), lambda: step_json(record, index, count, self.renderer), stable)


def missing_page(game_id: str) -> Response:
    """The page of a game the viewer does not know (forgotten, or from another server): why,
    and the way back to the list. The id is the client's text: escaped."""
    body = (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>No such game \u2014 swc-local</title>'
            f'<link rel="stylesheet" href="/static/style.css"><link rel="icon" href="/static/favicon.svg" type="image/svg+xml"></head><body><header><h1><a href="/">swc-local</a></h1>'
            f'</header><main class="missing"><h2>No game {html.escape(game_id)} here</h2><p>This server does not know that '
            f'game: it may have been forgotten (the viewer keeps the newest finished games and uploads) or belong to '
            f'another server.</p><p><a id="back" href="/">Back to every game</a></p></main></body></html>')
    return Response(body, status_code=404, media_type="text/html; charset=utf-8", headers=SECURITY_HEADERS)


def _json(data, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers=SECURITY_HEADERS)


def _error(message: str, status: int) -> JSONResponse:
    return _json({"error": message}, status)


def step_json(record: GameRecord, index: int, count: int, renderer) -> dict:
    step = record.step(index)
    previous = record.step(index - 1).state if index > 0 else None
    try:
        svg = renderer(record.game_type, step.state, step.last_move, previous)
    except Exception as error:  # a drawing bug must not break the page: the text board stays
        log.exception("game %s step %d: drawing failed", record.id, index)
        svg = None
        note = f"drawing failed: {type(error).__name__}"
    else:
        note = None
    data = {
        "index": index,
        "count": count,
        "label": step.label,
        "to_move": step.to_move,
        "note": step.note,
        "svg": svg,
        "text": record.text_of(step),  # type: ignore[attr-defined]
        "last_move": _move_json(step.last_move),
    }
    if note:
        data["draw_error"] = note
    wire_state = record.wire_state(index)
    if wire_state is not None:
        data["state"] = wire_state
    return data


def _move_json(move) -> object:
    if move is None or isinstance(move, (int, str, float, bool)):
        return move
    if isinstance(move, (tuple, list)):
        return [_move_json(part) for part in move]
    return str(move)


MAX_STREAMS = 500
"""Event streams open at once by default (``viewerMaxStreams``); more are refused (503)."""
UPLOADS_AT_ONCE = 4
"""Upload bodies read at once; more are refused (503): with ``viewerMaxUploadBytes`` this bounds
what uploads in flight can hold (each body is read into one buffer, copied once for the reader)."""


class BodyRefused(Exception):
    """A request body the viewer does not take: its answer (413, 408) is ready."""

    def __init__(self, response: Response) -> None:
        self.response = response


def peer_of(request: Request) -> str:
    return request.client.host if request.client is not None else "?"


async def read_body(request: Request, limit: int, timeout: float, what: str) -> bytes:
    """The body, read in chunks into one buffer: refused with 413 as soon as it is known to be
    larger than ``limit`` (its Content-Length, or the bytes read so far), with 408 when it takes
    longer than ``timeout``; a client that goes away is one INFO line (BodyRefused either way)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise BodyRefused(_error(f"the {what} is larger than {limit} bytes", 413))
    buffer = bytearray()
    try:
        with trio.fail_after(timeout):
            async for chunk in request.stream():
                if len(buffer) + len(chunk) > limit:
                    log.info("%s from %s refused: larger than %d bytes", what, peer_of(request), limit)
                    raise BodyRefused(_error(f"the {what} is larger than {limit} bytes", 413))
                buffer += chunk
    except ClientDisconnect:
        log.info("%s from %s ended by the client after %d bytes", what, peer_of(request), len(buffer))
        raise BodyRefused(_error("the client went away", 400)) from None
    except trio.TooSlowError:
        log.info("%s from %s took longer than %g s (viewerRequestTimeout)", what, peer_of(request), timeout)
        raise BodyRefused(_error(f"the {what} took longer than {timeout:g} s", 408)) from None
    return bytes(buffer)


def event_stream(feeds: Feeds, key, make, open_streams: list[int], peer: str = "?",
                 by_peer: dict[str, int] | None = None, limits: WebSettings | None = None) -> Response:
    """Server-sent events of the feed ``key`` (made by ``make(budget)`` for its first page): the
    page sends the feed's newest event whenever it published, so nothing queues up. At most
    ``viewerMaxStreams`` in all and ``viewerMaxStreamsPerPeer`` from one address (503 beyond):
    one client cannot take every live view."""
    by_peer = {} if by_peer is None else by_peer
    total = limits.max_streams if limits is not None else MAX_STREAMS
    per_peer = limits.max_streams_per_peer if limits is not None else total
    if open_streams[0] >= total:
        return _error(f"more than {total} event streams are open; try again later", 503)
    if by_peer.get(peer, 0) >= per_peer:
        return _error(f"more than {per_peer} event streams are open from {peer}; close some", 503)
    open_streams[0] += 1  # counted now: the response may never start (the client left)
    by_peer[peer] = by_peer.get(peer, 0) + 1
    counted = [True]

    def uncount() -> None:
        if counted[0]:
            counted[0] = False
            open_streams[0] -= 1
            left = by_peer.get(peer, 1) - 1
            if left > 0:
                by_peer[peer] = left
            else:
                by_peer.pop(peer, None)

    async def events():
        try:
            async for data in feeds.subscribe(key, make):
                yield data
        finally:
            uncount()

    return CountedStream(events(), uncount)


class CountedStream(StreamingResponse):
    """An event stream whose count is given back however its response ends (also when the
    client left before its first byte, so the generator never ran)."""

    def __init__(self, events, uncount) -> None:
        super().__init__(events, media_type="text/event-stream", headers={"Cache-Control": "no-cache"})
        self.uncount = uncount

    async def __call__(self, scope, receive, send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.uncount()


def game_event(context: WebContext, record: GameRecord, with_step: bool) -> bytes:
    """One event of a game's stream: its summary, and with ``with_step`` its newest step drawn."""
    data = record.summary()
    data["can_play_from"] = data["can_play_from"] and context.play_from is not None
    data["controls"] = record.controls()
    data["count"] = count = record.count()
    if with_step and count:
        data["step"] = context.step_json(record, count - 1, count)
    return f"data: {json.dumps(data)}\n\n".encode()


def game_feed(context: WebContext, record: GameRecord, with_step: bool):
    """How the feed of a game's stream is made (for its first page)."""
    def make(budget) -> Feed:
        return Feed(record, lambda: game_event(context, record, with_step), budget, FEED_INTERVAL,
                    final=lambda: record.status() == "finished")
    return make


def list_event(book: GameBook, game: str | None) -> bytes:
    """One event of the start page's stream: the games' summaries, newest first, joined from the
    JSON each record keeps of its summary (only a game that changed encodes its own again)."""
    return ('data: {"games": [' + ", ".join(
        r.summary_json() for r in reversed(book.records.values()) if not game or r.game_type == game) + "]}\n\n").encode()


def list_feed(book: GameBook, game: str | None):
    """How the feed of the start page's stream is made: in the budget's lane of the list."""
    def make(budget) -> Feed:
        return Feed(book, lambda: list_event(book, game), budget, LIST_INTERVAL, lane="list")
    return make


def build_app(context: WebContext) -> Starlette:
    book, gate = context.book, context.gate

    def page(name: str) -> Response:
        return Response(context.assets[name], media_type="text/html; charset=utf-8", headers=SECURITY_HEADERS)

    def record_or_none(request: Request) -> GameRecord | None:
        return book.get(request.path_params["game_id"])

    async def index(request: Request) -> Response:
        return page("index.html")

    async def game_page(request: Request) -> Response:
        if record_or_none(request) is None:
            return missing_page(request.path_params["game_id"])
        return page("game.html")

    async def asset(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in ASSETS:
            return Response("not found", status_code=404, media_type="text/plain")
        return Response(context.assets[name], media_type=ASSETS[name], headers={"Cache-Control": "no-cache"})

    async def favicon(request: Request) -> Response:  # what a browser asks for before it reads a page's <link rel="icon">
        return Response(context.assets["favicon.svg"], media_type=ASSETS["favicon.svg"],
                        headers={"Cache-Control": "max-age=86400"})

    async def login(request: Request) -> Response:
        if request.method == "GET":
            return page("login.html")
        try:
            body = (await read_body(request, context.limits.max_body_bytes, context.limits.request_timeout,
                                    "login form")).decode("utf-8", "replace")
        except BodyRefused as refused:
            return refused.response
        form = parse_qs(body)
        passphrase = form.get("passphrase", [None])[0]
        target = form.get("next", ["/"])[0]
        if not target.startswith("/") or target.startswith("//"):
            target = "/"
        if not gate.check(passphrase, peer_of(request)):
            return RedirectResponse("/login?failed=1&next=" + quote(target), status_code=303)
        response = RedirectResponse(target, status_code=303)
        response.set_cookie(COOKIE, gate.token(), httponly=True, samesite="strict")
        return response

    def games_list(game: str | None) -> list[dict]:
        records = [r for r in reversed(book.records.values()) if not game or r.game_type == game]
        return [r.summary() for r in records]

    async def api_games(request: Request) -> Response:
        return _json({"games": games_list(request.query_params.get("game"))})

    def game_json(record: GameRecord, full: bool) -> dict:
        data = record.summary()
        data["can_play_from"] = data["can_play_from"] and context.play_from is not None  # swc view has no lobby
        data["controls"] = record.controls()
        data["controls_need_passphrase"] = not gate.open
        data["play_from_needs_passphrase"] = not gate.prepares_freely
        data["count"] = record.count()
        if full:  # every state read (costly for a long live game: only when asked for)
            data["steps"] = [{"index": i, "label": s.label, "to_move": s.to_move, "note": s.note}
                             for i, s in enumerate(record.steps())]
        return data

    async def api_game(request: Request) -> Response:
        record = record_or_none(request)
        if record is None:
            return _error("no such game", 404)
        return _json(game_json(record, request.query_params.get("steps") == "1"))

    async def api_step(request: Request) -> Response:
        record = record_or_none(request)
        if record is None:
            return _error("no such game", 404)
        try:
            index = int(request.path_params["index"])
        except ValueError:
            return _error("the step must be a number", 400)
        count = record.count()
        if index < 0:
            index += count
        if not 0 <= index < count:
            return _error(f"no step {request.path_params['index']} (0..{count - 1})", 404)
        return _json(context.step_json(record, index, count))

    async def api_stream(request: Request) -> Response:
        record = record_or_none(request)
        if record is None:
            return _error("no such game", 404)
        with_step = request.query_params.get("step") == "1"
        return event_stream(context.feeds, (record.id, with_step), game_feed(context, record, with_step),
                            context.open_streams, peer_of(request), context.streams_by_peer, context.limits)

    async def api_list_stream(request: Request) -> Response:
        game = request.query_params.get("game") or None
        return event_stream(context.feeds, ("list", game), list_feed(book, game), context.open_streams,
                            peer_of(request), context.streams_by_peer, context.limits)

    async def api_upload(request: Request) -> Response:
        name = unquote(request.headers.get("x-file-name") or "upload")[:200]
        if context.uploads_reading >= UPLOADS_AT_ONCE:
            return _error(f"{UPLOADS_AT_ONCE} uploads are being read; try again later", 503)
        context.uploads_reading += 1
        try:
            data = await read_body(request, context.upload_limit, context.limits.request_timeout, "upload")
        except BodyRefused as refused:
            return refused.response
        finally:
            context.uploads_reading -= 1

        def read() -> GameRecord:
            return open_bytes(data, name, list(context.readers.values()), limit=context.upload_limit)

        try:
            async with context.reading:  # one file at a time, apart from the games' loop
                record = None
                for read_upload in context.upload_readers.values():  # a family's own way (XML: a child process)
                    record = await read_upload(data, name, context.upload_limit)
                    if record is not None:
                        break
                if record is None:
                    record = await trio.to_thread.run_sync(read)
        except FileError as error:
            return _error(str(error), 400)
        book.add(record, uploaded=True, size=len(data))
        log.info("opened an uploaded file as game %s (%s)", record.id, record.game_type)
        return _json({"id": record.id, "game": record.game_type})

    async def api_play_from(request: Request) -> Response:
        record = record_or_none(request)
        if record is None:
            return _error("no such game", 404)
        if not record.can_play_from:
            return _error("play from here is for the XML games", 400)
        if context.play_from is None:
            return _error("no game server here (swc view): start swc serve to play from a position", 409)
        try:
            raw = await read_body(request, context.limits.max_body_bytes, context.limits.request_timeout, "request body")
        except BodyRefused as refused:
            return refused.response
        try:
            body = json.loads(raw or b"{}")
            passphrase = body.get("passphrase") if isinstance(body, dict) else None
        except ValueError:
            passphrase = None
        if not gate.prepares_freely and not gate.check(passphrase if isinstance(passphrase, str) else None,
                                                       peer_of(request)):
            return _error("wrong admin passphrase", 403)
        try:
            index = int(request.path_params["index"])
            prepared = context.play_from(record, index)
        except ValueError as error:  # a bad index, or a position that cannot be played from
            return _error(str(error), 400)
        log.info("game %s step %d: room %s prepared from it", record.id, index, prepared["room"])
        return _json(prepared)

    async def api_control(request: Request) -> Response:
        """An admin's pause/unpause/step/start/cancel of a live room. Off loopback it needs the
        admin passphrase (the body's ``passphrase``), as every admin request does there."""
        record = record_or_none(request)
        if record is None:
            return _error("no such game", 404)
        if not same_origin(request):  # another site's page must not steer this server's rooms
            return _error("this request came from another site's page; use this viewer's own pages", 403)
        try:
            body = json.loads((await request.body())[:4096] or b"{}")
        except ValueError:
            body = None
        if not isinstance(body, dict) or not isinstance(body.get("action"), str):
            return _error('the body must be JSON {"action": "pause|unpause|step|start|cancel", "passphrase": ...}', 400)
        passphrase = body.get("passphrase")
        if not gate.open and not gate.check(passphrase if isinstance(passphrase, str) else None):
            return _error("wrong admin passphrase", 403)
        try:
            record.control(body["action"])
        except ValueError as error:
            return _error(str(error), 409)
        log.info("game %s: %s from the viewer", record.id, body["action"])
        return _json({"controls": record.controls(), "status": record.status()})

    routes = [
        *seat_routes(context, page, _json),
        Route("/", index),
        Route("/game/{game_id}", game_page),
        Route("/static/{name}", asset),
        Route("/favicon.ico", favicon),
        Route("/login", login, methods=["GET", "POST"]),
        Route("/api/games", api_games),
        Route("/api/stream", api_list_stream),
        Route("/api/games/{game_id}", api_game),
        Route("/api/games/{game_id}/steps/{index}", api_step),
        Route("/api/games/{game_id}/stream", api_stream),
        Route("/api/upload", api_upload, methods=["POST"]),
        Route("/api/games/{game_id}/play-from/{index}", api_play_from, methods=["POST"]),
        *tournament_start_routes(context, SECURITY_HEADERS),  # before the run page's /tournament/{tid}
        *tournament_routes(context, SECURITY_HEADERS),
        Route("/api/games/{game_id}/control", api_control, methods=["POST"]),
    ]
    app = Starlette(routes=routes)
    return GatedApp(app, gate)


class GatedApp:
    """ASGI wrapper: off loopback, nothing but the login page and its stylesheet without the passphrase."""

    OPEN_PATHS = ("/login", "/static/style.css", "/static/favicon.svg", "/favicon.ico")

    def __init__(self, app, gate: Gate) -> None:
        self.app = app
        self.gate = gate

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] not in ("http", "websocket") or self.gate.open or scope["path"] in self.OPEN_PATHS:
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        if self.gate.allowed({k.lower(): v for k, v in request.headers.items()}, dict(request.cookies), peer_of(request)):
            await self.app(scope, receive, send)
            return
        if scope["path"].startswith("/api/"):
            response: Response = _error("the admin passphrase is needed (cookie from /login, or Authorization: Bearer)", 401)
        else:
            target = scope["path"] + ("?" + scope["query_string"].decode("latin-1") if scope.get("query_string") else "")
            response = RedirectResponse("/login?next=" + quote(target), status_code=303)
        await response(scope, receive, send)
