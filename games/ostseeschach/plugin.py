"""The Ostseeschach 2022 game plugin: glues the pure rules (:mod:`.rules`) to the server contract
(:mod:`swc_local.games.plugin`) and the XML mapping (:mod:`.xmlmap`).

What the modern-dialect server needs beyond the classic contract, and where it finds it here:

* An invalid move raises :class:`MoveMistake`, an :class:`InvalidMove` whose ``reason`` is the
  score reason (``<mistake> bei Zug 'Zug von [x|y] zu [x|y]'``) and whose ``detail`` is what
  follows ``Ungueltiger Zug von 'NAME'.\\n`` in the error to the offender and observers
  (``InvalidMoveException(mistake=<mistake>, move=Zug von [x|y] zu [x|y])``, spec A.3).
* ``game.move_text(move)`` (= ``str(move)``) is the official ``Move.toString`` (``Zug von [7|0]
  zu [6|0]``), which the not-your-turn reason quotes ("… (msg was Zug von [7|0] zu [6|0]).").
* ``envelope = ENVELOPE_2022``: the 22.x result layout, timeouts and step semantics.
* ``Outcome.reason`` is the empty string: a regular 2022 score has ``reason=""`` (the WinReason
  never goes on the wire); :attr:`OstseeschachGame.win_reason` keeps it for logs.

Spec-conformance notes:

* ``apply(seat, move)`` expects ``seat`` to be the side to move: the server answers a move out of
  turn itself before a game sees it, so a mismatch is a caller bug and raises ValueError.
* A move whose ``to`` is missing but whose ``from`` is an own piece crashed the official rule code:
  ``apply`` raises MalformedMove (the server drops the player, LEFT; ``G/move_no_to``).
* ``data_classes`` names only the state's XStream alias (``state``), so a client can tell an
  Ostseeschach memento by its class; room data that is not a move is answered by the 2022 lobby
  itself (spec A.4), never by the game.
* ``score_parts`` gives 0 as the distance of a team without light pieces (issue 9; the official
  server failed there and sent no result, A.5 item 3).
* ``random_move`` picks uniformly with ``rng.choice`` over the legal moves in the official
  generator's order, so a seeded rng on the same board plays the same game.
"""

from __future__ import annotations

import random

from swc_local.games.ostseeschach import notation
from swc_local.games.ostseeschach import xmlmap
from swc_local.games.ostseeschach.rules import TEAM_NAMES, Move, Position, RuleCrash, RuleViolation
from swc_local.games.plugin import (
    ENVELOPE_2022, MODERN, PositionGame, InvalidMove, Outcome, PluginHooks, RandomMoveFromLegal, ScoreFragment,
)
from swc_local.protocol.element import Element


class MoveMistake(InvalidMove):
    """An invalid move with both official texts: ``reason`` (the score reason, the exception's
    message) and ``detail`` (its toString, carried by the error message)."""

    def __init__(self, violation: RuleViolation):
        super().__init__(
            str(violation), f"InvalidMoveException(mistake={violation.mistake}, move={violation.move})"
        )
        self.mistake = violation.mistake
        self.move = violation.move

    @property
    def error_message(self) -> str:
        return self.detail


class OstseeschachGame(PositionGame):
    """One room's game: a :class:`Position` plus the display names the server sets."""

    __slots__ = ()
    violation, crash, move_type, game_name = RuleViolation, RuleCrash, Move, "an Ostseeschach"

    def snapshot(self) -> OstseeschachGame:
        """A copy later moves do not change (the viewer keeps one per state)."""
        return OstseeschachGame(self.position.copy(), self.names)

    def decode_move(self, data: Element) -> Move:
        return xmlmap.decode_move(data)

    def mistake(self, violation: RuleViolation, move: object) -> MoveMistake:
        return MoveMistake(violation)

    def move_text(self, move: Move) -> str:
        """The official ``Move.toString``, quoted in the not-your-turn reason."""
        return str(move)

    @property
    def win_reason(self) -> str | None:
        """DIFFERING_SCORES, DIFFERING_POSITIONS or EQUAL_SCORE once the game is over."""
        decision = self.position.decision()
        return None if decision is None else decision.reason

    def outcome(self) -> Outcome | None:
        decision = self.position.decision()
        if decision is None:
            return None
        return Outcome(decision.winner, "")

    def state_element(self) -> Element:
        return xmlmap.state_element(self.position)

    def score_parts(self, seat: int) -> list[str]:
        return [str(part) for part in self.position.score_parts(seat)]

    def winner_element(self, seat: int) -> Element:
        return xmlmap.team_element("winner", seat)


class OstseeschachPlugin(PluginHooks, RandomMoveFromLegal):
    """The ``swc_2022_ostseeschach`` game type."""

    game_type = "swc_2022_ostseeschach"
    display_name = "Ostseeschach"
    dialect = MODERN
    envelope = ENVELOPE_2022
    season = 2022
    soft_timeout_ms = 2000
    hard_timeout_ms = 10000
    score_fragments = (
        ScoreFragment("Siegpunkte", "SUM"),
        ScoreFragment("Bernsteine", "AVERAGE"),
        ScoreFragment("Leichtfiguren Vorne", "AVERAGE"),
    )
    move_classes = frozenset({"move", "sc.plugin2022.Move"})
    data_classes = frozenset({xmlmap.STATE_CLASS})
    error_echoes_move = True  # the 2022 error carries <originalMessage class="move"> (spec A.3)

    def new_game(self, rng: random.Random) -> OstseeschachGame:
        return OstseeschachGame(Position.start(rng))

    def game_from_state(self, state: Element) -> OstseeschachGame:
        return OstseeschachGame(xmlmap.position_from_state(state))

    def recognizes_state(self, state: Element) -> bool:
        """A 2022 state has ``<startTeam>`` and ``<board><pieces>`` (2018's also says ``state``)."""
        board = state.find("board")
        return state.find("startTeam") is not None and board is not None and board.find("pieces") is not None

    def legal_moves(self, game: OstseeschachGame) -> list[Move]:
        return game.position.legal_moves()

    def move_element(self, move: Move) -> Element:
        return xmlmap.move_element(move)

    def end_reason(self, game: OstseeschachGame) -> str:
        """The WinReason the board's header names (``DIFFERING_SCORES``, ...), never on the wire."""
        decision = game.position.decision()
        return decision.reason if decision is not None else ""

    def notation(self, move, before=None) -> str:
        return notation.move_notation(move, None if before is None else before.position)

    def describe(self, game: OstseeschachGame) -> str:
        position = game.position
        ambers = f"ambers ONE {position.ambers[0]}, TWO {position.ambers[1]}"
        if position.is_over():
            decision = position.decision()
            assert decision is not None
            who = "draw" if decision.winner is None else f"{TEAM_NAMES[decision.winner]} wins"
            head = f"turn {position.turn}, game over: {who} ({decision.reason}), {ambers}"
        else:
            head = f"turn {position.turn}, {TEAM_NAMES[position.current]} to move, {ambers}"
        return f"{head}\n{position.text()}"


PLUGIN = OstseeschachPlugin()
