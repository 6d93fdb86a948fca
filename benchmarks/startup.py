"""Start-up of the ``swc`` processes a user starts most: ``swc --version`` and ``swc bot`` up to
its first connection attempt (``--port 9``: nothing listens there, so the bot ends at once).

Why wall time over many interleaved runs: the machine is shared, so one run says little; the
commands alternate, so a burst of load hits both alike, and the median and the minimum are shown.

    python -m benchmarks.startup [--runs 10]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

COMMANDS = {
    "swc --version": [sys.executable, "-m", "swc_local.tools.cli", "--version"],
    "swc bot piranhas --port 9": [sys.executable, "-m", "swc_local.tools.cli", "bot", "piranhas", "--port", "9"],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for _ in range(args.runs):
        for name, command in COMMANDS.items():
            start = time.perf_counter()
            subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
            times[name].append(time.perf_counter() - start)
    for name, values in times.items():
        print(f"{name}: median {statistics.median(values):.3f} s, min {min(values):.3f} s ({args.runs} runs)")


if __name__ == "__main__":
    main()
