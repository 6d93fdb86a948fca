"""The runner's own cost per game: ``swc tournament`` against ``swc match`` on the same games.

Both commands run as a user runs them (a process each) with the Piranhas reference bot on both
seats, the same number of games, two at a time; the tournament also writes every game to its
SQLite file, keeps the ratings and draws its tables. The row shows the wall time per game of each
and their ratio, so what the tournament adds to a game shows up next to what a game costs (the
bots' start-up dominates both). ``python -m benchmarks.tournament [GAMES]`` prints just this row.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.table import Row, render
from swc_local.client import ladder
from swc_local.games import registry

PARALLEL = 2
SEED = 1


def _swc(*args: str) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "swc_local.tools.cli", *args], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=1800)
    return time.perf_counter() - started


def measure(games: int) -> tuple[float, float]:
    """Seconds per game of ``swc match`` and of ``swc tournament`` for ``games`` games."""
    reference = shlex.join(ladder.command(registry.entry("piranhas")))
    match = _swc("match", "piranhas", "--games", str(games), "--parallel", str(PARALLEL), "--seed", str(SEED))
    with tempfile.TemporaryDirectory() as directory:
        tournament = _swc("tournament", "piranhas", f"--bot=a={reference}", f"--bot=b={reference}",
                          "--games-per-pairing", str(games), "--concurrency", str(PARALLEL), "--seed", str(SEED),
                          "--db", str(Path(directory) / "bench.db"))
    return match / games, tournament / games


def tournament_rows(plan) -> list[Row]:
    games = max(2, 2 * round(plan.engine_budget * 4))  # 12 in the full run, 2 in the quick one
    match, tournament = measure(games)
    return [Row(
        f"runner cost per game: swc tournament vs swc match ({games} Piranhas games, reference bots, {PARALLEL} at a time)",
        f"{tournament * 1000:.0f} vs {match * 1000:.0f} ms per game", "", f"{tournament / match:.2f}x match",
    )]


if __name__ == "__main__":
    class _Plan:
        engine_budget = (int(sys.argv[1]) if len(sys.argv) > 1 else 12) / 8

    print(render(tournament_rows(_Plan())))
