"""Piranhas 2019 rules, exactly as the official 19.2.1 server applies them (spec §9).

Pure Python on purpose: no I/O, no protocol, no trio, so bots, replays, tests and the server can
share one engine.  The board is a flat ``bytearray`` of 100 cells indexed ``x * 10 + y`` (the
official ``fields[x][y]``) plus three Python-int bitboards (red, blue, kraken) kept in step with
it; the bitboards make move generation, path checks and swarm flood fills a handful of big-int
operations instead of Python loops over cells.  Every (cell, direction, distance) move is
precomputed once as one mask, so generating the legal moves of a position is one popcount and one
AND per candidate.

Spec-conformance notes (where §9 is silent or the official code has a quirk):

* Check 1 (the unchecked distance scan) is simulated with 32-bit wrap-around arithmetic, since
  the official scan runs on Java ints; only its "does it index outside 0..9" outcome matters,
  and it raises :class:`ScanCrash` (the server scores that LEFT).
* Check 4 ("Move distance was incorrect") compares the distance with itself in the official
  code and can never fire; the text is kept as :data:`REASON_DISTANCE` for completeness.
* The round limit is tested as ``turn >= 60`` (the official ``== 60`` cannot differ in play; a
  loaded state beyond turn 60 then ends at its next even turn instead of never).
* A player with no fish counts as connected with a largest swarm of 0 (spec §9 edge case).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from swc_local.games.grid10 import (  # noqa: F401 -- the board's directions, shared with 2026
    ANTI_DIAGONAL, DIAGONAL, DIRECTIONS, HORIZONTAL, VERTICAL, Direction, flood as _flood,
)

SIZE = 10
TURN_LIMIT = 60
EMPTY, RED, BLUE, OBSTRUCTED = 0, 1, 2, 3
STATE_NAMES = ("EMPTY", "RED", "BLUE", "OBSTRUCTED")
COLOR_NAMES = {RED: "RED", BLUE: "BLUE"}

REASON_OUT_OF_RANGE = "x or y are not within the field range"
REASON_NOT_OWN = "Field does not belong to the current player"
REASON_DISTANCE = "Move distance was incorrect"  # unreachable in 19.2.1
REASON_OFF_BOARD = "Move in that direction would not be on the board"
REASON_PATH = "Path to the new position is not clear"
REASON_OWN_DEST = "Field obstructed with own piranha"
REASON_KRAKEN_DEST = "Field is obstructed"
REASON_SWARM = "Das Spiel ist beendet.\nEin Spieler hat seinen Schwarm vereint."
REASON_ROUND_LIMIT = "Das Rundenlimit wurde erreicht."

DIRECTION_INDEX = {d: i for i, d in enumerate(DIRECTIONS)}


@dataclass(frozen=True, slots=True)
class Move:
    """A move as received: start field, direction and the client's debug hints.

    Hints are only echoed back in the next state's ``lastMove``; they are not part of the move's
    identity, so a hinted move compares equal to (and is ``in``) the generated legal moves.
    """

    x: int
    y: int
    direction: Direction
    hints: tuple[str | None, ...] = field(default=(), compare=False)

    def __str__(self) -> str:
        return f"({self.x},{self.y}) {self.direction.name}"


@dataclass(frozen=True, slots=True)
class Decision:
    """A game-over decision: ``winner`` is RED, BLUE or None (draw)."""

    winner: int | None
    reason: str


class RuleViolation(Exception):
    """A validity check failed; ``reason`` is the verbatim official text."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class ScanCrash(Exception):
    """The official distance scan would index outside the board (the server scores LEFT)."""


# --- precomputed geometry -------------------------------------------------------------------

def _on_board(x: int, y: int) -> bool:
    return 0 <= x < SIZE and 0 <= y < SIZE


def _line_mask(x: int, y: int, axis: int) -> int:
    dx, dy = ((0, 1), (1, 1), (1, 0), (1, -1))[axis]
    while _on_board(x - dx, y - dy):
        x, y = x - dx, y - dy
    mask = 0
    while _on_board(x, y):
        mask |= 1 << (x * SIZE + y)
        x, y = x + dx, y + dy
    return mask


def _ray(x: int, y: int, d: Direction) -> tuple[int, ...]:
    cells = []
    x, y = x + d.dx, y + d.dy
    while _on_board(x, y):
        cells.append(x * SIZE + y)
        x, y = x + d.dx, y + d.dy
    return tuple(cells)


LINE = [[_line_mask(c // SIZE, c % SIZE, axis) for axis in range(4)] for c in range(100)]
RAYS = [[_ray(c // SIZE, c % SIZE, d) for d in DIRECTIONS] for c in range(100)]

# Move-generation table: for each cell, per axis, (line mask, table forward, table backward);
# table[distance] = (mask, Move) where mask holds the path bits (start and every jumped-over
# field, must be free of opponent fish) and, shifted by 100, the destination bit (must be free
# of own fish and kraken).  Off-board distances get bit 200, which the probe always has set.
_OFF = 1 << 200


def _table(c: int, d: Direction) -> tuple[tuple[int, Move | None], ...]:
    ray = RAYS[c][DIRECTION_INDEX[d]]
    move = Move(c // SIZE, c % SIZE, d)
    entries: list[tuple[int, Move | None]] = [(_OFF, None)]
    for dist in range(1, SIZE + 1):
        if dist > len(ray):
            entries.append((_OFF, None))
            continue
        path = 1 << c
        for cell in ray[: dist - 1]:
            path |= 1 << cell
        entries.append((path | (1 << (ray[dist - 1] + 100)), move))
    return tuple(entries)


_AXIS_PAIRS = [(d, Direction((-d.dx, -d.dy, d.axis))) for d in DIRECTIONS[:4]]
GEN = [
    tuple((LINE[c][fwd.axis], _table(c, fwd), _table(c, bwd)) for fwd, bwd in _AXIS_PAIRS)
    for c in range(100)
]

FULL = (1 << 100) - 1
INNER = [x * SIZE + y for x in range(2, 8) for y in range(2, 8)]


def _i32(v: int) -> int:
    return ((v + 0x80000000) & 0xFFFFFFFF) - 0x80000000


def scan_crashes(x: int, y: int, direction: Direction) -> bool:
    """Whether the official distance scan (run before any check) indexes outside 0..9.

    Follows spec §9 check 1 literally, with Java int arithmetic.  Each loop's first visited
    field decides: if it is on the board, so are the rest of that loop.
    """
    axis = direction.axis
    ok = range(SIZE).__contains__
    if axis == HORIZONTAL:
        return not ok(y)
    if axis == VERTICAL:
        return not ok(x)
    if axis == DIAGONAL:
        # (x-k, y-k) for k >= 0 while both >= 0, then (x+k, y+k) for k >= 1 while both <= 9
        if x >= 0 and y >= 0 and not (ok(x) and ok(y)):
            return True
        nx, ny = _i32(x + 1), _i32(y + 1)
        return nx <= 9 and ny <= 9 and not (ok(nx) and ok(ny))
    # (x+k, y-k) for k >= 0 while x+k <= 9 and y-k >= 0, then (x-k, y+k) for k >= 1 while
    # x-k >= 0 and y+k <= 9
    if x <= 9 and y >= 0 and not (ok(x) and ok(y)):
        return True
    nx, ny = _i32(x - 1), _i32(y + 1)
    return nx >= 0 and ny <= 9 and not (ok(nx) and ok(ny))


def largest_swarm_of(own: int) -> int:
    best = 0
    rest = own
    while rest and rest.bit_count() > best:
        component = _flood(rest & -rest, rest)
        best = max(best, component.bit_count())
        rest &= ~component
    return best


# --- the position --------------------------------------------------------------------------

class Position:
    """Board, turn counter, side to move and the last move: everything a memento carries."""

    __slots__ = ("cells", "turn", "current", "last_move", "bb")

    def __init__(
        self,
        cells: bytes | bytearray,
        turn: int = 0,
        current: int = RED,
        last_move: Move | None = None,
    ) -> None:
        self.cells = bytearray(cells)
        if len(self.cells) != 100 or max(self.cells) > OBSTRUCTED:
            raise ValueError("a board has 100 cells with states 0..3")
        self.turn = turn
        self.current = current
        self.last_move = last_move
        self.bb = [0, 0, 0, 0]  # index by state; bb[EMPTY] is unused
        for c, state in enumerate(self.cells):
            if state:
                self.bb[state] |= 1 << c

    @classmethod
    def start(cls, rng: random.Random) -> Position:
        """The initial board with two kraken placed from ``rng`` (spec §9)."""
        cells = bytearray(100)
        for i in range(1, 9):
            cells[i] = cells[90 + i] = RED  # x = 0 and x = 9
            cells[i * SIZE] = cells[i * SIZE + 9] = BLUE  # y = 0 and y = 9
        first = rng.choice(INNER)
        fx, fy = divmod(first, SIZE)
        second = rng.choice(
            [c for c in INNER if (c // SIZE) != fx and c % SIZE != fy
             and c // SIZE - c % SIZE != fx - fy and c // SIZE + c % SIZE != fx + fy]
        )
        cells[first] = cells[second] = OBSTRUCTED
        return cls(cells)

    @classmethod
    def from_text(cls, text: str, turn: int = 0, current: int | None = None) -> Position:
        """A board from 10 rows of ``R B K .`` (top row y=9), as :meth:`text` writes them; the
        coordinates of the plugin's ``describe()`` (a ``y`` before each row, the ``x`` line below)
        are skipped."""
        rows = [row.split() for row in text.strip().splitlines()]
        if rows and all(token.isdigit() for token in rows[-1]):
            rows.pop()  # the x axis
        rows = [row[1:] if len(row) == SIZE + 1 and row[0].isdigit() else row for row in rows]
        if len(rows) != SIZE or any(len(row) != SIZE for row in rows):
            raise ValueError("need 10 rows of 10 fields")
        cells = bytearray(100)
        for r, row in enumerate(rows):
            for x, char in enumerate(row):
                cells[x * SIZE + (SIZE - 1 - r)] = ".RBK".index(char)
        if current is None:
            current = RED if turn % 2 == 0 else BLUE
        return cls(cells, turn, current)

    def text(self) -> str:
        return "\n".join(
            " ".join(".RBK"[self.cells[x * SIZE + y]] for x in range(SIZE))
            for y in reversed(range(SIZE))
        )

    def copy(self) -> Position:
        other = Position.__new__(Position)
        other.cells = bytearray(self.cells)
        other.turn, other.current, other.last_move = self.turn, self.current, self.last_move
        other.bb = list(self.bb)
        return other

    def at(self, x: int, y: int) -> int:
        return self.cells[x * SIZE + y]

    def distance(self, x: int, y: int, direction: Direction) -> int:
        """Fish of both colours on the whole line through (x, y) along ``direction``."""
        fish = self.bb[RED] | self.bb[BLUE]
        return (fish & LINE[x * SIZE + y][direction.axis]).bit_count()

    def check(self, move: Move) -> int:
        """Run the validity checks in the official order; return the destination cell."""
        x, y, direction = move.x, move.y, move.direction
        if not (0 <= x < SIZE and 0 <= y < SIZE):
            if scan_crashes(x, y, direction):
                raise ScanCrash(f"distance scan leaves the board at {move}")
            raise RuleViolation(REASON_OUT_OF_RANGE)
        start = x * SIZE + y
        me = self.current
        cells = self.cells
        if cells[start] != me:
            raise RuleViolation(REASON_NOT_OWN)
        dist = self.distance(x, y, direction)
        ray = RAYS[start][DIRECTION_INDEX[direction]]
        if dist > len(ray):
            raise RuleViolation(REASON_OFF_BOARD)
        opponent = BLUE if me == RED else RED
        if any(cells[c] == opponent for c in ray[: dist - 1]):
            raise RuleViolation(REASON_PATH)
        dest = ray[dist - 1]
        if cells[dest] == me:
            raise RuleViolation(REASON_OWN_DEST)
        if cells[dest] == OBSTRUCTED:
            raise RuleViolation(REASON_KRAKEN_DEST)
        return dest

    def is_legal(self, move: Move) -> bool:
        try:
            self.check(move)
        except (RuleViolation, ScanCrash):
            return False
        return True

    def push(self, move: Move) -> None:
        """Validate and perform ``move`` for the side to move (raises RuleViolation/ScanCrash)."""
        dest = self.check(move)
        start = move.x * SIZE + move.y
        me = self.current
        captured = self.cells[dest]
        if captured:  # an opponent fish is eaten
            self.bb[captured] &= ~(1 << dest)
        self.bb[me] ^= (1 << start) | (1 << dest)
        self.cells[start] = EMPTY
        self.cells[dest] = me
        self.last_move = move
        self.turn += 1
        self.current = RED if self.turn % 2 == 0 else BLUE

    def legal_moves(self) -> list[Move]:
        """Every legal move of the side to move, in cell order (x-major), axis by axis."""
        bb = self.bb
        own = bb[self.current]
        opp = bb[BLUE] if self.current == RED else bb[RED]
        fish = own | opp
        probe = opp | ((own | bb[OBSTRUCTED]) << 100) | _OFF
        out: list[Move] = []
        append = out.append
        rest = own
        while rest:
            low = rest & -rest
            rest ^= low
            for line, fwd, bwd in GEN[low.bit_length() - 1]:
                dist = (fish & line).bit_count()
                mask, move = fwd[dist]
                if not probe & mask:
                    append(move)
                mask, move = bwd[dist]
                if not probe & mask:
                    append(move)
        return out

    def fish_count(self, color: int) -> int:
        return self.bb[color].bit_count()

    def largest_swarm(self, color: int) -> int:
        return largest_swarm_of(self.bb[color])

    def is_connected(self, color: int) -> bool:
        return self.largest_swarm(color) == self.fish_count(color)

    def decision(self) -> Decision | None:
        """The official game-over check: only at even turns, in the order of spec §9."""
        if self.turn % 2:
            return None
        red, blue = self.largest_swarm(RED), self.largest_swarm(BLUE)
        red_connected = red == self.fish_count(RED)
        blue_connected = blue == self.fish_count(BLUE)
        if red_connected:
            if not blue_connected or red > blue:
                return Decision(RED, REASON_SWARM)
            if blue > red:
                return Decision(BLUE, REASON_SWARM)
            # both connected, equal size: no decision, the game goes on (19.2.1)
        elif blue_connected:
            return Decision(BLUE, REASON_SWARM)
        if self.turn >= TURN_LIMIT:
            if red == blue:
                return Decision(None, REASON_ROUND_LIMIT)
            return Decision(RED if red > blue else BLUE, REASON_ROUND_LIMIT)
        return None
