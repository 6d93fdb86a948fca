"""What only Hase und Igel 2025's strategy has (games/hase_und_igel_2025/strategy.py): the goal's
carrot limit while a salad is still to eat; the rungs' tests it shares with the other games are
in test_rungs.py."""

from __future__ import annotations

import random

from swc_local.client import search
from swc_local.games import registry
from swc_local.games.hase_und_igel_2025.state import EAT_SALAD, Hare, State
from swc_local.games.hase_und_igel_2025.track import generate

NAME = "hase_und_igel_2025"
TRACK = generate(random.Random(7))  # 56..64 are fixed: hedgehog, salad, H K 1 K H K, goal


def near_the_goal(carrots: int) -> State:
    """ONE on 61 (a carrots field) with one salad and an EAT_SALAD card to eat it with on 62;
    TWO far behind."""
    one = Hare("ONE", position=61, salads=1, carrots=carrots, cards=[EAT_SALAD])
    two = Hare("TWO", position=17, salads=5, carrots=40)
    return State(TRACK, turn=30, hares=(one, two))


def test_carrots_beyond_the_goals_limit_cost_turns_while_a_salad_is_left():
    """The salad brings carrots too, and three fields cannot spend them: a hare that holds 40
    more needs about four more turns (dropping 10 a turn).  Counted only once the salads were
    eaten, both looked a turn and a half from the goal, and the search changed carrots back and
    forth on 61 instead of eating its last salad."""
    strategy = registry.entry(NAME).strategy
    rich = strategy.turns_to_finish(TRACK, near_the_goal(56).hares[0])
    poor = strategy.turns_to_finish(TRACK, near_the_goal(16).hares[0])
    assert rich - poor >= 3.5


def test_the_greedy_rung_finishes_from_one_salad_before_the_goal():
    """The greedy rung plays both hares from :func:`near_the_goal`: ONE reaches the goal within
    ten of its turns (it used to take +10 and -10 carrots in turn, never eating the salad)."""
    strategy = registry.entry(NAME).strategy
    for seed in range(4):
        position, rng = near_the_goal(56), random.Random(seed)
        for _ in range(20):
            if strategy.over(position):
                break
            position = strategy.play(position, search.greedy_move(strategy, position, rng))
        assert position.hares[0].position == 64, (seed, position.hares[0])
