"""Live events of the web viewer: what a page following a game receives, and what it may cost.

Time is trio's mock clock and CPU time a counter that only drawing advances, so the figures
asserted are counts, never the machine's speed.
"""

from __future__ import annotations

import json
from types import SimpleNamespace

import trio

from swc_local.games import registry
from swc_local.server.web.context import WebContext
from swc_local.server.web.streams import game_feed
from swc_local.server.web.auth import Gate
from swc_local.server.web.book import GameBook
from swc_local.server.families import record_readers
from swc_local.server.web.files import open_bytes
from swc_local.server.web.live import FEED_INTERVAL, FLOOR, SHARE, LiveBudget
from swc_local.server.xml.records import XmlRecord

from tests.web_helpers import OFFICIAL_PIRANHAS

PIRANHAS = registry.get("swc_2019_piranhas")
DRAWING_CPU = 0.002
"""What one drawing costs in these tests (CPU seconds on the injected counter)."""


class LiveGame:
    """A live Piranhas game fed the official capture's states one by one, with pages following it."""

    def __init__(self, nursery: trio.Nursery, pages: int) -> None:
        self.states = open_bytes(OFFICIAL_PIRANHAS.read_bytes(), "official.xml", record_readers())._mementos
        self.cpu = 0.0
        self.book = GameBook()
        self.context = WebContext(self.book, Gate("127.0.0.1", None), renderer=self.draw)
        self.context.feeds._budget = LiveBudget(cpu=lambda: self.cpu)
        self.context.feeds.nursery = nursery
        self.record = self.book.add(XmlRecord(PIRANHAS, "live"))
        self.sent = 0
        self.received: list[list[dict]] = [[] for _ in range(pages)]
        self.arrived: list[float] = []  # when each event reached a page (trio's clock)
        for page in range(pages):
            nursery.start_soon(self.follow, self.received[page])

    def draw(self, game_type, state, last_move=None, previous=None) -> str:
        self.cpu += DRAWING_CPU
        return "<svg/>"

    async def follow(self, events: list[dict]) -> None:
        """A game page: every event of the game's stream with its newest step, until the end."""
        key = (self.record.id, True)
        async for data in self.context.feeds.subscribe(key, game_feed(self.context, self.record, True)):
            event = json.loads(data.decode()[len("data: "):])
            events.append(event)
            self.arrived.append(trio.current_time())
            if event["status"] == "finished":
                return

    async def move(self, pause: float) -> None:
        self.record.send(self.states[self.sent])
        self.sent += 1
        await trio.sleep(pause)

    def end(self) -> None:
        slots = [SimpleNamespace(display_name=name) for name in ("Alice", "Bob")]
        self.record.room_over(SimpleNamespace(unfinished=None, slots=slots))


def steps_of(events: list[dict]) -> list[int]:
    return [event["step"]["index"] for event in events if "step" in event]


async def test_a_page_gets_every_state_when_moves_come_slower_than_the_budget(autojump_clock):
    async with trio.open_nursery() as nursery:
        game = LiveGame(nursery, pages=1)
        for _ in range(20):  # a move every half second: far below ten states a second
            await game.move(0.5)
        game.end()
        await trio.sleep(1)
    (events,) = game.received
    assert steps_of(events) == [*range(20), 19]  # every state, in order, once; then the end (same state)
    assert events[-1]["status"] == "finished" and events[-2]["status"] != "finished"


async def test_a_page_gets_the_newest_state_when_moves_come_faster(autojump_clock):
    async with trio.open_nursery() as nursery:
        game = LiveGame(nursery, pages=3)
        await game.move(0.5)
        for _ in range(40):  # a hundred moves a second
            await game.move(0.01)
        newest = game.sent - 1
        await trio.sleep(1)  # the newest state reaches the pages although no move follows it
        before_end = [steps_of(events) for events in game.received]
        game.end()
        await trio.sleep(1)
    first = before_end[0]
    assert first == before_end[1] == before_end[2]  # every page the same states
    assert first[0] == 0 and first[-1] == newest
    assert len(first) < 10 and first == sorted(set(first))  # states skipped, never repeated or reordered
    assert all(later - earlier > 1 for earlier, later in zip(first[1:], first[2:]))
    for events in game.received:
        assert events[-1]["status"] == "finished" and events[-1]["step"]["index"] == newest
    # each state drawn once for all three pages: one drawing per state shown
    assert game.cpu == DRAWING_CPU * len(set(steps_of(game.received[0])))


async def test_a_page_costs_nothing_while_its_game_does_not_change(autojump_clock):
    async with trio.open_nursery() as nursery:
        game = LiveGame(nursery, pages=2)
        await game.move(0.5)
        (feed,) = game.context.feeds.feeds.values()
        published = feed.published
        await trio.sleep(60)  # a minute without a move
        assert feed.published == published == 1 and game.cpu == DRAWING_CPU
        nursery.cancel_scope.cancel()
    assert not game.context.feeds.feeds  # the pages left: so did their feed


def test_the_budget_is_a_floor_on_a_quiet_server_and_a_share_of_the_games_under_load():
    now = {"wall": 0.0, "cpu": 0.0}
    budget = LiveBudget(cpu=lambda: now["cpu"], clock=lambda: now["wall"])

    def spend_for(seconds: float, games_per_second: float) -> float:
        """The viewer draws whenever the budget lets it; its CPU in the end."""
        spent = budget.spent
        for _ in range(int(seconds * 100)):
            now["wall"] += 0.01
            now["cpu"] += games_per_second * 0.01
            budget.refill()
            while budget.tokens >= 0:
                now["cpu"] += DRAWING_CPU
                budget.charge(DRAWING_CPU)
        return budget.spent - spent

    quiet = spend_for(100, 0.0)
    assert abs(quiet - FLOOR * 100) < 0.05  # 2 % of one CPU when nothing else runs
    busy = spend_for(100, 0.5)  # the games use half a CPU
    assert busy <= SHARE * 0.5 * 100 + 0.05
    assert busy >= SHARE * 0.5 * 100 - 0.05
    assert FEED_INTERVAL * 10 <= 1.0  # a watched game may show ten states a second


async def test_the_final_state_goes_out_at_once_even_when_the_budget_is_spent(autojump_clock):
    async with trio.open_nursery() as nursery:
        game = LiveGame(nursery, pages=1)
        await game.move(0.5)
        game.context.feeds.budget.charge(10.0)  # as if busy games had left nothing for the viewer
        for _ in range(5):
            await game.move(0.5)
        (events,) = game.received
        assert steps_of(events) == [0]  # held back: the budget is in debt
        ended_at = trio.current_time()
        game.end()
        await trio.sleep(1)
    assert steps_of(events) == [0, 5] and events[-1]["status"] == "finished"
    assert game.arrived[-1] - ended_at <= FEED_INTERVAL
