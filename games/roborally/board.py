"""The four course maps, read from the course's own JSON (spec roborally.md §6).

A map file is one ``GameStarted`` message; ``gameMap[x][y]`` lists the field objects of square
(x, y). :class:`Board` keeps that list untouched (the server sends it back unchanged) and a
per-square summary (:class:`Square`) that the rules read: walls, belts, pits, lasers and so on.

Conformance notes: a ``null`` cell is off the board (§5.6); the first field object of a square
names its real board (``isOnBoard``), which the reboot rule uses (§5.8); start points are ordered
by x, then y (§6.1).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

DIRS = ("top", "right", "bottom", "left")
DELTA = {"top": (0, -1), "right": (1, 0), "bottom": (0, 1), "left": (-1, 0)}
OPPOSITE = {"top": "bottom", "bottom": "top", "left": "right", "right": "left"}
CLOCKWISE = {"top": "right", "right": "bottom", "bottom": "left", "left": "top"}
COUNTERCLOCKWISE = {value: key for key, value in CLOCKWISE.items()}

MAP_FILES = {
    "Dizzy Highway": "DizzyHighway.json",
    "Extra Crispy": "ExtraCrispy.json",
    "Lost Bearings": "LostBearings.json",
    "Death Trap": "DeathTrap.json",
}


@dataclass
class Square:
    """What the rules need to know about one square."""

    board: str = ""
    walls: frozenset[str] = frozenset()
    belt: tuple[int, str, tuple[str, ...]] | None = None  # speed, outflow, inflows
    push: tuple[str, frozenset[int]] | None = None  # direction, registers
    gear: str | None = None  # "clockwise" / "counterclockwise"
    pit: bool = False
    energy: int = 0  # cubes at the start
    has_energy_space: bool = False
    laser: tuple[str, int] | None = None  # firing direction, beams
    antenna: str | None = None
    checkpoint: int | None = None
    restart: str | None = None
    start: bool = False


@dataclass
class Board:
    name: str
    game_map: list
    width: int
    height: int
    squares: dict[tuple[int, int], Square]
    start_points: list[tuple[int, int]] = field(default_factory=list)
    antenna: tuple[int, int, str] = (0, 0, "right")
    restart: tuple[int, int, str] | None = None
    checkpoints: dict[int, tuple[int, int]] = field(default_factory=dict)

    def square(self, x: int, y: int) -> Square | None:
        return self.squares.get((x, y))

    def on_board(self, x: int, y: int) -> bool:
        return (x, y) in self.squares

    def wall_blocks(self, x: int, y: int, direction: str) -> bool:
        """A wall on the side of (x, y) facing ``direction``, or on the near side of the neighbour."""
        here = self.squares.get((x, y))
        if here is not None and direction in here.walls:
            return True
        dx, dy = DELTA[direction]
        there = self.squares.get((x + dx, y + dy))
        return there is not None and OPPOSITE[direction] in there.walls

    @property
    def checkpoint_count(self) -> int:
        return len(self.checkpoints)

    def counts(self) -> dict[str, int]:
        """The element counts of spec §6.6."""
        squares = self.squares.values()
        objects = sum(len(cell) for column in self.game_map for cell in column if cell)
        return {
            "field objects": objects,
            "start points": len(self.start_points),
            "checkpoints": len(self.checkpoints),
            "reboot points": sum(1 for s in squares if s.restart),
            "pits": sum(1 for s in squares if s.pit),
            "gears": sum(1 for s in squares if s.gear),
            "push panels": sum(1 for s in squares if s.push),
            "blue belts": sum(1 for s in squares if s.belt and s.belt[0] == 2),
            "green belts": sum(1 for s in squares if s.belt and s.belt[0] == 1),
            "laser emitters": sum(1 for s in squares if s.laser),
            "energy spaces": sum(1 for s in squares if s.has_energy_space),
            "wall fields": sum(1 for column in self.game_map for cell in column if cell for f in cell if f.get("type") == "Wall"),
        }


def board_from_game_map(name: str, game_map: list) -> Board:
    squares: dict[tuple[int, int], Square] = {}
    board = Board(name=name, game_map=game_map, width=len(game_map), height=max((len(c) for c in game_map), default=0), squares=squares)
    for x, column in enumerate(game_map):
        for y, cell in enumerate(column):
            if not cell:
                continue
            square = Square(board=str(cell[0].get("isOnBoard", "")))
            walls: set[str] = set()
            for obj in cell:
                kind = obj.get("type")
                orientations = tuple(obj.get("orientations") or ())
                if kind == "Wall":
                    walls.update(orientations)
                elif kind == "ConveyorBelt":
                    square.belt = (int(obj.get("speed", 1)), orientations[0], orientations[1:])
                elif kind == "PushPanel":
                    square.push = (orientations[0], frozenset(obj.get("registers") or ()))
                elif kind == "Gear":
                    square.gear = orientations[0]
                elif kind == "Pit":
                    square.pit = True
                elif kind == "EnergySpace":
                    square.has_energy_space = True
                    square.energy = int(obj.get("count", 1))
                elif kind == "Laser":
                    square.laser = (orientations[0], int(obj.get("count", 1)))
                elif kind == "Antenna":
                    square.antenna = orientations[0]
                    board.antenna = (x, y, orientations[0])
                elif kind == "CheckPoint":
                    square.checkpoint = int(obj["count"])
                    board.checkpoints[square.checkpoint] = (x, y)
                elif kind == "RestartPoint":
                    square.restart = orientations[0]
                    board.restart = (x, y, orientations[0])
                elif kind == "StartPoint":
                    square.start = True
                    board.start_points.append((x, y))
            square.walls = frozenset(walls)
            squares[(x, y)] = square
    board.start_points.sort()
    return board


def maps_dir() -> Path:
    return Path(str(resources.files(__package__) / "maps"))


@lru_cache(maxsize=None)
def _load_raw(name: str) -> str:
    return (maps_dir() / MAP_FILES[name]).read_text(encoding="utf-8")


def load_map(name: str) -> Board:
    """A fresh :class:`Board` for one of the four wire names (``"Dizzy Highway"``, ...)."""
    if name not in MAP_FILES:
        raise KeyError(f"unknown map {name!r}")
    message = json.loads(_load_raw(name))
    return board_from_game_map(name, message["messageBody"]["gameMap"])
