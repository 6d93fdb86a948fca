"""``swc check ARCHIVE --game G``: the contest system's test of a client, before it may play.

Plays a short series against the reference bot (tools/archive_check.py) and prints one table:
joined, moved legally, kept its time, ended regularly, peak memory and CPU time per game; exit 0
only when every game passes, 1 when one does not, 2 for a command line that cannot run (a broken
archive, an unknown game: one line, no traceback).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from swc_local.games import registry
from swc_local.server.cli import usage_error


def add_commands(commands) -> None:
    check = commands.add_parser(
        "check", help="test a client archive (or command) as the contest system does before activation",
        description="Play a short series of ARCHIVE against the game's reference bot, seats swapped, and print "
                    "whether it joined, moved legally, kept its time and ended regularly, with its peak memory and CPU.",
    )
    check.add_argument("archive", metavar="ARCHIVE",
                       help="team.zip, team.zip:MAIN, with extra parameters after it in one quoted word, or a bot command")
    check.add_argument("--game", required=True, help="game type or short name: " + ", ".join(registry.game_names()))
    check.add_argument("--games", type=int, default=2, help="games to play, seats swapped game by game (default 2)")
    check.add_argument("--seed", type=int, default=1, help="board seed of the first game (default 1)")
    check.add_argument("--start-timeout", type=float, default=15.0, help="seconds the client gets to join (default 15)")
    check.add_argument("--game-timeout", type=float, default=300.0, help="seconds a game may take (default 300)")
    check.add_argument("--logs", type=Path, help="keep the client's output here")
    check.add_argument("--json", action="store_true", help="print the report as JSON")
    check.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import logging

    import trio

    from swc_local.tools.archive import ArchiveError
    from swc_local.tools.archive_check import run_check, table_lines
    from swc_local.tools.players import kill_every_group
    from swc_local.tools.runner import CommandError
    from swc_local.tools.stopping import stop_signals_as_interrupt

    game = registry.entry(args.game)
    if game is None:
        return usage_error("swc check", registry.unknown_game_message(args.game))
    if args.games < 1:
        return usage_error("swc check", f"--games {args.games}: expected at least 1")
    if not args.verbose:
        logging.getLogger("swc").setLevel(logging.WARNING)
    try:
        with stop_signals_as_interrupt() as signals:
            try:
                report = trio.run(lambda: run_check(args.archive, game.game_type, games=args.games, seed=args.seed,
                                                    start_timeout=args.start_timeout, game_timeout=args.game_timeout,
                                                    logs=args.logs))
            except KeyboardInterrupt:  # Ctrl-C, SIGTERM: every bot's process group was stopped
                print(f"swc check: stopped by {signals.describe()}; no verdict", file=sys.stderr)
                return signals.exit_status()
            finally:
                kill_every_group()
    except ArchiveError as error:
        return usage_error("swc check", str(error), help=False)
    except CommandError as error:
        return usage_error("swc check", str(error), help=False)
    if args.json:
        print(json.dumps(report.to_dict(), indent=2))
    else:
        print("\n".join(table_lines(report)))
    return 0 if report.passed else 1
