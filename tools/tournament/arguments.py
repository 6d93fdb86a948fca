"""The ``swc tournament`` arguments turned into tournament settings, each error one line.

Kept apart from :mod:`.cli` (the parser and the run) so the checks read as one list: bot names
and commands, format, seats and family options from the registry, the SPRT's keys and bounds, the
test client's ``--significance`` limits, the cap on games.
"""

from __future__ import annotations

import argparse

from swc_local.tools.tournament import binomial, league, sprt
from swc_local.tools.tournament.schedule import FORMATS, parse_bot

DEFAULT_GAMES = 2  # per pairing; the cap of an --sprt run is 1000, of a --significance run 100
SPRT_CAP = 1000
SIGNIFICANCE_CAP = 100


class UsageError(Exception):
    """One line for the user; exit status 2."""


def settings_from(args: argparse.Namespace):
    """The tournament's :class:`~swc_local.tools.tournament.core.Settings`, or UsageError."""
    from swc_local.tools.tournament.core import Settings

    bots = [parse_bot(text) for text in args.bot]
    contest = args.format in league.LEAGUE_FORMATS
    if args.format not in FORMATS and not contest:
        raise UsageError(f"--format {args.format!r}: accepted are {', '.join(FORMATS + league.LEAGUE_FORMATS)}")
    if args.concurrency is not None and args.concurrency < 1:
        raise UsageError(f"--concurrency {args.concurrency}: must be 1 or more")
    game, seats, options = _game(args)
    bots = [_reference(bot, game) for bot in bots]
    sprt_settings = _sprt(args.sprt) if args.sprt else None
    significance = None
    if args.significance is not None:
        if not 0 < args.significance < 1:
            raise UsageError(f"--significance {args.significance:g}: must be between 0 and 1, e.g. 0.05")
        if args.min_tests < 1:
            raise UsageError(f"--min-tests {args.min_tests}: must be 1 or more")
        significance = {"level": args.significance, "min_tests": args.min_tests}
    if (sprt_settings or significance) and (len(bots) != 2 or seats != 2):
        raise UsageError("--sprt and --significance compare exactly two bots in a two-player game; give two --bot")
    if contest and (sprt_settings or significance or args.openings):
        raise UsageError(f"--format {args.format}: plays encounters of the contest; --sprt, --significance and "
                         f"--openings belong to the other formats")
    cap = SPRT_CAP if sprt_settings else SIGNIFICANCE_CAP if significance else DEFAULT_GAMES
    if contest:
        cap = league.GAMES_PER_ENCOUNTER
    openings, order, book = _openings(args, game, seats)
    if openings and args.games_per_pairing is None and not (sprt_settings or significance):
        cap = len(openings) * seats  # each opening once per pairing
    games = args.games_per_pairing if args.games_per_pairing is not None else max(cap, seats)
    limits = _time_limits(args.bot_timeout, [bot.name for bot in bots], game)
    if significance and games > binomial.MAX_GAMES:
        raise UsageError(f"--games-per-pairing {games}: with --significance at most {binomial.MAX_GAMES} games (as the test client)")
    return Settings(
        game=game, bots=[(bot.name, bot.command) for bot in bots], format=args.format, games_per_pairing=games,
        seats=seats, seed=args.seed, sprt=sprt_settings, significance=significance, options=options,
        start_timeout=args.start_timeout, game_timeout=args.game_timeout,
        replays=str((args.replays or _beside(args.db, "replays")).resolve()),
        logs=str(args.logs.resolve()) if args.logs else None,
        openings=[o.to_dict() for o in openings] if openings else None, openings_order=order, book=book, time_limits=limits,
        dask_files=args.dask_files, group_size=getattr(args, "group_size", league.GROUP_SIZE),
        advance=getattr(args, "advance", league.ADVANCE), sandboxed=_sandboxed(args, bots),
    )


def _sandboxed(args: argparse.Namespace, bots) -> dict[str, dict]:
    """Bot name -> its sandbox's limits, for the bots that run sandboxed (tools/sandbox_flags.py)."""
    from dataclasses import asdict

    from swc_local.tools.sandbox_flags import chosen, limits_of, sandbox_choice

    try:
        choice = sandbox_choice(args, [bot.name for bot in bots])
    except ValueError as error:
        raise UsageError(str(error).replace("; put GAME before the flag", "")) from None
    limits = asdict(limits_of(args))
    return {bot.name: dict(limits) for bot in bots if chosen(choice, bot.name, bot.command)}


REFERENCE = "reference"
"""``--bot NAME=reference`` (the game's reference bot) or ``--bot NAME=reference:RUNG`` (at a rung
of its ladder): the command comes from client/ladder.py, so a gauntlet against the ladder needs
no command spelt out."""


def _reference(bot, game: str):
    """``bot`` with a ``reference[:RUNG]`` command replaced by the reference bot's command;
    UsageError naming the rungs the game offers for one it does not."""
    import shlex

    from swc_local.client import ladder
    from swc_local.games import registry

    text = bot.command.strip() if isinstance(bot.command, str) else ""
    word, _, rung = text.partition(":")
    if word != REFERENCE:
        return bot
    entry = registry.entry(game)
    try:
        command = ladder.command(entry, rung or None)
    except ValueError as error:
        raise UsageError(f"--bot {bot.name}={text}: {error}") from None
    return type(bot)(bot.name, shlex.join(command))


def _beside(db, what: str):
    """``NAME-replays`` beside ``NAME.db``."""
    from pathlib import Path

    db = Path(db)
    return db.with_name(f"{db.stem}-{what}")


def _openings(args: argparse.Namespace, game: str, seats: int):
    """(the book as written, its order, where it came from) or (None, "sequential", None)."""
    if not args.openings:
        return None, "sequential", None
    from swc_local.tools.tournament.games import loads_positions
    from swc_local.tools.tournament.openings import check_positions, parse_options, read_book

    path, order, plies = parse_options(args.openings)
    book = read_book(path, plies)
    check_positions(book, game, loads_positions(game))
    return book, order, f"{path} (order={order})"


def _time_limits(items: list[str], names: list[str], game: str) -> dict[str, int]:
    limits = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not value.isdigit() or int(value) < 1:
            raise UsageError(f"--bot-timeout {item!r}: expected NAME=MS, e.g. --bot-timeout {names[0]}=1000")
        if name not in names:
            raise UsageError(f"--bot-timeout {item!r}: no --bot is called {name!r} ({', '.join(names)})")
        limits[name] = int(value)
    if limits:
        from swc_local.tools.tournament.games import times_moves

        if not times_moves(game):
            raise UsageError("--bot-timeout needs a game whose moves are timed: the Software-Challenge games")
    return limits


def _sprt(items: list[str]) -> dict:
    values: dict = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or key not in ("elo0", "elo1", "alpha", "beta", "model"):
            raise UsageError(f"--sprt {item!r}: expected KEY=VALUE with KEY one of elo0, elo1, alpha, beta, model")
        if key == "model":
            if value not in sprt.MODELS:
                raise UsageError(f"--sprt model={value!r}: accepted are {', '.join(sprt.MODELS)}")
            values[key] = value
            continue
        try:
            values[key] = float(value)
        except ValueError:
            raise UsageError(f"--sprt {key}={value!r}: expected a number") from None
    test = sprt.Sprt(**values)
    if not test.elo0 < test.elo1:
        raise UsageError(f"--sprt elo0={test.elo0:g} elo1={test.elo1:g}: elo0 must be below elo1")
    for key in ("alpha", "beta"):
        if not 0 < getattr(test, key) < 0.5:
            raise UsageError(f"--sprt {key}={getattr(test, key):g}: must be between 0 and 0.5, e.g. 0.05")
    return values


def _game(args: argparse.Namespace) -> tuple[str, int, dict]:
    """The game type, its seat count and the runner's per-family options."""
    from swc_local.tools.tournament.games import resolve

    from swc_local.tools.family_flags import given

    options = given(args, tournament=True)
    try:
        return resolve(args.game, options, args.seats)
    except ValueError as error:
        raise UsageError(str(error)) from None


def check_commands(settings) -> None:
    """UsageError naming the first bot whose command cannot be started at all."""
    from swc_local.tools.runner import check_command

    for name, command in settings.bots:
        reason = check_command(command)
        if reason is not None:
            raise UsageError(f"--bot {name}: the command cannot be started: {reason}")
    from swc_local.tools.sandbox import Limits
    from swc_local.tools.sandbox_flags import sandbox_problem

    for name, limits in settings.sandboxed.items():
        reason = sandbox_problem(Limits(**limits), [dict(settings.bots)[name]])
        if reason is not None:
            raise UsageError(f"--bot {name}: {reason}")
