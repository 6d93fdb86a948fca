"""Blokus 2021 as an SVG picture: the drawing both Blokus seasons share
(:mod:`swc_local.games.blokus_view`: the board in the four colours, the pieces each colour still
holds, the points, the last placement, whose turn, the result), titled "Blokus 2021".

Conformance note: no official picture exists; the 2021 board is the 2027 one (x to the right,
y = 0 on top, the same colours and teams), so the same drawing serves both.
"""

from __future__ import annotations

from swc_local.games.blokus_view import render_svg as _render_svg


def render_svg(game, last_move=None, previous=None) -> str:
    return _render_svg(game, last_move, previous, title="Blokus 2021")
