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
- Block ``r`` of every pairing uses the same seed (derived from the tournament seed), so all
  pairings see the same boards, and blocks are interleaved round by round (block 0 of every
  pairing, then block 1, ...) so a tournament stopped early is still balanced.
"""

from __future__ import annotations

import itertools
import random
import re
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


def parse_bot(text: str) -> Bot:
    """``NAME=COMMAND`` as given to ``--bot``."""
    name, sep, command = text.partition("=")
    name = name.strip()
    if not sep or not command.strip():
        raise ScheduleError(f"--bot {text!r}: expected NAME=COMMAND, e.g. --bot mine='python bot.py --port {{port}}'")
    if not NAME.match(name):
        raise ScheduleError(f"--bot {text!r}: the name {name!r} may use letters, digits and _ . + - (1 to 40 characters)")
    return Bot(name, command.strip())


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


def schedule(names: list[str], fmt: str, games_per_pairing: int, seats: int, seed: int) -> list[Slot]:
    """Every game of the tournament in playing order."""
    if games_per_pairing < seats or games_per_pairing % seats:
        raise ScheduleError(
            f"--games-per-pairing {games_per_pairing}: must be a positive multiple of the {seats} seats "
            f"(every bot plays every seat equally often), e.g. {seats * max(1, games_per_pairing // seats)}"
        )
    groups = pairings(names, fmt, seats)
    slots: list[Slot] = []
    for block in range(games_per_pairing // seats):
        seed_of_block = block_seed(seed, block)
        for group in groups:
            block_key = f"r{block}/{'~'.join(group)}"
            for turn in range(seats):
                slots.append(Slot(
                    key=f"{block_key}/{turn}", index=len(slots), block=block_key, pairing=group,
                    seating=group[turn:] + group[:turn], seed=seed_of_block,
                ))
    return slots
