"""The toy's XML: ``<data class="move"><from x/><to x/></data>`` and a ``<state>`` of two tokens."""

from __future__ import annotations

from swc_local.games.plugin import MalformedMove
from swc_local.protocol.element import Element

from tests.toy_season.rules import TEAMS, Move, Position


def decode_move(data: Element) -> Move:
    start, end = data.find("from"), data.find("to")
    if start is None or end is None:
        raise MalformedMove("a move needs <from> and <to>")
    try:
        return Move(int(start.get("x", "")), int(end.get("x", "")))
    except ValueError:
        raise MalformedMove("x is not a number", cause="PROTOCOL_ERROR") from None


def move_element(move: Move) -> Element:
    return Element("data", {"class": "move"}, [Element("from", {"x": str(move.start)}), Element("to", {"x": str(move.end)})])


def state_element(position: Position) -> Element:
    tokens = [Element("token", {"team": team, "x": str(x)}) for team, x in zip(TEAMS, position.tokens)]
    return Element("state", {"class": "state", "turn": str(position.turn), "line": "toy"}, tokens)


def position_from_state(state: Element) -> Position:
    return Position([int(token.get("x", "0")) for token in state.findall("token")], int(state.get("turn", "0")))
