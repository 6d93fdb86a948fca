"""The move as a person reads it (pages, ``swc replay``, tables): the colour, the piece, its
orientation and position, ``YELLOW PENTO_V (RIGHT, flipped) at (8,0)`` or ``GREEN skips``; one
text for both Blokus seasons, kept beside their shared rules (:func:`blokus_common.move_notation`)."""

from __future__ import annotations

from swc_local.games.blokus_common import move_notation

__all__ = ["move_notation"]
