"""The Blokus 2027 game plugin (``swc_2027_blokus``): glues the pure rules (:mod:`.rules`) to the
server contract (:mod:`swc_local.games.plugin`, modern dialect, 2025 envelope) and the XML mapping
(:mod:`.xmlmap`).

Four colours on two seats: seat 0 (team ONE) plays BLUE and RED, seat 1 (team TWO) YELLOW and
GREEN.  :attr:`BlokusGame.current_seat` is the team of the colour to move, and the rules skip the
slots of removed colours, so the room asks the same seat twice in a row whenever the other team's
colour in between is gone (one move request per colour slot, as the official server).

Conformance notes:

* An invalid move raises :class:`InvalidMove` whose ``reason`` is the InvalidMoveException message
  (``<mistake>`` plus `` bei '<move>'`` except for WRONG_SHAPE and DUPLICATE_SHAPE) and whose
  ``detail`` is ``InvalidMoveException(mistake=<mistake>, move=<move or null>)`` (spec §3, §8).
* ``str(move)`` is the official Move toString, quoted by the not-your-turn message.
* ``Outcome.reason`` is ``<name> hat am meisten Punkte erzielt.`` with the winner's display name,
  or the team name for ``<join/>`` players, and ``Beide Spieler sind gleichauf`` for a tie.
* ``random_move`` (the reference bot) picks uniformly among the distinct placements of the colour
  to move; it never skips while a placement exists, and the server never asks a colour without one.
"""

from __future__ import annotations

import random

from swc_local.games.blokus import xmlmap
from swc_local.games.blokus.rules import TEAM_NAMES, TIE, Move, Position
from swc_local.games.blokus_xml import BlokusSeatGame, describe, greedy_move
from swc_local.games.plugin import Outcome, ScoreFragment, XmlPlugin
from swc_local.protocol.element import Element


class BlokusGame(BlokusSeatGame):
    """One room's game: a :class:`Position` plus the display names the server sets."""

    __slots__ = ()
    wire, position_class = xmlmap, Position

    def outcome(self) -> Outcome | None:
        decision = self.position.decision()
        if decision is None:
            return None
        if decision.winner is None:
            return Outcome(None, TIE)
        name = self.names[decision.winner] or TEAM_NAMES[decision.winner]
        return Outcome(decision.winner, decision.reason % name)

    def state_element(self) -> Element:
        return xmlmap.state_element(self.position)

    def state_text(self, depth: int) -> str:
        """``state_element().render(depth)``, faster (the server's memento of every move)."""
        if self._renderer is None:
            self._renderer = xmlmap.StateTextRenderer()
        return self._renderer.text(self.position, depth)

    def winner_element(self, seat: int) -> Element:
        return Element("winner", {"team": TEAM_NAMES[seat]})


class BlokusPlugin(XmlPlugin):
    """The ``swc_2027_blokus`` game type (its facts: games/blokus/entry.py)."""

    game_class = BlokusGame
    score_fragments = (
        ScoreFragment("Siegpunkte", "SUM"),
        ScoreFragment("Punkte", "AVERAGE"),
    )
    move_classes = xmlmap.MOVE_CLASSES
    data_classes = frozenset({xmlmap.STATE_CLASS})  # clients and replays find the plugin of a state
    error_echoes_move = True  # the error carries <originalMessage class="sc.plugin2027.…"> (spec §8)

    def recognizes_state(self, state: Element) -> bool:
        """A Blokus 2027 state has a ``startPiece`` attribute and ``<blueShapes>`` (others say ``state`` too),
        and no ``<first>`` (Blokus 2021's has)."""
        return state.get("startPiece") is not None and state.find("blueShapes") is not None and state.find("first") is None

    def greedy_move(self, game: BlokusGame, rng: random.Random) -> Move | None:
        return greedy_move(game, rng)

    def describe(self, game: BlokusGame) -> str:
        outcome = game.outcome() if game.position.is_over() else None
        return describe(game.position, None if outcome is None else outcome.reason)
