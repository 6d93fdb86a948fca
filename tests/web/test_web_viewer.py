"""The web viewer's door and API without a browser: sources, files, limits, passphrase, play from here."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest
import trio

from swc_local.client.admin import Admin
from swc_local.client.bot import play_game
from swc_local.games import registry
from swc_local.server.web.context import WebContext
from swc_local.server.web.auth import Gate
from swc_local.server.web.book import GameBook
from swc_local.server.web.door import WebDoor
from swc_local.server.families import record_readers
from swc_local.server.web.files import FileError, open_bytes

from tests.web_helpers import (OFFICIAL_PIRANHAS, PASSWORD, REFERENCE_REVERSIXT, ViewProcess, http, renderer,
                          start_viewer_server, swc_replay, unpacked_roborally_log)

PIRANHAS = registry.get("swc_2019_piranhas")


async def last_step(url: str, source_suffix: str) -> dict:
    status, listing = await http(url + "/api/games")
    assert status == 200
    (record,) = [g for g in listing["games"] if g["source"].endswith(source_suffix)]
    status, step = await http(f"{url}/api/games/{record['id']}/steps/-1")
    assert status == 200
    return record | {"step": step}


async def test_swc_view_shows_the_last_state_swc_replay_prints(tmp_path):
    """An official Piranhas 2019 replay (gzipped, as the official server's .xml.gz), a reference
    server's log_game.txt and a Robo Rally log: the viewer's last state is swc replay's last board."""
    closed = tmp_path / "official_piranhas.xml"  # the capture of the official admin observer, closed as a file
    closed.write_bytes(OFFICIAL_PIRANHAS.read_bytes().rstrip() + b"\n</protocol>\n")
    official = tmp_path / "official_piranhas.xml.gz"
    official.write_bytes(gzip.compress(closed.read_bytes()))
    roborally = unpacked_roborally_log(tmp_path)
    view = await trio.to_thread.run_sync(lambda: ViewProcess(official, REFERENCE_REVERSIXT, roborally))
    try:
        piranhas = await last_step(view.url, "official_piranhas.xml.gz")
        assert piranhas["game"] == "swc_2019_piranhas" and piranhas["status"] == "finished"
        printed = swc_replay(closed)
        last_block = printed.rstrip().split("\n\n")[-2]  # "BLUE moves: ...", then the board
        assert last_block.split("\n", 1)[1] == piranhas["step"]["text"].rstrip()
        assert last_block.split("\n", 1)[0].endswith(piranhas["step"]["note"])
        assert [row["cause"] for row in piranhas["result"]] == ["REGULAR", "REGULAR"]
        assert [row["rank"] for row in piranhas["result"]] == [2, 1]

        reversixt = await last_step(view.url, "log_game.txt")
        printed = swc_replay(REFERENCE_REVERSIXT)
        boards = printed.split("\nmove ")
        last_board = boards[-1].split("\n", 1)[1]
        assert last_board.startswith(reversixt["step"]["text"])
        assert [row["rank"] for row in reversixt["result"]] == [1, 2]

        robo = await last_step(view.url, "death_trap_game.jsonl")
        printed = swc_replay(roborally)
        assert printed.rstrip().endswith(robo["step"]["text"].rstrip())
        assert robo["step"]["label"].startswith("end in round")
        winner = json.loads(roborally.read_text().split("\n", 1)[0])["winner"]
        assert [row["seat"] for row in robo["result"] if row["rank"] == 1] == [str(winner)]
    finally:
        view.close()


def run_swc(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(Path(sys.executable).parent / "swc"), *args], capture_output=True, text=True, timeout=60)


def test_swc_view_refuses_a_file_it_cannot_show(tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("hello")
    for path in (bad, tmp_path / "missing.xml"):
        result = run_swc("view", "--port", "0", str(path))
        message = result.stderr.strip().splitlines()
        assert result.returncode == 2 and len(message) == 1 and path.name in message[0], result.stderr


def test_files_are_parsed_with_the_game_ports_limits():
    deep = b"<protocol><room>" + b"<a>" * 40 + b"</a>" * 40 + b"</room></protocol>"
    try:
        open_bytes(deep, "deep.xml", record_readers())  # the XML reader's own depth limit, 32
    except FileError as error:
        assert "deep.xml" in str(error) and "depth" in str(error)
    else:
        raise AssertionError("a file nested deeper than maxDepth was read")
    bomb = gzip.compress(b" " * (9 << 20))
    try:
        open_bytes(bomb, "bomb.xml.gz", record_readers())
    except FileError as error:
        assert "more than" in str(error)
    else:
        raise AssertionError("a gzip unpacking beyond the limit was read")


async def test_live_xml_game_is_followed_from_the_observe_path(nursery):
    server = await start_viewer_server(nursery)
    url = server.door("web").url
    with trio.fail_after(30):
        async with trio.open_nursery() as bots:
            for seed in (1, 2):
                bots.start_soon(play_game, PIRANHAS, "127.0.0.1", server.door("xml").port, None, seed)
                await trio.sleep(0.05)
    status, listing = await http(url + "/api/games?game=swc_2019_piranhas")
    (game,) = listing["games"]
    assert game["status"] == "finished" and game["result"][0]["cause"] == "REGULAR"
    status, detail = await http(f"{url}/api/games/{game['id']}?steps=1")
    assert detail["count"] == len(detail["steps"]) > 2 and detail["steps"][0]["label"] == "turn 0"
    status, step = await http(f"{url}/api/games/{game['id']}/steps/1")
    assert status == 200 and step["svg"].startswith("<svg") and step["state"].startswith("<state")
    assert (await http(f"{url}/api/games/{game['id']}/steps/999"))[0] == 404
    assert (await http(f"{url}/api/games/nope"))[0] == 404
    assert (await http(url + "/static/../app.py"))[0] == 404


async def test_stream_sends_the_newest_summary(nursery):
    server = await start_viewer_server(nursery)
    async with await Admin.connect("127.0.0.1", server.door("xml").port, PASSWORD) as admin:
        prepared = await admin.prepare("piranhas", ["Alice", "Bob"], paused=True)
        async with trio.open_nursery() as bots:
            for code in prepared.reservations:
                bots.start_soon(play_game, PIRANHAS, "127.0.0.1", server.door("xml").port, code, 1)
            await trio.sleep(0.3)
            (record,) = server.door("web").context.book.records.values()
            events = []

            def read_two():
                import urllib.request

                with urllib.request.urlopen(f"{server.door('web').url}/api/games/{record.id}/stream", timeout=20) as response:
                    while len(events) < 2:
                        line = response.readline().decode()
                        if line.startswith("data: "):
                            events.append(json.loads(line[6:]))

            async with trio.open_nursery() as reader:
                reader.start_soon(trio.to_thread.run_sync, read_two)
                await trio.sleep(0.5)
                for _ in range(6):  # six moves in quick succession: at most a few events, the newest last
                    await admin.step(prepared.room_id, settle=0.05)
            assert events[0]["players"][0]["name"] == "Alice"
            assert events[-1]["count"] > events[0]["count"]
            await admin.cancel(prepared.room_id)
            bots.cancel_scope.cancel()


async def test_off_loopback_every_page_asks_for_the_passphrase(nursery):
    book = GameBook()
    book.add(open_bytes(OFFICIAL_PIRANHAS.read_bytes(), "official.xml", record_readers()))
    gate = Gate("0.0.0.0", PASSWORD)  # as for a server on every interface; bound to loopback for the test
    door = await nursery.start(WebDoor(WebContext(book, gate, renderer=renderer()), "127.0.0.1", 0).run)
    url = door.url
    assert (await http(url + "/api/games"))[0] == 401
    status, body = await http(url + "/", headers={})
    assert status == 200 and b"passphrase" in body  # redirected to the login page
    assert (await http(url + "/api/games", headers={"Authorization": "Bearer wrong"}))[0] == 401
    status, listing = await http(url + "/api/games", headers={"Authorization": f"Bearer {PASSWORD}"})
    assert status == 200 and len(listing["games"]) == 1


async def test_play_from_here_prepares_a_room_from_that_state(nursery):
    server = await start_viewer_server(nursery)
    url = server.door("web").url
    upload = OFFICIAL_PIRANHAS.read_bytes()
    status, opened = await http(url + "/api/upload", data=upload, headers={"X-File-Name": "%3Cb%3Eofficial.xml"})
    assert status == 200
    status, listing = await http(url + "/api/games")
    assert listing["games"][0]["source"] == "<b>official.xml"  # a label, shown as text by the pages
    target = f"{url}/api/games/{opened['id']}/play-from/10"
    assert (await http(target, data=b'{"passphrase": "wrong"}'))[0] == 403
    status, prepared = await http(target, data=json.dumps({"passphrase": PASSWORD}).encode())
    assert status == 200 and prepared["turn"] == 10 and len(prepared["reservations"]) == 2
    with trio.fail_after(30):
        async with trio.open_nursery() as bots:
            for seed, code in enumerate(prepared["reservations"]):
                bots.start_soon(play_game, PIRANHAS, "127.0.0.1", server.door("xml").port, code, seed)
    status, listing = await http(url + "/api/games?game=swc_2019_piranhas")
    live = [g for g in listing["games"] if g["source"] == "live"]
    status, detail = await http(f"{url}/api/games/{live[0]['id']}?steps=1")
    assert detail["steps"][0]["label"] == "turn 10" and live[0]["status"] == "finished"


async def test_upload_limits(nursery):
    server = await start_viewer_server(nursery)
    url = server.door("web").url
    server.door("web").context.upload_limit = 65536  # small, so the refused body fits the socket buffers
    status, body = await http(url + "/api/upload", data=b"x" * 100_000)
    assert status == 413 and "65536" in body["error"]
    status, body = await http(url + "/api/upload", data=b"<protocol><room>", headers={"X-File-Name": "cut.xml"})
    assert status == 400 and "cut.xml" in body["error"]


def test_serve_flag_and_key_for_the_viewer_port(tmp_path):
    properties = tmp_path / "server.properties"
    properties.write_text("viewerPort=-5\n")
    result = run_swc("serve", "--properties", str(properties))
    assert result.returncode == 2 and "viewerPort" in result.stderr and "-5" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


TINY_ROBORALLY_LOG = (b'{"game": "roborally", "map": "Dizzy Highway", "seed": 1, "players": [1, 2], "winner": 1}\n'
                      b'{"t": 0.1, "dir": "out", "peer": "all", "messageType": "StartingPointTaken", '
                      b'"messageBody": {"x": 1, "y": 4, "clientID": 1}}\n')


async def test_uploads_cannot_grow_memory_without_bound(nursery):
    server = await start_viewer_server(nursery, {"web": {"port": 0, "uploads_kept": 3}})
    url = server.door("web").url
    ids = []
    for number in range(5):
        status, opened = await http(url + "/api/upload", data=TINY_ROBORALLY_LOG, headers={"X-File-Name": f"{number}.jsonl"})
        assert status == 200
        ids.append(opened["id"])
    status, listing = await http(url + "/api/games")
    assert [game["id"] for game in listing["games"]] == ids[:1:-1]  # the three newest, newest first
    assert (await http(f"{url}/api/games/{ids[0]}"))[0] == 404


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the server's CPU from /proc")
def test_the_viewer_benchmark_runs(monkeypatch):
    """A tiny run of benchmarks/viewer.py (no timing asserted): both sides measured, pages open."""
    from benchmarks import viewer

    monkeypatch.setattr(viewer, "ROOMS", 3)
    monkeypatch.setattr(viewer, "PAGES", 2)
    monkeypatch.setattr(viewer, "THINK", (0.01, 0.02))
    name, measured, target, ratio = viewer.row(1.0, rounds=1)
    assert name.startswith("50 pages on 50 live games") and "2 pages open" in measured and "0 errors" in measured


async def test_event_streams_are_bounded(nursery):
    import threading
    import urllib.request

    server = await start_viewer_server(nursery, {"web": {"port": 0, "max_streams": 1}})
    url = server.door("web").url
    done = threading.Event()

    def hold_one():
        with urllib.request.urlopen(url + "/api/stream", timeout=20) as response:
            response.readline()
            trio.from_thread.run_sync(opened.set)
            done.wait(10)  # keep it open until the test has asked again

    opened = trio.Event()
    async with trio.open_nursery() as holders:
        holders.start_soon(trio.to_thread.run_sync, hold_one)
        await opened.wait()
        status, body = await http(url + "/api/stream")
        assert status == 503 and "event streams" in body["error"]
        done.set()


def test_a_live_reversixt_log_is_followed_as_it_grows():
    """The door's log read again and again as lines arrive ends in the same steps as the file."""
    from swc_local.server.reversixt.records import ReversiRecord, read_move_log_file

    text = REFERENCE_REVERSIXT.read_text()
    whole = read_move_log_file(text, "log_game.txt")
    lines = text.splitlines(keepends=True)
    shown = {"lines": 0}
    live = ReversiRecord("live", lambda: (shown["lines"], "".join(lines[: shown["lines"]])), finished=False)
    counts = []
    for end in range(0, len(lines) + 1, 7):
        shown["lines"] = end
        counts.append(live.count())
    shown["lines"] = len(lines)
    live.finish()
    assert counts == sorted(counts) and counts[-1] > 10
    assert [s.label for s in live.steps()] == [s.label for s in whole.steps()]
    assert live.text_of(live.steps()[-1]) == whole.text_of(whole.steps()[-1])
    assert [row.to_dict() for row in live.result()] == [row.to_dict() for row in whole.result()]
