"""End-to-end load: K concurrent rooms of scripted players against a fresh server process.

Why a fresh server per run: each K starts from the same empty server, so runs do not inherit
each other's half-finished rooms, and every spawn doubles as a start-up time sample.  Moves/s is
the number of moves the server applied inside a fixed window (after every room has started and a
short warm-up) divided by the window's wall time.  CPU shares of both processes over the window
show which side was the bottleneck.
"""

from __future__ import annotations

import functools
import os
import statistics
import time
from dataclasses import dataclass, field

import trio

from benchmarks.client import LoadStats, Player
from benchmarks.serverproc import ServerProcess, machine_busy_seconds, server_cpus


@dataclass
class LoadResult:
    rooms: int
    seconds: float
    moves: int
    games: int
    errors: list[str]
    latencies: list[float] = field(repr=False)
    server_cpu: float  # share of one core
    client_cpu: float
    other_cpu: float  # what every other process on the machine used meanwhile (noise)
    startup: float

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.seconds

    def percentile(self, q: float) -> float:
        """Latency quantile in milliseconds (nearest rank)."""
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


async def drive(port: int, rooms: int, seconds: float, server: ServerProcess, *,
                warmup: float = 0.5, think: tuple[float, float] | None = None, seed: int = 1) -> LoadResult:
    """Run 2*rooms players for warm-up + ``seconds``; measure inside the window only."""
    stats = LoadStats()
    async with trio.open_nursery() as nursery:
        for index in range(2 * rooms):
            nursery.start_soon(Player(stats, port, seed * 100_003 + index, think=think).run)
        with trio.move_on_after(60):
            while stats.games_started < rooms:
                await trio.sleep(0.01)
        await trio.sleep(warmup)
        moves, games = stats.moves, stats.games_finished
        errors_before = len(stats.errors)
        busy = machine_busy_seconds()
        cpu_server, cpu_client, wall = server.cpu_seconds(), time.process_time(), time.perf_counter()
        stats.recording = True
        await trio.sleep(seconds)
        stats.recording = False
        wall = time.perf_counter() - wall
        cpu_server, cpu_client = server.cpu_seconds() - cpu_server, time.process_time() - cpu_client
        other = machine_busy_seconds() - busy - cpu_server - cpu_client
        result = LoadResult(
            rooms=rooms, seconds=wall, moves=stats.moves - moves, games=stats.games_finished - games,
            errors=stats.errors[errors_before:] + stats.errors[:errors_before], latencies=stats.latencies,
            server_cpu=cpu_server / wall, client_cpu=cpu_client / wall, other_cpu=max(other, 0) / wall,
            startup=server.startup_seconds,
        )
        stats.stopping = True
        nursery.cancel_scope.cancel()
    return result


def run_load(rooms: int, seconds: float, *, think: tuple[float, float] | None = None,
             prelude: str | None = None, warmup: float = 0.5) -> LoadResult:
    """Spawn a server, drive it with ``rooms`` rooms for ``seconds``, stop it.

    The benchmark process is pinned to the CPUs the server does not use, for this run only.
    """
    _, mine = server_cpus()
    before = os.sched_getaffinity(0) if mine else None
    if mine:
        os.sched_setaffinity(0, mine)
    try:
        with ServerProcess(prelude=prelude) as server:
            run = functools.partial(drive, server.port, rooms, seconds, server, think=think, warmup=warmup)
            return trio.run(run)
    finally:
        if before:
            os.sched_setaffinity(0, before)


def summary(result: LoadResult) -> str:
    return (f"K={result.rooms}: {result.moves_per_second:,.0f} moves/s, {result.games} games, "
            f"p50 {result.percentile(0.5):.2f} ms, p99 {result.percentile(0.99):.2f} ms, "
            f"server CPU {result.server_cpu:.0%}, client CPU {result.client_cpu:.0%}, other {result.other_cpu:.0%}, "
            f"{len(result.errors)} errors" + (f" ({statistics.mode(result.errors)})" if result.errors else ""))
