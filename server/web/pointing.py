"""Where a person points: the board cells a legal move touches, and where those cells are drawn.

The seat page highlights a game's legal moves on the game's own SVG view and lets a person click
them: for each move the cells it touches, first the piece's cell, then its target (``"x,y"``, the
``data-cell`` names the views give their pieces), and for the game the box of every cell in the
view's coordinates (the view's own grid), so the page can lay clickable frames over empty cells
too.  Games without an entry here get no cells; their page offers the legal-move list instead.

Piranhas 2019 and 2026 are here: a move names its fish, the rules' ``check`` names where it lands.
"""

from __future__ import annotations

import functools
import importlib

from swc_local.games import svg

POINTING = {
    "swc_2019_piranhas": ("swc_local.games.piranhas.view", "position", True),
    "swc_2026_piranhas": ("swc_local.games.piranhas_2026.view", "state", False),
}
"""game type -> (view module, the game's rules attribute, cell index is x * 10 + y)"""

SIZE = 10


def move_cells(game_type: str, game: object, move: object) -> list[str]:
    """The cells ``move`` touches, the moving piece's first; [] for a game without pointing."""
    entry = POINTING.get(game_type)
    if entry is None:
        return []
    rules = getattr(game, entry[1])
    target = rules.check(move)
    tx, ty = divmod(target, SIZE) if entry[2] else reversed(divmod(target, SIZE))
    return [f"{move.x},{move.y}", f"{tx},{ty}"]


@functools.lru_cache(maxsize=None)
def board_boxes(game_type: str) -> dict[str, list[float]] | None:
    """``"x,y"`` -> ``[left, top, width, height]`` in the view's coordinates; None: no pointing."""
    entry = POINTING.get(game_type)
    if entry is None:
        return None
    view = importlib.import_module(entry[0])
    grid, _, _ = svg.frame(SIZE, SIZE, view.CELL, view.MARGIN, 2, view.LEGEND_H, y_up=True)
    boxes = {}
    for x in range(SIZE):
        for y in range(SIZE):
            left, top = grid.corner(x, y)
            boxes[f"{x},{y}"] = [left, top, grid.cell, grid.cell]
    return boxes
