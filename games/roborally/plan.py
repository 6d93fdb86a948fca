"""The greedy bot's look-ahead: one robot, five registers, the board's elements included.

:func:`best_program` searches a hand for the five cards that leave the robot closest to a target
square (its next checkpoint), simulating each register with the rules of spec roborally.md §5.5
to §5.7 as they apply to a lone robot: card moves with walls, the antenna, pits and the board
edge; then blue and green belts (with their curves), push panels and gears. Other robots, lasers
and damage are left out: a bot cannot know the others' programs. A beam search keeps the best
few partial programs per register, which is fast enough for a bot that has seconds per turn.
"""

from __future__ import annotations

from .board import CLOCKWISE, COUNTERCLOCKWISE, DELTA, OPPOSITE, Board
from .cards import DAMAGE, MOVES

State = tuple[int, int, str]  # x, y, facing
FALL = None

BEAM = 20


def _step(board: Board, state: State, direction: str) -> State | None:
    x, y, facing = state
    if board.wall_blocks(x, y, direction):
        return state
    dx, dy = DELTA[direction]
    square = board.square(x + dx, y + dy)
    if square is None or square.pit:
        return None
    if square.antenna:
        return state
    return x + dx, y + dy, facing


def play_card(board: Board, state: State, card: str, previous: str | None) -> State | None:
    if card == "Again":
        if previous is None or previous in DAMAGE or previous == "Again":
            return state
        card = previous
    if card in MOVES:
        for _ in range(MOVES[card]):
            nxt = _step(board, state, state[2])
            if nxt is None:
                return None
            state = nxt
        return state
    if card == "BackUp":
        return _step(board, state, OPPOSITE[state[2]])
    x, y, facing = state
    if card == "TurnRight":
        return x, y, CLOCKWISE[facing]
    if card == "TurnLeft":
        return x, y, COUNTERCLOCKWISE[facing]
    if card == "UTurn":
        return x, y, OPPOSITE[facing]
    return state  # PowerUp, damage cards (their drawn card is unknown)


def _belt(board: Board, state: State, speed: int) -> State | None:
    x, y, facing = state
    square = board.square(x, y)
    if square is None or square.belt is None or square.belt[0] != speed:
        return state
    direction = square.belt[1]
    if board.wall_blocks(x, y, direction):
        return state
    dx, dy = DELTA[direction]
    target = board.square(x + dx, y + dy)
    if target is None or target.pit:
        return None
    if target.antenna:
        return state
    if target.belt is not None and OPPOSITE[direction] in target.belt[2]:
        if target.belt[1] == CLOCKWISE[direction]:
            facing = CLOCKWISE[facing]
        elif target.belt[1] == COUNTERCLOCKWISE[direction]:
            facing = COUNTERCLOCKWISE[facing]
    return x + dx, y + dy, facing


def board_elements(board: Board, state: State, register: int) -> State | None:
    for speed, times in ((2, 2), (1, 1)):
        for _ in range(times):
            state = _belt(board, state, speed)  # type: ignore[assignment]
            if state is None:
                return None
    square = board.square(state[0], state[1])
    if square is not None and square.push and register in square.push[1]:
        state = _step(board, state, square.push[0])  # type: ignore[assignment]
        if state is None:
            return None
        square = board.square(state[0], state[1])
    if square is not None and square.gear:
        x, y, facing = state
        state = (x, y, (CLOCKWISE if square.gear == "clockwise" else COUNTERCLOCKWISE)[facing])
    return state


def distance_map(board: Board, target: tuple[int, int]) -> dict[tuple[int, int], int]:
    """Steps from every square to ``target`` around walls, pits and the antenna (breadth first)."""
    from collections import deque

    distances = {target: 0}
    queue = deque([target])
    while queue:
        x, y = queue.popleft()
        for direction, (dx, dy) in DELTA.items():
            nx, ny = x + dx, y + dy
            square = board.square(nx, ny)
            if (nx, ny) in distances or square is None or square.pit or square.antenna:
                continue
            if board.wall_blocks(nx, ny, OPPOSITE[direction]):
                continue
            distances[(nx, ny)] = distances[(x, y)] + 1
            queue.append((nx, ny))
    return distances


def _distance(state: State, target: tuple[int, int], distances: dict[tuple[int, int], int]) -> int:
    manhattan = abs(state[0] - target[0]) + abs(state[1] - target[1])
    return distances.get((state[0], state[1]), 2 * manhattan + 20)


def best_program(board: Board, state: State, hand: list[str], target: tuple[int, int]) -> list[str]:
    """Five cards from ``hand`` (register order) that bring the robot closest to ``target``."""
    # partial: (score, cards, state, used indexes, reached)
    beams: list[tuple[tuple, list[str], State | None, frozenset[int], bool]] = [((0,), [], state, frozenset(), False)]
    distances = distance_map(board, target)
    memo: dict[tuple, State | None] = {}  # the same (square, facing, card, register) recurs across beams

    def simulate(current: State, card: str, previous: str | None, register: int) -> State | None:
        key = (current, card, previous if card == "Again" else None, register)
        if key not in memo:
            nxt = play_card(board, current, card, previous)
            memo[key] = None if nxt is None else board_elements(board, nxt, register)
        return memo[key]

    for register in range(1, 6):
        candidates = []
        for _, cards, current, used, reached in beams:
            tried = set()
            for index, card in enumerate(hand):
                if index in used or card in tried or (card == "Again" and register == 1):
                    continue
                tried.add(card)
                new_cards = cards + [card]
                if current is None or reached:
                    nxt, hit = current, reached
                else:
                    nxt = simulate(current, card, cards[-1] if cards else None, register)
                    hit = nxt is not None and (nxt[0], nxt[1]) == target
                damage = sum(1 for c in new_cards if c in DAMAGE)
                if nxt is None:
                    score = (1, 1000, damage)
                elif hit:
                    score = (0, -100 + register, damage)
                else:
                    score = (0, _distance(nxt, target, distances), damage)
                candidates.append((score, new_cards, nxt, used | {index}, hit))
        candidates.sort(key=lambda c: c[0])
        beams = candidates[:BEAM]
    return beams[0][1]
