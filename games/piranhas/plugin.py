"""The Piranhas 2019 game plugin: glues the pure rules (:mod:`.rules`) to the server contract
(:mod:`swc_local.games.plugin`) and the XML mapping (:mod:`.xmlmap`).

Spec-conformance notes:

* ``apply(seat, move)`` expects ``seat`` to be the side to move: the server answers a move out of
  turn itself (LEFT, spec §6) before a game ever sees it, so a mismatch is a caller bug and raises
  ValueError rather than a scored fault.
* ``data_classes`` lists only the state class: it is the one other plugin class the 19.2.1 wire
  format names.
* ``random_move`` picks uniformly with ``rng.choice`` over :meth:`Position.legal_moves`, so a
  seeded rng gives a reproducible game.
"""

from __future__ import annotations

from swc_local.games.plugin import Outcome, PositionGame, ScoreFragment, XmlPlugin
from swc_local.games.piranhas import xmlmap
from swc_local.games.piranhas.rules import BLUE, RED, Move, Position, RuleViolation, ScanCrash
from swc_local.games.textboard import with_coordinates
from swc_local.protocol.element import Element

_SEAT_COLORS = (RED, BLUE)


_SNAPSHOTS_RENDERER = xmlmap.StateRenderer()


class PiranhasGame(PositionGame):
    """One room's game: a :class:`Position` plus display names and a state renderer."""

    __slots__ = ("_renderer",)
    violation, crash, move_type, game_name = RuleViolation, ScanCrash, Move, "a Piranhas"
    wire, position_class = xmlmap, Position

    def __init__(self, position: Position, names: tuple[str, str] = ("Unknown", "Unknown")):
        super().__init__(position, names)
        self._renderer = xmlmap.StateRenderer()

    @classmethod
    def from_state(cls, state: Element) -> PiranhasGame:
        return cls(*xmlmap.position_from_state(state))

    def snapshot(self) -> PiranhasGame:
        """A copy later moves do not change (the viewer keeps one per state, taken on every move:
        the copies share one renderer, which rebuilds what differs from the board it saw last)."""
        other = PiranhasGame.__new__(PiranhasGame)
        other.position, other.names, other._renderer = self.position.copy(), self.names, _SNAPSHOTS_RENDERER
        return other

    @property
    def current_seat(self) -> int:
        return 0 if self.position.current == RED else 1

    def outcome(self) -> Outcome | None:
        decision = self.position.decision()
        if decision is None:
            return None
        winner = None if decision.winner is None else _SEAT_COLORS.index(decision.winner)
        return Outcome(winner, decision.reason)

    def state_element(self) -> Element:
        return self._renderer.state(self.position, self.names)

    def state_text(self, depth: int) -> str:
        """``state_element().render(depth)``, faster (the server's memento of every move)."""
        return self._renderer.text(self.position, self.names, depth)

    def score_parts(self, seat: int) -> list[str]:
        return [str(self.position.largest_swarm(_SEAT_COLORS[seat]))]

    def winner_element(self, seat: int) -> Element:
        return xmlmap.player_element("winner", self.names[seat], _SEAT_COLORS[seat])


class PiranhasPlugin(XmlPlugin):
    """The ``swc_2019_piranhas`` game type (its facts: games/piranhas/entry.py)."""

    game_class = PiranhasGame
    score_fragments = (
        ScoreFragment("Gewinner", "SUM"),
        ScoreFragment("\u2205 Schwarm", "AVERAGE"),
    )
    move_classes = frozenset({"move", "sc.plugin2019.Move"})
    data_classes = frozenset({xmlmap.STATE_CLASS})
    error_echoes_move = False  # 19.2.1's invalid-move error has no <originalRequest> (spec §6)

    def describe(self, game: PiranhasGame) -> str:
        position = game.position
        side = "RED" if position.current == RED else "BLUE"
        return f"turn {position.turn}, {side} to move\n{with_coordinates(position.text(), y_up=True)}"
