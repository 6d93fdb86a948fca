"""The ladder: the reference opponents of graded strength every game offers, by name (a *rung*).

    random        a uniformly random legal move (every game)
    greedy        one ply on the game's own evaluation (a game's own greedy where it has one)
    search-short  client/search.py within the game's SHORT_NODES positions a move
    search-long   the same within LONG_NODES

Why node budgets: every rung is deterministic from ``--seed`` on any machine (client/search.py).
A game has the search rungs (and the generic greedy) once its folder has a ``strategy.py``
(games/strategy.py states the contract).
"""

from __future__ import annotations

import random
from typing import Any

from swc_local.client import search

RUNGS = ("random", "greedy", "search-short", "search-long")
SEARCH_RUNGS = {"search-short": "SHORT_NODES", "search-long": "LONG_NODES"}
GUARD_SECONDS = 1.6
"""The time guard of a search move (a game's strategy may name its own ``GUARD_SECONDS``): inside
the XML seasons' 2 s soft limit with room for the wire."""


def rungs(entry: Any) -> tuple[str, ...]:
    """The rungs ``entry``'s game offers, weakest first."""
    own_greedy = any(name == "greedy" for name, _ in entry.strengths)
    if entry.strategy is None:
        return ("random", "greedy") if own_greedy else ("random",)
    return RUNGS


def command(entry: Any, rung: str | None = None) -> list[str]:
    """The reference bot's command at ``rung`` (None: the game's default reference bot), with the
    runner's ``{host}``, ``{port}``, ``{reservation}`` and ``{seed}`` placeholders; ValueError
    naming the rungs the game offers if it has no ``rung``.

    Today the commands are still the entries' (``entry.bot_command``); the search rungs reach
    every XML season through ``swc bot GAME --strategy RUNG``."""
    if rung is None:
        return entry.bot_command()
    offered = rungs(entry)
    if rung not in offered:
        raise ValueError(f"rung {rung!r}: {entry.name} offers {', '.join(offered)}")
    if rung in dict(entry.strengths):
        return entry.bot_command(rung)
    args = entry.bot_command()
    return [*args, "--strategy", rung] if "--strategy" not in args else \
        [*args[:args.index("--strategy") + 1], rung, *args[args.index("--strategy") + 2:]]


def choose(strategy: Any, rung: str, game: Any, rng: random.Random) -> Any | None:
    """The move of ``rung`` for the seat on turn in ``game`` (what the reference bot holds)."""
    if strategy is None:
        raise ValueError(f"rung {rung!r} needs the game's strategy module, and this game has none")
    position = strategy.position(game)
    if rung == "greedy":
        return search.greedy_move(strategy, position, rng)
    if rung not in SEARCH_RUNGS:
        raise ValueError(f"unknown rung {rung!r}: one of {', '.join(RUNGS)}")
    return search.best_move(strategy, position, rng, getattr(strategy, SEARCH_RUNGS[rung]),
                            seconds=getattr(strategy, "GUARD_SECONDS", GUARD_SECONDS))
