"""The Hive 2020 game plugin (``swc_2020_hive``): glues the pure rules (:mod:`.rules`) to the
server contract (:mod:`swc_local.games.plugin`) and the XML mapping (:mod:`.xmlmap`).

The season speaks the classic 2018/2019 dialect with the 2020 SDK's changes; the room side of
those changes is :mod:`swc_local.server.xml.season_2020` (chosen by :attr:`HivePlugin.season`).

Spec-conformance notes (``spec/hive_2020.md``):

* §4: an InvalidMove's reason is the official text plus ``; move was MOVE`` (the move as the
  official ``toString`` prints it, with the coordinates as received); a refused skip has no
  suffix.  The score's reason and the error carry the same text.
* §2, defect 7: the blocked fields come from the room's seeded ``rng`` (``--seed``), so every
  game can be replayed; the official server drew them unseeded.
* §6.2: the win texts name the winner as ``NAME (Rot)`` / ``NAME (Blau)``.
* ``random_move`` picks uniformly with ``rng.choice`` over :meth:`legal_moves` (the official
  ``getPossibleMoves`` set, one set move per piece type, in a fixed order), and skips where that
  set is empty (the bee is due and cannot be set: the server accepts the skip, §5).
"""

from __future__ import annotations

import random

from swc_local.games.hive import xmlmap
from swc_local.games.hive.rules import COLOR_GERMAN, COLOR_NAMES, SKIP, Move, Position, RuleViolation, ScanCrash, SkipMove
from swc_local.games.plugin import InvalidMove, Outcome, PositionGame, ScoreFragment, XmlPlugin
from swc_local.protocol.element import Element

class HiveGame(PositionGame):
    """One room's game: a :class:`Position` plus the display names."""

    __slots__ = ()
    violation, crash = RuleViolation, ScanCrash
    wire, position_class = xmlmap, Position

    def __init__(self, position: Position, names: tuple[str, str] = ("Unknown", "Unknown")):
        super().__init__(position, names)

    @classmethod
    def from_state(cls, state: Element) -> HiveGame:
        return cls(*xmlmap.position_from_state(state))

    def snapshot(self) -> HiveGame:
        return HiveGame(self.position.copy(), self.names)

    def push(self, move: object) -> None:
        wire = xmlmap.wire_move(move)  # type: ignore[arg-type]
        self.position.push(wire.move)
        self.position.last_move = wire  # echoed as received (spec §3)

    def mistake(self, violation: RuleViolation, move: object) -> InvalidMove:
        suffix = f"; move was {xmlmap.wire_move(move).text()}" if violation.with_move else ""  # type: ignore[arg-type]
        return InvalidMove(violation.reason + suffix)

    def echoes_move(self, move: object) -> bool:
        """A refused skip's exception carries no move: no ``originalRequest`` (spec §4 D)."""
        return not isinstance(xmlmap.wire_move(move).move, SkipMove)  # type: ignore[arg-type]

    def outcome(self) -> Outcome | None:
        decision = self.position.decision()
        if decision is None:
            return None
        winner, template = decision
        name = "" if winner is None else f"{self.names[winner]} ({COLOR_GERMAN[winner]})"
        return Outcome(winner, template.format(name))

    def state_element(self) -> Element:
        return xmlmap.state_element(self.position, self.names)

    def state_text(self, depth: int) -> str:
        """``state_element().render(depth)``, faster (the server's memento of every move)."""
        return xmlmap.state_text(self.position, self.names, depth)

    def score_parts(self, seat: int) -> list[str]:
        return [str(self.position.free_bee_neighbours(seat))]

    def winner_element(self, seat: int) -> Element:
        return xmlmap.player_element("winner", self.names[seat], seat)


class HivePlugin(XmlPlugin):
    """The ``swc_2020_hive`` game type (its facts: games/hive/entry.py; its season's room:
    server/xml/season_2020.py)."""

    game_class = HiveGame
    score_fragments = (
        ScoreFragment("Gewinner", "SUM"),
        ScoreFragment("\u2205 freie Felder", "AVERAGE"),
    )
    move_classes = frozenset(xmlmap.MOVE_CLASSES)
    data_classes = frozenset({xmlmap.STATE_CLASS})
    error_echoes_move = True  # 20.final's invalid-move error carries <originalRequest> (spec §8)

    def recognizes_state(self, state: Element) -> bool | None:
        """``class="state"`` is shared with other seasons: a Hive state has the undeployed lists."""
        return state.find("undeployedRedPieces") is not None

    def random_move(self, game: HiveGame, rng: random.Random) -> Move:
        """A uniformly random legal move; a skip where the official list is empty (the bee is due
        and cannot be set): the server accepts it there (spec §5)."""
        moves = game.position.legal_moves()
        return rng.choice(moves) if moves else SKIP

    def describe(self, game: HiveGame) -> str:
        position = game.position
        return f"turn {position.turn}, {COLOR_NAMES[position.current]} to move\n{position.text()}"
