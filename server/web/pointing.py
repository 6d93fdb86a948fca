"""Where a person points: the steps of every legal move, and where the board's cells are drawn.

The seat page offers a game's legal moves on the game's own SVG view.  Each legal move is given
as its **steps**, the clicks that choose it, in order: ``{"cell": "x,y"}`` is a click on a board
cell (the ``data-cell`` names the views give their cells), ``{"choice": "text"}`` a click on a
button beside the board (a card, a piece from the hand, an action).  The page offers, at each
step, exactly the steps of the legal moves that agree with the clicks made so far, and sends the
move once the clicks name one move.  A cell step may carry ``"preview"``: the cells the move would
cover, drawn while the pointer is over the cell (Blokus); a choice step may carry ``"shape"``,
the cells of a piece to draw on its button (a Blokus piece and orientation).  :func:`board_boxes` gives the box of
every cell in the view's coordinates, so the page can frame empty cells too.

The games (the per-game step functions below read the game's own move types):

* Piranhas 2019/2026: the fish, then where the rules' ``check`` lands it.
* Ostseeschach: the piece's square, then its target square.
* Hase und Igel 2018 and 2025: the field an advance reaches, then each card played on the way
  (a choice); a move that is no advance (eat a salad, carrots, fall back, skip) is one choice.
* Blokus 2021 and 2027: the piece (a choice), its orientation (a choice), then the piece's
  top-left square (the first it covers in reading order, so the square clicked is under the
  piece; the wire's ``x``/``y`` is its bounding box's corner, which it may not cover) with the
  covered cells as preview.
* Hive 2020: a piece from the hand (a choice) or the piece's field, then the target field.
* Penguins 2023: placement: the floe; later the penguin, then its target.
* Mississippi Queen 2024: the move's actions one by one (accelerate, advance, turn, push), all
  choices; a move that is a prefix of a longer one is sent by a "send" button on the page.

Conformance notes:

* Blokus' ``legal_moves`` lists placements only ("the server never asks a colour without one"),
  but the official rules let a colour skip on any move but its first; :func:`extra_moves` adds
  that skip so a person can pass as a bot can.
* Two Blokus orientations that cover the same cells are one legal move (the generator keeps one
  per distinct cell set), so the orientation choice lists only those.
"""

from __future__ import annotations

import math

from swc_local.games import blokus_view, hare_track, registry, svg
from swc_local.games.blokus_common import ROTATIONS, SHAPE_NAMES, SkipMove, shape_cells
from swc_local.games.hase_und_igel_2025.state import Advance, EatSalad, ExchangeCarrots
from swc_local.games.hive.rules import CELLS as HIVE_CELLS
from swc_local.games.hive.rules import KIND_NAMES as HIVE_KINDS
from swc_local.games.hive.rules import DragMove as HiveDrag
from swc_local.games.hive.rules import SetMove as HiveSet
from swc_local.games.mississippi_queen.rules import ACCELERATE, ADVANCE, DIRECTIONS, TURN
from swc_local.games.penguins.rules import point_of

Cell = tuple[int, int]


def _cell(*xy) -> dict:
    return {"cell": ",".join(str(v) for v in xy)}


def _choice(text: str) -> dict:
    return {"choice": text}


# -- the steps of each game's moves ---------------------------------------------------------------


def _piranhas_2019(game, move) -> list[dict]:
    x, y = divmod(game.position.check(move), 10)  # the cell index is x * 10 + y
    return [_cell(move.x, move.y), _cell(x, y)]


def _piranhas_2026(game, move) -> list[dict]:
    y, x = divmod(game.state.check(move), 10)  # the cell index is y * 10 + x
    return [_cell(move.x, move.y), _cell(x, y)]


def _ostseeschach(game, move) -> list[dict]:
    return [_cell(*move.from_), _cell(*move.to)]


_HASE_2018_ACTIONS = {"eatSalad": "eat a salad", "fallBack": "fall back to the last hedgehog", "skip": "skip"}


def _hase_2018(game, move) -> list[dict]:
    player = (game.state.red, game.state.blue)[game.current_seat]
    steps = []
    for action in move.actions:
        if action.kind == "advance":
            steps.append(_cell(player.index + action.value))
        elif action.kind == "card":
            value = f" {action.value:+d}" if action.card == "TAKE_OR_DROP_CARROTS" else ""
            steps.append(_choice(f"card {action.card}{value}"))
        elif action.kind == "exchangeCarrots":
            steps.append(_choice(f"carrots {action.value:+d}"))
        else:
            steps.append(_choice(_HASE_2018_ACTIONS.get(action.kind, action.kind)))
    return steps


def _hase_2025(game, move) -> list[dict]:
    hare = game.state.hares[game.current_seat]
    if isinstance(move, Advance):
        return [_cell(hare.position + move.distance)] + [_choice(f"card {card}") for card in move.cards]
    if isinstance(move, EatSalad):
        return [_choice("eat a salad")]
    if isinstance(move, ExchangeCarrots):
        return [_choice(f"carrots {move.amount:+d}")]
    return [_choice("fall back to the last hedgehog")]


def _blokus(game, move) -> list[dict]:
    if isinstance(move, SkipMove):
        return [_choice("skip this colour's turn")]
    orientation = ROTATIONS[move.rotation].lower() + (", flipped" if move.flipped else "")
    cells = shape_cells(move.kind, move.rotation, move.flipped)
    first = min(cells, key=lambda c: (c[1], c[0]))  # the piece's top-left square: the one clicked is covered
    anchor = _cell(move.x + first[0], move.y + first[1])
    anchor["preview"] = [f"{x + move.x},{y + move.y}" for x, y in cells]
    piece = _choice(SHAPE_NAMES[move.kind]) | {"shape": [list(c) for c in shape_cells(move.kind, 0, False)]}
    return [piece, _choice(orientation) | {"shape": [list(c) for c in cells]}, anchor]


def _hive(game, move) -> list[dict]:
    if isinstance(move, HiveSet):
        return [_choice(f"set {HIVE_KINDS[move.kind]}"), _cell(*move.destination)]
    if isinstance(move, HiveDrag):
        return [_cell(*move.start), _cell(*move.destination)]
    return [_choice("skip")]


def _penguins(game, move) -> list[dict]:
    if move.from_ is None:
        return [_cell(*move.to)]
    return [_cell(*move.from_), _cell(*move.to)]


def _mississippi_queen(game, move) -> list[dict]:
    steps = []
    for (kind, value), ship in zip(move, _ship_after_each(game, move)):
        if kind == ACCELERATE:
            step = _choice(f"accelerate {value:+d}")
        elif kind == ADVANCE:
            step = _choice(f"advance {value}")
        elif kind == TURN:
            step = _choice(f"turn {DIRECTIONS[value]}")
        else:
            step = _choice(f"push {DIRECTIONS[value]}")
        if ship is not None:  # where the ship stands after this action: the page previews it
            step["ship"] = {"cell": f"{ship[0]},{ship[1]}", "heading": DIRECTIONS[ship[2]]}
        steps.append(step)
    return steps


def _ship_after_each(game, move) -> list[tuple[int, int, int] | None]:
    """(q, r, heading) of the moving ship after each action of ``move``, by the rules' own step
    (on copies of the two ships; the board is only read); None from an action on that the rules
    refuse alone (a legal move's actions are only checked as a whole)."""
    position = getattr(game, "position", None)
    if position is None:
        return [None] * len(move)
    ship, other = position.ships[position.current].copy(), position.ships[1 - position.current].copy()
    out: list[tuple[int, int, int] | None] = []
    for action in move:
        try:
            problem = position._perform(ship, other, action) if not out or out[-1] is not None else "stopped"
        except Exception:
            problem = "stopped"
        out.append(None if problem else (ship.q, ship.r, ship.direction))
    return out


# -- the boxes of each game's cells (``view``: the game's view module, from the registry) ---------


def _square_boxes(size: int):
    def boxes(view, game) -> dict[str, list[float]]:
        grid, _, _ = svg.frame(size, size, view.CELL, view.MARGIN, 2, view.LEGEND_H, y_up=True)
        return {f"{x},{y}": [*grid.corner(x, y), grid.cell, grid.cell] for x in range(size) for y in range(size)}
    return boxes


def _hare_boxes(view, game) -> dict[str, list[float]]:
    state = game.state
    fields = len(state.board) if hasattr(state, "board") else len(state.track)
    grid = hare_track.track_grid(fields, svg.header_height(2) + 6)  # as hare_track.track_picture lays it out
    return {str(i): [*grid.corner(*hare_track.snake(i)), grid.cell, grid.cell] for i in range(fields)}


def _blokus_boxes(view, game) -> dict[str, list[float]]:
    position = game.position
    status = blokus_view._status(position, position.last_move)  # the header's height depends on it
    stock_height = 4 * (2 * blokus_view.SLOT + 8) + 8
    grid, _, _ = svg.frame(blokus_view.SIZE, blokus_view.SIZE, blokus_view.CELL, blokus_view.MARGIN,
                           max(2, len(status)), stock_height)
    size = blokus_view.SIZE
    return {f"{x},{y}": [*grid.corner(x, y), grid.cell, grid.cell] for x in range(size) for y in range(size)}


def _hive_boxes(view, game) -> dict[str, list[float]]:
    top, w = svg.header_height(2), view.HEX * math.sqrt(3)
    out = {}
    for x, y in HIVE_CELLS:
        cx, cy = view._center(x, y, top)
        out[f"{x},{y},{-x - y}"] = [cx - w / 2, cy - view.HEX, w, 2 * view.HEX]
    return out


def _penguins_boxes(view, game) -> dict[str, list[float]]:
    top = svg.header_height(2) + view.MARGIN
    out = {}
    for index in range(len(game.position.board)):
        x, y = point_of(index)
        cx, cy = view._center(x, y, top)
        out[f"{x},{y}"] = [cx - view.CELL / 2, cy - view.HEX_H / 2, view.CELL, view.HEX_H]
    return out


POINTING = {
    "swc_2019_piranhas": (_piranhas_2019, _square_boxes(10)),
    "swc_2026_piranhas": (_piranhas_2026, _square_boxes(10)),
    "swc_2022_ostseeschach": (_ostseeschach, _square_boxes(8)),
    "swc_2018_hase_und_igel": (_hase_2018, _hare_boxes),
    "swc_2025_hase_und_igel": (_hase_2025, _hare_boxes),
    "swc_2021_blokus": (_blokus, _blokus_boxes),
    "swc_2027_blokus": (_blokus, _blokus_boxes),
    "swc_2020_hive": (_hive, _hive_boxes),
    "swc_2023_penguins": (_penguins, _penguins_boxes),
    "swc_2024_mississippi_queen": (_mississippi_queen, None),
}
"""game type -> (a legal move's steps, the boxes of the view's cells or None: no cells)."""


def extra_moves(game_type: str, game: object) -> list:
    """Moves a person may make that the plugin's ``legal_moves`` leaves out (a Blokus skip)."""
    if game_type in ("swc_2021_blokus", "swc_2027_blokus"):
        color = game.position.current_color
        if not game.position.is_over() and not game.position.is_first_move(color):
            return [SkipMove(color)]
    return []


def move_steps(game_type: str, game: object, move: object) -> list[dict]:
    """The clicks that choose ``move``; [] for a game without pointing."""
    entry = POINTING.get(game_type)
    return entry[0](game, move) if entry is not None else []


def move_cells(game_type: str, game: object, move: object) -> list[str]:
    """The board cells ``move``'s steps click, in order (the moving piece's first)."""
    return [step["cell"] for step in move_steps(game_type, game, move) if "cell" in step]


def board_boxes(game_type: str, game: object) -> dict[str, list[float]] | None:
    """``"x,y"`` -> ``[left, top, width, height]`` in the view's coordinates; None: no cells."""
    entry = POINTING.get(game_type)
    if entry is None or entry[1] is None:
        return None
    return entry[1](registry.entry(game_type).view, game)
