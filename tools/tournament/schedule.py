"""Which games a tournament plays, in which seats, on which boards: a deterministic list.

Every game gets a *key* that depends only on the tournament's settings (bots, format, games per
pairing, seat count) and its seed, never on timing, so ``--resume`` can tell the games already in
the database from those still to play, and a game retried on another machine is still the same
game.

- A *pairing* is a group of bots that meets: two bots in a two-player game, ``seats`` bots in a
  multi-player game (all groups for a round robin; for a gauntlet the first bot with every group
  of the others).
- A pairing plays in *blocks*: the same board (seed) once per seat rotation. A two-player block is
  a game pair, seats swapped; a k-seat block is k games in which the group rotates by one seat,
  so every bot sits in every seat equally often. ``--games-per-pairing`` must therefore be a
  multiple of the seat count.
- Block ``r`` of every pairing uses the same board (derived from the tournament seed, or opening
  ``r`` of an ``--openings`` book, cycled when the book is shorter), so all pairings see the same
  boards, and blocks are interleaved round by round (block 0 of every pairing, then block 1, ...)
  so a tournament stopped early is still balanced.
- The order a k-seat block rotates (its *base order*, :func:`seating_design`): when the blocks of
  a pairing are a multiple of (k-1)!, every base order once per cycle, so the games use every one
  of the k! seat orders equally often; otherwise a *balanced* design: each block takes the base
  order that keeps the counts of "bot x sits right before bot y" (cyclically, as turns go) most
  even. A two-player block is always the pair.
- Every bot gets its own ``{seed}`` in every game (:func:`bot_seed`): from the tournament seed,
  the bot's name and the game's key. So the two games of a pair give a bot different seeds, and
  two copies of one seeded bot do not replay one game with the colours swapped.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
import re
from collections import Counter
from dataclasses import dataclass

FORMATS = ("roundrobin", "gauntlet")
NAME = re.compile(r"^[A-Za-z0-9_.+-]{1,40}$")


class ScheduleError(ValueError):
    """Settings that cannot make a tournament (the message names the value and what is accepted)."""


@dataclass(frozen=True)
class Bot:
    name: str
    command: str | list[str]


@dataclass(frozen=True)
class Slot:
    """One scheduled game."""

    key: str  # unique, deterministic: "r{block}/{bots of the pairing}/{game in the block}"
    index: int  # position in the schedule
    block: str  # the key of its pair or rotation (the games that share a board)
    pairing: tuple[str, ...]  # the bots of the pairing, in bot order
    seating: tuple[str, ...]  # the bots in seat order
    seed: int
    bot_seeds: tuple[int, ...] = ()  # each seat's {seed}, in seat order
    opening: str | None = None  # the opening's label (book runs): "seed 17" or "replay.xml@8"
    options: tuple[tuple[str, object], ...] = ()  # runner options of the opening (load_game, turn)


def parse_bot(text: str) -> Bot:
    """``NAME=COMMAND`` as given to ``--bot``."""
    name, sep, command = text.partition("=")
    name = name.strip()
    if not sep or not command.strip():
        raise ScheduleError(f"--bot {text!r}: expected NAME=COMMAND, e.g. --bot mine='python bot.py --port {{port}}'")
    if not NAME.match(name):
        raise ScheduleError(f"--bot {text!r}: the name {name!r} may use letters, digits and _ . + - (1 to 40 characters)")
    return Bot(name, command.strip())


def bot_seed(seed: int, name: str, key: str) -> int:
    """The ``{seed}`` of bot ``name`` in the game ``key``: its own stream, new in every game."""
    return random.Random(f"swc-tournament/{seed}/bot/{name}/{key}").getrandbits(31)


def block_seed(seed: int, block: int) -> int:
    """The board seed of block ``block`` (the same for every pairing)."""
    return random.Random(f"swc-tournament/{seed}/{block}").getrandbits(31)


def pairings(names: list[str], fmt: str, seats: int) -> list[tuple[str, ...]]:
    if len(set(names)) != len(names):
        raise ScheduleError(f"--bot names must differ: {', '.join(names)}")
    if fmt not in FORMATS:
        raise ScheduleError(f"--format {fmt!r}: accepted are {', '.join(FORMATS)}")
    if len(names) < 2:
        raise ScheduleError(f"a tournament needs at least 2 bots, got {len(names)}")
    if len(names) < seats:
        raise ScheduleError(f"this game has {seats} seats but only {len(names)} bots were given; give at least {seats} --bot")
    if fmt == "roundrobin":
        return list(itertools.combinations(names, seats))
    first, others = names[0], names[1:]
    return [(first, *group) for group in itertools.combinations(others, seats - 1)]


def seating_design(group: tuple[str, ...], blocks: int) -> tuple[str, list[tuple[str, ...]]]:
    """(design name, the base order of each block): ``"pairs"``, ``"every order"`` or ``"balanced"``."""
    seats = len(group)
    if seats == 2:
        return "pairs", [group] * blocks
    bases = [(group[0], *rest) for rest in itertools.permutations(group[1:])]
    if blocks % len(bases) == 0:
        return "every order", [bases[b % len(bases)] for b in range(blocks)]
    found = _decomposition(seats)
    cycles = [tuple(group[i] for i in order) for order in found] if found is not None else None
    if cycles is not None:  # each bot right before each other exactly once per len(cycles) blocks
        return "balanced", [cycles[b % len(cycles)] for b in range(blocks)]
    before: Counter = Counter()
    used: Counter = Counter()
    chosen = []
    for _ in range(blocks):
        def cost(base: tuple[str, ...]) -> tuple:
            after = before + Counter(_neighbours(base))
            counts = [after[(x, y)] for x in group for y in group if x != y]
            return max(counts) - min(counts), sum(c * c for c in counts), used[base]
        best = min(bases, key=cost)  # min keeps the first of equals: deterministic
        chosen.append(best)
        before.update(_neighbours(best))
        used[best] += 1
    return "balanced", chosen


@functools.lru_cache(maxsize=None)
def _decomposition(seats: int, budget: int = 20000) -> tuple[tuple[int, ...], ...] | None:
    """k-1 base orders (of seat numbers) in which every bot sits right before every other exactly
    once (a split of the complete directed graph into Hamiltonian cycles: none exists for 4 and 6
    seats), found by a search of at most ``budget`` steps; None if none was found."""
    bases = [(0, *rest) for rest in itertools.permutations(range(1, seats))]
    steps = [0]

    def extend(chosen: list, taken: set) -> list | None:
        if len(chosen) == seats - 1:
            return list(chosen)
        for base in bases:
            steps[0] += 1
            if steps[0] > budget:
                return None
            if chosen and base <= chosen[-1]:  # each set once, in order
                continue
            pairs = set(_neighbours(base))
            if pairs & taken:
                continue
            found = extend(chosen + [base], taken | pairs)
            if found is not None:
                return found
        return None

    found = extend([], set())
    return tuple(found) if found is not None else None


def _neighbours(order: tuple[str, ...]) -> list[tuple[str, str]]:
    """Who sits right before whom, turn after turn (the last seat is followed by the first)."""
    return [(order[i], order[(i + 1) % len(order)]) for i in range(len(order))]


def seating_note(seats: int, games_per_pairing: int) -> str:
    """What the report says about the seat orders of a multi-player tournament."""
    if seats == 2:
        return "pairs: one board, seats swapped"
    orders = math.factorial(seats)
    if (games_per_pairing // seats) % math.factorial(seats - 1) == 0:
        return f"seating: every one of the {orders} seat orders, equally often"
    return (f"seating: balanced (every seat equally often, each bot right before each other bot as evenly as "
            f"{games_per_pairing} games allow; all {orders} orders need a multiple of {orders} games per pairing)")


def schedule(names: list[str], fmt: str, games_per_pairing: int, seats: int, seed: int,
             openings: list | None = None) -> list[Slot]:
    """Every game of the tournament in playing order.

    ``openings`` (book runs): block ``r`` is played from ``openings[r % len(openings)]``, an
    :class:`~swc_local.tools.tournament.openings.Opening` (its board seed, or a replay position).
    """
    if games_per_pairing < seats or games_per_pairing % seats:
        raise ScheduleError(
            f"--games-per-pairing {games_per_pairing}: must be a positive multiple of the {seats} seats "
            f"(every bot plays every seat equally often), e.g. {seats * max(1, games_per_pairing // seats)}"
        )
    groups = pairings(names, fmt, seats)
    blocks = games_per_pairing // seats
    designs = {group: seating_design(group, blocks)[1] for group in groups}
    slots: list[Slot] = []
    for block in range(blocks):
        opening = openings[block % len(openings)] if openings else None
        seed_of_block = opening.board_seed(seed, block) if opening else block_seed(seed, block)
        for group in groups:
            block_key = f"r{block}/{'~'.join(group)}"
            base = designs[group][block]
            for turn in range(seats):
                key = f"{block_key}/{turn}"
                seating = base[turn:] + base[:turn]
                slots.append(Slot(
                    key=key, index=len(slots), block=block_key, pairing=group, seating=seating, seed=seed_of_block,
                    bot_seeds=tuple(bot_seed(seed, name, key) for name in seating),
                    opening=opening.label if opening else None,
                    options=tuple(sorted(opening.options().items())) if opening else (),
                ))
    return slots
