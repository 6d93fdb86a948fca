"""Small constructed boards and a driver for Robo Rally rules tests."""

from __future__ import annotations

import random

from swc_local.games.roborally.board import board_from_game_map
from swc_local.games.roborally import wire
from swc_local.games.roborally.game import Game


def make_board(cells=None, width=8, height=6, antenna=(0, 0, "right"), board_name="5B", start_points=()):
    game_map = [[[{"type": "Empty", "isOnBoard": board_name}] for _ in range(height)] for _ in range(width)]
    ax, ay, facing = antenna
    game_map[ax][ay] = [{"type": "Antenna", "isOnBoard": board_name, "orientations": [facing]}]
    for (x, y) in start_points:
        game_map[x][y] = [{"type": "StartPoint", "isOnBoard": "Start A"}]
    for (x, y), fields in (cells or {}).items():
        if fields is None:
            game_map[x][y] = None
        else:
            game_map[x][y] = game_map[x][y] + [dict(f, isOnBoard=f.get("isOnBoard", board_name)) for f in fields]
    return board_from_game_map("Test", game_map)


def wall(*sides):
    return {"type": "Wall", "orientations": list(sides)}


def belt(speed, *orientations):
    return {"type": "ConveyorBelt", "speed": speed, "orientations": list(orientations)}


def place(board, robots, seed=0, register=1):
    """A game in the activation phase with robots at {pid: (x, y, facing)}."""
    game = Game(board, sorted(robots), random.Random(seed))
    for pid, (x, y, facing) in robots.items():
        robot = game.robots[pid]
        robot.x, robot.y, robot.facing, robot.start = x, y, facing, (x, y)
    game.phase = 3
    game.register = register
    game._priority = game.priority_order()
    return game


def run(gen, answers=()):
    """Exhaust a rules generator; waits get the given answers in order, then None (timeout)."""
    answers = list(answers)
    try:
        wait = next(gen)
        while True:
            wait = gen.send(answers.pop(0) if answers else None)
    except StopIteration:
        pass


def messages(game):
    return [(t, b) for _, _, t, b in wire.messages(game.take_outbox())]


def types(game):
    return [t for t, _ in messages(game)]
