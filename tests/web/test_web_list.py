"""The start page's list, live: built from summaries cached per game, and not starved by the game
pages under a spent budget.

Time is trio's mock clock and CPU time a counter that only drawing advances (as in
tests/web/test_web_live.py), so what is asserted are counts and mock seconds, never the machine's speed.
"""

from __future__ import annotations

import gzip
import json
from types import SimpleNamespace

import trio

from swc_local.games import registry
from swc_local.server.web.context import WebContext
from swc_local.server.web.streams import game_feed, list_event, list_feed
from swc_local.server.web.auth import Gate
from swc_local.server.web.book import GameBook
from swc_local.server.families import record_readers
from swc_local.server.web.files import open_bytes
from swc_local.server.web.live import LIST_INTERVAL, LiveBudget
from swc_local.server.xml.records import XmlRecord

from tests.web_helpers import OFFICIAL_PIRANHAS, REFERENCE_REVERSIXT, ROBORALLY_LOG_GZ

PIRANHAS = registry.get("swc_2019_piranhas")
DRAWING_CPU = 0.02
"""What one drawing costs here: dear, so that the game pages spend the whole budget."""


def states() -> list:
    return open_bytes(OFFICIAL_PIRANHAS.read_bytes(), "official.xml", record_readers())._mementos


def end(record: XmlRecord) -> None:
    slots = [SimpleNamespace(display_name=name) for name in ("Alice", "Bob")]
    record.room_over(SimpleNamespace(unfinished=None, slots=slots))


def test_a_summary_s_json_is_the_summary_encoded_for_every_family_and_state():
    book = GameBook()
    files = [open_bytes(OFFICIAL_PIRANHAS.read_bytes(), "official.xml", record_readers()),
             open_bytes(REFERENCE_REVERSIXT.read_bytes(), "log_game.txt", record_readers()),
             open_bytes(gzip.decompress(ROBORALLY_LOG_GZ.read_bytes()), "game.jsonl", record_readers())]
    live = XmlRecord(PIRANHAS, "live")
    for record in (*files, live):
        book.add(record)
    mementos = states()
    for index in range(3):
        live.send(mementos[index])
        for record in book.records.values():
            assert json.loads(record.summary_json()) == record.summary()
            assert record.summary_json() == json.dumps(record.summary())  # byte for byte, key order too
    end(live)
    assert live.summary()["status"] == "finished" and live.summary()["players"][0]["name"] == "Alice"
    assert live.summary_json() == json.dumps(live.summary())
    listed = json.loads(list_event(book, None).decode()[len("data: "):])
    assert listed == {"games": [r.summary() for r in reversed(book.records.values())]}


def test_a_list_event_after_a_move_summarizes_only_the_game_that_moved_and_not_its_players():
    book = GameBook()
    records = [book.add(XmlRecord(PIRANHAS, "live")) for _ in range(10)]
    mementos = states()
    for record in records:
        record.send(mementos[0])
    list_event(book, None)
    built = [r.summaries_built for r in records]
    players = [r.players_built for r in records]
    records[3].send(mementos[1])
    listed = json.loads(list_event(book, None).decode()[len("data: "):])
    assert [r.summaries_built - b for r, b in zip(records, built)] == [0, 0, 0, 1, 0, 0, 0, 0, 0, 0]
    assert [r.players_built for r in records] == players  # same names: the players' JSON is kept
    moved = next(g for g in listed["games"] if g["id"] == records[3].id)
    assert moved["progress"] == records[3].progress() and moved["version"] == records[3].version
    end(records[3])  # names change at the end: the players are built again, once
    list_event(book, None)
    assert records[3].players_built == players[3] + 1


class Server:
    """Many live games, each followed by a game page, and one start page following the list."""

    def __init__(self, nursery: trio.Nursery, games: int) -> None:
        self.cpu = 0.0
        self.book = GameBook()
        self.context = WebContext(self.book, Gate("127.0.0.1", None), renderer=self.draw)
        self.context.feeds._budget = LiveBudget(cpu=lambda: self.cpu)
        self.context.feeds.nursery = nursery
        self.mementos = states()
        self.records = [self.book.add(XmlRecord(PIRANHAS, "live")) for _ in range(games)]
        self.lists: list[tuple[float, dict]] = []  # (when, the list) for every list event
        for record in self.records:
            record.send(self.mementos[0])
            nursery.start_soon(self.page, record)
        nursery.start_soon(self.start_page)

    def draw(self, game_type, state, last_move=None, previous=None) -> str:
        self.cpu += DRAWING_CPU
        return "<svg/>"

    async def page(self, record) -> None:
        async for _ in self.context.feeds.subscribe((record.id, True), game_feed(self.context, record, True)):
            pass

    async def start_page(self) -> None:
        async for data in self.context.feeds.subscribe(("list", None), list_feed(self.book, None)):
            self.lists.append((trio.current_time(), json.loads(data.decode()[len("data: "):])))

    async def play(self, moves: int, pause: float) -> None:
        """Every game moves, one after the other, ``pause`` apart."""
        for move in range(1, moves + 1):
            for record in self.records:
                record.send(self.mementos[move])
                await trio.sleep(pause / len(self.records))


async def test_the_list_stays_live_while_the_game_pages_spend_the_whole_budget(autojump_clock):
    async with trio.open_nursery() as nursery:
        server = Server(nursery, games=30)
        await trio.sleep(1)
        budget = server.context.feeds.budget
        start, drawn, spent = trio.current_time(), server.cpu, budget.spent  # the first events are outside the cap
        await server.play(moves=40, pause=1.0)  # 30 games, a move a second each, for 40 s
        window = trio.current_time() - start
        spent = budget.spent - spent
        # the game pages are starved for drawings: the budget (2 % of one CPU) is what limits them
        assert (server.cpu - drawn) / window <= 0.02 * 1.1
        nursery.cancel_scope.cancel()
    times = [when for when, _ in server.lists if when >= start]
    gaps = [later - earlier for earlier, later in zip([start, *times], times)]
    assert len(times) >= window / 2 and max(gaps) <= 2.0  # the list changed at least every 2 s
    newest = server.lists[-1][1]["games"]
    assert {g["progress"] for g in newest} <= {"turn 39", "turn 40"}  # and it showed the newest turns
    assert spent <= 0.02 * window + 0.05  # with the list's events, the viewer's total stays in the budget


async def test_a_game_s_result_reaches_the_list_at_once_even_when_the_list_s_budget_is_spent(autojump_clock):
    async with trio.open_nursery() as nursery:
        server = Server(nursery, games=3)
        await trio.sleep(1)
        server.context.feeds.budget.charge(10.0, lane="list")  # deep in debt
        seen = len(server.lists)
        server.records[1].send(server.mementos[1])
        await trio.sleep(5)
        assert len(server.lists) == seen  # a move waits for the budget
        ended = trio.current_time()
        end(server.records[1])
        await trio.sleep(LIST_INTERVAL)
        nursery.cancel_scope.cancel()
    when, listing = server.lists[-1]
    finished = next(g for g in listing["games"] if g["id"] == server.records[1].id)
    assert finished["status"] == "finished" and when - ended <= LIST_INTERVAL
