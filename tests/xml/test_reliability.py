"""One hostile connection, a passphrase brute force or a shutdown costs nobody a game (issue 15).

Each test reproduces one defect over TCP against a real server (in-process, or ``swc serve`` as a
subprocess for the signals) and asserts behaviour, never timings: healthy games beside an attack
run with a 1 s soft timeout, so a stall of the server longer than that would score an innocent
player SOFT_TIMEOUT, and the work done in one scheduler step is counted, which bounds a stall on
any machine.  The figures (gaps, memory, move rates) are printed by
``python -m benchmarks.reliability``.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import trio
import trio.testing

from swc_local.client.connection import ConnectionClosed
from swc_local.games import registry
from swc_local.games.plugin import CLASSIC
from swc_local.protocol import messages as msg
from swc_local.protocol.element import Element
from swc_local.server.transport import MESSAGES_PER_TURN
from swc_local.server.xml.room import GameRoom
from tests.conftest import PASSWORD
from tests.wire import Raw, connect, data_class, messages

PIRANHAS = registry.get("swc_2019_piranhas")
CLOSE = b"<protocol>\n  <sc.protocol.responses.CloseConnection/>\n</protocol>"
JOIN = b'<join gameType="swc_2019_piranhas"/>'


async def paced_player(port: int, code: str | None, seed: int, think: float = 0.02) -> dict:
    """A reference player that thinks ``think`` s per move; what it saw, and every byte."""
    seen: dict = {"color": None, "room": None, "result": None, "left": False, "closed": False, "moves": 0}
    connection, recording = await connect(port)
    seen["bytes"] = recording.received
    rng = random.Random(seed)
    if code is None:
        await connection.send(Element("join", {"gameType": PIRANHAS.game_type}))
    else:
        await connection.send(Element("joinPrepared", {"reservationCode": code}))
    state = None
    try:
        while True:
            message = await connection.receive()
            kind = data_class(message)
            if message.tag == "joined":
                seen["room"] = message.get("roomId")
            elif message.tag == "left":
                seen["left"] = True
                if seen["result"] is not None:
                    break
            elif kind == "welcomeMessage":
                seen["color"] = message.find("data").get("color")
            elif kind == "memento":
                state = message.find("data").find("state")
            elif kind == "result":
                seen["result"] = message.find("data")
            elif kind == msg.MOVE_REQUEST_CLASS:
                await trio.sleep(think)
                move = PIRANHAS.random_move(PIRANHAS.game_from_state(state), rng)
                await connection.send(msg.room(message.get("roomId"), PIRANHAS.move_element(move)))
                seen["moves"] += 1
    except ConnectionClosed:
        seen["closed"] = True
        return seen
    await connection.close()
    return seen


async def prepare_games(port: int, count: int) -> list[list[str]]:
    admin, _ = await connect(port)
    await admin.send(Element("authenticate", {"passphrase": PASSWORD}))
    codes = []
    slot = Element("slot", {"displayName": "healthy", "canTimeout": "true", "shouldBePaused": "false"})
    for _ in range(count):
        await admin.send(Element("prepare", {"gameType": PIRANHAS.game_type}, [slot, slot]))
        codes.append([r.text for r in (await admin.receive()).findall("reservation")])
    await admin.close()
    return codes


async def healthy_games_beside(port: int, attack, games: int = 3) -> list[dict]:
    """Prepared games of paced players; ``attack()`` starts once every game is under way."""
    codes = await prepare_games(port, games)
    seen: list[dict] = []

    async def seat(code: str, seed: int) -> None:
        seen.append(await paced_player(port, code, seed))

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            for index, pair in enumerate(codes):
                nursery.start_soon(seat, pair[0], 2 * index)
                nursery.start_soon(seat, pair[1], 2 * index + 1)
            await trio.sleep(0.3)  # every game has started and moved
            await attack()
    return seen


def assert_all_regular(seen: list[dict]) -> None:
    for player in seen:
        assert player["result"] is not None, player
        causes = [score.get("cause") for score in player["result"].findall("score")]
        assert causes == ["REGULAR", "REGULAR"], causes


async def wait_until_idle(server, timeout: float = 10) -> None:
    with trio.fail_after(timeout):
        while server.door("xml").connections or server.door("xml").lobby.rooms:
            await trio.sleep(0.01)


# -- 1. one connection's batched input --------------------------------------------------------


async def test_twenty_thousand_joins_in_one_write_drop_the_attacker_at_the_seat_limit(start_server, caplog, autojump_clock):
    """On trio's mock clock: the seat limit is tested, not the machine's speed (the 1 s soft limit
    of the games beside is virtual; how long the server stalls is measured by benchmarks/door_attacks.py)."""
    server = await start_server(soft_timeout_ms=1000)
    baseline_tasks = len(server.door("xml")._nursery.child_tasks)
    received = {}

    async def attack() -> None:
        raw = await Raw.connect(server.door("xml").port)

        async def write() -> None:
            try:
                await raw.send(b"<protocol>" + JOIN * 20_000)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass  # dropped before the server read it all

        async with trio.open_nursery() as nursery:
            nursery.start_soon(write)
            received["attacker"] = await raw.read_until_closed(timeout=20)  # reads as fast as it can
            nursery.cancel_scope.cancel()

    seen = await healthy_games_beside(server.door("xml").port, attack)
    assert_all_regular(seen)  # no innocent SOFT_TIMEOUT: the server never stalled 500 ms
    # (the end of its stream may be lost: closing a socket with unread input resets it)
    assert received["attacker"].count(b"<joined ") <= 100
    assert "join beyond 100 seats held at once (maxSeatsPerConnection)" in caplog.text
    assert caplog.text.count("created: swc_2019_piranhas\n") <= 51  # no thousands of rooms
    await wait_until_idle(server)  # the attacker's 50 rooms ended with it
    assert server.door("xml").lobby.open_rooms.get(PIRANHAS.game_type, {}) == {}
    with trio.fail_after(10):  # the handlers' last steps (logging, clean-up) finish just after
        while len(server.door("xml")._nursery.child_tasks) != baseline_tasks:
            await trio.sleep(0.01)


class WorkPerStep(trio.abc.Instrument):
    """The most lobby requests and room goodbyes the server handled in one task step.

    A task step runs from one checkpoint of a task to its next; nothing else runs meanwhile, so
    this count is what bounds the stall one connection can cause, on any machine.
    """

    def __init__(self) -> None:
        self.current = self.most = 0

    def count(self) -> None:
        self.current += 1
        self.most = max(self.most, self.current)

    def before_task_step(self, task) -> None:
        self.current = 0


async def test_batched_joins_under_the_seat_limit_are_handled_a_batch_per_step(start_server, monkeypatch):
    # Without a seat limit every join counts, and a 64 KiB read holds 1,800 of them: handled
    # without yielding they stall the whole server (about half a second here, ten on the machine
    # of the issue), and ending 1,500 rooms at once when the client leaves stalls it again.
    # work.most is the proof; the generous soft limit only keeps a loaded CI machine from
    # scoring an innocent player (the stall this guards against is caught by work.most)
    server = await start_server(soft_timeout_ms=5000, max_seats_per_connection=0)
    work = WorkPerStep()
    classic = server.door("xml").lobby.answers[CLASSIC]  # what answers each 2018/2019 join
    handle, on_disconnect = classic.handle, GameRoom.on_disconnect
    monkeypatch.setattr(classic, "handle", lambda *args: (work.count(), handle(*args))[1])
    monkeypatch.setattr(GameRoom, "on_disconnect", lambda room, slot: (work.count(), on_disconnect(room, slot))[1])

    async def attack() -> None:
        raw = await Raw.connect(server.door("xml").port)
        await raw.send(b"<protocol>" + JOIN * 3_000)
        # read until every one of its 1,500 rooms sent its move request, then leave
        requests, tail = 0, b""
        with trio.fail_after(30):
            while requests < 1_500:
                data = tail + await raw.stream.receive_some(1 << 20)
                requests += data.count(b"MoveRequest")
                tail = data[-16:].replace(b"MoveRequest", b"")
        await raw.aclose()

    trio.lowlevel.add_instrument(work)
    try:
        seen = await healthy_games_beside(server.door("xml").port, attack)
        await wait_until_idle(server, timeout=30)
    finally:
        trio.lowlevel.remove_instrument(work)
    assert work.most <= MESSAGES_PER_TURN + 1
    assert_all_regular(seen)


# -- 2. passphrase brute force ----------------------------------------------------------------


async def test_a_passphrase_brute_force_locks_out_neither_players_nor_the_admin(start_server):
    rate = 20.0
    server = await start_server(max_connections=60, passphrase_checks_per_second=rate)
    answers: list[bytes] = []
    attack_over = trio.Event()

    async def attempt(index: int) -> None:
        raw = await Raw.connect(server.door("xml").port)
        await raw.send(f'<protocol><authenticate passphrase="guess-{index}"/>')
        answers.append(await raw.read_until_closed(timeout=10))

    async def brute_force() -> None:
        started = trio.current_time()
        async with trio.open_nursery() as attempts:
            index = 0
            while trio.current_time() - started < 1.5:
                attempts.start_soon(attempt, index)  # fire and go on: many attempts in flight
                index += 1
                await trio.sleep(0.004)
        attack_over.set()

    results: dict = {}

    async def honest_players() -> None:
        await trio.sleep(0.5)  # in the middle of the attack
        pair: list[dict] = []

        async def seat(seed: int) -> None:
            pair.append(await paced_player(server.door("xml").port, None, seed, think=0.0))

        async with trio.open_nursery() as nursery:
            nursery.start_soon(seat, 1)
            nursery.start_soon(seat, 2)
        results["players"] = pair

    started = trio.current_time()
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(brute_force)
            nursery.start_soon(honest_players)
    elapsed = trio.current_time() - started
    assert_all_regular(results["players"])  # the honest joiners got a game
    assert len(answers) > 30  # (fewer on a starved machine; usually a few hundred)
    assert set(answers) == {CLOSE}  # the same answer, checked or not, and never <protocol/>
    assert server.door("xml").lobby.passphrase_checks <= rate * elapsed + 4 * rate + 1  # the rate and its burst
    await trio.sleep(1.5 / rate)  # a token is back
    admin, _ = await connect(server.door("xml").port)
    await admin.send(Element("authenticate", {"passphrase": PASSWORD}))
    slot = Element("slot", {"displayName": "x", "canTimeout": "true", "shouldBePaused": "false"})
    await admin.send(Element("prepare", {"gameType": PIRANHAS.game_type}, [slot, slot]))
    with trio.fail_after(5):
        assert (await admin.receive()).tag == "prepared"
    await admin.close()


async def test_unauthenticated_admin_requests_stay_silent_and_are_logged_once(server, caplog):
    raw = await Raw.connect(server.door("xml").port)
    await raw.send(b"<protocol>" + b'<pause roomId="r" pause="true"/>' * 5_000)
    assert await raw.still_connected()
    assert raw.received == b""
    assert caplog.text.count("Pause without authentication, ignored") == 1
    await raw.send(b"</protocol>")
    assert await raw.read_until_closed() == b"<protocol/>"


# -- 4. joining in constant time; ghost rooms -------------------------------------------------


class NoScan(dict):
    """The lobby's room map, refusing to be walked: a join must not look at every room."""

    def values(self):
        raise AssertionError("the rooms were scanned")

    def items(self):
        raise AssertionError("the rooms were scanned")

    def __iter__(self):
        raise AssertionError("the rooms were scanned")


async def test_a_join_never_scans_the_waiting_rooms(start_server):
    server = await start_server()
    await prepare_games(server.door("xml").port, 300)
    with trio.fail_after(5):
        while server.door("xml").connections:  # the admin has gone (an admin's goodbye may scan)
            await trio.sleep(0.01)
    server.door("xml").lobby.rooms = NoScan(server.door("xml").lobby.rooms)
    first, second = await Raw.connect(server.door("xml").port), await Raw.connect(server.door("xml").port)
    await first.send(b"<protocol>" + JOIN)
    await first.read_until(b"<joined")
    await second.send(b"<protocol>" + JOIN)
    await first.read_until(b"MoveRequest")
    await second.read_until(b"<joined")
    room = [m for m in messages(first.received) if m.tag == "joined"][0].get("roomId")
    assert [m.get("roomId") for m in messages(second.received) if m.tag == "joined"] == [room]
    await first.aclose()
    await second.read_until(b"<left")
    await second.aclose()
    with trio.fail_after(5):
        while server.door("xml").connections:
            await trio.sleep(0.01)
    assert len(server.door("xml").lobby.rooms) == 300  # the prepared rooms still wait


async def test_a_freed_reservation_opens_its_seat_to_join(server):
    admin, _ = await connect(server.door("xml").port)
    await admin.send(Element("authenticate", {"passphrase": PASSWORD}))
    slot = Element("slot", {"displayName": "x", "canTimeout": "true", "shouldBePaused": "false"})
    await admin.send(Element("prepare", {"gameType": PIRANHAS.game_type}, [slot, slot]))
    prepared = await admin.receive()
    codes = [r.text for r in prepared.findall("reservation")]
    await admin.send(Element("freeReservation", {"reservation": codes[1]}))
    joiner = await Raw.connect(server.door("xml").port)
    await joiner.send(b"<protocol>" + JOIN)
    await joiner.read_until(b"<joined")
    assert [m.get("roomId") for m in messages(joiner.received)] == [prepared.get("roomId")]
    await admin.close()


async def test_a_join_room_whose_player_left_while_waiting_is_removed(server, caplog):
    ghost = await Raw.connect(server.door("xml").port)
    await ghost.send(b"<protocol>" + JOIN)
    await ghost.read_until(b"<joined")
    ghost_room = messages(ghost.received)[0].get("roomId")
    await ghost.aclose()
    with trio.fail_after(5):
        while ghost_room in server.door("xml").lobby.rooms:
            await trio.sleep(0.01)
    assert "its only player left before an opponent joined" in caplog.text
    red, blue = await Raw.connect(server.door("xml").port), await Raw.connect(server.door("xml").port)
    await red.send(b"<protocol>" + JOIN)
    await red.read_until(b"<joined")
    await blue.send(b"<protocol>" + JOIN)
    await red.read_until(b"MoveRequest")  # a real opponent: the game starts with both alive
    assert messages(red.received)[0].get("roomId") != ghost_room
    assert server.door("xml").lobby.rooms_finished == 0  # a removed waiting room is not a finished game


async def test_a_prepared_room_keeps_a_player_who_left_while_waiting(server):
    (red_code, blue_code), = await prepare_games(server.door("xml").port, 1)
    gone = await Raw.connect(server.door("xml").port)
    await gone.send(f'<protocol><joinPrepared reservationCode="{red_code}"/>')
    assert await gone.still_connected()
    await gone.aclose()
    await trio.sleep(0.1)
    assert len(server.door("xml").lobby.rooms) == 1  # official behaviour: the seat stays taken


# -- 3. SIGTERM and SIGINT --------------------------------------------------------------------

# With a fixed --port the other doors take their default ports (7777, 52020, 13080), and a busy
# one stops swc serve: under pytest-xdist another test's server may hold them.
OTHER_DOORS_ON_FREE_PORTS = ("--reversixt-port", "0", "--roborally-port", "0", "--viewer-port", "0")


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def _start_swc_serve(tmp_path: Path) -> tuple[trio.Process, int]:
    port = _free_port()
    (tmp_path / "server.properties").write_text(f"password={PASSWORD}\nsoftTimeoutMs=5000\n")
    process = await trio.lowlevel.open_process(
        [sys.executable, "-m", "swc_local.tools.cli", "serve", "--port", str(port), *OTHER_DOORS_ON_FREE_PORTS,
         "--save-replay", "--properties", str(tmp_path / "server.properties"), "--replay-dir", str(tmp_path / "replays")],
        cwd=tmp_path, stderr=open(tmp_path / "server.log", "wb"),
    )
    with trio.fail_after(20):
        while True:
            try:
                await (await trio.open_tcp_stream("127.0.0.1", port)).aclose()
                break
            except OSError:
                await trio.sleep(0.05)
    return process, port


async def test_sigterm_ends_every_game_with_replays_and_the_close_sequence(tmp_path):
    process, port = await _start_swc_serve(tmp_path)
    seen: list[dict] = []
    try:
        codes = await prepare_games(port, 3)

        async def seat(code: str, seed: int) -> None:
            seen.append(await paced_player(port, code, seed, think=0.05))

        waiting = await Raw.connect(port)  # a join room still waiting for its opponent
        await waiting.send(b"<protocol>" + JOIN)
        await waiting.read_until(b"<joined")
        with trio.fail_after(30):
            async with trio.open_nursery() as nursery:
                for index, (red, blue) in enumerate(codes):
                    nursery.start_soon(seat, red, 2 * index)
                    nursery.start_soon(seat, blue, 2 * index + 1)
                await trio.sleep(0.6)  # every game is under way
                process.send_signal(signal.SIGTERM)
                with trio.fail_after(2.5):  # the issue asks for 2 s; a little slack for a busy CI
                    await process.wait()
        waiting_bytes = await waiting.read_until_closed()
    finally:
        if process.returncode is None:
            process.kill()
    log = (tmp_path / "server.log").read_text()
    assert process.returncode == 128 + signal.SIGTERM, log  # the shell's convention (issue 43)
    assert "SIGTERM received" in log and "stopped" in log
    assert "swc serve stopped by SIGTERM: 0 games finished (xml 0" in log, log  # the three cut off do not count
    assert len(seen) == 6
    for player in seen:
        assert player["result"] is None and player["left"] and player["closed"], player
        data = bytes(player["bytes"])
        assert data.endswith(f'<left roomId="{player["room"] or ""}"/>\n  <sc.protocol.responses.CloseConnection/>\n</protocol>'.encode()) or (
            data.endswith(b"/>\n  <sc.protocol.responses.CloseConnection/>\n</protocol>") and b"<left roomId=" in data
        ), data[-200:]
    assert waiting_bytes.endswith(b"\n  <sc.protocol.responses.CloseConnection/>\n</protocol>")
    replays = sorted((tmp_path / "replays").glob("*.xml"))
    assert len(replays) == 3
    for path in replays:
        text = path.read_text()
        assert 'unfinished="server stopped (SIGTERM)"' in text
        assert 'class="memento"' in text and "<left roomId=" in text and 'class="result"' not in text
        assert text.endswith("</protocol>\n")


async def test_a_second_signal_exits_at_once(tmp_path):
    process, port = await _start_swc_serve(tmp_path)
    try:
        player = await Raw.connect(port)
        await player.send(b"<protocol>" + JOIN)
        await player.read_until(b"<joined")
        process.send_signal(signal.SIGTERM)
        process.send_signal(signal.SIGINT)
        with trio.fail_after(5):
            await process.wait()
    finally:
        if process.returncode is None:
            process.kill()
    log = (tmp_path / "server.log").read_text()
    assert process.returncode in (128 + signal.SIGINT, 128 + signal.SIGTERM), log
    assert "again: exiting at once" in log


def test_sigint_still_stops_cleanly(tmp_path):
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "swc_local.tools.cli", "serve", "--port", str(port), *OTHER_DOORS_ON_FREE_PORTS],
        cwd=tmp_path, stderr=subprocess.PIPE, env=dict(os.environ),
    )
    try:
        import socket
        import time

        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port)).close()
                break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=5)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 128 + signal.SIGINT
    assert b"SIGINT received" in err and b"stopped" in err


def test_the_passphrase_gate_allows_a_burst_then_the_rate():
    from swc_local.server.limits import TokenBucket

    clock = trio.testing.MockClock()

    async def main() -> list[int]:
        gate = TokenBucket(5, burst=20)
        allowed = [sum(gate.allow() for _ in range(100))]
        clock.jump(1.0)
        allowed.append(sum(gate.allow() for _ in range(100)))
        clock.jump(100)
        allowed.append(sum(gate.allow() for _ in range(100)))  # never more than the burst
        slow, unlimited = TokenBucket(0.1), TokenBucket(0)
        allowed.append(sum(slow.allow() for _ in range(3)))  # a slow rate still lets one in
        allowed.append(sum(unlimited.allow() for _ in range(50)))  # 0: no limit
        return allowed

    assert trio.run(main, clock=clock) == [20, 5, 20, 1, 50]


async def test_a_join_prepared_beyond_the_seat_limit_drops_the_client_and_keeps_the_code(start_server, caplog):
    server = await start_server(max_seats_per_connection=1)
    (red_code, blue_code), = await prepare_games(server.door("xml").port, 1)
    greedy = await Raw.connect(server.door("xml").port)
    await greedy.send(b"<protocol>" + JOIN)
    await greedy.read_until(b"<joined")
    await greedy.send(f'<joinPrepared reservationCode="{red_code}"/>')
    assert (await greedy.read_until_closed()).endswith(b"\n</protocol>")  # the drop sequence
    assert "join beyond 1 seats held at once (maxSeatsPerConnection)" in caplog.text
    red, blue = await Raw.connect(server.door("xml").port), await Raw.connect(server.door("xml").port)
    await red.send(f'<protocol><joinPrepared reservationCode="{red_code}"/>')  # the code still works
    await blue.send(f'<protocol><joinPrepared reservationCode="{blue_code}"/>')
    await red.read_until(b"MoveRequest")
