"""The viewer's server-sent event streams: a game's and the start page's, each a feed (:mod:`.live`)
that sends its newest event whenever it published, counted against the viewer's limits."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from starlette.responses import Response, StreamingResponse

from .answers import error_answer
from .book import GameBook, GameRecord
from .live import FEED_INTERVAL, LIST_INTERVAL, Feed, Feeds
from .settings import WebSettings

if TYPE_CHECKING:
    from .context import WebContext

MAX_STREAMS = 500
"""Event streams open at once by default (``viewerMaxStreams``); more are refused (503)."""


def event_stream(feeds: Feeds, key, make, open_streams: list[int], peer: str = "?",
                 by_peer: dict[str, int] | None = None, limits: WebSettings | None = None) -> Response:
    """Server-sent events of the feed ``key`` (made by ``make(budget)`` for its first page): the
    page sends the feed's newest event whenever it published, so nothing queues up. At most
    ``viewerMaxStreams`` in all and ``viewerMaxStreamsPerPeer`` from one address (503 beyond):
    one client cannot take every live view."""
    by_peer = {} if by_peer is None else by_peer
    total = limits.max_streams if limits is not None else MAX_STREAMS
    per_peer = limits.max_streams_per_peer if limits is not None else total
    if open_streams[0] >= total:
        return error_answer(f"more than {total} event streams are open; try again later", 503)
    if by_peer.get(peer, 0) >= per_peer:
        return error_answer(f"more than {per_peer} event streams are open from {peer}; close some", 503)
    open_streams[0] += 1  # counted now: the response may never start (the client left)
    by_peer[peer] = by_peer.get(peer, 0) + 1
    counted = [True]

    def uncount() -> None:
        if counted[0]:
            counted[0] = False
            open_streams[0] -= 1
            left = by_peer.get(peer, 1) - 1
            if left > 0:
                by_peer[peer] = left
            else:
                by_peer.pop(peer, None)

    async def events():
        try:
            async for data in feeds.subscribe(key, make):
                yield data
        finally:
            uncount()

    return CountedStream(events(), uncount)


class CountedStream(StreamingResponse):
    """An event stream whose count is given back however its response ends (also when the
    client left before its first byte, so the generator never ran)."""

    def __init__(self, events, uncount) -> None:
        super().__init__(events, media_type="text/event-stream", headers={"Cache-Control": "no-cache"})
        self.uncount = uncount

    async def __call__(self, scope, receive, send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.uncount()


def game_event(context: WebContext, record: GameRecord, with_step: bool) -> bytes:
    """One event of a game's stream: its summary, and with ``with_step`` its newest step drawn."""
    data = record.summary()
    data["can_play_from"] = data["can_play_from"] and context.play_from is not None
    data["controls"] = record.controls()
    data["count"] = count = record.count()
    if with_step and count:
        data["step"] = context.step_json(record, count - 1, count)
    return f"data: {json.dumps(data)}\n\n".encode()


def game_feed(context: WebContext, record: GameRecord, with_step: bool):
    """How the feed of a game's stream is made (for its first page)."""
    def make(budget) -> Feed:
        return Feed(record, lambda: game_event(context, record, with_step), budget, FEED_INTERVAL,
                    final=lambda: record.status() == "finished")
    return make


def list_event(book: GameBook, game: str | None) -> bytes:
    """One event of the start page's stream: the games' summaries, newest first, joined from the
    JSON each record keeps of its summary (only a game that changed encodes its own again)."""
    return ('data: {"games": [' + ", ".join(
        r.summary_json() for r in reversed(book.records.values()) if not game or r.game_type == game) + "]}\n\n").encode()


def list_feed(book: GameBook, game: str | None):
    """How the feed of the start page's stream is made: in the budget's lane of the list."""
    def make(budget) -> Feed:
        return Feed(book, lambda: list_event(book, game), budget, LIST_INTERVAL, lane="list")
    return make
