"""The move as a person reads it (pages, ``swc replay``, the seat's buttons): the player and the
square in the map's own (x,y), with what the move chose (spec reversixt.md §3: a move is x, y and a
special byte): ``player 1: (3,4)``, ``player 2: (0,5), bonus: a bomb``, ``player 1: (2,2), choice:
swap with player 3``, ``player 1: (6,1), overwrite stone``, ``player 2: bomb (4,4)``.

Conformance note: what the square was (choice, inversion, bonus, an occupied square taken with an
overwrite stone) comes from the position before the move; without it only the square and a
bonus pick are named."""

from __future__ import annotations

from .mapfile import BONUS, CHOICE, EMPTY, INVERSION
from .rules import SPECIAL_BOMB, SPECIAL_OVERWRITE, State


def move_notation(move: tuple[int, int, int, int], before: State | None = None, *, bomb: bool = False) -> str:
    """``move`` is (player, x, y, special); ``bomb``: a phase-2 move (a bomb thrown)."""
    player, x, y, special = move
    if bomb:
        return f"player {player}: bomb ({x},{y})"
    text = f"player {player}: ({x},{y})"
    code = None if before is None else before.squares[y * before.game_map.width + x]
    if special == SPECIAL_BOMB:
        return text + ", bonus: a bomb"
    if special == SPECIAL_OVERWRITE:
        return text + ", bonus: an overwrite stone"
    if special and code in (None, CHOICE):
        return text + (", choice: keep my colour" if special == player else f", choice: swap with player {special}")
    if code == INVERSION:
        return text + ", inversion"
    if code is not None and code not in (EMPTY, CHOICE, BONUS):
        return text + ", overwrite stone"
    return text
