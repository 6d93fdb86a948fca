"""The figures of issue 21: attacks on the ReversiXT and Robo Rally doors beside a healthy load of
every family (``python -m benchmarks.door_attacks``).

Each scenario starts a fresh ``swc serve`` process with all three doors on free ports and keeps
a healthy load running: admin-prepared Piranhas games on the XML door (scripted players thinking
5-15 ms), ReversiXT games of two reference bots back to back (time limit 1 s, so a stall of the
server over 1.1 s would disqualify an innocent player) and Robo Rally games of two reference bots
back to back. One attack runs for a while, then stops; the script prints what the healthy games
saw: games finished (and how many ended badly), the longest healthy XML move round trip while the
attack ran, and the server's memory before, at the peak and 1 s and 5 s after the attacker left.

Attacks: a Robo Rally chat flood from a spectator that reads (with a game log directory), 1,000
Robo Rally connections that say ``HelloServer`` and answer ``Alive``, 1,000 ReversiXT connections
that never send their group, and Robo Rally lines holding a lone surrogate (with a log directory);
and at the web viewer (benchmarks/web_attacks.py, issue 34): five 200 MB bodies, six 7.8 MB
uploads, a passphrase flood while the admin works, and 3,000 event streams from one client.

Numbers only, no pass/fail: tests/server/test_door_hardening.py asserts the behaviour.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import trio

from benchmarks.reliability import HealthyLoad, Window, _log
from benchmarks.serverproc import ServerProcess, free_port
from benchmarks import web_attacks
from benchmarks.table import Row, render

HELLO = b'{"messageType":"HelloServer","messageBody":{"protocol":"Version 1.0","isAI":true}}\n'
ALIVE = b'{"messageType":"Alive","messageBody":{}}\n'


class FamilyLoad:
    """ReversiXT and Robo Rally games of reference bots, back to back, with their outcomes."""

    def __init__(self, reversixt_port: int, roborally_port: int) -> None:
        self.reversixt_port, self.roborally_port = reversixt_port, roborally_port
        self.reversixt = {"finished": 0, "bad": 0}
        self.roborally = {"finished": 0, "bad": 0}
        self.stopping = False

    async def run(self, nursery: trio.Nursery, tables: int = 2) -> None:
        for table in range(tables):  # ReversiXT: one game of the bundled map lasts a few seconds
            nursery.start_soon(self._reversixt_table, table)
        # one Robo Rally pair at a time: the door has one open lobby, and a client that says
        # HelloServer while another pair gets ready becomes a spectator of their game (spec §4.5)
        nursery.start_soon(self._roborally_table, 0)

    async def _reversixt_table(self, table: int) -> None:
        from swc_local.client.reversixt_bot import play

        game = 0
        while not self.stopping:
            results = []

            async def seat(seed: int) -> None:
                try:
                    results.append(await play("127.0.0.1", self.reversixt_port, seed=seed))
                except (OSError, trio.BrokenResourceError):
                    results.append(None)

            async with trio.open_nursery() as pair:
                pair.start_soon(seat, table * 10_000 + game * 2)
                pair.start_soon(seat, table * 10_000 + game * 2 + 1)
            if not self.stopping:
                ok = all(r is not None and r.over and not r.disqualified for r in results)
                self.reversixt["finished" if ok else "bad"] += 1
            game += 1

    async def _roborally_table(self, table: int) -> None:
        from swc_local.client.roborally_bot import RoboRallyBot

        game = 0
        while not self.stopping:
            bots = [RoboRallyBot(greedy=True, seed=table * 10_000 + game * 2 + seat) for seat in range(2)]

            async def seat(bot) -> None:
                try:
                    await bot.play("127.0.0.1", self.roborally_port)
                except (OSError, trio.BrokenResourceError):
                    pass

            async with trio.open_nursery() as pair:
                for bot in bots:
                    pair.start_soon(seat, bot)
                    await trio.sleep(0.01)
            if not self.stopping:
                self.roborally["finished" if all(b.report.finished for b in bots) else "bad"] += 1
            game += 1


def _properties(log_dir: bool) -> dict[str, str]:
    props = {
        "softTimeoutMs": "2000", "reversixtPort": str(free_port()), "reversixtTimeLimit": "1",
        "roborally.port": str(free_port()), "roborally.timer": "0.2", "roborally.map": "Dizzy Highway",
        "roborally.aliveInterval": "2", "viewerPort": str(free_port()),
    }
    if log_dir:
        props["roborally.logDir"] = "roborally-logs"
    return props


async def _chat_flood(port: int, seconds: float) -> str:
    """A spectator sending 20 KB chat lines as fast as the door takes them, reading what it gets;
    when its game ends (spectators are closed with it) it comes back."""
    line = json.dumps({"messageType": "SendChat", "messageBody": {"message": "x" * 20_000, "to": -1}}).encode() + b"\n"
    counts = {"sent": 0, "refused": 0, "connections": 0}

    async def one_connection() -> None:
        wire = await trio.open_tcp_stream("127.0.0.1", port)
        counts["connections"] += 1
        buffer = b""

        async def read() -> None:
            nonlocal buffer
            try:
                while data := await wire.receive_some(1 << 20):
                    buffer += data
                    *lines, buffer = buffer.split(b"\n")
                    counts["refused"] += sum(1 for x in lines if b"Too many chat messages" in x)
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                pass

        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(read)
                try:
                    await wire.send_all(HELLO)
                    while True:
                        await wire.send_all(line * 10)
                        counts["sent"] += 10
                except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                    nursery.cancel_scope.cancel()
        finally:
            await trio.aclose_forcefully(wire)

    with trio.move_on_after(seconds):
        while True:
            await one_connection()
    return (f"{counts['sent']:,} chat lines of 20 KB sent over {counts['connections']} connections, "
            f"{counts['refused']:,} answered Too many chat messages")


async def _squatters(port: int, count: int, seconds: float, hello: bytes | None) -> str:
    streams = []
    failed = 0

    async def keep(stream: trio.SocketStream) -> None:
        try:
            if hello:
                await stream.send_all(hello)
            while data := await stream.receive_some(65536):
                if b'"Alive"' in data:
                    await stream.send_all(ALIVE)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass

    with trio.move_on_after(seconds):
        async with trio.open_nursery() as nursery:
            for _ in range(count):
                try:
                    stream = await trio.open_tcp_stream("127.0.0.1", port)
                except OSError:
                    failed += 1
                    continue
                streams.append(stream)
                nursery.start_soon(keep, stream)
    for stream in streams:
        await trio.aclose_forcefully(stream)
    return f"{count - failed:,} connections opened" + (f", {failed} failed" if failed else "")


async def _surrogates(port: int, seconds: float) -> str:
    """Lines whose JSON holds a lone surrogate, 100 at a time, reading the answers; a connection
    closed with its game (it watches as a spectator) is opened again."""
    line = b'{"messageType":"SendChat","messageBody":{"message":"\\ud800","to":-1}}\n'
    counts = {"sent": 0, "answered": 0, "connections": 0}
    with trio.move_on_after(seconds):
        while True:
            stream = await trio.open_tcp_stream("127.0.0.1", port)
            counts["connections"] += 1
            try:
                await stream.send_all(HELLO)
                while True:
                    await stream.send_all(line * 100)
                    counts["sent"] += 100
                    with trio.move_on_after(0.01):
                        counts["answered"] += (await stream.receive_some(1 << 20)).count(b"Malformed JSON")
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                pass
            finally:
                await trio.aclose_forcefully(stream)
    return (f"{counts['sent']:,} lines with a lone surrogate over {counts['connections']} connections, "
            f"{counts['answered']:,} Malformed JSON answers read")


async def _scenario(server: ServerProcess, name: str, attack, seconds: float, rooms: int) -> list[Row]:
    props = server.properties
    reversixt_port, roborally_port = int(props["reversixtPort"]), int(props["roborally.port"])
    load = HealthyLoad(server.port, rooms)
    family = FamilyLoad(reversixt_port, roborally_port)
    async with trio.open_nursery() as nursery:
        await load.start(nursery)
        await family.run(nursery)
        await trio.sleep(2.0)
        before = server.rss_kib()
        peak = [before]
        baseline = (dict(family.reversixt), dict(family.roborally), load.stats.games_finished)

        async def sample() -> None:
            while True:
                peak.append(server.rss_kib())
                await trio.sleep(0.05)

        nursery.start_soon(sample)
        window = Window(load).open()
        started = time.perf_counter()
        what = await attack(seconds)
        attack_seconds = time.perf_counter() - started
        await trio.sleep(1.0)
        after = server.rss_kib()
        window.close()
        await trio.sleep(4.0)  # games in flight finish
        later = server.rss_kib()
        family.stopping = load.stats.stopping = True
        nursery.cancel_scope.cancel()
    xml_games = load.stats.games_finished - baseline[2]
    rx = {k: family.reversixt[k] - baseline[0][k] for k in family.reversixt}
    rr = {k: family.roborally[k] - baseline[1][k] for k in family.roborally}
    log = server.log_text()
    return [
        Row(f"{name}: attack", f"{what} in {attack_seconds:.1f} s"),
        Row(f"{name}: healthy games finished (bad): XML / ReversiXT / Robo Rally",
            f"{xml_games} ({load.timeouts()} timeouts) / {rx['finished']} ({rx['bad']}) / {rr['finished']} ({rr['bad']})",
            "none bad"),
        Row(f"{name}: longest healthy XML move round trip during the attack", f"{window.worst_ms:.0f} ms", "< 500 ms"),
        Row(f"{name}: server memory before / peak / 1 s and 5 s after the attacker left",
            f"{before / 1024:.0f} / {max(peak) / 1024:.0f} / {after / 1024:.0f} / {later / 1024:.0f} MiB"),
        Row(f"{name}: tracebacks in the server log", str(log.count("Traceback")), "0"),
    ]


def _viewer(server: ServerProcess) -> int:
    return int(server.properties["viewerPort"])


def collect(quick: bool = False, only: str = "") -> list[Row]:
    seconds = 3.0 if quick else 10.0
    count = 200 if quick else 1000
    rooms = 3 if quick else 10
    async def nothing(s: float) -> str:
        await trio.sleep(s)
        return "none"

    scenarios = [
        ("no attack (the healthy load alone)", False, lambda server: nothing),
        ("Robo Rally chat flood (log dir set)", True, lambda server: lambda s: _chat_flood(int(server.properties["roborally.port"]), s)),
        (f"{count:,} Robo Rally HelloServer + Alive squatters", False,
         lambda server: lambda s: _squatters(int(server.properties["roborally.port"]), count, s, HELLO)),
        (f"{count:,} silent ReversiXT connections", False,
         lambda server: lambda s: _squatters(int(server.properties["reversixtPort"]), count, s, None)),
        ("Robo Rally lone surrogates (log dir set)", True, lambda server: lambda s: _surrogates(int(server.properties["roborally.port"]), s)),
        ("web: 200 MB bodies", False, lambda server: lambda s: web_attacks.bodies(_viewer(server), s)),
        ("web: 7.8 MB uploads", False, lambda server: lambda s: web_attacks.uploads(_viewer(server), s)),
        ("web: passphrase flood", False, lambda server: lambda s: web_attacks.passphrase_flood(_viewer(server), server.port, s)),
        (f"web: {3 * count:,} event streams", False,
         lambda server: lambda s: web_attacks.streams(_viewer(server), server.process.pid, s, 3 * count)),
    ]
    rows: list[Row] = []
    for name, log_dir, make in scenarios:
        if only and only not in name and not name.startswith("no attack"):
            continue
        _log(f"{name} ...")
        with ServerProcess(properties=_properties(log_dir)) as server:
            rows += trio.run(_scenario, server, name, make(server), seconds, rooms)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.door_attacks", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller, shorter attacks")
    parser.add_argument("--only", default="", help="only the scenarios whose name holds this text (and the baseline)")
    args = parser.parse_args(argv)
    print(render(collect(args.quick, args.only)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
