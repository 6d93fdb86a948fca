"""Blokus 2021 XML mapping: moves in, mementos out, exactly as the 21.4.0 server (spec §3, §8.4).

The move codec, board, lists and the memento renderer's parts are :mod:`swc_local.games.blokus_xml`
(shared with Blokus 2027); this module names the 2021 classes and lays out the 2021 state:
attributes ``class turn round startPiece``, children ``startTeam``, the four shape lists,
``validColors``, ``first``, ``second`` (the players: display name and team), ``board``,
``lastMove`` (absent at turn 0), ``lastMoveMono``.

Conformance notes:

* Move classes are the Java class names ``sc.plugin2021.SetMove``/``SkipMove``; the source's
  aliases ``setmove``/``skipmove`` are never registered, so the room drops a client sending them
  (``G/invalid_alias``).  Every undecodable move (unknown kind, no ``<position>``: an NPE in the
  server) is a drop, scored ``LEFT`` (§3).
* ``first``/``second`` carry the display names the server knows: empty for ``<join>`` players,
  the slot's name for prepared ones (§8.4); a loaded state keeps the names it names.
"""

from __future__ import annotations

from swc_local.games import blokus_xml
from swc_local.games.blokus_2021.rules import SHAPE_NAMES, TEAM_NAMES, Move, Position
from swc_local.games.blokus_xml import STATE_CLASS, board_element, last_move_mono, shape_lists, valid_colors
from swc_local.protocol.element import Element, end_tag, start_tag

SET_MOVE_CLASS = "sc.plugin2021.SetMove"
SKIP_MOVE_CLASS = "sc.plugin2021.SkipMove"
MOVE_CLASSES = frozenset({SET_MOVE_CLASS, SKIP_MOVE_CLASS})
_START_TEAM = Element("startTeam", {"class": "team"}, text="ONE").freeze()


def decode_move(data: Element) -> Move:
    """A ``<data class="sc.plugin2021.SetMove|SkipMove">`` (or ``<lastMove>``) -> Move."""
    return blokus_xml.decode_move(data, SET_MOVE_CLASS, SKIP_MOVE_CLASS)


def move_element(move: Move, tag: str = "data") -> Element:
    """The move as a client sends it (``tag="data"``) or as the state's ``<lastMove>``."""
    return blokus_xml.move_element(move, SET_MOVE_CLASS, SKIP_MOVE_CLASS, tag)


def players(names: tuple[str, str]) -> list[Element]:
    """``<first displayName><color class="team">ONE</color></first>`` and ``<second>``."""
    return [
        Element(tag, {"displayName": name}, [Element("color", {"class": "team"}, text=team)])
        for tag, name, team in zip(("first", "second"), names, TEAM_NAMES)
    ]


class StateTextRenderer(blokus_xml.StateTextParts):
    """Writes ``state_element(position, names).render(depth)`` straight to text."""

    __slots__ = ("_players",)

    def __init__(self) -> None:
        super().__init__(SET_MOVE_CLASS, SKIP_MOVE_CLASS)
        self._players: tuple[tuple[str, str], int, str] | None = None

    def _players_text(self, names: tuple[str, str], depth: int) -> str:
        cached = self._players
        if cached is None or cached[0] != names or cached[1] != depth:
            text = "".join(element.render(depth + 1) for element in players(names))
            self._players = cached = (names, depth, text)
        return cached[2]

    def text(self, position: Position, names: tuple[str, str], depth: int) -> str:
        self.start(depth)
        return "".join((
            start_tag("state", _state_attrs(position), depth),
            self.cached(("startTeam",), lambda: _START_TEAM, depth),
            self.shape_lists(position, depth),
            self.valid(position, depth),
            self._players_text(names, depth),
            self.board(position.occupied, depth),
            self.last_move(position.last_move, depth),
            self.mono(position, depth),
            end_tag("state", depth),
        ))


def state_element(position: Position, names: tuple[str, str] = ("", "")) -> Element:
    """The memento's ``<state class="state" turn round startPiece>``."""
    children = [_START_TEAM, *shape_lists(position), valid_colors(position), *players(names), board_element(position)]
    if position.last_move is not None:
        children.append(move_element(position.last_move, "lastMove"))
    children.append(last_move_mono(position))
    return Element("state", _state_attrs(position), children)


def _state_attrs(position: Position) -> dict[str, str]:
    return {
        "class": STATE_CLASS,
        "turn": str(position.turn),
        "round": str(position.round),
        "startPiece": SHAPE_NAMES[position.start_piece],
    }


def names_from_state(state: Element) -> tuple[str, str]:
    """The display names a state's ``first``/``second`` carry ("" when absent)."""
    found = []
    for tag in ("first", "second"):
        player = state.find(tag)
        found.append((player.get("displayName") or "") if player is not None else "")
    return found[0], found[1]


def position_from_state(state: Element) -> Position:
    """Rebuild a position from a memento's ``<state>``; ValueError if it is not a Blokus 2021 state."""
    start_team = state.find("startTeam")
    if start_team is not None and (start_team.text or "").strip() not in ("", "ONE"):
        raise ValueError("not a Blokus 2021 state: only startTeam ONE is supported")
    try:
        return blokus_xml.StateParts(state, SET_MOVE_CLASS, SKIP_MOVE_CLASS).position(Position)
    except ValueError as error:
        raise ValueError(str(error).replace("a Blokus state", "a Blokus 2021 state")) from error
