"""Piranhas 2026 XML mapping: moves in, mementos out, exactly as the 26.1.0 server (spec §7).

Named ``xmlmap`` rather than ``xml`` so it never shadows the standard library package.

A memento is rendered once per move for every room, so the eight ``<field>`` Elements are built
once per process and each game keeps its ten ``<row>`` Elements, rebuilding only rows whose
fields changed (rendered rows are frozen and reused).

Spec-conformance notes (where §6/§7 are silent):

* How a move fails to decode decides the cause the opponent's result names (spec §6, captured
  ``invalid_direction``/``invalid_format``/``invalid_offboard``).  XStream itself rejects what it
  cannot convert -- an unknown direction name, an unparseable coordinate, an unknown child
  element -- and the server drops the connection as ``PROTOCOL_ERROR``.  A move XStream can build
  but the rule code crashes on -- no ``<direction>``, no ``<from>``, a start off the board -- drops
  it as ``UNKNOWN``.  Both are :class:`DroppedMove` with that ``cause``.
* Coordinates are read as XStream's int converter reads them (shared with the 2019 season:
  ``Long.decode`` syntax, wrapped to a Java int); a missing ``x``/``y`` attribute stays 0, as
  XStream leaves a field it does not find at its default.
* A move without ``<direction>`` is dropped as ``UNKNOWN`` even when its start field is not the
  mover's (spec §6 states the drop without a condition; the official code might first report
  ``WRONG_START`` with ``Richtung null`` there -- not captured).
* Unknown attributes are ignored (XStream ignores attributes it has no field for).
"""

from __future__ import annotations

from swc_local.games.plugin import MalformedMove
from swc_local.games.piranhas_2026.rules import (
    DIRECTIONS, FIELD_NAMES, SIZE, TEAM_NAMES, GameState, Move,
)
from swc_local.protocol.element import Element, end_tag, start_tag
from swc_local.protocol.xstream import java_int

STATE_CLASS = "state"
MOVE_CLASS = "move"
UNKNOWN = "UNKNOWN"
PROTOCOL_ERROR = "PROTOCOL_ERROR"

_DIRECTIONS_BY_NAME = {d.name: d for d in DIRECTIONS}
_FIELDS_BY_NAME = {name: value for value, name in enumerate(FIELD_NAMES)}
_TEAMS_BY_NAME = {name: team for team, name in enumerate(TEAM_NAMES)}
FIELD_ELEMENTS = tuple(Element("field", text=name).freeze() for name in FIELD_NAMES)


class DroppedMove(MalformedMove):
    """The move cannot be performed at all; the server closes the mover's connection.

    ``cause`` is the leave cause the opponent's result names: ``UNKNOWN`` (the rule code
    crashed) or ``PROTOCOL_ERROR`` (XStream could not convert the message).
    """

    def __init__(self, detail: str, cause: str) -> None:
        super().__init__(detail, cause)


def _coordinate(from_element: Element, name: str) -> int:
    text = from_element.attrs.get(name)
    if text is None:
        return 0
    try:
        return java_int(text)
    except ValueError:
        raise DroppedMove(f"from {name}={text!r} is not an int", PROTOCOL_ERROR) from None


def decode_move(data: Element) -> Move:
    """``<data class="move"><from x y/><direction>D</direction></data>`` -> Move, or DroppedMove."""
    from_element = direction_element = None
    for child in data.children:
        if child.tag == "from":
            from_element = child
        elif child.tag == "direction":
            direction_element = child
        else:
            raise DroppedMove(f"unexpected element <{child.tag}> in a move", PROTOCOL_ERROR)
    direction = None
    if direction_element is not None:
        direction = _DIRECTIONS_BY_NAME.get(direction_element.text)
        if direction is None:
            raise DroppedMove(f"unknown direction {direction_element.text!r}", PROTOCOL_ERROR)
    x = y = 0
    if from_element is not None:
        x, y = _coordinate(from_element, "x"), _coordinate(from_element, "y")
    if direction is None:
        raise DroppedMove("a move without <direction>", UNKNOWN)
    if from_element is None:
        raise DroppedMove("a move without <from>", UNKNOWN)
    return Move(x, y, direction)


def move_body(move: Move) -> list[Element]:
    return [
        Element("from", {"x": str(move.x), "y": str(move.y)}),
        Element("direction", text=move.direction.name),
    ]


def move_element(move: Move, tag: str = "data") -> Element:
    """The move as a client sends it (``<data class="move">``) or as the state's ``<lastMove>``."""
    attrs = {"class": MOVE_CLASS} if tag == "data" else {}
    return Element(tag, attrs, move_body(move))


class StateRenderer:
    """Builds ``<state>`` Elements for one game, reusing the ``<row>`` Elements that did not change."""

    __slots__ = ("_keys", "_rows", "_texts", "_depth")

    def __init__(self) -> None:
        self._keys: list[tuple[int, ...] | None] = [None] * SIZE
        self._rows: list[Element | None] = [None] * SIZE
        self._texts: list[str | None] = [None] * SIZE  # the rows' text at _depth + 2
        self._depth = -1

    def text(self, state: GameState, depth: int) -> str:
        """``self.state(state).render(depth)``, byte for byte, joining the rows' kept text (the
        memento the server sends after every move)."""
        self.board(state.cells)
        texts = self._texts
        if depth != self._depth:
            texts[:] = [None] * SIZE
            self._depth = depth
        indent = "\n" + "  " * depth
        parts = [start_tag("state", _state_attrs(state), depth)]
        if state.last_move is not None:
            parts.append(move_element(state.last_move, "lastMove").render(depth + 1))
        parts.append(indent + "  <board>")
        for y, text in enumerate(texts):
            if text is None:
                text = texts[y] = self._rows[y].render(depth + 2)  # type: ignore[union-attr]
            parts.append(text)
        parts.append(indent + "  </board>" + end_tag("state", depth))
        return "".join(parts)

    def board(self, cells: list[int]) -> Element:
        for y in range(SIZE):
            key = tuple(cells[y * SIZE : y * SIZE + SIZE])
            if self._keys[y] != key:
                self._rows[y] = Element("row", children=[FIELD_ELEMENTS[v] for v in key]).freeze()
                self._keys[y] = key
                self._texts[y] = None
        return Element("board", children=list(self._rows))  # type: ignore[arg-type]

    def state(self, state: GameState) -> Element:
        attrs = _state_attrs(state)
        children = []
        if state.last_move is not None:
            children.append(move_element(state.last_move, "lastMove"))
        children.append(self.board(state.cells))
        return Element("state", attrs, children)


def _state_attrs(state: GameState) -> dict[str, str]:
    attrs = {"class": STATE_CLASS, "startTeam": "ONE", "turn": str(state.turn)}
    if state.first_union is not None:
        attrs["firstUnion"] = TEAM_NAMES[state.first_union]
    return attrs


def state_from_element(state: Element) -> GameState:
    """Rebuild a game state from a memento's ``<state>``; ValueError if it is not a 2026 state."""
    try:
        turn = int(state.attrs.get("turn", "0"))
        union_name = state.attrs.get("firstUnion")
        first_union = None if union_name is None else _TEAMS_BY_NAME[union_name]
        board = state.find("board")
        if board is None:
            raise ValueError("state without <board>")
        rows = board.findall("row")
        if len(rows) != SIZE:
            raise ValueError(f"board has {len(rows)} rows, not {SIZE}")
        cells: list[int] = []
        for row in rows:
            fields = row.findall("field")
            if len(fields) != SIZE:
                raise ValueError(f"a row has {len(fields)} fields, not {SIZE}")
            cells.extend(_FIELDS_BY_NAME[field.text.strip()] for field in fields)
        last = state.find("lastMove")
        last_move = decode_move(last) if last is not None else None
    except (KeyError, MalformedMove) as error:
        raise ValueError(f"not a Piranhas 2026 state: {error}") from error
    return GameState(cells, turn, first_union, last_move)
