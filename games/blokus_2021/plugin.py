"""The Blokus 2021 game plugin (``swc_2021_blokus``): glues the pure rules (:mod:`.rules`) to the
server contract (:mod:`swc_local.games.plugin`, the 2021 hybrid dialect) and the XML mapping
(:mod:`.xmlmap`).

Four colours on two seats: seat 0 (team ONE) plays BLUE and RED, seat 1 (team TWO) YELLOW and
GREEN.  :attr:`Blokus2021Game.current_seat` is the team of the colour to move; the rules skip the
slots of removed colours, so the room asks the same seat twice in a row when the other team's
colour in between is gone (one move request per colour slot, as the official server).

Conformance notes (spec blokus_2021.md):

* An invalid move raises :class:`InvalidMove` whose ``reason`` is the InvalidMoveException
  message (the score reason: ``<mistake>`` plus `` bei Zug '<move>'`` except for WRONG_SHAPE and
  DUPLICATE_SHAPE) and whose ``detail`` is ``InvalidMoveException(mistake=…, move=…)`` (the
  error text), §4, §7.2, §8.5.
* ``str(move)`` is the official Move toString (``Setze PENTO_W(Farbe Blau, gedreht um 90°)[8,0]``,
  ``Farbe Blau setzt aus``), quoted by the not-your-turn texts.
* Score parts after ``Gewinner``: the team's points (``∅ Punkte``, §6, §7.1), also for a violator.
* ``<winner displayName="NAME"><color class="team">TEAM</color></winner>``: one per winner (§7.3).
* ``random_move`` (the reference bot) picks uniformly among the distinct placements of the colour
  to move; it never skips while a placement exists, and the server never asks a colour without one.
"""

from __future__ import annotations

import random

from swc_local.games.blokus_2021 import xmlmap
from swc_local.games.blokus_2021.rules import TEAM_NAMES, Move, Position
from swc_local.games.blokus_xml import BlokusSeatGame, describe, greedy_move
from swc_local.games.plugin import Outcome, ScoreFragment, XmlPlugin
from swc_local.protocol.element import Element


class Blokus2021Game(BlokusSeatGame):
    """One room's game: a :class:`Position` plus the display names the state shows."""

    __slots__ = ()
    wire, position_class = xmlmap, Position

    @classmethod
    def from_state(cls, state: Element) -> Blokus2021Game:
        return cls(xmlmap.position_from_state(state), xmlmap.names_from_state(state))

    def outcome(self) -> Outcome | None:
        """The winner by points at the end; the reason is empty, as every 2021 score's reason
        of a regular end is (the WinReason texts never reach the wire, §6, §7.3)."""
        decision = self.position.decision()
        if decision is None:
            return None
        return Outcome(decision.winner, "")

    def leader(self) -> int | None:
        """The team with more points now (None: equal), as 21.4.0 names the winner of a game
        that stopped early (§7.4)."""
        one, two = self.position.team_points(0), self.position.team_points(1)
        return None if one == two else (0 if one > two else 1)

    def state_element(self) -> Element:
        return xmlmap.state_element(self.position, self.names)

    def state_text(self, depth: int) -> str:
        """``state_element().render(depth)``, faster (the server's memento of every move)."""
        if self._renderer is None:
            self._renderer = xmlmap.StateTextRenderer()
        return self._renderer.text(self.position, self.names, depth)

    def winner_element(self, seat: int) -> Element:
        team = Element("color", {"class": "team"}, text=TEAM_NAMES[seat])
        return Element("winner", {"displayName": self.names[seat]}, [team])


class Blokus2021Plugin(XmlPlugin):
    """The ``swc_2021_blokus`` game type (its facts: games/blokus_2021/entry.py)."""

    game_class = Blokus2021Game
    score_fragments = (
        ScoreFragment("Gewinner", "SUM"),
        ScoreFragment("∅ Punkte", "AVERAGE"),
    )
    move_classes = xmlmap.MOVE_CLASSES
    data_classes = frozenset({"state"})  # clients and replays find the plugin of a state
    error_echoes_move = True  # <originalMessage class="sc.plugin2021.…"> (§8.5)

    def recognizes_state(self, state: Element) -> bool:
        """A Blokus 2021 state has a ``startPiece`` attribute and ``<first>`` (2027's has neither
        ``<first>`` nor a ``startTeam`` element; other seasons say ``state`` too)."""
        return state.get("startPiece") is not None and state.find("first") is not None

    def greedy_move(self, game: Blokus2021Game, rng: random.Random) -> Move | None:
        return greedy_move(game, rng)

    def describe(self, game: Blokus2021Game) -> str:
        if not game.position.is_over():
            return describe(game.position, None)
        leader = game.leader()
        return describe(game.position, "tie" if leader is None else f"{TEAM_NAMES[leader]} wins")
