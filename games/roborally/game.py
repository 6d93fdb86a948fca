"""Robo Rally rules, pure and seeded: one :class:`Game` per running game (spec roborally.md §5).

The game runs as one generator. It emits events (:mod:`.events`) into :attr:`Game.outbox` and
stops at every point where it needs a player or a clock, exposing a :class:`Wait` (a start
point, the programming phase, a ``PlayCard``, a ``SelectedDamage``, the ``RebootDirection`` grace). The
room that owns the game delivers client messages through the ``on_*`` methods and calls
:meth:`Game.timeout` when the wait's time has run out; the rules never read a clock, so timers
are whatever the room makes them (seconds on the course server, milliseconds in tests).

The rules know no protocol: :mod:`.wire` maps the events onto the messages of the course
protocol and their recipients (tests/packaging/test_layers.py keeps it so). Error texts are the spec's
(§7.3), with a sent value shown as :func:`sent` renders it.

Conformance notes (choices of the spec, §9.2, as implemented):

* A robot that falls is taken off the board at once; its ``Reboot``, cancelled registers and 2
  ``Spam`` follow as soon as the step in which it fell is over, then its placement (the
  ``Reboot`` of robots falling in one push chain follows the chain's ``Movement`` messages).
* ``Again`` after a damage card draws; after ``Again`` it repeats what the previous register
  finally executed; in register 1 it does nothing.
* The ``Again`` that drew a card is kept aside until the end of the round, then discarded.
* ``Virus`` hits every other robot within 6 squares (Manhattan, walls ignored), in priority order.
* Rebooted robots do not fire; they are moved, pushed and shot.
* Every fall asks for a new ``RebootDirection``: an answer to an earlier fall in the same round
  does not count for the round-end grace of a later one.
* Removed players' cards leave the game (damage cards do not return to the piles).
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass, field
from typing import Any, Iterator

from . import events as ev
from .board import CLOCKWISE, COUNTERCLOCKWISE, DELTA, DIRS, OPPOSITE, Board
from .cards import (
    CARD_NAMES, DAMAGE, DAMAGE_PILES, EMPTY_CARD, HAND_SIZE, MOVES, PICKABLE, PROGRAMMING, REGISTERS, START_ENERGY,
    canonical, new_deck,
)


def sent(value: Any) -> str:
    """A value a player sent, inside an error text: strings as sent, other JSON values compact
    (spec §7.3; the lobby's texts use the codec's ``show``, which renders alike)."""
    return value if isinstance(value, str) else json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@dataclass
class Robot:
    pid: int
    x: int | None = None
    y: int | None = None
    facing: str = "right"
    energy: int = START_ENERGY
    checkpoints: int = 0
    start: tuple[int, int] | None = None
    draw: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    hand: list[str] = field(default_factory=list)
    registers: list[str | None] = field(default_factory=lambda: [None] * REGISTERS)
    programmed: list[str | None] = field(default_factory=lambda: [None] * REGISTERS)
    executed: list[str | None] = field(default_factory=lambda: [None] * REGISTERS)
    aside: list[str] = field(default_factory=list)
    finished: bool = False
    rebooted: bool = False
    auto: bool = False
    removed: bool = False
    reboot_direction: str | None = None
    fell_from: tuple[int, int] | None = None
    falls: int = 0
    reboots: int = 0

    @property
    def on_board(self) -> bool:
        return self.x is not None

    @property
    def pos(self) -> tuple[int, int] | None:
        return None if self.x is None else (self.x, self.y)  # type: ignore[return-value]

    def cards(self) -> list[str]:
        """Every card this player owns right now (for the accounting invariant)."""
        return self.draw + self.discard + self.hand + [c for c in self.registers if c] + self.aside


@dataclass
class Wait:
    """Where the game stands still until a player answers or the room's clock runs out."""

    kind: str  # "start", "programming", "play_card", "damage", "reboot_grace"
    pid: int | None = None
    pids: tuple[int, ...] = ()
    timer_started: bool = False


class Game:
    def __init__(self, board: Board, player_ids: list[int], rng: random.Random | None = None) -> None:
        self.board = board
        self.rng = rng or random.Random()
        self.order = sorted(player_ids)
        self.robots: dict[int, Robot] = {}
        for pid in self.order:
            robot = Robot(pid=pid, facing=board.antenna[2], draw=new_deck())
            self.rng.shuffle(robot.draw)
            self.robots[pid] = robot
        self.piles = dict(DAMAGE_PILES)
        self.cubes = {pos: sq.energy for pos, sq in board.squares.items() if sq.has_energy_space}
        self.outbox: list[ev.Event] = []
        self.phase = 0
        self.round = 0
        self.register = 0
        self.current: int | None = None
        self.winner: int | None = None
        self.over = False
        self.wait: Wait | None = None
        self.timer_ended = False
        self._pending_damage: tuple[Robot, int, list[str]] | None = None
        self._fallen: list[Robot] = []
        self._priority: list[int] = []
        self._gen: Iterator[Wait] | None = None

    # ------------------------------------------------------------------ driving

    def start(self) -> None:
        """Emit the setup phase's first messages and run to the first wait."""
        self._gen = self._run()
        self._advance(None)

    def _advance(self, value: Any) -> None:
        assert self._gen is not None
        try:
            self.wait = self._gen.send(value)
        except StopIteration:
            self.wait = None
            self.over = True

    def emit(self, event: ev.Event) -> None:
        self.outbox.append(event)

    def take_outbox(self) -> list[ev.Event]:
        out, self.outbox = self.outbox, []
        return out

    def active_players(self) -> list[int]:
        return [pid for pid in self.order if not self.robots[pid].removed]

    def _finish(self, winner: int) -> None:
        self.winner = winner
        self.over = True
        self.emit(ev.GameWon(winner))

    # ------------------------------------------------------------------ the game as a generator

    def _run(self) -> Iterator[Wait]:
        self.phase = 0
        self.emit(ev.PhaseStarted(0))
        for pid in self.order:
            robot = self.robots[pid]
            if robot.removed:
                continue
            self.current = pid
            self.emit(ev.PlayerToAct(pid))
            yield Wait("start", pid)
            if self.over:
                return
        while not self.over:
            self.round += 1
            yield from self._programming()
            if self.over:
                return
            yield from self._activation()
            if self.over:
                return
            yield from self._end_of_round()

    # ------------------------------------------------------------------ setup (§5.1)

    def on_set_starting_point(self, pid: int, x: int, y: int) -> str | None:
        """``SetStartingPoint`` with valid fields; returns an error text or None."""
        return self.check_setup_turn(pid) or self._take_start(pid, x, y)

    def check_setup_turn(self, pid: int) -> str | None:
        if self.over:
            return "Game is over"
        if self.phase != 0 or self.wait is None or self.wait.kind != "start":
            return "Not in the setup phase"
        if self.wait.pid != pid:
            return "Not your turn"
        return None

    def _take_start(self, pid: int, x: int, y: int) -> str | None:
        if (x, y) not in self.board.start_points:
            return f"Not a start point: ({x}, {y})"
        if self._robot_at(x, y) is not None:
            return f"Start point already taken: ({x}, {y})"
        robot = self.robots[pid]
        robot.x, robot.y, robot.start = x, y, (x, y)
        robot.facing = self.board.antenna[2]
        self.emit(ev.StartPointTaken(pid, x, y))
        self._advance(None)
        return None

    # ------------------------------------------------------------------ programming (§5.3)

    def _draw(self, robot: Robot) -> str | None:
        if not robot.draw:
            if not robot.discard:
                return None
            robot.draw, robot.discard = robot.discard, []
            self.rng.shuffle(robot.draw)
            self.emit(ev.DeckShuffled(robot.pid))
        return robot.draw.pop()

    def _programming(self) -> Iterator[Wait]:
        self.phase = 2
        self.timer_ended = False
        self.emit(ev.PhaseStarted(2))
        for pid in self.active_players():
            robot = self.robots[pid]
            robot.finished = False
            hand = []
            for _ in range(HAND_SIZE):
                card = self._draw(robot)
                if card is not None:
                    hand.append(card)
            robot.hand = hand
            self.emit(ev.HandDealt(pid, tuple(hand)))
        yield Wait("programming")

    def programming_error(self, pid: int) -> str | None:
        if self.over:
            return "Game is over"
        if self.phase != 2 or self.timer_ended:
            return "Not in the programming phase"
        if self.robots[pid].finished:
            return "Selection already finished"
        return None

    def on_selected_card(self, pid: int, card: Any, register: Any) -> str | None:
        """``SelectedCard`` (its body fields as sent); returns an error text or None."""
        error = self.programming_error(pid)
        if error:
            return error
        if isinstance(register, float) and register.is_integer():
            register = int(register)
        if isinstance(register, bool) or not isinstance(register, int) or not 1 <= register <= REGISTERS:
            return f"Invalid register: {sent(register)}"
        if card not in EMPTY_CARD and not (isinstance(card, str) and canonical(card) in CARD_NAMES):
            return f"Unknown card: {sent(card)}"
        robot = self.robots[pid]
        index = register - 1
        if card in EMPTY_CARD:
            old = robot.registers[index]
            if old is not None:
                robot.hand.append(old)
                robot.registers[index] = None
            self.emit(ev.RegisterChanged(pid, register, False))
            return None
        card = canonical(card)
        if card != robot.registers[index] and card not in robot.hand:
            return f"Card not in hand: {card}"
        if card == "Again" and register == 1:
            return "Again cannot be placed in register 1"
        if card != robot.registers[index]:
            robot.hand.remove(card)
            if robot.registers[index] is not None:
                robot.hand.append(robot.registers[index])  # type: ignore[arg-type]
            robot.registers[index] = card
        self.emit(ev.RegisterChanged(pid, register, True))
        if all(robot.registers):
            self._selection_finished(robot)
        return None

    def _selection_finished(self, robot: Robot) -> None:
        robot.finished = True
        self.emit(ev.SelectionDone(robot.pid))
        robot.discard.extend(robot.hand)
        robot.hand = []
        assert self.wait is not None
        if not self.wait.timer_started:
            self.wait.timer_started = True
            self.emit(ev.TimerRunning())
        self._check_all_finished()

    def _check_all_finished(self) -> None:
        if self.wait is None or self.wait.kind != "programming" or self.timer_ended:
            return
        if all(self.robots[pid].finished for pid in self.active_players()):
            self.timer_ended = True
            self.emit(ev.TimerOver(()))
            self._continue_after_timer()

    def _timer_end(self) -> None:
        self.timer_ended = True
        slow = [pid for pid in self.active_players() if not self.robots[pid].finished]
        self.emit(ev.TimerOver(tuple(slow)))
        for pid in slow:
            robot = self.robots[pid]
            robot.discard.extend(robot.hand)
            robot.hand = []
            got = []
            for index in range(REGISTERS):
                if robot.registers[index] is None:
                    card = self._draw(robot)
                    if card is not None:
                        robot.registers[index] = card
                        got.append(card)
            robot.finished = True
            self.emit(ev.RegistersFilled(pid, tuple(got)))
        self._continue_after_timer()

    def _continue_after_timer(self) -> None:
        self._advance(None)

    # ------------------------------------------------------------------ activation (§5.4)

    def priority_order(self) -> list[int]:
        ax, ay, facing = self.board.antenna

        def key(pid: int) -> tuple[int, float]:
            robot = self.robots[pid]
            dx, dy = robot.x - ax, robot.y - ay  # type: ignore[operator]
            u, v = {"right": (dx, dy), "bottom": (dy, -dx), "left": (-dx, -dy), "top": (-dy, dx)}[facing]
            return abs(dx) + abs(dy), math.degrees(math.atan2(v, u)) % 360.0

        return sorted((pid for pid in self.active_players() if self.robots[pid].on_board), key=key)

    def _activation(self) -> Iterator[Wait]:
        self.phase = 3
        self.emit(ev.PhaseStarted(3))
        for robot in self.robots.values():
            robot.programmed = list(robot.registers)
            robot.executed = [None] * REGISTERS
        for register in range(1, REGISTERS + 1):
            self.register = register
            self._priority = self.priority_order()
            active = [pid for pid in self._priority if not self.robots[pid].rebooted]
            self.emit(ev.RegisterRevealed(tuple((pid, self.robots[pid].registers[register - 1]) for pid in active)))
            for pid in active:
                robot = self.robots[pid]
                if robot.rebooted or robot.removed:
                    continue
                self.current = pid
                self.emit(ev.PlayerToAct(pid))
                played = False
                if not robot.auto:
                    played = yield Wait("play_card", pid)
                    if robot.removed:
                        continue
                    if not played:
                        robot.auto = True
                card = robot.registers[register - 1]
                if card is None:
                    continue
                self.emit(ev.CardPlayed(pid, card, bool(played)))
                yield from self._execute(robot, register, card)
                if self.over:
                    return
            self.current = None
            yield from self._board_elements(register)
            if self.over:
                return

    def play_card_error(self, pid: int) -> str | None:
        if self.over:
            return "Game is over"
        if self.phase != 3:
            return "Not in the activation phase"
        if self.robots[pid].auto:
            return ""  # ignored without an answer (§5.4.3)
        if self.wait is None or self.wait.kind != "play_card" or self.wait.pid != pid:
            return "Not your turn"
        return None

    def on_play_card(self, pid: int, card: str) -> str | None:
        """A ``PlayCard`` that :meth:`play_card_error` accepted; returns an extra error text or None."""
        register = self.register
        held = self.robots[pid].registers[register - 1]
        error = None
        if canonical(card) != held:
            error = f"Register {register} holds {held}"
        self._advance(True)
        return error

    # ------------------------------------------------------------------ card effects (§5.5)

    def _execute(self, robot: Robot, register: int, card: str) -> Iterator[Wait]:
        index = register - 1
        falls = robot.falls
        if card in MOVES:
            robot.executed[index] = card
            for _ in range(MOVES[card]):
                if robot.falls != falls or not robot.on_board:
                    break
                self._step(robot, robot.facing)
                yield from self._after_step()
        elif card == "BackUp":
            robot.executed[index] = card
            self._step(robot, OPPOSITE[robot.facing])
            yield from self._after_step()
        elif card in ("TurnLeft", "TurnRight", "UTurn"):
            robot.executed[index] = card
            if card == "TurnLeft":
                self._turn(robot, "counterclockwise")
            else:
                self._turn(robot, "clockwise")
                if card == "UTurn":
                    self._turn(robot, "clockwise")
        elif card == "PowerUp":
            robot.executed[index] = card
            robot.energy += 1
            self.emit(ev.EnergyGained(robot.pid, robot.energy, "PowerUpCard"))
        elif card == "Again":
            if register == 1:
                return
            previous = robot.programmed[index - 1]
            if previous == "Again":
                previous = robot.executed[index - 1]
            if previous is None:
                return
            if previous in DAMAGE:
                robot.aside.append("Again")
                robot.registers[index] = None
                yield from self._replace_and_run(robot, register)
            else:
                yield from self._execute(robot, register, previous)
        elif card in DAMAGE:
            self.piles[card] += 1
            robot.registers[index] = None
            if card == "Worm":
                if robot.on_board:
                    self._leave(robot)
                    yield from self._after_step()
                return
            if card == "Trojan":
                yield from self._damage(robot, 2)
                if robot.removed:
                    return
            elif card == "Virus":
                here = robot.pos
                if here is not None:
                    for pid in self._priority:
                        other = self.robots[pid]
                        if other is robot or not other.on_board or other.removed:
                            continue
                        if abs(other.x - here[0]) + abs(other.y - here[1]) <= 6:  # type: ignore[operator]
                            yield from self._damage(other, 1)
            yield from self._replace_and_run(robot, register)

    def _replace_and_run(self, robot: Robot, register: int) -> Iterator[Wait]:
        drawn = self._draw(robot)
        if drawn is None:
            return
        robot.registers[register - 1] = drawn
        self.emit(ev.CardReplaced(robot.pid, register, drawn))
        yield from self._execute(robot, register, drawn)

    def _turn(self, robot: Robot, rotation: str) -> None:
        robot.facing = (CLOCKWISE if rotation == "clockwise" else COUNTERCLOCKWISE)[robot.facing]
        self.emit(ev.Turned(robot.pid, rotation))

    # ------------------------------------------------------------------ movement (§5.6)

    def _robot_at(self, x: int, y: int) -> Robot | None:
        for robot in self.robots.values():
            if robot.x == x and robot.y == y and not robot.removed:
                return robot
        return None

    def _step(self, robot: Robot, direction: str) -> bool:
        """One step with pushing; True if the robot moved (or left the board)."""
        x, y = robot.x, robot.y
        if x is None:
            return False
        if self.board.wall_blocks(x, y, direction):  # type: ignore[arg-type]
            return False
        dx, dy = DELTA[direction]
        tx, ty = x + dx, y + dy  # type: ignore[operator]
        square = self.board.square(tx, ty)
        if square is not None and square.antenna:
            return False
        if square is None:
            self._leave(robot)
            return True
        other = self._robot_at(tx, ty)
        if other is not None and not self._step(other, direction):
            return False
        self._move_to(robot, tx, ty)
        return True

    def _move_to(self, robot: Robot, x: int, y: int) -> None:
        robot.x, robot.y = x, y
        self.emit(ev.Moved(robot.pid, x, y))
        square = self.board.square(x, y)
        if square is not None and square.pit:
            self._leave(robot)

    def _leave(self, robot: Robot) -> None:
        """The robot falls (pit, board edge, Worm): off the board until its reboot."""
        robot.fell_from = robot.pos
        robot.x = robot.y = None
        robot.falls += 1
        self._fallen.append(robot)

    def _after_step(self) -> Iterator[Wait]:
        """Reboot every robot that fell in the step just over (§5.8)."""
        while self._fallen:
            fallen, self._fallen = self._fallen, []
            for robot in fallen:
                if robot.removed:
                    continue
                robot.reboots += 1
                self.emit(ev.Rebooting(robot.pid))
                robot.rebooted = True
                robot.reboot_direction = None  # every fall asks for a direction of its own
                for index in range(self.register, REGISTERS):
                    card = robot.registers[index]
                    if card is not None and self.phase == 3:
                        robot.discard.append(card)
                        robot.registers[index] = None
                yield from self._damage(robot, 2)
            for robot in fallen:
                if not robot.removed:
                    self._place(robot)

    def _place(self, robot: Robot) -> None:
        board = self.board
        origin = robot.fell_from
        origin_square = board.square(*origin) if origin else None
        start_free = [p for p in board.start_points if self._robot_at(*p) is None]
        if (origin_square is not None and origin_square.board == "Start A") or board.restart is None:
            target = robot.start if robot.start and self._robot_at(*robot.start) is None else (start_free[0] if start_free else None)
        else:
            rx, ry, push = board.restart
            target = (rx, ry)
            occupant = self._robot_at(rx, ry)
            if occupant is not None:
                if not self._step(occupant, push) or self._robot_at(rx, ry) is not None:
                    target = start_free[0] if start_free else None
        if target is None:
            return
        robot.x, robot.y = target
        robot.facing = "top"
        self.emit(ev.Moved(robot.pid, target[0], target[1]))
        if robot.reboot_direction:
            self._turn_to(robot, robot.reboot_direction)

    def _turn_to(self, robot: Robot, direction: str) -> None:
        turns = (DIRS.index(direction) - DIRS.index(robot.facing)) % 4
        if turns == 1:
            self._turn(robot, "clockwise")
        elif turns == 2:
            self._turn(robot, "clockwise")
            self._turn(robot, "clockwise")
        elif turns == 3:
            self._turn(robot, "counterclockwise")

    def on_reboot_direction(self, pid: int, direction: Any) -> str | None:
        if self.over:
            return "Game is over"
        robot = self.robots[pid]
        if not robot.rebooted:
            return "No reboot pending"
        if direction not in DIRS:
            return f"Invalid direction: {sent(direction)}"
        robot.reboot_direction = direction
        if robot.on_board:
            self._turn_to(robot, direction)
        if self.wait is not None and self.wait.kind == "reboot_grace" and self._grace_done():
            self._advance(None)
        return None

    # ------------------------------------------------------------------ damage (§5.9)

    def _damage(self, robot: Robot, n: int) -> Iterator[Wait]:
        k = min(n, self.piles["Spam"])
        self.piles["Spam"] -= k
        cards = ["Spam"] * k
        robot.discard.extend(cards)
        missing = min(n - k, sum(self.piles[p] for p in PICKABLE))
        if missing > 0:
            piles = [p for p in PICKABLE if self.piles[p] > 0]
            self.emit(ev.DamageToPick(robot.pid, missing, tuple(piles)))
            self._pending_damage = (robot, missing, piles)
            choice = yield Wait("damage", robot.pid)
            self._pending_damage = None
            if robot.removed:
                return
            if choice is None:
                choice = []
                for pile in PICKABLE:
                    take = min(self.piles[pile], missing - len(choice))
                    choice += [pile] * take
            for pile in choice:
                self.piles[pile] -= 1
            robot.discard.extend(choice)
            cards += choice
        if not cards:
            return
        self.emit(ev.DamageTaken(robot.pid, tuple(cards)))

    def damage_pending_for(self, pid: int) -> bool:
        """Whether ``pid`` was sent a ``PickDamage`` that is still unanswered."""
        return self._pending_damage is not None and self._pending_damage[0].pid == pid

    def on_selected_damage(self, pid: int, cards: list[str]) -> str | None:
        if self.over:
            return "Game is over"
        pending = self._pending_damage
        if pending is None or pending[0].pid != pid or self.wait is None or self.wait.kind != "damage":
            return "No damage selection pending"
        _, missing, piles = pending
        if len(cards) != missing or any(c not in piles for c in cards) or any(cards.count(p) > self.piles[p] for p in piles):
            return "Invalid damage selection"
        self._advance(list(cards))
        return None

    # ------------------------------------------------------------------ board elements (§5.7)

    def _board_elements(self, register: int) -> Iterator[Wait]:
        board = self.board
        squares = board.squares.values()
        order = [pid for pid in self._priority if not self.robots[pid].removed]
        if any(s.belt and s.belt[0] == 2 for s in squares):
            self.emit(ev.BoardElementsActive("BlueConveyorBelt"))
            for _ in range(2):
                self._belt_move(2, order)
                yield from self._after_step()
        if any(s.belt and s.belt[0] == 1 for s in squares):
            self.emit(ev.BoardElementsActive("GreenConveyorBelt"))
            self._belt_move(1, order)
            yield from self._after_step()
        if any(s.push and register in s.push[1] for s in squares):
            self.emit(ev.BoardElementsActive("PushPanel"))
            pushed = [self.robots[pid] for pid in order if self._on(pid, lambda s: s.push and register in s.push[1])]
            for robot in pushed:
                square = board.square(*robot.pos) if robot.on_board else None
                if square is None or not square.push or register not in square.push[1]:
                    continue
                self._step(robot, square.push[0])
                yield from self._after_step()
        if any(s.gear for s in squares):
            self.emit(ev.BoardElementsActive("Gear"))
            for pid in order:
                robot = self.robots[pid]
                square = board.square(*robot.pos) if robot.on_board else None
                if square is not None and square.gear:
                    self._turn(robot, square.gear)
        if any(s.laser for s in squares):
            self.emit(ev.BoardElementsActive("WallShooting"))
            hits: dict[int, int] = {}
            for (x, y), square in board.squares.items():
                if square.laser:
                    target = self._trace(x, y, square.laser[0], include_start=True)
                    if target is not None:
                        hits[target.pid] = hits.get(target.pid, 0) + square.laser[1]
            yield from self._deal_hits(hits, order)
        self.emit(ev.BoardElementsActive("PlayerShooting"))
        hits = {}
        for pid in order:
            robot = self.robots[pid]
            if robot.on_board and not robot.rebooted:
                target = self._trace(robot.x, robot.y, robot.facing, include_start=False)  # type: ignore[arg-type]
                if target is not None:
                    hits[target.pid] = hits.get(target.pid, 0) + 1
        yield from self._deal_hits(hits, order)
        if any(s.has_energy_space for s in squares):
            self.emit(ev.BoardElementsActive("EnergySpace"))
            for pid in order:
                robot = self.robots[pid]
                if not robot.on_board or robot.pos not in self.cubes:
                    continue
                if self.cubes[robot.pos] > 0:  # type: ignore[index]
                    self.cubes[robot.pos] -= 1  # type: ignore[index]
                elif register != REGISTERS:
                    continue
                robot.energy += 1
                self.emit(ev.EnergyGained(pid, robot.energy, "EnergySpace"))
        if board.checkpoints:
            self.emit(ev.BoardElementsActive("CheckPoint"))
            for pid in order:
                robot = self.robots[pid]
                square = board.square(*robot.pos) if robot.on_board else None
                if square is not None and square.checkpoint == robot.checkpoints + 1:
                    robot.checkpoints += 1
                    self.emit(ev.CheckpointReached(pid, robot.checkpoints))
                    if robot.checkpoints == board.checkpoint_count:
                        self._finish(pid)
                        return

    def _on(self, pid: int, predicate) -> bool:
        robot = self.robots[pid]
        square = self.board.square(*robot.pos) if robot.on_board else None
        return bool(square is not None and predicate(square))

    def _deal_hits(self, hits: dict[int, int], order: list[int]) -> Iterator[Wait]:
        for pid in order:
            if hits.get(pid) and not self.robots[pid].removed:
                yield from self._damage(self.robots[pid], hits[pid])

    def _trace(self, x: int, y: int, direction: str, include_start: bool) -> Robot | None:
        board = self.board
        if include_start:
            robot = self._robot_at(x, y)
            if robot is not None:
                return robot
        dx, dy = DELTA[direction]
        while True:
            if board.wall_blocks(x, y, direction):
                return None
            x, y = x + dx, y + dy
            square = board.square(x, y)
            if square is None or square.antenna:
                return None
            robot = self._robot_at(x, y)
            if robot is not None:
                return robot

    def _belt_move(self, speed: int, order: list[int]) -> None:
        board = self.board
        movers: dict[int, tuple[str, tuple[int, int]]] = {}
        for pid in order:
            robot = self.robots[pid]
            if not robot.on_board:
                continue
            square = board.square(robot.x, robot.y)  # type: ignore[arg-type]
            if square is None or square.belt is None or square.belt[0] != speed:
                continue
            direction = square.belt[1]
            if board.wall_blocks(robot.x, robot.y, direction):  # type: ignore[arg-type]
                continue
            dx, dy = DELTA[direction]
            target = (robot.x + dx, robot.y + dy)  # type: ignore[operator]
            there = board.square(*target)
            if there is not None and there.antenna:
                continue
            movers[pid] = (direction, target)
        changed = True
        while changed:
            changed = False
            targets: dict[tuple[int, int], int] = {}
            for _, target in movers.values():
                targets[target] = targets.get(target, 0) + 1
            positions = {self.robots[pid].pos: pid for pid in movers}
            for pid, (direction, target) in list(movers.items()):
                blocker = self._robot_at(*target)
                swap = positions.get(target)
                if (targets[target] > 1 or (blocker is not None and blocker.pid not in movers)
                        or (swap is not None and swap in movers and movers[swap][1] == self.robots[pid].pos)):
                    del movers[pid]
                    changed = True
            # a mover whose target is held by a robot that stopped must stop as well: loop again
        for pid in order:
            if pid not in movers:
                continue
            robot = self.robots[pid]
            direction, (tx, ty) = movers[pid]
            square = board.square(tx, ty)
            if square is None:
                self._leave(robot)
                continue
            robot.x, robot.y = tx, ty
            self.emit(ev.Moved(pid, tx, ty))
            if square.belt is not None and OPPOSITE[direction] in square.belt[2]:
                if square.belt[1] == CLOCKWISE[direction]:
                    self._turn(robot, "clockwise")
                elif square.belt[1] == COUNTERCLOCKWISE[direction]:
                    self._turn(robot, "counterclockwise")
            if square.pit:
                self._leave(robot)

    # ------------------------------------------------------------------ end of round (§5.11)

    def _grace_done(self) -> bool:
        return all(self.robots[pid].reboot_direction or self.robots[pid].removed for pid in self._grace_pids())

    def _grace_pids(self) -> list[int]:
        return [pid for pid in self.active_players() if self.robots[pid].rebooted]

    def _end_of_round(self) -> Iterator[Wait]:
        self.current = None
        if not self._grace_done():
            yield Wait("reboot_grace", pids=tuple(pid for pid in self._grace_pids() if not self.robots[pid].reboot_direction))
        for pid in self.active_players():
            robot = self.robots[pid]
            robot.discard.extend(c for c in robot.registers if c)
            robot.discard.extend(robot.aside)
            robot.registers = [None] * REGISTERS
            robot.aside = []
            robot.rebooted = False
            robot.reboot_direction = None

    # ------------------------------------------------------------------ clocks and leaving

    def timeout(self) -> None:
        """The room's clock ran out for the current wait."""
        wait = self.wait
        if wait is None or self.over:
            return
        if wait.kind == "start":
            robot_pid = wait.pid
            free = [p for p in self.board.start_points if self._robot_at(*p) is None]
            if free and robot_pid is not None:
                self._take_start(robot_pid, *free[0])
        elif wait.kind == "programming":
            if not self.timer_ended:
                self._timer_end()
        elif wait.kind == "play_card":
            self._advance(False)
        elif wait.kind == "damage":
            self._advance(None)
        elif wait.kind == "reboot_grace":
            self._advance(None)

    def remove(self, pid: int) -> None:
        """A player's connection is gone (§7.2): its robot and cards leave the game."""
        robot = self.robots.get(pid)
        if robot is None or robot.removed:
            return
        robot.removed = True
        robot.x = robot.y = None
        if self.over:
            return
        left = self.active_players()
        if len(left) <= 1:
            self.over = True
            if left:
                self._finish(left[0])
            self.wait = None
            return
        wait = self.wait
        if wait is None:
            return
        if wait.kind in ("start", "play_card", "damage") and wait.pid == pid:
            self._advance(None if wait.kind != "play_card" else False)
        elif wait.kind == "programming":
            self._check_all_finished()
        elif wait.kind == "reboot_grace" and self._grace_done():
            self._advance(None)

    # ------------------------------------------------------------------ for tests and bots

    def card_totals(self) -> int:
        return sum(len(self.robots[pid].cards()) for pid in self.active_players()) + sum(self.piles.values())
