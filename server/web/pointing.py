"""Where a person points: the board cells a legal move touches, and where those cells are drawn.

The seat page highlights a game's legal moves on the game's own SVG view and lets a person click
them: for each move the cells it touches, first the piece's cell, then its target (``"x,y"``, the
``data-cell`` names the views give their pieces), and for the game the box of every cell in the
view's coordinates (the view's own grid), so the page can lay clickable frames over empty cells
too.  Games without an entry here get no cells; their page offers the legal-move list instead.

Piranhas 2019 and 2026: a move names its fish, the rules' ``check`` names where it lands.
Ostseeschach: a move names its piece's square and its target square.
"""

from __future__ import annotations

import functools
import importlib


Cell = tuple[int, int]


def _piranhas_2019(game, move) -> tuple[Cell, Cell]:
    return (move.x, move.y), divmod(game.position.check(move), 10)  # the cell index is x * 10 + y


def _piranhas_2026(game, move) -> tuple[Cell, Cell]:
    y, x = divmod(game.state.check(move), 10)  # the cell index is y * 10 + x
    return (move.x, move.y), (x, y)


def _ostseeschach(game, move) -> tuple[Cell, Cell]:
    return move.from_, move.to


POINTING = {
    "swc_2019_piranhas": ("swc_local.games.piranhas.view", 10, _piranhas_2019),
    "swc_2026_piranhas": ("swc_local.games.piranhas_2026.view", 10, _piranhas_2026),
    "swc_2022_ostseeschach": ("swc_local.games.ostseeschach.view", 8, _ostseeschach),
}
"""game type -> (its view module, the board's size, a move's piece and target cells)."""


def move_cells(game_type: str, game: object, move: object) -> list[str]:
    """The cells ``move`` touches, the moving piece's first; [] for a game without pointing."""
    entry = POINTING.get(game_type)
    if entry is None:
        return []
    return [f"{x},{y}" for x, y in entry[2](game, move)]


@functools.lru_cache(maxsize=None)
def board_boxes(game_type: str) -> dict[str, list[float]] | None:
    """``"x,y"`` -> ``[left, top, width, height]`` in the view's coordinates; None: no pointing."""
    from swc_local.games import svg

    entry = POINTING.get(game_type)
    if entry is None:
        return None
    view, size = importlib.import_module(entry[0]), entry[1]
    grid, _, _ = svg.frame(size, size, view.CELL, view.MARGIN, 2, view.LEGEND_H, y_up=True)
    return {f"{x},{y}": [*grid.corner(x, y), grid.cell, grid.cell] for x in range(size) for y in range(size)}
