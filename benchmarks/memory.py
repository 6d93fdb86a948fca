"""Server memory per idle and per active room, from the server process's VmRSS.

Why ``prepare`` + ``joinPrepared`` rather than ``join``: every second ``join`` of a game type
pairs with the waiting room, so ``join`` alone can never leave more than one room waiting.  An
admin prepares N rooms instead; then

* idle room: one player has joined (``joinPrepared``) and waits for the opponent -- the same
  state a room created by one ``join`` is in, with its player's connection;
* active room: both players joined and played ``ACTIVE_TURN`` moves; the player to move then
  stops answering, so the room is caught mid-game (move timer running, memento state cached).

Each figure is (RSS after - RSS before) / N, measured after one warm-up game so that imports and
per-process caches are already in the baseline.  The move timeouts are raised to ten minutes so
no room ends while being measured.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import trio

from benchmarks.client import GAME_TYPE, LoadStats, Player, split_messages
from benchmarks.serverproc import PASSWORD, ServerProcess
from swc_local.protocol.element import parse

ACTIVE_TURN = 10


@dataclass
class MemoryResult:
    rooms: int
    baseline_kib: int
    idle_kib_per_room: float
    active_kib_per_room: float
    errors: list[str]


async def prepare_rooms(port: int, count: int) -> list[list[str]]:
    """Reservation codes of ``count`` freshly prepared rooms (one admin connection)."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    slot = '<slot displayName="bench" canTimeout="true" shouldBePaused="false"/>'
    request = f'<prepare gameType="{GAME_TYPE}">{slot}{slot}</prepare>'
    await stream.send_all(f'<protocol><authenticate passphrase="{PASSWORD}"/>'.encode() + request.encode() * count)
    buffer, codes = bytearray(), []
    while len(codes) < count:
        data = await stream.receive_some(65536)
        if not data:
            raise RuntimeError("the server closed the admin connection")
        buffer += data
        for message in split_messages(buffer):
            codes.append([element.text for element in parse(message).findall("reservation")])
    await stream.aclose()
    return codes


async def _wait(condition, timeout: float = 60) -> None:
    with trio.fail_after(timeout):
        while not condition():
            await trio.sleep(0.01)


async def measure(server: ServerProcess, rooms: int) -> MemoryResult:
    port = server.port
    stats = LoadStats()
    async with trio.open_nursery() as nursery:
        for codes in await prepare_rooms(port, 2):  # warm-up: two complete games
            for index, code in enumerate(codes):
                nursery.start_soon(functools.partial(Player(stats, port, index, reservation=code).run))
        await _wait(lambda: stats.games_finished >= 2)
        await trio.sleep(0.2)
        baseline = server.rss_kib()

        all_codes = await prepare_rooms(port, rooms)
        for index, codes in enumerate(all_codes):
            nursery.start_soon(Player(stats, port, index, reservation=codes[0], stall_at_turn=ACTIVE_TURN).run)
        await trio.sleep(0.5 + rooms / 1000)
        idle = server.rss_kib()

        started = stats.games_started
        for index, codes in enumerate(all_codes):
            nursery.start_soon(Player(stats, port, rooms + index, reservation=codes[1], stall_at_turn=ACTIVE_TURN).run)
        await _wait(lambda: stats.stalled >= rooms and stats.games_started >= started + rooms)
        await trio.sleep(0.3)
        active = server.rss_kib()
        stats.stopping = True
        nursery.cancel_scope.cancel()
    return MemoryResult(rooms, baseline, (idle - baseline) / rooms, (active - baseline) / rooms, stats.errors)


def run_memory(rooms: int) -> MemoryResult:
    properties = {"softTimeoutMs": "600000", "hardTimeoutMs": "600000"}
    with ServerProcess(properties=properties) as server:
        return trio.run(measure, server, rooms)
