"""The figures of issue 15: attacks and a shutdown beside a healthy load (``python -m benchmarks.reliability``).

Each scenario starts a fresh server process (:class:`ServerProcess`), keeps a healthy load of
admin-prepared Piranhas games running (scripted players, one authenticated admin preparing
rooms), and prints what the healthy games saw:

* batched joins: one connection writes ``<protocol>`` and 20,000 ``<join>`` in one write and
  reads as fast as it can; the longest move round trip of any healthy game during the attack,
  innocent timeouts, why the attacker was dropped, and the server's memory before, at the peak
  and after the attacker is gone;
* passphrase brute force: 1,100 parallel connections guessing for a few seconds; healthy moves/s
  before and during, passphrases actually checked, whether an honest pair of joiners gets a game
  during the attack and whether the right passphrase works right after it;
* SIGTERM with 20 games running: exit code, time to exit, unfinished replays written and players
  that received the close sequence;
* join cost: one ``<join>``'s round trip and server CPU with 0 and with 10,000 prepared rooms
  waiting (also a row of ``python -m benchmarks``).

Numbers only, no pass/fail: the suite (tests/xml/test_reliability.py) asserts the behaviour.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import trio

from benchmarks.client import GAME_TYPE, LoadStats, Player, split_messages
from benchmarks.memory import prepare_rooms
from benchmarks.serverproc import PASSWORD, ROOT, ServerProcess, server_cpus
from benchmarks.table import Row, render

JOIN = f'<join gameType="{GAME_TYPE}"/>'.encode()
SLOT = '<slot displayName="healthy" canTimeout="true" shouldBePaused="false"/>'
PREPARE = f'<prepare gameType="{GAME_TYPE}">{SLOT}{SLOT}</prepare>'.encode()


def _log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _server_log(server: ServerProcess) -> str:
    return (Path(server._dir.name) / "server.log").read_text(errors="replace")


class _Tail(trio.abc.Stream):
    """A stream that remembers the last bytes it received (what a player saw at the end)."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream, self.tail = stream, b""

    async def send_all(self, data) -> None:
        await self.stream.send_all(data)

    async def wait_send_all_might_not_block(self) -> None:
        await self.stream.wait_send_all_might_not_block()

    async def receive_some(self, max_bytes=None) -> bytes:
        data = await self.stream.receive_some(max_bytes)
        self.tail = (self.tail + data)[-300:]
        return data

    async def aclose(self) -> None:
        await self.stream.aclose()


class Witness(Player):
    """A scripted player that reads on after ``<left>`` until the server closes, keeping the tail."""

    saw_left = False
    tail = b""

    def _handle(self, message: bytes, now: float) -> bytes | None:
        reply = super()._handle(message, now)
        if reply == b"left":
            self.saw_left = True
            return None
        return reply

    async def run(self) -> None:
        try:
            stream = await trio.open_tcp_stream("127.0.0.1", self.port)
            async with stream:
                await stream.send_all(b"<protocol>" + self.join_request())
                recorder = _Tail(stream)
                await self._play(recorder)
                self.tail = recorder.tail
        except (OSError, trio.BrokenResourceError) as error:
            self.stats.error(f"connection failed: {error!r}")

    @property
    def closed_politely(self) -> bool:
        return self.saw_left and self.tail.endswith(b"<left roomId=" + self.tail.rsplit(b"<left roomId=", 1)[-1].split(b"/>")[0]
                                                    + b"/>\n  <sc.protocol.responses.CloseConnection/>\n</protocol>")


class HealthyLoad:
    """``rooms`` prepared games at a time, back to back, prepared by one authenticated admin."""

    def __init__(self, port: int, rooms: int, think: tuple[float, float] = (0.005, 0.015), player=Player) -> None:
        self.port, self.rooms, self.think, self.player = port, rooms, think, player
        self.players: list[Player] = []
        self.room_ids: list[str] = []  # every room prepared so far (the last ones are live)
        self.stats = LoadStats()
        self._lock = trio.Lock()
        self._buffer = bytearray()

    async def start(self, nursery: trio.Nursery) -> None:
        self._admin = await trio.open_tcp_stream("127.0.0.1", self.port)
        await self._admin.send_all(f'<protocol><authenticate passphrase="{PASSWORD}"/>'.encode())
        for index in range(self.rooms):
            nursery.start_soon(self._room, index)
        with trio.fail_after(30):
            while self.stats.games_started < self.rooms:
                await trio.sleep(0.01)

    async def _prepare(self) -> list[str]:
        async with self._lock:
            await self._admin.send_all(PREPARE)
            while True:
                for message in split_messages(self._buffer):
                    if message.startswith(b"<prepared"):
                        self.room_ids.append(re.search(r'roomId="([^"]+)"', message.decode())[1])
                        return re.findall(r"<reservation>([^<]+)</reservation>", message.decode())
                data = await self._admin.receive_some(65536)
                if not data:
                    raise RuntimeError("the server closed the healthy load's admin connection")
                self._buffer += data

    async def _room(self, index: int) -> None:
        game = 0
        while not self.stats.stopping:
            try:
                codes = await self._prepare()
            except (OSError, RuntimeError, trio.BrokenResourceError):
                return  # the server is stopping
            async with trio.open_nursery() as nursery:
                for seat, code in enumerate(codes):
                    seed = (index * 1000 + game) * 2 + seat
                    player = self.player(self.stats, self.port, seed, reservation=code, think=self.think)
                    self.players.append(player)
                    nursery.start_soon(player.run)
            game += 1

    def timeouts(self) -> int:
        return sum("TIMEOUT" in error for error in self.stats.errors)


@dataclass
class Window:
    """What the healthy load did between ``open()`` and ``close()``."""

    load: HealthyLoad
    moves: int = 0
    seconds: float = 0.0
    worst_ms: float = 0.0

    def open(self) -> Window:
        self.load.stats.latencies.clear()
        self.load.stats.recording = True
        self._moves, self._started = self.load.stats.moves, time.perf_counter()
        return self

    def close(self) -> Window:
        self.load.stats.recording = False
        self.seconds = time.perf_counter() - self._started
        self.moves = self.load.stats.moves - self._moves
        self.worst_ms = max(self.load.stats.latencies, default=0.0) * 1000
        return self

    @property
    def rate(self) -> float:
        return self.moves / self.seconds if self.seconds else 0.0


# -- batched joins ---------------------------------------------------------------------------


async def _batched_joins(server: ServerProcess, joins: int, rooms: int) -> list[Row]:
    load = HealthyLoad(server.port, rooms)
    async with trio.open_nursery() as nursery:
        await load.start(nursery)
        await trio.sleep(0.5)
        before = server.rss_kib()
        window = Window(load).open()
        peak = [before]

        async def sample() -> None:
            while True:
                peak.append(server.rss_kib())
                await trio.sleep(0.05)

        nursery.start_soon(sample)
        attacker = await trio.open_tcp_stream("127.0.0.1", server.port)
        received = 0

        async def write() -> None:
            try:
                await attacker.send_all(b"<protocol>" + JOIN * joins)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass

        with trio.move_on_after(30):
            async with trio.open_nursery() as attack:
                attack.start_soon(write)
                while True:
                    try:
                        data = await attacker.receive_some(1 << 20)
                    except trio.BrokenResourceError:
                        data = b""
                    if not data:
                        break
                    received += len(data)
                attack.cancel_scope.cancel()
        await attacker.aclose()
        await trio.sleep(1.0)
        window.close()
        after = server.rss_kib()
        load.stats.stopping = True
        nursery.cancel_scope.cancel()
    log = _server_log(server)
    reason = re.search(r"dropped: (join beyond .*|it does not read.*)", log)
    size = len(b"<protocol>" + JOIN * joins)
    return [
        Row(f"batched joins ({joins:,} in one {size / 1024:.0f} KiB write) beside {rooms} healthy rooms: "
            "longest healthy move round trip", f"{window.worst_ms:.0f} ms ({window.rate:,.0f} moves/s)", "< 500 ms"),
        Row("batched joins: innocent timeouts / why the attacker was dropped",
            f"{load.timeouts()} / {reason[1] if reason else 'not dropped'} ({received / 1024:.0f} KiB read)", "0"),
        Row("batched joins: server memory before / peak / 1 s after the attacker left",
            f"{before / 1024:.0f} / {max(peak) / 1024:.0f} / {after / 1024:.0f} MiB"),
    ]


# -- admin requests without authentication --------------------------------------------------


async def _unauthenticated_admin(server: ServerProcess, connections: int, requests: int, rooms: int) -> list[Row]:
    """Connections that never authenticate flood admin requests naming the live rooms."""
    load = HealthyLoad(server.port, rooms)
    async with trio.open_nursery() as nursery:
        await load.start(nursery)
        await trio.sleep(0.5)
        window = Window(load).open()
        live = load.room_ids[-rooms:]
        kinds = ['<pause roomId="{}" pause="true"/>', '<step roomId="{}" forced="true"/>', '<observe roomId="{}"/>',
                 '<cancel roomId="{}"/>', '<timeout roomId="{}" slot="0" activate="false"/>']
        payload = "".join(kinds[i % len(kinds)].format(live[i % len(live)]) for i in range(requests)).encode()
        answers = []

        async def flood() -> None:
            stream = await trio.open_tcp_stream("127.0.0.1", server.port)
            await stream.send_all(b"<protocol>" + payload + b"</protocol>")
            answer = b""
            with trio.move_on_after(30):
                while data := await stream.receive_some(65536):
                    answer += data
            answers.append(answer)
            await stream.aclose()

        async with trio.open_nursery() as attack:
            for _ in range(connections):
                attack.start_soon(flood)
        await trio.sleep(0.5)
        window.close()
        load.stats.stopping = True
        nursery.cancel_scope.cancel()
    silent = sum(answer == b"<protocol/>" for answer in answers)
    return [Row(f"{connections} connections x {requests:,} admin requests on live rooms, unauthenticated: "
                "longest healthy round trip, timeouts, answered only <protocol/> at their end",
                f"{window.worst_ms:.0f} ms ({window.rate:,.0f} moves/s), {load.timeouts()}, {silent} of {connections}",
                "< 500 ms, 0")]


# -- passphrase brute force ------------------------------------------------------------------


async def _guess(port: int, attackers: int, seconds: float) -> tuple[int, int]:
    """``attackers`` tasks guessing passphrases in a loop for ``seconds``: (attempts, refused)."""
    attempts = refused = 0
    stop_at = time.perf_counter() + seconds

    async def guess(index: int) -> None:
        nonlocal attempts, refused
        number = 0
        while time.perf_counter() < stop_at:
            try:
                stream = await trio.open_tcp_stream("127.0.0.1", port)
                async with stream:
                    await stream.send_all(f'<protocol><authenticate passphrase="guess-{index}-{number}"/>'.encode())
                    answer = b""
                    while data := await stream.receive_some(65536):
                        answer += data
            except (OSError, trio.BrokenResourceError):
                answer = b""
            attempts += 1
            refused += answer == b"<protocol/>"
            number += 1

    async with trio.open_nursery() as nursery:
        for index in range(attackers):
            nursery.start_soon(guess, index)
    return attempts, refused


def attacker_main(port: int, attackers: int, seconds: float) -> None:
    """The attacker process: says "go" when it starts guessing, then prints attempts and refused."""
    print("go", flush=True)
    print(*trio.run(_guess, port, attackers, seconds), flush=True)


async def _brute_force(server: ServerProcess, attackers: int, seconds: float, rooms: int) -> list[Row]:
    """The guesses come from a process of their own, as an attacker's would: 1,100 guessing tasks
    in the benchmark's own event loop would slow the healthy players' client down too, and the
    figure would mix the server's cost with the load generator's."""
    load = HealthyLoad(server.port, rooms)
    honest: dict[str, object] = {}
    async with trio.open_nursery() as nursery:
        await load.start(nursery)
        await trio.sleep(0.5)
        calm = Window(load).open()
        await trio.sleep(seconds / 2)
        calm.close()

        async def honest_pair() -> None:
            await trio.sleep(seconds / 2)
            started = time.perf_counter()
            streams = [await trio.open_tcp_stream("127.0.0.1", server.port) for _ in range(2)]
            buffers = [b"", b""]
            for stream in streams:
                await stream.send_all(b"<protocol>" + JOIN)
            with trio.move_on_after(10):
                while b"MoveRequest" not in buffers[0] + buffers[1]:
                    for index, stream in enumerate(streams):
                        with trio.move_on_after(0.05):
                            buffers[index] += await stream.receive_some(65536)
                    if any(buffer.startswith(b"<protocol/>") for buffer in buffers):
                        break
            ok = b"MoveRequest" in buffers[0] + buffers[1]
            honest["pair"] = f"got a game in {(time.perf_counter() - started) * 1000:.0f} ms" if ok else "refused"
            for stream in streams:
                await stream.aclose()

        command = [sys.executable, "-m", "benchmarks.reliability", "--attack", str(server.port), str(attackers), str(seconds)]
        env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        _, bench_cpus = server_cpus()
        process = await trio.lowlevel.open_process(
            command, stdout=subprocess.PIPE, env=env,
            preexec_fn=(lambda: os.sched_setaffinity(0, bench_cpus)) if bench_cpus else None,
        )
        output = b""
        while b"go\n" not in output:
            output += await process.stdout.receive_some(1024) or b"go\n"
        during = Window(load).open()
        async with trio.open_nursery() as attack:
            attack.start_soon(honest_pair)
            while data := await process.stdout.receive_some(1024):
                output += data
        await process.wait()
        during.close()
        attempts, refused = (int(word) for word in output.split(b"go\n", 1)[1].split())
        await trio.sleep(0.5)  # the rate's tokens come back
        admin = await trio.open_tcp_stream("127.0.0.1", server.port)
        await admin.send_all(f'<protocol><authenticate passphrase="{PASSWORD}"/>'.encode() + PREPARE)
        answer = b""
        with trio.move_on_after(5):
            while b"<prepared" not in answer and (data := await admin.receive_some(65536)):
                answer += data
        honest["admin"] = "works" if b"<prepared" in answer else "refused"
        await admin.aclose()
        load.stats.stopping = True
        nursery.cancel_scope.cancel()
    checked = _server_log(server).count("wrong admin passphrase")
    return [
        Row(f"passphrase brute force, {attackers:,} parallel connections for {seconds:g} s: guesses/s, of them checked",
            f"{attempts / during.seconds:,.0f}/s, {checked / during.seconds:,.1f}/s checked "
            f"(over {during.seconds:.1f} s, the last guesses included), {refused} refused with <protocol/>"),
        Row(f"brute force: healthy moves/s before / during ({rooms} rooms), innocent timeouts",
            f"{calm.rate:,.0f} / {during.rate:,.0f} ({during.rate / max(calm.rate, 1):.0%}), {load.timeouts()}"),
        Row("brute force: an honest pair of joiners during it / the right passphrase 0.5 s after",
            f"{honest.get('pair')} / {honest.get('admin')}"),
    ]


async def _cpu_per_guess(server: ServerProcess, guesses: int, parallel: int = 50) -> list[Row]:
    """Server CPU per wrong-passphrase connection with nothing else running: the cost a brute
    force puts on the server, less noisy than the move rates on a shared machine."""
    done = 0

    async def guesser(index: int) -> None:
        nonlocal done
        for number in range(guesses // parallel):
            stream = await trio.open_tcp_stream("127.0.0.1", server.port)
            async with stream:
                await stream.send_all(f'<protocol><authenticate passphrase="cpu-{index}-{number}"/>'.encode())
                while await stream.receive_some(65536):
                    pass
            done += 1

    before = server.cpu_seconds()
    async with trio.open_nursery() as nursery:
        for index in range(parallel):
            nursery.start_soon(guesser, index)
    cpu = server.cpu_seconds() - before
    return [Row(f"server CPU per wrong-passphrase connection ({done:,} guesses, {parallel} at a time, nothing else running)",
                f"{cpu / done * 1e6:,.0f} µs")]


# -- SIGTERM ---------------------------------------------------------------------------------


async def _sigterm(server: ServerProcess, rooms: int) -> list[Row]:
    load = HealthyLoad(server.port, rooms, think=(0.02, 0.05), player=Witness)
    async with trio.open_nursery() as nursery:
        await load.start(nursery)
        await trio.sleep(1.0)
        load.stats.stopping = False
        started = time.perf_counter()
        server.process.send_signal(signal.SIGTERM)
        with trio.move_on_after(10):
            while server.process.poll() is None:
                await trio.sleep(0.005)
        exited = time.perf_counter() - started
        await trio.sleep(0.2)
        closed_politely = sum(player.closed_politely for player in load.players)
        load.stats.stopping = True
        nursery.cancel_scope.cancel()
    replays = list((Path(server._dir.name) / "replays").glob("*.xml"))
    unfinished = sum('unfinished="server stopped (SIGTERM)"' in path.read_text() for path in replays)
    return [Row(f"SIGTERM with {rooms} games running: exit code, time to exit",
                f"{server.process.returncode}, {exited * 1000:.0f} ms", "0, < 2 s"),
            Row("SIGTERM: unfinished replays written / players that got the close sequence",
                f"{unfinished} of {rooms} / {closed_politely} of {2 * rooms}")]


# -- join cost -------------------------------------------------------------------------------


async def _join_cost(server: ServerProcess, prepared: int, joins: int, join: bytes = JOIN) -> tuple[float, float]:
    """(median join round trip in µs, server CPU µs per join) with ``prepared`` rooms waiting."""
    if prepared:
        for start in range(0, prepared, 2000):
            await prepare_rooms(server.port, min(2000, prepared - start))
    await trio.sleep(0.2)
    streams, times = [], []
    for warm_up in range(20):  # a first join pays for imports and caches; pairs of them
        stream = await trio.open_tcp_stream("127.0.0.1", server.port)
        await stream.send_all(b"<protocol>" + join)
        streams.append(stream)
    await trio.sleep(0.3)
    cpu = server.cpu_seconds()
    for _ in range(joins):
        stream = await trio.open_tcp_stream("127.0.0.1", server.port)
        streams.append(stream)
        started = time.perf_counter()
        await stream.send_all(b"<protocol>" + join)
        received = b""
        while b"<joined" not in received:
            received += await stream.receive_some(65536)
        times.append(time.perf_counter() - started)
    cpu = server.cpu_seconds() - cpu
    for stream in streams:
        await stream.aclose()
    return statistics.median(times) * 1e6, cpu / joins * 1e6  # (CPU includes starting half the games)


def join_cost_rows(prepared: int = 10_000, joins: int = 200) -> list[Row]:
    results = {}
    for waiting in (0, prepared):
        properties = {"softTimeoutMs": "600000", "hardTimeoutMs": "600000"}
        with ServerProcess(properties=properties) as server:
            results[waiting] = trio.run(_join_cost, server, waiting, joins)
    (empty_rtt, empty_cpu), (full_rtt, full_cpu) = results[0], results[prepared]
    return [Row(f"join round trip / server CPU per join, 0 vs {prepared:,} prepared rooms waiting",
                f"{empty_rtt:.0f} / {empty_cpu:.0f} µs vs {full_rtt:.0f} / {full_cpu:.0f} µs",
                "constant", f"{full_cpu / max(empty_cpu, 1e-9):.1f}x")]


BARE_JOIN = b"<join/>"
DEFAULT_JOIN = b'<join gameType="swc_2027_blokus"/>'  # the game two bare joins play on a default server


def bare_join_cost_rows(joins: int = 200) -> list[Row]:
    """``<join/>`` (it looks for a waiting join of every 2022+ game) against a join naming the
    game the bare ones end up playing, so both start the same games (issue 43)."""
    results = {}
    properties = {"softTimeoutMs": "600000", "hardTimeoutMs": "600000"}
    with ServerProcess(properties=properties) as server:
        for join in (DEFAULT_JOIN, BARE_JOIN):
            results[join] = trio.run(_join_cost, server, 0, joins, join)
    (typed_rtt, typed_cpu), (bare_rtt, bare_cpu) = results[DEFAULT_JOIN], results[BARE_JOIN]
    return [Row("<join/> vs <join gameType> (Blokus 2027): round trip / server CPU per join",
                f"{bare_rtt:.0f} / {bare_cpu:.0f} µs vs {typed_rtt:.0f} / {typed_cpu:.0f} µs",
                "about equal", f"{bare_cpu / max(typed_cpu, 1e-9):.2f}x")]


# -- the table -------------------------------------------------------------------------------


def collect(quick: bool = False) -> list[Row]:
    rows = []
    _log("batched joins ...")
    with ServerProcess(properties={"softTimeoutMs": "2000"}) as server:
        rows += trio.run(_batched_joins, server, 20_000, 5 if quick else 20)
    _log("admin requests without authentication ...")
    with ServerProcess(properties={"softTimeoutMs": "2000"}) as server:
        rows += trio.run(_unauthenticated_admin, server, 5 if quick else 50, 2_000 if quick else 20_000, 5 if quick else 20)
    _log("passphrase brute force ...")
    with ServerProcess(properties={"maxConnections": "1000"}) as server:
        rows += trio.run(_brute_force, server, 100 if quick else 1_100, 1.0 if quick else 4.0, 5 if quick else 20)
    with ServerProcess(properties={"maxConnections": "1000"}) as server:
        rows += trio.run(_cpu_per_guess, server, 500 if quick else 3_000)
    _log("SIGTERM ...")
    with ServerProcess(properties={"saveReplay": "true", "replayDir": "replays"}) as server:
        rows += trio.run(_sigterm, server, 5 if quick else 20)
    _log("join cost ...")
    rows += join_cost_rows(200 if quick else 10_000, 50 if quick else 200)
    rows += bare_join_cost_rows(50 if quick else 200)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.reliability", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller attacks, a smoke run")
    parser.add_argument("--attack", nargs=3, metavar=("PORT", "CONNECTIONS", "SECONDS"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.attack:  # the attacker process of the brute force
        attacker_main(int(args.attack[0]), int(args.attack[1]), float(args.attack[2]))
        return 0
    print(render(collect(args.quick)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
