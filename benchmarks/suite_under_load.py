"""``python -m benchmarks.suite_under_load``: the test suite beside CPU-bound processes (issue 35).

Starts ``--hogs`` processes that each spin one CPU at full load (a Python busy loop, niced like
nothing else: the suite competes with them as with another engineer's build), runs the suite
``--runs`` times, and prints one line per run (seconds, passed, failed, errors) and a row for
benchmarks/README.md.  The hogs are killed at the end, also after Ctrl-C.  Exit status 0 only
if every run passed.

::

    python -m benchmarks.suite_under_load                       # the full suite, 4 hogs, 3 runs
    python -m benchmarks.suite_under_load --hogs 0 --runs 1     # the full suite on a quiet machine
    python -m benchmarks.suite_under_load -- -m "not slow"      # the quick subset (pytest's own args after --)

The pytest arguments default to ``-q -n auto`` (pytest-xdist, as .ci/run).  What this shows is
whether the suite's timings hold on a loaded machine: a test that times real seconds where a
timeout is under test fails here first.
"""

from __future__ import annotations

import argparse
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
HOG = "while True:\n    pass\n"
DEFAULT_PYTEST = ["-q", "-n", "auto"]


def start_hogs(count: int) -> list[subprocess.Popen]:
    return [subprocess.Popen([sys.executable, "-c", HOG], stdin=subprocess.DEVNULL) for _ in range(count)]


def stop_hogs(hogs: list[subprocess.Popen]) -> None:
    for hog in hogs:
        if hog.poll() is None:
            hog.send_signal(signal.SIGKILL)
    for hog in hogs:
        hog.wait()


def summary_counts(output: str) -> dict[str, int]:
    """pytest's last line (``3 failed, 2480 passed, 31 deselected in 612.3s``) as counts."""
    last = next((line for line in reversed(output.splitlines()) if re.search(r"\d+ (passed|failed|error)", line)), "")
    return {word: int(number) for number, word in re.findall(r"(\d+) (passed|failed|errors?|skipped|deselected)", last)}


def run_suite(pytest_args: list[str]) -> tuple[float, int, dict[str, int], str]:
    began = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "pytest", *pytest_args], cwd=REPOSITORY,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return time.monotonic() - began, done.returncode, summary_counts(done.stdout), done.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.suite_under_load", description=__doc__.splitlines()[0])
    parser.add_argument("--hogs", type=int, default=4, help="CPU-bound processes beside the suite (default 4)")
    parser.add_argument("--runs", type=int, default=3, help="runs of the suite (default 3)")
    parser.add_argument("--keep-output", type=Path, metavar="DIR", help="write each run's pytest output here")
    parser.add_argument("pytest_args", nargs="*", help="pytest's arguments, after -- (default: -q -n auto)")
    args = parser.parse_args(argv)
    pytest_args = args.pytest_args or DEFAULT_PYTEST
    hogs = start_hogs(args.hogs)
    results = []
    try:
        for run in range(1, args.runs + 1):
            seconds, code, counts, output = run_suite(pytest_args)
            results.append((seconds, code, counts))
            if args.keep_output:
                args.keep_output.mkdir(parents=True, exist_ok=True)
                (args.keep_output / f"run{run}.txt").write_text(output)
            failed = counts.get("failed", 0) + counts.get("error", 0) + counts.get("errors", 0)
            print(f"run {run}: {seconds:.0f} s, {counts.get('passed', 0)} passed, {failed} failed/errors, exit {code}",
                  flush=True)
            if failed:
                print("\n".join(line for line in output.splitlines() if line.startswith(("FAILED", "ERROR"))), flush=True)
    finally:
        stop_hogs(hogs)
    times = sorted(seconds for seconds, _, _ in results)
    failures = sum(c.get("failed", 0) + c.get("error", 0) + c.get("errors", 0) for _, _, c in results)
    command = "python -m benchmarks.suite_under_load " + f"--hogs {args.hogs} --runs {args.runs} -- " + " ".join(pytest_args)
    print(f"| `{command}` | {args.hogs} hogs | {len(results)} runs | "
          f"{' / '.join(f'{t / 60:.1f}' for t in times)} min | {failures} failures |")
    return 0 if results and all(code == 0 for _, code, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
