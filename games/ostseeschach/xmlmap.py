"""Ostseeschach 2022 XML mapping: moves in, mementos out, exactly as the 22.final server (spec A.3).

Named ``xmlmap`` rather than ``xml`` so it never shadows the standard library package.

A memento lists every piece as an ``<entry>``; the 64 squares times the few piece values that
really occur make a small set, so each ``<entry>`` Element is built once per process, frozen and
shared (its rendering is cached too).  Elements handed out are shared and must be treated as
immutable.

Spec-conformance notes (where A.3/A.4 are silent):

* Coordinates are read as XStream's int converter reads them (``Long.decode``: sign, hex, octal,
  wrap to a Java int); anything else is MalformedMove.  A missing ``x`` or ``y`` is 0 (XStream
  builds the object without a constructor, so the field keeps Java's default).
* A missing ``<from>`` or ``<to>`` keeps ``None`` in the move; the rules decide what that means
  (see :mod:`.rules`).  Child elements other than one ``<from>`` and one ``<to>`` are MalformedMove
  (XStream fails on unknown and duplicate fields); unknown attributes and text are ignored.
"""

from __future__ import annotations

from swc_local.games.ostseeschach.rules import (
    SIZE, TEAM_NAMES, Coordinates, Move, Piece, PieceType, Position,
)
from swc_local.games.from_to_xml import from_to, move_element, point_element, turn_and_board  # noqa: F401  (move_element: the season's)
from swc_local.games.plugin import MalformedMove
from swc_local.protocol.element import Element

STATE_CLASS = "state"
_TEAMS_BY_NAME = {name: team for team, name in enumerate(TEAM_NAMES)}
_TYPES_BY_NAME = {t.name: t for t in PieceType}
_START_TEAM = Element("startTeam", {"class": "team"}, text="ONE").freeze()
_NO_AMBERS = Element("ambers", {"enum-type": "team"}).freeze()
_ENTRY_CACHE: dict[tuple[Coordinates, Piece], Element] = {}
_ENTRY_CACHE_LIMIT = 1 << 14  # a bound, never reached in play (64 squares x 2 teams x 4 types x 16 heights)


def decode_move(data: Element) -> Move:
    """``<data class="move"><from x y/><to x y/></data>`` -> Move, or MalformedMove (games/from_to_xml.py)."""
    return Move(*from_to(data))


def entry_element(c: Coordinates, piece: Piece) -> Element:
    """One ``<entry>`` of ``<pieces>``, shared and frozen."""
    key = (c, piece)
    element = _ENTRY_CACHE.get(key)
    if element is None:
        element = Element(
            "entry",
            children=[
                point_element("coordinates", c),
                Element("piece", {"type": piece.type.name, "team": TEAM_NAMES[piece.team], "count": str(piece.count)}),
            ],
        ).freeze()
        if len(_ENTRY_CACHE) < _ENTRY_CACHE_LIMIT:
            _ENTRY_CACHE[key] = element
    return element


def ambers_element(position: Position) -> Element:
    entries = [
        Element("entry", children=[Element("team", text=TEAM_NAMES[team]), Element("int", text=str(position.ambers[team]))])
        for team in (0, 1)
        if position.amber_entries[team]
    ]
    if not entries:
        return _NO_AMBERS
    return Element("ambers", {"enum-type": "team"}, entries)


def state_element(position: Position) -> Element:
    """The memento's ``<state class="state" turn="N">``."""
    pieces = Element("pieces", children=[entry_element(c, p) for c, p in position.ordered_pieces()])
    children = [_START_TEAM, Element("board", children=[pieces])]
    if position.last_move is not None:
        children.append(move_element(position.last_move, "lastMove"))
    children.append(ambers_element(position))
    return Element("state", {"class": STATE_CLASS, "turn": str(position.turn)}, children)


def team_element(tag: str, team: int) -> Element:
    """``<winner team="ONE"/>`` and the like."""
    return Element(tag, {"team": TEAM_NAMES[team]})


def position_from_state(state: Element) -> Position:
    """Rebuild a position from a memento's ``<state>``; the ``<entry>`` order is kept.

    Raises ValueError when the state is not a well-formed Ostseeschach 2022 state.
    """
    try:
        turn, board = turn_and_board(state)
        pieces_element = board.find("pieces")
        placed = []
        for entry in pieces_element.findall("entry") if pieces_element is not None else []:
            c_el, p_el = entry.find("coordinates"), entry.find("piece")
            if c_el is None or p_el is None:
                raise ValueError("<entry> without <coordinates> or <piece>")
            c = (int(c_el.attrs["x"]), int(c_el.attrs["y"]))
            if not (0 <= c[0] < SIZE and 0 <= c[1] < SIZE):
                raise ValueError(f"piece off the board at {c}")
            count = int(p_el.attrs.get("count", "1"))
            if count < 1:
                raise ValueError(f"piece count {count}")
            placed.append((c, Piece(_TYPES_BY_NAME[p_el.attrs["type"]], _TEAMS_BY_NAME[p_el.attrs["team"]], count)))
        last = state.find("lastMove")
        last_move = None
        if last is not None:
            last_move = decode_move(last)
        ambers, entries = [0, 0], [False, False]
        ambers_el = state.find("ambers")
        for entry in ambers_el.findall("entry") if ambers_el is not None else []:
            team_el, int_el = entry.find("team"), entry.find("int")
            if team_el is None or int_el is None:
                raise ValueError("<ambers> entry without <team> or <int>")
            team = _TEAMS_BY_NAME[team_el.text.strip()]
            ambers[team], entries[team] = int(int_el.text.strip()), True
    except (KeyError, MalformedMove) as error:
        raise ValueError(f"not an Ostseeschach 2022 state: {error!r}") from error
    return Position(placed, turn, last_move, (ambers[0], ambers[1]), (entries[0], entries[1]))
