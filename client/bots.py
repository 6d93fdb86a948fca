"""The client layer's part of each wire family: its reference bot (how ``swc bot GAME`` runs it
and the command a match, a table or a fixture starts), its rungs, and its own ``swc`` commands,
one :class:`ClientFamily` each in :data:`FAMILIES`.

The XML family's games need no entry: ``swc bot GAME`` plays them with the one bot of
client/bot.py through the game's plugin (games/registry.py), whose command is client/ladder.py's
``XML_BOT``.  A family whose bot speaks its own protocol states it here; ``swc bot`` joins a
game to its family by the registry row's ``family``.

Why the commands are here and not in games/: the games layer does not know its clients (issue
42); client/ladder.py :func:`~swc_local.client.ladder.command` builds every reference bot's
command from these values.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from swc_local.client import reversixt_bot, roborally_bot

PYTHON = "{python}"
"""The interpreter running the tools (venv-safe) in a reference bot's command, filled in by
client/ladder.py ``command``."""


def strategy_flags(rung: str) -> tuple[str, ...]:
    """The usual way a bot takes its rung: ``--strategy RUNG``."""
    return ("--strategy", rung)


def _roborally_flags(rung: str) -> tuple[str, ...]:
    # the Robo Rally bot's own spelling of its two rungs; a search rung as --strategy
    return {"greedy": ("--greedy",), "random": ()}.get(rung, ("--strategy", rung))


@dataclass(frozen=True)
class ClientFamily:
    name: str  # the registry's family name
    bot_main: Callable[[list[str]], int]  # argv -> exit code; given the rung's flags, --host, --port, --seed
    add_commands: Callable[[Any], None] | None = None  # the family's own swc commands (e.g. roborally-bot)
    module: str = ""  # the bot as a process: ``{python} -m MODULE``
    connect: tuple[str, ...] = ("--host", "{host}", "--port", "{port}", "--seed", "{seed}")  # the runner's placeholders
    rungs: tuple[str, ...] = ("random",)  # what the bot plays without the game's strategy module, weakest first
    default_rung: str = "random"  # the reference bot when no rung is chosen
    rung_flags: Callable[[str], tuple[str, ...]] = strategy_flags

    def command(self, rung: str | None = None) -> list[str]:
        """The reference bot's command at ``rung`` (None: the default rung), placeholders unfilled."""
        return [PYTHON, "-m", self.module, *self.rung_flags(rung or self.default_rung), *self.connect]


def _roborally_commands(commands) -> None:
    roborally = commands.add_parser("roborally-bot", help="play one Robo Rally game with a reference bot")
    roborally_bot.add_arguments(roborally)
    roborally.set_defaults(run=roborally_bot.run)


FAMILIES: tuple[ClientFamily, ...] = (
    ClientFamily("reversixt", reversixt_bot.main, module="swc_local.client.reversixt_bot",
                 rungs=("random", "greedy"), default_rung="greedy"),
    ClientFamily("roborally", roborally_bot.main, _roborally_commands, module="swc_local.client.roborally_bot",
                 rungs=("random", "greedy"), default_rung="greedy", rung_flags=_roborally_flags),
)


def family(name: str) -> ClientFamily | None:
    return next((entry for entry in FAMILIES if entry.name == name), None)
