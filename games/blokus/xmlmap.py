"""Blokus 2027 XML mapping: moves in, mementos out, exactly as the 27.0.4 server (spec §8).

Named ``xmlmap`` rather than ``xml`` so it never shadows the standard library package.

Move classes are the Java class names ``sc.plugin2027.SetMove`` and ``sc.plugin2027.SkipMove``;
the aliases ``setmove``/``skipmove`` in the official source are never registered, so a client
sending them is dropped by the room (``PROTOCOL_ERROR``, golden ``blokus_alias_setmove``).

The move codec, board, lists and the memento renderer's parts are :mod:`swc_local.games.blokus_xml`
(shared with Blokus 2021); this module names the 2027 classes and lays out the 2027 state.

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

from swc_local.games import blokus_xml
from swc_local.games.blokus.rules import SHAPE_NAMES, Move, Position
from swc_local.games.blokus_xml import STATE_CLASS, board_element, last_move_mono, shape_lists, valid_colors
from swc_local.protocol.element import Element, end_tag, start_tag

SET_MOVE_CLASS = "sc.plugin2027.SetMove"
SKIP_MOVE_CLASS = "sc.plugin2027.SkipMove"
MOVE_CLASSES = frozenset({SET_MOVE_CLASS, SKIP_MOVE_CLASS})


def decode_move(data: Element) -> Move:
    """A ``<data class="sc.plugin2027.SetMove|SkipMove">`` (or ``<lastMove>``) -> Move."""
    return blokus_xml.decode_move(data, SET_MOVE_CLASS, SKIP_MOVE_CLASS)


def move_element(move: Move, tag: str = "data") -> Element:
    """The move as socha 5.1.0 sends it (``tag="data"``) or as the state's ``<lastMove>``."""
    return blokus_xml.move_element(move, SET_MOVE_CLASS, SKIP_MOVE_CLASS, tag)


class StateTextRenderer(blokus_xml.StateTextParts):
    """Writes ``state_element(position).render(depth)`` straight to text (see StateTextParts)."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__(SET_MOVE_CLASS, SKIP_MOVE_CLASS)

    def text(self, position: Position, depth: int) -> str:
        self.start(depth)
        return "".join((
            start_tag("state", _state_attrs(position), depth),
            self.last_move(position.last_move, depth),
            self.board(position.occupied, depth),
            self.mono(position, depth),
            self.shape_lists(position, depth),
            self.valid(position, depth),
            end_tag("state", depth),
        ))


def state_element(position: Position) -> Element:
    """The memento's ``<state class="state" startTeam turn startPiece round>``."""
    children = []
    if position.last_move is not None:
        children.append(move_element(position.last_move, "lastMove"))
    children.append(board_element(position))
    children.append(last_move_mono(position))
    children.extend(shape_lists(position))
    children.append(valid_colors(position))
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
    if state.get("startTeam", "ONE") != "ONE":
        raise ValueError("not a Blokus 2027 state: only startTeam ONE is supported")
    try:
        return blokus_xml.StateParts(state, SET_MOVE_CLASS, SKIP_MOVE_CLASS).position(Position)
    except ValueError as error:
        raise ValueError(str(error).replace("a Blokus state", "a Blokus 2027 state")) from error
