"""Mississippi Queen 2024 XML mapping: moves in, mementos out, exactly as the 24.2.5 server
(spec §4.1, §7).

Named ``xmlmap`` rather than ``xml`` so it never shadows the standard library package.

Conformance notes (where §4.1/§7 are silent; what XStream does with the 24.2.5 classes):

* A move without ``<actions>`` leaves the Kotlin list null and the rule code fails on it:
  :class:`MalformedMove` with cause ``UNKNOWN`` (captured: ``invalid_no_actions_element``).
  An unknown action element, an unknown direction or a number XStream cannot read is a
  conversion error: cause ``PROTOCOL_ERROR`` (captured: ``invalid_action``, ``invalid_direction``).
* A missing ``acc``/``distance`` is Java's 0 (then ``ZERO_ACC``/``INVALID_DISTANCE``); a missing
  ``direction`` is null, on which the rule code fails: ``UNKNOWN``.
* Only the revealed segments are written; a segment's fields are frozen elements, shared by every
  memento until a passenger is picked up there.
"""

from __future__ import annotations

from swc_local.games.mississippi_queen.rules import (
    ACCELERATE,
    ADVANCE,
    DIRECTION_INDEX,
    DIRECTIONS,
    KIND_INDEX,
    KIND_NAMES,
    PASSENGER,
    PUSH,
    SEGMENTS,
    TEAM_NAMES,
    TURN,
    Board,
    Move,
    Position,
    Segment,
    Ship,
)
from swc_local.games.plugin import MalformedMove
from swc_local.protocol.element import Element
from swc_local.protocol.xstream import java_int

MOVE_CLASS = "move"
MOVE_CLASSES = frozenset({MOVE_CLASS})
STATE_CLASS = "state"
_ACTION_TAGS = {"acceleration": (ACCELERATE, "acc"), "advance": (ADVANCE, "distance"),
                "turn": (TURN, "direction"), "push": (PUSH, "direction")}
_TAG_OF = {kind: (tag, attr) for tag, (kind, attr) in _ACTION_TAGS.items()}


def _protocol_error(message: str) -> MalformedMove:
    return MalformedMove(message, cause="PROTOCOL_ERROR")


def decode_move(data: Element) -> Move:
    """A ``<data class="move">`` (or ``<lastMove>``/``<originalMessage>``) -> a tuple of actions."""
    actions = data.find("actions")
    if actions is None:
        raise MalformedMove("a move without <actions>: the official rule code fails on null", cause="UNKNOWN")
    move = []
    for child in actions.children:
        known = _ACTION_TAGS.get(child.tag)
        if known is None:
            raise _protocol_error(f"unknown action <{child.tag}>")
        kind, attr = known
        text = child.get(attr)
        if kind in (TURN, PUSH):
            if text is None:
                raise MalformedMove(f"<{child.tag}> without direction: the official rule code fails on null",
                                    cause="UNKNOWN")
            direction = DIRECTION_INDEX.get(text.strip())
            if direction is None:
                raise _protocol_error(f"no direction {text!r}")
            move.append((kind, direction))
        else:
            try:
                move.append((kind, 0 if text is None else java_int(text.strip())))
            except ValueError as error:
                raise _protocol_error(str(error)) from None
    return tuple(move)


def actions_element(move: Move) -> Element:
    children = []
    for kind, value in move:
        tag, attr = _TAG_OF[kind]
        children.append(Element(tag, {attr: DIRECTIONS[value] if kind in (TURN, PUSH) else str(value)}))
    return Element("actions", children=children)


def move_element(move: Move, tag: str = "data") -> Element:
    """The move as socha 2.2.2 sends it (``tag="data"``) or as the state's ``<lastMove>``."""
    attrs = {"class": MOVE_CLASS} if tag == "data" else {}
    return Element(tag, attrs, [actions_element(move)])


def _coordinates(tag: str, q: int, r: int) -> Element:
    return Element(tag, {"q": str(q), "r": str(r), "s": str(-q - r)})


_FIELD_ELEMENTS = {(kind,): Element(name).freeze() for kind, name in enumerate(KIND_NAMES) if kind != PASSENGER}


def _field_element(field: tuple) -> Element:
    if field[0] != PASSENGER:
        return _FIELD_ELEMENTS[field]
    return Element("passenger", {"direction": DIRECTIONS[field[1]], "passenger": str(field[2])})


def segment_element(board: Board, index: int) -> Element:
    segment = board.segments[index]
    columns = [Element("field-array", children=[_field_element(board.field_at(index, x, y)) for y in range(5)])
               for x in range(len(segment.columns))]
    return Element("segment", {"direction": DIRECTIONS[segment.direction]},
                   [_coordinates("center", *segment.center), *columns]).freeze()


class SegmentCache:
    """Frozen ``<segment>`` elements per (index, passengers waiting there): a memento rebuilds a
    segment only after a passenger was picked up in it."""

    __slots__ = ("_elements",)

    def __init__(self) -> None:
        self._elements: dict[tuple, Element] = {}

    def get(self, board: Board, index: int) -> Element:
        segment = board.segments[index]
        key = (id(segment), index, tuple(board.passengers.get(coord, 0) for coord in board.docks[index]))
        element = self._elements.get(key)
        if element is None:
            element = self._elements[key] = segment_element(board, index)
        return element


def ship_element(ship: Ship) -> Element:
    return Element("ship", {
        "team": TEAM_NAMES[ship.team], "direction": DIRECTIONS[ship.direction], "speed": str(ship.speed),
        "coal": str(ship.coal), "passengers": str(ship.passengers), "freeTurns": str(ship.free_turns),
        "points": str(ship.points), "stuck": "true" if ship.stuck else "false",
    }, [_coordinates("position", ship.q, ship.r)])


def state_element(position: Position, cache: SegmentCache | None = None) -> Element:
    """The memento's ``<state class="state" startTeam turn currentTeam>`` (§7)."""
    board = position.board
    segments = [cache.get(board, i) if cache is not None else segment_element(board, i) for i in range(board.visible)]
    children = [Element("board", {"nextDirection": DIRECTIONS[board.wire_next_direction()]}, segments)]
    children.extend(ship_element(ship) for ship in position.ships)
    if position.last_move is not None:
        children.append(move_element(position.last_move, "lastMove"))
    attrs = {"class": STATE_CLASS, "startTeam": "ONE", "turn": str(position.turn),
             "currentTeam": TEAM_NAMES[position.current]}
    return Element("state", attrs, children)


def _read_field(element: Element) -> tuple:
    kind = KIND_INDEX[element.tag]
    if kind != PASSENGER:
        return (kind,)
    return (PASSENGER, DIRECTION_INDEX[element.attrs["direction"]], int(element.get("passenger", "1")))


def _read_coordinates(element: Element | None) -> tuple[int, int]:
    if element is None:
        raise ValueError("missing coordinates")
    return int(element.attrs["q"]), int(element.attrs["r"])


def position_from_state(state: Element, segments_from: Element | None = None) -> Position:
    """Rebuild a position from a memento's ``<state>``; ValueError if it is not a 2024 state.

    The board has the segments the state shows, all revealed (as the official ``BoardConverter``
    reads a state).  ``segments_from`` (another state of the same game, e.g. a later memento)
    supplies more segments; they stay unrevealed (a capture replayed from its first memento).

    A state of fewer than 8 segments is a river cut short: its ``nextDirection`` is kept as the
    direction of the segment that follows (``Board.following``), for the last segment's current
    and the next memento's ``nextDirection``.  24.2.5 reading such a state (``--loadGameFile``)
    switches to the last shown segment's direction after the first move; a generated river always
    has 8 segments, so only a hand-made board of fewer can tell the two apart (docs page)."""
    try:
        turn = int(state.attrs.get("turn", "0"))
        current = TEAM_NAMES.index(state.get("currentTeam", "ONE"))
        board_element = state.find("board")
        if board_element is None:
            raise ValueError("no <board>")
        source = segments_from.find("board") if segments_from is not None else None
        shown = board_element.findall("segment")
        more = source.findall("segment") if source is not None else []
        segments = []
        for element in shown + more[len(shown):]:
            columns = [[_read_field(field) for field in column.children] for column in element.findall("field-array")]
            if len(columns) != 4 or any(len(column) != 5 for column in columns):
                raise ValueError("a segment is 4 field-arrays of 5 fields")
            segments.append(Segment(DIRECTION_INDEX[element.attrs["direction"]],
                                    _read_coordinates(element.find("center")), columns))
        if not segments:
            raise ValueError("a board without segments")
        next_direction = DIRECTION_INDEX[board_element.attrs["nextDirection"]]
        following = None
        if source is not None:
            # a river cut short (a capture's first state): the later state names what comes next
            following = DIRECTION_INDEX[source.attrs["nextDirection"]]
        elif len(segments) < SEGMENTS:
            following = next_direction  # a real game's river goes on: the state names what comes next
        board = Board(segments, len(shown), next_direction, following=following)
        ships = []
        for element in state.findall("ship"):
            q, r = _read_coordinates(element.find("position"))
            speed = int(element.get("speed", "1"))
            ships.append(Ship(TEAM_NAMES.index(element.attrs["team"]), q, r, DIRECTION_INDEX[element.get("direction", "RIGHT")],
                              speed, int(element.get("coal", "6")), int(element.get("passengers", "0")),
                              int(element.get("freeTurns", "1")), int(element.get("points", "0")),
                              element.get("stuck", "false") == "true"))
        if [s.team for s in ships] != [0, 1]:
            raise ValueError("two ships, ONE first")
        for ship in ships:
            if ship.position not in board.fields:
                raise ValueError(f"a ship off the board at {ship.position}")
        last = state.find("lastMove")
        last_move = decode_move(last) if last is not None else None
    except (KeyError, AttributeError, IndexError, MalformedMove) as error:
        raise ValueError(f"not a Mississippi Queen 2024 state: {error!r}") from error
    return Position(board, ships, turn, current, last_move)
