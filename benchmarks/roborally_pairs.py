"""Robo Rally's rungs two by two: a seat-swapped series in one process.

::

    python -m benchmarks.roborally_pairs --pair greedy-35,greedy-15 [--games 800] [--first-seed 2000] \\
        [--map "Dizzy Highway"] [--max-rounds 40]

Why a series of its own: the rungs' strength is measured where it is chosen (the strategy's
``GREEDY_SHARES``, search-long's start samples), and ``benchmarks.ladder`` plays through real
processes and a door, one game at a time; here each robot is a reference bot
(client/roborally_bot.py ``RoboRallyBot``) on the rules directly, the same messages as through the
wire, many games a minute.  Games go in pairs on one seed, the first rung in seat 1 and then in
seat 2 (seat 1 chooses its start point first, which decides much of a race on Dizzy Highway).  A
game without a winner after ``--max-rounds`` goes to the robot with more checkpoints, as
``swc match`` ranks it, else it is a draw (half a point each).
"""

from __future__ import annotations

import math
import random
import sys
from dataclasses import dataclass

from swc_local.client.roborally_bot import RUNGS, RoboRallyBot
from swc_local.games.roborally.board import MAP_FILES, load_map
from swc_local.games.roborally.game import Game
from swc_local.games.roborally.wire import apply_message, messages
from swc_local.server.cli import OneLineParser

EXPECTED_ERRORS = {"Game is over", "No reboot pending"}
"""The rules' answers a reference bot meets in a long game: a message that crossed the game's end,
and a second reboot answer that crossed the round's end (the bot's report skips both)."""


def play(map_name: str, rungs: list[str], seed: int, max_rounds: int) -> tuple[Game, list, list[str]]:
    """One game of the rules with a bot per rung, in process: the bots' messages go to the rules
    as the server's room hands them over, the rules' events to the bots as the server sends them;
    when nobody has anything to say the room's clock runs out (``timeout``).  Returns the game,
    every message the bots sent and the rules' errors."""
    board = load_map(map_name)
    pids = list(range(1, len(rungs) + 1))
    game = Game(board, pids, random.Random(seed))
    bots = {}
    for pid, rung in zip(pids, rungs):
        bot = RoboRallyBot(strategy=rung, seed=seed * 10 + pid)
        bot.me = bot.report.client_id = pid
        bot.board = board
        bots[pid] = bot
    sent, errors = [], []
    game.start()
    while not game.over and game.round <= max_rounds:
        for to, pid, kind, body in messages(game.take_outbox()):
            for bot in bots.values():
                if to == "all" or (to == "one") == (bot.me == pid):
                    bot.on_message(kind, body)
        quiet = True
        for pid, bot in bots.items():
            out, bot.out = bot.out, []
            for message in out:
                quiet = False
                sent.append((pid, message))
                error, _ = apply_message(game, pid, message["messageType"], message["messageBody"])
                if error:
                    errors.append(error)
        if quiet and not game.outbox:
            game.timeout()
    return game, sent, errors


def winner(map_name: str, rungs: list[str], seed: int, max_rounds: int = 40) -> str | None:
    """The rung that won one game, as ``swc match`` ranks it: the robot on the last checkpoint,
    else after ``max_rounds`` the one with more checkpoints; None for a draw.  AssertionError on
    any other error of the rules (a rung must play legally)."""
    game, _, errors = play(map_name, rungs, seed, max_rounds)
    unexpected = set(errors) - EXPECTED_ERRORS
    assert not unexpected, f"{rungs} (seed {seed}): the rules answered {sorted(unexpected)}"
    if game.winner is not None:
        return rungs[game.winner - 1]
    reached = [game.robots[pid].checkpoints for pid in range(1, len(rungs) + 1)]
    return None if reached.count(max(reached)) > 1 else rungs[reached.index(max(reached))]


@dataclass
class Series:
    upper: str
    lower: str
    games: int = 0
    points: float = 0.0  # the upper rung's
    draws: int = 0

    def add(self, won: str | None) -> None:
        self.games += 1
        self.draws += won is None
        self.points += 0.5 if won is None else float(won == self.upper)

    def elo(self) -> float:
        """The upper rung's lead (inf when it won every game: no number of games bounds it)."""
        score = self.points / self.games
        return math.copysign(math.inf, score - 0.5) if score in (0.0, 1.0) else 400 * math.log10(score / (1 - score))

    def summary(self) -> str:
        return (f"{self.upper} vs {self.lower}: {self.points:g} of {self.games} ({self.draws} draws), "
                f"score {self.points / self.games:.3f}, {self.elo():+.0f} Elo")


def run(upper: str, lower: str, games: int, first_seed: int, map_name: str = "Dizzy Highway",
        max_rounds: int = 40) -> Series:
    """``games`` games (an odd one plays the last seed once), on seeds from ``first_seed``, two a
    seed: ``upper`` in seat 1, then in seat 2."""
    series = Series(upper, lower)
    for index in range(games):
        rungs = [upper, lower] if index % 2 == 0 else [lower, upper]
        series.add(winner(map_name, rungs, first_seed + index // 2, max_rounds))
    return series


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="python -m benchmarks.roborally_pairs", description=__doc__.splitlines()[0])
    parser.add_argument("--pair", required=True, help=f"UPPER,LOWER: two rungs ({', '.join(RUNGS)})")
    parser.add_argument("--games", type=int, default=200, help="games, seats swapped in pairs (default 200)")
    parser.add_argument("--first-seed", type=int, default=0, help="the first seed (default 0)")
    parser.add_argument("--map", default="Dizzy Highway", help="the course (default Dizzy Highway)")
    parser.add_argument("--max-rounds", type=int, default=40, help="rounds before a game without winner ends (default 40)")
    args = parser.parse_args(argv)
    pair = args.pair.split(",")
    if len(pair) != 2:
        parser.error(f"--pair {args.pair}: give two rungs, UPPER,LOWER")
    unknown = [rung for rung in pair if rung not in RUNGS]
    if unknown:
        parser.error(f"--pair {unknown[0]!r}: not a rung (accepted: {', '.join(RUNGS)})")
    if args.games < 1 or args.max_rounds < 1:
        parser.error(f"--games {args.games} --max-rounds {args.max_rounds}: each must be 1 or more")
    if args.map not in MAP_FILES:
        parser.error(f"--map {args.map!r}: not a course (accepted: {', '.join(MAP_FILES)})")
    print(run(*pair, args.games, args.first_seed, args.map, args.max_rounds).summary(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
