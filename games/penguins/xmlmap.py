"""Penguins 2023 XML mapping: moves in, mementos out, exactly as the 23.0.3 server (penguins_2023.md §8).

Named ``xmlmap`` rather than ``xml`` so it never shadows the standard library package.

A memento is 64 ``<field>`` elements in 8 ``<list>`` rows; the seven field values that occur
(0..4 fish, ``ONE``, ``TWO``) are built once, frozen and shared, and so is every row already
seen, so a memento costs little more than its rows' lookups.  Elements handed out are shared and
must be treated as immutable.

Spec-conformance notes (where §8 is silent):

* Coordinates are read as XStream's int converter reads them (``Integer.decode``: sign, hex,
  octal, wrap to a Java int); anything else is MalformedMove.  A missing ``x`` or ``y`` is 0
  (XStream builds the object without a constructor, so the field keeps Java's default).
* A missing ``<from>`` makes a set move; a missing ``<to>`` is kept as ``None`` and the rules
  treat it as the crash the official server had (``G/invalid_no_to``).  Child elements other
  than one ``<from>`` and one ``<to>`` are MalformedMove (XStream fails on unknown and duplicate
  fields); unknown attributes and text are ignored.
* ``<startTeam>`` has no ``class`` attribute in 2023 (the field is typed ``Team``; 2022 wrote
  ``class="team"``); ``<fishes>`` always lists both teams.
* Reading a state back (``position_from_state``) accepts what the server writes and an empty
  field text as 0 (XStream's int of nothing would fail, but a hand-written file is more likely
  to mean a hole).
"""

from __future__ import annotations

from swc_local.games.penguins.rules import PENGUIN, SIZE, TEAM_NAMES, Move, Point, Position
from swc_local.games.from_to_xml import from_to, move_element, point_element, turn_and_board  # noqa: F401  (move_element: the season's)
from swc_local.games.plugin import MalformedMove
from swc_local.protocol.element import Element

STATE_CLASS = "state"
_START_TEAM = Element("startTeam", text="ONE").freeze()
_FIELD_TEXT = {**{fish: str(fish) for fish in range(5)}, PENGUIN[0]: "ONE", PENGUIN[1]: "TWO"}
_FIELDS = {value: Element("field", text=text).freeze() for value, text in _FIELD_TEXT.items()}
_VALUES = {text: value for value, text in _FIELD_TEXT.items()}
_ROWS: dict[tuple[int, ...], Element] = {}
_ROW_CACHE_LIMIT = 1 << 16  # a bound; a game sees at most a few hundred distinct rows


def decode_move(data: Element) -> Move:
    """``<data class="move"><from x y/><to x y/></data>`` -> Move, or MalformedMove (games/from_to_xml.py)."""
    return Move(*from_to(data))


def _row(values: tuple[int, ...]) -> Element:
    row = _ROWS.get(values)
    if row is None:
        row = Element("list", children=[_FIELDS[v] for v in values]).freeze()
        if len(_ROWS) < _ROW_CACHE_LIMIT:
            _ROWS[values] = row
    return row


def board_element(board: list[int]) -> Element:
    return Element("board", children=[_row(tuple(board[SIZE * y: SIZE * (y + 1)])) for y in range(SIZE)])


def state_element(position: Position) -> Element:
    """The memento's ``<state class="state" turn="N">``."""
    children = [_START_TEAM, board_element(position.board)]
    if position.last_move is not None:
        children.append(move_element(position.last_move, "lastMove"))
    fishes = [Element("int", text=str(count)) for count in position.fishes]
    children.append(Element("fishes", children=fishes))
    return Element("state", {"class": STATE_CLASS, "turn": str(position.turn)}, children)


def team_element(tag: str, team: int) -> Element:
    """``<winner team="ONE"/>`` and the like."""
    return Element(tag, {"team": TEAM_NAMES[team]})


def is_penguins_state(state: Element) -> bool:
    """A 2023 state: ``<board>`` of ``<list>`` rows of ``<field>`` and a ``<fishes>`` element."""
    board = state.find("board")
    if board is None or state.find("fishes") is None:
        return False
    row = board.find("list")
    return row is not None and row.find("field") is not None


def position_from_state(state: Element) -> Position:
    """Rebuild a position from a memento's ``<state>``.

    Raises ValueError when the state is not a well-formed Penguins 2023 state.
    """
    try:
        turn, board_el = turn_and_board(state)
        rows = board_el.findall("list")
        if len(rows) != SIZE or any(len(row.findall("field")) != SIZE for row in rows):
            raise ValueError(f"a board has {SIZE} <list> rows of {SIZE} <field>s")
        board = [_VALUES[f.text.strip() or "0"] for row in rows for f in row.findall("field")]
        last = state.find("lastMove")
        last_move = decode_move(last) if last is not None else None
        fishes_el = state.find("fishes")
        counts = [int(i.text.strip()) for i in fishes_el.findall("int")] if fishes_el is not None else []
        counts += [0] * (2 - len(counts))
        if len(counts) != 2 or min(counts) < 0:
            raise ValueError(f"<fishes> must hold two counts, not {counts}")
        return Position(board, turn, (counts[0], counts[1]), last_move)
    except (KeyError, MalformedMove) as error:
        raise ValueError(f"not a Penguins 2023 state: {error!r}") from error
