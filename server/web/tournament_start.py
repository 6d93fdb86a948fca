"""Starting a tournament from the viewer: ``/tournament/new`` and ``POST /api/tournaments``.

A teacher picks the game, the contest's format, the games per encounter and the teams (one
``NAME=COMMAND`` a line: a bot command, or what else ``swc tournament --bot`` takes), gives the
admin passphrase and starts; the page then opens the new tournament's run page. The web layer
starts nothing itself (server/ never imports tools/): whoever starts the viewer lends a
*starter* (``context.tournament_starter``, ``swc view --leagues DIR``: tools/tournament/launch.py)
with ``options() -> dict`` (the games and formats it accepts, its defaults) and
``start(request: dict) -> str`` (the new run page's tournament id, or ValueError with one line
naming the value and what is accepted). ``start`` runs in a worker thread: it checks the
settings as ``swc tournament`` does and waits until the tournament's database exists.

Security: starting one runs every team's command on this machine, so it needs the admin
passphrase (only a viewer on loopback without a passphrase of its own starts freely, as "play
from here" does), a page of another site is refused (``Origin``), the body is at most 64 KiB,
and every refusal is logged with the peer and the reason. The page puts every value it shows
into the page as text.
"""

from __future__ import annotations

import json
import logging

import trio
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .answers import (
    SECURITY_HEADERS, context_of, error_answer, json_answer, peer_of, same_origin, static_answer, static_file,
)

log = logging.getLogger("swc.web")

MAX_BODY = 1 << 16
ASSETS = {"tournament_new.js": "text/javascript; charset=utf-8"}
PAGE = "tournament_new.html"
NO_STARTER = "starting a tournament needs swc view --leagues DIR"


def _refuse(request: Request, message: str, status: int) -> Response:
    log.warning("a tournament start from %s refused: %s", peer_of(request), message)
    return error_answer(message, status)


async def page(request: Request) -> Response:
    """The starting page; 404 while no starter is lent (``swc serve``)."""
    if context_of(request).tournament_starter is None:
        return Response("starting a tournament from the page needs swc view --leagues DIR", status_code=404,
                        media_type="text/plain")
    return Response(static_file(PAGE), media_type="text/html; charset=utf-8", headers=SECURITY_HEADERS)


async def asset(request: Request) -> Response:
    return static_answer(request.path_params["name"], ASSETS)


async def options(request: Request) -> Response:
    context = context_of(request)
    starter = context.tournament_starter
    if starter is None:
        return error_answer(NO_STARTER, 404)
    return json_answer(starter.options() | {"needs_passphrase": not context.gate.prepares_freely})


async def start(request: Request) -> Response:
    context = context_of(request)
    starter, gate = context.tournament_starter, context.gate
    if starter is None:
        return _refuse(request, NO_STARTER, 404)
    if not same_origin(request):
        return _refuse(request, "this request came from another site's page; start from this viewer's own page", 403)
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return _refuse(request, f"the request is larger than {MAX_BODY} bytes", 413)
    try:
        data = json.loads(bytes(body) or b"{}")
    except ValueError:
        data = None
    if not isinstance(data, dict):
        return _refuse(request, "the request must be a JSON object", 400)
    passphrase = data.pop("passphrase", None)
    peer = peer_of(request)
    if not gate.prepares_freely and not gate.check(passphrase if isinstance(passphrase, str) else None, peer):
        return _refuse(request, "wrong admin passphrase", 403)
    try:
        tid = await trio.to_thread.run_sync(starter.start, data)
    except ValueError as error:
        return _refuse(request, str(error), 400)
    log.info("tournament %s started from the page by %s", tid, peer)
    return json_answer({"id": tid, "url": f"/tournament/{tid}"})


ROUTES = [
    Route("/tournament/new", page),
    Route("/tournament/start/{name}", asset),
    Route("/api/tournaments/options", options),
    Route("/api/tournaments", start, methods=["POST"]),
]
"""The starting page's routes, over ``context.tournament_starter`` (None: they answer 404)."""
