"""The command line every stand-alone test client shares: play N games, fail on the first problem."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable


def main(play: Callable[[int, random.Random], str | None]) -> int:
    """``play(port, rng)`` plays one game and returns None, or what went wrong."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    for game in range(args.games):
        problem = play(args.port, rng)
        if problem:
            print(f"game {game}: {problem}", file=sys.stderr)
            return 1
    return 0
