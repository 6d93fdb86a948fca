"""The steps a person clicks to choose each legal move (server/web/pointing.py), without a browser.

Along seeded random games of every pointed game: the steps of two legal moves never agree (the
clicks name one move), every cell a step clicks has a box on the board, and that box holds what
the game's own view draws for that cell; a Blokus placement previews exactly the cells it covers,
and a Blokus colour may skip except on its first move.
"""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET

import pytest

from swc_local.games import registry, views
from swc_local.server.web.pointing import board_boxes, extra_moves, move_cells, move_steps

POINTED = sorted(game.game_type for game in registry.entries() if game.pointing is not None)

SVG_NS = "{http://www.w3.org/2000/svg}"


def playout(game_type: str, seed: int, turns: int = 40):
    plugin = registry.get(game_type)
    game = plugin.game_from_state(plugin.new_game(random.Random(seed)).state_element())
    rng = random.Random(seed)
    for _ in range(turns):
        moves = list(plugin.legal_moves(game)) + extra_moves(game_type, game)
        if not moves or game.outcome() is not None:
            return
        yield plugin, game, moves
        game.apply(game.current_seat, rng.choice(moves))


def drawn_centres(svg_text: str) -> dict[str, list[tuple[float, float]]]:
    """``data-cell`` -> the centres of the rects and polygons the view draws for it."""
    out: dict[str, list[tuple[float, float]]] = {}
    for element in ET.fromstring(svg_text).iter():
        cell = element.get("data-cell")
        if cell is None:
            continue
        if element.tag == SVG_NS + "rect":
            x, y, w, h = (float(element.get(k)) for k in ("x", "y", "width", "height"))
            out.setdefault(cell, []).append((x + w / 2, y + h / 2))
        elif element.tag == SVG_NS + "polygon":
            points = [tuple(map(float, p.split(","))) for p in element.get("points").split()]
            out.setdefault(cell, []).append((sum(p[0] for p in points) / len(points),
                                             sum(p[1] for p in points) / len(points)))
    return out


@pytest.mark.parametrize("game_type", POINTED)
def test_the_steps_name_one_legal_move_and_every_cell_has_its_box(game_type):
    seen_cells = 0
    for plugin, game, moves in playout(game_type, 7):
        boxes = board_boxes(game_type, game)
        keys = set()
        for move in moves:
            steps = move_steps(game_type, game, move)
            assert steps and all(set(s) <= {"cell", "choice", "preview", "shape"} for s in steps)
            key = json.dumps([[s.get("cell"), s.get("choice")] for s in steps])
            assert key not in keys, f"two moves share the clicks {key}"
            keys.add(key)
            for cell in move_cells(game_type, game, move):
                assert boxes is not None and cell in boxes, cell
                seen_cells += 1
        if boxes:
            for cell, centres in drawn_centres(views.render(game_type, game)).items():
                left, top, width, height = boxes[cell]
                for cx, cy in centres:
                    assert left <= cx <= left + width and top <= cy <= top + height, (cell, (cx, cy), boxes[cell])
    assert seen_cells > 0 or game_type == "swc_2024_mississippi_queen"


@pytest.mark.parametrize("game_type", ["swc_2021_blokus", "swc_2027_blokus"])
def test_a_blokus_placement_previews_its_cells_and_a_colour_skips_after_its_first_move(game_type):
    from swc_local.games.blokus_common import SetMove, SkipMove

    for turn, (_, game, moves) in enumerate(playout(game_type, 3, 12)):
        skips = [m for m in moves if isinstance(m, SkipMove)]
        assert len(skips) == (0 if turn < 4 else 1)  # the four colours' first moves cannot skip
        for move in moves:
            steps = move_steps(game_type, game, move)
            if isinstance(move, SetMove):
                assert [s.get("choice") is not None for s in steps] == [True, True, False]
                assert sorted(map(tuple, steps[1]["shape"])) == sorted((x - move.x, y - move.y) for x, y in move.cells())
                assert steps[2]["cell"] == f"{move.x},{move.y}"
                assert sorted(steps[2]["preview"]) == sorted(f"{x},{y}" for x, y in move.cells())
            else:
                assert steps == [{"choice": "skip this colour's turn"}]
