"""A text board for people, in the reference server's layout: column numbers, row numbers, and a
``'`` after every square the player to move may take (``-M`` hides the marks)."""

from __future__ import annotations

from .mapfile import SQUARE_CHARS
from .rules import State


def board_text(state: State, player: int | None = None, *, marks: bool = True) -> str:
    gm = state.game_map
    targets = state.legal_targets(player) if (player is not None and marks) else set()
    width = len(str(gm.width - 1))
    lines = ["      " + " ".join(str(x).rjust(width) for x in range(gm.width)), "    /" + "-" * (gm.width * (width + 1))]
    for y in range(gm.height):
        cells = []
        for x in range(gm.width):
            square = y * gm.width + x
            mark = "'" if square in targets else " "
            cells.append(SQUARE_CHARS[state.squares[square]].rjust(width) + mark)
        lines.append(f"{y:3d} | " + "".join(cells))
    if player is not None and marks:
        lines.append(f"valid positions: {len(targets)}")
    return "\n".join(lines) + "\n"
