"""The command line every stand-alone test client shares: play N games, fail on the first problem.

``--reservations C1,C2,...`` plays one game per code with ``joinPrepared`` (an admin prepared
the rooms, so who plays whom is fixed); without it, ``--games N`` games through ``join``.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable


def join_element(game_type: str, reservation: str | None) -> str:
    """The request that seats a client: ``joinPrepared`` with a code, else ``join`` by game type."""
    if reservation:
        return f'<joinPrepared reservationCode="{reservation}" />'
    return f'<join gameType="{game_type}" />'


def main(play: Callable[[int, random.Random, str | None], str | None]) -> int:
    """``play(port, rng, reservation)`` plays one game and returns None, or what went wrong."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--reservations", help="comma-separated reservation codes, one game each")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    codes = args.reservations.split(",") if args.reservations else [None] * args.games
    for game, code in enumerate(codes):
        problem = play(args.port, rng, code)
        if problem:
            print(f"game {game}: {problem}", file=sys.stderr)
            return 1
    return 0
