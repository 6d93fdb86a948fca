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

from swc_local.games.penguins import xmlmap
from swc_local.games.penguins.rules import TEAM_NAMES, Move, Position, RuleCrash, RuleViolation
from swc_local.games.from_to_xml import FromToGame, MoveMistake  # noqa: F401  (MoveMistake: the season's)
from swc_local.games.plugin import Outcome, ScoreFragment, XmlPlugin
from swc_local.protocol.element import Element

log = logging.getLogger("swc.penguins")  # under "swc": the server and tools set its level


def random_seed(rng: random.Random) -> int:
    """A board seed as Kotlin's ``Random.nextInt()`` gives one: any 32-bit signed int."""
    return rng.getrandbits(32) - (1 << 31)


class PenguinsGame(FromToGame):
    """One room's game: a :class:`Position` plus the display names the server sets."""

    __slots__ = ("board_seed",)
    violation, crash, move_type, game_name = RuleViolation, RuleCrash, Move, "a Penguins"
    wire = xmlmap

    def __init__(self, position: Position, names: tuple[str, str] = ("", ""), board_seed: int | None = None):
        super().__init__(position, names)
        self.board_seed = board_seed  # None: loaded from a state, not generated

    @classmethod
    def start(cls, rng: random.Random) -> PenguinsGame:
        return cls.from_seed(random_seed(rng))

    @classmethod
    def from_seed(cls, seed: int) -> PenguinsGame:
        """The official server's board for ``Board Seed: seed``."""
        log.info("Board Seed: %d", seed)
        return cls(Position.from_seed(seed), board_seed=seed)

    def snapshot(self) -> PenguinsGame:
        return PenguinsGame(self.position.copy(), self.names, self.board_seed)

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


class PenguinsPlugin(XmlPlugin):
    """The ``swc_2023_penguins`` game type (its facts: games/penguins/entry.py)."""

    game_class = PenguinsGame
    score_fragments = (ScoreFragment("Siegpunkte", "SUM"), ScoreFragment("Fische", "AVERAGE"))
    move_classes = frozenset({"move"})
    data_classes = frozenset({xmlmap.STATE_CLASS})
    error_echoes_move = True  # the 22.x error carries <originalMessage class="move"> (§8.5)

    def game_from_seed(self, seed: int) -> PenguinsGame:
        """The official server's board for ``Board Seed: seed``."""
        return PenguinsGame.from_seed(seed)

    def recognizes_state(self, state: Element) -> bool:
        """A 2023 state has ``<board>`` rows of ``<field>`` and ``<fishes>`` (others say ``state`` too)."""
        return xmlmap.is_penguins_state(state)

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
