"""``swc tournament``: the command line of tournaments and of their reports.

::

    swc tournament GAME --bot NAME=COMMAND --bot ... [--format roundrobin|gauntlet]
    swc tournament GAME --bot ... --format league|champions|final-eight|contest [--games-per-encounter 6]
        [--group-size 20] [--advance 8]       (the Software-Challenge contest's formats: league.py)
        [--games-per-pairing N] [--concurrency K] --db FILE [--resume] [--seed S]
        [--sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 model=logistic] [--significance P --min-tests N]
        [--dask tcp://HOST:8786] [--replays DIR] [--logs DIR] [--map MAP] [--seats K] ...
        [--openings FILE|DIR [order=sequential|random] [plies=N]] [--bot-timeout NAME=MS]
        [--dask-files return|shared]
    swc tournament --resume --db FILE          (everything else from the database)
    swc tournament report DB [--json | --csv [standings|games|pairs|sprt]]
    swc tournament openings OUT (--count N [--seed S] | --from DIR [--plies P] [--count N])

Every error is one line naming the value and what is accepted, exit status 2. A bot command that
cannot be started at all is reported before any game is scheduled. Exit status 0 when every
scheduled game (or every game up to a stopping rule's decision) is in the database, 1 otherwise
(games that could not be played: ``--resume`` plays them); 2 also when a bot's command turned
out not to play at all (the tournament stops at once, as ``swc match`` does). SIGINT, SIGTERM and
SIGHUP stop it as ``swc match`` (tools/stopping.py): every bot's process group ends, the
standings and the games finished so far are printed, exit status 128 + the signal's number.

Replays are kept by default in ``NAME-replays/`` beside the database ``NAME.db`` (the run page
opens every game from there); ``--replays DIR`` puts them elsewhere.
"""

from __future__ import annotations

import argparse
import json
import logging
import secrets
import sys
from pathlib import Path

from swc_local.server.cli import usage_error
from swc_local.tools.family_flags import add_tournament_flags
from swc_local.tools.sandbox_flags import add_sandbox_flags
from swc_local.tools.tournament import binomial, league
from swc_local.tools.tournament.arguments import (
    DEFAULT_GAMES, SIGNIFICANCE_CAP, SPRT_CAP, UsageError, check_commands, settings_from,
)
from swc_local.tools.tournament.db import DatabaseError, ResultsDb
from swc_local.tools.tournament.openings import BookError
from swc_local.tools.tournament.schedule import ScheduleError

log = logging.getLogger("swc.tournament")

def add_commands(commands) -> None:
    parser = commands.add_parser(
        "tournament", help="round robin, gauntlet or SPRT between bot commands, kept in SQLite; 'report DB' prints one",
    )
    from swc_local.games import registry

    parser.add_argument("game", nargs="?", help="'report' to print the tournament in DB, 'openings' to write a book, or the game: " + ", ".join(registry.game_names()))
    parser.add_argument("report_db", nargs="?", type=Path, metavar="DB", help="with 'report': the tournament database; with 'openings': the book to write")
    parser.add_argument("--bot", action="append", default=[], metavar="NAME=COMMAND",
                        help="a bot: name and command ({host} {port} {reservation} {seed} {game} {color} are filled in), or "
                             "reference[:RUNG] for the game's reference bot at a rung of its ladder (random, greedy, "
                             "search-short, search-long); repeat")
    parser.add_argument("--format", default="roundrobin", help="roundrobin (everyone meets everyone), gauntlet (the first bot meets each other), "
                        "or the contest's: league (groups in match days), champions (then the best of each group), "
                        "final-eight (a knockout of the bots in seeding order), contest (groups, Champions League, Final Eight)")
    parser.add_argument("--games-per-pairing", "--games-per-encounter", type=int, help=f"games of each pairing, a multiple of the seats (default {DEFAULT_GAMES}; the cap with --sprt: {SPRT_CAP}, with --significance: {SIGNIFICANCE_CAP}); the contest's formats: games of an encounter (default {league.GAMES_PER_ENCOUNTER}, even)")
    parser.add_argument("--group-size", type=int, default=league.GROUP_SIZE, help=f"the contest's formats: teams per group, about (default {league.GROUP_SIZE})")
    parser.add_argument("--advance", type=int, default=league.ADVANCE, help=f"the contest's formats: the best of each group who play the Champions League (default {league.ADVANCE})")
    parser.add_argument("--concurrency", type=int, help="games at the same time (default 1; with --dask: the cluster's threads)")
    parser.add_argument("--db", type=Path, help="the results database (SQLite), written as every game ends")
    parser.add_argument("--resume", action="store_true", help="continue the tournament in --db where it stopped (--db alone is enough)")
    parser.add_argument("--openings", nargs="+", metavar="FILE", help="a book: board seeds or REPLAY@TURN a line, or a folder of replays; then order=sequential|random plies=N")
    parser.add_argument("--bot-timeout", action="append", default=[], metavar="NAME=MS", help="a bot's own limit per move: a slower move loses the game (TIME_LIMIT); repeat")
    parser.add_argument("--dask-files", choices=("return", "shared"), default="return", help="with --dask: replays and logs come back with each result (return, default) or are written to --replays/--logs on a shared folder (shared)")
    parser.add_argument("--seed", type=int, help="seed of the boards (default: random, stored in --db)")
    parser.add_argument("--sprt", nargs="+", metavar="KEY=VALUE", help="stop when the SPRT between the first two bots decides: elo0= elo1= alpha= beta= model=logistic|normalized")
    parser.add_argument("--significance", type=float, metavar="P", help="stop when one of two bots is significantly better (the test client's binomial rule)")
    parser.add_argument("--min-tests", type=int, default=binomial.DEFAULT_MIN_TESTS, help="with --significance: games before the first test (default 20)")
    parser.add_argument("--dask", metavar="ADDRESS", help="play the games as tasks on this Dask scheduler (tcp://HOST:8786)")
    parser.add_argument("--replays", type=Path, help="keep every game's replay in this directory (default: NAME-replays beside NAME.db)")
    parser.add_argument("--logs", type=Path, help="keep each bot's output in this directory")
    parser.add_argument("--start-timeout", type=float, default=15.0, help="seconds a bot gets to join (default 15)")
    parser.add_argument("--game-timeout", type=float, default=900.0, help="seconds after which a game counts as without result (default 900)")
    add_sandbox_flags(parser)
    parser.add_argument("--seats", type=int, help="seats per game where the game allows several (roborally: 2-6, default 2)")
    add_tournament_flags(parser)  # the families' (tools/<family>_match.py FLAGS)
    parser.add_argument("--json", action="store_true", help="with 'report': the report as JSON")
    parser.add_argument("--csv", nargs="?", const="standings", metavar="KIND", help="with 'report': CSV of standings (default), games, pairs or sprt (the LLR and Elo after every pair)")
    parser.add_argument("--count", type=int, help="with 'openings': how many openings")
    parser.add_argument("--from", dest="from_dir", type=Path, metavar="DIR", help="with 'openings': replays to take positions from (a match's --replays)")
    parser.add_argument("--plies", type=int, default=8, help="with 'openings --from': moves into each replay (default 8)")
    parser.set_defaults(run=main)


def main(args: argparse.Namespace) -> int:
    try:
        if args.game == "report":
            return _report(args)
        if args.game == "openings":
            return _openings(args)
        return _tournament(args)
    except (UsageError, ScheduleError, DatabaseError, BookError) as error:
        return usage_error("swc tournament", str(error))


def _report(args: argparse.Namespace) -> int:
    from swc_local.tools.tournament.core import Settings, Tournament
    from swc_local.tools.tournament.report import CSV_KINDS, csv_report, json_report

    if args.report_db is None:
        raise UsageError("report needs the database: swc tournament report FILE [--json | --csv]")
    if args.json and args.csv:
        raise UsageError("--json and --csv: give one of them")
    if args.csv is not None and args.csv not in CSV_KINDS:
        raise UsageError(f"--csv {args.csv!r}: accepted are {', '.join(CSV_KINDS)}")
    with ResultsDb(args.report_db, create=False) as db:
        stored = db.settings()
        if stored is None:
            raise DatabaseError(f"{args.report_db}: holds no tournament")
        tournament = Tournament(Settings.from_dict(stored), db)
        if args.json:
            print(json.dumps(json_report(tournament), indent=1))
        elif args.csv:
            sys.stdout.write(csv_report(tournament, args.csv))
        else:
            _print_report(tournament)
    return 0


def _openings(args: argparse.Namespace) -> int:
    from swc_local.tools.tournament.openings import write_positions, write_seeds

    if args.report_db is None:
        raise UsageError("openings needs the book to write: swc tournament openings OUT (--count N | --from DIR)")
    if args.count is not None and args.count < 1:
        raise UsageError(f"--count {args.count}: must be 1 or more")
    if args.from_dir is not None:
        if not args.from_dir.is_dir():
            raise UsageError(f"--from {args.from_dir}: no such folder of replays")
        if args.plies < 0:
            raise UsageError(f"--plies {args.plies}: must be 0 or more")
        lines = write_positions(args.from_dir, args.plies, args.count)
        if not lines:
            raise UsageError(f"--from {args.from_dir}: no replay there is still undecided after {args.plies} moves")
        what = f"{len(lines)} positions after {args.plies} moves of the replays in {args.from_dir}"
    else:
        if args.count is None:
            raise UsageError("openings: give --count N (board seeds) or --from DIR (positions from replays)")
        seed = args.seed if args.seed is not None else secrets.randbits(31)
        lines = write_seeds(args.count, seed)
        what = f"{len(lines)} board seeds (from --seed {seed})"
    try:
        args.report_db.write_text(f"# swc tournament openings: {what}\n" + "\n".join(lines) + "\n")
    except OSError as error:
        raise UsageError(f"cannot write {args.report_db}: {error.strerror or error}") from None
    print(f"{args.report_db}: {what}")
    return 0


def _tournament(args: argparse.Namespace) -> int:
    if not getattr(args, "verbose", False):  # the doors' per-connection lines would drown the table
        logging.getLogger("swc").setLevel(logging.WARNING)
    if args.report_db is not None:
        raise UsageError(f"unexpected argument {str(args.report_db)!r}; the database is given with --db FILE")
    if args.db is None:
        raise UsageError("--db FILE is needed: every finished game is written there (and --resume reads it)")
    from swc_local.tools.tournament.core import Settings, Tournament, check_schedule

    if args.game is None and not args.bot:
        if not args.resume:
            raise UsageError("the game is needed: swc tournament GAME --bot NAME=COMMAND ... --db FILE "
                             "(or --resume --db FILE to continue a tournament)")
        with ResultsDb(args.db, create=False) as db:
            stored = db.settings()
        if stored is None:
            raise DatabaseError(f"--db {args.db}: holds no tournament to resume")
        settings = Settings.from_dict(stored)
    else:
        if args.game is None:
            raise UsageError("the game is needed: swc tournament GAME --bot NAME=COMMAND ... --db FILE")
        settings = settings_from(args)
    check_schedule(settings)  # errors first
    check_commands(settings)
    tournament = Tournament.open(settings, args.db, resume=args.resume)
    from swc_local.tools.players import kill_every_group
    from swc_local.tools.stopping import stop_signals_as_interrupt

    try:
        with stop_signals_as_interrupt() as signals:
            try:
                complete = _play(tournament, args)
            finally:
                kill_every_group()  # what an interrupted unwind (a second Ctrl-C) left
    except BaseException as error:
        if not _interrupted(error):
            raise
        _print_stopped(tournament, args.db, signals.describe())
        return signals.exit_status()
    finally:
        tournament.db.close()
    if tournament.broken:
        print(f"swc tournament: error: {tournament.broken}; the tournament stops ({len(tournament.stored)} games "
              f"are in {args.db})", file=sys.stderr)
        return 2
    for key, count in tournament.retried:
        print(f"game {key} was played again after {count} worker(s) died running it (stored once)", file=sys.stderr)
    _print_report(tournament)
    return 0 if complete else 1


def _print_stopped(tournament, db: Path, why: str) -> None:
    """After a stop signal: the standings and each game finished so far (stdout), then why and how
    to go on (stderr); the games are in the database already, ``--resume`` plays the rest."""
    from swc_local.tools.match_report import game_line

    if tournament.stored:
        _print_report(tournament)
        print("finished before the stop:")
        for item in tournament.stored:
            print(f"  game {item.key}: {game_line(item.result)}")
    print(f"stopped by {why}: {len(tournament.stored)} games are in {db}; --resume continues", file=sys.stderr)


def _interrupted(error: BaseException) -> bool:
    """Ctrl-C, also inside the exception groups of trio's nurseries."""
    if isinstance(error, BaseExceptionGroup):
        return error.subgroup(KeyboardInterrupt) is not None
    return isinstance(error, KeyboardInterrupt)


def _play(tournament, args: argparse.Namespace) -> bool:
    from swc_local.tools.tournament.live import LiveView

    with LiveView(tournament):
        if args.dask:
            return _play_on_dask(tournament, args)
        if tournament.broken:  # a resumed run whose command already failed
            return False
        import trio

        from swc_local.tools.tournament.executors import play_locally

        trio.run(play_locally, tournament, args.concurrency or 1)
    return tournament.broken is None and (tournament.verdict is not None or not tournament.pending())


def _play_on_dask(tournament, args: argparse.Namespace) -> bool:
    from swc_local.tools.tournament.executors import DaskUnavailable, connect, play_on_dask

    try:
        client = connect(args.dask)
    except DaskUnavailable as error:
        raise UsageError(str(error)) from None
    with client:
        failed = play_on_dask(tournament, client, args.concurrency)
    if failed:
        print(f"{len(failed)} games could not be played (see the log); --resume plays them", file=sys.stderr)
    return not failed and (tournament.verdict is not None or not tournament.pending())


def _print_report(tournament) -> None:
    from rich.console import Console

    from swc_local.tools.tournament.report import text_report

    console = Console(soft_wrap=False, width=200 if not sys.stdout.isatty() else None)
    console.print(text_report(tournament, width=console.width if sys.stdout.isatty() else None))
