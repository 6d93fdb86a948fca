"""What the ladder's tests share: whole games between rungs in one process, on the server's own
game (its ``apply`` raises on an illegal move), the same through ``swc match`` with real bot
processes, and the referee's positions walked move by move beside a strategy's ``play``."""

from __future__ import annotations

import itertools
import random

from swc_local.client import ladder
from swc_local.client.bot import choose_move
from swc_local.games import registry
from swc_local.tools.match import MatchConfig, run_match

from tests.helpers import UNHURRIED

PAIRS = list(itertools.combinations(ladder.RUNGS, 2))
"""Every rung against every other rung (each pair once)."""


def reduce_budgets(monkeypatch, name: str, short: int, long: int) -> None:
    """Cheap search rungs for the suite: the same search, smaller budgets (long stays above short)."""
    strategy = registry.entry(name).strategy
    monkeypatch.setattr(strategy, "SHORT_NODES", short)
    monkeypatch.setattr(strategy, "LONG_NODES", long)


def play(name: str, first: str, second: str, seed: int, max_moves: int = 1000) -> tuple[object, list]:
    """One game of rung ``first`` (seat 0) against ``second``: (the game's outcome, the moves).
    A rung with no move (both Hase und Igel 2025 hares stuck) ends it as ``("stuck", seat)``: the
    bot would leave there."""
    plugin = registry.entry(name).plugin
    game = plugin.new_game(random.Random(seed))
    rngs = (random.Random(seed), random.Random(seed + 1))
    rungs, moves = (first, second), []
    while game.outcome() is None:
        assert len(moves) < max_moves, "the game does not end"
        seat = game.current_seat
        move = choose_move(plugin, game, rngs[seat], rungs[seat])
        if move is None:
            return ("stuck", seat), moves
        game.apply(seat, move)  # raises on an illegal move
        moves.append(move)
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


def random_walk(name: str, seed: int):
    """Yield (referee's game, strategy position) before every move of a random game and after its
    last, the strategy's position made with its own ``play`` all the way (never rebuilt)."""
    entry = registry.entry(name)
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


async def search_short_against_random(name: str, seed: int, rung: str = "search-short"):
    """One game through ``swc match``: the rung's real client (player1, search-short unless told)
    against the random reference bot (player2); the match's record."""
    entry = registry.entry(name)
    config = MatchConfig(entry.game_type, games=1, seed=seed, options=UNHURRIED,
                         players=[ladder.command(entry, rung), ladder.command(entry, "random")])
    report = await run_match(config)
    assert report.complete
    return report.records[0]
