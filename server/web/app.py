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

from urllib.parse import quote

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from . import game_api, pages, seat_routes, tournament, tournament_start
from .answers import error_answer, peer_of
from .auth import Gate
from .context import WebContext


def build_app(context: WebContext) -> Starlette:
    """The viewer's application: every route a module-level function of the request (pages.py,
    game_api.py, seat_routes.py, tournament.py, tournament_start.py) that finds ``context`` on
    the application's state; behind the gate (:class:`GatedApp`)."""
    routes = [
        *seat_routes.ROUTES,
        Route("/", pages.index),
        Route("/game/{game_id}", pages.game_page),
        Route("/static/{name}", pages.asset),
        Route("/favicon.ico", pages.favicon),
        Route("/login", pages.login, methods=["GET", "POST"]),
        Route("/api/games", game_api.api_games),
        Route("/api/stream", game_api.api_list_stream),
        Route("/api/games/{game_id}", game_api.api_game),
        Route("/api/games/{game_id}/steps/{index}", game_api.api_step),
        Route("/api/games/{game_id}/stream", game_api.api_stream),
        Route("/api/upload", game_api.api_upload, methods=["POST"]),
        Route("/api/games/{game_id}/play-from/{index}", game_api.api_play_from, methods=["POST"]),
        *tournament_start.ROUTES,  # before the run page's /tournament/{tid}
        *tournament.ROUTES,
        Route("/api/games/{game_id}/control", game_api.api_control, methods=["POST"]),
        *context.extra_routes,
    ]
    app = Starlette(routes=routes)
    app.state.context = context
    return GatedApp(app, context.gate)


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
            response: Response = error_answer("the admin passphrase is needed (cookie from /login, or Authorization: Bearer)", 401)
        else:
            target = scope["path"] + ("?" + scope["query_string"].decode("latin-1") if scope.get("query_string") else "")
            response = RedirectResponse("/login?next=" + quote(target), status_code=303)
        await response(scope, receive, send)
