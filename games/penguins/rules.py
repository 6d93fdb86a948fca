"""Penguins 2023 rules, exactly as the official 23.0.3 server applies them (penguins_2023.md §1-§5).

Pure Python on purpose: no I/O, no XML, no trio, so bots, replays, tests and the server share one
engine.  The board is a flat list of 64 ints, index ``8 * y + i`` for field ``i`` of row ``y`` (the
memento's order): ``0..4`` fish (0 = a hole), :data:`PENGUIN` ``[team]`` (negative) for a penguin.
Moves and ``lastMove`` use the official doubled coordinates: field ``i`` of row ``y`` is
``(2 * i + y % 2, y)``.  The six slide rays of every field are precomputed, so a move generation
is a few list walks.

Spec-conformance notes (why each quirk is here; the section of the contract in brackets):

* Team on turn [§1]: ONE on even turns, TWO on odd ones, unless that team has all 4 penguins on
  the board and none of them touches a floe: then the other team moves (no pass, no message).
* Legal moves [§3]: set moves (to every 1-fish field, row-major) while the team on turn has fewer
  than 4 penguins, afterwards slides (own penguins row-major, directions in the official order
  LEFT (+2,0), UP_LEFT, UP_RIGHT, RIGHT (-2,0), DOWN_RIGHT, DOWN_LEFT, nearest first).
* Validation order and texts [§3] are the official ones.  The server reads a field at ``(x, y)``
  as row ``y``, index ``x / 2`` with Kotlin's truncating division and without a parity or sign
  check; a read outside the rows/indices, and a set move whose read passes but whose point is no
  field (odd parity, x = -1), threw ``IllegalArgumentException`` in the official code, which
  dropped the player without a word: here :class:`RuleCrash` (the server drops the player, LEFT
  ``UNKNOWN``), as the contract's decision §12.3 allows and the captures show.  A slide *to* an
  off-board point is only INVALID_MOVE (never read).
* A move without ``to`` crashed the official code (``G/invalid_no_to``, ``G/invalid_empty_move``):
  :class:`RuleCrash` as well.
* Effects [§4]: fish are collected on arrival (also 1 for a set move); the floe a penguin leaves
  becomes a hole.  A failed move changes nothing.
* End and winner [§5]: over when all 8 penguins are placed and none touches a floe; more fish
  wins, equal fish is a draw.  There is no turn limit.
* The start board [§2] comes from Kotlin's ``Random(seed)`` (:mod:`.xorwow`): the same seed gives
  the official server's board.
"""

from __future__ import annotations

from dataclasses import dataclass

from swc_local.games.penguins.xorwow import XorWow

SIZE = 8
PENGUINS_PER_TEAM = 4
ONE, TWO = 0, 1
TEAM_NAMES = ("ONE", "TWO")
PENGUIN = (-1, -2)  # a field's value for a penguin of ONE / TWO
MAX_HOLES_PER_HALF = 5

WRONG_COLOR = "Nur eigene Spielfiguren können gezogen werden"
PENGUINS = "Setze zuerst alle Pinguine"
INVALID_MOVE = "Dieser Zug ist nicht möglich"
MAX_PENGUINS = "Bereits alle Pinguine gesetzt"
SINGLE_FISH = "Pinguine können nur auf einzelne Fische gesetzt werden"

DIRECTIONS = ((2, 0), (-1, -1), (1, -1), (-2, 0), (1, 1), (-1, 1))
"""``Vector.DoubledHex`` in the official order (its LEFT/RIGHT names are swapped; the vectors count)."""

Point = tuple[int, int]


def is_field(x: int, y: int) -> bool:
    """``Board.isValid``: a doubled-coordinate point that names a field."""
    return (x + y) % 2 == 0 and x >= 0 and x // 2 < SIZE and 0 <= y < SIZE


def index_of(x: int, y: int) -> int:
    """The list index of field ``(x, y)`` (which must be a field)."""
    return SIZE * y + x // 2


def point_of(index: int) -> Point:
    y, i = divmod(index, SIZE)
    return (2 * i + y % 2, y)


def _truncated_half(x: int) -> int:
    """Kotlin's ``x / 2`` (towards zero): -1 / 2 is 0."""
    return x // 2 if x >= 0 else -((-x) // 2)


def _rays() -> tuple[tuple[tuple[int, ...], ...], ...]:
    rays = []
    for index in range(SIZE * SIZE):
        x, y = point_of(index)
        per_direction = []
        for dx, dy in DIRECTIONS:
            ray, cx, cy = [], x + dx, y + dy
            while is_field(cx, cy):
                ray.append(index_of(cx, cy))
                cx, cy = cx + dx, cy + dy
            per_direction.append(tuple(ray))
        rays.append(tuple(per_direction))
    return tuple(rays)


RAYS = _rays()
NEIGHBOURS = tuple(tuple(ray[0] for ray in rays if ray) for rays in RAYS)
POINTS = tuple(point_of(index) for index in range(SIZE * SIZE))


@dataclass(frozen=True, slots=True)
class Move:
    """A set move (``from_`` None) or a slide; ``to`` None only for a malformed move."""

    from_: Point | None
    to: Point | None

    def __str__(self) -> str:
        """The official ``Move.toString``."""
        if self.from_ is None:
            return f"Setze Pinguin auf {_bracket(self.to)}"
        return f"Schlittern {_bracket(self.from_)} zu {_bracket(self.to)}"


def _bracket(point: Point | None) -> str:
    return "null" if point is None else f"[{point[0]}|{point[1]}]"


class RuleViolation(Exception):
    """A rule check failed: ``mistake`` is the official text, ``str()`` the exception message."""

    def __init__(self, mistake: str, move: Move):
        super().__init__(f"{mistake} bei Zug '{move}'")
        self.mistake = mistake
        self.move = move


class RuleCrash(Exception):
    """The official code threw outside the rule checks (the server dropped the player)."""


def _off_board(x: int, y: int) -> RuleCrash:
    return RuleCrash(f"[{x}|{y}] ist nicht teil des Spielfelds!")


def start_board(seed: int) -> list[int]:
    """The official ``Board()`` filled from ``Random(seed)`` (§2)."""
    rng = XorWow(seed)
    remaining, holes = 64, MAX_HOLES_PER_HALF
    top = []
    for _ in range(SIZE * SIZE // 2):
        r = rng.next_below(remaining)
        if r < holes:
            top.append(0)
            holes -= 1
        else:
            fish = (r - holes) // 20 + 1
            remaining -= fish
            top.append(fish)
    return top + top[::-1]  # rows 4..7: the top half turned by 180 degrees


class Position:
    """One game state: board, turn, fish per team, the last move."""

    __slots__ = ("board", "turn", "fishes", "last_move", "penguins", "_stuck")

    def __init__(self, board: list[int], turn: int = 0, fishes: tuple[int, int] = (0, 0),
                 last_move: Move | None = None):
        if len(board) != SIZE * SIZE:
            raise ValueError(f"a board has {SIZE * SIZE} fields, not {len(board)}")
        self.board = list(board)
        self.turn = turn
        self.fishes = [fishes[0], fishes[1]]
        self.last_move = last_move
        self.penguins = ([i for i, v in enumerate(board) if v == PENGUIN[ONE]],
                         [i for i, v in enumerate(board) if v == PENGUIN[TWO]])
        if any(len(p) > PENGUINS_PER_TEAM for p in self.penguins):
            raise ValueError("more than 4 penguins of a team")
        self._stuck: list[bool | None] = [None, None]  # is_stuck per team, until the next move

    @classmethod
    def from_seed(cls, seed: int) -> Position:
        return cls(start_board(seed))

    def copy(self) -> Position:
        return Position(self.board, self.turn, (self.fishes[0], self.fishes[1]), self.last_move)

    # -- who moves ----------------------------------------------------------------------------

    def is_stuck(self, team: int) -> bool:
        """All 4 penguins placed and none touches a floe (kept until the next move: the server
        asks who is on turn several times per move)."""
        stuck = self._stuck[team]
        if stuck is None:
            penguins, board = self.penguins[team], self.board
            stuck = (len(penguins) == PENGUINS_PER_TEAM
                     and not any(board[n] > 0 for p in penguins for n in NEIGHBOURS[p]))
            self._stuck[team] = stuck
        return stuck

    @property
    def current(self) -> int:
        """``GameState.currentTeam``: the turn's team, or the other one while it is stuck."""
        team = self.turn % 2
        return 1 - team if self.is_stuck(team) else team

    def is_over(self) -> bool:
        return self.is_stuck(ONE) and self.is_stuck(TWO)

    def winner(self) -> int | None:
        """The team with more fish (None: equal, a draw); meaningful once over."""
        one, two = self.fishes
        return None if one == two else (ONE if one > two else TWO)

    # -- moves --------------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        team = self.current
        board = self.board
        if len(self.penguins[team]) < PENGUINS_PER_TEAM:
            return [Move(None, POINTS[i]) for i in range(SIZE * SIZE) if board[i] == 1]
        moves = []
        for p in sorted(self.penguins[team]):
            origin = POINTS[p]
            for ray in RAYS[p]:
                for j in ray:
                    if board[j] <= 0:
                        break
                    moves.append(Move(origin, POINTS[j]))
        return moves

    def _read(self, x: int, y: int) -> int:
        """``Board.get(x, y)``: row ``y``, field ``x / 2`` (truncating), no parity check."""
        i = _truncated_half(x)
        if not (0 <= y < SIZE and 0 <= i < SIZE):
            raise _off_board(x, y)
        return self.board[SIZE * y + i]

    def _slide_targets(self, x: int, y: int) -> list[int]:
        if not is_field(x, y):
            return []
        board, targets = self.board, []
        for ray in RAYS[index_of(x, y)]:
            for j in ray:
                if board[j] <= 0:
                    break
                targets.append(j)
        return targets

    def check(self, move: Move) -> None:
        """Raise RuleViolation / RuleCrash exactly where the official ``performMove`` fails."""
        if move.to is None:
            raise RuleCrash(f"a move without <to>: {move}")
        team = self.current
        placed = len(self.penguins[team])
        tx, ty = move.to
        if move.from_ is not None:
            fx, fy = move.from_
            if self._read(fx, fy) != PENGUIN[team]:
                raise RuleViolation(WRONG_COLOR, move)
            if placed < PENGUINS_PER_TEAM:
                raise RuleViolation(PENGUINS, move)
            dx, dy = tx - fx, ty - fy
            if not (abs(dx) == abs(dy) or (dx % 2 == 0 and dy == 0)):
                raise RuleViolation(INVALID_MOVE, move)
            if not is_field(tx, ty) or index_of(tx, ty) not in self._slide_targets(fx, fy):
                raise RuleViolation(INVALID_MOVE, move)
            return
        if placed >= PENGUINS_PER_TEAM:
            raise RuleViolation(MAX_PENGUINS, move)
        if self._read(tx, ty) != 1:
            raise RuleViolation(SINGLE_FISH, move)
        if not is_field(tx, ty):
            raise _off_board(tx, ty)

    def push(self, move: Move) -> None:
        """Validate and perform ``move`` for the team on turn."""
        self.check(move)
        self.push_unchecked(move)

    def push_unchecked(self, move: Move) -> None:
        """Perform a move known to be legal (from :meth:`legal_moves`)."""
        team = self.current
        board = self.board
        to = index_of(*move.to)
        if move.from_ is not None:
            origin = index_of(*move.from_)
            board[origin] = 0
            penguins = self.penguins[team]
            penguins[penguins.index(origin)] = to
        else:
            self.penguins[team].append(to)
        self.fishes[team] += board[to]
        board[to] = PENGUIN[team]
        self.last_move = move
        self.turn += 1
        self._stuck = [None, None]

    def score_parts(self, team: int) -> list[int]:
        """The result's parts after Siegpunkte: the team's fish."""
        return [self.fishes[team]]

    def text(self) -> str:
        """A small picture for people: rows shifted as the hexes lie, R/B for penguins."""
        letters = {PENGUIN[ONE]: "R", PENGUIN[TWO]: "B", 0: "."}
        rows = []
        for y in range(SIZE):
            cells = " ".join(letters.get(v, str(v)) for v in self.board[SIZE * y: SIZE * (y + 1)])
            rows.append((" " if y % 2 else "") + cells)
        return "\n".join(rows)
