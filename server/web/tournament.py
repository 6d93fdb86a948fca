"""The run page of a tournament: ``/tournament/ID`` and its data, ``/api/tournaments/ID``.

What fishtest's run page shows testers, for ``swc tournament``: standings with their intervals,
the crosstable, the LLR after every pair as a chart with both bounds, the Elo after every pair
with its 95 % band, the causes of every irregular end and the list of games, each opening in the
viewer. The page polls its data every two seconds until the tournament is finished (a database
cannot say whether an unfinished tournament still runs or was interrupted; the page says both).

The web layer never reads a tournament database itself (server/ never imports tools/): whoever
starts the viewer registers a *source* per tournament (``context.tournaments[id] = source``), a
function without arguments returning ``{"report": ..., "finished": bool, "viewer": {game key: game
id}}``, where
``report`` is exactly what ``swc tournament report DB --json`` prints and ``viewer`` maps the
games whose replays the book holds to their viewer pages. ``swc view course.db`` registers one
that reads the database (a finished tournament, or a running one as it writes it). A source is
called in a worker thread, one call at a time, since it reads files.

API: ``GET /api/tournaments`` (id and title of each), ``GET /api/tournaments/ID`` (the source's
data). The page's script reads only that JSON and puts every name into the page as text.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from importlib import resources

import trio
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

log = logging.getLogger("swc.web")

Source = Callable[[], dict]
ASSETS = {"tournament.js": "text/javascript; charset=utf-8"}
PAGE = "tournament.html"


def _load() -> dict[str, bytes]:
    folder = resources.files(__package__) / "static"
    return {name: (folder / name).read_bytes() for name in (*ASSETS, PAGE)}


def routes(context, headers: dict[str, str]) -> list[Route]:
    """The run page's routes over ``context.tournaments`` (an id -> source dict, made if absent)."""
    if getattr(context, "tournaments", None) is None:
        context.tournaments = {}
    sources: dict[str, Source] = context.tournaments
    assets = _load()
    reading = trio.Lock()

    async def page(request: Request) -> Response:
        if request.path_params["tid"] not in sources:
            return Response("no such tournament", status_code=404, media_type="text/plain")
        return Response(assets[PAGE], media_type="text/html; charset=utf-8", headers=headers)

    async def asset(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in ASSETS:
            return Response("not found", status_code=404, media_type="text/plain")
        return Response(assets[name], media_type=ASSETS[name], headers={"Cache-Control": "no-cache"})

    async def listing(request: Request) -> Response:
        return JSONResponse({"tournaments": [{"id": tid, "title": getattr(source, "title", tid)}
                                             for tid, source in sources.items()]}, headers=headers)

    async def data(request: Request) -> Response:
        source = sources.get(request.path_params["tid"])
        if source is None:
            return JSONResponse({"error": "no such tournament"}, status_code=404, headers=headers)
        try:
            async with reading:
                found = await trio.to_thread.run_sync(source)
        except Exception as error:  # a database being replaced or damaged: the page says so
            log.exception("tournament %s: cannot read it", request.path_params["tid"])
            return JSONResponse({"error": f"cannot read the tournament: {type(error).__name__}: {error}"},
                                status_code=503, headers=headers)
        return JSONResponse(found, headers=headers)

    return [
        Route("/tournament/static/{name}", asset),
        Route("/tournament/{tid}", page),
        Route("/api/tournaments", listing),
        Route("/api/tournaments/{tid}", data),
    ]
