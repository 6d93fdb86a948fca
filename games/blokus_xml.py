"""The XML of both Blokus seasons (2021 and 2027): moves in and out, the board, the shape lists,
``validColors``, ``lastMoveMono`` and a fast memento renderer, parametrized by the season's move
class names (``sc.plugin2021.*`` / ``sc.plugin2027.*``).  Each season's ``xmlmap`` arranges them
in its own state layout (the two orders differ, spec blokus_2021.md §12).

Conformance notes (what XStream does with the official classes; the same in both seasons):

* An unknown enum value (colour, kind, rotation), a non-integer coordinate or an unknown child
  element is an XStream conversion error: :class:`MalformedMove` with cause ``PROTOCOL_ERROR``.
* A missing ``<piece>``, ``<position>``, ``color``, ``kind`` or ``rotation`` leaves a Kotlin
  non-null field null, and the server's rule code fails on it: MalformedMove with cause
  ``UNKNOWN``.  A missing ``isFlipped`` is false, a missing ``x``/``y`` is 0 (Java defaults).
* ``isFlipped`` is read as ``Boolean.valueOf``: only ``true`` (any case) is true.
* ``lastMoveMono`` entries are written in the order the colours finished (a Kotlin map keeps
  insertion order).
* The 2018/2019-style rooms (2021) score every MalformedMove ``LEFT`` whatever its cause.
"""

from __future__ import annotations

import random

from swc_local.games.blokus_common import (
    COLOR_INDEX,
    COLORS,
    ROTATION_INDEX,
    ROTATIONS,
    SHAPE_INDEX,
    SHAPE_NAMES,
    SHAPE_SIZES,
    SIZE,
    W,
    BlokusPosition,
    Move,
    SetMove,
    SkipMove,
    _bit,
    _kinds,
)
from swc_local.games.blokus_common import RuleViolation
from swc_local.games.plugin import InvalidMove, MalformedMove, PositionGame
from swc_local.games.textboard import with_coordinates
from swc_local.protocol.element import Element
from swc_local.protocol.xstream import java_int

STATE_CLASS = "state"
SHAPE_LISTS = ("blueShapes", "yellowShapes", "redShapes", "greenShapes")
_SHAPE_ELEMENTS = tuple(Element("shape", text=name).freeze() for name in SHAPE_NAMES)
_COLOR_ELEMENTS = tuple(Element("color", text=name).freeze() for name in COLORS)


def _protocol_error(message: str) -> MalformedMove:
    return MalformedMove(message, cause="PROTOCOL_ERROR")


def _enum(text: str | None, table: dict[str, int], what: str) -> int | None:
    """An enum value; None when absent (the caller decides), PROTOCOL_ERROR when unknown."""
    if text is None:
        return None
    value = table.get(text.strip())
    if value is None:
        raise _protocol_error(f"no {what} {text!r}")
    return value


def _required(value: int | None, what: str) -> int:
    if value is None:
        raise MalformedMove(f"missing {what}: the official rule code fails on null", cause="UNKNOWN")
    return value


def _int(text: str | None) -> int:
    if text is None:
        return 0
    try:
        return java_int(text.strip())
    except ValueError as error:
        raise _protocol_error(str(error)) from None


def _only_children(element: Element, allowed: tuple[str, ...]) -> None:
    seen = set()
    for child in element.children:
        if child.tag not in allowed:
            raise _protocol_error(f"unexpected element <{child.tag}> in <{element.tag}>")
        if child.tag in seen:
            raise _protocol_error(f"duplicate <{child.tag}> in <{element.tag}>")
        seen.add(child.tag)


def decode_move(data: Element, set_class: str, skip_class: str) -> Move:
    """A ``<data class="SET_CLASS|SKIP_CLASS">`` (or ``<lastMove>``) -> Move."""
    data_class = data.get("class")
    if data_class == skip_class:
        _only_children(data, ("color",))
        color = data.find("color")
        return SkipMove(_required(_enum(None if color is None else color.text, COLOR_INDEX, "colour"), "colour"))
    if data_class != set_class:
        raise _protocol_error(f"not a Blokus move class: {data_class!r}")
    # Parse everything first: XStream fails on a bad value before any rule code sees a null.
    _only_children(data, ("piece",))
    piece = data.find("piece")
    if piece is None:
        raise MalformedMove("a SetMove without <piece>", cause="UNKNOWN")
    _only_children(piece, ("position",))
    color = _enum(piece.get("color"), COLOR_INDEX, "colour")
    kind = _enum(piece.get("kind"), SHAPE_INDEX, "shape")
    rotation = _enum(piece.get("rotation"), ROTATION_INDEX, "rotation")
    flipped = (piece.get("isFlipped") or "").strip().lower() == "true"
    position = piece.find("position")
    if position is not None and position.children:
        raise _protocol_error(f"unexpected element <{position.children[0].tag}> in <position>")
    x = _int(position.get("x")) if position is not None else 0
    y = _int(position.get("y")) if position is not None else 0
    if position is None:
        raise MalformedMove("a piece without <position>", cause="UNKNOWN")
    return SetMove(_required(color, "colour"), _required(kind, "shape"), _required(rotation, "rotation"), flipped, x, y)


def move_element(move: Move, set_class: str, skip_class: str, tag: str = "data") -> Element:
    """The move as a client sends it (``tag="data"``) or as the state's ``<lastMove>``."""
    if isinstance(move, SkipMove):
        return Element(tag, {"class": skip_class}, [_COLOR_ELEMENTS[move.color]])
    piece = Element(
        "piece",
        {
            "color": COLORS[move.color],
            "kind": SHAPE_NAMES[move.kind],
            "rotation": ROTATIONS[move.rotation],
            "isFlipped": "true" if move.flipped else "false",
        },
        [Element("position", {"x": str(move.x), "y": str(move.y)})],
    )
    return Element(tag, {"class": set_class}, [piece])


def _field_elements() -> dict[tuple[int, int], Element]:
    """One frozen ``<field>`` per (bit index, colour): shared by every memento, rendered once."""
    return {
        (y * W + x, color): Element("field", {"x": str(x), "y": str(y), "content": COLORS[color]}).freeze()
        for y in range(SIZE) for x in range(SIZE) for color in range(4)
    }


_FIELDS = _field_elements()


def board_element(position: BlokusPosition) -> Element:
    """Only occupied fields, y ascending then x ascending."""
    occupied = position.occupied
    colour_of = {}
    for color in range(4):
        mask = occupied[color]
        while mask:
            low = mask & -mask
            colour_of[low.bit_length() - 1] = color
            mask ^= low
    return Element("board", children=[_FIELDS[index, colour_of[index]] for index in sorted(colour_of)])


_ROW = (1 << SIZE) - 1
_FIELD_TEXTS: dict[int, list[tuple[str, ...]]] = {}


def _field_texts(depth: int) -> list[tuple[str, ...]]:
    """``_field_texts(depth)[bit index][colour]``: a field's text at ``depth``, built once."""
    texts = _FIELD_TEXTS.get(depth)
    if texts is None:
        texts = [("", "", "", "")] * (SIZE * W)
        for (index, color), field in _FIELDS.items():
            row = list(texts[index])
            row[color] = field.render(depth)
            texts[index] = tuple(row)
        _FIELD_TEXTS[depth] = texts
    return texts


class StateTextParts:
    """The parts of ``state_element(position).render(depth)``, written straight to text, for
    the memento the server sends after every move; a season's renderer puts them in its order.

    Why: a late-game board has some 200 ``<field>`` elements, and walking them costs far more
    than the rest of a move.  Pieces are only ever added, and one placement touches at most five
    rows, so the text of each board row is kept and rebuilt only when that row's four colour
    masks changed; the shape lists are kept per remaining-shapes mask.
    """

    __slots__ = ("_depth", "_occupied", "_rows", "_texts", "set_class", "skip_class")

    def __init__(self, set_class: str, skip_class: str) -> None:
        self._depth = -1
        self.set_class, self.skip_class = set_class, skip_class

    def start(self, depth: int) -> None:
        """Call first for every state: a new depth starts the caches afresh."""
        if depth != self._depth:
            self._reset(depth)

    def _reset(self, depth: int) -> None:
        self._depth = depth
        self._occupied = (0, 0, 0, 0)  # the board the row texts were built for
        self._rows: list[str] = [""] * SIZE
        self._texts: dict[tuple, str] = {}  # shape lists, lastMoveMono, validColors by content

    def board(self, occupied: list[int], depth: int) -> str:
        o0, o1, o2, o3 = occupied
        before = self._occupied
        changed = (o0 ^ before[0]) | (o1 ^ before[1]) | (o2 ^ before[2]) | (o3 ^ before[3])
        if changed:
            self._occupied = (o0, o1, o2, o3)
            rows, fields = self._rows, _field_texts(depth + 2)
            first = ((changed & -changed).bit_length() - 1) // W
            for y in range(first, (changed.bit_length() - 1) // W + 1):
                shift = y * W
                a, b, c = (o0 >> shift) & _ROW, (o1 >> shift) & _ROW, (o2 >> shift) & _ROW
                row = a | b | c | ((o3 >> shift) & _ROW)
                parts = []
                while row:
                    low = row & -row
                    row ^= low
                    color = 0 if a & low else 1 if b & low else 2 if c & low else 3
                    parts.append(fields[shift + low.bit_length() - 1][color])
                rows[y] = "".join(parts)
        text = "".join(self._rows)
        indent = "\n" + "  " * (depth + 1)
        return indent + ("<board>" + text + indent + "</board>" if text else "<board/>")

    def cached(self, key: tuple, build, depth: int) -> str:
        text = self._texts.get(key)
        if text is None:
            text = self._texts[key] = build().render(depth + 1)
        return text

    def last_move(self, last: Move | None, depth: int) -> str:
        """``<lastMove>`` ("" when there is none)."""
        if isinstance(last, SetMove):  # enum names and numbers: nothing to escape
            indent = "\n" + "  " * depth
            inner = indent + "    "
            return (
                f'{indent}  <lastMove class="{self.set_class}">{inner}<piece color="{COLORS[last.color]}" '
                f'kind="{SHAPE_NAMES[last.kind]}" rotation="{ROTATIONS[last.rotation]}" '
                f'isFlipped="{"true" if last.flipped else "false"}">{inner}  <position x="{last.x}" y="{last.y}"/>'
                f'{inner}</piece>{indent}  </lastMove>'
            )
        if last is not None:
            return move_element(last, self.set_class, self.skip_class, "lastMove").render(depth + 1)
        return ""

    def mono(self, position: BlokusPosition, depth: int) -> str:
        mono = tuple(position.last_move_mono.items())
        return self.cached(("mono", mono), lambda: last_move_mono(position), depth)

    def shape_lists(self, position: BlokusPosition, depth: int) -> str:
        parts = []
        for color, tag in enumerate(SHAPE_LISTS):
            shapes = position.undeployed[color]
            parts.append(self.cached((tag, shapes), lambda: shape_list(tag, shapes), depth))
        return "".join(parts)

    def valid(self, position: BlokusPosition, depth: int) -> str:
        valid = tuple(position.valid)
        return self.cached(("valid", valid), lambda: valid_colors(position), depth)


def last_move_mono(position: BlokusPosition) -> Element:
    return Element("lastMoveMono", children=[
        Element("entry", children=[_COLOR_ELEMENTS[color], Element("boolean", text="true" if mono else "false")])
        for color, mono in position.last_move_mono.items()
    ])


def shape_list(tag: str, undeployed: int) -> Element:
    return Element(tag, children=[_SHAPE_ELEMENTS[k] for k in _kinds(undeployed)])


def valid_colors(position: BlokusPosition) -> Element:
    return Element("validColors", children=[_COLOR_ELEMENTS[c] for c in position.valid_colors()])


def shape_lists(position: BlokusPosition) -> list[Element]:
    return [shape_list(tag, position.undeployed[color]) for color, tag in enumerate(SHAPE_LISTS)]


class StateParts:
    """What a memento ``<state>`` of either season holds, read leniently (ValueError if broken)."""

    def __init__(self, state: Element, set_class: str, skip_class: str):
        try:
            self.turn = int(state.attrs.get("turn", "0"))
            if self.turn < 0:
                raise ValueError(f"negative turn {self.turn}")
            self.start_piece = SHAPE_INDEX[state.attrs["startPiece"]]
            self.occupied = [0, 0, 0, 0]
            board = state.find("board")
            for field in board.findall("field") if board is not None else []:
                x, y = int(field.attrs["x"]), int(field.attrs["y"])
                if not (0 <= x < SIZE and 0 <= y < SIZE):
                    raise ValueError(f"field off the board at ({x}, {y})")
                content = field.attrs.get("content", "EMPTY")
                if content != "EMPTY":
                    self.occupied[COLOR_INDEX[content]] |= _bit(x, y)
            self.undeployed = [0, 0, 0, 0]
            for color, tag in enumerate(SHAPE_LISTS):
                shapes = state.find(tag)
                for shape in shapes.findall("shape") if shapes is not None else []:
                    self.undeployed[color] |= 1 << SHAPE_INDEX[shape.text.strip()]
            colors = state.find("validColors")
            self.valid = [True] * 4 if colors is None else [False] * 4
            for color in colors.findall("color") if colors is not None else []:
                self.valid[COLOR_INDEX[color.text.strip()]] = True
            self.mono: dict[int, bool] = {}
            mono_element = state.find("lastMoveMono")
            for entry in mono_element.findall("entry") if mono_element is not None else []:
                color_el, bool_el = entry.find("color"), entry.find("boolean")
                if color_el is None or bool_el is None:
                    raise ValueError("<lastMoveMono> entry without <color> or <boolean>")
                self.mono[COLOR_INDEX[color_el.text.strip()]] = bool_el.text.strip() == "true"
            last = state.find("lastMove")
            self.last_move = decode_move(last, set_class, skip_class) if last is not None else None
        except (KeyError, AttributeError, MalformedMove) as error:
            raise ValueError(f"not a Blokus state: {error!r}") from error

    def position(self, cls):
        return cls(self.start_piece, self.turn, self.occupied, self.undeployed, self.valid, self.mono, self.last_move)


class BlokusSeatGame(PositionGame):
    """One room's game of either season: a position plus the display names the server sets;
    a season adds its move decoding, state, result and winner (``decode_move``, ``outcome``,
    ``state_element``, ``state_text``, ``winner_element``).  Four colours on two seats: the seat
    to move is the team of the colour to move."""

    __slots__ = ("_renderer",)
    violation, move_type, game_name = RuleViolation, (SetMove, SkipMove), "a Blokus"

    def __init__(self, position: BlokusPosition, names: tuple[str, str] = ("", "")):
        super().__init__(position, names)
        self._renderer = None

    def snapshot(self):
        """A copy later moves do not change (the viewer keeps one per state)."""
        return type(self)(self.position.copy(), self.names)

    @property
    def current_seat(self) -> int:
        return self.position.current_team

    def move_text(self, move: Move) -> str:
        return str(move)

    def mistake(self, violation: RuleViolation, move: object) -> InvalidMove:
        """InvalidMove carries the exception message (``reason``) and its toString (``detail``),
        as both seasons' servers report them."""
        return InvalidMove(violation.message, violation.detail)

    def score_parts(self, seat: int) -> list[str]:
        return [str(self.position.team_points(seat))]


def greedy_move(game: BlokusSeatGame, rng: random.Random) -> Move | None:
    """The greedy bot of both seasons: a random placement among those of the largest remaining
    piece size."""
    moves = game.position.legal_moves()
    if not moves:
        return None
    largest = max(SHAPE_SIZES[m.kind] for m in moves)
    return rng.choice([m for m in moves if SHAPE_SIZES[m.kind] == largest])


def describe(position: BlokusPosition, verdict: str | None) -> str:
    """The text board of both seasons: turn, round, who moves (or ``verdict`` once over), the
    points, the colours in play and the board with coordinates."""
    points = f"points ONE {position.team_points(0)}, TWO {position.team_points(1)}"
    if verdict is not None:
        head = f"turn {position.turn}, round {position.round}, game over: {verdict} ({points})"
    else:
        color, team = COLORS[position.current_color], ("ONE", "TWO")[position.current_team]
        head = f"turn {position.turn}, round {position.round}, {color} ({team}) to move, {points}"
    valid = " ".join(COLORS[c] for c in position.valid_colors()) or "none"
    board = with_coordinates(position.text(), y_up=False)  # x, y of a SetMove: its top-left corner
    return f"{head}\nin play: {valid}\n{board}"
