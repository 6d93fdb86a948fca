"""The official ``socha`` clients on our server: wall time, server CPU, and the client's idle waits.

``python -m benchmarks.socha [--games N] [--versions 3.7.2,4.3.9,5.1.0]``

Why its own benchmark: the scripted load clients (:mod:`benchmarks.client`) read everything the
server sent at once, so they cannot show what the clients most bot authors use lose by waiting.
socha's ``NetworkSocket.receive`` does one ``recv`` (0.1 s timeout) per call and returns at most
one complete message, so a message that arrives in the same read as the one before it is only
looked at after the next ``recv`` returned or timed out (``../shared/golden/socha_timing/``).

Each socha version plays its own season's game, as in the suite: 3.7.2 Hase und Igel 2025, 4.3.9
Piranhas 2026, 5.1.0 Blokus 2027, with the suite's random bots.  Each game is prepared by an admin
(timeouts on, 2 s / 10 s) and played by two bots started through
``tests/foreign_clients/recv_probe.py``, which times every ``recv`` of the client and notes the
ones entered with a complete message already in the client's buffer ("stalls").  Games run one at
a time against a server process of their own (pinned to one CPU, the bots on the others), first as
the server is, then the same games (same bot seeds) with pacing switched off, i.e. every message
queued in one step sent in one write as before issue 23 (a monkeypatch at the server's start-up,
only here).

Reported per version: wall time per game (first byte a client read to the last, so the clients'
interpreter start-up is not counted) and per move, server CPU per game and per move (user +
system time of the server process over all games / games or moves), the client's recv calls that
timed out, and the time the clients sat in recv with a complete message already buffered.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.serverproc import PASSWORD, ROOT, ServerProcess, server_cpus
from benchmarks.table import Row, render

PROBE = ROOT / "tests" / "foreign_clients" / "recv_probe.py"
GAMES = {
    "3.7.2": ("swc_2025_hase_und_igel", ROOT / "tests" / "socha_bots" / "hui25_random.py"),
    "4.3.9": ("swc_2026_piranhas", ROOT / "tests" / "foreign_clients" / "socha_piranhas_2026.py"),
    "5.1.0": ("swc_2027_blokus", ROOT / "tests" / "foreign_clients" / "socha_blokus_2027.py"),
}
UNPACED = ("import swc_local.server.xml.connection as c; "
           "c.Connection.paced = property(lambda self: False)")  # the write pattern before issue 23
GAME_TIMEOUT = 300


@dataclass
class SochaRun:
    version: str
    game_type: str
    paced: bool
    games: int = 0
    moves: int = 0
    wall: float = 0.0  # seconds, summed over games (first read to last read)
    server_cpu: float = 0.0  # seconds over all games
    timeouts: int = 0
    stalls: int = 0
    stall_seconds: float = 0.0
    failures: list[str] = field(default_factory=list)

    def per_game(self, value: float) -> float:
        return value / max(self.games, 1)

    def per_move(self, value: float) -> float:
        return value / max(self.moves, 1)


def prepare(port: int, game_type: str) -> list[str]:
    with socket.create_connection(("127.0.0.1", port), 10) as admin:
        admin.sendall(
            f'<protocol><authenticate password="{PASSWORD}"/><prepare gameType="{game_type}" pause="false">'
            '<slot displayName="one" canTimeout="true" reserved="true"/>'
            '<slot displayName="two" canTimeout="true" reserved="true"/></prepare>'.encode())
        received = b""
        while b"</prepared>" not in received:
            chunk = admin.recv(65536)
            if not chunk:
                raise RuntimeError(f"prepare failed: {received[-300:]!r}")
            received += chunk
        admin.sendall(b"</protocol>")
    return re.findall(r"<reservation>([^<]+)</reservation>", received.decode())


def play_game(python: Path, bot: Path, port: int, game_type: str, seed: int, folder: Path) -> list[dict]:
    """One prepared game of two probed bots; their probe stats (with first/last read times)."""
    codes = prepare(port, game_type)
    _, bot_cpus = server_cpus()
    processes, outputs = [], []
    for seat, code in enumerate(codes):
        out = folder / f"probe{seed}_{seat}.json"
        env = dict(os.environ, SOCHA_BOT_SEED=str(2 * seed + seat), SWC_RECV_PROBE=str(out),
                   PYTHONDONTWRITEBYTECODE="1")
        command = [str(python), str(PROBE), str(bot), "--host", "127.0.0.1", "--port", str(port),
                   "--reservation", code]
        log = open(folder / f"bot{seed}_{seat}.log", "wb")
        processes.append((subprocess.Popen(
            command, env=env, stdout=log, stderr=subprocess.STDOUT,
            preexec_fn=(lambda: os.sched_setaffinity(0, bot_cpus)) if bot_cpus else None), log))
        outputs.append(out)
    stats = []
    for (process, log), out in zip(processes, outputs):
        try:
            code = process.wait(GAME_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            code = process.wait()
        log.close()
        result = json.loads(out.read_text()) if out.exists() else {}
        result["exit"] = code
        result["log"] = str(log.name)
        stats.append(result)
    return stats


def run_version(version: str, games: int, paced: bool) -> SochaRun:
    from tests.socha_clients import socha_python

    game_type, bot = GAMES[version]
    run = SochaRun(version, game_type, paced)
    python = socha_python(version)
    prelude = None if paced else UNPACED
    with tempfile.TemporaryDirectory(prefix="swc-socha-") as temp, ServerProcess(prelude=prelude) as server:
        folder = Path(temp)
        for seed in range(games):
            cpu = server.cpu_seconds()
            stats = play_game(python, bot, server.port, game_type, seed, folder)
            run.server_cpu += server.cpu_seconds() - cpu
            if any(s["exit"] != 0 or "first_read" not in s for s in stats):
                bad = next(s for s in stats if s["exit"] != 0 or "first_read" not in s)
                run.failures.append(f"game {seed}: exit {bad['exit']}: "
                                    + Path(bad["log"]).read_text(errors="replace")[-300:])
                continue
            run.games += 1
            run.moves += sum(s["move_requests"] for s in stats)
            run.wall += max(s["last_read"] for s in stats) - min(s["first_read"] for s in stats)
            run.timeouts += sum(s["timeouts"] for s in stats)
            run.stalls += sum(s["stalls"] for s in stats)
            run.stall_seconds += sum(s["stall_seconds"] for s in stats)
    return run


def rows(games: int, versions: tuple[str, ...] = tuple(GAMES)) -> list[Row]:
    out = []
    for version in versions:
        try:
            paced = run_version(version, games, paced=True)
            unpaced = run_version(version, games, paced=False)
        except Exception as error:  # no PyPI, no socha: the other benchmarks still run
            out.append(Row(f"socha {version} games", f"skipped: {type(error).__name__}: {error}"[:200]))
            continue
        for run in (paced, unpaced):
            label = "as served" if run.paced else "one write per step (before)"
            failures = f"; {len(run.failures)} failed: {run.failures[0]}" if run.failures else ""
            out.append(Row(
                f"socha {version} {run.game_type}, {label}",
                f"{run.games} games, {run.per_game(run.moves):.0f} moves each: "
                f"wall {run.per_game(run.wall):.2f} s/game, {run.per_move(run.wall) * 1000:.1f} ms/move; "
                f"server CPU {run.per_game(run.server_cpu) * 1000:.0f} ms/game, "
                f"{run.per_move(run.server_cpu) * 1e6:.0f} µs/move; "
                f"recv timeouts {run.per_game(run.timeouts):.1f}/game; "
                f"in recv with a message buffered {run.per_game(run.stall_seconds) * 1000:.1f} ms/game "
                f"({run.stalls} calls){failures}",
                "≈ 0 ms buffered" if run.paced else "",
                f"wall {unpaced.per_game(unpaced.wall) / max(paced.per_game(paced.wall), 1e-9):.2f}x faster "
                f"than before" if run.paced else ""))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.socha", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per version and server variant (default 4)")
    parser.add_argument("--versions", default=",".join(GAMES),
                        help=f"comma-separated socha versions (default {','.join(GAMES)})")
    args = parser.parse_args(argv)
    versions = tuple(v for v in args.versions.split(",") if v)
    unknown = [v for v in versions if v not in GAMES]
    if unknown:
        print(f"error: --versions {','.join(unknown)!r}: accepted {', '.join(GAMES)}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    print(render(rows(args.games, versions)))
    print(f"\n({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
