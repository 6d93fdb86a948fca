"""One running Hase und Igel game as the server drives it: rules behind the XML :class:`swc_local.games.plugin.Game` contract.

Why a thin wrapper (named ``xml*`` as a wire mapping, tests/test_layers.py): the rules live
in :mod:`rules` (pure) and the XML in :mod:`xmlmap`; this class
only maps their exceptions onto the server's two fault kinds (a rule text -> InvalidMove, an
official crash -> MalformedMove) and keeps the display names the states and results show.

Spec-conformance notes:
- ``outcome()`` is evaluated on whatever the state is, including a partially applied failed move
  (§7 artifact): the goal check runs when ``turn`` is even, the round limit at turn >= 60.
- Display names default to ``Unknown`` (what ``join`` games show) until the server sets them.
"""

from __future__ import annotations

from swc_local.games.hase_und_igel import movegen, rules, xmlmap
from swc_local.games.hase_und_igel.rules import Move, State
from swc_local.games.plugin import GameHooks, InvalidMove, MalformedMove, Outcome
from swc_local.protocol.element import Element


class HaseUndIgelGame(GameHooks):
    """A game in progress; seat 0 is RED (always starts), seat 1 BLUE."""

    def __init__(self, state: State, names: tuple[str | None, str | None] = ("Unknown", "Unknown")):
        self.state = state
        self.names = names

    def snapshot(self) -> HaseUndIgelGame:
        """A copy later moves do not change (the viewer keeps one per state)."""
        return HaseUndIgelGame(self.state.copy(), self.names)

    @property
    def turn(self) -> int:
        return self.state.turn

    @property
    def current_seat(self) -> int:
        return self.state.turn % 2

    def set_display_names(self, names: tuple[str, str]) -> None:
        self.names = (names[0], names[1])

    def decode_move(self, data: Element) -> Move:
        return xmlmap.decode_move(data)

    def apply(self, seat: int, move: Move) -> None:
        if seat != self.current_seat:
            raise ValueError(f"seat {seat} moved at turn {self.turn}")
        try:
            rules.perform_move(self.state, move)
        except rules.RuleViolation as violation:
            raise InvalidMove(violation.message) from None
        except rules.RuleCrash as crash:
            raise MalformedMove(str(crash)) from None

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
