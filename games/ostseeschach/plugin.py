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

from swc_local.games.ostseeschach import xmlmap
from swc_local.games.ostseeschach.rules import TEAM_NAMES, Move, Position, RuleCrash, RuleViolation
from swc_local.games.from_to_xml import FromToGame, MoveMistake  # noqa: F401  (MoveMistake: the season's)
from swc_local.games.plugin import Outcome, ScoreFragment, XmlPlugin
from swc_local.protocol.element import Element


class OstseeschachGame(FromToGame):
    """One room's game: a :class:`Position` plus the display names the server sets."""

    __slots__ = ()
    violation, crash, move_type, game_name = RuleViolation, RuleCrash, Move, "an Ostseeschach"
    wire, position_class = xmlmap, Position

    def snapshot(self) -> OstseeschachGame:
        """A copy later moves do not change (the viewer keeps one per state)."""
        return OstseeschachGame(self.position.copy(), self.names)

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


class OstseeschachPlugin(XmlPlugin):
    """The ``swc_2022_ostseeschach`` game type (its facts: games/ostseeschach/entry.py)."""

    game_class = OstseeschachGame
    score_fragments = (
        ScoreFragment("Siegpunkte", "SUM"),
        ScoreFragment("Bernsteine", "AVERAGE"),
        ScoreFragment("Leichtfiguren Vorne", "AVERAGE"),
    )
    move_classes = frozenset({"move", "sc.plugin2022.Move"})
    data_classes = frozenset({xmlmap.STATE_CLASS})
    error_echoes_move = True  # the 2022 error carries <originalMessage class="move"> (spec A.3)

    def recognizes_state(self, state: Element) -> bool:
        """A 2022 state has ``<startTeam>`` and ``<board><pieces>`` (2018's also says ``state``)."""
        board = state.find("board")
        return state.find("startTeam") is not None and board is not None and board.find("pieces") is not None

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
