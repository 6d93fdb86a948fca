"""Measure legal-move generation speed: ``python -m swc_local.games.hase_und_igel.bench [games]``.

Why: bots and the property tests lean on :func:`movegen.legal_moves`; this gives one honest number
(states from random games, generator cache warm as in a bot, and cold with the cache cleared).
"""

from __future__ import annotations

import random
import sys
import time

from swc_local.games.hase_und_igel import board, movegen, rules


def sample_states(games: int, seed: int = 1) -> list[rules.State]:
    rng = random.Random(seed)
    states = []
    for _ in range(games):
        state = rules.new_state(board.generate(rng))
        while rules.outcome(state) is None:
            states.append(state.copy())
            rules.perform_move(state, rng.choice(movegen.legal_moves(state)))
    return states


def rate(states: list[rules.State], cold: bool) -> float:
    started = time.perf_counter()
    for state in states:
        if cold:
            movegen._chains.cache_clear()
        movegen.legal_moves(state)
    return len(states) / (time.perf_counter() - started)


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 200
    states = sample_states(games)
    rate(states, cold=False)  # warm up
    print(f"{len(states)} states from {games} random games")
    print(f"warm cache: {rate(states, cold=False):,.0f} legal-move generations/s")
    print(f"cold cache: {rate(states, cold=True):,.0f} legal-move generations/s")
    moves = sum(len(movegen.legal_moves(s)) for s in states)
    print(f"average legal moves per state: {moves / len(states):.1f}")


if __name__ == "__main__":
    main(sys.argv[1:])
