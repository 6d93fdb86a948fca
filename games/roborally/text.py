"""A text board for people: the rendering of spec roborally.md §6.1, with robots on top.

``.`` floor, ``S`` start point, ``A>`` antenna, ``R>`` reboot point, ``C3`` checkpoint, ``P`` pit,
``E`` energy space, ``G+``/``G-`` gears, ``L>`` laser emitter, ``B>``/``g>`` blue/green belt,
``K>24`` push panel with its registers, ``#`` marks a walled square. A robot is shown as
``@<id><facing>`` (``@2^``) in place of the square's symbol.  Every column is as wide as the
board's widest square plus a space, so the columns line up, and a legend follows the board.
"""

from __future__ import annotations

from .board import Board

ARROW = {"top": "^", "right": ">", "bottom": "v", "left": "<"}


def square_symbol(board: Board, x: int, y: int) -> str:
    square = board.square(x, y)
    if square is None:
        return " "
    parts = []
    if square.antenna:
        parts.append("A" + ARROW[square.antenna])
    if square.restart:
        parts.append("R" + ARROW[square.restart])
    if square.belt:
        parts.append(("B" if square.belt[0] == 2 else "g") + ARROW[square.belt[1]])
    if square.push:
        parts.append("K" + ARROW[square.push[0]] + "".join(str(r) for r in sorted(square.push[1])))
    if square.laser:
        parts.append("L" + ARROW[square.laser[0]])
    if square.checkpoint:
        parts.append(f"C{square.checkpoint}")
    if square.gear:
        parts.append("G+" if square.gear == "clockwise" else "G-")
    if square.pit:
        parts.append("P")
    if square.has_energy_space:
        parts.append("E")
    if square.start:
        parts.append("S")
    text = "".join(parts) or "."
    return text + ("#" if square.walls else "")


LEGEND = (
    "legend: . floor, S start point, A antenna, R reboot point, C1 checkpoint 1, P pit, E energy space,\n"
    "        G+ G- gear (clockwise, anticlockwise), L laser, B g blue/green belt, K24 push panel (registers),\n"
    "        # walls on the square, @2 robot 2; ^ > v < the direction each points or faces"
)


def render(board: Board, robots: dict[int, tuple[int, int, str]] | None = None) -> str:
    """The board in aligned columns (as wide as its widest square), then the legend; ``robots``
    maps client ID to (x, y, facing)."""
    at = {(x, y): f"@{pid}{ARROW[facing]}" for pid, (x, y, facing) in (robots or {}).items()}
    rows = [[at.get((x, y)) or square_symbol(board, x, y) for x in range(board.width)] for y in range(board.height)]
    width = max([len(str(board.width - 1))] + [len(cell) for row in rows for cell in row]) + 1
    margin = len(str(board.height - 1)) + 1
    lines = [" " * margin + "".join(f"{x:<{width}}" for x in range(board.width)).rstrip()]
    for y, row in enumerate(rows):
        lines.append(f"{y:<{margin}}" + "".join(f"{cell:<{width}}" for cell in row).rstrip())
    lines.append(LEGEND)
    return "\n".join(lines)
