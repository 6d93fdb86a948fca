"""Ostseeschach 2022 rules, exactly as the official 22.final server applies them (spec A.2).

Pure Python on purpose: no I/O, no XML, no trio, so bots, replays, tests and the server share one
engine.  The board is a dict from ``(x, y)`` to :class:`Piece` plus a model of the official
board's ``java.util.HashMap`` iteration order (spec A.3): 32 buckets, the bucket of ``(x, y)`` is
``(y - x) mod 32`` (Java's ``31 * x + y`` masked to 32 buckets), entries in insertion order inside a
bucket.  The memento lists the pieces in that order, so the order is part of the state: a move
removes ``from``, appends a new ``to`` at the end of its bucket, replaces a captured ``to`` in
place, and an amber removes ``to``.

Coordinates: ``x`` is the "forward" axis.  Team ONE (seat 0, moves first) starts on x = 0 and moves
toward larger x; team TWO starts on x = 7 and moves toward smaller x.

Spec-conformance notes (where A.2 is silent or the official code has a quirk):

* Validation order and texts are the official ones: WRONG_COLOR first (also for an empty or
  off-board ``from``, so START_EMPTY never appears), then OUT_OF_BOUNDS, INVALID_MOVEMENT (also
  from = to; its text keeps the literal ``%s`` placeholders, as the official server sent it),
  DESTINATION_BLOCKED.
* A move whose ``from`` or ``to`` element was missing keeps ``None`` there, as the official
  XStream-built move kept ``null``: a missing ``from`` (or a ``from`` that is no own piece) is
  WRONG_COLOR with ``null`` in the move text; a missing ``to`` after a good ``from`` crashed the
  official rule code (the player was dropped, ``LEFT``), here :class:`RuleCrash`.
* A failed move changes nothing (the official checks all run before the board is touched).
* The game is over after an even turn when ``turn >= 60`` or a team has two ambers; a state loaded
  beyond turn 60 therefore ends at its next even turn.
* Winner on equal ambers: the official distance comparison; when a team has no light piece the
  comparison has nothing to compare and it is a draw (as the official rule says).  The score's
  distance part is 0 for a team without light pieces: the official server failed there and sent
  no result at all (A.5 item 3); issue 9 asks for a result with 0 instead.
* The random start setup shuffles the eight types with the injected ``random.Random`` (the
  official shuffle was unseeded), so a seed gives the same board again.
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass

SIZE = 8
BUCKETS = 32
ROUND_LIMIT = 30
TURN_LIMIT = 2 * ROUND_LIMIT  # the last memento of a full game has turn="60"
AMBERS_TO_WIN = 2

ONE, TWO = 0, 1
TEAM_NAMES = ("ONE", "TWO")
START_LINES = (0, SIZE - 1)
DIRECTIONS = (1, -1)

WRONG_COLOR = "Nur eigene Spielfiguren können gezogen werden"
OUT_OF_BOUNDS = "Das Zielfeld liegt außerhalb des Spielfelds"
INVALID_MOVEMENT = "%s kann sich nicht um %s bewegen"  # sic: sent unformatted by 22.final
DESTINATION_BLOCKED = "Kann nicht auf ein Feld der eigenen Farbe ziehen"
START_EMPTY = "Das Startfeld des Zuges ist leer"  # never sent: WRONG_COLOR fires first

_DIAGONALS = ((-1, -1), (-1, 1), (1, -1), (1, 1))
_CARDINALS = ((-1, 0), (0, -1), (1, 0), (0, 1))


class PieceType(enum.Enum):
    """The four types, in the official enum order, with their vectors for team ONE.

    Vectors are ``(dx, dy)`` with ``dx = +1`` meaning forward; team TWO mirrors ``dx``.
    """

    Herzmuschel = ("H", ((1, 1), (1, -1)))
    Moewe = ("M", _CARDINALS)
    Seestern = ("S", (*_DIAGONALS, (1, 0)))
    Robbe = ("R", tuple(v for dx, dy in _DIAGONALS for v in ((2 * dx, dy), (dx, 2 * dy))))

    def __init__(self, letter: str, vectors: tuple[tuple[int, int], ...]) -> None:
        self.letter = letter
        self.one_vectors = vectors

    @property
    def is_light(self) -> bool:
        """Every type but the Robbe is light: only light pieces score on the far line."""
        return self is not PieceType.Robbe

    def vectors(self, team: int) -> tuple[tuple[int, int], ...]:
        return _VECTORS[self][team]


_VECTORS = {
    t: (t.one_vectors, tuple((-dx, dy) for dx, dy in t.one_vectors)) for t in PieceType
}
_VECTOR_SETS = {t: (frozenset(v[0]), frozenset(v[1])) for t, v in _VECTORS.items()}


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece or a tower: the top piece's type and team, and how many pieces it holds."""

    type: PieceType
    team: int
    count: int = 1

    @property
    def is_amber(self) -> bool:
        return self.count >= 3

    def short(self) -> str:
        """Two characters, as the official ``shortString``: ``HH`` or ``H2``, team TWO lower case."""
        letter = self.type.letter if self.team == ONE else self.type.letter.lower()
        return letter * 2 if self.count == 1 else f"{letter}{self.count}"


Coordinates = tuple[int, int]


def coordinates_text(c: Coordinates | None) -> str:
    return "null" if c is None else f"[{c[0]}|{c[1]}]"


@dataclass(frozen=True, slots=True)
class Move:
    """A move from ``from_`` to ``to``; either may be None when the client left it out."""

    from_: Coordinates | None
    to: Coordinates | None

    def __str__(self) -> str:
        """The official ``toString``, part of error messages: ``Zug von [0|1] zu [1|2]``."""
        return f"Zug von {coordinates_text(self.from_)} zu {coordinates_text(self.to)}"


class RuleViolation(Exception):
    """A rule check failed: ``mistake`` is the official MoveMistake text."""

    def __init__(self, mistake: str, move: Move):
        super().__init__(f"{mistake} bei Zug '{move}'")
        self.mistake = mistake
        self.move = move


class RuleCrash(Exception):
    """The official rule code crashed on this move (a missing ``to``): the player is dropped."""


@dataclass(frozen=True, slots=True)
class Decision:
    """The end of a game: ``winner`` is a team or None (draw), ``reason`` the WinReason name."""

    winner: int | None
    reason: str  # DIFFERING_SCORES, DIFFERING_POSITIONS or EQUAL_SCORE


def bucket_of(c: Coordinates) -> int:
    """The HashMap bucket of ``Coordinates(x, y)``: ``(31 * x + y) & 31`` (small ints, no spread)."""
    return (31 * c[0] + c[1]) & (BUCKETS - 1)


def on_board(c: Coordinates) -> bool:
    return 0 <= c[0] < SIZE and 0 <= c[1] < SIZE


def start_pieces(rng: random.Random) -> list[tuple[Coordinates, Piece]]:
    """The random, point-symmetric start setup in the official insertion order."""
    types = list(PieceType) * 2
    rng.shuffle(types)
    return setup_pieces(types)


def setup_pieces(types: list[PieceType]) -> list[tuple[Coordinates, Piece]]:
    """ONE's start line ``types[0..7]`` at (0, i), mirrored for TWO at (7, 7 - i), in insertion order."""
    placed: list[tuple[Coordinates, Piece]] = []
    for i, piece_type in enumerate(types):
        placed.append(((0, i), Piece(piece_type, ONE)))
        placed.append(((SIZE - 1, SIZE - 1 - i), Piece(piece_type, TWO)))
    return placed


class Position:
    """A game state: pieces (with their HashMap order), turn, last move and ambers.

    ``amber_entries`` says which teams appear in the memento's ``<ambers>`` map: the official
    ``EnumMap`` gets a team's entry with that team's first move.
    """

    __slots__ = ("pieces", "buckets", "turn", "last_move", "ambers", "amber_entries")

    def __init__(
        self,
        pieces: list[tuple[Coordinates, Piece]],
        turn: int = 0,
        last_move: Move | None = None,
        ambers: tuple[int, int] = (0, 0),
        amber_entries: tuple[bool, bool] | None = None,
    ) -> None:
        """``pieces`` in iteration order (or insertion order: the same within a bucket)."""
        self.pieces: dict[Coordinates, Piece] = {}
        self.buckets: list[list[Coordinates]] = [[] for _ in range(BUCKETS)]
        for c, piece in pieces:
            if c in self.pieces:
                raise ValueError(f"two pieces on {coordinates_text(c)}")
            self.pieces[c] = piece
            self.buckets[bucket_of(c)].append(c)
        self.turn = turn
        self.last_move = last_move
        self.ambers = list(ambers)
        if amber_entries is None:
            amber_entries = (turn >= 1, turn >= 2)
        self.amber_entries = list(amber_entries)

    @classmethod
    def start(cls, rng: random.Random) -> Position:
        return cls(start_pieces(rng))

    def copy(self) -> Position:
        return Position(self.ordered_pieces(), self.turn, self.last_move, tuple(self.ambers), tuple(self.amber_entries))

    # -- reading ------------------------------------------------------------------------------

    @property
    def current(self) -> int:
        """The team on turn: ONE on even turns (ONE always starts)."""
        return self.turn & 1

    @property
    def round(self) -> int:
        return (self.turn + 1) // 2

    def ordered_pieces(self) -> list[tuple[Coordinates, Piece]]:
        """The pieces as the official HashMap iterates them (the memento order)."""
        pieces = self.pieces
        return [(c, pieces[c]) for bucket in self.buckets for c in bucket]

    def legal_moves(self) -> list[Move]:
        """Every legal move of the team on turn, in the official generator's order."""
        team = self.current
        pieces = self.pieces
        moves = []
        for bucket in self.buckets:
            for c in bucket:
                piece = pieces[c]
                if piece.team != team:
                    continue
                x, y = c
                for dx, dy in _VECTORS[piece.type][team]:
                    to = (x + dx, y + dy)
                    if 0 <= to[0] < SIZE and 0 <= to[1] < SIZE:
                        target = pieces.get(to)
                        if target is None or target.team != team:
                            moves.append(Move(c, to))
        return moves

    def check(self, move: Move) -> Piece:
        """Raise :class:`RuleViolation` (or :class:`RuleCrash`) unless ``move`` is legal.

        Returns the moving piece.  The order of the checks is the official one.
        """
        piece = self.pieces.get(move.from_) if move.from_ is not None else None
        if piece is None or piece.team != self.current:
            raise RuleViolation(WRONG_COLOR, move)
        to = move.to
        if to is None:
            raise RuleCrash(f"move without a destination: {move}")
        if not on_board(to):
            raise RuleViolation(OUT_OF_BOUNDS, move)
        delta = (to[0] - move.from_[0], to[1] - move.from_[1])
        if delta not in _VECTOR_SETS[piece.type][piece.team]:
            raise RuleViolation(INVALID_MOVEMENT, move)
        target = self.pieces.get(to)
        if target is not None and target.team == piece.team:
            raise RuleViolation(DESTINATION_BLOCKED, move)
        return piece

    # -- changing -----------------------------------------------------------------------------

    def push(self, move: Move) -> int:
        """Validate and perform ``move``; return the ambers it scored (0, 1 or 2)."""
        piece = self.check(move)
        start, to = move.from_, move.to
        assert start is not None and to is not None
        pieces, buckets = self.pieces, self.buckets
        del pieces[start]
        buckets[bucket_of(start)].remove(start)
        target = pieces.get(to)
        if target is None:
            buckets[bucket_of(to)].append(to)
            moved = piece
        else:  # capture: the mover's type and team on top, counts add up; same map entry
            moved = Piece(piece.type, piece.team, piece.count + target.count)
        pieces[to] = moved
        gained = int(moved.is_amber) + int(moved.type.is_light and to[0] == START_LINES[1 - moved.team])
        if gained:
            del pieces[to]
            buckets[bucket_of(to)].remove(to)
        team = piece.team
        self.ambers[team] += gained
        self.amber_entries[team] = True
        self.last_move = move
        self.turn += 1
        return gained

    # -- the end ------------------------------------------------------------------------------

    def is_over(self) -> bool:
        """Only after TWO's move (even turn): the round limit or a team with two ambers."""
        if self.turn & 1:
            return False
        return self.round >= ROUND_LIMIT or max(self.ambers) >= AMBERS_TO_WIN

    def light_distances(self, team: int) -> list[int]:
        """Distances of ``team``'s light pieces from its own start line, largest first."""
        line = START_LINES[team]
        return sorted(
            (abs(c[0] - line) for c, p in self.pieces.items() if p.team == team and p.type.is_light),
            reverse=True,
        )

    def decision(self) -> Decision | None:
        """The official win condition, or None while the game goes on."""
        if not self.is_over():
            return None
        if self.ambers[ONE] != self.ambers[TWO]:
            return Decision(ONE if self.ambers[ONE] > self.ambers[TWO] else TWO, "DIFFERING_SCORES")
        for one, two in zip(self.light_distances(ONE), self.light_distances(TWO)):
            if one != two:
                return Decision(ONE if one > two else TWO, "DIFFERING_POSITIONS")
        return Decision(None, "EQUAL_SCORE")

    def score_parts(self, team: int) -> list[int]:
        """The result parts after the win points: ambers, farthest light piece (0 without one)."""
        distances = self.light_distances(team)
        return [self.ambers[team], distances[0] if distances else 0]

    # -- for people ---------------------------------------------------------------------------

    def text(self) -> str:
        """The board, row y = 7 on top, columns x = 0..7; ``--`` for an empty square."""
        lines = []
        for y in reversed(range(SIZE)):
            cells = "".join(p.short() if (p := self.pieces.get((x, y))) else "--" for x in range(SIZE))
            lines.append(f"{y} {cells}")
        lines.append("  " + "".join(f"{x} " for x in range(SIZE)))
        return "\n".join(lines)
