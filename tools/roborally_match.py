"""``swc match roborally``: N Robo Rally games between 2 to 6 player commands.

Each game gets its own in-process door (``swc roborally`` semantics: one game, fixed map,
``min_players`` = the number of seats) on a free localhost port, so games running at once
(``--parallel``) never share a lobby. The seats' commands are started one after the other, each
only once the previous one is welcomed, so seat *i* is client ID *i* + 1. ``{host}``,
``{port}`` and ``{seed}`` are filled in. A game ends with ``GameFinished`` or, after
``max_rounds`` rounds, without a winner; the table lists the winner, checkpoints, reboots and
rounds of every game.
"""

from __future__ import annotations

import contextlib
import random
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, TextIO

import trio

from swc_local.server.roborally_door import RoboRallyDoor
from swc_local.server.roborally_lobby import RoboRallySettings
from swc_local.tools.players import expand, run_player


def greedy_bot_command() -> list[str]:
    return [sys.executable, "-m", "swc_local.tools.cli", "roborally-bot", "--greedy",
            "--host", "{host}", "--port", "{port}", "--seed", "{seed}"]


@dataclass
class RoboRallyMatchConfig:
    map: str = "Dizzy Highway"
    players: list[str | list[str]] = field(default_factory=lambda: [greedy_bot_command()] * 2)
    games: int = 1
    seed: int | None = None
    parallel: int = 1
    max_rounds: int = 40
    start_timeout: float = 15.0
    game_timeout: float = 900.0
    replays: Path | None = None
    logs: Path | None = None
    door: dict = field(default_factory=dict)  # RoboRallySettings overrides (timer, ...)


@dataclass
class RoboRallyGame:
    index: int
    seed: int
    winner: int | None = None  # seat, 0-based
    rounds: int = 0
    checkpoints: list[int] = field(default_factory=list)
    reboots: list[int] = field(default_factory=list)
    note: str = ""
    log_file: str | None = None


async def run_roborally_match(config: RoboRallyMatchConfig, on_game: Callable[[RoboRallyGame], None] | None = None) -> list[RoboRallyGame]:
    if not 2 <= len(config.players) <= 6:
        raise ValueError("Robo Rally needs 2 to 6 seats")
    match_seed = config.seed if config.seed is not None else random.randrange(1 << 31)
    games = [RoboRallyGame(index=i, seed=match_seed + i) for i in range(config.games)]
    queue = list(games)

    async def worker() -> None:
        while queue:
            game = queue.pop(0)
            await play_one(config, game)
            if on_game is not None:
                on_game(game)

    async with trio.open_nursery() as nursery:
        for _ in range(max(1, config.parallel)):
            nursery.start_soon(worker)
    return games


async def play_one(config: RoboRallyMatchConfig, game: RoboRallyGame) -> None:
    seats = len(config.players)
    options = dict(port=0, map=config.map, seed=game.seed, min_players=seats, single_game=True,
                   log_dir=str(config.replays) if config.replays else None)
    options.update(config.door)
    door = RoboRallyDoor(RoboRallySettings(**options))
    with contextlib.ExitStack() as files, trio.move_on_after(config.game_timeout) as scope:
        async with trio.open_nursery() as nursery:
            await nursery.start(door.run)
            for seat, command in enumerate(config.players):
                argv = expand(command, host="127.0.0.1", port=door.port, seed=game.seed * 10 + seat)
                output = subprocess.DEVNULL
                if config.logs is not None:
                    config.logs.mkdir(parents=True, exist_ok=True)
                    output = files.enter_context(open(config.logs / f"game{game.index + 1}-seat{seat + 1}.log", "wb"))
                nursery.start_soon(run_player, argv, output)
                with trio.move_on_after(config.start_timeout):
                    while door.door is None or door.door.next_id <= seat + 1:
                        await trio.sleep(0.01)
                if door.door is None or door.door.next_id <= seat + 1:
                    game.note = f"seat {seat + 1} did not connect within {config.start_timeout:g} s"
                    nursery.cancel_scope.cancel()
                    return
            while not door.done.is_set():
                rooms = list(door.door.rooms) if door.door else []
                if rooms and rooms[0].game.round > config.max_rounds:
                    _collect(game, rooms[0])
                    game.note = f"no winner after {config.max_rounds} rounds"
                    nursery.cancel_scope.cancel()
                    return
                await trio.sleep(0.05)
            if door.finished_rooms:
                _collect(game, door.finished_rooms[0])
                game.log_file = door.log_files[0] if door.log_files else None
            nursery.cancel_scope.cancel()
    if scope.cancelled_caught:
        game.note = f"cancelled after {config.game_timeout:g} s"


def _collect(game: RoboRallyGame, room) -> None:
    rules = room.game
    pids = sorted(rules.robots)
    game.rounds = rules.round
    game.checkpoints = [rules.robots[pid].checkpoints for pid in pids]
    game.reboots = [rules.robots[pid].reboots for pid in pids]
    game.winner = pids.index(rules.winner) if rules.winner in pids else None


def results_table(games: list[RoboRallyGame], seats: int) -> str:
    head = ["game", "winner", "rounds"] + [f"seat{s + 1} cp/rb" for s in range(seats)] + ["note"]
    rows = [head]
    for game in games:
        cells = [str(game.index + 1), f"seat{game.winner + 1}" if game.winner is not None else "-", str(game.rounds)]
        for s in range(seats):
            cells.append(f"{game.checkpoints[s]}/{game.reboots[s]}" if s < len(game.checkpoints) else "-")
        cells.append(game.note)
        rows.append(cells)
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows]
    wins = [sum(1 for g in games if g.winner == s) for s in range(seats)]
    lines.append("wins: " + ", ".join(f"seat{s + 1} {w}" for s, w in enumerate(wins)))
    return "\n".join(lines)


class Progress:
    def __init__(self, total: int, out: TextIO | None = None) -> None:
        self.total, self.done, self.out = total, 0, out or sys.stderr

    def __call__(self, game: RoboRallyGame) -> None:
        self.done += 1
        winner = f"seat{game.winner + 1}" if game.winner is not None else "none"
        print(f"[{self.done}/{self.total}] game {game.index + 1}: winner {winner}, {game.rounds} rounds {game.note}".rstrip(),
              file=self.out, flush=True)


def run_cli(args) -> int:
    import logging

    if not getattr(args, "verbose", False):
        logging.getLogger("swc").setLevel(logging.WARNING)
    players = args.player or [greedy_bot_command()]
    seats = args.players or (len(players) if len(players) > 1 else 2)
    if len(players) == 1:
        players = players * seats
    if len(players) != seats or not 2 <= seats <= 6:
        print("swc match roborally: give 2 to 6 --player commands, or one --player with --players N", file=sys.stderr)
        return 2
    door = {}
    for key in ("timer", "play_card_timeout", "pick_damage_timeout", "reboot_direction_wait"):
        value = getattr(args, "rr_" + key, None)
        if value is not None:
            door[key] = value
    config = RoboRallyMatchConfig(map=args.map or "Dizzy Highway", players=players, games=args.games, seed=args.seed,
                                  parallel=args.parallel, replays=args.replays, logs=args.logs,
                                  max_rounds=args.max_rounds, start_timeout=args.start_timeout, door=door)
    games = trio.run(run_roborally_match, config, Progress(config.games))
    print(results_table(games, seats))
    return 0 if all(g.winner is not None or g.note.startswith("no winner") for g in games) else 1
