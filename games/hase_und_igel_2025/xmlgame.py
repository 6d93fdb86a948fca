"""One running Hase und Igel 2025 game as the server drives it: rules behind the XML :class:`swc_local.games.plugin.Game`.

Why a thin wrapper (named ``xml*`` as a wire mapping, tests/packaging/test_layers.py): the rules live
in :mod:`rules` (pure) and the XML in :mod:`xmlmap`; this class
maps a rule mistake onto the server's fault kind and keeps the display names the results show.

Spec-conformance notes:
- A rule mistake becomes :class:`HuIInvalidMove`, an ``InvalidMove`` whose ``reason`` is the
  exception message the result quotes (``<mistake text> bei '<move>'``) and whose ``detail``
  is what the error message shows after ``Ungueltiger Zug von 'NAME'.\\n``
  (``InvalidMoveException(mistake=NAME, move=<move>)``), both verbatim (spec §7, captured).
- A failed move leaves the state partly changed, as on the official server; the non-violator's
  score parts are read from that state (spec §4 step 1).
- Display names are blank for ``<join/>`` players; a reason then names the team (``ONE``).
- ``early_outcome`` (a cancelled game) applies the winner rule of spec §5 to the current state,
  as the server's ``winCondition ?: currentWinner()``; the generic fallback would compare carrots
  the wrong way round (fewer is better here).
"""

from __future__ import annotations

from swc_local.games.hase_und_igel_2025 import movegen, rules, track, xmlmap
from swc_local.games.hase_und_igel_2025.state import Move, State
from swc_local.games.plugin import InvalidMove, Outcome, PositionGame
from swc_local.protocol.element import Element


class HuIInvalidMove(InvalidMove):
    """A rule mistake with both official texts (result reason and error message)."""

    def __init__(self, violation: rules.RuleViolation):
        super().__init__(violation.reason, violation.error_text)
        self.mistake = violation.mistake.name


class HaseUndIgel2025Game(PositionGame):
    """A game in progress; seat 0 is ONE (always starts), seat 1 TWO.  Its position is the
    rules' :class:`State` (also called ``state``, as the rules name it)."""

    __slots__ = ()
    violation = rules.RuleViolation
    wire = xmlmap

    @classmethod
    def start(cls, rng) -> HaseUndIgel2025Game:
        return cls(State(track.generate(rng)))

    @classmethod
    def from_state(cls, state: Element) -> HaseUndIgel2025Game:
        return cls(xmlmap.parse_state(state))

    @property
    def state(self) -> State:
        return self.position

    def snapshot(self) -> HaseUndIgel2025Game:
        """A copy later moves do not change (the viewer keeps one per state)."""
        return HaseUndIgel2025Game(self.state.copy(), self.names)

    @property
    def current_seat(self) -> int:
        return self.state.seat

    def move_text(self, move: Move) -> str:
        """The move as the official ``toString`` writes it (quoted in turn-order errors)."""
        return str(move)

    def push(self, move: Move) -> None:
        rules.perform_move(self.state, move)

    def mistake(self, violation: rules.RuleViolation, move: object) -> HuIInvalidMove:
        return HuIInvalidMove(violation)

    def outcome(self) -> Outcome | None:
        result = rules.result(self.state)
        return None if result is None else Outcome(result.winner, result.reason(self.names))

    def early_outcome(self) -> Outcome:
        """Who wins a game an admin cancels before its end: the goal rule if a hare is in the
        goal, else the farther hare, then the one with fewer carrots (spec §5)."""
        result = rules.winner(self.state)
        return Outcome(result.winner, result.reason(self.names))

    def state_element(self) -> Element:
        return xmlmap.state_element(self.state)

    def score_parts(self, seat: int) -> list[str]:
        hare = self.state.hares[seat]
        return [str(hare.position), str(hare.carrots)]

    def winner_element(self, seat: int) -> Element:
        """A regular win of ``seat`` as the modern result writes it."""
        result = rules.winner(self.state)
        return Element("winner", {"team": ("ONE", "TWO")[seat], "regular": "true",
                                  "reason": result.reason(self.names)})

    def legal_moves(self) -> list[Move]:
        return movegen.sensible_moves(self.state)
