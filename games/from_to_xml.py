"""The ``<from x y/><to x y/>`` move of the 22.x seasons (Ostseeschach 2022, Penguins 2023) and
the room's game they share: both official plugins declared the move, its mistakes and the
result's parts the same way, so both seasons read, write and report them here.

Conformance notes (XStream on the official ``Move``):

* Coordinates are read as XStream's int converter reads them (``Long.decode``: sign, hex, octal,
  wrap to a Java int); anything else is MalformedMove.  A missing ``x`` or ``y`` is 0 (the field
  keeps Java's default).
* A missing ``<from>`` or ``<to>`` is None; the season's rules decide what that means.  Child
  elements other than one ``<from>`` and one ``<to>`` are MalformedMove (XStream fails on unknown
  and duplicate fields); unknown attributes and text are ignored.
"""

from __future__ import annotations

from typing import Any

from swc_local.games.plugin import InvalidMove, MalformedMove, PositionGame
from swc_local.protocol.element import Element
from swc_local.protocol.xstream import java_int

Point = tuple[int, int]


def point(c: Element) -> Point:
    """``<from x y/>`` -> (x, y), or MalformedMove."""
    if c.children:
        raise MalformedMove(f"unexpected element <{c.children[0].tag}> in <{c.tag}>")
    try:
        x = java_int(c.attrs["x"]) if "x" in c.attrs else 0
        y = java_int(c.attrs["y"]) if "y" in c.attrs else 0
    except ValueError as error:
        raise MalformedMove(str(error)) from None
    return (x, y)


def from_to(data: Element) -> tuple[Point | None, Point | None]:
    """``<data class="move">[<from x y/>][<to x y/>]</data>`` -> (from, to), or MalformedMove."""
    found: dict[str, Point] = {}
    for child in data.children:
        if child.tag not in ("from", "to"):
            raise MalformedMove(f"unexpected element <{child.tag}> in a move")
        if child.tag in found:
            raise MalformedMove(f"duplicate <{child.tag}> in a move")
        found[child.tag] = point(child)
    return found.get("from"), found.get("to")


def turn_and_board(state: Element) -> tuple[int, Element]:
    """The turn and the ``<board>`` of a 22.x memento ``<state>`` (``startTeam`` must be ONE);
    ValueError when they are not well-formed."""
    turn = int(state.attrs.get("turn", "0"))
    if turn < 0:
        raise ValueError(f"negative turn {turn}")
    start_team = state.find("startTeam")
    if start_team is not None and start_team.text.strip() not in ("", "ONE"):
        raise ValueError("only startTeam ONE is supported")
    board = state.find("board")
    if board is None:
        raise ValueError("state without <board>")
    return turn, board


def point_element(tag: str, p: Point) -> Element:
    return Element(tag, {"x": str(p[0]), "y": str(p[1])})


def move_element(move: Any, tag: str = "data") -> Element:
    """A move with ``from_`` and ``to`` as a client sends it (``<data class="move">``) or as ``<lastMove>``."""
    attrs = {"class": "move"} if tag == "data" else {}
    children = []
    if move.from_ is not None:
        children.append(point_element("from", move.from_))
    if move.to is not None:
        children.append(point_element("to", move.to))
    return Element(tag, attrs, children)


class MoveMistake(InvalidMove):
    """An invalid move of the 22.x seasons (Ostseeschach, Penguins) with both official texts:
    ``reason`` (the score reason, the exception's message) and ``detail`` (its toString,
    ``InvalidMoveException(mistake=…, move=…)``, carried by the error message).  ``violation``
    is the rules' exception, with ``mistake`` and ``move``."""

    def __init__(self, violation: Any):
        super().__init__(str(violation), f"InvalidMoveException(mistake={violation.mistake}, move={violation.move})")
        self.mistake = violation.mistake
        self.move = violation.move

    @property
    def error_message(self) -> str:
        return self.detail


class FromToGame(PositionGame):
    """One room's game of a 22.x season: a position plus the display names the server sets.  Its
    ``wire`` (the season's xmlmap) writes the state and the team elements; its position gives
    the score parts; a rule violation is a :class:`MoveMistake`; ``move_text`` is the official
    ``Move.toString``, quoted in the not-your-turn reason."""

    __slots__ = ()

    def mistake(self, violation: Any, move: object) -> MoveMistake:
        return MoveMistake(violation)

    def move_text(self, move: object) -> str:
        return str(move)

    def state_element(self) -> Element:
        return self.wire.state_element(self.position)

    def score_parts(self, seat: int) -> list[str]:
        return [str(part) for part in self.position.score_parts(seat)]

    def winner_element(self, seat: int) -> Element:
        return self.wire.team_element("winner", seat)
