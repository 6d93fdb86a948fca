"""Robo Rally: the server's time for one register's activation, 6 players on Death Trap.

Measured in process on the rules engine plus the codec, as the server does it: every register
computes the priority order, plays six cards (with pushes, falls, reboots and damage), runs the
board elements, and every resulting message is validated and encoded. All six players are
"auto" (the server plays their cards at once), so no clock is involved; the time of one round's
five registers is divided by five.

Beside it, the ladder's search (games/roborally/strategy.py): its nodes are simulated registers,
counted by the planner; measured is how many a second search-short's programming phases simulate
on Dizzy Highway from random squares, facings and hands (CPU time).
"""

from __future__ import annotations

import random
import time

from swc_local.games.roborally.board import DELTA, load_map
from swc_local.games.roborally.game import Game
from swc_local.games.roborally.wire import messages
from swc_local.protocol.roborally import encode

from benchmarks.table import Row


def _encode_all(game: Game) -> int:
    out = messages(game.take_outbox())
    for _, _, message_type, body in out:
        encode(message_type, body)
    return len(out)


def register_activation_seconds(budget: float, players: int = 6, seed: int = 1) -> tuple[float, float]:
    """(seconds per register, messages per register), averaged over whole rounds."""
    spent = 0.0
    registers = messages = 0
    game_seed = seed
    while spent < budget:
        game = Game(load_map("Death Trap"), list(range(1, players + 1)), random.Random(game_seed))
        game_seed += 1
        game.start()
        for _ in range(players):
            game.timeout()  # the setup limit: each robot takes the first free start point
        for robot in game.robots.values():
            robot.auto = True
        _encode_all(game)
        for _ in range(10):
            if game.over:
                break
            started = time.perf_counter()
            game.timeout()  # programming timer: registers filled; activation runs all five registers
            while not game.over and game.wait is not None and game.wait.kind != "programming":
                game.timeout()  # damage picks and the reboot grace, answered by the server's default
            messages += _encode_all(game)
            spent += time.perf_counter() - started
            registers += 5
    return spent / max(registers, 1), messages / max(registers, 1)


def search_registers_per_second(budget: float, seed: int = 1) -> tuple[float, int]:
    """(simulated registers/s, programming phases searched) of the search-short rung."""
    from swc_local.games.roborally import strategy

    board = load_map("Dizzy Highway")
    squares = [(x, y) for (x, y), square in board.squares.items() if not square.pit and not square.antenna]
    rng, nodes, searched = random.Random(seed), 0, 0
    start = time.process_time()
    while time.process_time() - start < budget or not searched:
        x, y = rng.choice(squares)
        hand = rng.sample(strategy.PROGRAMMING_DECK_CARDS, strategy.HAND)
        planner = strategy.Planner(board, (x, y, rng.choice(tuple(DELTA))), hand, 0, strategy.SHORT_NODES,
                                   lasers=strategy._lasers(board))
        planner.search(rng)
        nodes += planner.nodes
        searched += 1
    return nodes / (time.process_time() - start), searched


def roborally_rows(budget: float) -> list[Row]:
    seconds, messages = register_activation_seconds(budget)
    registers, searched = search_registers_per_second(budget)
    return [Row("Robo Rally: one register's activation, 6 players, Death Trap (rules + encoding)",
                f"{seconds * 1e6:.0f} µs ({messages:.0f} messages)"),
            Row("Robo Rally: the ladder's search, simulated registers/s (search-short budget), Dizzy Highway",
                f"{registers:,.0f} ({searched} programming phases searched)")]
