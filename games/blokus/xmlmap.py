"""Blokus 2027 XML mapping: moves in, mementos out, exactly as the 27.0.4 server (spec §8).

Named ``xmlmap`` rather than ``xml`` so it never shadows the standard library package.

Move classes are the Java class names ``sc.plugin2027.SetMove`` and ``sc.plugin2027.SkipMove``;
the aliases ``setmove``/``skipmove`` in the official source are never registered, so a client
sending them is dropped by the room (``PROTOCOL_ERROR``, golden ``blokus_alias_setmove``).

Conformance notes (where §8 is silent; what XStream does with the 27.0.4 classes):

* An unknown enum value (colour, kind, rotation), a non-integer coordinate or an unknown child
  element is an XStream conversion error: :class:`MalformedMove` with cause ``PROTOCOL_ERROR``
  (captured for a bad colour in ``endgames/colour_removed``).
* A missing ``<piece>``, ``<position>``, ``color``, ``kind`` or ``rotation`` leaves a Kotlin
  non-null field null, and the server's rule code fails on it: MalformedMove with cause
  ``UNKNOWN``.  A missing ``isFlipped`` is false, a missing ``x``/``y`` is 0 (Java defaults).
* ``isFlipped`` is read as ``Boolean.valueOf``: only ``true`` (any case) is true.
* ``lastMoveMono`` entries are written in the order the colours finished (a Kotlin map keeps
  insertion order).
"""

from __future__ import annotations

from swc_local.games.blokus.rules import (
    COLOR_INDEX,
    COLORS,
    ROTATION_INDEX,
    ROTATIONS,
    SHAPE_INDEX,
    SHAPE_NAMES,
    SIZE,
    W,
    Move,
    Position,
    SetMove,
    SkipMove,
    _bit,
    _kinds,
)
from swc_local.games.plugin import MalformedMove
from swc_local.protocol.element import Element, end_tag, start_tag
from swc_local.protocol.xstream import java_int

SET_MOVE_CLASS = "sc.plugin2027.SetMove"
SKIP_MOVE_CLASS = "sc.plugin2027.SkipMove"
MOVE_CLASSES = frozenset({SET_MOVE_CLASS, SKIP_MOVE_CLASS})
STATE_CLASS = "state"
_SHAPE_LISTS = ("blueShapes", "yellowShapes", "redShapes", "greenShapes")
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


def decode_move(data: Element) -> Move:
    """A ``<data class="sc.plugin2027.SetMove|SkipMove">`` (or ``<lastMove>``) -> Move."""
    data_class = data.get("class")
    if data_class == SKIP_MOVE_CLASS:
        _only_children(data, ("color",))
        color = data.find("color")
        return SkipMove(_required(_enum(None if color is None else color.text, COLOR_INDEX, "colour"), "colour"))
    if data_class != SET_MOVE_CLASS:
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


def move_element(move: Move, tag: str = "data") -> Element:
    """The move as socha 5.1.0 sends it (``tag="data"``) or as the state's ``<lastMove>``."""
    if isinstance(move, SkipMove):
        return Element(tag, {"class": SKIP_MOVE_CLASS}, [_COLOR_ELEMENTS[move.color]])
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
    return Element(tag, {"class": SET_MOVE_CLASS}, [piece])


def _field_elements() -> dict[tuple[int, int], Element]:
    """One frozen ``<field>`` per (bit index, colour): shared by every memento, rendered once."""
    return {
        (y * W + x, color): Element("field", {"x": str(x), "y": str(y), "content": COLORS[color]}).freeze()
        for y in range(SIZE) for x in range(SIZE) for color in range(4)
    }


_FIELDS = _field_elements()


def board_element(position: Position) -> Element:
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


class StateTextRenderer:
    """Writes ``state_element(position).render(depth)`` straight to text, for the memento the
    server sends after every move.

    Why: a late-game board has some 200 ``<field>`` elements, and walking them costs far more
    than the rest of a move.  Pieces are only ever added, and one placement touches at most five
    rows, so the text of each board row is kept and rebuilt only when that row's four colour
    masks changed; the shape lists are kept per remaining-shapes mask.
    """

    __slots__ = ("_depth", "_occupied", "_rows", "_texts")

    def __init__(self) -> None:
        self._depth = -1

    def _reset(self, depth: int) -> None:
        self._depth = depth
        self._occupied = (0, 0, 0, 0)  # the board the row texts were built for
        self._rows: list[str] = [""] * SIZE
        self._texts: dict[tuple, str] = {}  # shape lists, lastMoveMono, validColors by content

    def _board(self, occupied: list[int], depth: int) -> str:
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

    def _cached(self, key: tuple, build, depth: int) -> str:
        text = self._texts.get(key)
        if text is None:
            text = self._texts[key] = build().render(depth + 1)
        return text

    def text(self, position: Position, depth: int) -> str:
        if depth != self._depth:
            self._reset(depth)
        indent = "\n" + "  " * depth
        parts = [start_tag("state", _state_attrs(position), depth)]
        last = position.last_move
        if isinstance(last, SetMove):  # enum names and numbers: nothing to escape
            inner = indent + "    "
            parts.append(
                f'{indent}  <lastMove class="{SET_MOVE_CLASS}">{inner}<piece color="{COLORS[last.color]}" '
                f'kind="{SHAPE_NAMES[last.kind]}" rotation="{ROTATIONS[last.rotation]}" '
                f'isFlipped="{"true" if last.flipped else "false"}">{inner}  <position x="{last.x}" y="{last.y}"/>'
                f'{inner}</piece>{indent}  </lastMove>'
            )
        elif last is not None:
            parts.append(move_element(last, "lastMove").render(depth + 1))
        parts.append(self._board(position.occupied, depth))
        mono = tuple(position.last_move_mono.items())
        parts.append(self._cached(("mono", mono), lambda: _last_move_mono(position), depth))
        for color, tag in enumerate(_SHAPE_LISTS):
            shapes = position.undeployed[color]
            parts.append(self._cached((tag, shapes), lambda: _shape_list(tag, shapes), depth))
        valid = tuple(position.valid)
        parts.append(self._cached(("valid", valid), lambda: _valid_colors(position), depth))
        parts.append(end_tag("state", depth))
        return "".join(parts)


def _last_move_mono(position: Position) -> Element:
    return Element("lastMoveMono", children=[
        Element("entry", children=[_COLOR_ELEMENTS[color], Element("boolean", text="true" if mono else "false")])
        for color, mono in position.last_move_mono.items()
    ])


def _shape_list(tag: str, undeployed: int) -> Element:
    return Element(tag, children=[_SHAPE_ELEMENTS[k] for k in _kinds(undeployed)])


def _valid_colors(position: Position) -> Element:
    return Element("validColors", children=[_COLOR_ELEMENTS[c] for c in position.valid_colors()])


def state_element(position: Position) -> Element:
    """The memento's ``<state class="state" startTeam turn startPiece round>``."""
    children = []
    if position.last_move is not None:
        children.append(move_element(position.last_move, "lastMove"))
    children.append(board_element(position))
    children.append(_last_move_mono(position))
    for color, tag in enumerate(_SHAPE_LISTS):
        children.append(_shape_list(tag, position.undeployed[color]))
    children.append(_valid_colors(position))
    return Element("state", _state_attrs(position), children)


def _state_attrs(position: Position) -> dict[str, str]:
    return {
        "class": STATE_CLASS,
        "startTeam": "ONE",
        "turn": str(position.turn),
        "startPiece": SHAPE_NAMES[position.start_piece],
        "round": str(position.round),
    }


def position_from_state(state: Element) -> Position:
    """Rebuild a position from a memento's ``<state>``; ValueError if it is not a Blokus 2027 state."""
    try:
        turn = int(state.attrs.get("turn", "0"))
        if turn < 0:
            raise ValueError(f"negative turn {turn}")
        start_team = state.get("startTeam", "ONE")
        if start_team != "ONE":
            raise ValueError("only startTeam ONE is supported")
        start_piece = SHAPE_INDEX[state.attrs["startPiece"]]
        occupied = [0, 0, 0, 0]
        board = state.find("board")
        for field in board.findall("field") if board is not None else []:
            x, y = int(field.attrs["x"]), int(field.attrs["y"])
            if not (0 <= x < SIZE and 0 <= y < SIZE):
                raise ValueError(f"field off the board at ({x}, {y})")
            content = field.attrs.get("content", "EMPTY")
            if content != "EMPTY":
                occupied[COLOR_INDEX[content]] |= _bit(x, y)
        undeployed = [0, 0, 0, 0]
        for color, tag in enumerate(_SHAPE_LISTS):
            shapes = state.find(tag)
            for shape in shapes.findall("shape") if shapes is not None else []:
                undeployed[color] |= 1 << SHAPE_INDEX[shape.text.strip()]
        valid = [False] * 4
        colors = state.find("validColors")
        if colors is None:
            valid = [True] * 4
        else:
            for color in colors.findall("color"):
                valid[COLOR_INDEX[color.text.strip()]] = True
        mono: dict[int, bool] = {}
        mono_element = state.find("lastMoveMono")
        for entry in mono_element.findall("entry") if mono_element is not None else []:
            color_el, bool_el = entry.find("color"), entry.find("boolean")
            if color_el is None or bool_el is None:
                raise ValueError("<lastMoveMono> entry without <color> or <boolean>")
            mono[COLOR_INDEX[color_el.text.strip()]] = bool_el.text.strip() == "true"
        last = state.find("lastMove")
        last_move = decode_move(last) if last is not None else None
    except (KeyError, AttributeError, MalformedMove) as error:
        raise ValueError(f"not a Blokus 2027 state: {error!r}") from error
    return Position(start_piece, turn, occupied, undeployed, valid, mono, last_move)
