"""The web viewer's cost to the games: "50 pages on 50 live games".

Two fresh server processes side by side under the same load (50 rooms of scripted Piranhas
players each, thinking 450-550 ms): one with the viewer off (``viewerPort=-1``), one with the
viewer on and 50 "pages" open, each doing what the game page does: follow one live game's event
stream with its newest step drawn, then move on to another running game when it ends. The figure
is the servers' CPU time per move over the same window and their ratio (issue 25: at most
+10 %), the median of ``--rounds`` such pairs. The pages run in a process of their own (as
browsers would), opened during the warm-up; their HTTP client is h11 (hypercorn's own HTTP/1.1
library) on trio.

    python -m benchmarks.viewer --seconds 12 --rounds 9   # about six minutes
    python -m benchmarks.viewer --seconds 12 --profile   # where the extra CPU goes, per move

With ``--profile`` one pair is run with cProfile switched on inside both servers for the
measuring window only (signals to a prelude), and the functions whose CPU per move grew the most
with the pages open are listed: the profiler's own cost inflates many-small-calls code, so read the
differences, not the absolute times.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import pstats
import signal
import tempfile
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
        self.lists = 0  # events of the start page's list stream
        self.open = 0  # pages loaded and following their game
        self.all_open = trio.Event()

    async def start_page(self) -> None:
        async for listing in _sse(self.port, "/api/stream?game=swc_2019_piranhas"):
            self.running = [g["id"] for g in listing["games"] if g["status"] == "running"]
            self.lists += 1
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
        shown, lists = pages.states_shown, pages.lists
        await trio.sleep(seconds)
        result = {"watched": len(pages.watched), "shown": pages.states_shown - shown, "games_seen": len(pages.running),
                  "lists": pages.lists - lists}
        nursery.cancel_scope.cancel()
    return result


PROFILE_PRELUDE = """
import cProfile, signal, time
_profile = cProfile.Profile(time.process_time)
signal.signal(signal.SIGUSR1, lambda *_: _profile.enable())
signal.signal(signal.SIGUSR2, lambda *_: (_profile.disable(), _profile.dump_stats({path!r})))
"""
"""The measuring window's profile, inside the server: SIGUSR1 switches it on, SIGUSR2 writes it."""


async def measure(viewer: bool, seconds: float, warmup: float = 1.0, profile_to: str | None = None,
                  pages_open: int | None = None) -> dict:
    """One side alone."""
    return (await measure_sides((viewer,), seconds, warmup, profile_to, pages_open))[0]


async def measure_sides(sides: tuple[bool, ...], seconds: float, warmup: float = 1.0, profile_to: str | None = None,
                        pages_open: int | None = None) -> list[dict]:
    """Each side (viewer off / on) a server process of its own, all at the same time under the same
    load, measured over the same window: whatever else the machine runs meanwhile hits every side
    alike (runs one after the other differed by up to ±25 % on this shared machine)."""
    pages_open = PAGES if pages_open is None else pages_open
    with contextlib.ExitStack() as stack:
        servers, every_stats, pages = [], [], []
        for index, viewer in enumerate(sides):
            properties = {"viewerPort": str(free_port()) if viewer else "-1",
                          "viewerMaxStreamsPerPeer": str(2 * PAGES),  # every page comes from this one address
                          "viewerMaxConnectionsPerPeer": str(4 * PAGES)}
            prelude = PROFILE_PRELUDE.format(path=profile_to.format(side=index)) if profile_to else None
            servers.append(stack.enter_context(ServerProcess(properties=properties, prelude=prelude)))
            every_stats.append(LoadStats())
        async with trio.open_nursery() as nursery:
            for server, stats in zip(servers, every_stats):
                for index in range(2 * ROOMS):
                    nursery.start_soon(Player(stats, server.port, 100_003 + index, think=THINK).run)
            while any(stats.games_started < ROOMS for stats in every_stats):
                await trio.sleep(0.01)
            for viewer, server in zip(sides, servers):
                if viewer and pages_open:
                    await trio.to_thread.run_sync(server.wait_listening, int(server.properties["viewerPort"]))
                    command = [sys.executable, "-m", "benchmarks.viewer", "--pages", server.properties["viewerPort"],
                               "--count", str(pages_open), "--warmup", str(warmup), "--seconds", str(seconds)]
                    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=ROOT)
                    line = await trio.to_thread.run_sync(process.stdout.readline)  # every page is open
                    assert line.strip() == "open", line
                    pages.append(process)
                else:
                    pages.append(None)
            await trio.sleep(warmup)
            if profile_to:
                for server in servers:
                    server.process.send_signal(signal.SIGUSR1)
            before = [(stats.moves, server.cpu_seconds(), stats.games_finished) for server, stats in zip(servers, every_stats)]
            wall = time.perf_counter()
            await trio.sleep(seconds)
            wall = time.perf_counter() - wall
            after = [(stats.moves, server.cpu_seconds()) for server, stats in zip(servers, every_stats)]
            if profile_to:
                for server in servers:
                    server.process.send_signal(signal.SIGUSR2)
            results = []
            for (moves, cpu, ended), (moves_after, cpu_after), stats, process in zip(before, after, every_stats, pages):
                moves, cpu = moves_after - moves, cpu_after - cpu
                result = {"moves": moves, "cpu": cpu, "wall": wall, "per_move_us": cpu / max(moves, 1) * 1e6,
                          "errors": len(stats.errors), "moves_per_second": moves / wall, "watched": 0, "shown": 0,
                          "lists": 0}
                if process is not None:
                    out, _ = await trio.to_thread.run_sync(lambda: process.communicate(timeout=60))
                    result |= json.loads(out.strip().splitlines()[-1])
                result["ended"] = stats.games_finished - ended
                results.append(result)
            for stats in every_stats:
                stats.stopping = True
            nursery.cancel_scope.cancel()
    return results


def _pooled(runs: list[dict]) -> dict:
    moves, cpu, wall = (sum(r[k] for r in runs) for k in ("moves", "cpu", "wall"))
    return runs[-1] | {"moves": moves, "cpu": cpu, "wall": wall, "per_move_us": cpu / max(moves, 1) * 1e6,
                       "moves_per_second": moves / wall, "shown": sum(r["shown"] for r in runs),
                       "lists": sum(r["lists"] for r in runs),
                       "errors": sum(r["errors"] for r in runs), "ended": sum(r["ended"] for r in runs)}


def row(seconds: float, rounds: int = 3) -> tuple[str, str, str, str]:
    """``rounds`` pairs, each the two sides measured at the same time (:func:`measure_sides`), so
    a change in the machine's other load hits both alike; the figure is the median of the pairs'
    ratios (each side's µs/move is the median of its runs)."""
    _, mine = server_cpus()
    before = os.sched_getaffinity(0) if mine else None
    if mine:
        os.sched_setaffinity(0, mine)
    runs: dict[bool, list[dict]] = {False: [], True: []}
    load_before = os.getloadavg()[0]
    try:
        for round_ in range(rounds):
            sides = (False, True) if round_ % 2 == 0 else (True, False)  # which server starts first
            for viewer, result in zip(sides, trio.run(measure_sides, sides, seconds)):
                runs[viewer].append(result)
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
                f"{with_pages['lists'] / with_pages['wall']:.2f} start-page list events/s, "
                f"{with_pages['ended']} games ended in the windows; {without['errors'] + with_pages['errors']} errors); "
                f"ratios of the {rounds} pairs: " + ", ".join(f"{(r - 1) * 100:+.1f} %" for r in ratios)
                + f"; load average {load_before:.1f} → {os.getloadavg()[0]:.1f}")
    verdict = "✓" if ratio <= 1.10 else "✗"
    return ("50 pages on 50 live games (viewer), server CPU per move with / without", measured,
            f"≤ +10 % {verdict}", f"{(ratio - 1) * 100:+.1f} % (median)")


def profile(seconds: float, top: int = 30, pages_open: int | None = None) -> str:
    """One pair, profiled: the functions whose own CPU per move grew most with the pages open."""
    per_move: dict[bool, dict] = {}
    lines = []
    with tempfile.TemporaryDirectory(prefix="swc-viewer-prof-") as folder:
        template = os.path.join(folder, "side-{side}.prof")
        results = trio.run(measure_sides, (False, True), seconds, 1.0, template, pages_open)
        for side, (viewer, result) in enumerate(zip((False, True), results)):
            path = template.format(side=side)
            stats = pstats.Stats(path, stream=io.StringIO()).stats  # type: ignore[attr-defined]
            moves = max(result["moves"], 1)
            per_move[viewer] = {key: (value[2] / moves * 1e6, value[3] / moves * 1e6, value[1] / moves)
                                for key, value in stats.items()}
            total = sum(v[0] for v in per_move[viewer].values())
            lines.append(f"{'with' if viewer else 'without'} pages: {result['moves']} moves, "
                         f"{result['per_move_us']:.0f} µs/move by /proc (profiled), {total:.0f} µs/move in the profile")
    keys = set(per_move[False]) | set(per_move[True])
    zero = (0.0, 0.0, 0.0)
    grown = sorted(keys, key=lambda k: per_move[False].get(k, zero)[0] - per_move[True].get(k, zero)[0])
    lines.append(f"\n{'own µs/move':>12} {'(without)':>10} {'cum µs/move':>12} {'calls/move':>11} {'(without)':>10}  function")
    for key in grown[:top]:
        own, cum, calls = per_move[True].get(key, zero)
        before, _, calls_before = per_move[False].get(key, zero)
        lines.append(f"{own - before:+12.1f} {before:10.1f} {cum:12.1f} {calls:11.2f} {calls_before:10.2f}  "
                     f"{os.path.relpath(key[0]) if key[0].startswith('/') else key[0]}:{key[1]}({key[2]})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.viewer", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="measuring window of each run (default 10)")
    parser.add_argument("--rounds", type=int, default=3, help="pairs of runs without and with pages (default 3); the median ratio is reported")
    parser.add_argument("--profile", action="store_true", help="instead: one profiled pair, the functions that cost more with the pages open")
    parser.add_argument("--pages", type=int, metavar="PORT", help=argparse.SUPPRESS)  # the pages' own process
    parser.add_argument("--warmup", type=float, default=1.0, help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, default=PAGES, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.pages:
        if server_cpus()[1]:
            os.sched_setaffinity(0, server_cpus()[1])
        print(json.dumps(trio.run(run_pages, args.pages, args.warmup, args.seconds, args.count)), flush=True)
        return 0
    if args.profile:
        print(profile(args.seconds))
        return 0
    name, measured, target, ratio = row(args.seconds, args.rounds)
    print("| Benchmark | Measured | Target | Ratio |\n|---|---|---|---|")
    print(f"| {name} | {measured} | {target} | {ratio} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
