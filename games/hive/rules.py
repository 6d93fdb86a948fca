"""Hive 2020 (``swc_2020_hive``): the pure, seedable rules of the official 20.final plugin.

The board is the hexagon of radius 5 (91 fields, cube coordinates x + y + z = 0); a field is
kept by its index in :data:`CELLS` and holds a stack of pieces (bottom first), a piece being
``color << 3 | kind``.  Three fields are blocked.  Every check runs in the order of
``GameRuleLogic.validateMove`` and raises :class:`RuleViolation` with the official text
(without the ``; move was ...`` suffix, which :meth:`Move.text` supplies to the caller).

Spec-conformance notes (``spec/hive_2020.md``):

* §2: the three blocked fields are drawn from all 91 fields, distinct, no symmetry: here from the
  room's seeded ``random.Random`` (the official server used an unseeded generator, defect 7).
* §3/§4: a move keeps the coordinates as sent, z included; fields are looked up by x and y
  alone, equality (first-piece neighbourhood, start = destination, neighbour tests) compares
  x, y and z, so a wrong z is accepted where the official code accepted it (defect 2).  A
  destination or start with x, y in range but off the hexagon was an internal error of the
  official code: :class:`ScanCrash` (the server drops the sender, LEFT).
* §4 B.3: a player owning no top piece is in the "first piece" branch, where neither the
  undeployed list nor the bee deadline is checked (defect 5); the set then removes the piece
  from the undeployed list only if it is there (Kotlin's ``remove`` is a no-op otherwise).
* §5: the legal moves are the official ``getPossibleMoves`` (one set per piece *type*);
  ``[Skip]`` only when nothing else exists and the bee is not due; a skip is *accepted*
  whenever no other move exists, even when the bee is due and cannot be set.
* §6.1: the win check answers only at even turns; both bees blocked is a draw with the
  round-limit text (defect 3).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

RED, BLUE = 0, 1
COLOR_NAMES = ("RED", "BLUE")
COLOR_GERMAN = ("Rot", "Blau")
ANT, BEE, BEETLE, GRASSHOPPER, SPIDER = range(5)
KIND_NAMES = ("ANT", "BEE", "BEETLE", "GRASSHOPPER", "SPIDER")
STARTING_PIECES = (BEE, SPIDER, SPIDER, SPIDER, GRASSHOPPER, GRASSHOPPER, BEETLE, BEETLE, ANT, ANT, ANT)  # "QSSSGGBBAAA"
SET_ORDER = (BEE, SPIDER, GRASSHOPPER, BEETLE, ANT)  # the order set moves are listed in (one per type)
RADIUS = 5
BLOCKED_COUNT = 3
ROUND_LIMIT_TURN = 60
BEE_DUE_TURN = 6  # round 3 (the fourth round): the bee must be set by then
DIRECTIONS = ((1, -1), (-1, 1), (1, 0), (0, 1), (0, -1), (-1, 0))  # RIGHT LEFT UPRIGHT UPLEFT DOWNRIGHT DOWNLEFT

CELLS: tuple[tuple[int, int], ...] = tuple(
    (x, y) for x in range(-RADIUS, RADIUS + 1) for y in range(-RADIUS, RADIUS + 1) if abs(x + y) <= RADIUS
)
INDEX: dict[tuple[int, int], int] = {cell: i for i, cell in enumerate(CELLS)}
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(INDEX[(x + dx, y + dy)] for dx, dy in DIRECTIONS if (x + dx, y + dy) in INDEX) for x, y in CELLS
)
NEIGHBOUR_SETS = tuple(frozenset(n) for n in NEIGHBOURS)
SHARED: dict[tuple[int, int], tuple[int, ...]] = {
    (a, b): tuple(c for c in NEIGHBOURS[a] if c in NEIGHBOUR_SETS[b]) for a in range(len(CELLS)) for b in NEIGHBOURS[a]
}

# the texts of GameRuleLogic (§4)
NOT_EMPTY = "Set destination is not empty"
OBSTRUCTED = "The target field is obstructed"
FIRST_TOUCH = "Your first piece has to touch the piece of the other player"
BEE_LATE = "The bee must be placed in fourth round latest"
TOUCH_OWN = "A newly placed piece must touch an own piece"
TOUCH_OTHER = "A newly placed piece must not touch a piece of the other player"
DRAG_NO_BEE = "You have to place the Bee to be able to perform dragmoves"
NO_PIECE = "There is no piece to move"
OPPONENT_PIECE = "Trying to move piece of the other player"
SAME_FIELD = "Destination and start are equal"
CLIMB = "Only beetles are allowed to climb on other Pieces"
DISCONNECT = "Moving piece would disconnect swarm"
NOT_NEXT = "Destination field is not next to start field"
NO_PATH = "There is no path to your destination"
BEETLE_SWARM = "Beetle has to move along swarm"
HOPPER_LINE = "Grasshopper can only move in straight lines"
HOPPER_NEIGHBOUR = "Grasshopper has to jump over at least one piece"
HOPPER_GAP = "Grasshopper can only jump over occupied fields"
ANT_PATH = "No path found for Ant move"
SPIDER_PATH = "No path found for Spider move"
SKIP_REFUSED = "Skipping a turn is only allowed when no other moves can be made"

BEE_SURROUNDED = "Das Spiel ist beendet.\n{} hat die gegnerische Biene umzingelt."
ROUND_LIMIT_FREE_FIELDS = "Das Rundenlimit wurde erreicht.\n{} hat mehr freie Felder um seine Biene."
ROUND_LIMIT_EQUAL = "Das Rundenlimit wurde erreicht.\nBeide Bienen haben gleich viele freie Felder."


class RuleViolation(Exception):
    """A move the official rules refuse; ``reason`` is the official text, ``with_move`` whether
    the server appends ``; move was MOVE`` (every text but the skip's)."""

    def __init__(self, reason: str, with_move: bool = True):
        super().__init__(reason)
        self.reason = reason
        self.with_move = with_move


class ScanCrash(Exception):
    """The official rule code crashed on this move (a field off the hexagon): the sender is dropped."""


Coord = tuple[int, int, int]


def piece_text(color: int, kind: int) -> str:
    return f"Piece(owner={COLOR_NAMES[color]}, type={KIND_NAMES[kind]})"


def coord_text(c: Coord) -> str:
    return f"({c[0]},{c[1]},{c[2]})"


def cube(index: int) -> Coord:
    x, y = CELLS[index]
    return (x, y, -x - y)


@dataclass(frozen=True, slots=True)
class SetMove:
    color: int
    kind: int
    destination: Coord

    def text(self) -> str:
        return f"Set {COLOR_NAMES[self.color]} {KIND_NAMES[self.kind]} to {coord_text(self.destination)}"


@dataclass(frozen=True, slots=True)
class DragMove:
    start: Coord
    destination: Coord

    def text(self) -> str:
        return f"Drag from {coord_text(self.start)} to {coord_text(self.destination)}"


@dataclass(frozen=True, slots=True)
class SkipMove:
    def text(self) -> str:
        return "Skip"


Move = SetMove | DragMove | SkipMove
SKIP = SkipMove()


def _cell_of(c: Coord) -> int:
    """The field at ``c`` by x and y (§4 A): a crash where the official array has no field."""
    index = INDEX.get((c[0], c[1]))
    if index is None:
        raise ScanCrash(f"no field at {coord_text(c)}")
    return index


def _on_board(c: Coord) -> bool:
    return -RADIUS <= c[0] <= RADIUS and -RADIUS <= c[1] <= RADIUS


def _is_neighbour(a: Coord, b: Coord) -> bool:
    return (b[0] - a[0], b[1] - a[1]) in DIRECTIONS and a[0] + a[1] + a[2] == b[0] + b[1] + b[2]


class Position:
    """One Hive state: stacks, blocked fields, undeployed pieces, turn and side to move."""

    __slots__ = ("stacks", "blocked", "undeployed", "turn", "current", "last_move")

    def __init__(self, stacks: list[list[int]], blocked: frozenset[int], undeployed: list[list[int]], turn: int = 0,
                 current: int = RED, last_move: Move | None = None):
        self.stacks = stacks
        self.blocked = blocked
        self.undeployed = undeployed
        self.turn = turn
        self.current = current
        self.last_move = last_move

    @classmethod
    def start(cls, rng: random.Random) -> Position:
        """The start position: three distinct blocked fields anywhere (§2), drawn from ``rng``."""
        blocked: set[int] = set()
        while len(blocked) < BLOCKED_COUNT:
            blocked.add(rng.randrange(len(CELLS)))
        return cls([[] for _ in CELLS], frozenset(blocked), [list(STARTING_PIECES), list(STARTING_PIECES)])

    def copy(self) -> Position:
        return Position([list(s) for s in self.stacks], self.blocked, [list(u) for u in self.undeployed], self.turn,
                        self.current, self.last_move)

    # -- reading ------------------------------------------------------------------------------

    def owner(self, index: int) -> int | None:
        stack = self.stacks[index]
        return stack[-1] >> 3 if stack else None

    def _owned(self, color: int) -> list[int]:
        return [i for i, s in enumerate(self.stacks) if s and s[-1] >> 3 == color]

    def bee_placed(self, color: int) -> bool:
        return BEE not in self.undeployed[color]

    def _bee_due(self, color: int) -> bool:
        return self.turn >= BEE_DUE_TURN and not self.bee_placed(color)

    def _free(self, index: int) -> bool:
        return not self.stacks[index] and index not in self.blocked

    def bee_field(self, color: int) -> int | None:
        bee = color << 3 | BEE
        for i, stack in enumerate(self.stacks):
            if bee in stack:
                return i
        return None

    def free_bee_neighbours(self, color: int) -> int:
        """The second score part: empty, unblocked fields next to the bee; -1 without bee."""
        field = self.bee_field(color)
        if field is None:
            return -1
        return sum(1 for n in NEIGHBOURS[field] if self._free(n))

    # -- validation (§4) ----------------------------------------------------------------------

    def validate(self, move: Move) -> None:
        """Raise RuleViolation (or ScanCrash) unless the side to move may play ``move``."""
        if isinstance(move, SkipMove):
            if self.has_non_skip_move():
                raise RuleViolation(SKIP_REFUSED, with_move=False)
            return
        dest = move.destination
        if not _on_board(dest):
            raise RuleViolation(f"Destination {coord_text(dest)} is out of bounds")
        to = _cell_of(dest)
        if to in self.blocked:
            raise RuleViolation(OBSTRUCTED)
        if isinstance(move, SetMove):
            self._validate_set(move, to)
        else:
            self._validate_drag(move, to)

    def _validate_set(self, move: SetMove, to: int) -> None:
        me = self.current
        if self.stacks[to]:
            raise RuleViolation(NOT_EMPTY)
        if move.color != me:
            raise RuleViolation(f"The piece {piece_text(move.color, move.kind)} does not belong to the current "
                                f"Player({COLOR_NAMES[me]})")
        owned = self._owned(me)
        if not owned:
            theirs = self._owned(1 - me)
            if theirs and not any(_is_neighbour(cube(t), move.destination) for t in theirs):
                raise RuleViolation(FIRST_TOUCH)
            return
        if move.kind not in self.undeployed[me]:
            raise RuleViolation(f"Piece {piece_text(me, move.kind)} is not an undeployed piece of the current player")
        if self._bee_due(me) and move.kind != BEE:
            raise RuleViolation(BEE_LATE)
        owners = [self.owner(n) for n in NEIGHBOURS[to]]
        if me not in owners:
            raise RuleViolation(TOUCH_OWN)
        if 1 - me in owners:
            raise RuleViolation(TOUCH_OTHER)

    def _validate_drag(self, move: DragMove, to: int) -> None:
        me = self.current
        if not self.bee_placed(me):
            raise RuleViolation(DRAG_NO_BEE)
        start = move.start
        if not _on_board(start):
            raise ScanCrash(f"start {coord_text(start)} off the board")
        frm = _cell_of(start)
        stack = self.stacks[frm]
        if not stack:
            raise RuleViolation(NO_PIECE)
        if stack[-1] >> 3 != me:
            raise RuleViolation(OPPONENT_PIECE)
        if start == move.destination:
            raise RuleViolation(SAME_FIELD)
        kind = stack[-1] & 7
        if self.stacks[to] and kind != BEETLE:
            raise RuleViolation(CLIMB)
        piece = stack.pop()
        try:
            if not self._connected():
                raise RuleViolation(DISCONNECT)
            self._validate_path(kind, start, move.destination, frm, to)
        finally:
            stack.append(piece)

    def _validate_path(self, kind: int, start: Coord, dest: Coord, frm: int, to: int) -> None:
        if kind == BEE or kind == BEETLE:
            if not _is_neighbour(start, dest):
                raise RuleViolation(NOT_NEXT)
            if kind == BEE:
                if not self._can_move_between(frm, to):
                    raise RuleViolation(NO_PATH)
            elif not self.stacks[to] and not self.stacks[frm] and not any(self.stacks[c] for c in SHARED[frm, to]):
                raise RuleViolation(BEETLE_SWARM)
        elif kind == GRASSHOPPER:
            self._validate_jump(start, dest)
        elif kind == ANT:
            if to not in self._ant_reach(frm):
                raise RuleViolation(ANT_PATH)
        elif to not in self._spider_reach(frm):
            raise RuleViolation(SPIDER_PATH)

    def _validate_jump(self, start: Coord, dest: Coord) -> None:
        dx, dy, dz = dest[0] - start[0], dest[1] - start[1], dest[2] - start[2]
        if dx and dy and dz:
            raise RuleViolation(HOPPER_LINE)
        if _is_neighbour(start, dest):
            raise RuleViolation(HOPPER_NEIGHBOUR)
        steps = max(abs(dx), abs(dy), abs(dz))
        sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
        for k in range(1, steps):
            index = INDEX.get((start[0] + sx * k, start[1] + sy * k))
            if index is None:
                raise ScanCrash("a jump over a field off the board")
            if not self.stacks[index]:
                raise RuleViolation(HOPPER_GAP)

    def _can_move_between(self, a: int, b: int) -> bool:
        shared = SHARED[a, b]
        stacks, blocked = self.stacks, self.blocked
        if not any(stacks[c] for c in shared):
            return False
        return len(shared) == 1 or any(not stacks[c] and c not in blocked for c in shared)

    def _accessible(self, a: int):
        stacks, blocked = self.stacks, self.blocked
        for n in NEIGHBOURS[a]:
            if not stacks[n] and n not in blocked and self._can_move_between(a, n):
                yield n

    def _ant_reach(self, frm: int) -> set[int]:
        seen = {frm}
        todo = [frm]
        while todo:
            a = todo.pop()
            for n in self._accessible(a):
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        seen.discard(frm)
        return seen

    def _spider_reach(self, frm: int) -> set[int]:
        ends: set[int] = set()
        for a in self._accessible(frm):
            for b in self._accessible(a):
                if b == frm:
                    continue
                for c in self._accessible(b):
                    if c != frm and c != a:
                        ends.add(c)
        return ends

    def _connected(self) -> bool:
        """The occupied fields form one group (stacks count once)."""
        stacks = self.stacks
        occupied = [i for i, s in enumerate(stacks) if s]
        if len(occupied) <= 1:
            return True
        seen = {occupied[0]}
        todo = [occupied[0]]
        while todo:
            a = todo.pop()
            for n in NEIGHBOURS[a]:
                if stacks[n] and n not in seen:
                    seen.add(n)
                    todo.append(n)
        return len(seen) == len(occupied)

    # -- legal moves (§5) ---------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        moves: list[Move] = [*self._set_moves(), *self._drag_moves()]
        if not moves and not self._bee_due(self.current):
            moves.append(SKIP)
        return moves

    def has_non_skip_move(self) -> bool:
        return bool(self._set_moves()) or bool(self._drag_moves(first_only=True))

    def _set_destinations(self) -> list[int]:
        me = self.current
        stacks, blocked = self.stacks, self.blocked
        if len(self.undeployed[me]) == len(STARTING_PIECES):
            theirs = self._owned(1 - me)
            if not theirs:
                return [i for i in range(len(CELLS)) if not stacks[i] and i not in blocked]
            return sorted({n for t in theirs for n in NEIGHBOURS[t] if not stacks[n] and n not in blocked})
        found: set[int] = set()
        for own in self._owned(me):
            for n in NEIGHBOURS[own]:
                if not stacks[n] and n not in blocked and n not in found:
                    if all(not stacks[m] or stacks[m][-1] >> 3 == me for m in NEIGHBOURS[n]):
                        found.add(n)
        return sorted(found)

    def _set_moves(self) -> list[Move]:
        me = self.current
        undeployed = self.undeployed[me]
        if not undeployed:
            return []
        kinds = (BEE,) if self._bee_due(me) else tuple(k for k in SET_ORDER if k in undeployed)
        return [SetMove(me, kind, cube(to)) for to in self._set_destinations() for kind in kinds]

    def _drag_moves(self, first_only: bool = False, pinned: set[int] | None = None) -> list[Move]:
        """The side to move's drag moves, its fields in board order, each piece's targets in the
        order of its kind's rule.  ``pinned``: the fields whose piece holds the swarm together,
        known to the caller (the ladder's strategy finds them in one pass); those are skipped and
        the swarm's connection is not tested again per piece, as the referee does without it."""
        me = self.current
        if not self.bee_placed(me) or self._bee_due(me):
            return []
        moves: list[Move] = []
        stacks = self.stacks
        for frm in self._owned(me):
            if pinned is not None and frm in pinned:
                continue
            stack = stacks[frm]
            piece = stack.pop()
            try:
                if pinned is None and not self._connected():
                    continue
                targets = self._drag_targets(frm, piece & 7)
            finally:
                stack.append(piece)
            start = cube(frm)
            moves.extend(DragMove(start, cube(to)) for to in targets)
            if first_only and moves:
                break
        return moves

    def _drag_targets(self, frm: int, kind: int) -> list[int]:
        """Where a piece of ``kind`` lifted off ``frm`` may go (it is off the board meanwhile)."""
        stacks = self.stacks
        if kind == BEE:
            return list(self._accessible(frm))
        if kind == BEETLE:
            return [n for n in NEIGHBOURS[frm] if n not in self.blocked
                    and (stacks[n] or stacks[frm] or any(stacks[c] for c in SHARED[frm, n]))]
        if kind == GRASSHOPPER:
            return self._jumps(frm)
        if kind == ANT:
            return sorted(self._ant_reach(frm))
        return sorted(self._spider_reach(frm))

    def _jumps(self, frm: int) -> list[int]:
        x, y = CELLS[frm]
        stacks = self.stacks
        targets = []
        for dx, dy in DIRECTIONS:
            k = 1
            index = INDEX.get((x + dx, y + dy))
            if index is None or not stacks[index]:
                continue
            while index is not None and stacks[index]:
                k += 1
                index = INDEX.get((x + dx * k, y + dy * k))
            if index is not None and index not in self.blocked:
                targets.append(index)
        return targets

    # -- effect and end (§5, §6) --------------------------------------------------------------

    def push(self, move: Move) -> None:
        """Validate and perform ``move`` for the side to move."""
        self.validate(move)
        self.perform(move)

    def perform(self, move: Move) -> None:
        """Perform ``move`` for the side to move without validating it: for a move that comes
        from :meth:`legal_moves` (the ladder's search makes thousands a move, games/hive/strategy.py)."""
        me = self.current
        if isinstance(move, SetMove):
            undeployed = self.undeployed[me]
            if move.kind in undeployed:
                undeployed.remove(move.kind)
            self.stacks[_cell_of(move.destination)].append(move.color << 3 | move.kind)
        elif isinstance(move, DragMove):
            piece = self.stacks[_cell_of(move.start)].pop()
            self.stacks[_cell_of(move.destination)].append(piece)
        self.turn += 1
        self.current = 1 - me
        self.last_move = move

    def bee_blocked(self, color: int) -> bool:
        field = self.bee_field(color)
        return field is not None and not any(self._free(n) for n in NEIGHBOURS[field])

    def decision(self) -> tuple[int | None, str] | None:
        """(winner colour or None for a draw, reason template: ``{}`` = "NAME (Rot)") or None."""
        if self.turn % 2:
            return None
        red, blue = self.bee_blocked(RED), self.bee_blocked(BLUE)
        if red and blue:
            return None, ROUND_LIMIT_EQUAL
        if red:
            return BLUE, BEE_SURROUNDED
        if blue:
            return RED, BEE_SURROUNDED
        if self.turn >= ROUND_LIMIT_TURN:
            free = self.free_bee_neighbours(RED), self.free_bee_neighbours(BLUE)
            if free[0] == free[1]:
                return None, ROUND_LIMIT_EQUAL
            return (RED if free[0] > free[1] else BLUE), ROUND_LIMIT_FREE_FIELDS
        return None

    def text(self) -> str:
        """A small text board for people: one row per y, ``#`` blocked, upper case RED."""
        letters = {ANT: "a", BEE: "q", BEETLE: "b", GRASSHOPPER: "g", SPIDER: "s"}
        rows = []
        for y in range(RADIUS, -RADIUS - 1, -1):
            cells = []
            for x in range(-RADIUS, RADIUS + 1):
                index = INDEX.get((x, y))
                if index is None:
                    cells.append(" ")
                elif index in self.blocked:
                    cells.append("#")
                elif self.stacks[index]:
                    top = self.stacks[index][-1]
                    letter = letters[top & 7]
                    cells.append(letter.upper() if top >> 3 == RED else letter)
                else:
                    cells.append(".")
            rows.append(" " * (y + RADIUS) + " ".join(cells))
        return "\n".join(rows)
