"""Piranhas 2026 rules: the spec's worked examples P1-P17, the seeded start position, and
playouts where the generator and the validator must agree.

Positions are written as the spec writes them: ``a b c`` = ONE S/M/L, ``A B C`` = TWO S/M/L,
``X`` squid, coordinates (x, y) with x the column and y the row from the bottom."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swc_local.games.piranhas_2026 import rules
from swc_local.games.piranhas_2026.entry import ENTRY as PIRANHAS_2026_ENTRY
from swc_local.games.piranhas_2026.plugin import InvalidPiranhaMove, Piranhas2026Game
from swc_local.games.piranhas_2026.rules import (
    DIRECTIONS, EMPTY, FIELD_CHARS, ONE, SQUID, TWO, Direction, GameState, Mistake, Move,
    MoveRejected, OffBoardStart, WinReason,
)
from swc_local.games.piranhas_2026.xmlmap import DroppedMove
from swc_local.games.plugin import Outcome

PLUGIN = PIRANHAS_2026_ENTRY.plugin

D = Direction


def make(pieces: dict[tuple[int, int], str], turn: int = 0, first_union: int | None = None) -> GameState:
    cells = [EMPTY] * 100
    for (x, y), char in pieces.items():
        cells[y * 10 + x] = FIELD_CHARS.index(char)
    return GameState(cells, turn, first_union)


def play(state: GameState, *moves: tuple[int, int, Direction]) -> GameState:
    for x, y, direction in moves:
        state.perform(Move(x, y, direction))
    return state


def mistake_of(state: GameState, move: Move) -> MoveRejected:
    with pytest.raises(MoveRejected) as info:
        state.perform(move)
    return info.value


# The start board of spec §2 (from the capture lobby/L8.raw), top row y = 9.
L8 = """
. A C B A B B C A .
a . . . . . . . . a
a . . . . X . . . c
a . . . . . . . . b
a . . . . . X . . b
a . . . . . . . . a
c . . . . . . . . b
a . . . . . . . . c
a . . . . . . . . a
. A A C A A A A A .
"""


def from_picture(picture: str, turn: int = 0) -> GameState:
    rows = [row.split() for row in picture.strip().splitlines()]
    return GameState.from_string("".join("".join(row) for row in reversed(rows)), turn)


# --- identity, start position ---------------------------------------------------------------

def test_plugin_identity_and_scores():
    assert PLUGIN.game_type == "swc_2026_piranhas"
    assert PLUGIN.dialect == "modern"
    assert [(f.name, f.aggregation, f.relevant_for_ranking) for f in PLUGIN.score_fragments] == [
        ("Siegpunkte", "SUM", True), ("Schwarmgröße", "AVERAGE", True),
    ]
    assert (PLUGIN.soft_timeout_ms, PLUGIN.hard_timeout_ms) == (2000, 10000)


def test_directions_have_official_names_order_and_deltas():
    assert [(d.name, d.dx, d.dy) for d in DIRECTIONS] == [
        ("UP", 0, 1), ("UP_RIGHT", 1, 1), ("RIGHT", 1, 0), ("DOWN_RIGHT", 1, -1),
        ("DOWN", 0, -1), ("DOWN_LEFT", -1, -1), ("LEFT", -1, 0), ("UP_LEFT", -1, 1),
    ]


@pytest.mark.parametrize("seed", range(40))
def test_start_position_is_symmetric_with_two_squids_apart(seed):
    state = GameState.start(random.Random(seed))
    weights = {".": 0, "a": 1, "b": 2, "c": 3, "A": 1, "B": 2, "C": 3}
    for corner in ((0, 0), (9, 0), (0, 9), (9, 9)):
        assert state.at(*corner) == EMPTY
    for i in range(1, 9):
        for x, y, ox, oy in ((i, 0, 0, i), (i, 9, 9, i)):
            two, one = FIELD_CHARS[state.at(x, y)], FIELD_CHARS[state.at(ox, oy)]
            assert two in "ABC" and one in "abc" and weights[two] == weights[one]
    squids = [(c % 10, c // 10) for c, v in enumerate(state.cells) if v == SQUID]
    assert len(squids) == 2
    (x1, y1), (x2, y2) = squids
    assert all(2 <= v <= 7 for v in (x1, y1, x2, y2))
    assert x1 != x2 and y1 != y2 and x1 - y1 != x2 - y2 and x1 + y1 != x2 + y2
    assert sum(v != EMPTY for v in state.cells) == 34
    assert GameState.start(random.Random(seed)).cells == state.cells  # seeded: reproducible


def test_start_sizes_follow_the_4_3_2_odds():
    counts = {1: 0, 2: 0, 3: 0}
    rng = random.Random(7)
    for _ in range(300):
        state = GameState.start(rng)
        for c in state.fields_of(TWO):
            counts[rules.WEIGHT[state.cells[c]]] += 1
    total = sum(counts.values())
    assert abs(counts[1] / total - 4 / 9) < 0.03
    assert abs(counts[2] / total - 3 / 9) < 0.03
    assert abs(counts[3] / total - 2 / 9) < 0.03


# --- the worked examples of spec §8 ---------------------------------------------------------

def test_p1_fixed_opening_is_legal_on_every_start_board():
    for seed in range(50):
        state = GameState.start(random.Random(seed))
        assert state.distance(0, 1, D.UP) == 8
        play(state, (0, 1, D.UP), (1, 0, D.RIGHT))
        assert state.at(0, 9) != EMPTY and state.at(9, 0) != EMPTY
        assert state.turn == 2 and not state.is_over()
    state = from_picture(L8)
    play(state, (0, 1, D.UP), (1, 0, D.RIGHT))
    assert FIELD_CHARS[state.at(0, 9)] == "a" and FIELD_CHARS[state.at(9, 0)] == "A"


def test_p2_capture():
    state = make({(0, 2): "a", (2, 2): "a", (7, 7): "a", (5, 2): "A", (9, 0): "A", (9, 9): "A"})
    play(state, (2, 2, D.RIGHT))
    assert sorted(state.fields_of(ONE)) == [20, 25, 77]
    assert state.turn == 1 and not state.is_connected(TWO) and not state.is_over()


@pytest.mark.parametrize(
    "pieces, move, mistake, message",
    [
        ({(0, 2): "a", (3, 2): "a", (7, 7): "a", (1, 2): "A", (9, 0): "A", (9, 9): "A"}, (0, 2, D.RIGHT),
         Mistake.JUMP_OVER_OPPONENT,
         "Gegnerische Piranhas können nicht übersprungen werden bei 'Schwimme von [0|2] in Richtung RIGHT'"),
        ({(0, 2): "a", (9, 2): "a", (7, 7): "a", (2, 2): "X", (9, 0): "A", (9, 9): "A"}, (0, 2, D.RIGHT),
         Mistake.DESTINATION_BLOCKED, "Zielfeld ist besetzt bei 'Schwimme von [0|2] in Richtung RIGHT'"),
        ({(0, 2): "a", (2, 2): "b", (7, 7): "a", (9, 0): "A", (9, 9): "A"}, (0, 2, D.RIGHT),
         Mistake.DESTINATION_BLOCKED_BY_SELF,
         "Kann nicht auf ein Feld des eigenen Teams ziehen bei 'Schwimme von [0|2] in Richtung RIGHT'"),
        ({(0, 2): "a", (8, 2): "a", (9, 0): "A", (9, 9): "A"}, (8, 2, D.RIGHT),
         Mistake.DESTINATION_OUT_OF_BOUNDS,
         "Das Zielfeld liegt außerhalb des Spielfelds bei 'Schwimme von [8|2] in Richtung RIGHT'"),
    ],
    ids=["P3", "P4", "P5", "P7"],
)
def test_p3_to_p7_mistakes(pieces, move, mistake, message):
    rejected = mistake_of(make(pieces), Move(*move))
    assert rejected.mistake is mistake and rejected.message == message


def test_p6_squid_and_own_fish_may_be_passed():
    state = make({(0, 2): "a", (2, 2): "a", (8, 2): "a", (1, 2): "X", (9, 0): "A", (9, 9): "A"})
    assert state.distance(0, 2, D.RIGHT) == 3
    play(state, (0, 2, D.RIGHT))
    assert FIELD_CHARS[state.at(3, 2)] == "a"


def test_p8_union_at_odd_turn_is_not_over_then_bigger_swarm():
    state = make({(0, 2): "a", (1, 2): "a", (2, 4): "a", (7, 9): "A", (9, 9): "A", (9, 0): "A"})
    play(state, (2, 4, D.DOWN))
    assert state.first_union == ONE and state.turn == 1 and not state.is_over()
    play(state, (9, 0, D.UP))
    assert FIELD_CHARS[state.at(9, 2)] == "A"
    assert state.verdict() == rules.Verdict(ONE, WinReason.BIGGER_SWARM)
    assert (state.greatest_swarm(ONE), state.greatest_swarm(TWO)) == (3, 1)


def test_p9_equal_weights_first_union_wins():
    state = make({(0, 2): "a", (1, 2): "a", (2, 4): "a", (7, 9): "A", (9, 9): "A", (9, 8): "A"})
    play(state, (2, 4, D.DOWN), (7, 9, D.DOWN_RIGHT))
    assert state.verdict() == rules.Verdict(ONE, WinReason.FIRST_UNION)
    game = Piranhas2026Game(state)
    assert game.outcome() == Outcome(ONE, "ONE hat zuerst alle Fische einer Farbe vereinigt")
    assert game.score_parts(ONE) == ["3"] and game.score_parts(TWO) == ["3"]


def test_p10_bigger_swarm_beats_first_union():
    state = make({(0, 2): "a", (1, 2): "a", (2, 4): "a", (7, 9): "B", (9, 9): "B", (9, 8): "B"})
    play(state, (2, 4, D.DOWN), (7, 9, D.DOWN_RIGHT))
    assert state.first_union == ONE
    assert state.verdict() == rules.Verdict(TWO, WinReason.BIGGER_SWARM)


def test_p11_first_union_goes_to_the_victims_team():
    state = make({(0, 2): "a", (2, 2): "a", (6, 6): "b", (5, 2): "A", (9, 9): "A", (9, 8): "A"})
    play(state, (2, 2, D.RIGHT))
    assert state.first_union == TWO
    play(state, (9, 8, D.LEFT))
    assert state.verdict() == rules.Verdict(TWO, WinReason.FIRST_UNION)


def test_p12_blocked_at_odd_turn():
    ones = [(0, 1), (0, 2), (1, 0), (2, 0), (1, 1), (2, 2), (9, 8), (9, 7), (8, 9), (7, 9), (8, 8), (7, 7), (5, 5)]
    state = make({**{p: "a" for p in ones}, (0, 0): "A", (9, 9): "A"})
    play(state, (5, 5, D.LEFT))
    assert state.turn == 1 and state.legal_moves() == [] and state.is_over()
    assert Piranhas2026Game(state).outcome() == Outcome(
        ONE, "ONE hat den Gegner blockiert, sodass er keinen Zug mehr machen kann"
    )


def test_p13_round_limit_bigger_swarm_and_p14_tie():
    state = make({(0, 2): "a", (9, 2): "c", (0, 0): "A", (8, 0): "A", (5, 9): "A"}, turn=59)
    play(state, (8, 0, D.UP))
    assert state.turn == 60 and state.verdict() == rules.Verdict(ONE, WinReason.BIGGER_SWARM)
    state = make({(0, 2): "a", (9, 2): "a", (0, 0): "A", (8, 0): "A", (5, 9): "A"}, turn=59)
    play(state, (8, 0, D.UP))
    game = Piranhas2026Game(state)
    assert game.outcome() == Outcome(None, "Beide Spieler sind gleichauf")
    assert game.score_parts(ONE) == game.score_parts(TWO) == ["1"]


@pytest.mark.parametrize(
    "move, mistake, shown",
    [
        ((0, 0, D.UP), Mistake.WRONG_START, "WRONG_START"),
        ((1, 0, D.RIGHT), Mistake.WRONG_START, "WRONG_START"),
        ((0, 1, D.DOWN_RIGHT), Mistake.JUMP_OVER_OPPONENT, "JUMP_OVER_OPPONENT"),
        ((0, 4, D.LEFT), Mistake.DESTINATION_OUT_OF_BOUNDS, "Das Zielfeld liegt außerhalb des Spielfelds"),
    ],
    ids=["P15-empty", "P15-opponent", "P16", "P17"],
)
def test_p15_to_p17_on_the_start_board(move, mistake, shown):
    rejected = mistake_of(from_picture(L8), Move(*move))
    assert rejected.mistake is mistake
    assert rejected.exception_text == f"InvalidMoveException(mistake={shown}, move={Move(*move)})"


def test_move_to_string_is_the_official_one():
    assert str(Move(0, 1, D.DOWN_RIGHT)) == "Schwimme von [0|1] in Richtung DOWN_RIGHT"


# --- the server-facing game object ------------------------------------------------------------

def test_game_maps_rejections_and_off_board_starts():
    game = Piranhas2026Game(from_picture(L8))
    with pytest.raises(InvalidPiranhaMove) as info:
        game.apply(0, Move(0, 1, D.DOWN_RIGHT))
    assert info.value.reason == (
        "Gegnerische Piranhas können nicht übersprungen werden bei 'Schwimme von [0|1] in Richtung DOWN_RIGHT'"
    )
    assert info.value.detail == (
        "InvalidMoveException(mistake=JUMP_OVER_OPPONENT, move=Schwimme von [0|1] in Richtung DOWN_RIGHT)"
    )
    with pytest.raises(DroppedMove) as dropped:
        game.apply(0, Move(12, 3, D.UP))
    assert dropped.value.cause == "UNKNOWN"
    with pytest.raises(ValueError):
        game.apply(1, Move(1, 0, D.RIGHT))
    assert game.turn == 0  # nothing of the failed moves stuck


def test_reason_uses_display_name_or_team_name():
    state = make({(0, 2): "a", (1, 2): "a", (2, 4): "a", (7, 9): "A", (9, 9): "A", (9, 0): "A"})
    play(state, (2, 4, D.DOWN), (9, 0, D.UP))
    game = Piranhas2026Game(state)
    assert game.outcome().reason == "ONE hat den größeren zusammenhängenden Schwarm"
    game.set_display_names(("Alice", "Bob"))
    assert game.outcome().reason == "Alice hat den größeren zusammenhängenden Schwarm"
    game.set_display_names((" ", "Bob"))
    assert game.outcome().reason == "ONE hat den größeren zusammenhängenden Schwarm"


def test_team_without_fish_is_not_connected_and_weighs_minus_one():
    state = make({(0, 2): "a", (5, 5): "a", (9, 9): "A"}, turn=1)
    state.cells[99] = EMPTY
    assert not state.is_connected(TWO) and state.greatest_swarm(TWO) == -1
    assert state.is_over() and state.verdict() == rules.Verdict(ONE, WinReason.BLOCKED)


# --- playouts --------------------------------------------------------------------------------

def _all_moves(state: GameState):
    for c in range(100):
        for direction in DIRECTIONS:
            yield Move(c % 10, c // 10, direction)


def _check_agreement(state: GameState) -> None:
    generated = set(state.legal_moves())
    validated = {move for move in _all_moves(state) if state.is_legal(move)}
    assert generated == validated
    assert state.has_legal_move() == bool(generated)


# five whole games, about 300 positions, each checked against all 800 (cell, direction) moves:
# a generator/validator disagreement shows in many positions, not in one game of ten
@settings(max_examples=5, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_playouts_never_raise_and_generator_equals_validator(seed):
    rng = random.Random(seed)
    game = PLUGIN.new_game(rng)
    plies = 0
    while game.outcome() is None:
        _check_agreement(game.state)
        move = PLUGIN.random_move(game, rng)
        assert move is not None  # "no legal move" would have been an outcome
        game.apply(game.current_seat, move)
        plies += 1
        assert plies <= 60
    assert game.outcome().reason
    assert game.turn <= 60


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.sampled_from(FIELD_CHARS), min_size=100, max_size=100),
    st.integers(0, 70),
    st.sampled_from([None, ONE, TWO]),
)
def test_arbitrary_boards_never_raise(chars, turn, first_union):
    state = GameState.from_string("".join(chars), turn, first_union)
    _check_agreement(state)
    verdict = state.verdict()  # never raises, on any board
    if verdict is None:
        assert state.legal_moves()
    for move in state.legal_moves()[:5]:
        trial = state.copy()
        trial.perform(move)
        assert trial.turn == turn + 1
    for move in list(_all_moves(state))[::37]:
        try:
            state.copy().perform(move)
        except (MoveRejected, OffBoardStart):
            pass


def test_early_outcome_is_who_leads_now():
    """What a cancelled game is scored by (``currentWinner()``): the same order as at the end,
    without the game-over gate (a union at an odd turn counts, the swarm fragment decides else)."""
    start = Piranhas2026Game(from_picture(L8))
    assert start.outcome() is None
    assert start.early_outcome() == Outcome(None, "Beide Spieler sind gleichauf")  # mirrored start
    state = make({(0, 2): "a", (1, 2): "a", (2, 4): "a", (7, 9): "A", (9, 9): "A", (9, 0): "A"})
    play(state, (2, 4, D.DOWN))  # ONE united at turn 1: not over, but ONE leads by union
    game = Piranhas2026Game(state)
    assert game.outcome() is None
    assert game.early_outcome() == Outcome(ONE, "ONE hat den größeren zusammenhängenden Schwarm")
    loose = make({(0, 2): "a", (5, 5): "c", (0, 9): "A", (9, 9): "A", (9, 0): "B"})
    assert Piranhas2026Game(loose).early_outcome() == Outcome(ONE, "ONE hat den größeren zusammenhängenden Schwarm")
