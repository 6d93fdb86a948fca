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

import trio
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .answers import SECURITY_HEADERS, context_of, error_answer, json_answer, static_answer, static_file

log = logging.getLogger("swc.web")

Source = Callable[[], dict]
ASSETS = {"tournament.js": "text/javascript; charset=utf-8"}
PAGE = "tournament.html"


async def page(request: Request) -> Response:
    if request.path_params["tid"] not in context_of(request).tournaments:
        return Response("no such tournament", status_code=404, media_type="text/plain")
    return Response(static_file(PAGE), media_type="text/html; charset=utf-8", headers=SECURITY_HEADERS)


async def asset(request: Request) -> Response:
    return static_answer(request.path_params["name"], ASSETS)


async def listing(request: Request) -> Response:
    sources: dict[str, Source] = context_of(request).tournaments
    return json_answer({"tournaments": [{"id": tid, "title": getattr(source, "title", tid)}
                                        for tid, source in sources.items()]})


async def data(request: Request) -> Response:
    """The source's data, read in a worker thread, one read at a time (``tournament_reading``)."""
    context = context_of(request)
    source = context.tournaments.get(request.path_params["tid"])
    if source is None:
        return error_answer("no such tournament", 404)
    try:
        async with context.tournament_reading:
            found = await trio.to_thread.run_sync(source)
    except Exception as error:  # a database being replaced or damaged: the page says so
        log.exception("tournament %s: cannot read it", request.path_params["tid"])
        return error_answer(f"cannot read the tournament: {type(error).__name__}: {error}", 503)
    return json_answer(found)


ROUTES = [
    Route("/tournament/static/{name}", asset),
    Route("/tournament/{tid}", page),
    Route("/api/tournaments", listing),
    Route("/api/tournaments/{tid}", data),
]
"""The run page's routes, over ``context.tournaments`` (an id -> source dict)."""
