"""What every game's pointing shares (``games/<game>/pointing.py``): a step on a board cell or on
a choice beside the board, and the boxes of a square board's cells.

A game's pointing module turns each legal move into its **steps**, the clicks that choose it, in
order: ``{"cell": "x,y"}`` is a click on a board cell (the ``data-cell`` names the game's view
gives its cells), ``{"choice": "text"}`` a click on a button beside the board (a card, a piece
from the hand, an action).  The seat page offers, at each step, exactly the steps of the legal
moves that agree with the clicks made so far, and sends the move once the clicks name one move.
A cell step may carry ``"preview"`` (the cells the move would cover, drawn while the pointer is
over the cell), a choice step ``"shape"`` (the cells of a piece to draw on its button).

A pointing module is pure (rules and view only) and has ``steps(game, move)`` and
``boxes(game)`` (``"x,y"`` -> ``[left, top, width, height]`` in the view's coordinates, or None:
no cells); ``extra_moves(game)`` (moves a person may make that ``legal_moves`` leaves out) is
optional.  The game's value (``entry.py``) loads it; server/web/pointing.py looks it up.
"""

from __future__ import annotations

from types import ModuleType

from swc_local.games import svg


def cell(*xy) -> dict:
    return {"cell": ",".join(str(v) for v in xy)}


def choice(text: str) -> dict:
    return {"choice": text}


def square_boxes(view: ModuleType, size: int) -> dict[str, list[float]]:
    """The cells of a ``size`` x ``size`` board drawn by :func:`svg.frame` with y up (Piranhas,
    Ostseeschach), from the view's ``CELL``, ``MARGIN`` and ``LEGEND_H``."""
    grid, _, _ = svg.frame(size, size, view.CELL, view.MARGIN, 2, view.LEGEND_H, y_up=True)
    return {f"{x},{y}": [*grid.corner(x, y), grid.cell, grid.cell] for x in range(size) for y in range(size)}
