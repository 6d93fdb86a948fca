"""Piranhas 2019 XML mapping: moves in, mementos out, exactly as the 19.2.1 server (spec §10).

Named ``xmlmap`` rather than ``xml`` so it never shadows the standard library package.

The server renders one state per move for every room, so :class:`StateRenderer` keeps the
expensive part cheap: the 400 possible ``<field>`` Elements are built once per process, and each
game keeps its ten ``<fields>`` column Elements, rebuilding only the columns whose cells changed.
Elements handed out are shared and must be treated as immutable.

Spec-conformance notes (where §10/§6 are silent):

* Integers are read the way XStream's int converter reads them (``Long.decode``): optional
  sign, ``0x``/``0X``/``#`` hex, a leading ``0`` means octal, values from -2**31 to 2**32-1
  accepted and wrapped to a Java int.  Anything else (spaces, ``1.0``, empty) is MalformedMove.
  Only ASCII digits are accepted (Java would also take other Unicode digits).
* A missing ``x`` or ``y`` attribute leaves the Java int at its default, 0 (XStream creates the
  object without a constructor); a missing or unknown ``direction`` is MalformedMove (null enum
  -> crash in the rule code -> LEFT).
* Child elements other than ``<hint>`` are MalformedMove.  A ``<hint>`` without ``content``
  keeps ``None`` and is echoed as ``<hint/>``.  Text content and unknown attributes are ignored.
"""

from __future__ import annotations

from swc_local.games.plugin import MalformedMove
from swc_local.games.piranhas.rules import (
    BLUE, COLOR_NAMES, DIRECTIONS, RED, SIZE, STATE_NAMES, Move, Position,
)
from swc_local.protocol.element import Element, end_tag, start_tag
from swc_local.protocol.xstream import java_int

STATE_CLASS = "sc.plugin2019.GameState"
_DIRECTIONS_BY_NAME = {d.name: d for d in DIRECTIONS}
_STATES_BY_NAME = {name: i for i, name in enumerate(STATE_NAMES)}
_COLORS_BY_NAME = {"RED": RED, "BLUE": BLUE}

FIELD_ELEMENTS = [
    [Element("field", {"x": str(c // SIZE), "y": str(c % SIZE), "state": name}).freeze() for name in STATE_NAMES]
    for c in range(100)
]
LINE_ELEMENT = Element("line", text="------------").freeze()
_FIELD_TEXTS: dict[int, list[list[str]]] = {}


def _field_texts(depth: int) -> list[list[str]]:
    """The text of every ``FIELD_ELEMENTS`` entry at ``depth``, built once per depth."""
    texts = _FIELD_TEXTS.get(depth)
    if texts is None:
        texts = _FIELD_TEXTS[depth] = [[field.render(depth) for field in cell] for cell in FIELD_ELEMENTS]
    return texts


def _int(text: str) -> int:
    """An int attribute as XStream reads it; MalformedMove where Java would throw."""
    try:
        return java_int(text)
    except ValueError as error:
        raise MalformedMove(str(error)) from None


def decode_move(data: Element) -> Move:
    """``<data class="move" x y direction>[<hint content/>...]`` -> Move, or MalformedMove."""
    direction = _DIRECTIONS_BY_NAME.get(data.attrs.get("direction", ""))
    if direction is None:
        raise MalformedMove(f"bad or missing direction: {data.attrs.get('direction')!r}")
    x = _int(data.attrs["x"]) if "x" in data.attrs else 0
    y = _int(data.attrs["y"]) if "y" in data.attrs else 0
    hints = []
    for child in data.children:
        if child.tag != "hint" or child.children:
            raise MalformedMove(f"unexpected element <{child.tag}> in a move")
        hints.append(child.attrs.get("content"))
    return Move(x, y, direction, tuple(hints))


def move_element(move: Move, tag: str = "data") -> Element:
    """The move as a client sends it (``<data class="move">``) or as ``<lastMove>``."""
    element = Element(
        tag, {"class": "move", "x": str(move.x), "y": str(move.y), "direction": move.direction.name}
    )
    for content in move.hints:
        element.children.append(Element("hint", {} if content is None else {"content": content}))
    return element


def player_element(tag: str, name: str, color: int) -> Element:
    return Element(tag, {"displayName": name, "color": COLOR_NAMES[color]})


class StateRenderer:
    """Builds ``<state>`` Elements for one game, reusing unchanged ``<fields>`` columns.

    :meth:`text` writes the same state straight to text, for the server's memento of every
    move: it joins the cached text of the columns and of the two players instead of building and
    walking a fresh tree (a third of the CPU a move cost the server went into that walk).
    """

    __slots__ = ("_cells", "_columns", "_players", "_texts", "_text_depth")

    def __init__(self) -> None:
        self._cells = b""  # the board the columns were built for
        self._columns: list[Element | None] = [None] * SIZE
        self._players: tuple[tuple[str, str], int, str] | None = None  # (names, depth, text)
        self._texts: list[str | None] = [None] * SIZE  # the columns' text at _text_depth
        self._text_depth = -1

    def _update(self, cells: bytearray) -> None:
        """Rebuild the columns whose cells changed since the last call (a move changes two)."""
        current = bytes(cells)
        before = self._cells
        if current == before:
            return
        if len(before) != len(current):
            changed = range(SIZE)
        else:  # the differing bytes of the two boards, found by one XOR of two 100-byte ints
            diff = int.from_bytes(before, "little") ^ int.from_bytes(current, "little")
            changed = []
            while diff:
                x = ((diff & -diff).bit_length() - 1) // 8 // SIZE  # the lowest differing cell's column
                changed.append(x)
                diff &= ~(((1 << (8 * SIZE)) - 1) << (8 * SIZE * x))
        columns, texts = self._columns, self._texts
        for x in changed:
            columns[x] = texts[x] = None  # rebuilt when asked for
        self._cells = current

    def board(self, cells: bytearray) -> Element:
        self._update(cells)
        columns, current = self._columns, self._cells
        for x in range(SIZE):
            if columns[x] is None:
                base = x * SIZE
                columns[x] = Element(
                    "fields", children=[FIELD_ELEMENTS[base + y][current[base + y]] for y in range(SIZE)]
                ).freeze()  # rendered once, reused while the column is unchanged
        return Element("board", children=[*columns, LINE_ELEMENT])

    def text(self, position: Position, names: tuple[str, str], depth: int) -> str:
        """``self.state(position, names).render(depth)``, byte for byte, without the tree."""
        self._update(position.cells)
        players = self._players
        if players is None or players[0] != names or players[1] != depth:
            rendered = player_element("red", names[0], RED).render(depth + 1)
            rendered += player_element("blue", names[1], BLUE).render(depth + 1)
            self._players = players = (names, depth, rendered)
        indent = "\n" + "  " * depth
        attrs = {"class": STATE_CLASS, "startPlayerColor": "RED",
                 "currentPlayerColor": COLOR_NAMES[position.current], "turn": str(position.turn)}
        parts = [start_tag("state", attrs, depth)]
        last = position.last_move
        if last is not None:
            if last.hints:
                parts.append(move_element(last, "lastMove").render(depth + 1))
            else:  # numbers and enum names: nothing to escape
                parts.append(
                    f'{indent}  <lastMove class="move" x="{last.x}" y="{last.y}" direction="{last.direction.name}"/>'
                )
        parts.append(players[2])
        parts.append(indent + "  <board>")
        texts = self._texts
        if self._text_depth != depth:
            texts[:] = [None] * SIZE
            self._text_depth = depth
        current = self._cells
        for x, text in enumerate(texts):
            if text is None:
                fields = _field_texts(depth + 3)
                base = x * SIZE
                column_indent = indent + "    "
                text = texts[x] = (
                    column_indent + "<fields>"
                    + "".join([fields[base + y][current[base + y]] for y in range(SIZE)])
                    + column_indent + "</fields>"
                )
            parts.append(text)
        parts.append(LINE_ELEMENT.render(depth + 2))
        parts.append(indent + "  </board>" + end_tag("state", depth))
        return "".join(parts)

    def state(self, position: Position, names: tuple[str, str]) -> Element:
        children = []
        if position.last_move is not None:
            children.append(move_element(position.last_move, "lastMove"))
        children.append(player_element("red", names[0], RED))
        children.append(player_element("blue", names[1], BLUE))
        children.append(self.board(position.cells))
        return Element(
            "state",
            {
                "class": STATE_CLASS,
                "startPlayerColor": "RED",
                "currentPlayerColor": COLOR_NAMES[position.current],
                "turn": str(position.turn),
            },
            children,
        )


def position_from_state(state: Element) -> tuple[Position, tuple[str, str]]:
    """Rebuild a position and the display names from a memento's ``<state>``.

    Raises ValueError when the state is not a complete Piranhas 2019 state.
    """
    try:
        turn = int(state.attrs.get("turn", "0"))
        current = _COLORS_BY_NAME[state.attrs.get("currentPlayerColor", "RED")]
        board = state.find("board")
        if board is None:
            raise ValueError("state without <board>")
        cells = bytearray(100)
        seen = set()
        for column in board.findall("fields"):
            for field in column.findall("field"):
                x, y = int(field.attrs["x"]), int(field.attrs["y"])
                if not (0 <= x < SIZE and 0 <= y < SIZE):
                    raise ValueError(f"field ({x},{y}) off the board")
                cells[x * SIZE + y] = _STATES_BY_NAME[field.attrs["state"]]
                seen.add((x, y))
        if len(seen) != 100:
            raise ValueError(f"board has {len(seen)} distinct fields, not 100")
        last = state.find("lastMove")
        last_move = decode_move(last) if last is not None else None
    except (KeyError, MalformedMove) as error:
        raise ValueError(f"not a Piranhas 2019 state: {error}") from error
    names = tuple(
        (player.attrs.get("displayName", "Unknown") if player is not None else "Unknown")
        for player in (state.find("red"), state.find("blue"))
    )
    return Position(cells, turn, current, last_move), names  # type: ignore[return-value]

