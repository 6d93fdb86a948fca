"""``swc rate "BOT COMMAND" --game G``: the bot's Elo on its game's ladder (docs/manual/rate.md).

::

    swc rate "python my_bot.py --host {host} --port {port} --reservation {reservation}" --game penguins
        [--games 40] [--seed S] [--parallel K] [--json] [--replays DIR] [--logs DIR] [--ladder FILE]
        [--sandbox [bot] | --no-sandbox] [--memory-limit MB] [--process-limit N] [--cpu-limit SECONDS]

The bot plays game pairs (one board, seats swapped) against the ladder's rungs, chosen round by
round near its current estimate (tools/rate.py), through the match runner; then the Elo with its
95 % interval and the rungs directly below and above it are printed (``--json``: one JSON object
on standard output).  Progress goes to standard error: a rich progress bar on a terminal, one
line per game elsewhere.  A game the bot lost other than by the rules (it crashed, hung, never
joined, broke a rule) is listed with its cause.  A client archive plays sandboxed unless
``--no-sandbox``, as in ``swc match`` (the same flags and limits: tools/sandbox_flags.py).

Every error is one line naming the value and what is accepted, exit status 2: an unknown game, a
game whose ladder is not calibrated yet, an odd ``--games``, a command that cannot start (also
one that crashes before joining in its first games).  Exit status 0 when the bot got a rating,
1 when no game ended with a result; 128 + N after the signal N, with what was played so far.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import secrets
from pathlib import Path

from swc_local.server.cli import usage_error
from swc_local.tools.sandbox_flags import add_sandbox_flags

PROG = "swc rate"
DEFAULT_GAMES = 40


def add_commands(commands) -> None:
    parser = commands.add_parser("rate", help="rate a bot: its Elo on the game's ladder of reference bots, with a 95 %% interval")
    parser.add_argument("bot", metavar="COMMAND",
                        help="the bot's command, one string; {host} {port} {reservation} {seed} {game} {color} are filled in")
    parser.add_argument("--game", required=True, help="game type or short name")
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES, help=f"games in all, an even number (default {DEFAULT_GAMES})")
    parser.add_argument("--seed", type=int, help="seed of the boards and the reference bots (default: random, printed)")
    parser.add_argument("--parallel", type=int, default=1, help="games at the same time, up to 4 (default 1)")
    parser.add_argument("--json", action="store_true", help="print the rating as one JSON object")
    parser.add_argument("--replays", type=Path, help="keep every game's replay in this directory")
    parser.add_argument("--logs", type=Path, help="keep each command's output in this directory")
    parser.add_argument("--ladder", type=Path, help="the ladder's Elo table to rate against (default: the calibrated one)")
    parser.add_argument("--start-timeout", type=float, default=15.0, help="seconds a command gets to join (default 15)")
    parser.add_argument("--game-timeout", type=float, default=900.0, help="seconds a game may take (default 900)")
    add_sandbox_flags(parser)
    parser.set_defaults(run=main)


class UsageError(Exception):
    pass


def main(args: argparse.Namespace) -> int:
    try:
        session = _session(args)
    except UsageError as error:
        return usage_error(PROG, str(error))
    if not getattr(args, "verbose", False):  # the doors' per-connection lines would drown the progress
        logging.getLogger("swc").setLevel(logging.WARNING)
    return _play(session, args)


def _session(args: argparse.Namespace):
    from swc_local.games import registry
    from swc_local.tools.rate import NotRatable, Session, calibrated_ladder
    from swc_local.tools.runner import check_command

    entry = registry.entry(args.game)
    if entry is None:
        raise UsageError(f"--game: {registry.unknown_game_message(args.game)}")
    if args.games < 2 or args.games % 2:
        raise UsageError(f"--games {args.games}: an even number, 2 or more (the games come in pairs, seats swapped)")
    if args.parallel < 1:
        raise UsageError(f"--parallel {args.parallel}: must be 1 or more")
    if not args.bot.strip():
        raise UsageError("the bot's command is empty: give it as one string, e.g. \"python my_bot.py --port {port}\"")
    problem = check_command(args.bot)
    if problem:
        raise UsageError(f"the bot's command cannot be started: {problem}")
    if args.ladder is not None and not args.ladder.is_file():
        raise UsageError(f"--ladder {args.ladder}: no such file")
    try:
        found, commands = calibrated_ladder(entry, args.ladder)
    except NotRatable as error:
        raise UsageError(str(error)) from None
    seed = args.seed if args.seed is not None else secrets.randbits(31)
    return Session(entry.game_type, args.bot, found, commands, args.games, seed, args.parallel,
                   args.start_timeout, args.game_timeout, args.replays, args.logs, _sandboxed(args))


def _sandboxed(args: argparse.Namespace) -> dict:
    """The bot's sandbox as ``swc match`` chooses it (an archive sandboxed unless --no-sandbox)."""
    from swc_local.tools.rate import BOT
    from swc_local.tools.sandbox_flags import chosen, limits_of, sandbox_choice, sandbox_problem

    try:
        choice = sandbox_choice(args, [BOT])
    except ValueError as error:
        raise UsageError(str(error)) from None
    if not chosen(choice, BOT, args.bot):
        return {}
    limits = limits_of(args)
    problem = sandbox_problem(limits, [args.bot])
    if problem:
        raise UsageError(problem)
    return {BOT: limits}


def _play(session, args: argparse.Namespace) -> int:
    import trio

    from swc_local.tools.players import kill_every_group
    from swc_local.tools.rate_report import Progress, report_json, report_text
    from swc_local.tools.runner import CommandError
    from swc_local.tools.stopping import stop_signals_as_interrupt

    code = stopped = None
    signalled = None
    with Progress(session) as progress:
        try:
            with stop_signals_as_interrupt() as signals:
                try:
                    trio.run(session.run, progress.on_game)
                except KeyboardInterrupt:
                    code, signalled = signals.exit_status(), signals.describe()
                finally:
                    kill_every_group()
        except CommandError as error:
            stopped = error
    if args.json:
        print(json.dumps(report_json(session, signalled), indent=1))
    else:
        print(report_text(session, signalled))
    if stopped is not None:
        return usage_error(PROG, str(stopped), help=False)
    if code is not None:
        return code
    rating = session.rating()
    return 0 if rating is not None and not math.isnan(rating.elo) else 1

