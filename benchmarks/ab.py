"""Two server builds side by side in one run: ``python -m benchmarks.ab --before PYTHON``.

Why: the figures of a change should be ratios measured in one run on one machine, and this
machine is shared, so the before and after runs alternate (before, after, before, after, ...)
instead of being minutes apart.  ``PYTHON`` is the interpreter of a virtual environment with the
other build installed (``pip install /path/to/checkout``); the benchmark code is this checkout's,
only the server process (and, for ``--engines``, the in-process measurement) runs the other build.

    git archive cae87c1 | tar -x -C /tmp/before
    python3 -m venv /tmp/before-venv && /tmp/before-venv/bin/pip install '/tmp/before[test]'
    python -m benchmarks.ab --before /tmp/before-venv/bin/python             # 10 rooms, 3 rounds
    python -m benchmarks.ab --before /tmp/before-venv/bin/python --rooms 100 --think
    python -m benchmarks.ab --before /tmp/before-venv/bin/python --profile   # CPU per move by kind
    python -m benchmarks.ab --before /tmp/before-venv/bin/python --engines   # in-process rates
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

from benchmarks.serverproc import ROOT

ENGINE_SCRIPT = """
from benchmarks import blokus, engine
for game in ("swc_2019_piranhas", "swc_2026_piranhas", "swc_2027_blokus"):
    result = engine.measure_game(game, {budget})
    print(f"{{game}}: legal-move generations/s {{result.generations_per_second:,.0f}}")
print(f"swc_2027_blokus: mid-game generations/s {{blokus.measure({budget}).generations_per_second:,.0f}}")
print(f"swc_2027_blokus: check of one placement {{blokus.check_seconds({budget}) * 1e6:.1f}} µs")
for game in ("swc_2019_piranhas", "swc_2026_piranhas", "swc_2027_blokus"):
    seconds, moves = engine.server_game_seconds(game, {games})
    print(f"{{game}}: server CPU per random game, in-process {{seconds * 1000:.2f}} ms ({{moves:.0f}} moves)")
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ab", description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="python of a venv with the other build installed")
    parser.add_argument("--rooms", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--think", action="store_true", help="clients think 50-150 ms (the p99 target run)")
    parser.add_argument("--profile", action="store_true", help="instead: the profile of each build (10 rooms)")
    parser.add_argument("--engines", action="store_true", help="instead: the in-process engine figures of each build")
    args = parser.parse_args(argv)
    if not os.access(args.before, os.X_OK):
        print(f"error: --before {args.before!r}: not an executable python", file=sys.stderr)
        return 2
    builds = (("before", args.before), ("after", sys.executable))
    if args.engines:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        for name, python in builds:
            done = subprocess.run([python, "-c", ENGINE_SCRIPT.format(budget=1.5, games=20)], env=env,
                                  capture_output=True, text=True, check=True)
            print(f"== {name}\n{done.stdout}")
        return 0
    from benchmarks.hotpath import profile_server
    from benchmarks.load import run_load, summary

    own = sys.executable
    for round_ in range(1 if args.profile else args.rounds):
        for name, python in builds:
            sys.executable = python  # ServerProcess starts the server with sys.executable
            try:
                if args.profile:
                    print(f"== {name}\n" + "\n".join(profile_server(10, 8.0).splitlines()[:14]), flush=True)
                    continue
                result = run_load(args.rooms, args.seconds, think=(0.05, 0.15) if args.think else None)
            finally:
                sys.executable = own
            per_move = result.server_cpu * result.seconds / max(result.moves, 1) * 1e6
            print(f"{name:6} {summary(result)}; server {per_move:.0f} µs/move", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
