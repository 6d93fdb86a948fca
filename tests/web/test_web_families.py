"""The viewer finds every family's games through that family's ServerFamily (server/door.py's
viewer hooks) and names no family itself: a fourth family whose ServerFamily offers
``watch_for_viewer`` and ``read_record_file`` has its live games listed and its log files opened
with no edit of server/web/.

The fourth family here is the toy family of tests/toy_family.py (its door, its settings section)
with a door module of its own, this one, that adds the two viewer hooks.
"""

from __future__ import annotations

import trio

from swc_local.games import registry
from swc_local.server import families
from swc_local.server.door import ServerFamily
from swc_local.server.web.book import GameBook, GameRecord, SeatRow, Step
from swc_local.server.families import record_readers
from swc_local.server.web.files import open_bytes

from tests import toy_family
from tests.toy_family import SECTION, open_door
from tests.web_helpers import OFFICIAL_PIRANHAS, http, start_viewer_server

watched: list = []


class CountRecord(GameRecord):
    """A toy game as the viewer shows it: one step per log line."""

    family = "toy"

    def __init__(self, source: str, lines: list[str]) -> None:
        super().__init__("count_to_three", "Count to three", source)
        self.lines = lines

    def steps(self) -> list[Step]:
        return [Step(line, label=f"line {n}", text=line) for n, line in enumerate(self.lines, 1)]

    def players(self) -> list[SeatRow]:
        return []

    def status(self) -> str:
        return "running" if self.source == "live" else "finished"


def watch_for_viewer(door, book) -> None:
    watched.append(door)
    book.add(CountRecord("live", ["waiting"]))


def read_record_file(data: bytes, source: str):
    if not data.startswith(b"COUNTED "):
        return None
    return CountRecord(source, data.decode().splitlines())


TOY_SHOWN = ServerFamily("toy", SECTION, open_door, watch_for_viewer, read_record_file)


def register(monkeypatch) -> None:
    monkeypatch.setattr(families, "FAMILIES", (*families.FAMILIES, TOY_SHOWN))
    monkeypatch.setattr(registry, "GAMES", (*registry.GAMES, toy_family.GAME))


async def test_a_fourth_familys_door_is_watched_through_its_door_module(nursery, monkeypatch):
    register(monkeypatch)
    watched.clear()
    server = await start_viewer_server(nursery, sections={"reversixt": {"enabled": False}})
    assert [door.name for door in server.doors] == ["xml", "toy", "web"]
    assert watched == [server.door("toy")]
    with trio.fail_after(30):
        status, listing = await http(server.door("web").url + "/api/games?game=count_to_three")
    assert status == 200
    assert [(game["family"], game["status"], game["progress"]) for game in listing["games"]] == [("toy", "running", "line 1")]


def test_a_fourth_familys_log_is_opened_by_its_reader_and_xml_stays_the_fallback(monkeypatch):
    register(monkeypatch)
    record = open_bytes(b"COUNTED ann 1\nCOUNTED bob 2\n", "game.toy", record_readers())
    assert isinstance(record, CountRecord) and record.count() == 2 and record.source == "game.toy"
    replay = open_bytes(OFFICIAL_PIRANHAS.read_bytes(), "official.xml", record_readers())  # asked of the toy reader first
    assert replay.family == "xml" and replay.count() > 1


def test_a_family_without_viewer_hooks_is_served_but_not_shown(monkeypatch):
    toy_family.register(monkeypatch)
    from swc_local.server.web.door import watch_doors

    book = GameBook()
    watch_doors(families.FAMILIES, [toy_family.ToyDoor("127.0.0.1", 0, 10)], book)
    assert not book.records
