"""A text board for people: the rendering of spec roborally.md §6.1, with robots on top.

``.`` floor, ``S`` start point, ``A>`` antenna, ``R>`` reboot point, ``C3`` checkpoint, ``P`` pit,
``E`` energy space, ``G+``/``G-`` gears, ``L>`` laser emitter, ``B>``/``g>`` blue/green belt,
``K>24`` push panel with its registers, ``#`` marks a walled square. A robot is shown as
``@<id><facing>`` (``@2^``) in place of the square's symbol.
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


def render(board: Board, robots: dict[int, tuple[int, int, str]] | None = None) -> str:
    """The board as rows of 6-character cells; ``robots`` maps client ID to (x, y, facing)."""
    at = {(x, y): f"@{pid}{ARROW[facing]}" for pid, (x, y, facing) in (robots or {}).items()}
    lines = ["   " + "".join(f"{x:<6}" for x in range(board.width))]
    for y in range(board.height):
        cells = [at.get((x, y)) or square_symbol(board, x, y) for x in range(board.width)]
        lines.append(f"{y:<3}" + "".join(f"{cell:<6}" for cell in cells).rstrip())
    return "\n".join(lines)
