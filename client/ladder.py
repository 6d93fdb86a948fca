"""The ladder: the reference opponents of graded strength every game offers, by name (a *rung*).

    random        a uniformly random legal move (every game)
    greedy-N      greedy's move on N % of the moves, a random one on the others (where the game's
                  strategy names N in ``GREEDY_SHARES``)
    greedy        one ply on the game's own evaluation (a game's own greedy where it has one)
    search-short  client/search.py within the game's SHORT_NODES positions a move
    search-long   the same within LONG_NODES

Why node budgets: every rung is deterministic from ``--seed`` on any machine (client/search.py).
A game has the search rungs (and the generic greedy) once its folder has a ``strategy.py``
(games/strategy.py states the contract).

Why the greedy-N rungs: in some games greedy wins every game against random, and a gap that goes
all one way has no upper bound however many games are played; the mixed rungs split it into steps
a calibration can measure (each at least 100 Elo, benchmarks/ladder.py), and they grade the bots
a student writes first, which often sit between random and greedy.  A game names the shares that
split its own gap (its strategy's ``GREEDY_SHARES``, measured: its docs page's table).
"""

from __future__ import annotations

import random
import re
import sys
from typing import Any

from swc_local.client import bots, search
from swc_local.client.bots import PYTHON
from swc_local.client.mixed_rungs import greedy_share, unmixed  # noqa: F401 (the ladder's names for them)

RUNGS = ("random", "greedy", "search-short", "search-long")
"""The rungs every game with a strategy offers (a game may add greedy-N rungs between random and
greedy: :func:`rungs`)."""
SEARCH_RUNGS = {"search-short": "SHORT_NODES", "search-long": "LONG_NODES"}
GUARD_SECONDS = 1.6
"""The time guard of a search move (a game's strategy may name its own ``GUARD_SECONDS``): inside
the XML seasons' 2 s soft limit with room for the wire."""


XML_BOT = (PYTHON, "-m", "swc_local.client.bot")
"""How every XML season's reference bot starts: client/bot.py as a module (``swc bot GAME``'s
code, with the interpreter of the running tools), followed by the game and the runner's
placeholders. A module attribute: a test that adds a season to the registry's tuple (which a bot
process started by the runner cannot see) points it at a module that adds the season first."""


def rungs(entry: Any) -> tuple[str, ...]:
    """The rungs ``entry``'s game offers, weakest first: every rung where the game has a strategy
    module; else its family's bot's (client/bots.py), or for an XML season random, and greedy
    where its plugin has its own ``greedy_move``."""
    if entry.strategy is not None:
        mixed = tuple(f"greedy-{share}" for share in getattr(entry.strategy, "GREEDY_SHARES", ()))
        return (RUNGS[0], *mixed, *RUNGS[1:])
    family = bots.family(entry.family)
    if family is not None:
        return family.rungs
    return ("random", "greedy") if hasattr(entry.parts.plugin, "greedy_move") else ("random",)


def default_rung(entry: Any) -> str:
    """The rung of the game's reference bot when none is chosen (today's bot: random for the XML
    seasons, greedy for ReversiXT and Robo Rally)."""
    family = bots.family(entry.family)
    return family.default_rung if family is not None else "random"


def unknown_rung(entry: Any, rung: str) -> str:
    """The one line naming the rungs ``entry``'s game offers (every CLI's and the page's error)."""
    return f"rung {rung!r}: {entry.name} offers {', '.join(rungs(entry))}"


def command(entry: Any, rung: str | None = None) -> list[str]:
    """The reference bot's command at ``rung`` (None: the game's default reference bot), with the
    runner's ``{host}``, ``{port}``, ``{reservation}`` and ``{seed}`` placeholders; ValueError
    naming the rungs the game offers if it has no ``rung``.

    The one place every reference bot's command comes from (the games layer names no client):
    an XML season's is :data:`XML_BOT` with ``--strategy RUNG``, another family's is its
    :class:`~swc_local.client.bots.ClientFamily`'s. Without a rung the command is today's
    (no ``--strategy`` for the XML seasons), so seeded games stay byte-identical."""
    if rung is not None and rung not in rungs(entry):
        raise ValueError(unknown_rung(entry, rung))
    family = bots.family(entry.family)
    if family is not None:
        args = family.command(rung)
    else:
        args = [*XML_BOT, entry.game_type, "--host", "{host}", "--port", "{port}", "--reservation", "{reservation}",
                "--seed", "{seed}", *(("--strategy", rung) if rung is not None else ())]
    return [sys.executable if arg == PYTHON else arg for arg in args]


def opponent_command(entry: Any, opponent: str | list[str] | None) -> str | list[str]:
    """What a pytest fixture's ``opponent`` means: a rung's name (one word, ``"search-short"``) is
    the reference bot at that rung, None the default reference bot, anything else (a list, or a
    string with a space or a placeholder) a command as given. ValueError naming the rungs the game
    offers for a word it does not offer: a one-word command could not be told where to connect."""
    if opponent is None or (isinstance(opponent, str) and re.fullmatch(r"[\w.-]+", opponent)):
        return command(entry, opponent)
    return opponent


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
