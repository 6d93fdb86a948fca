"""The Mississippi Queen 2024 game plugin (``swc_2024_mississippi_queen``): glues the pure rules
(:mod:`.rules`) to the server contract (:mod:`swc_local.games.plugin`, modern dialect) and the XML
mapping (:mod:`.xmlmap`).

The 24.2.5 server speaks the 2022 lobby with the 2025+ result (spec §8): this plugin takes the
2025 envelope and states the 24.x differences on itself.

Conformance notes:

* An invalid move raises :class:`InvalidMove` whose ``reason`` is the InvalidMoveException message
  (``<text> bei 'Zug[…]'``, no move for NO_ACTIONS) and whose ``detail`` is
  ``InvalidMoveException(mistake=<CONSTANT>, move=<Zug[…] or null>)`` (§4.8, §6).
* A move the official rule code crashes on (an advance by 0 or less from a sandbank, §10 D8) is a
  :class:`MalformedMove` with cause ``UNKNOWN``, as a move without ``<actions>`` is.
* ``str(move)``/``move_text`` is the official ``Move.toString``, quoted by the not-your-turn
  message (``msg was Zug[Gehe 1 Felder vor]``).
* ``Outcome.reason`` names the display name, or the team for ``<join/>`` players; the passenger
  tie-break upper-cases it (``%S``, §10 D6); a tie is ``Beide Teams sind gleichauf`` (24.x, the
  25+ servers say "Spieler").  A stuck ship ends the game with ``regular="false"``, the other
  ship winning, the stuck one scoring ``0 0`` (§5, §10 D3): done as the official server does,
  because that is what socha 2.2.2 and every bot of the season saw.
* ``early_outcome`` (an admin's ``cancel``) is the same winner computation as the end of the game
  (§10 D10: ``Alice hat mehr Punkte.``, ``regular="true"``).
* ``close_alias`` is False: ``<close/>`` is no message in 24.2.5 (§10 D11), it drops the player
  with ``PROTOCOL_ERROR``.
* ``step_repeats_request`` is True: a ``step`` while a move request is open sends the memento
  and a second request; the answer to that one is then out of turn (§10 D4).
* ``random_move`` (the reference bot) picks uniformly among the official iterator's moves; where
  the revealed river has none but the server asks for a move (it sees the whole river, §10 D1),
  uniformly among the moves into the next segment most likely legal there (:mod:`.horizon`).
"""

from __future__ import annotations

from swc_local.games.mississippi_queen import horizon, notation
from swc_local.games.mississippi_queen import xmlmap
from swc_local.games.mississippi_queen.rules import (
    DIRECTIONS,
    TEAM_NAMES,
    Decision,
    Move,
    Position,
    RuleCrash,
    RuleViolation,
    move_text,
)
from swc_local.games.plugin import InvalidMove, Outcome, PositionGame, ScoreFragment, XmlPlugin
from swc_local.protocol.element import Element


class MississippiQueenGame(PositionGame):
    """One room's game: a :class:`Position` plus the display names the server sets."""

    __slots__ = ("_segments",)
    violation, crash, move_type, game_name = RuleViolation, RuleCrash, tuple, "a Mississippi Queen"
    wire, position_class = xmlmap, Position

    def __init__(self, position: Position, names: tuple[str, str] = ("", "")):
        super().__init__(position, names)
        self._segments = xmlmap.SegmentCache()

    def snapshot(self) -> MississippiQueenGame:
        """A copy later moves do not change (the viewer keeps one per state)."""
        return MississippiQueenGame(self.position.copy(), self.names)

    def move_text(self, move: Move) -> str:
        return move_text(move)

    def mistake(self, violation: RuleViolation, move: object) -> InvalidMove:
        return InvalidMove(violation.message, violation.detail)

    def _outcome(self, decision: Decision) -> Outcome:
        if decision.named is None:
            return Outcome(decision.winner, decision.reason, decision.regular)
        name = self.names[decision.named] or TEAM_NAMES[decision.named]
        reason = decision.reason.replace("%S", name.upper()).replace("%s", name)
        return Outcome(decision.winner, reason, decision.regular)

    def outcome(self) -> Outcome | None:
        decision = self.position.decision()
        return None if decision is None else self._outcome(decision)

    def early_outcome(self) -> Outcome | None:
        return self._outcome(self.position.winner())

    def state_element(self) -> Element:
        return xmlmap.state_element(self.position, self._segments)

    def score_parts(self, seat: int) -> list[str]:
        return [str(part) for part in self.position.score(seat)]

    def winner_element(self, seat: int) -> Element:
        return Element("winner", {"team": TEAM_NAMES[seat]})


class MississippiQueenPlugin(XmlPlugin):
    """The ``swc_2024_mississippi_queen`` game type (its facts: games/mississippi_queen/entry.py)."""

    game_class = MississippiQueenGame
    close_alias = False
    step_repeats_request = True
    score_fragments = (
        ScoreFragment("Siegpunkte", "SUM"),
        ScoreFragment("Punkte", "AVERAGE"),
        ScoreFragment("Passagiere", "AVERAGE"),
    )
    move_classes = xmlmap.MOVE_CLASSES
    data_classes = frozenset({xmlmap.STATE_CLASS})
    error_echoes_move = True  # the error carries <originalMessage class="move"> (spec §6)

    def random_move(self, game: MississippiQueenGame, rng) -> Move | None:
        moves = game.legal_moves()
        if not moves and not game.position.is_over():
            moves = list(horizon.likely_moves(game.position))
        return rng.choice(moves) if moves else None

    def game_from_replay(self, states: list[Element]) -> MississippiQueenGame:
        """The first state with the segments the later states revealed (unrevealed here)."""
        widest = max(states, key=lambda state: len(state.find("board").findall("segment")))
        return MississippiQueenGame(xmlmap.position_from_state(states[0], widest))

    def copy_game(self, game: MississippiQueenGame) -> MississippiQueenGame:
        return game.snapshot()

    def recognizes_state(self, state: Element) -> bool:
        """A 2024 state has a ``currentTeam`` attribute and ``<ship>`` children."""
        return state.get("currentTeam") is not None and state.find("ship") is not None

    def notation(self, move, before=None) -> str:
        return notation.move_notation(move, None if before is None else before.position)

    def describe(self, game: MississippiQueenGame) -> str:
        position = game.position
        if position.is_over():
            outcome = game.outcome()
            assert outcome is not None
            head = f"turn {position.turn}, game over: {outcome.reason}"
        else:
            head = f"turn {position.turn}, {TEAM_NAMES[position.current]} to move"
        lines = [head, f"revealed segments: {position.board.visible} of {len(position.board.segments)}"]
        for ship in position.ships:
            segment = position.board.segment_index(ship.position)
            lines.append(
                f"{TEAM_NAMES[ship.team]}: ({ship.q},{ship.r},{-ship.q - ship.r}) segment {segment} heading "
                f"{DIRECTIONS[ship.direction]}, speed {ship.speed}, coal {ship.coal}, passengers {ship.passengers}, "
                f"points {ship.points}{', stuck' if ship.stuck else ''}"
            )
        return "\n".join(lines) + "\n" + text_board(position)


def text_board(position: Position) -> str:
    """The revealed river as letters (``~`` water, ``#`` island, ``P`` passenger, ``G`` goal,
    ``S`` sandbank, ``1``/``2`` the ships): one line per r, field (q, r) at column 2q + r."""
    board = position.board
    shown = {c: kind for c, (index, _, kind) in board.fields.items() if index < board.visible}
    ships = {ship.position: str(ship.team + 1) for ship in position.ships}
    left = min(2 * q + r for q, r in shown)
    width = max(2 * q + r for q, r in shown) - left + 1
    lines = []
    for row in range(min(r for _, r in shown), max(r for _, r in shown) + 1):
        line = [" "] * width
        for (q, r), kind in shown.items():
            if r == row:
                line[2 * q + r - left] = ships.get((q, r)) or "~#PGS"[kind]
        lines.append("".join(line).rstrip())
    return "\n".join(lines)
