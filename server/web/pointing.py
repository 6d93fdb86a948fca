"""Where a person points: a lookup of the game's own pointing (``games/<game>/pointing.py``,
loaded by the game's value, ``entry.pointing``; games/pointing.py says what steps and boxes are).

The seat page offers a game's legal moves on the game's own SVG view, each as the steps a person
clicks; this module knows no game: it asks the registry's value of ``game_type`` for its pointing
and answers "no pointing" ([] steps, no boxes, no extra moves) for a game without one.
"""

from __future__ import annotations

from types import ModuleType

from swc_local.games import registry


def _pointing(game_type: str) -> ModuleType | None:
    entry = registry.entry(game_type)
    return None if entry is None else entry.pointing


def extra_moves(game_type: str, game: object) -> list:
    """Moves a person may make that the plugin's ``legal_moves`` leaves out (a Blokus skip)."""
    pointing = _pointing(game_type)
    extra = getattr(pointing, "extra_moves", None)
    return extra(game) if extra is not None else []


def move_steps(game_type: str, game: object, move: object) -> list[dict]:
    """The clicks that choose ``move``; [] for a game without pointing."""
    pointing = _pointing(game_type)
    return pointing.steps(game, move) if pointing is not None else []


def move_cells(game_type: str, game: object, move: object) -> list[str]:
    """The board cells ``move``'s steps click, in order (the moving piece's first)."""
    return [step["cell"] for step in move_steps(game_type, game, move) if "cell" in step]


def board_boxes(game_type: str, game: object) -> dict[str, list[float]] | None:
    """``"x,y"`` -> ``[left, top, width, height]`` in the view's coordinates; None: no cells."""
    pointing = _pointing(game_type)
    return pointing.boxes(game) if pointing is not None else None
