"""A stand-in for the match runner's ``play_games``: results decided by the bots' names.

Each bot name may end in a number, its strength; the stronger seat wins, equal strengths draw,
unless ``noise`` flips a coin (seeded by the game's seed and index, so runs repeat exactly).
"""

from __future__ import annotations

import random
import re

import trio

from swc_local.tools.results import REGULAR, GameResult, SeatResult, ranks_from_points


def strength(name: str) -> int:
    found = re.search(r"(\d+)$", name)
    return int(found.group(1)) if found else 0


def fake_result(spec, noise: float = 0.0) -> GameResult:
    rng = random.Random(f"{spec.seed}/{spec.index}")
    points = [strength(name) + (rng.random() * noise) for name, _ in spec.players]
    ranks = ranks_from_points(points)
    seats = tuple(
        SeatResult(name=name, seat=str(i + 1), rank=rank, score=(str(rank),), cause=REGULAR)
        for i, ((name, _), rank) in enumerate(zip(spec.players, ranks))
    )
    return GameResult(game=spec.game, index=spec.index, seed=spec.seed, seats=seats, duration=0.01)


def fake_play_games(noise: float = 0.0, played: list | None = None):
    async def play_games(specs, *, parallel=1, on_result=None, give_up_after=None):
        results = []
        for spec in specs:
            await trio.sleep(0)
            result = fake_result(spec, noise)
            if played is not None:
                played.append(spec.index)
            results.append(result)
            if on_result is not None:
                on_result(result)
        return results

    return play_games

