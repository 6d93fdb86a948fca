"""The Penguins 2023 game plugin: glues the pure rules (:mod:`.rules`) to the server contract
(:mod:`swc_local.games.plugin`) and the XML mapping (:mod:`.xmlmap`).

The 2023 season speaks the 22.x envelope unchanged (penguins_2023.md §8.1), so everything outside
the game payload is the Ostseeschach 2022 room and lobby (``envelope = ENVELOPE_2022``); this
module only says what is Penguins.

Spec-conformance notes:

* An invalid move raises :class:`MoveMistake`, an :class:`InvalidMove` whose ``reason`` is the
  score reason (``<mistake> bei Zug 'Setze Pinguin auf [x|y]'``) and whose ``detail`` follows
  ``Ungueltiger Zug von 'NAME'.\\n`` in the error (``InvalidMoveException(mistake=…, move=…)``,
  §8.5).  ``move_text`` is the official ``Move.toString``, quoted in the not-your-turn reason.
* What threw ``IllegalArgumentException`` in the official code (reads off the board, set moves to
  an odd-parity point next to a single-fish floe, a move without ``<to>``) raises MalformedMove:
  the room drops the player without a word, LEFT ``UNKNOWN``, as the captures show (§3, §12.3:
  the defect is copied, so every real client sees the official answer).
* ``current_seat`` follows the skip rule (§1): a stuck team is passed over silently, so the room
  asks the same team again; no message marks the skip.
* The start board (§2): ``new_game`` draws a board seed from the room's ``rng`` (the official
  server drew it from an unseeded ``Random``) and fills the board with Kotlin's ``Random(seed)``,
  so a seed the official server printed (``Board Seed: N``) gives its board here too; the seed is
  logged in the same words, kept on the game and shown by ``describe``.
* ``Outcome.reason`` is the empty string: a regular 2022-envelope score has ``reason=""``;
  :attr:`PenguinsGame.win_reason` keeps the official WinReason text for logs.
* ``random_move`` picks uniformly with ``rng.choice`` over the legal moves in the official order.
"""

from __future__ import annotations

import logging
import random

from swc_local.games.penguins import notation
from swc_local.games.penguins import xmlmap
from swc_local.games.penguins.rules import TEAM_NAMES, Move, Position, RuleCrash, RuleViolation
from swc_local.games.plugin import (
    ENVELOPE_2022, MODERN, PositionGame, InvalidMove, Outcome, PluginHooks, RandomMoveFromLegal,
    ScoreFragment,
)
from swc_local.protocol.element import Element

log = logging.getLogger("swc.penguins")  # under "swc": the server and tools set its level


class MoveMistake(InvalidMove):
    """An invalid move with both official texts (the score reason and the error's detail)."""

    def __init__(self, violation: RuleViolation):
        super().__init__(str(violation), f"InvalidMoveException(mistake={violation.mistake}, move={violation.move})")
        self.mistake = violation.mistake
        self.move = violation.move

    @property
    def error_message(self) -> str:
        return self.detail


def random_seed(rng: random.Random) -> int:
    """A board seed as Kotlin's ``Random.nextInt()`` gives one: any 32-bit signed int."""
    return rng.getrandbits(32) - (1 << 31)


class PenguinsGame(PositionGame):
    """One room's game: a :class:`Position` plus the display names the server sets."""

    __slots__ = ("board_seed",)
    violation, crash, move_type, game_name = RuleViolation, RuleCrash, Move, "a Penguins"

    def __init__(self, position: Position, names: tuple[str, str] = ("", ""), board_seed: int | None = None):
        super().__init__(position, names)
        self.board_seed = board_seed  # None: loaded from a state, not generated

    def snapshot(self) -> PenguinsGame:
        return PenguinsGame(self.position.copy(), self.names, self.board_seed)

    def decode_move(self, data: Element) -> Move:
        return xmlmap.decode_move(data)

    def mistake(self, violation: RuleViolation, move: object) -> MoveMistake:
        return MoveMistake(violation)

    def move_text(self, move: Move) -> str:
        return str(move)

    @property
    def win_reason(self) -> str | None:
        """The official WinReason text once the game is over (never on the wire in 2023)."""
        if not self.position.is_over():
            return None
        winner = self.position.winner()
        return "Beide Teams sind gleichauf." if winner is None else f"{TEAM_NAMES[winner]} hat mehr Fische gesammelt."

    def outcome(self) -> Outcome | None:
        if not self.position.is_over():
            return None
        return Outcome(self.position.winner(), "")

    def state_element(self) -> Element:
        return xmlmap.state_element(self.position)

    def score_parts(self, seat: int) -> list[str]:
        return [str(part) for part in self.position.score_parts(seat)]

    def winner_element(self, seat: int) -> Element:
        return xmlmap.team_element("winner", seat)


class PenguinsPlugin(PluginHooks, RandomMoveFromLegal):
    """The ``swc_2023_penguins`` game type."""

    game_type = "swc_2023_penguins"
    display_name = "Penguins"
    dialect = MODERN
    envelope = ENVELOPE_2022
    season = 2023
    soft_timeout_ms = 2000
    hard_timeout_ms = 10000
    score_fragments = (ScoreFragment("Siegpunkte", "SUM"), ScoreFragment("Fische", "AVERAGE"))
    move_classes = frozenset({"move"})
    data_classes = frozenset({xmlmap.STATE_CLASS})
    error_echoes_move = True  # the 22.x error carries <originalMessage class="move"> (§8.5)

    def new_game(self, rng: random.Random) -> PenguinsGame:
        return self.game_from_seed(random_seed(rng))

    def game_from_seed(self, seed: int) -> PenguinsGame:
        """The official server's board for ``Board Seed: seed``."""
        log.info("Board Seed: %d", seed)
        return PenguinsGame(Position.from_seed(seed), board_seed=seed)

    def game_from_state(self, state: Element) -> PenguinsGame:
        return PenguinsGame(xmlmap.position_from_state(state))

    def recognizes_state(self, state: Element) -> bool:
        """A 2023 state has ``<board>`` rows of ``<field>`` and ``<fishes>`` (others say ``state`` too)."""
        return xmlmap.is_penguins_state(state)

    def legal_moves(self, game: PenguinsGame) -> list[Move]:
        return game.position.legal_moves()

    def move_element(self, move: Move) -> Element:
        return xmlmap.move_element(move)

    def end_reason(self, game: PenguinsGame) -> str:
        """The official WinReason text (never on the wire in 2023)."""
        return game.win_reason or ""

    def notation(self, move, before=None) -> str:
        return notation.move_notation(move, None if before is None else before.position)

    def describe(self, game: PenguinsGame) -> str:
        position = game.position
        fish = f"fish ONE {position.fishes[0]}, TWO {position.fishes[1]}"
        seed = "" if game.board_seed is None else f", board seed {game.board_seed}"
        if position.is_over():
            winner = position.winner()
            who = "draw" if winner is None else f"{TEAM_NAMES[winner]} wins"
            head = f"turn {position.turn}, game over: {who}, {fish}{seed}"
        else:
            head = f"turn {position.turn}, {TEAM_NAMES[position.current]} to move, {fish}{seed}"
        return f"{head}\n{position.text()}"


PLUGIN = PenguinsPlugin()
