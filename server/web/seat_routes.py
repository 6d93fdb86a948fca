"""The routes of people at the table (``/api/tables``, ``/api/seats/ID``, the page ``/seat/ID``),
over the viewer's table host (:class:`~.table_host.TableHost`, where every family registers its
tables; it names none); app.py lists them (:data:`ROUTES`) with its own.  Kept apart so the seat
API reads in one place; each route is a function of the request, which finds the viewer's
context on the application (answers.py ``context_of``)."""

from __future__ import annotations

import json

import trio
from starlette.requests import Request
from starlette.routing import Route

from .answers import context_of, error_answer, json_answer, page, same_origin
from .table_host import KINDS, TableError, TableLimit

MAX_BODY = 1 << 16


def _foreign():
    return error_answer("this request came from another site's page; take a seat from this viewer's own pages", 403)


def _no_tables():
    return error_answer("no game server here (swc view): start swc serve to take a seat", 409)


def _record_of(context, seat) -> object | None:
    return context.book.get(seat.table.record_id or "")


def follows_room(seat) -> bool:
    """A seat whose room shows its observers more than its player reads the room too (the
    XML family's: a paused room shows a move to its observers only)."""
    return getattr(seat, "FOLLOWS_ROOM", False)


def seat_json(context, seat) -> dict:
    """The seat as its client knows it, with the viewer's drawing of the room's newest step.

    A seat that follows its room shows the room as its observers see it: the side to move,
    the turn and the status come from the room's newest step, as on the game page, and the
    version counts the room's changes too (a pause wakes the page)."""
    data = seat.json()
    record = _record_of(context, seat)
    count = record.count() if record is not None else 0
    if count:
        step = context.step_json(record, count - 1, count)
        summary = record.summary()
        data.update(svg=step["svg"], last_move=step["note"], step=step["label"], players=summary["players"],
                    result_rows=summary["result"], status=summary["status"])
        if follows_room(seat):
            data.update(seat.room_view(record.step(count - 1), data))
    else:
        data.update(svg=None, last_move=None, step=None, players=[], result_rows=None, status=None)
    if follows_room(seat):  # the version the long poll waits past (wait_seat_or_room)
        data["version"] = _seat_version(seat, record)
    return data


def _seat_version(seat, record) -> int:
    """A room-following seat's version: its own messages and its room's changes (both only grow)."""
    return seat.version + (record.version if record is not None else 0)


async def _wait_seat_or_room(context, seat, after: int) -> None:
    """Until the seat or its room changed past ``after`` (at most the seats' wait)."""
    record = _record_of(context, seat)
    with trio.move_on_after(context.tables.limits.wait_seconds):
        while _seat_version(seat, record) <= after:
            async with trio.open_nursery() as nursery:
                async def first(wait) -> None:
                    await wait()
                    nursery.cancel_scope.cancel()
                nursery.start_soon(first, seat.changed.wait)
                if record is not None:
                    seen = record.version  # read now: a change before the task runs still wakes it
                    nursery.start_soon(first, lambda: record.wait_changed(seen))
    seat.last_read = trio.current_time()


async def _json_body(request: Request) -> object:
    try:
        return json.loads((await request.body())[:MAX_BODY] or b"{}")
    except ValueError:
        return None


async def seat_page(request: Request):
    context = context_of(request)
    seat = context.tables.seats.get(request.path_params["seat_id"]) if context.tables is not None else None
    return page(context, seat.PAGE if seat is not None else "seat.html")  # each family's seat names its page


async def api_tables(request: Request):
    tables = context_of(request).tables
    if request.method == "GET":
        return json_answer({"games": tables.menu() if tables else [], "kinds": tables.kinds() if tables else list(KINDS),
                            "available": tables is not None, "families": tables.offers() if tables else []})
    if tables is None:
        return _no_tables()
    if not same_origin(request):
        return _foreign()
    body = await _json_body(request)
    if not isinstance(body, dict):
        return error_answer('the body must be JSON {"game": ..., "seats": ["you", "bot"]}', 400)
    try:
        return json_answer(await tables.create(body))
    except TableLimit as refused:
        return error_answer(str(refused), 503)
    except TableError as refused:
        return error_answer(str(refused), 400)


async def api_join(request: Request):
    """A person's seat on the reservation code of an already prepared room."""
    tables = context_of(request).tables
    if tables is None:
        return _no_tables()
    if not same_origin(request):
        return _foreign()
    body = await _json_body(request)
    if not isinstance(body, dict):
        return error_answer('the body must be JSON {"reservation": CODE}', 400)
    try:
        return json_answer(tables.join(body.get("reservation")))
    except TableLimit as refused:
        return error_answer(str(refused), 503)
    except TableError as refused:
        return error_answer(str(refused), 400)


def _find(request: Request):
    tables = context_of(request).tables
    return tables.seat(request.path_params["seat_id"]) if tables is not None else None


async def api_seat(request: Request):
    context, seat = context_of(request), _find(request)
    if seat is None:
        return error_answer("no such seat", 404)
    after = request.query_params.get("after", "")
    if after.lstrip("-").isdigit() and follows_room(seat):
        await _wait_seat_or_room(context, seat, int(after))
    elif after.lstrip("-").isdigit():
        await context.tables.wait(seat, int(after))
    elif request.query_params.get("wait") == "turn":
        await context.tables.wait_turn(seat)
    return json_answer(seat_json(context, seat))


async def api_move(request: Request):
    context, seat = context_of(request), _find(request)
    if seat is None:
        return error_answer("no such seat", 404)
    if not same_origin(request):
        return _foreign()
    try:
        await seat.send_request((await request.body())[:MAX_BODY])
    except TableError as refused:
        return error_answer(str(refused), 409)
    await context.tables.wait(seat, seat.version, 2.0)  # the server's answer, so the page draws it at once
    return json_answer(seat_json(context, seat))


ROUTES = [
    Route("/seat/{seat_id}", seat_page),
    Route("/api/tables", api_tables, methods=["GET", "POST"]),
    Route("/api/seats", api_join, methods=["POST"]),
    Route("/api/seats/{seat_id}", api_seat),
    Route("/api/seats/{seat_id}/move", api_move, methods=["POST"]),
]
