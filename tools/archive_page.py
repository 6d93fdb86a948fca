"""The archives page of ``swc view --archives DIR``: upload a team's ZIP, name it, set its extra
parameters, run the contest's test (``swc check``) and see its table.

It lives in tools/ because it runs bot archives (tools/archive.py, tools/archive_check.py) and
server/ never imports tools/: ``swc view`` lends these routes to the viewer through
``WebContext.extra_routes``, as it lends tournament sources, so they sit behind the viewer's gate.

Routes: ``GET /archives`` (the page), ``GET /archives/archives.js``, ``GET /api/archives`` (every
archive: id, name, file name, extra parameters, its last check; the games), ``POST /api/archives``
(body: the ZIP; headers ``X-File-Name``, ``X-Archive-Name``, ``X-Archive-Params``,
``X-Passphrase``), ``POST /api/archives/ID`` (JSON ``{"passphrase", "name", "params"}``) and
``POST /api/archives/ID/check`` (JSON ``{"passphrase", "game", "games"}``), ``POST
/api/archives/ID/rate`` (JSON ``{"passphrase", "game", "games"}``: a rating in the background,
tools/archive_rating.py), ``GET /api/archives/ID/rating`` (its state, asked for again and
again while it plays), ``POST /api/archives/ID/stop`` and ``POST /api/archives/ID/resume``
(JSON ``{"passphrase"}``: stop a queued or running rating, go on with a stopped one).

Conformance notes (choices): every change and every test run needs the admin passphrase, also on
loopback (an upload is code this machine will run, so a page elsewhere must not be able to send
one); without ``--password`` the page lists the archives and says how to allow changes.  One
test runs at a time (each plays real games); an upload is refused with the archive's own line
(tools/archive.py) before it is kept.  Ids come from ``uuid4``; names and parameters reach the
page as JSON and are put in as text.
"""

from __future__ import annotations

import json
import logging
import os
import shlex
import uuid
from importlib import resources
from pathlib import Path

import trio
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from swc_local.games import registry
from swc_local.server.web.answers import SECURITY_HEADERS, BodyRefused, peer_of, read_body
from swc_local.tools.archive import ArchiveError, resolve
from swc_local.tools.archive_check import run_check
from swc_local.tools.archive_rating import Ratings, RatingRefused, games_asked
from swc_local.tools.players import command_text
from swc_local.tools.runner import CommandError

log = logging.getLogger("swc.archives")

UPLOAD_LIMIT = 128 * 1024 * 1024  # bytes of one uploaded ZIP (a socha client with its packages is far less)
UPLOAD_SECONDS = 120.0
MAX_TEXT = 200  # characters of a name or of the extra parameters
MAX_CHECK_GAMES = 10
INDEX = "archives.json"
ASSETS = {"archives.html": "text/html; charset=utf-8", "archives.js": "text/javascript; charset=utf-8"}


class Shelf:
    """The archives in ``folder``: ``ID.zip`` files and ``archives.json`` (names, parameters,
    last checks), rewritten by rename so a stop never leaves half of it."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        try:
            self.items: dict[str, dict] = json.loads((folder / INDEX).read_text())
        except (OSError, ValueError):
            self.items = {}

    def save(self) -> None:
        partial = self.folder / (INDEX + ".partial")
        partial.write_text(json.dumps(self.items, indent=1))
        os.replace(partial, self.folder / INDEX)

    def path(self, aid: str) -> Path:
        return self.folder / f"{aid}.zip"

    def spec(self, aid: str, params: str | None = None) -> str:
        """The archive's command spec with its extra parameters (``params``: others, e.g. the
        ones a rating was started with)."""
        params = self.items[aid]["params"] if params is None else params
        return shlex.join([str(self.path(aid)), *shlex.split(params)])

    def listing(self) -> list[dict]:
        return [{"id": aid, **item} for aid, item in self.items.items()]


def _text(value: object, what: str) -> str:
    if not isinstance(value, str) or len(value) > MAX_TEXT or any(ord(c) < 32 for c in value):
        raise ValueError(f"{what}: text of at most {MAX_TEXT} characters on one line")
    return value.strip()


def _params(value: object) -> str:
    text = _text(value, "extra parameters")
    try:
        shlex.split(text)
    except ValueError as error:
        raise ValueError(f"extra parameters {text!r}: {error}") from None
    return text


def routes(context, folder: Path, nursery: trio.Nursery, ladder: Path | None = None) -> list[Route]:
    """The archives page's routes for the viewer's ``context`` (its gate), archives kept in
    ``folder``; ratings run in ``nursery`` against the ladder table ``ladder`` (None: the calibrated one)."""
    shelf = Shelf(folder)
    ratings = Ratings(folder, nursery, ladder)
    checking = trio.Lock()
    static = resources.files("swc_local.tools") / "static"
    assets = {name: (static / name).read_bytes() for name in ASSETS}

    def reply(data, status: int = 200) -> JSONResponse:
        return JSONResponse(data, status_code=status, headers=SECURITY_HEADERS)

    def refused(request: Request, passphrase: object) -> JSONResponse | None:
        gate = context.gate
        if gate.password is None:
            return reply({"error": "changing archives needs a passphrase: start swc view with --password"}, 403)
        if not isinstance(passphrase, str) or not gate.check(passphrase, peer_of(request)):
            log.info("archives: a wrong passphrase from %s", peer_of(request))
            return reply({"error": "wrong passphrase"}, 403)
        return None

    async def page(request: Request) -> Response:
        return Response(assets["archives.html"], media_type=ASSETS["archives.html"], headers=SECURITY_HEADERS)

    async def script(request: Request) -> Response:
        return Response(assets["archives.js"], media_type=ASSETS["archives.js"], headers={"Cache-Control": "no-cache"})

    async def listing(request: Request) -> Response:
        return reply({"archives": [item | {"rating": ratings.summary(item["id"])} for item in shelf.listing()],
                      "games": [{"name": entry.name, "type": entry.game_type, "not_ratable": ratings.refusal(entry)}
                                for entry in registry.entries()],
                      "changes_allowed": context.gate.password is not None})

    async def upload(request: Request) -> Response:
        if (no := refused(request, request.headers.get("x-passphrase"))) is not None:
            return no
        try:
            name = _text(request.headers.get("x-archive-name") or request.headers.get("x-file-name") or "team", "name")
            params = _params(request.headers.get("x-archive-params", ""))
            body = await read_body(request, UPLOAD_LIMIT, UPLOAD_SECONDS, "archive")
        except ValueError as error:
            return reply({"error": str(error)}, 400)
        except BodyRefused as refusal:
            return refusal.response
        aid = uuid.uuid4().hex
        path = shelf.path(aid)
        path.write_bytes(body)
        try:
            player = await trio.to_thread.run_sync(resolve, str(path))
        except ArchiveError as error:
            path.unlink(missing_ok=True)
            line = str(error).replace(str(path), _text(request.headers.get("x-file-name") or "the archive", "file name"))
            log.info("archives: an upload from %s refused: %s", peer_of(request), line)
            return reply({"error": line}, 400)
        shelf.items[aid] = {"name": name or "team", "file": request.headers.get("x-file-name", "")[:MAX_TEXT],
                            "params": params, "main": player.main, "command": command_text(player.command), "check": None}
        shelf.save()
        log.info("archives: %s uploaded %r (%s)", peer_of(request), name, player.main)
        return reply({"id": aid, **shelf.items[aid]})

    async def change(request: Request) -> Response:
        aid = request.path_params["aid"]
        body = await _json_body(request)
        if (no := refused(request, body.get("passphrase"))) is not None:
            return no
        if aid not in shelf.items:
            return reply({"error": "no such archive"}, 404)
        try:
            if "name" in body:
                shelf.items[aid]["name"] = _text(body["name"], "name") or shelf.items[aid]["name"]
            if "params" in body:
                shelf.items[aid]["params"] = _params(body["params"])
        except ValueError as error:
            return reply({"error": str(error)}, 400)
        shelf.save()
        return reply({"id": aid, **shelf.items[aid]})

    async def archive_asked(request: Request):
        """What every action on an archive asks first: the passphrase and a known archive. The
        archive's id and the body; or the refusal to answer with."""
        aid = request.path_params["aid"]
        body = await _json_body(request)
        if (no := refused(request, body.get("passphrase"))) is not None:
            return no
        if aid not in shelf.items:
            return reply({"error": "no such archive"}, 404)
        return aid, body

    async def archive_and_game(request: Request):
        """What Test and Rate ask first: :func:`archive_asked` and a game. The archive's id, the
        body and the game's value; or the refusal to answer with."""
        asked = await archive_asked(request)
        if isinstance(asked, Response):
            return asked
        aid, body = asked
        game = registry.entry(body.get("game")) if isinstance(body.get("game"), str) else None
        if game is None:
            return reply({"error": f"a game is one of {', '.join(registry.game_names())}"}, 400)
        return aid, body, game

    async def check(request: Request) -> Response:
        asked = await archive_and_game(request)
        if isinstance(asked, Response):
            return asked
        aid, body, game = asked
        games = body.get("games", 2)
        if not isinstance(games, int) or not 1 <= games <= MAX_CHECK_GAMES:
            return reply({"error": f"games: a number from 1 to {MAX_CHECK_GAMES}"}, 400)
        if checking.locked():
            return reply({"error": "a test is running; try again when it has ended"}, 409)
        async with checking:
            try:
                report = await run_check(shelf.spec(aid), game.game_type, games=games)
            except (ArchiveError, CommandError) as error:
                return reply({"error": str(error)}, 400)
        result = report.to_dict() | {"archive": shelf.items[aid]["name"]}
        shelf.items[aid]["check"] = result
        shelf.save()
        log.info("archives: %s tested in %s: %s", shelf.items[aid]["name"], game.game_type,
                 "passed" if report.passed else "failed")
        return reply(result)

    async def rate(request: Request) -> Response:
        asked = await archive_and_game(request)
        if isinstance(asked, Response):
            return asked
        aid, body, game = asked
        try:
            state = await ratings.start(aid, shelf.spec(aid), shelf.items[aid]["name"], game, games_asked(body.get("games")),
                                        shelf.items[aid]["params"])
        except RatingRefused as error:
            log.info("archives: a rating of %s in %s refused: %s", shelf.items[aid]["name"], game.game_type, error)
            return reply({"error": str(error)}, error.status)
        return reply(state, 202)

    async def stop(request: Request) -> Response:
        asked = await archive_asked(request)
        if isinstance(asked, Response):
            return asked
        aid, _ = asked
        try:
            state = await ratings.stop(aid, shelf.items[aid]["name"])
        except RatingRefused as error:
            return reply({"error": str(error)}, error.status)
        log.info("archives: the rating of %s stopped from the page by %s", shelf.items[aid]["name"], peer_of(request))
        return reply(state)

    async def resume(request: Request) -> Response:
        asked = await archive_asked(request)
        if isinstance(asked, Response):
            return asked
        aid, _ = asked
        try:
            state = await ratings.resume(aid, lambda params: shelf.spec(aid, params), shelf.items[aid]["name"])
        except RatingRefused as error:
            log.info("archives: the rating of %s not resumed: %s", shelf.items[aid]["name"], error)
            return reply({"error": str(error)}, error.status)
        return reply(state, 202)

    async def rating(request: Request) -> Response:
        state = ratings.state(request.path_params["aid"])
        return reply(state) if state is not None else reply({"error": "no rating of this archive"}, 404)

    return [
        Route("/archives", page),
        Route("/archives/archives.js", script),
        Route("/api/archives", listing),
        Route("/api/archives", upload, methods=["POST"]),
        Route("/api/archives/{aid}", change, methods=["POST"]),
        Route("/api/archives/{aid}/check", check, methods=["POST"]),
        Route("/api/archives/{aid}/rate", rate, methods=["POST"]),
        Route("/api/archives/{aid}/rating", rating),
        Route("/api/archives/{aid}/stop", stop, methods=["POST"]),
        Route("/api/archives/{aid}/resume", resume, methods=["POST"]),
    ]


async def _json_body(request: Request) -> dict:
    """A small JSON object (anything else, or more than 4 KiB: an empty one, refused later)."""
    try:
        body = json.loads(await read_body(request, 4096, 10.0, "request") or b"{}")
    except (ValueError, BodyRefused):
        return {}
    return body if isinstance(body, dict) else {}
