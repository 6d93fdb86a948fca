"""Hive 2020 XML mapping: moves in, mementos out, as the official 20.final server (spec §3, §9).

A move read from the wire is a :class:`WireMove`: the rules' move plus the children XStream
would write back for the object it read, because the server echoes the *received object* in
``lastMove`` and ``originalRequest`` (spec §3, defect 4): a Java client's
``<destination class="field" ... isObstructed>`` with its pieces comes back as sent, a wrong z
too.

Spec-conformance notes (where §3 is silent, what XStream does with the 20.final classes):

* Classes: ``setmove``, ``dragmove``, ``skipmove`` and their full names
  ``sc.plugin2020.SetMove`` etc.; the echo always uses the alias.
* Integers are read as XStream's int converter reads them
  (:func:`swc_local.protocol.xstream.java_int`); a missing coordinate attribute is 0 (XStream
  leaves the Java default), and the echo writes the numbers in decimal, as XStream re-serializes
  them.  A wrong number, an unknown owner or type, a missing ``piece``, ``start`` or
  ``destination`` (null in the rule code), an unknown child element, a second element of the same
  name (``DuplicateFieldException``) or a coordinate ``class`` other than ``field`` is
  :class:`MalformedMove`: the official server dropped the sender, LEFT.
* ``<hint>text</hint>`` keeps its text; the docs' ``<hint content="..."/>`` reads as the empty
  string and is echoed ``<hint></hint>`` (spec §3, ``G/hints``).  The hint is echoed first.
* A ``class="field"`` coordinate keeps ``isObstructed`` (Java's lenient boolean: only ``true``
  is true) and its ``<piece>`` children; they play no part in the rules.
"""

from __future__ import annotations

from dataclasses import dataclass

from swc_local.games.hive.rules import (
    CELLS, COLOR_NAMES, INDEX, KIND_NAMES, RADIUS, SKIP, DragMove, Move, Position, SetMove, SkipMove,
)
from swc_local.games.plugin import MalformedMove
from swc_local.protocol.element import Element
from swc_local.protocol.xstream import java_int

STATE_CLASS = "state"
MOVE_CLASSES = {"setmove": "setmove", "sc.plugin2020.SetMove": "setmove", "dragmove": "dragmove",
                "sc.plugin2020.DragMove": "dragmove", "skipmove": "skipmove", "sc.plugin2020.SkipMove": "skipmove"}
_COLORS = {name: i for i, name in enumerate(COLOR_NAMES)}
_KINDS = {name: i for i, name in enumerate(KIND_NAMES)}
_CHILDREN = {"setmove": ("piece", "destination"), "dragmove": ("start", "destination"), "skipmove": ()}


class _ShownEmpty(str):
    """An empty text that still renders as ``<hint></hint>``: XStream writes an empty String
    field with both tags, and :class:`Element` would write ``<hint/>`` for a plain ``""``."""

    def __bool__(self) -> bool:
        return True


EMPTY_HINT = _ShownEmpty("")


@dataclass(frozen=True, slots=True)
class WireMove:
    """A move as received: the rules' move, its class alias, and the children to echo."""

    move: Move
    data_class: str
    children: tuple[Element, ...]

    def text(self) -> str:
        return self.move.text()


def _int(element: Element, name: str) -> int:
    value = element.attrs.get(name)
    if value is None:
        return 0
    try:
        return java_int(value)
    except ValueError as error:
        raise MalformedMove(str(error)) from None


def _piece(element: Element) -> tuple[int, int]:
    color, kind = _COLORS.get(element.attrs.get("owner", "")), _KINDS.get(element.attrs.get("type", ""))
    if color is None or kind is None:
        raise MalformedMove(f"bad piece {element.attrs}")
    return color, kind


def _piece_element(color: int, kind: int) -> Element:
    return Element("piece", {"owner": COLOR_NAMES[color], "type": KIND_NAMES[kind]})


def _coordinates(element: Element) -> tuple[tuple[int, int, int], Element]:
    """The coordinates of ``start``/``destination`` and what XStream writes back for them."""
    x, y, z = _int(element, "x"), _int(element, "y"), _int(element, "z")
    data_class = element.attrs.get("class")
    if data_class is None:
        if element.children:
            raise MalformedMove(f"<{element.tag}> with children")
        return (x, y, z), Element(element.tag, {"x": str(x), "y": str(y), "z": str(z)})
    if data_class != "field":
        raise MalformedMove(f"<{element.tag} class={data_class!r}>")
    obstructed = element.attrs.get("isObstructed", "false").lower() == "true"
    pieces = []
    for child in element.children:
        if child.tag != "piece":
            raise MalformedMove(f"<{child.tag}> in a field")
        pieces.append(_piece_element(*_piece(child)))
    echo = Element(element.tag, {"class": "field", "x": str(x), "y": str(y), "z": str(z),
                                 "isObstructed": "true" if obstructed else "false"}, pieces)
    return (x, y, z), echo


def decode_move(data: Element) -> WireMove:
    """``<data class="setmove|dragmove|skipmove">`` (or a ``lastMove``) -> WireMove, or MalformedMove."""
    data_class = MOVE_CLASSES.get(data.attrs.get("class", ""))
    if data_class is None:
        raise MalformedMove(f"not a move class: {data.attrs.get('class')!r}")
    allowed = ("hint", *_CHILDREN[data_class])
    found: dict[str, Element] = {}
    for child in data.children:
        if child.tag not in allowed:
            raise MalformedMove(f"unexpected element <{child.tag}> in a {data_class}")
        if child.tag in found:
            raise MalformedMove(f"a second <{child.tag}> in a {data_class}")
        found[child.tag] = child
    echo: list[Element] = []
    if "hint" in found:
        echo.append(Element("hint", text=found["hint"].text or EMPTY_HINT))
    if data_class == "skipmove":
        return WireMove(SKIP, data_class, tuple(echo))
    if "destination" not in found or _CHILDREN[data_class][0] not in found:
        raise MalformedMove(f"a {data_class} without {' or '.join(_CHILDREN[data_class])}")
    destination, destination_echo = _coordinates(found["destination"])
    move: Move
    if data_class == "setmove":
        color, kind = _piece(found["piece"])
        echo.append(_piece_element(color, kind))
        move = SetMove(color, kind, destination)
    else:
        start, start_echo = _coordinates(found["start"])
        echo.append(start_echo)
        move = DragMove(start, destination)
    echo.append(destination_echo)
    return WireMove(move, data_class, tuple(echo))


def wire_move(move: Move | WireMove) -> WireMove:
    """A rules move as the official clients send it (plain coordinates, no hint)."""
    if isinstance(move, WireMove):
        return move
    if isinstance(move, SkipMove):
        return WireMove(move, "skipmove", ())
    if isinstance(move, SetMove):
        return WireMove(move, "setmove", (_piece_element(move.color, move.kind), _coordinate("destination", move.destination)))
    return WireMove(move, "dragmove", (_coordinate("start", move.start), _coordinate("destination", move.destination)))


def _coordinate(tag: str, c: tuple[int, int, int]) -> Element:
    return Element(tag, {"x": str(c[0]), "y": str(c[1]), "z": str(c[2])})


def move_element(move: Move | WireMove, tag: str = "data") -> Element:
    wire = wire_move(move)
    return Element(tag, {"class": wire.data_class}, list(wire.children))


def player_element(tag: str, name: str, color: int) -> Element:
    return Element(tag, {"color": COLOR_NAMES[color], "displayName": name})


# -- the state ---------------------------------------------------------------------------------

_PIECE_TEXT: dict[tuple[int, int], str] = {}
_FIELD_TEXT: dict[tuple[int, tuple[int, ...], bool, int], str] = {}


def _piece_text(piece: int, depth: int) -> str:
    key = (piece, depth)
    text = _PIECE_TEXT.get(key)
    if text is None:
        text = _PIECE_TEXT[key] = _piece_element(piece >> 3, piece & 7).render(depth)
    return text


def _field_text(index: int, stack: tuple[int, ...], blocked: bool, depth: int) -> str:
    key = (index, stack, blocked, depth)
    text = _FIELD_TEXT.get(key)
    if text is None:
        x, y = CELLS[index]
        head = f'\n{"  " * depth}<field x="{x}" y="{y}" z="{-x - y}" isObstructed="{"true" if blocked else "false"}"'
        if stack:
            text = head + ">" + "".join(_piece_text(p, depth + 1) for p in stack) + f'\n{"  " * depth}</field>'
        else:
            text = head + "/>"
        if len(_FIELD_TEXT) < 100_000:
            _FIELD_TEXT[key] = text
    return text


_COLUMNS = tuple(tuple(INDEX.get((x, y)) for y in range(-RADIUS, RADIUS + 1)) for x in range(-RADIUS, RADIUS + 1))
_EMPTY_TEXTS: dict[int, list[tuple[str, str]]] = {}


def _board_text(position: Position, depth: int) -> str:
    """The ``<fields>`` columns inside ``<board>`` (they at ``depth``): the text of an empty field is
    built once per process, a field with pieces once per stack (the memento of every move)."""
    empty = _EMPTY_TEXTS.get(depth)
    if empty is None:
        empty = _EMPTY_TEXTS[depth] = [(_field_text(i, (), False, depth + 1), _field_text(i, (), True, depth + 1))
                                       for i in range(len(CELLS))]
    pad = "\n" + "  " * depth
    null, opening, closing = f"{pad}  <null/>", f"{pad}<fields>", f"{pad}</fields>"
    stacks, blocked = position.stacks, position.blocked
    parts = []
    for column in _COLUMNS:
        parts.append(opening)
        for index in column:
            if index is None:
                parts.append(null)
            elif stacks[index]:
                parts.append(_field_text(index, tuple(stacks[index]), index in blocked, depth + 1))
            else:
                parts.append(empty[index][index in blocked])
        parts.append(closing)
    return "".join(parts)


def state_text(position: Position, names: tuple[str, str], depth: int) -> str:
    """The memento's ``<state>`` at ``depth``, byte for byte as the 20.final server writes it."""
    pad = "\n" + "  " * depth
    parts = [
        f'{pad}<state class="{STATE_CLASS}" startPlayerColor="RED" turn="{position.turn}" '
        f'currentPlayerColor="{COLOR_NAMES[position.current]}">',
        player_element("red", names[0], 0).render(depth + 1),
        player_element("blue", names[1], 1).render(depth + 1),
        f"{pad}  <board>",
    ]
    parts.append(_board_text(position, depth + 2))
    parts.append(f"{pad}  </board>")
    for color, tag in enumerate(("undeployedRedPieces", "undeployedBluePieces")):
        pieces = position.undeployed[color]
        if pieces:
            parts.append(f"{pad}  <{tag}>" + "".join(_piece_text(color << 3 | k, depth + 2) for k in pieces) + f"{pad}  </{tag}>")
        else:
            parts.append(f"{pad}  <{tag}/>")
    if position.last_move is not None:
        parts.append(move_element(position.last_move, "lastMove").render(depth + 1))
    parts.append(f"{pad}</state>")
    return "".join(parts)


def state_element(position: Position, names: tuple[str, str]) -> Element:
    """The same state as an Element tree (viewers, replays); rendered it equals :func:`state_text`."""
    columns = []
    for x in range(-RADIUS, RADIUS + 1):
        entries = []
        for y in range(-RADIUS, RADIUS + 1):
            index = INDEX.get((x, y))
            if index is None:
                entries.append(Element("null"))
                continue
            attrs = {"x": str(x), "y": str(y), "z": str(-x - y), "isObstructed": "true" if index in position.blocked else "false"}
            entries.append(Element("field", attrs, [_piece_element(p >> 3, p & 7) for p in position.stacks[index]]))
        columns.append(Element("fields", children=entries))
    children = [player_element("red", names[0], 0), player_element("blue", names[1], 1), Element("board", children=columns)]
    for color, tag in enumerate(("undeployedRedPieces", "undeployedBluePieces")):
        children.append(Element(tag, children=[_piece_element(color, k) for k in position.undeployed[color]]))
    if position.last_move is not None:
        children.append(move_element(position.last_move, "lastMove"))
    attrs = {"class": STATE_CLASS, "startPlayerColor": "RED", "turn": str(position.turn),
             "currentPlayerColor": COLOR_NAMES[position.current]}
    return Element("state", attrs, children)


def position_from_state(state: Element) -> tuple[Position, tuple[str, str]]:
    """Rebuild a position and the display names from a memento's ``<state>``; ValueError when it
    is no complete Hive 2020 state."""
    try:
        turn = int(state.attrs.get("turn", "0"))
        current = _COLORS[state.attrs.get("currentPlayerColor", "RED")]
        board = state.find("board")
        if board is None:
            raise ValueError("state without <board>")
        stacks: list[list[int]] = [[] for _ in CELLS]
        blocked = set()
        seen = 0
        for column in board.findall("fields"):
            for field in column.findall("field"):
                index = INDEX[(int(field.attrs["x"]), int(field.attrs["y"]))]
                seen += 1
                if field.attrs.get("isObstructed") == "true":
                    blocked.add(index)
                stacks[index] = [c << 3 | k for c, k in map(_piece, field.findall("piece"))]
        if seen != len(CELLS):
            raise ValueError(f"board has {seen} fields, not {len(CELLS)}")
        undeployed = []
        for color, tag in enumerate(("undeployedRedPieces", "undeployedBluePieces")):
            pieces = [_piece(p) for p in (state.find(tag) or Element(tag)).findall("piece")]
            undeployed.append([k for _, k in pieces])
        last = state.find("lastMove")
        last_move = decode_move(last) if last is not None else None
    except (KeyError, MalformedMove) as error:
        raise ValueError(f"not a Hive 2020 state: {error}") from error
    names = tuple(
        (player.attrs.get("displayName", "Unknown") if player is not None else "Unknown")
        for player in (state.find("red"), state.find("blue"))
    )
    return Position(stacks, frozenset(blocked), undeployed, turn, current, last_move), names  # type: ignore[arg-type]

