"""The viewer's pages: the start page, a game's page, the static assets, the favicon and the
login form (the JSON API is game_api.py, the persons' seats seat_routes.py).

Assets are read from the package once, at start-up (``WebContext.assets``); no request path is
ever joined to a file system path: an asset is served only if its name is one of ``ASSETS``
(context.py).
"""

from __future__ import annotations

from urllib.parse import parse_qs, quote

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from .answers import BodyRefused, context_of, missing_page, page, peer_of, read_body
from .auth import COOKIE
from .context import ASSETS



async def index(request: Request) -> Response:
    return page(context_of(request), "index.html")


async def game_page(request: Request) -> Response:
    context = context_of(request)
    if context.book.get(request.path_params["game_id"]) is None:
        return missing_page(request.path_params["game_id"])
    return page(context, "game.html")


async def asset(request: Request) -> Response:
    name = request.path_params["name"]
    if name not in ASSETS:
        return Response("not found", status_code=404, media_type="text/plain")
    return Response(context_of(request).assets[name], media_type=ASSETS[name], headers={"Cache-Control": "no-cache"})


async def favicon(request: Request) -> Response:
    """What a browser asks for before it reads a page's ``<link rel="icon">``."""
    return Response(context_of(request).assets["favicon.svg"], media_type=ASSETS["favicon.svg"],
                    headers={"Cache-Control": "max-age=86400"})


async def login(request: Request) -> Response:
    """The passphrase form (GET) and its answer (POST): the cookie, and back to the page asked for
    (only a path of this site: never another site's address)."""
    context = context_of(request)
    if request.method == "GET":
        return page(context, "login.html")
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
    if not context.gate.check(passphrase, peer_of(request)):
        return RedirectResponse("/login?failed=1&next=" + quote(target), status_code=303)
    response = RedirectResponse(target, status_code=303)
    response.set_cookie(COOKIE, context.gate.token(), httponly=True, samesite="strict")
    return response
