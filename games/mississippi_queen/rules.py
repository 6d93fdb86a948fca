"""Mississippi Queen 2024 rules (``swc_2024_mississippi_queen``), pure and seedable, as the
official 24.2.5 server plays them.

Contract: ``shared/spec/mississippi_queen_2024.md`` (§ numbers below are its sections).  Two
paddle steamers race down a river of 8 segments (4 columns x 5 rows of hex fields each); a move
is a list of actions (accelerate, advance, turn, push) that must spend exactly the ship's
movement points.

Why the board is one dictionary: the official ``Board.get`` asks every segment in turn; here each
field's coordinate maps to ``(segment index, column, kind)`` once, the first segment winning as
there, so a step of an advance is one lookup.  The move generator mirrors the official
``moveIterator`` (a breadth-first queue of action sequences, §4.7) on tuples, so its moves come
in the same order as the official ones; "can the ship move" stops at the first.

Conformance notes (where the spec leaves a choice or a quirk needs a reason):

* The river is drawn from the injected ``random.Random`` (the official server draws it from
  ``kotlin.random.Random.Default``, unseeded, §2.2), with the official procedure: directions
  never turning back, 2-3 islands per segment, five passenger fields in distinct segments 1-6,
  their docks facing water, the goal in the front column of the last segment.
* The board keeps all 8 segments although only the revealed ones go on the wire: moves into
  unrevealed segments are legal (§10 D1).  A board read from a memento has only the segments
  it shows, all of them revealed, as the official ``BoardConverter`` reads one.
* ``next_direction`` is the official ``Board.nextDirection``: the last segment's direction when
  generated (the attribute when read), then after every move the direction of the first
  unrevealed segment (of the last one once all are revealed).  The last segment's current uses it.
* Advances are merged before validation, the first current field of an advance costs one
  point more, and the ship on the target needs a point left for the push (§4.5).
* An advance by 0 or a negative distance from a sandbank makes the official code index an array
  at -1/-2 (§10 D8): :class:`RuleCrash`, which the plugin turns into the crash's LEFT cause.
* A ship that cannot move after the turn advanced is stuck, the turn advances once more and the
  game is over (§3, §5); its win condition is not regular (§10 D3, as the official server).
* Round-limit and cancel winners compare the stored ``points`` (§10 D7), then passengers; the
  passenger reason upper-cases the name (``%S``, §10 D6).
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass

DIRECTIONS = ("RIGHT", "DOWN_RIGHT", "DOWN_LEFT", "LEFT", "UP_LEFT", "UP_RIGHT")
DIRECTION_INDEX = {name: i for i, name in enumerate(DIRECTIONS)}
VECTORS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))  # (dq, dr); s = -q - r
TEAM_NAMES = ("ONE", "TWO")

WATER, ISLAND, PASSENGER, GOAL, SANDBANK = range(5)
KIND_NAMES = ("water", "island", "passenger", "goal", "sandbank")
KIND_INDEX = {name: i for i, name in enumerate(KIND_NAMES)}
PASSABLE = (True, False, False, True, True)

SEGMENTS = 8
WIDTH, HEIGHT = 4, 5
MIN_SPEED, MAX_SPEED = 1, 6
START_COAL = 6
ROUND_LIMIT = 30
POINTS_PER_SEGMENT = 5
POINTS_PER_PASSENGER = 5

ACCELERATE, ADVANCE, TURN, PUSH = "A", "M", "T", "P"

# The official texts (§4.8), by the enum constant the error's detail names.
MISTAKES = {
    "NO_ACTIONS": "Der Zug enthält keine Aktionen",
    "PUSH_ACTION_REQUIRED": "Wenn du auf einem gegnerischen Schiff landest, muss darauf eine Abdrängaktion folgen.",
    "SAND_BANK_END": "Zug auf eine Sandbank muss letzte Aktion sein.",
    "FIRST_ACTION_ACCELERATE": "Du kannst nur in der ersten Aktion beschleunigen.",
    "MOVEMENT_POINTS_LEFT": "Es sind noch Bewegungspunkte übrig.",
    "MOVEMENT_POINTS_MISSING": "Nicht genug Bewegungspunkte.",
    "ZERO_ACC": "Es kann nicht um den Wert 0 beschleunigt werden.",
    "ABOVE_MAX_SPEED": "Die maximale Geschwindigkeit von 6 darf nicht überschritten werden.",
    "BELOW_MIN_SPEED": "Die minimale Geschwindigkeit von 1 darf nicht unterschritten werden.",
    "INSUFFICIENT_COAL": "Nicht genug Kohle für die Aktion vorhanden.",
    "ON_SANDBANK": "Auf einer Sandbank kann nicht beschleunigt werden.",
    "INSUFFICIENT_PUSH": "Nicht genug Bewegungspunkte für notwendige nachfolgende Abdrängaktion.",
    "INVALID_DISTANCE": "Zurückzulegende Distanz ist ungültig.",
    "SHIP_ALREADY_IN_TARGET": "Kann nicht durch einen Gegner ziehen.",
    "FIELD_IS_BLOCKED": "Feld ist blockiert.",
    "MOVE_END_ON_SANDBANK": "Zug sollte bereits enden, da auf Sandbank gefahren wurde.",
    "SAME_FIELD_PUSH": "Um einen Spieler abzudrängen muss man sich auf demselben Feld wie der Spieler befinden.",
    "INVALID_FIELD_PUSH": "Ein Spieler darf nicht auf ein nicht vorhandenes (oder nicht sichtbares) Feld abgedrängt werden.",
    "BLOCKED_FIELD_PUSH": "Ein Spieler darf nicht auf ein blockiertes Feld abgedrängt werden.",
    "SANDBANK_PUSH": "Von einer Sandbank ist abdrängen nicht möglich.",
    "BACKWARD_PUSHING_RESTRICTED": "Ein Spieler darf nicht auf das Feld abdrängen, von dem er kommt.",
    "ROTATION_ON_SANDBANK_NOT_ALLOWED": "Drehung auf Sandbank nicht erlaubt.",
    "NOT_ENOUGH_COAL_FOR_ROTATION": "Nicht genug Kohle für Drehung.",
}

# Win reasons (MQWinReason); %s is the display name (or the team), %S the same upper-cased.
GOAL_REASON = "%s hat das Ziel zuerst erreicht."
STUCK_REASON = "%s kann sich nicht mehr bewegen."
DISTANCE_REASON = "%s liegt 3 Segmente vorne."
POINTS_REASON = "%s hat mehr Punkte."
PASSENGERS_REASON = "%S hat mehr Passagiere befördert."
TIE = "Beide Teams sind gleichauf"

Action = tuple  # (kind, value): ("A", 2), ("M", 3), ("T", direction index), ("P", direction index)
Move = tuple  # a tuple of actions, in the order sent


class RuleViolation(Exception):
    """An InvalidMoveException: ``mistake`` is the enum constant, ``message`` its exception
    message (the text, `` bei '<move>'`` unless NO_ACTIONS), ``detail`` its toString."""

    def __init__(self, mistake: str, move: Move | None):
        self.mistake = mistake
        self.text = MISTAKES[mistake]
        shown = move_text(move) if move is not None else None
        self.message = self.text if shown is None else f"{self.text} bei '{shown}'"
        self.detail = f"InvalidMoveException(mistake={mistake}, move={shown if shown is not None else 'null'})"
        super().__init__(self.message)


class RuleCrash(Exception):
    """The official rule code throws a runtime exception on this move (§10 D8)."""


def action_text(action: Action) -> str:
    kind, value = action
    if kind == ACCELERATE:
        return f"Beschleunige um {value}"
    if kind == ADVANCE:
        return f"Gehe {value} Felder vor" if value >= 0 else f"Gehe {value} Felder zurück"
    if kind == TURN:
        return f"Drehe nach {DIRECTIONS[value]}"
    return f"Dränge nach {DIRECTIONS[value]} ab"


def move_text(move: Move) -> str:
    """The official ``Move.toString``: ``Zug[Beschleunige um 1, Gehe 2 Felder vor]``."""
    return "Zug[" + ", ".join(action_text(a) for a in move) + "]"


def notation(move: Move) -> str:
    """The golden vectors' notation: ``A1 M2 T:DOWN_RIGHT P:RIGHT``."""
    parts = []
    for kind, value in move:
        parts.append(f"{kind}:{DIRECTIONS[value]}" if kind in (TURN, PUSH) else f"{kind}{value}")
    return " ".join(parts)


def parse_notation(text: str) -> Move:
    actions = []
    for part in text.split():
        if part[0] in (TURN, PUSH):
            actions.append((part[0], DIRECTION_INDEX[part[2:]]))
        else:
            actions.append((part[0], int(part[1:])))
    return tuple(actions)


def turn_count(source: int, target: int) -> int:
    """``CubeDirection.turnCountTo``: -2..3 steps (the opposite is +3)."""
    steps = (target - source) % 6
    return steps - 6 if steps > 3 else steps


def rotate(q: int, r: int, steps: int) -> tuple[int, int]:
    """Cube rotation by 60-degree steps clockwise (RIGHT -> DOWN_RIGHT)."""
    for _ in range(steps % 6):
        q, r = -r, q + r  # (q, r, s) -> (-r, -s, -q)
    return q, r


def local_to_global(x: int, y: int, direction: int, center: tuple[int, int]) -> tuple[int, int]:
    r = y - 2
    q = x - 1 - max(r, 0)
    q, r = rotate(q, r, direction)
    return q + center[0], r + center[1]


@dataclass(slots=True)
class Segment:
    direction: int
    center: tuple[int, int]
    columns: list[list[tuple]]  # columns[x][y] = (kind,) or (PASSENGER, dock direction, passengers)


class Ship:
    __slots__ = ("team", "q", "r", "direction", "speed", "coal", "passengers", "free_turns", "points", "stuck",
                 "free_acc", "movement")

    def __init__(self, team: int, q: int, r: int, direction: int = 0, speed: int = 1, coal: int = START_COAL,
                 passengers: int = 0, free_turns: int = 1, points: int = 0, stuck: bool = False,
                 free_acc: int = 1, movement: int | None = None):
        self.team, self.q, self.r, self.direction = team, q, r, direction
        self.speed, self.coal, self.passengers, self.free_turns = speed, coal, passengers, free_turns
        self.points, self.stuck, self.free_acc = points, stuck, free_acc
        self.movement = speed if movement is None else movement

    @property
    def position(self) -> tuple[int, int]:
        return self.q, self.r

    def copy(self) -> Ship:
        return Ship(self.team, self.q, self.r, self.direction, self.speed, self.coal, self.passengers,
                    self.free_turns, self.points, self.stuck, self.free_acc, self.movement)

    def key(self) -> tuple:
        return (self.q, self.r, self.direction, self.speed, self.coal, self.passengers, self.free_turns,
                self.points, self.stuck, self.free_acc, self.movement)


class Board:
    """The segments, a field index over them, the passengers still waiting, the current."""

    __slots__ = ("segments", "visible", "next_direction", "following", "fields", "passengers", "current",
                 "docks")

    def __init__(self, segments: list[Segment], visible: int, next_direction: int,
                 passengers: dict[tuple[int, int], int] | None = None, following: int | None = None):
        self.segments = segments
        self.visible = visible
        self.next_direction = next_direction
        self.following = following  # a river cut short: the direction of the segment after the last one
        self.fields: dict[tuple[int, int], tuple[int, int, int]] = {}  # coord -> (segment, column, kind)
        waiting = {}
        self.docks: list[tuple[tuple[int, int], ...]] = []  # per segment, its passenger fields
        for index, segment in enumerate(segments):
            docks = []
            for x, column in enumerate(segment.columns):
                for y, field in enumerate(column):
                    coord = local_to_global(x, y, segment.direction, segment.center)
                    if coord not in self.fields:
                        self.fields[coord] = (index, x, field[0])
                        if field[0] == PASSENGER:
                            waiting[coord] = field[2]
                            docks.append(coord)
            self.docks.append(tuple(docks))
        self.passengers = waiting if passengers is None else passengers
        self.current: frozenset = self._current()

    def copy(self) -> Board:
        board = Board.__new__(Board)
        board.segments, board.visible, board.next_direction = self.segments, self.visible, self.next_direction
        board.following = self.following
        board.fields, board.current, board.passengers = self.fields, self.current, dict(self.passengers)
        board.docks = self.docks
        return board

    def _current(self) -> frozenset:
        """``Board.doesFieldHaveCurrent``: four fields per segment, each counted for the segment
        that holds it (the official lookup asks the coordinate's own segment)."""
        fields = set()
        for index, segment in enumerate(self.segments):
            nxt = self.segments[index + 1].direction if index + 1 < len(self.segments) else self.next_direction
            if index + 1 == len(self.segments) and self.following is not None:
                nxt = self.following
            cq, cr = segment.center
            bq, br = VECTORS[(segment.direction + 3) % 6]
            nq, nr = VECTORS[nxt]
            for coord in ((cq + bq, cr + br), (cq, cr), (cq + nq, cr + nr), (cq + 2 * nq, cr + 2 * nr)):
                found = self.fields.get(coord)
                if found is not None and found[0] == index:
                    fields.add(coord)
        return frozenset(fields)

    def kind(self, coord: tuple[int, int]) -> int | None:
        found = self.fields.get(coord)
        return None if found is None else found[2]

    def segment_index(self, coord: tuple[int, int]) -> int:
        found = self.fields.get(coord)
        return -1 if found is None else found[0]

    def advance_points(self, coord: tuple[int, int]) -> int:
        index, column, _ = self.fields[coord]
        return index * POINTS_PER_SEGMENT + column

    def reveal(self, segment: int) -> None:
        """``revealSegment``: at least ``segment`` segments shown; ``nextDirection`` updated."""
        self.visible = min(max(segment, self.visible), len(self.segments))
        nxt = self.segments[min(self.visible, len(self.segments) - 1)].direction
        if nxt != self.next_direction:
            self.next_direction = nxt
            self.current = self._current()

    def wire_next_direction(self) -> int:
        """What the memento's ``nextDirection`` says (``BoardConverter``)."""
        if self.visible < len(self.segments):
            return self.segments[self.visible].direction
        return self.next_direction if self.following is None else self.following

    def dock(self, coord: tuple[int, int]) -> int:
        index, column, _ = self.fields[coord]
        segment = self.segments[index]
        for x, col in enumerate(segment.columns):
            for y, field in enumerate(col):
                if field[0] == PASSENGER and local_to_global(x, y, segment.direction, segment.center) == coord:
                    return field[1]
        raise KeyError(coord)

    def field_at(self, index: int, x: int, y: int) -> tuple:
        """The field of segment ``index``, column ``x``, row ``y`` with today's passenger count."""
        field = self.segments[index].columns[x][y]
        if field[0] != PASSENGER:
            return field
        segment = self.segments[index]
        coord = local_to_global(x, y, segment.direction, segment.center)
        return (PASSENGER, field[1], self.passengers.get(coord, field[2]))


# -- generation (§2.2) --------------------------------------------------------------------------


def _generate_directions(rng: random.Random) -> list[int]:
    directions = [0, 0]
    for index in range(2, SEGMENTS):
        previous = directions[-1]
        forbidden = (directions[max(index - 3, 0)] + 3) % 6
        choices = [d for d in ((previous - 1) % 6, previous, (previous + 1) % 6) if d != forbidden]
        directions.append(rng.choice(choices))
    return directions


def _dock_direction(rng: random.Random, columns: list[list[tuple]], x: int, y: int) -> int | None:
    """A local dock direction whose neighbour is water (or just behind the back column)."""
    r = y - 2
    q = x - 1 - max(r, 0)
    order = list(range(6))
    rng.shuffle(order)
    for direction in order:
        dq, dr = VECTORS[direction]
        nq, nr = q + dq, r + dr
        ns = -nq - nr
        array_x = max(nq, -ns)
        if array_x == -2 and abs(nr) < 3:
            return direction
        nx, ny = array_x + 1, nr + 2
        if 0 <= nx < WIDTH and 0 <= ny < HEIGHT and columns[nx][ny][0] == WATER:
            return direction
    return None


def _generate_segment(rng: random.Random, direction: int, passenger: bool, goal: bool) -> list[list[tuple]]:
    while True:
        columns = [[(WATER,) for _ in range(HEIGHT)] for _ in range(WIDTH)]
        if goal:
            for y in (1, 2, 3):
                columns[WIDTH - 1][y] = (GOAL,)
        cells = [(x, y) for x in range(WIDTH - 1) for y in range(HEIGHT)]
        chosen = rng.sample(cells, rng.randint(2, 3) + (1 if passenger else 0))
        for x, y in chosen[: len(chosen) - (1 if passenger else 0)]:
            columns[x][y] = (ISLAND,)
        if not passenger:
            return columns
        x, y = chosen[-1]
        dock = _dock_direction(rng, columns, x, y)
        if dock is not None:
            columns[x][y] = (PASSENGER, (dock + direction) % 6, 1)
            return columns


def generate_board(rng: random.Random) -> Board:
    directions = _generate_directions(rng)
    with_passenger = set(rng.sample(range(1, SEGMENTS - 1), 5))
    segments = [Segment(0, (0, 0), [[(WATER,) for _ in range(HEIGHT)] for _ in range(WIDTH)])]
    center = (0, 0)
    for index in range(1, SEGMENTS):
        dq, dr = VECTORS[directions[index]]
        center = (center[0] + 4 * dq, center[1] + 4 * dr)
        columns = _generate_segment(rng, directions[index], index in with_passenger, index == SEGMENTS - 1)
        segments.append(Segment(directions[index], center, columns))
    return Board(segments, 2, segments[-1].direction)


# -- the game -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Decision:
    """A win condition: ``winner`` a seat or None (tie), the reason with ``%s``/``%S`` for the
    name of ``named`` (a seat), and whether the official server calls the end regular."""

    winner: int | None
    reason: str
    named: int | None
    regular: bool = True


class Position:
    """A game state: board, two ships, turn, the team to move, the last move."""

    __slots__ = ("board", "ships", "turn", "current", "last_move")

    def __init__(self, board: Board, ships: list[Ship], turn: int = 0, current: int = 0,
                 last_move: Move | None = None):
        self.board = board
        self.ships = ships
        self.turn = turn
        self.current = current
        self.last_move = last_move

    @classmethod
    def start(cls, rng: random.Random) -> Position:
        """A fresh game: ONE at (-1,-1,2), TWO at (-2,1,1), both RIGHT, speed 1, coal 6 (§2.2)."""
        return cls(generate_board(rng), [Ship(0, -1, -1), Ship(1, -2, 1)])

    def copy(self) -> Position:
        return Position(self.board.copy(), [s.copy() for s in self.ships], self.turn, self.current, self.last_move)

    # -- facts ------------------------------------------------------------------------------------

    def effective_speed(self, ship: Ship) -> int:
        return ship.speed - 1 if ship.position in self.board.current else ship.speed

    def in_goal(self, ship: Ship) -> bool:
        return ship.passengers > 1 and self.effective_speed(ship) < 2 and self.board.kind(ship.position) == GOAL

    def segment_distance(self) -> int:
        one, two = self.ships
        return self.board.segment_index(one.position) - self.board.segment_index(two.position)

    def is_over(self) -> bool:
        """``isOver`` (§5): goal at a round's end, segment distance, round limit, a stuck ship."""
        if self.turn % 2 == 0 and any(self.in_goal(s) for s in self.ships):
            return True
        if abs(self.segment_distance()) > 3:
            return True
        if self.turn // 2 >= ROUND_LIMIT:
            return True
        return any(s.stuck for s in self.ships)

    def decision(self) -> Decision | None:
        return self.winner() if self.is_over() else None

    def winner(self) -> Decision:
        """``winCondition`` else ``currentWinner`` (§5): also what a cancelled game is scored by."""
        in_goal = [s for s in self.ships if self.in_goal(s)]
        if len(in_goal) == 1:
            return Decision(in_goal[0].team, GOAL_REASON, in_goal[0].team)
        stuck = [s for s in self.ships if s.stuck]
        if len(stuck) == 1:
            return Decision(1 - stuck[0].team, STUCK_REASON, stuck[0].team, regular=False)
        distance = self.segment_distance()
        if abs(distance) > 3:
            ahead = 0 if distance > 0 else 1
            return Decision(ahead, DISTANCE_REASON, ahead)
        one, two = (self.score(0), self.score(1))
        if one[0] != two[0]:
            best = 0 if one[0] > two[0] else 1
            return Decision(best, POINTS_REASON, best)
        if one[1] != two[1]:
            best = 0 if one[1] > two[1] else 1
            return Decision(best, PASSENGERS_REASON, best)
        return Decision(None, TIE, None)

    def score(self, seat: int) -> tuple[int, int]:
        """``getPointsForTeam``: (points, passengers); a stuck ship scores (0, 0)."""
        ship = self.ships[seat]
        return (0, 0) if ship.stuck else (ship.points, ship.passengers)

    # -- applying a move (§4.2-§4.7) ------------------------------------------------------------

    def push(self, move: Move) -> None:
        """Validate and perform ``move`` for the team to move; RuleViolation otherwise (the state
        is then partly changed, as the official server leaves it: the game ends there)."""
        if not move:
            raise RuleViolation("NO_ACTIONS", None)
        merged: list[Action] = []
        for action in move:
            if action[0] == ADVANCE and merged and merged[-1][0] == ADVANCE:
                merged[-1] = (ADVANCE, merged[-1][1] + action[1])
            else:
                merged.append(action)
        ship, other = self.ships[self.current], self.ships[1 - self.current]
        board = self.board
        for index, action in enumerate(merged):
            if board.kind(ship.position) == SANDBANK and index != 0:
                raise RuleViolation("SAND_BANK_END", move)
            if ship.position == other.position and action[0] != PUSH:
                raise RuleViolation("PUSH_ACTION_REQUIRED", move)
            if action[0] == ACCELERATE and index != 0:
                raise RuleViolation("FIRST_ACTION_ACCELERATE", move)
            problem = self._perform(ship, other, action)
            if problem is not None:
                raise RuleViolation(problem, move)
        if ship.movement > 0:
            raise RuleViolation("MOVEMENT_POINTS_LEFT", move)
        if ship.movement < 0:
            raise RuleViolation("MOVEMENT_POINTS_MISSING", move)
        if self.effective_speed(ship) < 2:
            self._pickup(ship)
        ship.points = self._points(ship)
        if any(action[0] == PUSH for action in merged):
            if other.speed == 1:
                self._pickup(other)
            other.points = self._points(other)
        self.last_move = move
        board.reveal(board.segment_index(ship.position) + 2)
        self._advance_turn()

    def _points(self, ship: Ship) -> int:
        return self.board.advance_points(ship.position) + ship.passengers * POINTS_PER_PASSENGER

    def _pickup(self, ship: Ship) -> None:
        passengers = self.board.passengers
        for direction, (dq, dr) in enumerate(VECTORS):
            coord = (ship.q + dq, ship.r + dr)
            if passengers.get(coord, 0) > 0 and self.board.dock(coord) == (direction + 3) % 6:
                passengers[coord] -= 1
                ship.passengers += 1
                return

    def _advance_turn(self) -> None:
        while True:
            ship = self.ships[self.current]
            ship.free_acc, ship.free_turns, ship.movement = 1, 1, ship.speed
            self.turn += 1
            self.current = self._ahead_team() if self.turn % 2 == 0 else 1 - self.current
            if self.is_over() or self.can_move():
                return
            self.last_move = None
            self.ships[self.current].stuck = True

    def _ahead_team(self) -> int:
        values = [self.board.advance_points(s.position) * 100 + s.speed * 10 + s.coal for s in self.ships]
        return 1 if values[1] > values[0] else 0

    def _perform(self, ship: Ship, other: Ship, action: Action) -> str | None:
        kind, value = action
        board = self.board
        on_sandbank = board.kind(ship.position) == SANDBANK
        if kind == ACCELERATE:
            if value == 0:
                return "ZERO_ACC"
            if ship.speed + value > MAX_SPEED:
                return "ABOVE_MAX_SPEED"
            if ship.speed + value < MIN_SPEED:
                return "BELOW_MIN_SPEED"
            if on_sandbank:
                return "ON_SANDBANK"
            _accelerate(ship, value)
            return "INSUFFICIENT_COAL" if ship.coal < 0 else None
        if kind == TURN:
            steps = abs(turn_count(ship.direction, value))
            cost = steps - ship.free_turns
            ship.free_turns = max(ship.free_turns - steps, 0)
            if on_sandbank:
                return "ROTATION_ON_SANDBANK_NOT_ALLOWED"
            if ship.coal < cost:
                return "NOT_ENOUGH_COAL_FOR_ROTATION"
            if cost > 0:
                ship.coal -= cost
            ship.direction = value
            return None
        if kind == ADVANCE:
            if (value < MIN_SPEED and not on_sandbank) or value > MAX_SPEED:
                return "INVALID_DISTANCE"
            if value > ship.movement:
                return "MOVEMENT_POINTS_MISSING"
            direction = ship.direction if value > 0 else (ship.direction + 3) % 6
            costs, problem = self.advance_limit(ship.position, direction, ship.movement, other.position)
            if len(costs) < abs(value):
                return problem
            if value < 1:  # costUntil(0 or negative): the official array index is -1 or -2
                raise RuleCrash(f"advance {value} from a sandbank: ArrayIndexOutOfBoundsException")
            dq, dr = VECTORS[ship.direction]
            ship.q, ship.r = ship.q + dq * value, ship.r + dr * value
            ship.movement -= costs[value - 1]
            return None
        # push (§4.6)
        if ship.movement == 0:
            return "MOVEMENT_POINTS_MISSING"
        ship.movement -= 1
        dq, dr = VECTORS[value]
        target = (ship.q + dq, ship.r + dr)
        target_kind = board.kind(target)
        if target_kind is None:
            return "INVALID_FIELD_PUSH"
        if not PASSABLE[target_kind]:
            return "BLOCKED_FIELD_PUSH"
        if other.position != ship.position:
            return "SAME_FIELD_PUSH"
        if on_sandbank:
            return "SANDBANK_PUSH"
        if value == (ship.direction + 3) % 6:
            return "BACKWARD_PUSHING_RESTRICTED"
        other.q, other.r = target
        if target_kind == SANDBANK:
            other.speed, other.movement = 1, 1
        other.free_turns += 1
        return None

    def advance_limit(self, start: tuple[int, int], direction: int, budget: int,
                      other: tuple[int, int]) -> tuple[list[int], str]:
        """``checkAdvanceLimit``: the cost of each reachable distance and why not farther."""
        budget = min(max(budget, 0), MAX_SPEED)
        fields, current = self.board.fields, self.board.current
        dq, dr = VECTORS[direction]
        q, r = start
        costs: list[int] = []
        total = 0
        has_current = False
        while total < budget:
            q, r = q + dq, r + dr
            found = fields.get((q, r))
            total += 1
            if found is None or not PASSABLE[found[2]]:
                return costs, "FIELD_IS_BLOCKED"
            if not has_current and (q, r) in current:
                has_current = True
                if total < budget:
                    total += 1
                else:
                    break
            if (q, r) == other:
                if total < budget:
                    costs.append(total)
                    return costs, "SHIP_ALREADY_IN_TARGET"
                return costs, "INSUFFICIENT_PUSH"
            if found[2] == SANDBANK:
                return costs, "MOVE_END_ON_SANDBANK"
            costs.append(total)
        return costs, "MOVEMENT_POINTS_MISSING"

    # -- the official move iterator (§4.7) ------------------------------------------------------

    def _moves(self):
        """Every canonical move in the order of the official ``moveIterator`` (its queue).

        A queue entry is the mover's (q, r, direction, speed, coal, free turns, free acc,
        movement), the other ship's position, and the actions so far."""
        ship, other = self.ships[self.current], self.ships[1 - self.current]
        kind_of = self.board.kind
        queue = deque()
        queue.append(((ship.q, ship.r), ship.direction, ship.speed, ship.coal, ship.free_turns, ship.free_acc,
                      ship.movement, other.position, ()))
        while queue:
            entry = queue.popleft()
            pos, direction, speed, coal, free_turns, free_acc, movement, other_pos, move = entry
            last = move[-1][0] if move else None
            must_push = pos == other_pos
            on_sandbank = kind_of(pos) == SANDBANK
            if last != ADVANCE and movement >= 1 and not must_push and not on_sandbank:
                costs, _ = self.advance_limit(pos, direction, movement, other_pos)
                dq, dr = VECTORS[direction]
                for distance in range(len(costs), 0, -1):
                    target = (pos[0] + dq * distance, pos[1] + dr * distance)
                    left = movement - costs[distance - 1]
                    advanced = move + ((ADVANCE, distance),)
                    pushes = self._pushes(target, direction) if target == other_pos and left >= 1 else ()
                    if pushes:
                        for push in pushes:
                            pq, pr = VECTORS[push]
                            queue.append((target, direction, speed, coal, free_turns, free_acc, left - 1,
                                          (target[0] + pq, target[1] + pr), advanced + ((PUSH, push),)))
                    else:
                        queue.append((target, direction, speed, coal, free_turns, free_acc, left, other_pos, advanced))
            if last != TURN and not must_push and not on_sandbank:
                turns = min(coal + free_turns, 3)
                offered = []
                for steps in range(1, turns + 1):
                    offered.append((direction + steps) % 6)
                    offered.append((direction - steps) % 6)
                for target in offered[:5]:
                    steps = abs(turn_count(direction, target))
                    cost = steps - free_turns
                    queue.append((pos, target, speed, coal - cost if cost > 0 else coal, max(free_turns - steps, 0),
                                  free_acc, movement, other_pos, move + ((TURN, target),)))
            if not move and not must_push:
                for step in range(1, coal + free_acc + 1):
                    for acc in (step, -step):
                        if MIN_SPEED <= speed + acc <= MAX_SPEED:
                            cost = step - free_acc
                            queue.append((pos, direction, speed + acc, coal - cost if cost > 0 else coal,
                                          free_turns, 0 if cost > 0 else -cost, movement + acc, other_pos,
                                          ((ACCELERATE, acc),)))
            if movement == 0 and move:
                yield move

    def _pushes(self, position: tuple[int, int], incoming: int) -> list[int]:
        back = (incoming + 3) % 6
        kind_of = self.board.kind
        result = []
        for direction, (dq, dr) in enumerate(VECTORS):
            if direction == back:
                continue
            kind = kind_of((position[0] + dq, position[1] + dr))
            if kind is not None and PASSABLE[kind]:
                result.append(direction)
        return result

    def legal_moves(self, limit: int | None = None) -> list[Move]:
        """The official iterator's moves for the team to move (none when it is stuck or the game
        is over); at most ``limit``."""
        if self.ships[self.current].stuck:
            return []
        moves = []
        for move in self._moves():
            moves.append(move)
            if limit is not None and len(moves) >= limit:
                break
        return moves

    def can_move(self) -> bool:
        """``canMove``: not stuck and the iterator has a move."""
        if self.ships[self.current].stuck:
            return False
        return next(self._moves(), None) is not None


def _accelerate(ship: Ship, acc: int) -> None:
    cost = abs(acc) - ship.free_acc
    if cost > 0:
        ship.coal -= cost
        ship.free_acc = 0
    else:
        ship.free_acc = -cost
    ship.speed += acc
    ship.movement += acc
