"""The ReversiXT and Robo Rally doors of ``swc serve`` against real lab clients and attackers
(issue 21): each test reproduces one defect over TCP against an in-process ``swc serve`` (all
doors on free ports, short settings) and asserts behaviour, never timings."""

from __future__ import annotations

import dataclasses
import json
import logging
from contextlib import asynccontextmanager

import pytest
import trio

from swc_local.server.app import Server
from swc_local.server.config import Settings
from tests.helpers import until
from tests.roborally_wire import Wire

FAST_ROBORALLY = {"timer": "0.05", "map": "Dizzy Highway", "playCardTimeout": "0.3"}


@asynccontextmanager
async def swc_serve(roborally: dict | None = None, reversixt: dict | None = None, **settings):
    """``swc serve`` in process: the XML door, the ReversiXT door and the Robo Rally door."""
    keys = dict(FAST_ROBORALLY)
    keys.update(roborally or {})
    sections = {"roborally": {"port": 0, "keys": keys}, "reversixt": reversixt or {}}
    async with trio.open_nursery() as nursery:
        server = await nursery.start(Server(Settings(free_ports=True, sections=sections, **settings)).run)
        # a finished game's seats close after 0.05 s, not the default 2 s (no property sets it)
        roborally_door = server.door("roborally")
        roborally_door.settings = dataclasses.replace(roborally_door.settings, close_delay=0.05)
        try:
            yield server
        finally:
            nursery.cancel_scope.cancel()


async def hello(port: int, body: dict) -> Wire:
    wire = await Wire.connect(port)
    await wire.expect("HelloClient")
    await wire.send("HelloServer", body)
    return wire


# ---------------------------------------------------------------------- 1. lab clients

async def test_the_lab_random_bot_without_a_group_is_welcomed():
    async with swc_serve() as server:
        port = server.door("roborally").port
        # the SoSe 2024 lab's RandomBot, byte for byte
        wire = await Wire.connect(port)
        await wire.expect("HelloClient")
        await wire.send_raw(b'{"messageType":"HelloServer","messageBody":{"protocol":"Version 1.0","isAI":true}}\n')
        client_id = (await wire.expect("Welcome"))["clientID"]
        await wire.send("PlayerValues", {"name": "RandomBot", "figure": 0})
        await wire.expect("PlayerAdded", {"clientID": client_id, "name": "RandomBot", "figure": 0})
        # neither group nor isAI
        bare = await hello(port, {"protocol": "Version 1.0"})
        await bare.expect("Welcome")
        # a group that is there but not a string is still refused, and the connection kept
        odd = await hello(port, {"group": 17, "isAI": True, "protocol": "Version 1.0"})
        await odd.expect("Error", {"error": "Invalid field: group"})
        await odd.send("HelloServer", {"group": "17", "isAI": True, "protocol": "Version 1.0"})
        await odd.expect("Welcome")
        lobby = server.door("roborally").switchboard.lobby
        assert sorted(peer.group for peer in lobby.peers) == ["", "", "17"]


async def play_roborally_game(port: int, seeds=(1, 2), timeout: float = 60):
    from swc_local.client.roborally_bot import RoboRallyBot

    bots = [RoboRallyBot(greedy=True, seed=seed) for seed in seeds]
    with trio.fail_after(timeout):
        async with trio.open_nursery() as nursery:
            for bot in bots:
                nursery.start_soon(bot.play, "127.0.0.1", port)
                await trio.sleep(0.02)
    return [bot.report for bot in bots]


async def two_players(port: int) -> tuple[Wire, Wire]:
    """Two Robo Rally players in a game on the fixed map (both ready)."""
    from tests.roborally_wire import join

    (a, id_a), (b, id_b) = await join(port, "A", 1), await join(port, "B", 2)
    for wire in (a, b):
        await wire.send("SetStatus", {"ready": True})
    for wire in (a, b):
        while (await wire.recv())[0] != "GameStarted":
            pass
    return a, b


# ---------------------------------------------------------------------- 3. text and log writes

SURROGATE_CHAT = b'{"messageType":"SendChat","messageBody":{"message":"\\ud800","to":-1}}\n'


async def test_a_lone_surrogate_is_malformed_and_the_connection_stays():
    async with swc_serve() as server:  # no log directory
        wire = await hello(server.door("roborally").port, {"group": "g", "isAI": True, "protocol": "Version 1.0"})
        await wire.expect("Welcome")
        await wire.send_raw(SURROGATE_CHAT)
        await wire.expect("Error", {"error": "Malformed JSON"})
        await wire.send("SendChat", {"message": "still here \U0001f600", "to": -1})  # a surrogate pair is fine
        body = await wire.expect("ReceivedChat")
        assert body["message"] == "still here \U0001f600"


async def test_a_lone_surrogate_in_a_game_with_a_log_directory_ends_no_game(tmp_path):
    async with swc_serve({"logDir": str(tmp_path / "logs")}) as server:
        door = server.door("roborally")
        a, b = await two_players(door.port)
        await a.send_raw(SURROGATE_CHAT)
        got = None
        while got is None or got[0] != "Error":
            got = await a.recv()
        assert got == ("Error", {"error": "Malformed JSON"})
        await a.aclose()  # B wins; the game ends and its log is written
        await until(lambda: len(door.log_files) == 1)
        lines = open(door.log_files[0], encoding="utf-8").read().splitlines()
        assert json.loads(lines[0])["winner"] is not None
        reports = await play_roborally_game(door.port)  # the door serves on
        assert all(report.finished for report in reports)


async def test_a_log_that_cannot_be_written_costs_that_log_only(tmp_path, caplog):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the log folder should be")
    async with swc_serve({"logDir": str(blocked / "logs")}) as server:
        door = server.door("roborally")
        reports = await play_roborally_game(door.port)
        assert all(report.finished for report in reports)
        await until(lambda: door.switchboard.games_finished == 1)
        await until(lambda: "game log" in caplog.text and "not written" in caplog.text)
        assert door.log_files == type(door.log_files)()
        # the same door and the other doors go on
        reports = await play_roborally_game(door.port, seeds=(3, 4))
        assert all(report.finished for report in reports)
        stream = await trio.open_tcp_stream("127.0.0.1", server.door("xml").port)
        await stream.send_all(b"<protocol><join gameType=\"swc_2019_piranhas\"/>")
        with trio.fail_after(5):
            assert b"joined" in await stream.receive_some(4096)
        await stream.aclose()


# ---------------------------------------------------------------------- 4. chat flood, slow readers

async def test_a_chat_flood_is_rate_limited_and_costs_the_honest_players_nothing(tmp_path):
    async with swc_serve({"logDir": str(tmp_path / "logs"), "chatPerSecond": "5", "chatBurst": "10"}) as server:
        door = server.door("roborally")
        flooder = await hello(door.port, {"group": "spam", "isAI": True, "protocol": "Version 1.0"})
        await flooder.expect("Welcome")
        line = json.dumps({"messageType": "SendChat", "messageBody": {"message": "x" * 20_000, "to": -1}}).encode() + b"\n"
        answers = {"Too many chat messages": 0}
        echoes = 0

        async def flood():  # as fast as the door takes it
            while True:
                await flooder.send_raw(line * 20)

        async def read():  # and it reads what it gets, so it is never dropped for not reading
            nonlocal echoes
            while (got := await flooder.recv(timeout=60)) is not None:
                echoes += got[0] == "ReceivedChat"  # public chat comes back to its sender too
                if got[0] == "Error":
                    answers[got[1]["error"]] = answers.get(got[1]["error"], 0) + 1

        started = trio.current_time()
        async with trio.open_nursery() as nursery:
            nursery.start_soon(flood)
            nursery.start_soon(read)
            reports = await play_roborally_game(door.port)
            elapsed = trio.current_time() - started
            nursery.cancel_scope.cancel()
        assert all(report.finished and not report.errors for report in reports), reports
        assert answers["Too many chat messages"] > 0
        await until(lambda: len(door.log_files) == 1)
        with open(door.log_files[0], encoding="utf-8") as handle:
            chats = sum(1 for entry in map(json.loads, handle) if entry.get("messageType") == "ReceivedChat")
        assert 0 < echoes <= 10 + 5 * (elapsed + 1)  # the burst, then 5 a second
        assert chats <= 10 + 5 * (elapsed + 1)  # the game's log holds those sent while it ran


async def test_a_client_that_takes_no_data_is_closed_after_the_write_timeout_while_a_reader_stays(autojump_clock):
    # no Alive check while it runs: these clients never answer one, and on the jumping clock a busy
    # run's many idle moments add up to the 5 s interval (CI saw the reader closed for it)
    async with swc_serve({"chatPerSecond": "0", "writeTimeout": "0.3", "aliveInterval": "1000"}) as server:
        door = server.door("roborally")
        sender = await hello(door.port, {"group": "g", "isAI": True, "protocol": "Version 1.0"})
        await sender.expect("Welcome")
        deaf = await trio.open_tcp_stream("127.0.0.1", door.port)  # says hello, then never reads again
        await deaf.send_all(b'{"messageType":"HelloServer","messageBody":{"protocol":"Version 1.0"}}\n')
        reader = await hello(door.port, {"group": "g", "isAI": True, "protocol": "Version 1.0"})
        await reader.expect("Welcome")
        await until(lambda: len(door.connections) == 3 and all(c.peer.client_id for c in door.connections))
        chunk = json.dumps({"messageType": "SendChat", "messageBody": {"message": "y" * 200_000, "to": -1}}).encode() + b"\n"
        received = 0

        async def read_all():
            nonlocal received
            while received < 40:
                kind, _ = await reader.recv(timeout=20)
                received += kind == "ReceivedChat"

        async def drain(wire):  # the sender reads its own echo
            with trio.move_on_after(20):
                while await wire.recv(timeout=20) is not None:
                    pass

        async with trio.open_nursery() as nursery:
            nursery.start_soon(read_all)
            nursery.start_soon(drain, sender)
            for _ in range(40):  # 8 MB to every connection
                await sender.send_raw(chunk)
            await until(lambda: len(door.connections) == 2)  # the deaf one is gone, the reader is not
            nursery.cancel_scope.deadline = trio.current_time() + 20
            await until(lambda: received == 40, timeout=20)
            nursery.cancel_scope.cancel()
        assert received == 40
        await deaf.aclose()


async def test_finished_rooms_are_not_kept_without_bound():
    from swc_local.server.roborally import door as roborally_door

    async with swc_serve() as server:
        door = server.door("roborally")
        assert door.finished_rooms.maxlen == door.log_files.maxlen == roborally_door.KEEP_FINISHED
        assert server.door("reversixt").finished.maxlen is not None


# ---------------------------------------------------------------------- 5. slots held for ever

async def test_robo_rally_connections_that_only_say_hello_cannot_hold_every_slot():
    async with swc_serve({"maxConnections": "20"}) as server:  # maxIdle then defaults to 10
        door = server.door("roborally")
        squatters = []
        for _ in range(20):
            wire = await hello(door.port, {"group": "squat", "isAI": True, "protocol": "Version 1.0"})
            await wire.expect("Welcome")
            squatters.append(wire)
        reports = await play_roborally_game(door.port)
        assert all(report.finished for report in reports), reports
        assert len(door._idle()) <= 10
        for wire in squatters:
            await wire.aclose()


async def read_until_closed(wire: Wire, timeout: float = 10) -> None:
    with trio.fail_after(timeout):
        while await wire.recv(timeout) is not None:
            pass


async def test_robo_rally_players_that_never_get_ready_cannot_block_the_lobby(autojump_clock, monkeypatch):
    """On trio's mock clock: readyTimeout and the waits are virtual, whatever the machine's load.
    The door measures the not-ready time with time.monotonic, so its modules get trio's clock
    as their monotonic clock here (their wall-clock ``time.time`` stays)."""
    import time
    from types import SimpleNamespace

    from swc_local.server.roborally import door as door_module, lobby as lobby_module
    from tests.roborally_wire import join

    virtual = SimpleNamespace(monotonic=trio.current_time, time=time.time)
    monkeypatch.setattr(door_module, "time", virtual)
    monkeypatch.setattr(lobby_module, "time", virtual)

    async with swc_serve({"readyTimeout": "0.3", "aliveInterval": "100"}) as server:  # blockers that never miss an Alive
        door = server.door("roborally")
        blocker, _ = await join(door.port, "never ready", 3)  # alone it blocks nobody and stays
        await trio.sleep(0.5)
        assert len(door.switchboard.lobby.players()) == 1
        reports = await play_roborally_game(door.port, timeout=3600)  # ready at once: the blocker is closed for them
        assert all(report.finished for report in reports), reports
        await read_until_closed(blocker)
        full = [(await join(door.port, f"squat {figure}", figure))[0] for figure in range(6)]
        for wire in full:  # a full lobby nobody gets ready in is emptied too
            await read_until_closed(wire)
        reports = await play_roborally_game(door.port, seeds=(5, 6), timeout=3600)  # virtual seconds
        assert all(report.finished for report in reports), reports


async def _silent(port: int) -> trio.SocketStream:
    return await trio.open_tcp_stream("127.0.0.1", port)


async def _reversixt_pair(door) -> list:
    from swc_local.client.reversixt_bot import play

    games = []

    async def one(seed):
        games.append(await play("127.0.0.1", door.port, seed=seed))

    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(one, 1)
            nursery.start_soon(one, 2)
    return games


async def test_reversixt_connections_without_a_group_neither_stay_nor_lock_out_players():
    from swc_local.server.reversixt.game import Timing

    async with swc_serve(max_connections=20, reversixt={"max_idle": 5}) as server:
        door = server.door("reversixt")
        door.settings.timing = Timing(0, 0)
        silent = [await _silent(door.port) for _ in range(20)]
        await until(lambda: door.open_connections <= 6)  # the oldest made room
        games = await _reversixt_pair(door)
        assert all(game.over and not game.disqualified for game in games)
        for stream in silent:
            await stream.aclose()


async def test_reversixt_has_a_join_deadline_by_default():
    assert Settings().section("reversixt").join_timeout > 0
    async with swc_serve(reversixt={"join_timeout": 0.2}) as server:
        stream = await _silent(server.door("reversixt").port)
        with trio.fail_after(5):
            assert await stream.receive_some(10) == b""  # closed without a byte
        await stream.aclose()


# ---------------------------------------------------------------------- 6. one budget per process

async def test_one_connection_budget_for_every_door_refusals_logged_once_per_burst(monkeypatch, caplog):
    from swc_local.server import limits
    from swc_local.server.reversixt.game import Timing

    monkeypatch.setattr(limits, "_budget_for", lambda file_limit: 4)
    caplog.set_level(logging.INFO)
    async with swc_serve() as server:
        assert limits.process_budget().total == 4
        assert "connections at once for all doors" in caplog.text
        door = server.door("reversixt")
        door.settings.timing = Timing(0, 0)
        xml = [await trio.open_tcp_stream("127.0.0.1", server.door("xml").port) for _ in range(2)]
        a, b = await two_players(server.door("roborally").port)
        await until(lambda: limits.process_budget().used == 4)
        for _ in range(50):  # a burst against the third door: closed at once, no byte
            stream = await trio.open_tcp_stream("127.0.0.1", door.port)
            with trio.fail_after(5):
                assert await stream.receive_some(10) == b""
            await stream.aclose()
        refusals = [r for r in caplog.records if "connection refused" in r.getMessage()]
        assert 1 <= len(refusals) <= 2 and not any(r.exc_info for r in caplog.records)
        for stream in xml:
            await stream.aclose()
        await until(lambda: limits.process_budget().used == 2)
        games = await _reversixt_pair(door)  # freed slots serve any door
        assert all(game.over and not game.disqualified for game in games)
        await a.aclose()
        await b.aclose()


def test_swc_serve_raises_its_soft_file_limit_and_says_so(tmp_path):
    import resource
    import subprocess
    import sys

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard <= 256:
        pytest.skip("the hard file limit is too low to lower the soft one below it")

    def lower():
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))

    process = subprocess.Popen(
        [sys.executable, "-m", "swc_local.server", "--port", "0", "--reversixt-port", "0", "--roborally-port", "0"],
        cwd=tmp_path, stderr=subprocess.PIPE, text=True, preexec_fn=lower,
    )
    try:
        lines = []
        for line in process.stderr:
            lines.append(line)
            if "Robo Rally listening" in line:
                break
    finally:
        process.terminate()
        process.wait(timeout=30)
    text = "".join(lines)
    assert "file limit raised from 256 to" in text, text
    assert "Traceback" not in text


# ---------------------------------------------------------------------- 7. ReversiXT writes

def big_map(width: int = 150, height: int = 80) -> str:
    """A 2-player map of about 24 KB: an empty board with the four starting stones."""
    rows = [["0"] * width for _ in range(height)]
    cy, cx = height // 2, width // 2
    rows[cy - 1][cx - 1] = rows[cy][cx] = "1"
    rows[cy - 1][cx] = rows[cy][cx - 1] = "2"
    return "2\n0\n0 0\n%d %d\n" % (height, width) + "".join(" ".join(row) + "\n" for row in rows)


async def test_a_client_that_never_reads_a_large_map_is_disqualified_and_the_game_goes_on(tmp_path):
    import socket

    from swc_local.protocol import reversixt as wire
    from swc_local.server.reversixt.game import Timing

    path = tmp_path / "big_2p.map"
    path.write_text(big_map())
    assert path.stat().st_size > 20_000
    # 1 s, not 0.3: on a crowded machine the honest in-process bot was itself off the CPU for 0.3 s
    async with swc_serve(reversixt={"map": str(path), "time_limit": 1.0, "write_timeout": 1.0}) as server:
        door = server.door("reversixt")
        door.settings.timing = Timing(0, 0)
        deaf = trio.socket.socket()
        deaf.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # reads nothing, buffers little
        await deaf.connect(("127.0.0.1", door.port))
        await deaf.send(wire.encode_group(1))
        await until(lambda: door.waiting_count() == 1)
        from swc_local.client.reversixt_bot import play

        with trio.fail_after(30):
            game = await play("127.0.0.1", door.port, seed=3)
        assert game.over and not game.disqualified
        await until(lambda: len(door.finished) == 1)
        referee = door.finished[0].referee
        assert referee.state.disqualified == {1}
        assert "disqualified player 1 (timeout during move)" in "".join(referee.log)
        deaf.close()
