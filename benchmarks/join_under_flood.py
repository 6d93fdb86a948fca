"""How late an honest ``<join/>`` is answered while a flood of wrong passphrases runs at the XML
door (issue 34: more than 5 s, after the joiner had left).

``python -m benchmarks.join_under_flood`` starts ``swc serve``, then the attacker of
``benchmarks.reliability`` in a process of its own (``--attackers`` parallel connections, each
sending a wrong ``<authenticate>`` and reconnecting as soon as it is closed), and meanwhile opens
a joiner every 0.5 s that sends ``<join gameType="swc_2019_piranhas"/>`` and times the
``<joined>``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

import trio

from benchmarks.serverproc import ServerProcess
from benchmarks.table import Row, render

JOIN = b'<protocol><join gameType="swc_2019_piranhas"/>'


async def measure(server: ServerProcess, attackers: int, seconds: float, joiners: int) -> list[Row]:
    env = dict(os.environ, PYTHONPATH=os.getcwd() + os.pathsep + os.environ.get("PYTHONPATH", ""))
    command = [sys.executable, "-m", "benchmarks.reliability", "--attack", str(server.port), str(attackers), str(seconds)]
    attacker = await trio.lowlevel.open_process(command, stdout=subprocess.PIPE, env=env)
    output = b""
    while b"go\n" not in output:
        output += await attacker.stdout.receive_some(1024) or b"go\n"
    await trio.sleep(1.0)
    waits: list[float] = []
    unanswered = 0

    async def joiner() -> None:
        nonlocal unanswered
        started, answer = time.perf_counter(), b""
        with trio.move_on_after(20):
            async with await trio.open_tcp_stream("127.0.0.1", server.port) as stream:
                await stream.send_all(JOIN)
                while b"<joined" not in answer and (chunk := await stream.receive_some(65536)):
                    answer += chunk
        if b"<joined" in answer:
            waits.append(time.perf_counter() - started)
        else:
            unanswered += 1

    async with trio.open_nursery() as nursery:
        for _ in range(joiners):
            nursery.start_soon(joiner)
            await trio.sleep(0.5)
    while data := await attacker.stdout.receive_some(1024):
        output += data
    await attacker.wait()
    guesses = output.split(b"go\n", 1)[1].split()[0].decode()
    waits.sort()
    return [
        Row(f"wrong passphrases sent by {attackers:,} parallel connections in {seconds:g} s", guesses),
        Row(f"{joiners} honest joiners during the flood: <joined> after (median / longest)",
            f"{waits[len(waits) // 2] * 1000:.0f} / {waits[-1] * 1000:.0f} ms" if waits else "none answered",
            "well under 5 s"),
        Row("joiners without <joined> within 20 s", str(unanswered), "0"),
        Row("tracebacks in the server log", str(server.log_text().count("Traceback")), "0"),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.join_under_flood", description=__doc__.splitlines()[0])
    parser.add_argument("--attackers", type=int, default=1100, help="parallel guessing connections (default 1,100)")
    parser.add_argument("--seconds", type=float, default=8.0, help="how long the flood runs (default 8)")
    parser.add_argument("--joiners", type=int, default=10, help="honest joiners, one every 0.5 s (default 10)")
    args = parser.parse_args(argv)
    with ServerProcess() as server:
        print(render(trio.run(measure, server, args.attackers, args.seconds, args.joiners)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
