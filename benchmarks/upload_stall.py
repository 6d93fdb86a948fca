"""How long one large upload stalls the server's event loop (issue 34: a 7.8 MB XML replay upload
stalled the XML games by 1.2 s).

``python -m benchmarks.upload_stall`` starts a server with its viewer in this process, measures
the event loop's longest gap (a task that sleeps 2 ms at a time: how late it wakes) for a few
seconds without an upload, then while a client process uploads ``--uploads`` 7.8 MB replays one
after another. The games of every door run on that loop, so its longest gap is the longest any
game waited for the server. The client is a process of its own, so its work is not the loop's.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

import trio

from benchmarks import web_attacks
from benchmarks.table import Row, render

TICK = 0.002
CLIENT = """
import sys, time, urllib.request
data = open(sys.argv[2], "rb").read()
for _ in range(int(sys.argv[3])):
    started = time.perf_counter()
    request = urllib.request.Request(sys.argv[1], data=data, headers={"X-File-Name": "big.xml"})
    with urllib.request.urlopen(request, timeout=300) as answer:
        answer.read()
    print(f"{time.perf_counter() - started:.2f}", flush=True)
"""


class LoopGaps:
    """The longest time the event loop was late to wake a sleeping task, since the last reset."""

    def __init__(self) -> None:
        self.worst = 0.0

    async def run(self) -> None:
        while True:
            asked = trio.current_time() + TICK
            await trio.sleep(TICK)
            self.worst = max(self.worst, trio.current_time() - asked)


async def measure(uploads: int, quiet_seconds: float, path: str) -> list[Row]:
    from swc_local.server.app import Server
    from swc_local.server.config import Settings

    server = Server(Settings(free_ports=True, password="benchmark", sections={"web": {"port": 0}}))
    gaps = LoopGaps()
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run)
        nursery.start_soon(gaps.run)
        await trio.sleep(quiet_seconds)
        quiet = gaps.worst
        gaps.worst = 0.0
        url = f"http://127.0.0.1:{server.door('web').port}/api/upload"
        started = time.perf_counter()
        client = await trio.run_process([sys.executable, "-c", CLIENT, url, path, str(uploads)], capture_stdout=True)
        elapsed = time.perf_counter() - started
        during = gaps.worst
        nursery.cancel_scope.cancel()
    times = client.stdout.decode().split()
    return [
        Row("event loop's longest gap without an upload", f"{quiet * 1000:.0f} ms"),
        Row(f"event loop's longest gap during {uploads} uploads of 7.8 MB, one after another",
            f"{during * 1000:.0f} ms", "within 500 ms of the row above"),
        Row("time per upload", f"{', '.join(times)} s ({elapsed:.1f} s in all)"),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.upload_stall", description=__doc__.splitlines()[0])
    parser.add_argument("--uploads", type=int, default=3, help="uploads one after another (default 3)")
    parser.add_argument("--quiet-seconds", type=float, default=3.0, help="the baseline's length (default 3)")
    args = parser.parse_args(argv)
    import tempfile

    with tempfile.NamedTemporaryFile(suffix=".xml") as file:
        file.write(web_attacks.big_replay())
        file.flush()
        print(render(trio.run(measure, args.uploads, args.quiet_seconds, file.name)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
