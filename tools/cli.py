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

import trio

from swc_local.games import registry

log = logging.getLogger("swc")

COMMAND_MODULES = (
    "swc_local.server.cli",  # serve, reversixt, roborally
    "swc_local.client.bot",  # bot, roborally-bot
    "swc_local.tools.cli",  # match, replay
    "swc_local.client.admin_cli",  # admin
    "swc_local.tools.tournament.cli",  # tournament
)


def _reversixt_match(argv: list[str]) -> int:
    from swc_local.tools.reversixt_match import main as reversixt_match

    return reversixt_match(argv)


def build_parser() -> argparse.ArgumentParser:
    from swc_local.server.cli import new_parser

    parser, commands = new_parser()
    for name in COMMAND_MODULES:
        importlib.import_module(name).add_commands(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    from swc_local.server.cli import PASSTHROUGH, run_command

    # ReversiXT seats and maps, not the XML lobby's options
    passthrough = {**PASSTHROUGH, ("match", "reversixt"): _reversixt_match}
    return run_command(build_parser(), sys.argv[1:] if argv is None else argv, passthrough)


def add_commands(commands) -> None:
    match = commands.add_parser("match", help="play N games between two bot commands on an in-process server")
    match.add_argument("game", help="game type or short name: " + ", ".join(registry.game_types()))
    match.add_argument("--games", type=int, default=10, help="number of games (default 10)")
    match.add_argument("--player1", help="command of player 1 (default: the reference bot); {port} and {reservation} are filled in")
    match.add_argument("--player2", help="command of player 2 (default: the reference bot)")
    match.add_argument("--seed", type=int, help="seed for the boards and the {seed} of the bots (default: random, printed)")
    match.add_argument("--parallel", type=int, default=1, help="games at the same time (default 1)")
    match.add_argument("--replays", type=Path, help="write every game's replay into this directory")
    match.add_argument("--load-game", help="start every game from a replay's state (with --turn)")
    match.add_argument("--turn", type=int, default=0, help="turn of --load-game to start from (default 0)")
    match.add_argument("--soft-timeout", type=int, metavar="MS", help="soft move time limit (default: the game's, 2000)")
    match.add_argument("--hard-timeout", type=int, metavar="MS", help="hard move time limit (default: the game's, 10000)")
    match.add_argument("--start-timeout", type=float, default=15.0, help="seconds a bot gets to join (default 15)")
    match.add_argument("--logs", type=Path, help="keep each bot's output in this directory")
    match.add_argument("--map", help="roborally: the map (default Dizzy Highway)")
    match.add_argument("--player", action="append", help="roborally: one command per seat (2-6), or one for all seats; {host} {port} {seed}")
    match.add_argument("--players", type=int, help="roborally: number of seats when one --player is given (default 2)")
    match.add_argument("--max-rounds", type=int, default=40, help="roborally: end a game without winner after this many rounds (default 40)")
    match.add_argument("--timer", dest="rr_timer", type=float, help="roborally: programming timer in seconds (default 30)")
    match.set_defaults(run=_match)

    replay = commands.add_parser("replay", help="print a replay move by move, or check it against the rules")
    replay.add_argument("file", type=Path)
    replay.add_argument("--check", action="store_true", help="re-run the moves against the rules; exit 1 on a disagreement")
    replay.set_defaults(run=_replay)


def _match(args: argparse.Namespace) -> int:
    if args.game == "roborally":  # its own wire family and runner (issue 16)
        from swc_local.tools.roborally_match import run_cli

        return run_cli(args)
    from swc_local.tools.match import MatchConfig, run_match
    from swc_local.tools.match_report import Progress, results_table
    from swc_local.server.replay import ReplayError

    plugin = registry.get(registry.resolve(args.game))
    if plugin is None:
        log.error("unknown game %r (known: %s)", args.game, ", ".join(registry.game_types()))
        return 2
    if not args.verbose:
        logging.getLogger("swc").setLevel(logging.WARNING)
    config = MatchConfig(
        plugin=plugin, games=args.games, player1=args.player1, player2=args.player2, seed=args.seed,
        parallel=args.parallel, replays=args.replays, load_game=args.load_game, turn=args.turn,
        soft_timeout_ms=args.soft_timeout, hard_timeout_ms=args.hard_timeout,
        start_timeout=args.start_timeout, logs=args.logs,
    )
    try:
        report = trio.run(run_match, config, Progress(args.games))
    except ReplayError as error:
        log.error("%s", error)
        return 2
    except KeyboardInterrupt:
        return 130
    except BaseExceptionGroup as group:  # trio >= 0.25 wraps errors from inside nurseries
        if group.subgroup(KeyboardInterrupt) is not None:
            return 130
        raise
    print(results_table(report))
    return 0 if report.complete else 1


def _replay(args: argparse.Namespace) -> int:
    from swc_local.tools import reversixt_replay  # ReversiXT move logs (log_game.txt)

    if reversixt_replay.is_move_log(args.file):
        return reversixt_replay.main(args.file, args.check)
    if args.file.suffix == ".jsonl":  # a Robo Rally game log (issue 16)
        from swc_local.tools.roborally_replay import print_log

        return print_log(args.file, sys.stdout)
    from swc_local.server.replay import ReplayError, read_replay
    from swc_local.tools.replay_check import check_replay, print_replay

    try:
        replay = read_replay(args.file)
    except ReplayError as error:
        log.error("%s", error)
        return 2
    if not args.check:
        print_replay(replay, sys.stdout)
        return 0
    report = check_replay(replay)
    for note in report.notes:
        print(f"note: {note}")
    if report.ok:
        print(f"ok: {report.moves_checked} moves and the result agree with the rules")
        return 0
    print(f"disagreement after {report.moves_checked} agreeing moves: {report.disagreement}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
