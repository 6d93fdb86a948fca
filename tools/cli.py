"""The ``swc`` command (the console script): every subcommand, and ``match`` and ``replay``.

The dispatcher lives here, outside server/, because its commands span the layers: the server's
(``serve``, ``reversixt``, ``roborally``: server/cli.py), the reference bots (``bot``,
``roborally-bot``: client/bot.py), admin scripting (client/admin_cli.py) and the bot author's tools.
Each module in :data:`COMMAND_MODULES` has ``add_commands(commands)``; a new subcommand is one
more module in that list (imported when the parser is built, so keep heavy imports inside the
command's function).
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from pathlib import Path

from swc_local.games import registry

log = logging.getLogger("swc")

COMMAND_MODULES = (
    "swc_local.server.cli",  # serve, reversixt, roborally
    "swc_local.client.bot",  # bot, roborally-bot
    "swc_local.tools.cli",  # match, replay
    "swc_local.client.admin_cli",  # admin
    "swc_local.tools.view",  # view (the browser viewer for files)
    "swc_local.tools.maps",  # maps (the bundled maps and courses)
    "swc_local.tools.tournament.cli",  # tournament
)


def build_parser() -> argparse.ArgumentParser:
    from swc_local.server.cli import new_parser, share_options

    parser, commands = new_parser()
    for name in COMMAND_MODULES:
        importlib.import_module(name).add_commands(commands)
    return share_options(parser)


def main(argv: list[str] | None = None) -> int:
    from swc_local.server.cli import run_command  # with every door module's pass-through commands

    return run_command(build_parser(), sys.argv[1:] if argv is None else argv)


def add_commands(commands) -> None:
    from swc_local.tools.match_cli import add_match_command  # all eight games, one runner

    add_match_command(commands)

    replay = commands.add_parser("replay", help="print a replay move by move, or check it against the rules")
    replay.add_argument("file", type=Path)
    replay.add_argument("--check", action="store_true", help="re-run the moves against the rules; exit 1 on a disagreement")
    replay.set_defaults(run=_replay)


def _replay(args: argparse.Namespace) -> int:
    """Each family reads its own files; the registry says which family a file name belongs to."""
    family = registry.family_for_file(args.file)
    if family is None:
        known = ", ".join(f"{' '.join(f.log_suffixes)} ({f.name})" for f in registry.FAMILIES)
        log.error("swc replay: %s is no replay or game log this tool knows (file names end in %s)", args.file, known)
        return 2
    return registry.function(family.replay)(args.file, args.check, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
