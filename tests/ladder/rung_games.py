"""Helpers of the ladder's per-game tests: whole games between rungs in-process, on the
server's own game (its ``apply`` raises on an illegal move), and the strategy's ``play`` checked
against the referee."""

from __future__ import annotations

import itertools
import random

from swc_local.client import ladder
from swc_local.client.bot import choose_move
from swc_local.games import registry

PAIRS = list(itertools.combinations(ladder.RUNGS, 2))
"""Every rung against every other rung."""


def reduce_budgets(monkeypatch, name: str, short: int, long: int) -> None:
    """Cheap search rungs for the suite: the same search, smaller budgets (long stays above short)."""
    strategy = registry.entry(name).strategy
    monkeypatch.setattr(strategy, "SHORT_NODES", short)
    monkeypatch.setattr(strategy, "LONG_NODES", long)


def play(name: str, first: str, second: str, seed: int, max_moves: int = 400) -> tuple[object, list]:
    """One game of rung ``first`` (seat 0) against ``second``: (the game's outcome, the moves).
    A rung with no move (both Hase und Igel 2025 hares stuck) ends it as ``("stuck", seat)``: the
    bot would leave there."""
    plugin = registry.entry(name).plugin
    game = plugin.new_game(random.Random(seed))
    rngs = (random.Random(seed), random.Random(seed + 1))
    rungs, moves = (first, second), []
    while game.outcome() is None:
        seat = game.current_seat
        move = choose_move(plugin, game, rngs[seat], rungs[seat])
        if move is None:
            return ("stuck", seat), moves
        game.apply(seat, move)  # raises on an illegal move
        moves.append(move)
        assert len(moves) < max_moves
    return game.outcome(), moves


def positions_along_a_game(name: str, seed: int, every: int = 1):
    """The server's game at every ``every``-th position of a seeded random game."""
    plugin = registry.entry(name).plugin
    game = plugin.new_game(random.Random(seed))
    rng = random.Random(seed)
    count = 0
    while game.outcome() is None:
        if count % every == 0:
            yield game
        move = plugin.random_move(game, rng)
        if move is None:
            return
        game.apply(game.current_seat, move)
        count += 1
