"""The ``swc`` command (the console script): every subcommand, and ``match`` and ``replay``.

The dispatcher lives here, outside server/, because its commands span the layers: the server's
(``serve``, ``reversixt``, ``roborally``: server/cli.py), the reference bots (``bot``,
``roborally-bot``: client/bot.py), admin scripting (client/admin_cli.py) and the bot author's tools.
Each module in :func:`build_parser`'s list has ``add_commands(commands)``; a new subcommand is one
more module there (imported with this one, so keep heavy imports inside the command's function).

``swc bot`` is the reference bot, one process per seat of every game a match, a tournament or
the suite plays: :func:`main` gives it a parser of the bot commands alone, so such a process
imports neither the server's doors nor the admin and tournament tools (a third of the start-up
CPU of the whole parser). Its words, help and errors are the same as in the whole parser.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from swc_local.client import bot
from swc_local.server import cli as server_cli
from swc_local.server.cli import new_parser

log = logging.getLogger("swc")


def build_parser() -> argparse.ArgumentParser:
    """Every subcommand: the server's (serve and each family's own), the bots', the bot author's."""
    from swc_local.client import admin_cli, ladder
    from swc_local.tools import check_cli, maps, rate_cli, view
    from swc_local.tools.tournament import cli as tournament_cli

    parser, commands = new_parser()
    server_cli.add_commands(commands, opponents=ladder)  # the viewer's tables seat the ladder's bots
    for add in (bot.add_commands, add_commands, admin_cli.add_commands, view.add_commands, maps.add_commands,
                tournament_cli.add_commands, check_cli.add_commands, rate_cli.add_commands):
        add(commands)
    # swc serve's tables take client archives as command seats: the server never imports tools/,
    # so the swc command lends it the archives' resolution (tools/archive.py)
    commands.choices["serve"].set_defaults(run=_serve_with_archives)
    return server_cli.share_options(parser)


def _serve_with_archives(args: argparse.Namespace) -> int:
    from swc_local.tools.archive import table_command

    return server_cli.serve_command(args, command_resolver=table_command)


def bot_parser() -> argparse.ArgumentParser:
    """``swc bot`` and the bot families' own commands, as :func:`build_parser` has them."""
    parser, commands = new_parser()
    bot.add_commands(commands)
    return server_cli.share_options(parser)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["bot"]:  # no pass-through command starts with "bot"
        return server_cli.run_command(bot_parser(), argv, passthrough_commands={})
    return server_cli.run_command(build_parser(), argv)


def add_commands(commands) -> None:
    from swc_local.tools.match_cli import add_match_command  # every game, one runner

    add_match_command(commands)

    replay = commands.add_parser("replay", help="print a replay move by move, or check it against the rules")
    replay.add_argument("file", type=Path)
    replay.add_argument("--check", action="store_true", help="re-run the moves against the rules; exit 1 on a disagreement")
    replay.set_defaults(run=_replay)


def _replay(args: argparse.Namespace) -> int:
    """Each family reads its own files; tools/families.py says which family a file name belongs to."""
    from swc_local.tools import families

    family = families.family_for_file(args.file)
    if family is None:
        known = ", ".join(f"{' '.join(f.log_suffixes)} ({f.name})" for f in families.FAMILIES)
        return server_cli.usage_error("swc replay", f"{args.file} is no replay or game log this tool knows "
                                                    f"(file names end in {known})")
    return family.read_replay(args.file, args.check, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
