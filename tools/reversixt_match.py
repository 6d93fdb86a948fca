"""``swc match reversixt``: play N ReversiXT games between player commands on in-process doors.

::

    swc match reversixt --map maps/quad_4p.map --player "java -jar client.jar -p {port}" --games 20
    swc match reversixt --map m.map --player "./a -p {port}" --player "./b -p {port}"  # one per seat

One ``--player`` for every seat, or one for all seats. ``{host}``, ``{port}``, ``{seed}`` and
``{player}`` (the seat number) are filled in. Without ``--player`` every seat plays the greedy
reference client. Each game gets its own door on a free localhost port; the commands are started
one after another, each once the previous one has joined, so command k plays as player k.
Prints a line per finished game while it runs, then a table of ranks, stones and
disqualifications per seat; ``--results DIR`` keeps a result file (``-r`` format) and ``--replays
DIR`` a move log (``swc replay`` reads it) per game.
"""

from __future__ import annotations

import argparse
import functools
import os
import random
import subprocess
import sys
from dataclasses import dataclass, field

import trio

from swc_local.games.reversixt.mapfile import MapError, load_map
from swc_local.server.reversixt_door import DEFAULT_MAP, DoorSettings, FinishedGame, ReversiDoor
from swc_local.server.reversixt_game import Timing
from swc_local.tools.players import expand, run_player


def greedy_command() -> list[str]:
    return [sys.executable, "-m", "swc_local.client.reversixt_bot", "--host", "{host}", "--port", "{port}", "--seed", "{seed}"]


@dataclass
class GameOutcome:
    number: int
    ranks: dict[int, int] = field(default_factory=dict)  # seat -> rank
    points: dict[int, int] = field(default_factory=dict)
    disqualified: set[int] = field(default_factory=set)
    error: str | None = None
    result: str = ""  # the -r result file's text
    log: str = ""  # the move log (log_game.txt format)


@dataclass
class SeatTotals:
    command: str
    games: int = 0
    wins: int = 0
    rank_sum: int = 0
    points: int = 0
    disqualified: int = 0


def outcome_of(number: int, finished: FinishedGame) -> GameOutcome:
    referee = finished.referee
    outcome = GameOutcome(number)
    for rank, player, points in referee.ranking():
        outcome.ranks[player] = rank
        outcome.points[player] = points
    outcome.disqualified = set(referee.state.disqualified)
    outcome.result = finished.result_text()
    outcome.log = "".join(referee.log)
    return outcome


async def play_one(number: int, args, commands: list[str], game_map, seed: int, logs: str | None) -> GameOutcome:
    settings = DoorSettings(
        host="127.0.0.1",
        port=0,
        map_path=args.map,
        time_limit=args.timelimit,
        depth=args.depth,
        timing=Timing(start_delay=args.start_delay, turn_delay=args.turn_delay),
    )
    door = ReversiDoor(settings, game_map)
    done = trio.Event()
    door.on_finished.append(lambda finished: done.set())
    async with trio.open_nursery() as nursery:
        await nursery.start(door.run)
        for seat, command in enumerate(commands, 1):
            argv = expand(command, host="127.0.0.1", port=door.port, seed=seed + seat, player=seat)
            output = subprocess.DEVNULL
            if logs:
                os.makedirs(logs, exist_ok=True)
                output = open(os.path.join(logs, f"game{number:03d}-player{seat}.log"), "wb")
            exited = trio.Event()
            await nursery.start(functools.partial(run_player, argv, output, exited=exited))
            with trio.move_on_after(args.start_timeout) as scope:
                while door.waiting_count() < seat and door.games_started == 0 and not exited.is_set():
                    await trio.sleep(0.005)
            if scope.cancelled_caught or (exited.is_set() and door.waiting_count() < seat and door.games_started == 0):
                nursery.cancel_scope.cancel()
                return GameOutcome(number, error=f"player {seat} did not join ({' '.join(argv)})")
        with trio.move_on_after(args.game_timeout) as scope:
            await done.wait()
        nursery.cancel_scope.cancel()
    if scope.cancelled_caught or not door.finished:
        return GameOutcome(number, error=f"no result after {args.game_timeout:g} s")
    finished = door.finished[-1]
    if args.results:
        os.makedirs(args.results, exist_ok=True)
        with open(os.path.join(args.results, f"game{number:03d}.result"), "w") as handle:
            handle.write(finished.result_text())
    if args.replays:
        os.makedirs(args.replays, exist_ok=True)
        with open(os.path.join(args.replays, f"game{number:03d}.log"), "w") as handle:
            handle.write("".join(finished.referee.log))
    return outcome_of(number, finished)


async def run_match(args, out=None) -> list[GameOutcome]:
    out = out or sys.stdout
    game_map = load_map(args.map)
    n = game_map.players
    players = args.player or [greedy_command()]
    if len(players) == 1:
        players = players * n
    if len(players) != n:
        raise SystemExit(f"the map has {n} seats: give one --player for all or exactly {n}")
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    print(f"{args.games} games on {os.path.basename(args.map)} ({n} players), seed {seed}", file=sys.stderr)
    outcomes: list[GameOutcome] = []
    limiter = trio.CapacityLimiter(max(1, args.parallel))

    async def one(number: int) -> None:
        async with limiter:
            outcome = await play_one(number, args, players, game_map, seed + 100 * number, args.logs)
        outcomes.append(outcome)
        if outcome.error:
            line = f"game {number}: {outcome.error}"
        else:
            line = "game %d: %s" % (
                number,
                "  ".join(
                    f"P{p}: {'disq.' if p in outcome.disqualified else outcome.points[p]}" for p in sorted(outcome.points)
                ),
            )
        print(f"[{len(outcomes)}/{args.games}] {line}", file=sys.stderr, flush=True)

    async with trio.open_nursery() as nursery:
        for number in range(1, args.games + 1):
            nursery.start_soon(one, number)
    outcomes.sort(key=lambda o: o.number)
    print(results_table(outcomes, players), file=out)
    return outcomes


def results_table(outcomes: list[GameOutcome], commands: list) -> str:
    seats = {k: SeatTotals(" ".join(c) if isinstance(c, list) else c) for k, c in enumerate(commands, 1)}
    for outcome in outcomes:
        if outcome.error:
            continue
        for seat, totals in seats.items():
            totals.games += 1
            totals.rank_sum += outcome.ranks[seat]
            totals.wins += outcome.ranks[seat] == 1 and seat not in outcome.disqualified
            totals.points += outcome.points[seat]
            totals.disqualified += seat in outcome.disqualified
    lines = [f"{'seat':>4}  {'games':>5}  {'wins':>4}  {'avg rank':>8}  {'avg stones':>10}  {'disq.':>5}  command"]
    for seat, t in seats.items():
        avg_rank = t.rank_sum / t.games if t.games else 0.0
        avg_points = t.points / t.games if t.games else 0.0
        command = t.command if len(t.command) <= 60 else t.command[:57] + "..."
        lines.append(f"{seat:>4}  {t.games:>5}  {t.wins:>4}  {avg_rank:>8.2f}  {avg_points:>10.1f}  {t.disqualified:>5}  {command}")
    failed = [o for o in outcomes if o.error]
    if failed:
        lines.append(f"{len(failed)} game(s) without a result: " + "; ".join(f"game {o.number}: {o.error}" for o in failed))
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="swc match reversixt", description="play ReversiXT games between player commands")
    parser.add_argument("--map", default=DEFAULT_MAP, help="map file (default: the bundled classic_2p.map)")
    parser.add_argument("--player", action="append", help="player command, once for all seats or once per seat")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--parallel", type=int, default=1, help="games at the same time (default 1)")
    parser.add_argument("--timelimit", "-t", type=float, default=0.0, help="time limit in seconds, like -t")
    parser.add_argument("--depth", "-d", type=int, default=1, help="depth limit, like -d")
    parser.add_argument("--seed", type=int, help="base of the {seed} given to the players")
    parser.add_argument("--results", help="write a result file per game into this directory")
    parser.add_argument("--replays", help="write a move log per game into this directory")
    parser.add_argument("--logs", help="keep each player's output in this directory")
    parser.add_argument("--start-timeout", type=float, default=15.0, help="seconds a player gets to join")
    parser.add_argument("--game-timeout", type=float, default=600.0, help="seconds a game may take")
    parser.add_argument("--start-delay", type=float, default=1.0, help="pause before the first move (reference: 1 s)")
    parser.add_argument("--turn-delay", type=float, default=0.1, help="pause between turns (reference: 0.1 s)")
    return parser


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    try:
        load_map(args.map)
    except (OSError, MapError) as error:
        print(f"cannot load map {args.map}: {error}", file=sys.stderr)
        return 2
    try:
        outcomes = trio.run(run_match, args)
    except KeyboardInterrupt:
        return 130
    return 0 if outcomes and not any(o.error for o in outcomes) else 1
