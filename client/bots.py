"""The client layer's part of each wire family: its reference bot as ``swc bot GAME`` runs it,
and its own ``swc`` commands, one :class:`ClientFamily` each in :data:`FAMILIES`.

The XML family's games need no entry: ``swc bot GAME`` plays them with the one random bot of
client/bot.py through the game's plugin (games/registry.py). A family whose bot speaks its own
protocol states it here; ``swc bot`` joins a game to its family by the registry row's ``family``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from swc_local.client import reversixt_bot, roborally_bot


@dataclass(frozen=True)
class ClientFamily:
    name: str  # the registry's family name
    bot_main: Callable[[list[str]], int]  # argv -> exit code; given the game's bot_flags, --host, --port, --seed
    add_commands: Callable[[Any], None] | None = None  # the family's own swc commands (e.g. roborally-bot)


def _roborally_commands(commands) -> None:
    roborally = commands.add_parser("roborally-bot", help="play one Robo Rally game with a reference bot")
    roborally_bot.add_arguments(roborally)
    roborally.set_defaults(run=roborally_bot.run)


FAMILIES: tuple[ClientFamily, ...] = (
    ClientFamily("reversixt", reversixt_bot.main),
    ClientFamily("roborally", roborally_bot.main, _roborally_commands),
)


def family(name: str) -> ClientFamily | None:
    return next((entry for entry in FAMILIES if entry.name == name), None)
