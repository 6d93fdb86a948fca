"""Live events: one feed per watched game fans its newest state out to every page, within a budget.

Why this shape: an open page must cost nothing while nothing it shows changes, and a state must
be built (parsed, drawn, encoded) once however many pages show it. So each watched game (and each
filter of the start page's list) has one :class:`Feed`: one task that waits for the game to
change, waits for its turn in the :class:`LiveBudget`, builds the event from the game's newest
state and hands it to all its pages at once. A page keeps only "the newest event"; it wakes when
the feed published and sends what is newest then, so a slow or stalled browser never builds a
backlog and never holds back another page. Every state in between that the feed skipped is still
there for the page's step buttons and the API.

Notes (also in the README):

* Budget. The viewer may spend CPU on live events up to ``FLOOR`` (2 % of one CPU) minus what the
  games use, or ``SHARE`` (1 %) of what the games use, whichever is more. A quiet server thus
  draws a watched game's every move (up to ``FEED_INTERVAL``: ten states a second), and a busy one
  spends at most 1 % more CPU on its pages however many are open; they see fewer states then.
  (1 %, down from 3 %: the 10 % that 50 pages on 50 live games may cost per move also pays for
  the record of every move and the open event streams, and a busy server's games come first.)
* Every feed publishes at most once per ``FEED_INTERVAL`` and never queues: the newest state wins.
  Outside the cap, like requests (one person's action each): a feed's first event (a page was
  just opened) and a game's final state, which goes out as soon as the game ends (once per game).
* Feeds take turns for the budget in arrival order (trio's fair lock): under load every watched
  game gets updates at the same pace rather than the busiest one starving the rest.
* The start page's list has a lane of its own in the budget: ``LIST_PART`` (a quarter) of every
  refill goes to the list's bucket until it holds ``LIST_BURST``, the rest (and whatever the full
  list bucket does not take) to the game feeds. So the list never waits behind the game feeds'
  turns (under load it waited behind all 50 of them and changed every few minutes), the total
  stays what the budget allows, and with no list open the games get it all. A list event joins
  summaries cached per game (server/web/book.py), so it costs little; a game's end publishes it
  at once, like a game's final state.
* What a feed cannot time (hypercorn writing the event to each page's socket) is charged as
  ``DELIVERY_COST`` per page and event.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable

import trio

log = logging.getLogger("swc.web")

FEED_INTERVAL = 0.1
"""Seconds between two events of one feed: states arriving faster are skipped (newest wins)."""
LIST_INTERVAL = 0.5
"""The same for the start page's list."""
FLOOR = 0.02
"""Share of one CPU the process may reach with the viewer's live events while the games use less."""
SHARE = 0.01
"""Share of the games' own CPU the viewer may spend on live events when they use more."""
DELIVERY_COST = 0.0002
"""CPU seconds charged per page and event for what happens outside the feed's timed code (the
streaming response and hypercorn sending the bytes): twice the 0.08-0.11 ms measured in-process
with 50 streams on one game, to err on the side of the games."""
LIST_PART = 0.25
"""Share of each refill of the budget kept for the start page's list (see the notes)."""
LIST_BURST = 0.002
"""CPU seconds the list's bucket holds at most; a full one leaves the rest to the game feeds."""
STEPS_CACHED = 256
"""Built steps (their JSON) kept for pages and API calls, the least recently used dropped first."""


class LiveBudget:
    """A token bucket of CPU seconds for live events, refilled by the rule in the module notes.

    ``clock`` (trio's by default) and ``cpu`` (the process's CPU time) are injected so tests can
    drive it without depending on the machine's speed.
    """

    def __init__(self, floor: float = FLOOR, share: float = SHARE, burst: float = 0.02,
                 cpu: Callable[[], float] = time.process_time, clock: Callable[[], float] | None = None,
                 list_part: float = LIST_PART, list_burst: float = LIST_BURST) -> None:
        self.floor, self.share, self.burst = floor, share, burst
        self.list_part, self.list_burst = list_part, list_burst
        self.list_tokens = list_burst
        self.cpu = cpu
        self.clock = clock or trio.current_time
        self.tokens = burst
        self.spent = 0.0  # CPU seconds charged to the viewer so far
        self.rate = floor  # tokens per second at the last refill (to know how long to wait)
        self.last_wall, self.last_cpu, self.last_spent = self.clock(), cpu(), 0.0
        self._turns = trio.Lock()  # feeds wait in turn (trio's locks are fair): one polls at a time
        self._list_turns = trio.Lock()  # the list's lane: never behind the game feeds

    def refill(self) -> None:
        wall, cpu = self.clock(), self.cpu()
        elapsed = wall - self.last_wall
        games = max(0.0, (cpu - self.last_cpu) - (self.spent - self.last_spent))  # everything but the viewer's events
        gained = max(self.share * games, self.floor * elapsed - games)
        if elapsed > 0:
            self.rate = max(gained / elapsed, self.share * 1e-3)
        to_list = min(self.list_part * gained, max(0.0, self.list_burst - self.list_tokens))
        self.list_tokens += to_list
        self.tokens = min(self.burst, self.tokens + gained - to_list)
        self.last_wall, self.last_cpu, self.last_spent = wall, cpu, self.spent

    def _tokens(self, lane: str) -> float:
        return self.list_tokens if lane == "list" else self.tokens

    async def wait(self, lane: str = "games") -> None:
        """Until the lane's bucket (``games`` or ``list``) is not in debt (at once when it is not)."""
        async with self._list_turns if lane == "list" else self._turns:
            self.refill()
            while self._tokens(lane) < 0:
                rate = self.rate * (self.list_part if lane == "list" else 1.0)
                await trio.sleep(min(1.0, max(0.01, -self._tokens(lane) / rate)))
                self.refill()

    def charge(self, seconds: float, capped: bool = True, lane: str = "games") -> None:
        """CPU the viewer spent; taken from the lane's bucket unless it is outside the cap (it is
        then still told apart from the games' CPU)."""
        self.spent += seconds
        if capped:
            if lane == "list":
                self.list_tokens -= seconds
            else:
                self.tokens -= seconds


class Feed:
    """The one task of a watched source (a game record or the book): it builds ``build()``'s
    bytes when the source changed, at most once per ``interval`` and within the budget, and
    every subscribed page sends the newest of them."""

    def __init__(self, source, build: Callable[[], bytes], budget: LiveBudget, interval: float,
                 final: Callable[[], bool] = lambda: False, lane: str = "games") -> None:
        self.source = source
        self.lane = lane  # which of the budget's buckets pays (the list has its own)
        self.build = build
        self.budget = budget
        self.interval = interval
        self.final = final  # true once the source will not change any more: published at once
        self.data = b""
        self.published = 0  # how many events were built (a page compares it with what it sent)
        self.pages = 0
        self.scope = trio.CancelScope()
        self._waiting: trio.CancelScope | None = None
        self._new = trio.Event()
        self.closed = False  # the viewer stops: every page's stream ends after what it has

    async def run(self) -> None:
        with self.scope:
            version = -1
            while True:
                if self.source.version == version:
                    await self.source.wait_changed(version)
                capped = bool(self.published) and not self.final()  # see the notes: first and final are not held back
                if capped:
                    with trio.CancelScope() as self._waiting:  # the game's end cuts the wait short
                        await self.budget.wait(self.lane)
                    self._waiting = None
                version = self.source.version
                self._publish(capped and not self.final())
                await trio.sleep(self.interval)

    def ended(self) -> None:
        """The source will not change any more: its final state goes out now, not at its turn."""
        if self._waiting is not None:
            self._waiting.cancel()

    def _publish(self, capped: bool) -> None:
        started = self.budget.cpu()
        try:
            self.data = self.build()
        except Exception:  # a bug in building one event must not end the feed (pages keep the previous one)
            log.exception("live event of %r could not be built", self.source)
        self.budget.charge(self.budget.cpu() - started + DELIVERY_COST * self.pages, capped, self.lane)
        self.published += 1
        self._new.set()
        self._new = trio.Event()

    async def next(self, seen: int) -> tuple[int, bytes]:
        """The newest event once there is one newer than number ``seen`` (or the feed closed)."""
        while self.published == seen and not self.closed:
            await self._new.wait()
        return self.published, self.data

    def close(self) -> None:
        """End every page's stream of this feed (the viewer stops): they return, not hang."""
        self.closed = True
        self._new.set()


class Feeds:
    """The feeds being watched now, by key; a feed ends when its last page leaves."""

    def __init__(self, budget: LiveBudget | None = None) -> None:
        self._budget = budget
        self.nursery: trio.Nursery | None = None  # set by whoever serves the pages (the web door)
        self.feeds: dict[object, Feed] = {}
        self.closed = False

    @property
    def budget(self) -> LiveBudget:
        if self._budget is None:  # made inside the event loop (it reads trio's clock)
            self._budget = LiveBudget()
        return self._budget

    def join(self, key, make: Callable[[LiveBudget], Feed]) -> Feed:
        feed = self.feeds.get(key)
        if feed is None:
            if self.nursery is None:
                raise RuntimeError("live feeds need a nursery (set Feeds.nursery)")
            feed = self.feeds[key] = make(self.budget)
            end_listeners = getattr(feed.source, "end_listeners", None)
            if end_listeners is not None:
                end_listeners.append(feed.ended)
            self.nursery.start_soon(feed.run)
        feed.pages += 1
        return feed

    def close(self) -> None:
        """Every feed's pages end their streams (the viewer's door stops, server/web/door.py)."""
        self.closed = True
        for feed in list(self.feeds.values()):
            feed.close()

    def leave(self, key, feed: Feed) -> None:
        feed.pages -= 1
        if feed.pages <= 0 and self.feeds.get(key) is feed:
            del self.feeds[key]
            feed.scope.cancel()
            end_listeners = getattr(feed.source, "end_listeners", None)
            if end_listeners is not None and feed.ended in end_listeners:
                end_listeners.remove(feed.ended)

    async def subscribe(self, key, make: Callable[[LiveBudget], Feed]):
        """A page's events: the newest each time the feed published (an async generator)."""
        if self.closed:
            return
        feed = self.join(key, make)
        try:
            seen = 0
            while not feed.closed:
                last, (seen, data) = seen, await feed.next(seen)
                if data and seen != last:  # empty only if building the first event failed (logged)
                    yield data
        finally:
            self.leave(key, feed)


class StepCache:
    """Built steps by (game, step): a state is drawn once, whatever the number of pages and API
    calls that show it. Only steps that cannot change any more are kept (``stable``)."""

    def __init__(self, size: int = STEPS_CACHED) -> None:
        self.size = size
        self.entries: OrderedDict[tuple[str, int], dict] = OrderedDict()
        self.built = 0  # how many steps were built (tests count them)

    def get(self, key: tuple[str, int], build: Callable[[], dict], stable: bool) -> dict:
        found = self.entries.get(key)
        if found is not None:
            self.entries.move_to_end(key)
            return found
        self.built += 1
        data = build()
        if stable:
            self.entries[key] = data
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)
        return data
