"""What the per-game ladder tests share: whole games between rungs in one process (the referee's
``apply`` raises on an illegal move), the same through ``swc match`` with real bot processes, and
the referee's positions walked move by move beside a strategy's ``play``."""

from __future__ import annotations

import itertools
import random

from swc_local.client import ladder
from swc_local.client.bot import choose_move
from swc_local.games import registry
from swc_local.tools.match import MatchConfig, run_match

from tests.helpers import UNHURRIED

PAIRS = list(itertools.combinations(ladder.RUNGS, 2))
"""Every rung against every other rung (each pair once; the seats alternate with the seed)."""


def play(game_name: str, first: str, second: str, seed: int, limit: int = 1000) -> tuple[int | None, list]:
    """One whole game, ``first`` in seat 0: (the winning seat or None, the moves)."""
    plugin = registry.entry(game_name).plugin
    game = plugin.new_game(random.Random(seed))
    rngs = (random.Random(seed), random.Random(seed + 1))
    rungs, moves = (first, second), []
    while game.outcome() is None:
        assert len(moves) < limit, "the game does not end"
        seat = game.current_seat
        move = choose_move(plugin, game, rngs[seat], rungs[seat])
        game.apply(seat, move)  # raises on an illegal move
        moves.append(move)
    return game.outcome().winner, moves


def reduce_budgets(monkeypatch, game_name: str, short: int, long: int) -> None:
    """Small node budgets for a quick test (the rungs stay apart: long > short)."""
    strategy = registry.entry(game_name).strategy
    monkeypatch.setattr(strategy, "SHORT_NODES", short)
    monkeypatch.setattr(strategy, "LONG_NODES", long)


def random_walk(game_name: str, seed: int):
    """Yield (referee's game, strategy position) before every move of a random game and after its
    last, the strategy's position made with its own ``play`` all the way (never rebuilt)."""
    entry = registry.entry(game_name)
    plugin, strategy = entry.plugin, entry.strategy
    game = plugin.new_game(random.Random(seed))
    rng = random.Random(seed)
    position = strategy.position(game)
    while True:
        yield game, position
        if game.outcome() is not None:
            return
        move = rng.choice(plugin.legal_moves(game))
        game.apply(game.current_seat, move)
        position = strategy.play(position, move)


async def search_short_against_random(game_name: str, seed: int):
    """One game through ``swc match``: the search-short rung's real client (player1) against the
    random reference bot (player2); the match's record."""
    entry = registry.entry(game_name)
    config = MatchConfig(entry.game_type, games=1, seed=seed, options=UNHURRIED,
                         players=[ladder.command(entry, "search-short"), ladder.command(entry, "random")])
    report = await run_match(config)
    assert report.complete
    return report.records[0]
