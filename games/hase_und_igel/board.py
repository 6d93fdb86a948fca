"""The Hase und Igel 2018 board: 65 fields, a fixed skeleton with shuffled stretches (spec §1).

Why a module of its own: the board is the one random part of the game, and both the server (new
games) and loaders (a board taken from a state, which need not be one this generator could make,
e.g. the special boards of the official unit tests) need it.  Generation therefore takes an
explicit ``random.Random`` and does nothing else; validation is a separate, optional check.

Spec-conformance notes:
- "shuffle" in §1 is realised with ``rng.shuffle`` on a list built in the multiset order the
  spec's table lists; the stretches are shuffled in table order (1-9, 12-14, ..., 58-63), so one
  seed always yields one board.  The official server used an unseeded Java shuffle, so no seed
  reproduces an official board; only the distribution matters.
"""

from __future__ import annotations

import random
from collections import Counter

START = "START"
CARROT = "CARROT"
HARE = "HARE"
SALAD = "SALAD"
HEDGEHOG = "HEDGEHOG"
POSITION_1 = "POSITION_1"
POSITION_2 = "POSITION_2"
GOAL = "GOAL"
INVALID = "INVALID"  # any index outside 0..64; never on the board, never sent

SIZE = 65
GOAL_INDEX = 64

FIXED: dict[int, str] = {0: START, 10: SALAD, 22: SALAD, 42: SALAD, 57: SALAD, 64: GOAL}
FIXED.update({i: HEDGEHOG for i in (11, 15, 19, 24, 30, 37, 43, 50, 56)})

# (indices filled in order, multiset shuffled into them), in the order the spec generates them.
STRETCHES: tuple[tuple[tuple[int, ...], tuple[str, ...]], ...] = (
    (tuple(range(1, 10)), (HARE,) * 3 + (CARROT,) * 4 + (POSITION_1, POSITION_2)),
    ((12, 13, 14), (CARROT, CARROT, HARE)),
    ((16, 17, 18), (POSITION_1, POSITION_2, CARROT)),
    ((20, 21, 23), (CARROT, CARROT, POSITION_2)),
    (tuple(range(25, 30)), (HARE, CARROT, CARROT, CARROT, POSITION_2)),
    (tuple(range(31, 37)), (HARE, HARE, POSITION_1, POSITION_2, CARROT, CARROT)),
    (tuple(range(38, 42)), (CARROT, CARROT, HARE, POSITION_2)),
    (tuple(range(44, 50)), (CARROT, CARROT, CARROT, HARE, POSITION_1, POSITION_2)),
    (tuple(range(51, 56)), (HARE, CARROT, CARROT, CARROT, POSITION_2)),
    (tuple(range(58, 64)), (HARE, HARE, CARROT, CARROT, CARROT, POSITION_1)),
)


def generate(rng: random.Random) -> tuple[str, ...]:
    """A fresh random board (§1), drawn from ``rng`` only."""
    fields: list[str] = [""] * SIZE
    for index, kind in FIXED.items():
        fields[index] = kind
    for indices, multiset in STRETCHES:
        pool = list(multiset)
        rng.shuffle(pool)
        for index, kind in zip(indices, pool):
            fields[index] = kind
    return tuple(fields)


def problems(fields: tuple[str, ...] | list[str]) -> list[str]:
    """Why ``fields`` is not a board §1 could generate (empty list: it is one)."""
    found: list[str] = []
    if len(fields) != SIZE:
        return [f"board has {len(fields)} fields, expected {SIZE}"]
    for index, kind in FIXED.items():
        if fields[index] != kind:
            found.append(f"field {index} is {fields[index]}, expected {kind}")
    for indices, multiset in STRETCHES:
        got = Counter(fields[i] for i in indices)
        if got != Counter(multiset):
            found.append(f"fields {indices} hold {dict(got)}, expected {dict(Counter(multiset))}")
    return found


def previous_hedgehogs(fields: tuple[str, ...]) -> tuple[int, ...]:
    """For each index, the nearest HEDGEHOG at a lower index, or -1 (fallBack's target)."""
    result: list[int] = []
    last = -1
    for kind in fields:
        result.append(last)
        if kind == HEDGEHOG:
            last = len(result) - 1
    return tuple(result)
