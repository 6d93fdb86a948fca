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
from swc_local.games.plugin import MalformedMove
from swc_local.protocol.element import Element
from swc_local.protocol.xstream import java_int

STATE_CLASS = "state"
_TEAMS_BY_NAME = {name: team for team, name in enumerate(TEAM_NAMES)}
_TYPES_BY_NAME = {t.name: t for t in PieceType}
_START_TEAM = Element("startTeam", {"class": "team"}, text="ONE").freeze()
_NO_AMBERS = Element("ambers", {"enum-type": "team"}).freeze()
_ENTRY_CACHE: dict[tuple[Coordinates, Piece], Element] = {}
_ENTRY_CACHE_LIMIT = 1 << 14  # a bound, never reached in play (64 squares x 2 teams x 4 types x 16 heights)


def _coordinates(c: Element) -> Coordinates:
    if c.children:
        raise MalformedMove(f"unexpected element <{c.children[0].tag}> in <{c.tag}>")
    return (_int(c.attrs["x"]) if "x" in c.attrs else 0, _int(c.attrs["y"]) if "y" in c.attrs else 0)


def _int(text: str) -> int:
    """A coordinate as XStream's int converter reads it; MalformedMove where Java would throw."""
    try:
        return java_int(text)
    except ValueError as error:
        raise MalformedMove(str(error)) from None


def decode_move(data: Element) -> Move:
    """``<data class="move"><from x y/><to x y/></data>`` -> Move, or MalformedMove."""
    found: dict[str, Coordinates] = {}
    for child in data.children:
        if child.tag not in ("from", "to"):
            raise MalformedMove(f"unexpected element <{child.tag}> in a move")
        if child.tag in found:
            raise MalformedMove(f"duplicate <{child.tag}> in a move")
        found[child.tag] = _coordinates(child)
    return Move(found.get("from"), found.get("to"))


def _coordinates_element(tag: str, c: Coordinates) -> Element:
    return Element(tag, {"x": str(c[0]), "y": str(c[1])})


def move_element(move: Move, tag: str = "data") -> Element:
    """The move as a client sends it (``<data class="move">``) or as ``<lastMove>``."""
    attrs = {"class": "move"} if tag == "data" else {}
    children = []
    if move.from_ is not None:
        children.append(_coordinates_element("from", move.from_))
    if move.to is not None:
        children.append(_coordinates_element("to", move.to))
    return Element(tag, attrs, children)


def entry_element(c: Coordinates, piece: Piece) -> Element:
    """One ``<entry>`` of ``<pieces>``, shared and frozen."""
    key = (c, piece)
    element = _ENTRY_CACHE.get(key)
    if element is None:
        element = Element(
            "entry",
            children=[
                _coordinates_element("coordinates", c),
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
        turn = int(state.attrs.get("turn", "0"))
        if turn < 0:
            raise ValueError(f"negative turn {turn}")
        start_team = state.find("startTeam")
        if start_team is not None and start_team.text.strip() not in ("", "ONE"):
            raise ValueError("only startTeam ONE is supported")
        board = state.find("board")
        if board is None:
            raise ValueError("state without <board>")
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
