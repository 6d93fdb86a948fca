"""Start-up of the ``swc`` processes a user starts most: ``swc --version`` and ``swc bot`` up to
its first connection attempt (``--port 9``: nothing listens there, so the bot ends at once).

Why wall time over many interleaved runs: the machine is shared, so one run says little; the
commands alternate (and, with ``--against``, so do the two installations), so a burst of load hits
both alike; the median and the minimum are shown, and with ``--against`` the ratio of the medians.

    python -m benchmarks.startup [--runs 10] [--against OTHER_VENV/bin/python]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

COMMANDS = {
    "swc --version": ["-m", "swc_local.tools.cli", "--version"],
    "swc bot piranhas --port 9": ["-m", "swc_local.tools.cli", "bot", "piranhas", "--port", "9"],
}


def wall(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--against", help="another installation's interpreter (e.g. a checkout before a change)")
    args = parser.parse_args()
    pythons = {"this": sys.executable} | ({"against": args.against} if args.against else {})
    times = {(name, which): [] for name in COMMANDS for which in pythons}
    for _ in range(args.runs):
        for name, command in COMMANDS.items():
            for which, python in pythons.items():
                times[name, which].append(wall([python, *command]))
    for name in COMMANDS:
        line = [f"{name}:"]
        for which in pythons:
            values = times[name, which]
            line.append(f"{which} median {statistics.median(values):.3f} s, min {min(values):.3f} s;")
        if args.against:
            ratio = statistics.median(times[name, "this"]) / statistics.median(times[name, "against"])
            line.append(f"ratio this/against {ratio:.2f}")
        print(" ".join(line), f"({args.runs} runs)")


if __name__ == "__main__":
    main()
