"""The benchmark suite still runs: a tiny plan through every benchmark function.

No timing assertions (numbers depend on the machine); only that each benchmark produced its rows,
that the scripted clients played legal moves without a single error, and that the table renders.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks import run
from benchmarks.table import render

TINY = run.Plan(rooms=(1, 2), seconds=0.3, paced_rooms=2, paced_think=(0.001, 0.003), paced_seconds=0.3,
                memory_rooms=3, startup_samples=1, engine_budget=0.02, join_prepared_rooms=20, join_samples=5,
                server_games=1)


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the server's RSS and CPU from /proc")
def test_every_benchmark_produces_its_rows():
    rows = run.collect(TINY)
    metrics = {row.metric: row for row in rows}
    assert "server start-up (spawn to accepting a connection)" in metrics
    assert "moves/s, 1 room (instant clients)" in metrics
    assert "moves/s, 2 rooms (instant clients)" in metrics
    assert metrics["errors in all load runs (up to 2 rooms)"].measured == "0"
    assert "memory per active room (two players, turn 10)" in metrics
    assert "swc_2019_piranhas: legal-move generations/s" in metrics
    assert "hot path: render one Piranhas memento" in metrics
    assert "swc_2026_piranhas: legal-move generations/s" in metrics
    assert "swc_2027_blokus: check of one placement (mid-game, legal ones)" in metrics
    assert "swc_2027_blokus: server CPU per random game, in-process (no sockets)" in metrics
    assert "swc_2023_penguins: legal-move generations/s" in metrics
    assert "swc_2023_penguins: server CPU per random game, in-process (no sockets)" in metrics
    assert "swc_2023_penguins: the ladder's search nodes/s (search-short budget)" in metrics
    assert "join round trip / server CPU per join, 0 vs 20 prepared rooms waiting" in metrics
    assert any(metric.startswith("runner cost per game: swc tournament vs swc match") for metric in metrics)
    table = render(rows)
    assert table.count("\n") == len(rows) + 1
