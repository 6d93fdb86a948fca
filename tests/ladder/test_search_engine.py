"""client/search.py on a game small enough to know the answer: sticks, take 1 or 2, whoever takes
the last one wins (a multiple of 3 left to the player on turn loses)."""

from __future__ import annotations

import random

from swc_local.client import search
from swc_local.games.strategy import WIN


class Sticks:
    """A strategy module as an object: position = (sticks left, seat on turn)."""

    SHORT_NODES = 50
    LONG_NODES = 5_000

    def position(self, game):
        return game

    def seat(self, position):
        return position[1]

    def moves(self, position):
        return [take for take in (1, 2) if take <= position[0]]

    def play(self, position, move):
        return (position[0] - move, 1 - position[1])

    def over(self, position):
        return position[0] == 0

    def value(self, position, seat):
        if position[0] == 0:  # the seat that just moved took the last stick
            return WIN if position[1] != seat else -WIN
        return 0.0


def test_the_search_finds_the_winning_take_when_it_looks_deep_enough():
    for sticks in (4, 5, 7, 8, 10, 11):
        move = search.best_move(Sticks(), (sticks, 0), random.Random(1), nodes=100_000)
        assert (sticks - move) % 3 == 0, (sticks, move)


def test_the_same_seed_gives_the_same_move_and_a_lost_position_any_move():
    strategy = Sticks()
    answers = {search.best_move(strategy, (9, 0), random.Random(seed), nodes=100_000) for seed in range(20)}
    assert answers == {1, 2}  # every take loses: the seed breaks the tie
    for seed in range(5):
        first = search.best_move(strategy, (30, 0), random.Random(seed), nodes=200)
        assert first == search.best_move(strategy, (30, 0), random.Random(seed), nodes=200)


def test_a_budget_too_small_to_finish_a_depth_still_answers_with_a_legal_move():
    assert search.best_move(Sticks(), (30, 1), random.Random(3), nodes=1) in (1, 2)
    assert search.best_move(Sticks(), (0, 1), random.Random(3), nodes=10) is None


def test_greedy_takes_the_last_stick_when_it_can():
    assert search.greedy_move(Sticks(), (2, 0), random.Random(0)) == 2


class Triangle:
    """Three seats, two plies: seat 0 chooses ``a`` or ``b``, then seat 1 chooses the leaf.  After
    ``a`` seat 1 does best for itself with the leaf that is good for seat 0 too (its other leaf,
    worse for it, would ruin seat 0); after ``b`` every seat gets 0."""

    LEAVES = {("a", "keep"): (5, 3, 0), ("a", "spite"): (-10, 1, 9), ("b", "only"): (0, 0, 0)}

    def seat(self, position):
        return len(position)

    def moves(self, position):
        if self.over(position):
            return []
        return sorted({leaf[len(position)] for leaf in self.LEAVES if leaf[:len(position)] == position})

    def play(self, position, move):
        return (*position, move)

    def over(self, position):
        return len(position) == 2

    def value(self, position, seat):
        return float(self.LEAVES[position][seat]) if self.over(position) else 0.0


def test_max_n_expects_every_seat_to_play_for_itself_where_paranoid_expects_spite():
    strategy = Triangle()
    assert search.max_n_move(strategy, (), random.Random(1), nodes=100, seats=[0, 1, 2]) == "a"
    assert search.best_move(strategy, (), random.Random(1), nodes=100) == "b"  # paranoid: seat 1 ruins seat 0


def test_max_n_stops_when_every_line_reached_the_end_and_answers_within_a_tiny_budget():
    calls = []

    class Counted(Triangle):
        def play(self, position, move):
            calls.append(move)
            return super().play(position, move)

    assert search.max_n_move(Counted(), (), random.Random(1), nodes=1_000, seats=[0, 1, 2]) == "a"
    assert len(calls) == 2 + (2 + 3)  # depth 1, then depth 2 reached every end: no depth 3 to search
    assert search.max_n_move(Triangle(), (), random.Random(3), nodes=1, seats=[0, 1, 2]) in ("a", "b")
    assert search.max_n_move(Triangle(), ("b", "only"), random.Random(3), nodes=10, seats=[0, 1, 2]) is None
