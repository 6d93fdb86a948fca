"""The games' JSON API: the list, one game, its steps, the event streams, uploads, "play from
here" and the admin's controls of a live room (the routes are listed in app.py's docstring).

Every handler is a function of the request alone: the viewer's context comes from the
application (:func:`~.answers.context_of`).
"""

from __future__ import annotations

import json
import logging
from urllib.parse import unquote

import trio
from starlette.requests import Request
from starlette.responses import Response

from .answers import (BodyRefused, context_of, error_answer, json_answer, peer_of, read_body,
                      same_origin)
from .book import GameRecord
from .files import FileError, open_bytes
from .streams import event_stream, game_feed, list_feed

log = logging.getLogger("swc.web")

UPLOADS_AT_ONCE = 4
"""Upload bodies read at once; more are refused (503): with ``viewerMaxUploadBytes`` this bounds
what uploads in flight can hold (each body is read into one buffer, copied once for the reader)."""


def _record(request: Request) -> GameRecord | None:
    return context_of(request).book.get(request.path_params["game_id"])


def _game_json(request: Request, record: GameRecord, full: bool) -> dict:
    context = context_of(request)
    data = record.summary()
    data["can_play_from"] = data["can_play_from"] and context.play_from is not None  # swc view has no lobby
    data["controls"] = record.controls()
    data["controls_need_passphrase"] = not context.gate.open
    data["play_from_needs_passphrase"] = not context.gate.prepares_freely
    data["count"] = record.count()
    if full:  # every state read (costly for a long live game: only when asked for)
        data["steps"] = [{"index": i, "label": s.label, "to_move": s.to_move, "note": s.note}
                         for i, s in enumerate(record.steps())]
    return data


async def api_games(request: Request) -> Response:
    game = request.query_params.get("game")
    records = reversed(context_of(request).book.records.values())
    return json_answer({"games": [r.summary() for r in records if not game or r.game_type == game]})


async def api_game(request: Request) -> Response:
    record = _record(request)
    if record is None:
        return error_answer("no such game", 404)
    return json_answer(_game_json(request, record, request.query_params.get("steps") == "1"))


async def api_step(request: Request) -> Response:
    record = _record(request)
    if record is None:
        return error_answer("no such game", 404)
    try:
        index = int(request.path_params["index"])
    except ValueError:
        return error_answer("the step must be a number", 400)
    count = record.count()
    if index < 0:
        index += count
    if not 0 <= index < count:
        return error_answer(f"no step {request.path_params['index']} (0..{count - 1})", 404)
    return json_answer(context_of(request).step_json(record, index, count))


async def api_stream(request: Request) -> Response:
    context, record = context_of(request), _record(request)
    if record is None:
        return error_answer("no such game", 404)
    with_step = request.query_params.get("step") == "1"
    return event_stream(context.feeds, (record.id, with_step), game_feed(context, record, with_step),
                        context.open_streams, peer_of(request), context.streams_by_peer, context.limits)


async def api_list_stream(request: Request) -> Response:
    context = context_of(request)
    game = request.query_params.get("game") or None
    return event_stream(context.feeds, ("list", game), list_feed(context.book, game), context.open_streams,
                        peer_of(request), context.streams_by_peer, context.limits)


async def api_upload(request: Request) -> Response:
    context = context_of(request)
    name = unquote(request.headers.get("x-file-name") or "upload")[:200]
    if context.uploads_reading >= UPLOADS_AT_ONCE:
        return error_answer(f"{UPLOADS_AT_ONCE} uploads are being read; try again later", 503)
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
        return error_answer(str(error), 400)
    context.book.add(record, uploaded=True, size=len(data))
    log.info("opened an uploaded file as game %s (%s)", record.id, record.game_type)
    return json_answer({"id": record.id, "game": record.game_type})


async def api_play_from(request: Request) -> Response:
    context, record = context_of(request), _record(request)
    if record is None:
        return error_answer("no such game", 404)
    if not record.can_play_from:
        return error_answer("play from here is for the XML games", 400)
    if context.play_from is None:
        return error_answer("no game server here (swc view): start swc serve to play from a position", 409)
    try:
        raw = await read_body(request, context.limits.max_body_bytes, context.limits.request_timeout, "request body")
    except BodyRefused as refused:
        return refused.response
    try:
        body = json.loads(raw or b"{}")
        passphrase = body.get("passphrase") if isinstance(body, dict) else None
    except ValueError:
        passphrase = None
    gate = context.gate
    if not gate.prepares_freely and not gate.check(passphrase if isinstance(passphrase, str) else None,
                                                   peer_of(request)):
        return error_answer("wrong admin passphrase", 403)
    try:
        index = int(request.path_params["index"])
        prepared = context.play_from(record, index)
    except ValueError as error:  # a bad index, or a position that cannot be played from
        return error_answer(str(error), 400)
    log.info("game %s step %d: room %s prepared from it", record.id, index, prepared["room"])
    return json_answer(prepared)


async def api_control(request: Request) -> Response:
    """An admin's pause/unpause/step/start/cancel of a live room. Off loopback it needs the
    admin passphrase (the body's ``passphrase``), as every admin request does there."""
    context, record = context_of(request), _record(request)
    if record is None:
        return error_answer("no such game", 404)
    if not same_origin(request):  # another site's page must not steer this server's rooms
        return error_answer("this request came from another site's page; use this viewer's own pages", 403)
    try:
        body = json.loads((await request.body())[:4096] or b"{}")
    except ValueError:
        body = None
    if not isinstance(body, dict) or not isinstance(body.get("action"), str):
        return error_answer('the body must be JSON {"action": "pause|unpause|step|start|cancel", "passphrase": ...}', 400)
    passphrase = body.get("passphrase")
    if not context.gate.open and not context.gate.check(passphrase if isinstance(passphrase, str) else None):
        return error_answer("wrong admin passphrase", 403)
    try:
        record.control(body["action"])
    except ValueError as error:
        return error_answer(str(error), 409)
    log.info("game %s: %s from the viewer", record.id, body["action"])
    return json_answer({"controls": record.controls(), "status": record.status()})
