"""The web viewer's cost to the games: "50 pages on 50 live games".

Two runs of the same load (50 rooms of scripted Piranhas players that think 5-15 ms, on a fresh
server process each): one with the viewer off (``viewerPort=-1``), one with the viewer on and 50
"pages" open, each doing what the game page does: follow one live game's event stream and fetch
(so render) its newest step on every event, then move on to another running game when it ends.
The figure is the server's CPU time per move in each run and their ratio (issue 25: at most
+10 %). The pages run in a process of their own (as browsers would), opened during the warm-up;
their HTTP client is h11 (hypercorn's own HTTP/1.1 library) on trio.

    python -m benchmarks.viewer --seconds 12 --rounds 5   # about six minutes
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import h11
import trio

from benchmarks.client import LoadStats, Player
from benchmarks.serverproc import ROOT, ServerProcess, free_port, server_cpus

ROOMS = 50
PAGES = 50
THINK = (0.45, 0.55)
"""Players think 450-550 ms: a Piranhas game then lasts about 30 s, so the 50 games stay live
through the window and every page stays on its game (opening pages is not in the window: with
250-350 ms, most games ended inside a 12 s window on a loaded machine, and the pages that moved on
to the next game measured page loads, about 6 ms of server CPU each, not open pages)."""


async def _open(port: int, target: str) -> tuple[trio.SocketStream, h11.Connection]:
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    connection = h11.Connection(h11.CLIENT)
    request = h11.Request(method="GET", target=target, headers=[("Host", f"127.0.0.1:{port}"), ("Connection", "close")])
    await stream.send_all(connection.send(request) + connection.send(h11.EndOfMessage()))
    return stream, connection


async def _events(stream: trio.SocketStream, connection: h11.Connection):
    """h11 events of the response, reading from the socket as needed."""
    while True:
        event = connection.next_event()
        if event is h11.NEED_DATA:
            connection.receive_data(await stream.receive_some(65536))
            continue
        yield event
        if isinstance(event, (h11.EndOfMessage, h11.ConnectionClosed)):
            return


async def get_json(port: int, target: str):
    stream, connection = await _open(port, target)
    async with stream:
        body = b"".join([event.data async for event in _events(stream, connection) if isinstance(event, h11.Data)])
    return json.loads(body)


async def _sse(port: int, target: str):
    """The JSON of each server-sent event of ``target``."""
    stream, connection = await _open(port, target)
    async with stream:
        buffer = b""
        async for event in _events(stream, connection):
            if isinstance(event, h11.Data):
                buffer += event.data
                while b"\n\n" in buffer:
                    message, buffer = buffer.split(b"\n\n", 1)
                    yield json.loads(message[len(b"data: "):])


class Pages:
    """One start page (its list stream hands out running games) and the game pages."""

    def __init__(self, port: int, count: int = PAGES) -> None:
        self.port = port
        self.count = count
        self.running: list[str] = []
        self.watched: set[str] = set()
        self.changed = trio.Event()
        self.states_shown = 0
        self.open = 0  # pages loaded and following their game
        self.all_open = trio.Event()

    async def start_page(self) -> None:
        async for listing in _sse(self.port, "/api/stream?game=swc_2019_piranhas"):
            self.running = [g["id"] for g in listing["games"] if g["status"] == "running"]
            self.changed.set()
            self.changed = trio.Event()

    async def page(self) -> None:
        """One game page opened on a live game nobody watches yet, following it to its end."""
        while not (free := [game for game in self.running if game not in self.watched]):
            await self.changed.wait()
        game = free[0]
        self.watched.add(game)
        for asset in (f"/game/{game}", "/static/viewer.js", "/static/style.css"):  # what the browser loads
            stream, connection = await _open(self.port, asset)
            async with stream:
                async for _ in _events(stream, connection):
                    pass
        await get_json(self.port, f"/api/games/{game}")
        async for summary in _sse(self.port, f"/api/games/{game}/stream?step=1"):
            if not summary.get("counted"):
                summary["counted"] = True
                self.open += 1
                if self.open == self.count:
                    self.all_open.set()
            self.states_shown += "step" in summary
            if summary["status"] == "finished":
                break


async def run_pages(port: int, warmup: float, seconds: float, count: int = PAGES) -> dict:
    """The pages, in a process of their own (so they never slow the players down); prints
    ``open`` once every page has loaded and had its first event, then its figures at the end."""
    pages = Pages(port, count)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(pages.start_page)
        for _ in range(count):
            nursery.start_soon(pages.page)
        await pages.all_open.wait()
        print("open", flush=True)
        await trio.sleep(warmup)
        shown = pages.states_shown
        await trio.sleep(seconds)
        result = {"watched": len(pages.watched), "shown": pages.states_shown - shown, "games_seen": len(pages.running)}
        nursery.cancel_scope.cancel()
    return result


async def measure(viewer: bool, seconds: float, warmup: float = 1.0) -> dict:
    properties = {"viewerPort": str(free_port()) if viewer else "-1"}
    with ServerProcess(properties=properties) as server:
        stats = LoadStats()
        pages = None
        async with trio.open_nursery() as nursery:
            for index in range(2 * ROOMS):
                nursery.start_soon(Player(stats, server.port, 100_003 + index, think=THINK).run)
            while stats.games_started < ROOMS:
                await trio.sleep(0.01)
            if viewer and PAGES:
                command = [sys.executable, "-m", "benchmarks.viewer", "--pages", properties["viewerPort"],
                           "--count", str(PAGES), "--warmup", str(warmup), "--seconds", str(seconds)]
                pages = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=ROOT)
                line = await trio.to_thread.run_sync(pages.stdout.readline)  # every page is open
                assert line.strip() == "open", line
            await trio.sleep(warmup)
            moves, cpu, wall, ended = stats.moves, server.cpu_seconds(), time.perf_counter(), stats.games_finished
            await trio.sleep(seconds)
            wall = time.perf_counter() - wall
            moves, cpu = stats.moves - moves, server.cpu_seconds() - cpu
            result = {"moves": moves, "cpu": cpu, "wall": wall, "per_move_us": cpu / max(moves, 1) * 1e6,
                      "errors": len(stats.errors), "moves_per_second": moves / wall, "watched": 0, "shown": 0}
            if pages is not None:
                out, _ = await trio.to_thread.run_sync(lambda: pages.communicate(timeout=60))
                result |= json.loads(out.strip().splitlines()[-1])
            result["ended"] = stats.games_finished - ended
            stats.stopping = True
            nursery.cancel_scope.cancel()
    return result


def _pooled(runs: list[dict]) -> dict:
    moves, cpu, wall = (sum(r[k] for r in runs) for k in ("moves", "cpu", "wall"))
    return runs[-1] | {"moves": moves, "cpu": cpu, "wall": wall, "per_move_us": cpu / max(moves, 1) * 1e6,
                       "moves_per_second": moves / wall, "shown": sum(r["shown"] for r in runs),
                       "errors": sum(r["errors"] for r in runs), "ended": sum(r["ended"] for r in runs)}


def row(seconds: float, rounds: int = 3) -> tuple[str, str, str, str]:
    """Runs without and with pages alternate (``rounds`` pairs), so a change in the machine's other
    load hits both sides alike; the figure is the median of the pairs' ratios (each side's µs/move
    is the median of its runs)."""
    _, mine = server_cpus()
    before = os.sched_getaffinity(0) if mine else None
    if mine:
        os.sched_setaffinity(0, mine)
    runs: dict[bool, list[dict]] = {False: [], True: []}
    try:
        for _ in range(rounds):
            for viewer in (False, True):
                runs[viewer].append(trio.run(measure, viewer, seconds))
    finally:
        if before:
            os.sched_setaffinity(0, before)
    ratios = [w["per_move_us"] / o["per_move_us"] if o["per_move_us"] else float("nan")
              for o, w in zip(runs[False], runs[True])]
    ratio = statistics.median(ratios)
    without, with_pages = _pooled(runs[False]), _pooled(runs[True])
    per_move = {side: statistics.median(r["per_move_us"] for r in runs[side]) for side in runs}
    measured = (f"{per_move[False]:.0f} → {per_move[True]:.0f} µs server CPU/move (medians) at "
                f"{without['moves_per_second']:,.0f} / {with_pages['moves_per_second']:,.0f} moves/s "
                f"({with_pages['watched']} pages open, {with_pages['shown'] / with_pages['wall']:.1f} states drawn/s, "
                f"{with_pages['ended']} games ended in the windows; {without['errors'] + with_pages['errors']} errors); "
                f"ratios of the {rounds} pairs: " + ", ".join(f"{(r - 1) * 100:+.1f} %" for r in ratios))
    verdict = "✓" if ratio <= 1.10 else "✗"
    return ("50 pages on 50 live games (viewer), server CPU per move with / without", measured,
            f"≤ +10 % {verdict}", f"{(ratio - 1) * 100:+.1f} % (median)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.viewer", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="measuring window of each run (default 10)")
    parser.add_argument("--rounds", type=int, default=3, help="pairs of runs without and with pages (default 3); the median ratio is reported")
    parser.add_argument("--pages", type=int, metavar="PORT", help=argparse.SUPPRESS)  # the pages' own process
    parser.add_argument("--warmup", type=float, default=1.0, help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, default=PAGES, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.pages:
        if server_cpus()[1]:
            os.sched_setaffinity(0, server_cpus()[1])
        print(json.dumps(trio.run(run_pages, args.pages, args.warmup, args.seconds, args.count)), flush=True)
        return 0
    name, measured, target, ratio = row(args.seconds, args.rounds)
    print("| Benchmark | Measured | Target | Ratio |\n|---|---|---|---|")
    print(f"| {name} | {measured} | {target} | {ratio} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
