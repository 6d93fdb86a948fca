"""The toy's plugin: one :class:`XmlPlugin` parametrised by its game class, as every real season."""

from __future__ import annotations

from swc_local.games.plugin import InvalidMove, Outcome, PositionGame, ScoreFragment, XmlPlugin
from swc_local.protocol.element import Element

from tests.toy_season import xmlmap
from tests.toy_season.rules import TEAMS, Move, Position, RuleViolation


class LineGame(PositionGame):
    __slots__ = ()
    violation, move_type, game_name = RuleViolation, Move, "a Linie"
    wire, position_class = xmlmap, Position

    def snapshot(self) -> LineGame:
        return LineGame(self.position.copy(), self.names)

    def mistake(self, violation: RuleViolation, move: object) -> InvalidMove:
        return InvalidMove(str(violation), violation.detail)

    def outcome(self) -> Outcome | None:
        if not self.position.is_over():
            return None
        one, two = self.position.tokens
        if one == two:
            return Outcome(None, "Beide Spieler sind gleichauf")
        seat = 0 if one > two else 1
        return Outcome(seat, f"{self.names[seat] or TEAMS[seat]} ist weiter gekommen")

    def state_element(self) -> Element:
        return xmlmap.state_element(self.position)

    def score_parts(self, seat: int) -> list[str]:
        return [str(self.position.tokens[seat])]

    def winner_element(self, seat: int) -> Element:
        return Element("winner", {"team": TEAMS[seat]})


class LinePlugin(XmlPlugin):
    game_class = LineGame
    score_fragments = (ScoreFragment("Siegpunkte", "SUM"), ScoreFragment("Weite", "AVERAGE"))
    move_classes = frozenset({"move"})
    data_classes = frozenset({"state"})
    error_echoes_move = True

    def recognizes_state(self, state: Element) -> bool:
        return state.get("line") == "toy"

    def describe(self, game: LineGame) -> str:
        return f"turn {game.turn}: {game.position.tokens}"
