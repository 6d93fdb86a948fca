"""Penguins 2023 rules against the official 23.0.3 classes and the official board generator.

* Every rule vector (``tests/data/penguins/vectors/moves.jsonl.gz``, 31,404 moves from 736
  positions computed by the official classes): the team on turn, the game-over flag, the legal
  moves in the official order, and each move's verdict (accepted with turn, team, fish and
  game-over; or the exact violation message; or the ``IllegalArgumentException`` that the server
  turned into a silent drop).
* Every ``Board Seed: N`` the official server printed for a captured game (``seeds.txt``) gives,
  through our Kotlin ``Random(N)``, exactly the turn-0 board of that capture.
"""

from __future__ import annotations

import gzip
import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swc_local.games.penguins import rules
from swc_local.games.penguins.rules import PENGUIN, TEAM_NAMES, Move, Position, RuleCrash, RuleViolation
from swc_local.games.penguins.xorwow import XorWow
from tests.helpers import TESTS

DATA = TESTS / "data" / "penguins"
SCENARIOS = DATA / "scenarios"


def _positions() -> list[dict]:
    with gzip.open(DATA / "vectors" / "moves.jsonl.gz", "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


POSITIONS = _positions()


def position_of(vector: dict) -> Position:
    letters = {"R": PENGUIN[rules.ONE], "B": PENGUIN[rules.TWO]}
    board = [letters[c] if c in letters else int(c) for row in vector["board"].split("/") for c in row]
    return Position(board, vector["turn"], tuple(vector["fishes"]))


def outcome(position: Position, move: Move) -> dict:
    after = position.copy()
    try:
        after.push(move)
    except RuleViolation as violation:
        return {"ok": False, "invalidMove": True, "message": str(violation)}
    except RuleCrash as crash:
        return {"ok": False, "invalidMove": False, "exception": f"java.lang.IllegalArgumentException: {crash}"}
    return {"ok": True, "turn": after.turn, "currentTeam": TEAM_NAMES[after.current], "fishes": after.fishes,
            "isOver": after.is_over()}


def test_the_vector_file_is_complete():
    assert len(POSITIONS) == 736
    assert sum(len(p["moves"]) for p in POSITIONS) == 31404


@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_vector_position(index):
    vector = POSITIONS[index]
    position = position_of(vector)
    assert TEAM_NAMES[position.current] == vector["currentTeam"]
    assert position.is_over() == vector["isOver"]
    legal = [[*(m.from_ or (None, None)), *m.to] for m in position.legal_moves()]
    assert legal == vector["legal"]
    wrong = []
    for probe in vector["moves"]:
        fx, fy, tx, ty = probe["move"]
        move = Move(None if fx is None else (fx, fy), (tx, ty))
        got = outcome(position, move)
        if got != probe["expect"]:
            wrong.append((probe["move"], got, probe["expect"]))
    assert not wrong


def captured_seeds() -> dict[str, int]:
    seeds = {}
    for line in (DATA / "seeds.txt").read_text().splitlines():
        parts = line.split()
        if len(parts) >= 2 and re.fullmatch(r"-?\d+", parts[1]):
            seeds[parts[0]] = int(parts[1])
    return seeds


SEEDS = captured_seeds()


def captured_start_board(name: str) -> list[int]:
    for path in sorted((SCENARIOS / name).iterdir()):
        text = gzip.decompress(path.read_bytes()).decode()
        match = re.search(r'<state class="state" turn="0">.*?</board>', text, re.S)
        if match:
            cells = re.findall(r"<field>(.*?)</field>", match.group(0))
            return [PENGUIN[TEAM_NAMES.index(c)] if c in TEAM_NAMES else int(c) for c in cells]
    raise AssertionError(f"no turn-0 board in {name}")


def test_every_captured_game_with_a_generated_board_has_its_seed():
    assert len(SEEDS) == 29


@pytest.mark.parametrize("name", sorted(SEEDS))
def test_the_printed_seed_gives_the_captured_board(name):
    assert rules.start_board(SEEDS[name]) == captured_start_board(name)


def test_xorwow_edges():
    """``nextInt(1)`` still draws a number (Kotlin's ``takeUpperBits(0)``), powers of two take the
    top bits, and seed 0 is a valid state (``v = 0.inv()``)."""
    a, b = XorWow(7), XorWow(7)
    assert a.next_below(1) == 0
    b.next_int()
    assert a.next_int() == b.next_int()
    assert 0 <= XorWow(0).next_below(64) < 64
    assert all(-(2**31) <= XorWow(seed).next_int() < 2**31 for seed in (0, 1, -1, 2**31 - 1, -(2**31)))


def test_every_start_board_is_point_symmetric_with_at_most_five_holes_a_half():
    for seed in range(-200, 200):
        board = rules.start_board(seed)
        assert board[32:] == board[:32][::-1]
        assert board[:32].count(0) <= 5 and all(0 <= v <= 4 for v in board)
        assert board.count(1) >= 8  # everyone can place


def random_position(seed: int, plies: int) -> Position:
    """The position after up to ``plies`` random legal moves from the board of ``seed``."""
    position, rng = Position.from_seed(seed), random.Random(seed)
    for _ in range(plies):
        moves = position.legal_moves()
        if not moves:
            break
        position.push(rng.choice(moves))
    return position


@given(seed=st.integers(-(2**31), 2**31 - 1), plies=st.integers(0, 70),
       to=st.tuples(st.integers(-3, 18), st.integers(-2, 9)),
       origin=st.tuples(st.integers(-3, 18), st.integers(-2, 9)))
@settings(max_examples=150, deadline=None)
def test_exactly_the_legal_moves_pass_the_checks(seed, plies, to, origin):
    """On any reachable position the checks accept every generated move and refuse any other;
    a refused move leaves the position as it was, an accepted one moves the team on turn."""
    position = random_position(seed, plies)
    legal = set(position.legal_moves())
    for move in (*legal, Move(None, to), Move(origin, to)):
        after = position.copy()
        try:
            after.push(move)
        except (RuleViolation, RuleCrash):
            assert move not in legal
            assert (after.board, after.turn, after.fishes) == (position.board, position.turn, position.fishes)
        else:
            assert move in legal
            assert after.turn == position.turn + 1
            assert sum(after.fishes) > sum(position.fishes)
