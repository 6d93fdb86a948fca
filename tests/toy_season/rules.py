"""The toy's rules, pure and seeded: two tokens on a line, six moves."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

LENGTH = 10
LAST_TURN = 6
TEAMS = ("ONE", "TWO")


@dataclass(frozen=True)
class Move:
    start: int
    end: int

    def __str__(self) -> str:
        return f"Zug von [{self.start}] zu [{self.end}]"


class RuleViolation(Exception):
    def __init__(self, mistake: str, move: Move) -> None:
        super().__init__(f"{mistake} bei Zug '{move}'")
        self.detail = f"InvalidMoveException(mistake={mistake}, move={move})"


@dataclass
class Position:
    tokens: list[int] = field(default_factory=lambda: [0, 0])
    turn: int = 0

    @classmethod
    def start(cls, rng: random.Random) -> Position:
        return cls()

    @property
    def current(self) -> int:
        return self.turn % 2

    def copy(self) -> Position:
        return Position(list(self.tokens), self.turn)

    def legal_moves(self) -> list[Move]:
        x = self.tokens[self.current]
        return [Move(x, x + step) for step in (1, 2) if x + step < LENGTH]

    def push(self, move: Move) -> None:
        if move.start != self.tokens[self.current]:
            raise RuleViolation("Nur eigene Spielfiguren können gezogen werden", move)
        if move not in self.legal_moves():
            raise RuleViolation("Zu weit", move)
        self.tokens[self.current] = move.end
        self.turn += 1

    def is_over(self) -> bool:
        return self.turn >= LAST_TURN
