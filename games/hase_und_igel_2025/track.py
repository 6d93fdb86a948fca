"""The Hase und Igel 2025 track: 65 fields, fixed salads and hedgehogs, eleven shuffled stretches.

Why a module of its own: the track is the one random part of the game. Generation takes an
explicit ``random.Random`` and nothing else, so one seed gives one track; loading a track from a
state (or from a golden vector's letter string) needs no generator at all.

Spec-conformance notes (spec §2):
- The official server shuffles each stretch with an unseeded ``List.shuffled()``; here one RNG
  shuffles the eleven stretches in the spec's table order. Only the distribution matches the
  official server, no seed reproduces an official track.
- Stretch 20/21/23 fills its three shuffled fields in that index order (22 is a fixed salad).
- ``POSITION_3``/``POSITION_4`` are code-only aliases in the official plugin; the wire and this
  module know only the nine field names below.
"""

from __future__ import annotations

import random

START = "START"
CARROTS = "CARROTS"
HARE = "HARE"
SALAD = "SALAD"
HEDGEHOG = "HEDGEHOG"
MARKET = "MARKET"
POSITION_1 = "POSITION_1"
POSITION_2 = "POSITION_2"
GOAL = "GOAL"
FIELDS = (START, CARROTS, HARE, SALAD, HEDGEHOG, MARKET, POSITION_1, POSITION_2, GOAL)

SIZE = 65
GOAL_INDEX = SIZE - 1
LAST_SALAD = 57

LETTERS = {START: "0", CARROTS: "K", HARE: "H", SALAD: "S", HEDGEHOG: "I", MARKET: "M",
           POSITION_1: "1", POSITION_2: "2", GOAL: "Z"}
"""One letter per field kind, as the golden vectors write tracks."""
_BY_LETTER = {letter: kind for kind, letter in LETTERS.items()}

_FIXED: dict[int, str] = {0: START, 10: SALAD, 22: SALAD, 42: SALAD, 57: SALAD, GOAL_INDEX: GOAL}
_FIXED.update({i: HEDGEHOG for i in (11, 15, 19, 24, 30, 37, 43, 50, 56)})
_FIXED.update(zip(range(58, 64), (HARE, CARROTS, POSITION_1, CARROTS, HARE, CARROTS)))

# (indices filled in order, multiset shuffled into them), in the order the server generates them.
STRETCHES: tuple[tuple[tuple[int, ...], tuple[str, ...]], ...] = (
    (tuple(range(1, 10)), (HARE,) * 3 + (CARROTS,) * 3 + (POSITION_1, POSITION_2, MARKET)),
    ((12, 13, 14), (CARROTS, CARROTS, HARE)),
    ((16, 17, 18), (POSITION_1, POSITION_2, MARKET)),
    ((20, 21, 23), (CARROTS, CARROTS, POSITION_2)),
    (tuple(range(25, 30)), (HARE, CARROTS, CARROTS, MARKET, POSITION_2)),
    (tuple(range(31, 37)), (HARE, HARE, POSITION_1, CARROTS, CARROTS, POSITION_2)),
    (tuple(range(38, 42)), (CARROTS, CARROTS, HARE, POSITION_2)),
    (tuple(range(44, 50)), (CARROTS, CARROTS, MARKET, HARE, POSITION_2, POSITION_1)),
    (tuple(range(51, 56)), (HARE, CARROTS, CARROTS, POSITION_2, MARKET)),
)


def generate(rng: random.Random) -> tuple[str, ...]:
    """A fresh track drawn from ``rng`` only."""
    fields: list[str | None] = [None] * SIZE
    for index, kind in _FIXED.items():
        fields[index] = kind
    for indices, kinds in STRETCHES:
        shuffled = list(kinds)
        rng.shuffle(shuffled)
        for index, kind in zip(indices, shuffled):
            fields[index] = kind
    assert None not in fields
    return tuple(fields)  # type: ignore[arg-type]


def is_generated_shape(fields: tuple[str, ...]) -> bool:
    """True when ``fields`` is a track :func:`generate` could have drawn."""
    if len(fields) != SIZE or any(fields[i] != kind for i, kind in _FIXED.items()):
        return False
    return all(sorted(fields[i] for i in indices) == sorted(kinds) for indices, kinds in STRETCHES)


def from_letters(letters: str) -> tuple[str, ...]:
    return tuple(_BY_LETTER[letter] for letter in letters)


def to_letters(fields: tuple[str, ...]) -> str:
    return "".join(LETTERS[kind] for kind in fields)


def previous_hedgehog(fields: tuple[str, ...], position: int) -> int | None:
    """The nearest HEDGEHOG with an index below ``position`` (the target of a fallback)."""
    for index in range(min(position, len(fields)) - 1, -1, -1):
        if fields[index] == HEDGEHOG:
            return index
    return None
