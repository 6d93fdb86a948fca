"""One running Hase und Igel game as the server drives it: rules behind the XML :class:`swc_local.games.plugin.Game` contract.

Why a thin wrapper (named ``xml*`` as a wire mapping, tests/packaging/test_layers.py): the rules live
in :mod:`rules` (pure) and the XML in :mod:`xmlmap`; this class
only maps their exceptions onto the server's two fault kinds (a rule text -> InvalidMove, an
official crash -> MalformedMove) and keeps the display names the states and results show.

Spec-conformance notes:
- ``outcome()`` is evaluated on whatever the state is, including a partially applied failed move
  (§7 artifact): the goal check runs when ``turn`` is even, the round limit at turn >= 60.
- Display names default to ``Unknown`` (what ``join`` games show) until the server sets them.
"""

from __future__ import annotations

from swc_local.games.hase_und_igel import board, movegen, rules, xmlmap
from swc_local.games.hase_und_igel.rules import Move, State
from swc_local.games.plugin import Outcome, PositionGame
from swc_local.protocol.element import Element


class HaseUndIgelGame(PositionGame):
    """A game in progress; seat 0 is RED (always starts), seat 1 BLUE.  Its position is the
    rules' :class:`State` (also called ``state``, as the rules name it)."""

    __slots__ = ()
    violation, crash = rules.RuleViolation, rules.RuleCrash
    wire = xmlmap

    def __init__(self, state: State, names: tuple[str, str] = ("Unknown", "Unknown")):
        super().__init__(state, names)

    @classmethod
    def start(cls, rng) -> HaseUndIgelGame:
        return cls(rules.new_state(board.generate(rng)))

    @classmethod
    def from_state(cls, state: Element) -> HaseUndIgelGame:
        return cls(*xmlmap.parse_state(state))

    @property
    def state(self) -> State:
        return self.position

    def snapshot(self) -> HaseUndIgelGame:
        """A copy later moves do not change (the viewer keeps one per state)."""
        return HaseUndIgelGame(self.state.copy(), self.names)

    @property
    def current_seat(self) -> int:
        return self.state.turn % 2

    def push(self, move: Move) -> None:
        rules.perform_move(self.state, move)

    def outcome(self) -> Outcome | None:
        result = rules.outcome(self.state)
        return None if result is None else Outcome(result[0], result[1])

    def state_element(self) -> Element:
        return xmlmap.state_element(self.state, self.names)

    def score_parts(self, seat: int) -> list[str]:
        player = self.state.player(seat)
        return [str(player.index), str(player.carrots)]

    def winner_element(self, seat: int) -> Element:
        return xmlmap.winner_element(self.state.player(seat), self.names[seat])

    def legal_moves(self) -> list[Move]:
        return movegen.legal_moves(self.state)
