"""The viewer's answers that every route gives the same way: JSON and errors with the security
headers, the page of a missing game, a request body read within its limits, the origin check
of every request that changes something, and the context a route works on.

Why a module of its own: the routes live in modules by what they serve (pages.py, game_api.py,
seat_routes.py, tournament.py); each is a plain function of the request, and finds the viewer's
:class:`~.app.WebContext` on the application (:func:`context_of`), so no route is a closure
inside a builder.
"""

from __future__ import annotations

import functools
import html
import logging
from importlib import resources
from typing import TYPE_CHECKING

import trio
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response

if TYPE_CHECKING:
    from .context import WebContext

log = logging.getLogger("swc.web")

SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; object-src 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def context_of(request: Request) -> WebContext:
    """The viewer's context, which build_app puts on the application's state."""
    return request.app.state.context


def json_answer(data, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers=SECURITY_HEADERS)


def error_answer(message: str, status: int) -> JSONResponse:
    return json_answer({"error": message}, status)


def page(context: WebContext, name: str) -> Response:
    """One of the viewer's HTML pages, as read from the package at start-up."""
    return Response(context.assets[name], media_type="text/html; charset=utf-8", headers=SECURITY_HEADERS)


def missing_page(game_id: str) -> Response:
    """The page of a game the viewer does not know (forgotten, or from another server): why,
    and the way back to the list. The id is the client's text: escaped."""
    body = (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>No such game \u2014 swc-local</title>'
            f'<link rel="stylesheet" href="/static/style.css"><link rel="icon" href="/static/favicon.svg" type="image/svg+xml"></head><body><header><h1><a href="/">swc-local</a></h1>'
            f'</header><main class="missing"><h2>No game {html.escape(game_id)} here</h2><p>This server does not know that '
            f'game: it may have been forgotten (the viewer keeps the newest finished games and uploads) or belong to '
            f'another server.</p><p><a id="back" href="/">Back to every game</a></p></main></body></html>')
    return Response(body, status_code=404, media_type="text/html; charset=utf-8", headers=SECURITY_HEADERS)


def same_origin(request: Request) -> bool:
    """A request a browser sent from another site's page is refused: a table may start any bot
    command on this machine, so a page elsewhere must not be able to ask for one (cross-site
    request forgery). Browsers name the page's origin in ``Origin`` on every POST; scripts such as
    curl send none and are let through (the admin gate still applies off loopback)."""
    origin = request.headers.get("origin")
    return origin is None or origin == f"{request.url.scheme}://{request.headers.get('host', '')}"


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
        raise BodyRefused(error_answer(f"the {what} is larger than {limit} bytes", 413))
    buffer = bytearray()
    try:
        with trio.fail_after(timeout):
            async for chunk in request.stream():
                if len(buffer) + len(chunk) > limit:
                    log.info("%s from %s refused: larger than %d bytes", what, peer_of(request), limit)
                    raise BodyRefused(error_answer(f"the {what} is larger than {limit} bytes", 413))
                buffer += chunk
    except ClientDisconnect:
        log.info("%s from %s ended by the client after %d bytes", what, peer_of(request), len(buffer))
        raise BodyRefused(error_answer("the client went away", 400)) from None
    except trio.TooSlowError:
        log.info("%s from %s took longer than %g s (viewerRequestTimeout)", what, peer_of(request), timeout)
        raise BodyRefused(error_answer(f"the {what} took longer than {timeout:g} s", 408)) from None
    return bytes(buffer)


@functools.cache
def static_file(name: str) -> bytes:
    """A file of the package's static/ folder, read once on first use (the tournament pages'
    files; the viewer's own are read at start-up, context.py).  Callers pass only names of
    their own list: no request path is ever joined to a file system path."""
    return (resources.files(__package__) / "static" / name).read_bytes()


def static_answer(name: str, types: dict[str, str]) -> Response:
    """The static file ``name`` if it is one of ``types`` (name -> media type), else 404."""
    if name not in types:
        return Response("not found", status_code=404, media_type="text/plain")
    return Response(static_file(name), media_type=types[name], headers={"Cache-Control": "no-cache"})
