"""The engine benchmark's nodes/s row of the ladder's search (benchmarks/engine.py)."""

from __future__ import annotations

import random

from benchmarks import engine
from swc_local.games import registry


def test_the_engine_benchmark_counts_the_nodes_the_search_makes():
    result = engine.measure_game("swc_2023_penguins", 0.05)
    assert result.error is None and result.searches >= 1 and result.search_nodes_per_second > 0


def test_a_node_is_one_position_the_search_makes():
    strategy = registry.entry("penguins").strategy
    counting = engine.CountingStrategy(strategy)
    assert counting.SHORT_NODES == strategy.SHORT_NODES
    position = counting.position(registry.entry("penguins").plugin.new_game(random.Random(1)))
    counting.play(position, counting.moves(position)[0])
    assert counting.nodes == 1
