"""Blokus 2027 as an SVG picture: the drawing both Blokus seasons share
(:mod:`swc_local.games.blokus_view`: the board in the four colours, the pieces each colour still
holds, the points, the last placement, whose turn, the result)."""

from __future__ import annotations

from swc_local.games.blokus_view import render_svg

__all__ = ["render_svg"]
