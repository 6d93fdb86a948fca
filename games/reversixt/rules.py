"""ReversiXT rules as pure Python: walks through transitions, legal moves, placements, bombs.

The board is a flat ``bytearray`` (codes from :mod:`.mapfile`); a step table built once per map
gives, for every (square, direction), the square reached and the direction to go on in (the
plain neighbour, or the transition where the neighbour is off the board or a hole), so walking
never recomputes geometry. A step onto a square that is a hole *now* (bombs make holes) stops.

Legal moves are generated from the mover's own stones outwards (the walk is reversible, so a
run of foreign stones from an own stone to an empty square is exactly a run that square
encloses); that costs about the mover's stones x 8 short walks, not board size x 8.

Conformance notes (``shared/spec/reversixt.md`` F, every fact confirmed on the reference):
- a walk stops on an empty or special square, a hole, the edge without transition, an own
  stone, or on coming back to its start square (``rules_ring_overwrite_start``);
- ``x`` squares and every other player's stones (disqualified players' too) are enclosed and
  flipped; an overwrite stone allows any occupied square (own, other, ``x``) that encloses
  something, and ``x`` even without flips; ``c``/``i``/``b`` must enclose something even for a
  player holding overwrite stones (``rules_bonus_square_encloses_nothing``);
- special effects come after the flips: choice swaps two colours over the whole board (a
  disqualified player's colour too), inversion shifts every colour p -> p mod n + 1 over all n
  players, bonus 20 gives a bomb and 21 an overwrite stone;
- a bomb of strength s makes holes of every square within s steps (neighbours and
  transitions, never through holes); any non-hole square may be bombed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .mapfile import BONUS, CHOICE, DIRECTIONS, EMPTY, EXPANSION, HOLE, INVERSION, GameMap

EMPTY_KINDS = frozenset((EMPTY, CHOICE, INVERSION, BONUS))
# per square code: 0 a stone or x (enclosable), 1 empty or special (a walk ends there), 2 hole
_KIND = bytes(1 if code in EMPTY_KINDS else 2 if code == HOLE else 0 for code in range(256))
SPECIAL_BOMB = 20
SPECIAL_OVERWRITE = 21


def build_steps(game_map: GameMap) -> list[int]:
    """steps[square * 8 + d] = target * 8 + direction to continue in, or -1: no way on."""
    w, h, squares = game_map.width, game_map.height, game_map.squares
    steps = [-1] * (w * h * 8)
    for y in range(h):
        for x in range(w):
            i = y * w + x
            for d, (dx, dy) in enumerate(DIRECTIONS):
                nx, ny = x + dx, y + dy
                if 0 <= nx < w and 0 <= ny < h and squares[ny * w + nx] != HOLE:
                    steps[i * 8 + d] = (ny * w + nx) * 8 + d
    for t in game_map.transitions:
        a, b = t.y1 * w + t.x1, t.y2 * w + t.x2
        steps[a * 8 + t.r1] = b * 8 + (t.r2 + 4) % 8
        steps[b * 8 + t.r2] = a * 8 + (t.r1 + 4) % 8
    return steps


@dataclass
class State:
    """Everything that changes during a game: board, per-player stock, who is still in."""

    game_map: GameMap
    squares: bytearray
    overwrites: list[int]  # index 0 unused, 1..8
    bombs: list[int]
    disqualified: set[int] = field(default_factory=set)
    steps: list[int] = field(default_factory=list)

    @classmethod
    def initial(cls, game_map: GameMap) -> State:
        counts = [0] + [game_map.overwrites] * game_map.players + [0] * (8 - game_map.players)
        bombs = [0] + [game_map.bombs] * game_map.players + [0] * (8 - game_map.players)
        return cls(game_map, bytearray(game_map.squares), counts, bombs, set(), build_steps(game_map))

    def copy(self) -> State:
        return State(
            self.game_map, bytearray(self.squares), list(self.overwrites), list(self.bombs), set(self.disqualified), self.steps
        )

    @property
    def players(self) -> int:
        return self.game_map.players

    def in_game(self) -> list[int]:
        return [p for p in range(1, self.players + 1) if p not in self.disqualified]

    def index(self, x: int, y: int) -> int | None:
        if 0 <= x < self.game_map.width and 0 <= y < self.game_map.height:
            return y * self.game_map.width + x
        return None

    def stones(self, player: int) -> int:
        return self.squares.count(player)

    # ---- phase 1 -------------------------------------------------------------------------

    def enclosed(self, start: int, player: int) -> list[int]:
        """Squares a stone of ``player`` on ``start`` would flip (all directions)."""
        squares, steps = self.squares, self.steps
        flips: list[int] = []
        limit = len(squares) * 8 + 1
        for d in range(8):
            run: list[int] = []
            state = steps[start * 8 + d]
            count = 0
            while state >= 0 and count < limit:
                count += 1
                square = state >> 3
                if square == start:
                    break
                code = squares[square]
                if code == player:
                    flips.extend(run)
                    break
                if code == HOLE or code in EMPTY_KINDS:
                    break
                run.append(square)
                state = steps[square * 8 + (state & 7)]
        return flips

    def legal_targets(self, player: int, *, first_only: bool = False) -> set[int]:
        """Every square ``player`` may place on now (overwrite moves included).

        With ``first_only`` it stops at the first one found (enough to know whether the player
        can move at all, which the turn order asks for every player after every move).
        """
        squares, steps, kind = self.squares, self.steps, _KIND
        may_overwrite = self.overwrites[player] > 0
        targets: set[int] = set()
        add = targets.add
        if may_overwrite and (position := squares.find(EXPANSION)) >= 0:
            add(position)
            if first_only:
                return targets
            while (position := squares.find(EXPANSION, position + 1)) >= 0:
                add(position)
        limit = len(squares) * 8 + 1
        start = -1
        while (start := squares.find(player, start + 1)) >= 0:
            base = start * 8
            for d in range(8):
                state = steps[base + d]
                if state < 0:
                    continue
                square = state >> 3
                code = squares[square]
                if code == player or kind[code]:  # nothing to enclose in this direction
                    continue
                seen = {square} if may_overwrite else None
                count = 0
                state = steps[square * 8 + (state & 7)]
                while state >= 0 and count < limit:
                    count += 1
                    square = state >> 3
                    if square == start:
                        break
                    code = squares[square]
                    if code == player:
                        if may_overwrite:
                            add(square)
                        break
                    k = kind[code]
                    if k == 1:
                        add(square)
                        break
                    if k == 2:
                        break
                    if seen is not None and square not in seen:
                        add(square)
                        seen.add(square)
                    state = steps[square * 8 + (state & 7)]
                if first_only and targets:
                    return targets
        return targets

    def can_place(self, player: int) -> bool:
        return bool(self.legal_targets(player, first_only=True))

    def check_placement(self, player: int, x: int, y: int, special: int) -> list[int] | None:
        """The flips of a valid placement, or None when the move (with its special) is invalid."""
        square = self.index(x, y)
        if square is None:
            return None
        code = self.squares[square]
        if code == HOLE:
            return None
        if code == CHOICE:
            if not 1 <= special <= self.players:
                return None
        elif code == BONUS:
            if special not in (SPECIAL_BOMB, SPECIAL_OVERWRITE):
                return None
        elif special != 0:
            return None
        flips = self.enclosed(square, player)
        if code in EMPTY_KINDS:
            return flips if flips else None
        if self.overwrites[player] <= 0:
            return None
        if flips or code == EXPANSION:
            return flips
        return None

    def place(self, player: int, x: int, y: int, special: int, flips: list[int]) -> None:
        """Apply a placement already checked by :meth:`check_placement`."""
        square = y * self.game_map.width + x
        squares = self.squares
        code = squares[square]
        if code not in EMPTY_KINDS:
            self.overwrites[player] -= 1
        for flipped in flips:
            squares[flipped] = player
        squares[square] = player
        if code == CHOICE and special != player:
            other = special
            swap = bytes.maketrans(bytes([player, other]), bytes([other, player]))
            self.squares = bytearray(squares.translate(swap))
        elif code == INVERSION:
            n = self.players
            table = bytearray(range(256))
            for p in range(1, n + 1):
                table[p] = p % n + 1
            self.squares = bytearray(squares.translate(bytes(table)))
        elif code == BONUS:
            if special == SPECIAL_BOMB:
                self.bombs[player] += 1
            else:
                self.overwrites[player] += 1

    # ---- phase 2 -------------------------------------------------------------------------

    def has_bomb_target(self) -> bool:
        """Phase 2 also ends when every square is a hole (``rules_phase2_after_p1``)."""
        return self.squares.count(HOLE) < len(self.squares)

    def bomb(self, player: int, x: int, y: int) -> bool:
        """Throw a bomb; False (and no change) when the target is off the board or a hole."""
        square = self.index(x, y)
        if square is None or self.squares[square] == HOLE:
            return False
        squares, steps = self.squares, self.steps
        reached = {square}
        frontier = [square]
        for _ in range(self.game_map.strength):
            following = []
            for current in frontier:
                for d in range(8):
                    state = steps[current * 8 + d]
                    if state < 0:
                        continue
                    target = state >> 3
                    if target not in reached and squares[target] != HOLE:
                        reached.add(target)
                        following.append(target)
            frontier = following
            if not frontier:
                break
        for target in reached:
            squares[target] = HOLE
        self.bombs[player] -= 1
        return True
