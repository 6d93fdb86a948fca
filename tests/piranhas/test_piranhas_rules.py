"""Piranhas 2019 rules (spec §9 and the rule surprises 11-13 of §12), through the pure engine
and through the server-facing Game object (which maps failures to InvalidMove/MalformedMove).

Positions are built with :func:`make` from lists of (x, y); x is the column (0..9, left to
right), y the row (0..9, bottom to top), so "UP" is +y."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swc_local.games.plugin import InvalidMove, MalformedMove, Outcome
from swc_local.games.piranhas import rules
from swc_local.games.piranhas.entry import ENTRY as PIRANHAS_ENTRY
from swc_local.games.piranhas.plugin import PiranhasGame
from swc_local.games.piranhas.rules import (
    BLUE, DIRECTIONS, EMPTY, OBSTRUCTED, RED, Decision, Direction, Move, Position,
)

PLUGIN = PIRANHAS_ENTRY.plugin

D = Direction
SWARM = "Das Spiel ist beendet.\nEin Spieler hat seinen Schwarm vereint."
ROUND_LIMIT = "Das Rundenlimit wurde erreicht."
OUT_OF_RANGE = "x or y are not within the field range"
NOT_OWN = "Field does not belong to the current player"
OFF_BOARD = "Move in that direction would not be on the board"
PATH = "Path to the new position is not clear"
OWN_DEST = "Field obstructed with own piranha"
KRAKEN_DEST = "Field is obstructed"


def make(red=(), blue=(), kraken=(), turn=0) -> Position:
    cells = bytearray(100)
    for state, fields in ((RED, red), (BLUE, blue), (OBSTRUCTED, kraken)):
        for x, y in fields:
            cells[x * 10 + y] = state
    return Position(cells, turn, RED if turn % 2 == 0 else BLUE)


def game(**kwargs) -> PiranhasGame:
    return PiranhasGame(make(**kwargs))


def reason_of(g: PiranhasGame, move: Move) -> str:
    with pytest.raises(InvalidMove) as info:
        g.apply(g.current_seat, move)
    return info.value.reason


# --- board, kraken, distance ---------------------------------------------------------------

def test_directions_have_official_names_order_and_deltas():
    assert [(d.name, d.dx, d.dy) for d in DIRECTIONS] == [
        ("UP", 0, 1), ("UP_RIGHT", 1, 1), ("RIGHT", 1, 0), ("DOWN_RIGHT", 1, -1),
        ("DOWN", 0, -1), ("DOWN_LEFT", -1, -1), ("LEFT", -1, 0), ("UP_LEFT", -1, 1),
    ]


def test_start_position_layout():
    p = Position.start(random.Random(1))
    for i in range(1, 9):
        assert p.at(0, i) == p.at(9, i) == RED
        assert p.at(i, 0) == p.at(i, 9) == BLUE
    for x, y in ((0, 0), (0, 9), (9, 0), (9, 9)):
        assert p.at(x, y) == EMPTY
    assert p.fish_count(RED) == p.fish_count(BLUE) == 16
    assert list(p.cells).count(OBSTRUCTED) == 2
    assert (p.turn, p.current, p.last_move) == (0, RED, None)
    assert p.decision() is None  # the check also runs, harmlessly, at turn 0


def test_kraken_placement_constraints_over_many_seeds():
    used = set()
    for seed in range(3000):
        p = Position.start(random.Random(seed))
        kraken = [(c // 10, c % 10) for c in range(100) if p.cells[c] == OBSTRUCTED]
        assert len(kraken) == 2
        (ax, ay), (bx, by) = kraken
        assert all(2 <= v <= 7 for v in (ax, ay, bx, by))
        assert ax != bx and ay != by  # no shared column or row
        assert ax - ay != bx - by and ax + ay != bx + by  # no shared diagonal/anti-diagonal
        used.update(kraken)
    assert len(used) == 36  # every inner field gets used


def test_same_seed_same_board():
    for seed in (0, 2, 12345):
        a = Position.start(random.Random(seed))
        b = PLUGIN.new_game(random.Random(seed)).position
        assert a.cells == b.cells
    assert len({bytes(Position.start(random.Random(s)).cells) for s in range(50)}) > 10


def test_distance_counts_both_colours_on_whole_line_but_not_kraken():
    p = make(red=[(0, 2), (3, 2), (0, 0), (0, 1)], blue=[(1, 2), (9, 2)], kraken=[(2, 1)])
    assert p.distance(0, 2, D.RIGHT) == p.distance(0, 2, D.LEFT) == 4  # row 2: R B R B
    assert p.distance(0, 2, D.UP) == p.distance(0, 2, D.DOWN) == 3  # column 0: R R R
    assert p.distance(0, 1, D.RIGHT) == 1  # row 1: R and a kraken
    assert p.distance(3, 2, D.DOWN_LEFT) == 1  # diagonal through the kraken (2,1)
    assert p.distance(0, 1, D.UP_RIGHT) == 2  # diagonal x-y=-1: (0,1) R, (1,2) B
    assert p.distance(3, 2, D.UP_LEFT) == p.distance(3, 2, D.DOWN_RIGHT) == 1
    start = Position.start(random.Random(0))
    assert start.distance(0, 1, D.UP) == 8 and start.distance(0, 1, D.RIGHT) == 2


# --- applying moves ------------------------------------------------------------------------

def test_move_jumps_own_fish_and_kraken_and_eats_opponent():
    # surprise 12: own fish and kraken may be jumped over; row 0 holds 3 fish (kraken not
    # counted), so (0,0) RIGHT lands on (3,0) and eats the blue fish there
    g = game(red=[(0, 0), (1, 0)], kraken=[(2, 0)], blue=[(3, 0), (5, 5)])
    g.apply(0, Move(0, 0, D.RIGHT, ("a hint", None)))
    p = g.position
    assert [p.at(x, 0) for x in range(4)] == [EMPTY, RED, OBSTRUCTED, RED]
    assert p.fish_count(BLUE) == 1 and p.fish_count(RED) == 2
    assert p.last_move == Move(0, 0, D.RIGHT) and p.last_move.hints == ("a hint", None)
    assert (p.turn, p.current, g.current_seat) == (1, BLUE, 1)


def test_turn_and_current_player_follow_parity():
    g = PLUGIN.new_game(random.Random(5))
    rng = random.Random(5)
    for turn in range(1, 9):
        g.apply(g.current_seat, PLUGIN.random_move(g, rng))
        assert g.turn == turn and g.current_seat == turn % 2
        assert g.position.current == (RED if turn % 2 == 0 else BLUE)


# --- validity checks: reasons and order ----------------------------------------------------

@pytest.mark.parametrize(
    "position, move, reason",
    [
        # check 2 (only when the distance scan did not crash first, see below)
        (dict(red=[(0, 1)]), Move(10, 1, D.LEFT), OUT_OF_RANGE),  # observed on 19.2.1
        (dict(red=[(0, 1)]), Move(5, -1, D.UP), OUT_OF_RANGE),  # column 5 scans fine
        (dict(red=[(0, 1)]), Move(-1, 5, D.UP_RIGHT), OUT_OF_RANGE),  # scan (0,6)..(3,9)
        (dict(red=[(0, 1)]), Move(10, -1, D.UP_RIGHT), OUT_OF_RANGE),  # scans nothing
        (dict(red=[(0, 1)]), Move(3, -1, D.DOWN_RIGHT), OUT_OF_RANGE),  # scan (2,0),(1,1),(0,2)
        (dict(red=[(0, 1)]), Move(-1, -1, D.DOWN_LEFT), OUT_OF_RANGE),  # scan (0,0)..(9,9)
        # check 3: empty, kraken, opponent fish
        (dict(red=[(0, 0)]), Move(5, 5, D.UP), NOT_OWN),
        (dict(red=[(0, 0)], kraken=[(4, 4)]), Move(4, 4, D.UP), NOT_OWN),
        (dict(red=[(0, 0)], blue=[(3, 3)]), Move(3, 3, D.UP), NOT_OWN),
        (dict(red=[(0, 0)], blue=[(3, 3)], turn=1), Move(0, 0, D.UP), NOT_OWN),  # blue moves
        # check 5: destination off the board
        (dict(red=[(0, 1), (0, 2)]), Move(0, 1, D.DOWN), OFF_BOARD),
        (dict(red=[(0, 0)]), Move(0, 0, D.DOWN_LEFT), OFF_BOARD),
        (dict(red=[(8, 0)], blue=[(9, 0)]), Move(8, 0, D.RIGHT), OFF_BOARD),  # before path
        # check 6: an opponent fish on the start..distance-1 fields
        (dict(red=[(0, 0)], blue=[(1, 0)]), Move(0, 0, D.RIGHT), PATH),
        (dict(red=[(0, 0), (3, 0)], blue=[(1, 0)]), Move(0, 0, D.RIGHT), PATH),  # before own
        (dict(red=[(0, 0)], blue=[(1, 0)], kraken=[(2, 0)]), Move(0, 0, D.RIGHT), PATH),
        (dict(red=[(1, 0)], blue=[(0, 0)], turn=1), Move(0, 0, D.RIGHT), PATH),  # blue moves
        (dict(red=[(5, 5), (3, 3)], blue=[(4, 4)]), Move(5, 5, D.DOWN_LEFT), PATH),
        # check 7: own fish on the destination
        (dict(red=[(0, 0), (2, 0)]), Move(0, 0, D.RIGHT), OWN_DEST),
        (dict(red=[(2, 7), (4, 5)]), Move(2, 7, D.DOWN_RIGHT), OWN_DEST),
        # check 8: kraken on the destination
        (dict(red=[(0, 0), (3, 0)], kraken=[(2, 0)]), Move(0, 0, D.RIGHT), KRAKEN_DEST),
        (dict(red=[(3, 2)], kraken=[(2, 1)]), Move(3, 2, D.DOWN_LEFT), KRAKEN_DEST),
    ],
)
def test_invalid_move_reasons(position, move, reason):
    g = game(**position)
    before = (bytes(g.position.cells), list(g.position.bb))
    assert reason_of(g, move) == reason
    assert (bytes(g.position.cells), g.position.bb) == before and g.turn == position.get("turn", 0)


def test_distance_check_never_fires():
    # check 4 compares the distance with itself; its text exists but is unreachable
    assert rules.REASON_DISTANCE == "Move distance was incorrect"


@pytest.mark.parametrize(
    "x, y, direction",
    [
        (1, 10, D.LEFT),  # observed on 19.2.1: row 10 is scanned -> crash -> LEFT
        (1, -1, D.RIGHT),
        (10, 5, D.UP),
        (-1, 5, D.DOWN),
        (10, 3, D.UP_RIGHT),  # the diagonal scan starts at (10, 3)
        (-2, 5, D.DOWN_LEFT),  # its second half visits (-1, 6)
        (12, 3, D.UP_LEFT),  # the anti-diagonal's second half visits (11, 4)
        (3, 10, D.DOWN_RIGHT),  # its first half starts at (3, 10)
        (2**31 - 1, -1, D.UP_RIGHT),  # Java int overflow: x+1 wraps to -2**31
    ],
)
def test_out_of_range_scan_crash_is_malformed(x, y, direction):
    # surprise 12: the distance is computed before the range check; these crash -> LEFT
    g = game(red=[(0, 1)])
    with pytest.raises(MalformedMove):
        g.apply(0, Move(x, y, direction))
    assert g.turn == 0


def test_scan_crash_matches_a_literal_restatement_of_check_1():
    def visits(x, y, d):
        if d.axis == rules.HORIZONTAL:
            return [(i, y) for i in range(10)]
        if d.axis == rules.VERTICAL:
            return [(x, j) for j in range(10)]
        sx, sy = (1, 1) if d.axis == rules.DIAGONAL else (1, -1)
        out, k = [], 0
        # first half: (x - k*sx, y - k*sy) while x-part >= 0 (or <= 9) and y-part >= 0
        while k < 40:
            a, b = (x - k, y - k) if sy == 1 else (x + k, y - k)
            if not ((a >= 0 if sy == 1 else a <= 9) and b >= 0):
                break
            out.append((a, b))
            k += 1
        k = 1
        while k < 40:
            a, b = (x + k, y + k) if sy == 1 else (x - k, y + k)
            if not ((a <= 9 if sy == 1 else a >= 0) and b <= 9):
                break
            out.append((a, b))
            k += 1
        return out

    for x in range(-12, 23):
        for y in range(-12, 23):
            for d in DIRECTIONS:
                expected = any(not (0 <= a <= 9 and 0 <= b <= 9) for a, b in visits(x, y, d))
                assert rules.scan_crashes(x, y, d) == expected, (x, y, d)


def test_stuck_player_has_no_skip_move():
    # surprise 13: there is no pass move; the stuck player can only send an invalid move
    g = game(red=[(0, 0)], blue=[(0, 1), (1, 0), (1, 1), (9, 9)])
    assert g.legal_moves() == [] and PLUGIN.random_move(g, random.Random(0)) is None
    reasons = {d: reason_of(game(red=[(0, 0)], blue=[(0, 1), (1, 0), (1, 1)]), Move(0, 0, d))
               for d in DIRECTIONS}
    assert set(reasons.values()) == {PATH, OFF_BOARD}


# --- end conditions (surprise 11) ----------------------------------------------------------

def test_red_connects_at_odd_turn_game_continues_and_red_wins_after_blues_move():
    # observed on 19.2.1: red connected at turn 57 and won at turn 58
    g = game(red=[(0, 0), (2, 1)], blue=[(9, 9), (7, 7)], turn=56)
    assert g.outcome() is None
    g.apply(0, Move(0, 0, D.RIGHT))  # row 0 holds 1 fish -> (1,0), next to (2,1)
    assert g.turn == 57 and g.position.is_connected(RED)
    assert g.outcome() is None  # odd turn: no check
    g.apply(1, Move(9, 9, D.LEFT))  # -> (8,9), still apart from (7,7)
    assert g.turn == 58 and g.outcome() == Outcome(0, SWARM)


def test_blue_breaks_reds_swarm_before_the_check():
    g = game(red=[(0, 0), (2, 1), (3, 2)], blue=[(2, 3), (9, 9)], turn=56)
    g.apply(0, Move(0, 0, D.RIGHT))  # red: (1,0),(2,1),(3,2) -- one diagonal chain
    assert g.position.is_connected(RED) and g.outcome() is None
    g.apply(1, Move(2, 3, D.DOWN))  # column 2 holds 2 fish: blue eats the bridge at (2,1)
    p = g.position
    assert p.at(2, 1) == BLUE and p.fish_count(RED) == 2
    assert not p.is_connected(RED) and not p.is_connected(BLUE)
    assert g.turn == 58 and g.outcome() is None


def test_red_connected_then_blue_connects_bigger_blue_wins():
    g = game(red=[(0, 0), (2, 1)], blue=[(5, 5), (6, 6), (7, 7), (9, 8)], turn=56)
    g.apply(0, Move(0, 0, D.RIGHT))  # red connected, 2 fish
    g.apply(1, Move(9, 8, D.LEFT))  # row 8 holds 1 fish -> (8,8): blue connected, 4 fish
    assert g.turn == 58 and g.outcome() == Outcome(1, SWARM)


def test_red_connected_then_blue_connects_equal_game_continues():
    g = game(red=[(0, 0), (2, 1)], blue=[(5, 5), (8, 5)], turn=56)
    g.apply(0, Move(0, 0, D.RIGHT))
    g.apply(1, Move(8, 5, D.LEFT))  # row 5 holds 2 fish -> (6,5), next to (5,5)
    p = g.position
    assert p.is_connected(RED) and p.is_connected(BLUE)
    assert p.largest_swarm(RED) == p.largest_swarm(BLUE) == 2
    assert g.turn == 58 and g.outcome() is None  # 19.2.1: equal connected swarms continue


def test_both_connected_bigger_wins():
    red3 = [(0, 0), (1, 1), (2, 2)]
    assert make(red=red3, blue=[(7, 7), (8, 8)], turn=20).decision() == Decision(RED, SWARM)
    blue4 = [(6, 6), (7, 7), (8, 8), (9, 9)]
    assert make(red=red3, blue=blue4, turn=20).decision() == Decision(BLUE, SWARM)
    assert PiranhasGame(make(red=red3, blue=blue4, turn=20)).outcome() == Outcome(1, SWARM)


def test_both_connected_equal_continues_before_60_and_draws_at_60():
    red, blue = [(0, 0), (1, 1)], [(8, 8), (9, 9)]
    for turn in (0, 2, 20, 58):
        assert make(red=red, blue=blue, turn=turn).decision() is None
    assert make(red=red, blue=blue, turn=60).decision() == Decision(None, ROUND_LIMIT)
    assert PiranhasGame(make(red=red, blue=blue, turn=60)).outcome() == Outcome(None, ROUND_LIMIT)


def test_red_connected_blue_not_red_wins_and_vice_versa():
    assert make(red=[(0, 0), (1, 1)], blue=[(5, 5), (9, 9)], turn=4).decision() == Decision(
        RED, SWARM)
    assert make(red=[(0, 0), (2, 2)], blue=[(5, 5), (6, 5)], turn=4).decision() == Decision(
        BLUE, SWARM)


def test_turn_60_largest_swarm_wins_or_draws():
    red = [(0, 0), (1, 1), (2, 2), (5, 0)]  # largest swarm 3, not connected
    blue = [(9, 9), (8, 8), (5, 9)]  # largest swarm 2, not connected
    assert make(red=red, blue=blue, turn=58).decision() is None
    assert make(red=red, blue=blue, turn=59).decision() is None
    assert make(red=red, blue=blue, turn=60).decision() == Decision(RED, ROUND_LIMIT)
    blue4 = blue + [(7, 7), (6, 6)]
    assert make(red=red, blue=blue4, turn=60).decision() == Decision(BLUE, ROUND_LIMIT)
    blue3 = blue + [(7, 7)]
    assert make(red=red, blue=blue3, turn=60).decision() == Decision(None, ROUND_LIMIT)
    g = PiranhasGame(make(red=red, blue=blue3, turn=60))
    assert g.outcome() == Outcome(None, ROUND_LIMIT)
    assert g.score_parts(0) == ["3"] and g.score_parts(1) == ["3"]


def test_outcome_only_at_even_turns():
    # the server also asks at fault endings; the even-turn rule applies there too
    connected = dict(red=[(0, 0), (1, 1)], blue=[(5, 5), (9, 9)])
    assert PiranhasGame(make(**connected, turn=31)).outcome() is None
    assert PiranhasGame(make(**connected, turn=32)).outcome() == Outcome(0, SWARM)


def test_player_without_fish_counts_as_connected():
    p = make(blue=[(0, 0), (9, 9)], turn=4)
    assert p.is_connected(RED) and p.largest_swarm(RED) == 0
    assert p.decision() == Decision(RED, SWARM)


def test_swarms_use_8_neighbourhood_without_wrapping():
    # (0,0)-(1,1) touch diagonally; (0,9) and (1,0) are cells 9 and 10 of the flat board
    p = make(red=[(0, 0), (1, 1), (0, 9), (1, 0)])
    assert p.largest_swarm(RED) == 3 and not p.is_connected(RED)
    assert make(red=[(0, 9), (1, 0)]).largest_swarm(RED) == 1
    assert make(red=[(9, 0), (0, 1)]).largest_swarm(RED) == 1
    assert make(red=[(x, 5) for x in range(10)] + [(4, 6), (4, 7)]).largest_swarm(RED) == 12


# --- legal moves agree with apply ----------------------------------------------------------

def playout(seed: int, plies: int) -> list[Position]:
    """Positions of a random legal game from ``seed`` (stops at game end or when stuck)."""
    rng = random.Random(seed)
    p = Position.start(rng)
    seen = [p.copy()]
    for _ in range(plies):
        moves = p.legal_moves()
        if not moves or (p.turn and p.decision() is not None):
            break
        p.push(rng.choice(moves))
        seen.append(p.copy())
    return seen


def test_legal_moves_agree_with_apply_exhaustively_on_sampled_positions():
    for seed in range(10):
        for p in playout(seed, 60)[::6]:
            legal = p.legal_moves()
            assert len(set(legal)) == len(legal)
            legal_set = set(legal)
            for x in range(-1, 11):
                for y in range(-1, 11):
                    for d in DIRECTIONS:
                        move = Move(x, y, d)
                        assert p.is_legal(move) == (move in legal_set), (p.text(), move)
            for move in legal:
                q = p.copy()
                q.push(move)  # never raises
                assert q.turn == p.turn + 1


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), probe_seed=st.integers(0, 2**16))
def test_random_candidates_accepted_iff_generated(seed, probe_seed):
    rng = random.Random(probe_seed)
    p = playout(seed, rng.randrange(0, 61))[-1]
    legal = set(p.legal_moves())
    for _ in range(200):
        move = Move(rng.randrange(-2, 12), rng.randrange(-2, 12), rng.choice(DIRECTIONS))
        g = PiranhasGame(p.copy())
        try:
            g.apply(g.current_seat, move)
            accepted = True
        except (InvalidMove, MalformedMove):
            accepted = False
        assert accepted == (move in legal)


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**64))
def test_random_playouts_never_raise_and_end_by_turn_60(seed):
    rng = random.Random(seed)
    g = PLUGIN.new_game(rng)
    stuck = False
    while g.turn == 0 or g.outcome() is None:
        assert g.turn < 60
        move = PLUGIN.random_move(g, rng)
        if move is None:  # no legal move: no skip move exists (§12.13), the playout stops
            stuck = True
            break
        g.apply(g.current_seat, move)
        assert Position(g.position.cells).bb == g.position.bb  # bitboards track the cells
    assert g.turn <= 60
    if not stuck:
        outcome = g.outcome()
        assert outcome is not None and g.turn % 2 == 0
        assert outcome.reason == SWARM or (g.turn == 60 and outcome.reason == ROUND_LIMIT)
