"""Piranhas 2026 rules, exactly as the official 26.1.0 server applies them (spec ``piranhas_2026.md``).

Pure Python: no I/O, no XML, no trio, so the server, bots, replays and tests share one engine.
The board is a flat list of 100 field values indexed ``y * 10 + x``, the order the wire writes
them (row y = 0 first, x = 0..9 within a row), so a board and the golden vectors' 100-character
strings map one to one.  Teams are ``ONE = 0`` and ``TWO = 1``, the same numbers as seats.

What is shared with the 2019 season (the common :mod:`swc_local.games.grid10`): the
``Direction`` enum (same eight names, same order, same deltas) and the 8-connected flood fill of
a 10x10 bitboard (``_flood``: 2019 numbers fields ``x * 10 + y``, 2026 ``y * 10 + x``; the fill
is symmetric in the two coordinates, so the same masks serve both).  Everything else differs in a
way that matters (fish sizes, squids instead of kraken, the checks and their texts, the end and
winner rules), so it lives here and reads on its own.

Spec-conformance notes (where the spec is silent or the official code has a quirk):

* A move whose ``from`` lies outside the board raises :class:`OffBoardStart`: the official
  board lookup throws an index exception that escapes the room and the server drops the
  connection (scored ``UNKNOWN``, spec §3 step 1, captured ``invalid_offboard``).
* ``firstUnion`` is the *team whose fish are connected* after a move, ONE checked first, even
  when the union was caused by the opponent eating a stray fish (spec §9, example P11).
* A team without fish is not connected and its heaviest swarm weighs -1 (spec §4/§5); only a
  loaded position can get there.
* The round limit is ``turn >= 60``; a loaded position past it is over at once.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterator
from dataclasses import dataclass

from swc_local.games.grid10 import DIRECTIONS, Direction
from swc_local.games.grid10 import flood as _flood  # 8-connected flood of a 10x10 bitboard

__all__ = [
    "DIRECTIONS", "Direction", "EMPTY", "FIELD_CHARS", "FIELD_NAMES", "GameState", "Mistake",
    "Move", "MoveRejected", "OffBoardStart", "ONE", "SIZE", "SQUID", "TEAM_NAMES", "TURN_LIMIT",
    "TWO", "WinReason", "Verdict",
]

SIZE = 10
TURN_LIMIT = 60
SQUID_COUNT = 2
ONE, TWO = 0, 1
TEAM_NAMES = ("ONE", "TWO")

# Field values.  Names as the official ``FieldState`` enum writes them on the wire.
EMPTY, ONE_S, ONE_M, ONE_L, TWO_S, TWO_M, TWO_L, SQUID = range(8)
FIELD_NAMES = ("EMPTY", "ONE_S", "ONE_M", "ONE_L", "TWO_S", "TWO_M", "TWO_L", "SQUID")
FIELD_CHARS = ".abcABCX"  # the golden vectors' board alphabet
TEAM_OF = (None, ONE, ONE, ONE, TWO, TWO, TWO, None)
WEIGHT = (0, 1, 2, 3, 1, 2, 3, 0)


def fish(team: int, size: int) -> int:
    """The field value of ``team``'s fish of weight ``size`` (1 = S, 2 = M, 3 = L)."""
    return (ONE_S if team == ONE else TWO_S) + size - 1


class Mistake(enum.Enum):
    """The move mistakes the 26.1.0 server can report, with their verbatim texts.

    ``shown`` is how the mistake prints inside ``InvalidMoveException(mistake=...)``: the two
    Piranhas-specific ones (``PiranhaMoveMistake``) have no ``toString`` and print their enum
    name, the generic ``MoveMistake`` ones print their message.
    """

    WRONG_START = ("Das Startfeld ist kein Piranha des eigenen Teams", False)
    JUMP_OVER_OPPONENT = ("Gegnerische Piranhas können nicht übersprungen werden", False)
    DESTINATION_OUT_OF_BOUNDS = ("Das Zielfeld liegt außerhalb des Spielfelds", True)
    DESTINATION_BLOCKED = ("Zielfeld ist besetzt", True)
    DESTINATION_BLOCKED_BY_SELF = ("Kann nicht auf ein Feld des eigenen Teams ziehen", True)

    def __init__(self, message: str, shows_message: bool) -> None:
        self.message = message
        self.shown = message if shows_message else self.name


class WinReason(enum.Enum):
    """Win reasons (``%s`` = the winner's display name, or its team name when blank)."""

    BIGGER_SWARM = "%s hat den größeren zusammenhängenden Schwarm"
    FIRST_UNION = "%s hat zuerst alle Fische einer Farbe vereinigt"
    BLOCKED = "%s hat den Gegner blockiert, sodass er keinen Zug mehr machen kann"
    TIE = "Beide Spieler sind gleichauf"

    def text(self, name: str) -> str:
        return self.value.replace("%s", name) if "%s" in self.value else self.value


@dataclass(frozen=True, slots=True)
class Move:
    """Swim the fish at ``(x, y)`` in ``direction``; ``str`` is the official ``toString``."""

    x: int
    y: int
    direction: Direction

    def __str__(self) -> str:
        return f"Schwimme von [{self.x}|{self.y}] in Richtung {self.direction.name}"


class MoveRejected(Exception):
    """A rule check failed: the official ``InvalidMoveException`` (scored as a violation)."""

    def __init__(self, mistake: Mistake, move: Move) -> None:
        self.mistake = mistake
        self.move = move
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """``InvalidMoveException.message``: the text after ``Regelverletzung von X: ``."""
        return f"{self.mistake.message} bei '{self.move}'"

    @property
    def exception_text(self) -> str:
        """The exception's ``toString``, the second line of the ``error`` message."""
        return f"InvalidMoveException(mistake={self.mistake.shown}, move={self.move})"


class OffBoardStart(Exception):
    """``from`` lies outside the board: the official server crashes and drops the connection."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """The end of a game: ``winner`` is ONE, TWO or None (a tie), and why."""

    winner: int | None
    reason: WinReason


# --- geometry, computed once ---------------------------------------------------------------

def _on_board(x: int, y: int) -> bool:
    return 0 <= x < SIZE and 0 <= y < SIZE


def _ray(x: int, y: int, direction: Direction) -> tuple[int, ...]:
    cells = []
    x, y = x + direction.dx, y + direction.dy
    while _on_board(x, y):
        cells.append(y * SIZE + x)
        x, y = x + direction.dx, y + direction.dy
    return tuple(cells)


RAYS = [[_ray(c % SIZE, c // SIZE, d) for d in DIRECTIONS] for c in range(100)]
"""``RAYS[cell][direction index]``: the fields from ``cell`` (exclusive) to the edge."""

LINES = [
    [(c, *RAYS[c][i], *RAYS[c][i + 4]) for i in range(4)] for c in range(100)
]
"""``LINES[cell][axis]``: every field of the line through ``cell`` (DIRECTIONS[i] and its
opposite DIRECTIONS[i + 4] share an axis)."""

NEIGHBOURS = [
    tuple(
        (y + dy) * SIZE + x + dx
        for dx in (-1, 0, 1) for dy in (-1, 0, 1)
        if (dx or dy) and _on_board(x + dx, y + dy)
    )
    for y in range(SIZE) for x in range(SIZE)
]
_DIRECTION_INDEX = {d: i for i, d in enumerate(DIRECTIONS)}

# Bitboards (bit ``c`` = field ``c``) for the questions asked on every move: the legal moves,
# whether any exists, and the swarms.  The board stays a list (the wire's and the tests' form);
# the masks are built from it per question with three C-level passes (``bytes.translate`` and
# ``int(..., 2)``), so a board changed in place is always read right.


def _bits_of(values: set[int]) -> bytes:
    """A ``bytes.translate`` table: field value -> ``"1"`` if in ``values`` else ``"0"``."""
    return bytes(ord("1") if v in values else ord("0") for v in range(256))


_ONE_BITS = _bits_of({ONE_S, ONE_M, ONE_L})
_TWO_BITS = _bits_of({TWO_S, TWO_M, TWO_L})
_SQUID_BITS = _bits_of({SQUID})
_WEIGHT_BITS = [_bits_of({v for v in range(8) if WEIGHT[v] == w and TEAM_OF[v] is not None}) for w in (1, 2, 3)]


def _mask(cells: list[int], table: bytes) -> int:
    return int(bytes(cells)[::-1].translate(table), 2)


def _masks(cells: list[int]) -> tuple[int, int, int]:
    """(ONE's fish, TWO's fish, squids) as bitboards."""
    reverse = bytes(cells)[::-1]
    return int(reverse.translate(_ONE_BITS), 2), int(reverse.translate(_TWO_BITS), 2), int(reverse.translate(_SQUID_BITS), 2)


_LINE_MASKS = [tuple(sum(1 << c for c in LINES[cell][axis]) for axis in range(4)) for cell in range(100)]
"""``_LINE_MASKS[cell][axis]``: the line through ``cell`` as a bitboard (the fish on it = the
distance a fish at ``cell`` swims along that axis)."""
_STEPS = [
    [
        tuple((sum(1 << c for c in ray[: dist - 1]), 1 << ray[dist - 1]) for dist in range(1, len(ray) + 1))
        + (None,) * (2 * SIZE - len(ray))
        for ray in rays
    ]
    for rays in RAYS
]
"""``_STEPS[cell][direction][dist - 1]``: (the fields swum over, the target field) as bitboards,
None where the target lies off the board (a line holds at most 19 fish)."""
_MOVES = [[Move(c % SIZE, c // SIZE, d) for d in DIRECTIONS] for c in range(100)]
"""Every move object there can be, made once: a generated list shares them (moves are frozen)."""


def _generate(own: int, opponent: int, blocked: int, first_only: bool) -> list[Move]:
    """The legal moves of the side with fish ``own`` (``blocked`` = its own fish and squids),
    by start field (y-major), then direction: the order of the official generator."""
    fish = own | opponent
    found = []
    rest = own
    while rest:
        low = rest & -rest
        rest ^= low
        start = low.bit_length() - 1
        a, b, c, d = _LINE_MASKS[start]  # the four lines through the fish ...
        a, b, c, d = (a & fish).bit_count(), (b & fish).bit_count(), (c & fish).bit_count(), (d & fish).bit_count()
        s0, s1, s2, s3, s4, s5, s6, s7 = _STEPS[start]  # ... give the distance on each axis
        m0, m1, m2, m3, m4, m5, m6, m7 = _MOVES[start]
        for step, move in (
            (s0[a - 1], m0), (s1[b - 1], m1), (s2[c - 1], m2), (s3[d - 1], m3),
            (s4[a - 1], m4), (s5[b - 1], m5), (s6[c - 1], m6), (s7[d - 1], m7),
        ):
            if step is None or step[0] & opponent or step[1] & blocked:
                continue
            found.append(move)
            if first_only:
                return found
    return found


def _swarms(own: int) -> list[int]:
    """The 8-connected groups of ``own``, lowest field first."""
    groups = []
    while own:
        group = _flood(own & -own, own)
        groups.append(group)
        own &= ~group
    return groups


# --- the state ---------------------------------------------------------------------------

class GameState:
    """Board, turn, ``firstUnion`` and the last move: everything a memento carries."""

    __slots__ = ("cells", "turn", "first_union", "last_move")

    def __init__(
        self,
        cells: list[int],
        turn: int = 0,
        first_union: int | None = None,
        last_move: Move | None = None,
    ) -> None:
        if len(cells) != 100 or any(not 0 <= v < len(FIELD_NAMES) for v in cells):
            raise ValueError("a board has 100 fields with values 0..7")
        if turn < 0:
            raise ValueError("turn must not be negative")
        self.cells = list(cells)
        self.turn = turn
        self.first_union = first_union
        self.last_move = last_move

    # construction -----------------------------------------------------------------------

    @classmethod
    def start(cls, rng: random.Random) -> GameState:
        """The official random start position (spec §2), every draw taken from ``rng``."""
        cells = [EMPTY] * 100

        def size() -> int:
            r = rng.randrange(9)
            return 1 if r < 4 else 2 if r < 7 else 3

        for i in range(1, SIZE - 1):
            s1 = size()
            cells[0 * SIZE + i] = fish(TWO, s1)  # (i, 0)
            cells[i * SIZE + 0] = fish(ONE, s1)  # (0, i)
            s2 = size()
            cells[9 * SIZE + i] = fish(TWO, s2)  # (i, 9)
            cells[i * SIZE + 9] = fish(ONE, s2)  # (9, i)
        squids: list[tuple[int, int]] = []
        while len(squids) < SQUID_COUNT:
            k = rng.randrange(36)
            x, y = 2 + k % 6, 2 + k // 6
            if all(x != sx and y != sy and x - y != sx - sy and x + y != sx + sy for sx, sy in squids):
                squids.append((x, y))
        for x, y in squids:
            cells[y * SIZE + x] = SQUID
        return cls(cells)

    @classmethod
    def from_string(cls, board: str, turn: int = 0, first_union: int | None = None) -> GameState:
        """A board from the golden vectors' 100 characters (row y = 0 first, ``.abcABCX``)."""
        if len(board) != 100 or any(ch not in FIELD_CHARS for ch in board):
            raise ValueError("need 100 characters of .abcABCX")
        return cls([FIELD_CHARS.index(ch) for ch in board], turn, first_union)

    def to_string(self) -> str:
        return "".join(FIELD_CHARS[v] for v in self.cells)

    def copy(self) -> GameState:
        other = GameState.__new__(GameState)
        other.cells = list(self.cells)
        other.turn, other.first_union, other.last_move = self.turn, self.first_union, self.last_move
        return other

    def text(self) -> str:
        """Rows from y = 9 down to y = 0, the notation of the spec's worked examples."""
        lines = [
            f"{y} " + " ".join(FIELD_CHARS[self.cells[y * SIZE + x]] for x in range(SIZE))
            for y in reversed(range(SIZE))
        ]
        lines.append("  " + " ".join(str(x) for x in range(SIZE)))
        return "\n".join(lines)

    # queries ------------------------------------------------------------------------------

    @property
    def team_to_move(self) -> int:
        return ONE if self.turn % 2 == 0 else TWO

    def at(self, x: int, y: int) -> int:
        return self.cells[y * SIZE + x]

    def fields_of(self, team: int) -> list[int]:
        return [c for c, v in enumerate(self.cells) if TEAM_OF[v] == team]

    def distance(self, x: int, y: int, direction: Direction) -> int:
        """Fish of either team on the whole line through (x, y), the moving fish included."""
        cells = self.cells
        line = LINES[y * SIZE + x][_DIRECTION_INDEX[direction] % 4]
        return sum(1 for c in line if TEAM_OF[cells[c]] is not None)

    def swarm_weights(self, team: int) -> list[int]:
        """The weights of the team's swarms (8-connected groups of its fish), lowest field first."""
        cells = self.cells
        own = _mask(cells, _ONE_BITS if team == ONE else _TWO_BITS)
        groups = _swarms(own)
        if not groups:
            return []
        small, medium, large = (_mask(cells, table) for table in _WEIGHT_BITS)
        return [
            (group & small).bit_count() + 2 * (group & medium).bit_count() + 3 * (group & large).bit_count()
            for group in groups
        ]

    def greatest_swarm(self, team: int) -> int:
        """The weight of the team's heaviest swarm, -1 without fish (``greatestSwarmSize``)."""
        return max(self.swarm_weights(team), default=-1)

    def is_connected(self, team: int) -> bool:
        """All the team's fish form one swarm; a team without fish is not connected."""
        own = _mask(self.cells, _ONE_BITS if team == ONE else _TWO_BITS)
        return own != 0 and _flood(own & -own, own) == own

    # moves -------------------------------------------------------------------------------

    def check(self, move: Move) -> int:
        """Run the official checks in order (spec §3); return the target field's index."""
        x, y, direction = move.x, move.y, move.direction
        if not _on_board(x, y):
            raise OffBoardStart(f"{move} starts outside the board")
        me = self.team_to_move
        cells = self.cells
        start = y * SIZE + x
        if TEAM_OF[cells[start]] != me:
            raise MoveRejected(Mistake.WRONG_START, move)
        dist = self.distance(x, y, direction)
        ray = RAYS[start][_DIRECTION_INDEX[direction]]
        for step in range(dist - 1):
            if step >= len(ray):
                raise MoveRejected(Mistake.DESTINATION_OUT_OF_BOUNDS, move)
            team = TEAM_OF[cells[ray[step]]]
            if team is not None and team != me:
                raise MoveRejected(Mistake.JUMP_OVER_OPPONENT, move)
        if dist > len(ray):
            raise MoveRejected(Mistake.DESTINATION_OUT_OF_BOUNDS, move)
        target = ray[dist - 1]
        value = cells[target]
        if value == SQUID:
            raise MoveRejected(Mistake.DESTINATION_BLOCKED, move)
        if TEAM_OF[value] == me:
            raise MoveRejected(Mistake.DESTINATION_BLOCKED_BY_SELF, move)
        return target

    def is_legal(self, move: Move) -> bool:
        try:
            self.check(move)
        except (MoveRejected, OffBoardStart):
            return False
        return True

    def perform(self, move: Move) -> None:
        """Validate and perform ``move`` for the team to move (raises MoveRejected/OffBoardStart)."""
        target = self.check(move)
        start = move.y * SIZE + move.x
        self.cells[target] = self.cells[start]  # an opponent fish there is eaten
        self.cells[start] = EMPTY
        self.turn += 1
        self.last_move = move
        if self.first_union is None:
            for team in (ONE, TWO):
                if self.is_connected(team):
                    self.first_union = team
                    break

    def _targets(self, team: int) -> Iterator[Move]:
        """The legal moves, found field by field as the rules read (the reference for the
        bitboard generator of :meth:`legal_moves`; the tests compare the two)."""
        cells = self.cells
        counts = {}
        for start in self.fields_of(team):
            x, y = start % SIZE, start // SIZE
            for i, direction in enumerate(DIRECTIONS):
                axis = i % 4
                key = (start, axis)
                dist = counts.get(key)
                if dist is None:
                    dist = counts[key] = sum(1 for c in LINES[start][axis] if TEAM_OF[cells[c]] is not None)
                ray = RAYS[start][i]
                if dist > len(ray):
                    continue
                if any(TEAM_OF[cells[c]] not in (None, team) for c in ray[: dist - 1]):
                    continue
                value = cells[ray[dist - 1]]
                if value == SQUID or TEAM_OF[value] == team:
                    continue
                yield Move(x, y, direction)

    def legal_moves(self) -> list[Move]:
        """Every legal move of the team to move, by start field (y-major), then direction.

        The same list as :meth:`_targets` (the checks of :meth:`check` for every fish and
        direction), computed on bitboards; the moves in it are shared objects.
        """
        one, two, squids = _masks(self.cells)
        if self.team_to_move == ONE:
            return _generate(one, two, one | squids, False)
        return _generate(two, one, two | squids, False)

    def has_legal_move(self) -> bool:
        one, two, squids = _masks(self.cells)
        if self.team_to_move == ONE:
            return bool(_generate(one, two, one | squids, True))
        return bool(_generate(two, one, two | squids, True))

    # end ---------------------------------------------------------------------------------

    def is_over(self) -> bool:
        """``GameState.isOver``: a union at an even turn, the side to move blocked, or turn 60."""
        if self.turn % 2 == 0 and (self.is_connected(ONE) or self.is_connected(TWO)):
            return True
        return self.turn >= TURN_LIMIT or not self.has_legal_move()

    def verdict(self) -> Verdict | None:
        """Who won and why, once :meth:`is_over` holds (spec §4); None while the game runs."""
        return self.current_winner() if self.is_over() else None

    def current_winner(self) -> Verdict:
        """``winCondition``, then the swarm fragment: who leads now, also before the end (what
        the server scores when an admin cancels a running game)."""
        one, two = self.greatest_swarm(ONE), self.greatest_swarm(TWO)
        if self.is_connected(ONE) or self.is_connected(TWO):
            if one != two:
                return Verdict(ONE if one > two else TWO, WinReason.BIGGER_SWARM)
            if self.first_union is not None:
                return Verdict(self.first_union, WinReason.FIRST_UNION)
            return Verdict(None, WinReason.TIE)
        if not self.has_legal_move():
            return Verdict(1 - self.team_to_move, WinReason.BLOCKED)
        if one != two:
            return Verdict(ONE if one > two else TWO, WinReason.BIGGER_SWARM)
        return Verdict(None, WinReason.TIE)
