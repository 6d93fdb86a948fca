"""The Piranhas 2026 game plugin (``swc_2026_piranhas``): glues the pure rules (:mod:`.rules`) to
the server contract (:mod:`swc_local.games.plugin`) and the XML mapping (:mod:`.xmlmap`).

What the modern (2023+) envelope needs beyond the classic contract, and where it is:

* an invalid move raises :class:`InvalidPiranhaMove`, an :class:`InvalidMove` whose ``reason``
  is the ``InvalidMoveException`` message (the result says ``Regelverletzung von X: <reason>``)
  and whose ``detail`` is the exception's ``toString`` (the ``error`` message says
  ``Ungueltiger Zug von 'X'.\\n<detail>``);
* a move that cannot be performed at all raises :class:`xmlmap.DroppedMove` with the leave
  ``cause`` (``UNKNOWN`` or ``PROTOCOL_ERROR``);
* ``str(move)`` is the official ``Move.toString`` (``It's not your turn ... (msg was <move>)``);
* :meth:`Piranhas2026Game.outcome` gives the finished reason text, with the winner's display
  name or, when blank (every ``<join/>`` player), its team name.

Spec-conformance notes:

* ``apply(seat, move)`` expects ``seat`` to be the side to move: the server answers a move out of
  turn itself before a game sees it, so a mismatch is a caller bug (ValueError).
* ``outcome()`` is ``GameState.isOver`` + ``winCondition``; the server asks it after every move
  and before every move request, so a loaded position that is already over ends at once.
* ``random_move`` draws uniformly with ``rng.choice`` over the legal moves, so a seeded rng plays
  the same game again.
"""

from __future__ import annotations

from swc_local.games.plugin import InvalidMove, MalformedMove, Outcome, PositionGame, ScoreFragment, XmlPlugin
from swc_local.games.piranhas_2026 import xmlmap
from swc_local.games.piranhas_2026.rules import (
    TEAM_NAMES, GameState, Move, MoveRejected, OffBoardStart, Verdict, WinReason,
)
from swc_local.protocol.element import Element


class InvalidPiranhaMove(InvalidMove):
    """A rule check failed: ``reason`` and ``detail`` as the 26.1.0 server words them."""

    def __init__(self, rejected: MoveRejected) -> None:
        super().__init__(rejected.message, rejected.exception_text)
        self.mistake = rejected.mistake
        self.move = rejected.move


class Piranhas2026Game(PositionGame):
    """One room's game: a :class:`GameState` (its ``position``, also called ``state`` as the
    rules name it), the display names and a state renderer."""

    __slots__ = ("_renderer",)
    violation, crash, move_type, game_name = MoveRejected, OffBoardStart, Move, "a Piranhas 2026"
    wire, position_class = xmlmap, GameState

    def __init__(self, state: GameState, names: tuple[str, str] = ("", "")) -> None:
        super().__init__(state, names)
        self._renderer = xmlmap.StateRenderer()

    @classmethod
    def from_state(cls, state: Element) -> Piranhas2026Game:
        return cls(xmlmap.state_from_element(state))

    def snapshot(self) -> Piranhas2026Game:
        """A copy later moves do not change (the viewer keeps one per state)."""
        return Piranhas2026Game(self.state.copy(), self.names)

    @property
    def state(self) -> GameState:
        return self.position

    @property
    def current_seat(self) -> int:
        return self.position.team_to_move

    def shown_name(self, seat: int) -> str:
        """The display name, or the team name when it is blank (the server's ``%s``)."""
        name = self.names[seat]
        return name if name.strip() else TEAM_NAMES[seat]

    def push(self, move: Move) -> None:
        self.position.perform(move)

    def mistake(self, rejected: MoveRejected, move: object) -> InvalidPiranhaMove:
        return InvalidPiranhaMove(rejected)

    def malformed(self, crash: Exception) -> MalformedMove:
        return xmlmap.DroppedMove(str(crash), xmlmap.UNKNOWN)

    def move_text(self, move: Move) -> str:
        """The official ``Move.toString`` (quoted in the not-your-turn text)."""
        return str(move)


    def outcome(self) -> Outcome | None:
        verdict = self.state.verdict()
        return None if verdict is None else self._outcome(verdict)

    def early_outcome(self) -> Outcome:
        """Who leads when the game is stopped before its end (``currentWinner()``, spec §4)."""
        return self._outcome(self.state.current_winner())

    def _outcome(self, verdict: Verdict) -> Outcome:
        if verdict.winner is None:
            return Outcome(None, WinReason.TIE.value)
        return Outcome(verdict.winner, verdict.reason.text(self.shown_name(verdict.winner)))

    def state_element(self) -> Element:
        return self._renderer.state(self.state)

    def state_text(self, depth: int) -> str:
        """``state_element().render(depth)``, faster (the server's memento of every move)."""
        return self._renderer.text(self.state, depth)

    def score_parts(self, seat: int) -> list[str]:
        return [str(self.state.greatest_swarm(seat))]

    def winner_element(self, seat: int) -> Element:
        return Element("winner", {"team": TEAM_NAMES[seat]})


class Piranhas2026Plugin(XmlPlugin):
    """The ``swc_2026_piranhas`` game type (its facts: games/piranhas_2026/entry.py)."""

    game_class = Piranhas2026Game
    score_fragments = (
        ScoreFragment("Siegpunkte", "SUM"),
        ScoreFragment("Schwarmgröße", "AVERAGE"),
    )
    move_classes = frozenset({xmlmap.MOVE_CLASS, "sc.plugin2026.Move"})
    data_classes = frozenset({xmlmap.STATE_CLASS})
    error_echoes_move = True  # the error carries <originalMessage class="move"> (spec §7)
    team_names = TEAM_NAMES

    def recognizes_state(self, state: Element) -> bool:
        """Whether ``state`` is a Piranhas 2026 state: several seasons call their state class
        ``state``, so the registry asks (a board of 10 rows of 10 known fields)."""
        try:
            xmlmap.state_from_element(state)
        except ValueError:
            return False
        return True

    def describe(self, game: Piranhas2026Game) -> str:
        state = game.state
        union = "" if state.first_union is None else f", firstUnion {TEAM_NAMES[state.first_union]}"
        header = f"turn {state.turn}, {TEAM_NAMES[state.team_to_move]} to move{union}"
        legend = "a b c = ONE S M L, A B C = TWO S M L, X = squid"
        return f"{header}\n{state.text()}\n{legend}"
