"""Size and start time of the self-contained ``swc`` executable against the pip-installed ``swc``.

    python -m tools.build_exe && python -m benchmarks.executable [--samples 5]

``swc --version`` is the whole start of the program: the one-file bundle unpacks itself into a
temporary folder and starts its interpreter; the pip install starts the venv's Python and imports
the CLI. Both are timed in the same run, alternating, each the median of ``--samples`` starts, and
the executable once more inside the bubblewrap sandbox of the tests (no Python reachable).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
EXECUTABLE = REPOSITORY / "dist" / "swc"


def _start(command: list[str]) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system, the process and what it waited for)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, timeout=120)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(executable: Path, samples: int = 5) -> dict[str, tuple[float, float]]:
    """Median wall and CPU seconds of ``swc --version`` for each way of running it."""
    from tests.executable import INSIDE, sandbox

    pip_swc = shutil.which("swc", path=os.path.dirname(sys.executable)) or "swc"
    commands = {"executable": [str(executable), "--version"], "pip install": [pip_swc, "--version"]}
    if shutil.which("bwrap"):
        commands["executable in the sandbox"] = sandbox(executable, INSIDE, "--version")
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(samples):
        for name, command in commands.items():
            times[name].append(_start(command))
    return {name: (statistics.median(wall for wall, _ in values), statistics.median(cpu for _, cpu in values))
            for name, values in times.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.executable", description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=5, help="starts of each command (the median is shown)")
    parser.add_argument("--executable", type=Path, default=EXECUTABLE)
    args = parser.parse_args(argv)
    if not args.executable.is_file():
        print(f"python -m benchmarks.executable: --executable {args.executable}: no such file "
              "(python -m tools.build_exe builds it)", file=sys.stderr)
        return 2
    result = measure(args.executable, args.samples)
    print(f"size of {args.executable}: {args.executable.stat().st_size / 1e6:.1f} MB")
    wall_base, cpu_base = result["pip install"]
    for name, (wall, cpu) in result.items():
        # bwrap's own init reaps the sandboxed processes, so their CPU time never reaches us
        cpu_text = f"{cpu:.2f} CPU-s ({cpu / cpu_base:.2f}x)" if cpu > 0.05 else "CPU not seen through bwrap"
        print(f"swc --version, {name} (median of {args.samples}): {wall:.2f} s wall ({wall / wall_base:.2f}x the pip "
              f"install's), {cpu_text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
