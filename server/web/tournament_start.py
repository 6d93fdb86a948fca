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
from importlib import resources

import trio
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .answers import same_origin

log = logging.getLogger("swc.web")

MAX_BODY = 1 << 16
ASSETS = {"tournament_new.js": "text/javascript; charset=utf-8"}
PAGE = "tournament_new.html"


def _load() -> dict[str, bytes]:
    folder = resources.files(__package__) / "static"
    return {name: (folder / name).read_bytes() for name in (*ASSETS, PAGE)}


def routes(context, headers: dict[str, str]) -> list[Route]:
    """The starting page's routes; they answer 404 while no starter is lent (``swc serve``)."""
    assets = _load()
    gate = context.gate

    def starter():
        return getattr(context, "tournament_starter", None)

    def refuse(request: Request, message: str, status: int) -> Response:
        peer = request.client.host if request.client is not None else "?"
        log.warning("a tournament start from %s refused: %s", peer, message)
        return JSONResponse({"error": message}, status_code=status, headers=headers)

    async def page(request: Request) -> Response:
        if starter() is None:
            return Response("starting a tournament from the page needs swc view --leagues DIR", status_code=404,
                            media_type="text/plain")
        return Response(assets[PAGE], media_type="text/html; charset=utf-8", headers=headers)

    async def asset(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in ASSETS:
            return Response("not found", status_code=404, media_type="text/plain")
        return Response(assets[name], media_type=ASSETS[name], headers={"Cache-Control": "no-cache"})

    async def options(request: Request) -> Response:
        found = starter()
        if found is None:
            return JSONResponse({"error": "starting a tournament needs swc view --leagues DIR"}, status_code=404,
                                headers=headers)
        return JSONResponse(found.options() | {"needs_passphrase": not gate.prepares_freely}, headers=headers)

    async def start(request: Request) -> Response:
        found = starter()
        if found is None:
            return refuse(request, "starting a tournament needs swc view --leagues DIR", 404)
        if not same_origin(request):
            return refuse(request, "this request came from another site's page; start from this viewer's own page", 403)
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                return refuse(request, f"the request is larger than {MAX_BODY} bytes", 413)
        try:
            data = json.loads(bytes(body) or b"{}")
        except ValueError:
            data = None
        if not isinstance(data, dict):
            return refuse(request, "the request must be a JSON object", 400)
        passphrase = data.pop("passphrase", None)
        peer = request.client.host if request.client is not None else "?"
        if not gate.prepares_freely and not gate.check(passphrase if isinstance(passphrase, str) else None, peer):
            return refuse(request, "wrong admin passphrase", 403)
        try:
            tid = await trio.to_thread.run_sync(found.start, data)
        except ValueError as error:
            return refuse(request, str(error), 400)
        log.info("tournament %s started from the page by %s", tid, peer)
        return JSONResponse({"id": tid, "url": f"/tournament/{tid}"}, headers=headers)

    return [
        Route("/tournament/new", page),
        Route("/tournament/start/{name}", asset),
        Route("/api/tournaments/options", options),
        Route("/api/tournaments", start, methods=["POST"]),
    ]
