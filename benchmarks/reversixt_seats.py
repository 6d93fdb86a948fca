"""ReversiXT's rungs with three or more players: a seat-rotated series in one process.

::

    python -m benchmarks.reversixt_seats --map tests/data/reversixt/maps/trio_3p.map \\
        --lineup search-long,search-short,search-short [--seeds 4] [--first-seed 1]

Why a series of its own: ``benchmarks.ladder`` fits Elo from two-seat games only, and with more
seats the question is another one: does a rung take more than its even share of the wins against
the rung below?  Every seed plays the lineup once in each of its rotations (the seat that bombs
last has an edge, so every rung sits in every seat), each player a reference bot
(client/reversixt_bot.py ``ClientGame``) on the referee directly: no door, no pauses, the same
moves as through the wire.  A game's point goes to its sole winner; a shared first place splits it.
A rung's *share* is its points over the games; its *even share* is its seats in the lineup over
the map's players (1/3 for one of three seats).
"""

from __future__ import annotations

import random
import sys
import time
from dataclasses import dataclass, field

from swc_local.client.reversixt_bot import STRATEGIES, ClientGame
from swc_local.games.reversixt.mapfile import MapError, load_map
from swc_local.games.reversixt.referee import Referee
from swc_local.server.cli import OneLineParser


def play(game_map, rungs: list[str], seed: int) -> Referee:
    """One game, player k on rung ``rungs[k - 1]`` with the seed ``seed + k - 1``: the referee at
    its end (its ``moves`` and ``ranking()``: rank, player, points).  A move the referee refuses
    raises (a rung must be legal)."""
    referee = Referee(game_map, [0] * game_map.players)
    bots = [ClientGame(rung, random.Random(seed + i)) for i, rung in enumerate(rungs)]
    while True:
        action, player = referee.next_action()
        if action == "end_game":
            return referee
        if action == "end_phase1":
            continue
        bot = bots[player - 1]
        bot.state, bot.me, bot.phase = referee.state.copy(), player, referee.phase
        bot.time_ms, bot.depth = referee.request(player)
        verdict = referee.answer(player, *bot.choose(), 0.0)
        if verdict.disqualified is not None:
            raise AssertionError(f"{rungs[player - 1]} (player {player}) played an invalid move: {verdict.reason}")


@dataclass
class Series:
    lineup: list[str]
    games: int = 0
    points: dict[str, float] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)

    def add(self, rungs: list[str], ranking: list[tuple[int, int, int]], seed: int) -> None:
        winners = [player for rank, player, _ in ranking if rank == 1]
        for player in winners:
            self.points[rungs[player - 1]] = self.points.get(rungs[player - 1], 0.0) + 1 / len(winners)
        self.games += 1
        stones = " ".join(f"{rungs[p - 1]}={points}" for _, p, points in sorted(ranking, key=lambda r: r[1]))
        self.lines.append(f"seed {seed}: {stones}; won by {', '.join(f'P{p}' for p in winners)}")

    def share(self, rung: str) -> float:
        return self.points.get(rung, 0.0) / max(1, self.games)

    def even(self, rung: str) -> float:
        return self.lineup.count(rung) / len(self.lineup)


def run(map_path: str, lineup: list[str], seeds: range, *, echo=print) -> Series:
    game_map = load_map(map_path)
    series = Series(lineup)
    for seed in seeds:
        for turn in range(len(lineup)):
            rungs = lineup[turn:] + lineup[:turn]
            started = time.perf_counter()
            series.add(rungs, play(game_map, rungs, seed).ranking(), seed)
            echo(f"{series.lines[-1]} ({time.perf_counter() - started:.1f} s)")
    return series


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="python -m benchmarks.reversixt_seats", description=__doc__.splitlines()[0])
    parser.add_argument("--map", required=True, help="a map file or a bundled map's name")
    parser.add_argument("--lineup", required=True,
                        help=f"one rung per player, comma-separated ({', '.join(STRATEGIES)})")
    parser.add_argument("--seeds", type=int, default=4,
                        help="seeds; each plays every rotation of the lineup (default 4)")
    parser.add_argument("--first-seed", type=int, default=1, help="the first seed (default 1)")
    args = parser.parse_args(argv)
    lineup = args.lineup.split(",")
    unknown = [rung for rung in lineup if rung not in STRATEGIES]
    if unknown:
        parser.error(f"--lineup {unknown[0]!r}: not a rung (accepted: {', '.join(STRATEGIES)})")
    if args.seeds < 1:
        parser.error(f"--seeds {args.seeds}: must be 1 or more")
    try:
        players = load_map(args.map).players
    except (OSError, MapError) as error:
        parser.error(f"--map {args.map}: not a ReversiXT map file or bundled map name ({error})")
    if players != len(lineup):
        parser.error(f"--lineup {args.lineup}: {len(lineup)} rungs for a {players}-player map (give exactly {players})")
    series = run(args.map, lineup, range(args.first_seed, args.first_seed + args.seeds))
    for rung in dict.fromkeys(lineup):
        print(f"{rung}: {series.points.get(rung, 0.0):g} of {series.games} games, share {series.share(rung):.2f} "
              f"(even {series.even(rung):.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
