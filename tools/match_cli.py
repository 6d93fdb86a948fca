"""``swc match GAME``: N games of any game of the registry between player commands.

One command for every game: the game comes from the registry, the options that only some
games know (``--map``, ``--soft-timeout``, ...) go to the game's family as they are, and a flag
that the game's family does not know is an error, not silently ignored.  Before the first game
every command is checked (:func:`~swc_local.tools.runner.check_command`); during the match a
command that cannot start, or whose first games all crash before it joins, stops it with a
one-line error (exit 2).  The exit code is otherwise 0 when every game ended with a result,
1 when one did not (or, with ``--fail-on-irregular``, when a game of the chosen player ended
other than REGULAR: the last line names the causes), and 128 + N after the signal N (SIGINT
130, SIGTERM 143, SIGHUP 129: tools/stopping.py): every bot's process group is stopped, the
table of the games finished so far is printed (also when none was), and its last lines name
those games and the signal.  Without ``--logs``
or ``--replays`` the commands' output goes to a temporary folder that is removed after a match
of regular games and kept (and named) when a game ended otherwise.
"""

from __future__ import annotations

import argparse
import logging
import shutil
import tempfile
from pathlib import Path

from swc_local.games import registry
from swc_local.server.cli import usage_error
from swc_local.tools.family_flags import add_match_flags, flag_for, given
from swc_local.tools.sandbox_flags import add_sandbox_flags, limits_of, sandbox_choice, sandbox_problem

log = logging.getLogger("swc")

def add_match_command(commands) -> None:
    match = commands.add_parser(
        "match", help=f"play N games between bot commands (any of the {len(registry.entries())} games) on in-process doors",
        description="Play N games between player commands. Games: " + ", ".join(registry.game_names()) + ".",
    )
    match.add_argument("game", metavar="GAME",
                       help="game type or short name: " + ", ".join(registry.game_names()))
    match.add_argument("--games", type=int, default=10, help="number of games (default 10)")
    match.add_argument("--player", action="append", default=[], metavar="CMD",
                       help="a player's command, once per seat in seat order or once for every seat (default: the "
                            "game's reference bot); {host} {port} {reservation} {seed} {game} {color} {player} are filled in")
    match.add_argument("--player1", metavar="CMD", help="player 1's command (the same as the first --player)")
    match.add_argument("--player2", metavar="CMD", help="player 2's command (default: the reference bot)")
    match.add_argument("--opponent", metavar="RUNG",
                       help="every seat but player 1's is the reference bot at this rung of the game's ladder: random, "
                            "greedy, search-short, search-long (each game offers those it has)")
    match.add_argument("--seats", "--players", type=int, dest="seats",
                       help="seats when one command (or none) is given (default: the game's fewest; a ReversiXT map fixes it)")
    match.add_argument("--seed", type=int, help="game i gets the board seed SEED+i (default: random, printed)")
    match.add_argument("--parallel", type=int, default=1, help="games at the same time (default 1)")
    match.add_argument("--replays", type=Path, help="write every game's replay or move log into this directory")
    match.add_argument("--logs", type=Path,
                       help="keep each command's output here (default: REPLAYS/logs, else a new temporary directory)")
    match.add_argument("--json", type=Path, metavar="FILE", help="write one JSON record per game (JSON lines)")
    match.add_argument("--csv", type=Path, metavar="FILE", help="write one CSV row per game")
    match.add_argument("--fail-on-irregular", nargs="?", const="all", metavar="PLAYER",
                       help="exit 1 when a game of PLAYER (player1, ...; alone: of any player) ended other than REGULAR "
                            "(a timeout, a rule violation, a crash), naming the causes; for CI")
    match.add_argument("--start-timeout", type=float, default=15.0, help="seconds a command gets to join (default 15)")
    match.add_argument("--game-timeout", type=float, default=900.0, help="seconds a game may take (default 900)")
    add_sandbox_flags(match)
    add_match_flags(match)  # each family's own (tools/<family>_match.py FLAGS)
    match.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import secrets
    import time

    import trio

    from swc_local.tools import families
    from swc_local.tools.match import MatchConfig, run_match
    from swc_local.tools.match_report import Progress, RecordWriter, irregular_line, results_table
    from swc_local.tools.players import kill_every_group
    from swc_local.tools.runner import CommandError, require_commands
    from swc_local.tools.stopping import stop_signals_as_interrupt

    game = registry.entry(args.game)
    if game is None:
        return usage_error("swc match", registry.unknown_game_message(args.game))
    adapter = families.family(game.family).adapter
    options = given(args)
    foreign = [key for key in options if key not in adapter.OPTIONS]
    if foreign:
        flag = flag_for(foreign[0])
        return usage_error("swc match", f"{flag} does not apply to {game.name} (a {game.family} game)")
    problem = adapter.check_options(game.game_type, options)
    if problem:
        return usage_error("swc match", f"{game.name}: {problem}")
    players = list(args.player)
    if args.opponent is not None:
        from swc_local.client import ladder

        if args.opponent not in ladder.rungs(game):
            return usage_error("swc match", f"--opponent {ladder.unknown_rung(game, args.opponent)}")
        if args.player2 or len(players) > 1:
            return usage_error("swc match", "--opponent seats the reference bot in every seat but player 1's: "
                                            "give one --player (or --player1), not --player2 or more players")
    if args.player1 or args.player2:
        from swc_local.client import ladder

        if players:
            return usage_error("swc match", "give either --player (repeatable) or --player1/--player2, not both")
        players = [args.player1 or ladder.command(game)] + ([] if args.opponent else [args.player2 or ladder.command(game)])
    if args.games < 1 or args.parallel < 1:
        return usage_error("swc match", f"--games and --parallel must be at least 1 (got {args.games} and {args.parallel})")
    seed = args.seed if args.seed is not None else secrets.randbits(31)
    temporary = not (args.logs or args.replays)
    logs = args.logs or (args.replays / "logs" if args.replays else Path(tempfile.mkdtemp(prefix="swc-match-logs-")))
    config = MatchConfig(
        game=game.game_type, games=args.games, players=players or None, opponent=args.opponent, seats=args.seats, seed=seed,
        parallel=args.parallel, replays=args.replays, logs=logs, start_timeout=args.start_timeout,
        game_timeout=args.game_timeout, options=options, limits=limits_of(args),
    )
    try:
        commands = config.commands()
    except ValueError as error:
        return usage_error("swc match", f"{game.name}: {error}")
    try:
        config.sandbox = sandbox_choice(args, [f"player{k + 1}" for k in range(len(commands))])
    except ValueError as error:
        return usage_error("swc match", str(error))
    watched = _watched_player(args.fail_on_irregular, len(commands))
    if watched is False:
        return 2
    try:
        require_commands([(f"player{k + 1}", command) for k, command in enumerate(commands)])
    except CommandError as error:
        return usage_error("swc match", str(error))
    sandboxed = config.sandboxed(commands)
    problem = sandbox_problem(config.limits, [c for k, c in enumerate(commands) if f"player{k + 1}" in sandboxed])
    if problem:
        return usage_error("swc match", problem)
    if not args.verbose:
        logging.getLogger("swc").setLevel(logging.WARNING)
    played = []
    progress = Progress(args.games)
    records = RecordWriter(args.json, args.csv, seats=len(commands))

    def on_game(record) -> None:
        played.append(record)
        records(record)
        progress(record)

    began = time.monotonic()
    code, stopped, signalled = None, None, None
    try:
        with stop_signals_as_interrupt() as signals:
            try:
                report = trio.run(run_match, config, on_game)
            except KeyboardInterrupt:  # Ctrl-C, SIGTERM, SIGHUP: every bot's process group was stopped
                code, signalled = signals.exit_status(), signals.describe()
            finally:
                kill_every_group()  # what an interrupted unwind (a second Ctrl-C) left
    except CommandError as error:
        code, stopped = 2, error
    finally:
        progress.close()
        records.close()
    keep = not temporary or any(not r.regular for r in played)
    if not keep:  # nothing to read in a temporary folder of regular games: remove it
        shutil.rmtree(logs, ignore_errors=True)
    if played or signalled:  # the games played so far, also after a signal or a command that cannot play
        why = signalled or ("a command cannot play (see below)" if stopped is not None else None)
        print(results_table(played, game=game.game_type, seed=seed, seconds=time.monotonic() - began,
                            commands=commands, total=args.games, logs=str(logs) if keep else None, stopped=why))
    if stopped is not None:
        usage_error("swc match", str(stopped), help=False)
    if code is not None:
        return code
    irregular = irregular_line(played, None if watched == "all" else watched) if watched else None
    if irregular:
        print(f"{irregular}: exit 1 (--fail-on-irregular)")
        return 1
    return 0 if report.complete else 1


def _watched_player(value: str | None, players: int) -> str | None | bool:
    """``--fail-on-irregular``'s player: None (not given), "all", or ``playerK``; False after
    the one-line error for a name no player has (e.g. the game's name given after the flag)."""
    names = [f"player{k + 1}" for k in range(players)]
    if value is None or value == "all" or value in names:
        return value
    usage_error("swc match", f"--fail-on-irregular {value}: no such player ({', '.join(names)}, or none for "
                             "every player); put GAME before the flag")
    return False
