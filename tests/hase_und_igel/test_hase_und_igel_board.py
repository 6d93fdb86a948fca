"""Board generation (spec §1): fixed skeleton, shuffled stretches, one board per seed."""

from __future__ import annotations

import random
from collections import Counter

from swc_local.games.hase_und_igel import board
from swc_local.games.hase_und_igel.entry import ENTRY as HASE_UND_IGEL_ENTRY

PLUGIN = HASE_UND_IGEL_ENTRY.plugin


def test_generated_boards_satisfy_section_1():
    for seed in range(2000):
        fields = board.generate(random.Random(seed))
        assert board.problems(fields) == [], seed
        assert Counter(fields) == {
            "HARE": 12, "CARROT": 25, "POSITION_1": 5, "POSITION_2": 8, "SALAD": 4,
            "HEDGEHOG": 9, "START": 1, "GOAL": 1}
        assert fields[11] == "HEDGEHOG" and fields[22] == "SALAD"


def test_generation_depends_only_on_the_rng():
    assert board.generate(random.Random(7)) == board.generate(random.Random(7))
    seen = {board.generate(random.Random(seed)) for seed in range(50)}
    assert len(seen) == 50


def test_every_stretch_is_shuffled():
    boards = [board.generate(random.Random(seed)) for seed in range(500)]
    for indices, multiset in board.STRETCHES:
        arrangements = Counter(tuple(b[i] for i in indices) for b in boards)
        assert len(arrangements) > 1
        for index in indices:  # every kind of the stretch shows up at every index of it
            assert {b[index] for b in boards} == set(multiset)


def test_new_game_uses_the_generated_board():
    game = PLUGIN.new_game(random.Random(3))
    assert game.state.board == board.generate(random.Random(3))
    assert game.turn == 0 and game.current_seat == 0


def test_problems_reports_broken_boards():
    fields = list(board.generate(random.Random(1)))
    fields[11], fields[12] = fields[12], fields[11]
    assert board.problems(fields)
    assert board.problems(fields[:64]) == ["board has 64 fields, expected 65"]


def test_previous_hedgehogs():
    fields = board.generate(random.Random(1))
    prev = board.previous_hedgehogs(fields)
    assert prev[11] == -1 and prev[12] == 11 and prev[15] == 11 and prev[16] == 15
    assert prev[64] == 56 and prev[0] == -1
