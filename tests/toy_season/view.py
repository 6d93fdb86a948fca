"""The toy's picture: the line's fields (``data-cell``), the two tokens."""

from __future__ import annotations

from swc_local.games import svg

from tests.toy_season.rules import LENGTH

CELL = 30


def box(x: int) -> list[float]:
    return [10 + CELL * x, 10, CELL, CELL]


def render_svg(game, last_move=None, previous=None) -> str:
    fields = "".join(f'<rect x="{left}" y="{top}" width="{w}" height="{h}" data-cell="{x}" fill="#eee"/>'
                     for x in range(LENGTH) for left, top, w, h in [box(x)])
    tokens = "".join(f'<circle class="piece" cx="{box(x)[0] + CELL / 2}" cy="{25 + 10 * seat}" r="6" data-cell="{x}"/>'
                     for seat, x in enumerate(game.position.tokens))
    return svg.document(20 + CELL * LENGTH, 50, fields + tokens, f"Linie, turn {game.turn}")
