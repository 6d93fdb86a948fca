"""The calibration of a game's ladder: a round robin of its rungs through ``swc tournament``'s
machinery, every rung's Elo fitted from all pairs at once (random = 0), written into
``tools/ladder_elo.json`` (what ``swc rate`` reads) and into the game's docs page.

::

    python -m benchmarks.ladder --game penguins [--games-per-pairing 40] [--concurrency 1]
        [--seed 1] [--db ladder-penguins.db] [--rungs random,greedy,...] [--until 50]
        [--ratings FILE] [--page FILE]

``--until 50`` goes on after the round robin with runs of two neighbouring rungs until every gap
between neighbours is known to ±50 Elo (95 %), issue 45's bound (benchmarks/ladder_narrow.py).
The games go to an SQLite database (``--db``, default ``ladder-GAME.db`` here): an interrupted
run continues where it stopped when started again with the same arguments, and a larger
``--games-per-pairing`` needs a new database (the schedule is another).  Every rung is the
reference bot's own command (``client.ladder.command``), a real client of an in-process door, as
in ``swc match``.  The fit is tools/rating.py's ``fit_field``; the run checks that neighbouring
rungs are at least 100 Elo apart and says which are not (exit 1 then, after writing the table:
a ladder with too few distinct strengths is still a measurement).  Last it prints each rung's
irregular ends (lost on time, by an illegal move, by leaving, no result: issue 45 wants 0) and,
on lines apart, the Mississippi Queen ships that got stuck (``STUCK``: an end by the rules that
the 2024 server marks ``regular="false"``) and the Robo Rally games with no winner after the
runner's rounds (``ROUND_LIMIT``: a result), :func:`irregular_ends`.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import subprocess
import sys
from collections import Counter
from pathlib import Path

from benchmarks import ladder_narrow
from swc_local.client import ladder as rungs_of
from swc_local.games import registry
from swc_local.tools import ladder_table
from swc_local.tools.rating import Game, fit_field_covariance, gap_half_width
from swc_local.tools.results import REGULAR, ROUND_LIMIT, STUCK
from swc_local.tools.tournament.standings import pair_score

ROOT = Path(__file__).resolve().parent.parent


def docs_page(entry) -> Path:
    """The game's docs page: docs/games/<package>.md, a family's own page for ReversiXT and Robo Rally."""
    package = type(entry).__module__.split(".")[2]
    page = ROOT / "docs" / "games" / f"{package}.md"
    return page if page.exists() else ROOT / "docs" / "families" / f"{package}.md"


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ladder", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True, help="game type or short name")
    parser.add_argument("--games-per-pairing", type=int, default=40, help="games of each pair of rungs (even; default 40)")
    parser.add_argument("--concurrency", type=int, default=1, help="games at the same time (default 1: the budgets are per move)")
    parser.add_argument("--seed", type=int, default=1, help="the tournament's seed (default 1)")
    parser.add_argument("--db", type=Path, help="the games (SQLite, resumable; default ladder-GAME-N.db here)")
    parser.add_argument("--rungs", help="comma-separated rungs to calibrate (default: every rung the game offers)")
    parser.add_argument("--ratings", type=Path, default=ladder_table.DEFAULT_FILE, help="the ratings file to update")
    parser.add_argument("--page", type=Path, help="the docs page to write the table into (default: the game's)")
    parser.add_argument("--also", action="append", type=Path, default=[], metavar="DB",
                        help="the games of another calibration database of this game join the fit (e.g. a run of only "
                             "the two rungs whose gap is least sure); repeat")
    parser.add_argument("--until", type=float, metavar="ELO",
                        help="then play runs of two neighbouring rungs (databases beside --db) until every gap between "
                             "neighbours is known to +-ELO (95 %%), e.g. 50 (benchmarks/ladder_narrow.py)")
    parser.add_argument("--fit-only", action="store_true",
                        help="play nothing: fit and write the table from the games already in --db (a run stopped early)")
    return parser.parse_args(argv)


def games_of(tournament) -> list[Game]:
    """Every two-seat game with a result, as (first seat, second seat, first seat's score)."""
    found = []
    for item in tournament.stored:
        result = item.result
        if result.ok and len(result.seats) == 2:
            first, second = result.seats
            found.append(Game(first.name, second.name, pair_score(first.rank, second.rank)))
    return found


def irregular_ends(*tournaments) -> dict[str, Counter]:
    """Per rung, its own seats' ends other than REGULAR by cause over every game of
    ``tournaments`` (the run's and its ``--also`` ones), a game without a result as
    ``no result``.  Issue 45's "irregular ends" of a rung (lost on time, by an illegal move, by
    leaving: 0 wanted) are every cause but the two in :data:`COUNTED_APART`: a ship that cannot
    move is an end by the rules that the 2024 server marks ``regular="false"``, and a Robo Rally
    game with no winner after the runner's rounds is a result (a random robot that never reaches
    the checkpoint), so both are counted, but apart."""
    found: dict[str, Counter] = {}
    for item in (item for tournament in tournaments for item in tournament.stored):
        result = item.result
        for seat in result.seats:
            counts = found.setdefault(seat.name, Counter())
            if not result.ok:
                counts["no result"] += 1
            elif seat.cause != REGULAR:
                counts[seat.cause] += 1
    return found


COUNTED_APART = {
    STUCK: "stuck, the rules' end the server marks not regular (not counted above): ",
    ROUND_LIMIT: "no winner after the runner's rounds, a result (not counted above): ",
}
"""The ends that are no rung's fault, each with the words of its own line."""


def irregular_lines(found: dict[str, Counter], order: list[str]) -> list[str]:
    """``irregular ends: random 0, greedy 1 (LEFT 1)`` and, where there were any, a line for each
    cause counted apart (:data:`COUNTED_APART`)."""
    words, apart = [], {cause: [] for cause in COUNTED_APART}
    for rung in (r for r in order if r in found):
        counts = found[rung]
        others = {cause: n for cause, n in counts.items() if cause not in COUNTED_APART}
        words.append(f"{rung} {sum(others.values())}" + (f" ({', '.join(f'{c} {n}' for c, n in sorted(others.items()))})"
                                                        if others else ""))
        for cause in COUNTED_APART:
            if counts[cause]:
                apart[cause].append(f"{rung} {counts[cause]}")
    lines = ["irregular ends (time, illegal move, leaving, no result): " + ", ".join(words)]
    lines += [COUNTED_APART[cause] + ", ".join(rungs) for cause, rungs in apart.items() if rungs]
    return lines


def pair_scores(games: list[Game], order: list[str]) -> dict[tuple[str, str], list[float]]:
    """Each pair of rungs (the weaker in ``order`` first) with the weaker one's score per game."""
    totals: dict[tuple[str, str], list[float]] = {}
    for game in games:
        a, b = sorted((game.first, game.second), key=order.index)
        totals.setdefault((a, b), []).append(game.score if game.first == a else 1 - game.score)
    return dict(sorted(totals.items(), key=lambda item: (order.index(item[0][0]), order.index(item[0][1]))))


def one_sided_notes(totals: dict[tuple[str, str], list[float]]) -> list[str]:
    """"b won every game against a (n)" for every pair whose games all went one way."""
    notes = []
    for (a, b), scores in totals.items():
        if all(s == 1 for s in scores):
            notes.append(f"{a} won every game against {b} ({len(scores)})")
        elif all(s == 0 for s in scores):
            notes.append(f"{b} won every game against {a} ({len(scores)})")
    return notes


def _stored(path: Path, game_type: str, flag: str = "--also"):
    """The tournament stored in a calibration database (read only), checked to be this game's."""
    from swc_local.tools.tournament.core import Settings, Tournament
    from swc_local.tools.tournament.db import ResultsDb

    db = ResultsDb(path, create=False)
    stored = db.settings()
    if stored is None or stored.get("game") != game_type:
        db.close()
        raise SystemExit(f"benchmarks.ladder: error: {flag} {path}: not a calibration of {game_type}")
    tournament = Tournament(Settings.from_dict(stored), db)
    db.close()
    return tournament


def _commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


class CannotPlay(Exception):
    """A calibration run that cannot start or broke off: its one-line reason."""


def _play(settings, path: Path, concurrency: int):
    """Play (or go on with) the calibration tournament of ``settings`` in the database at ``path``;
    :class:`CannotPlay` with the reason when it cannot start or breaks."""
    import trio

    from swc_local.tools.tournament.core import Tournament
    from swc_local.tools.tournament.db import DatabaseError
    from swc_local.tools.tournament.executors import play_locally
    from swc_local.tools.tournament.live import LiveView

    try:
        tournament = Tournament.open(settings, path, resume=True)
    except DatabaseError as error:
        raise CannotPlay(str(error)) from None
    try:
        with LiveView(tournament):
            trio.run(play_locally, tournament, concurrency)
    finally:
        tournament.db.close()
    if tournament.broken:
        raise CannotPlay(tournament.broken)
    return tournament


def _pair_runs(args: argparse.Namespace, settings, entry, db: Path, games: list[Game]) -> list:
    """``--until``: the runs of neighbouring rungs (benchmarks/ladder_narrow.py), each the round
    robin's ``settings`` for two rungs, played, or read as stored with ``--fit-only``; the
    tournaments, in order."""
    runs = []

    def pair_run(lower: str, upper: str, count: int, seed: int, path: Path) -> list[Game] | None:
        if args.fit_only:
            if not path.is_file():
                return None
            run = _stored(path, settings.game)
        else:
            bots = [(rung, rungs_of.command(entry, rung)) for rung in (lower, upper)]
            run = _play(dataclasses.replace(settings, bots=bots, games_per_pairing=count, seed=seed), path,
                        args.concurrency)
        runs.append(run)
        return games_of(run)

    ladder_narrow.narrow(games, db, args.seed + 1, args.until, pair_run)
    return runs


WATCHERS_PAUSES = ("start_delay", "turn_delay")
"""Runner options that only pause a game for whoever watches it: ReversiXT's reference pauses, 1 s
before the first move and 0.1 s between turns (tools/reversixt_match.py).  A calibration plays
them at 0: no move changes (the budgets count positions, and a search move takes milliseconds
there), and a two-player game takes about 1 s instead of 8 to 15."""


def no_pauses(entry) -> dict:
    """The options that turn off the watchers' pauses of ``entry``'s runner (none: an empty dict)."""
    from swc_local.tools import families

    accepted = getattr(families.family(entry.family).adapter, "OPTIONS", ())
    return {option: 0.0 for option in WATCHERS_PAUSES if option in accepted}


def main(argv: list[str] | None = None) -> int:
    from swc_local.tools.tournament.core import Settings
    from swc_local.tools.tournament.games import resolve

    args = parse(argv)
    entry = registry.entry(args.game)
    if entry is None:
        print(f"benchmarks.ladder: error: {registry.unknown_game_message(args.game)}", file=sys.stderr)
        return 2
    offered = rungs_of.rungs(entry)
    chosen = args.rungs.split(",") if args.rungs else list(offered)
    unknown = [rung for rung in chosen if rung not in offered]
    if unknown or len(chosen) < 2:
        print(f"benchmarks.ladder: error: --rungs {args.rungs}: {entry.name} offers {', '.join(offered)}; "
              "give at least two", file=sys.stderr)
        return 2
    missing = [str(path) for path in args.also if not path.is_file()]
    if missing:
        print(f"benchmarks.ladder: error: --also {missing[0]}: no such database", file=sys.stderr)
        return 2
    if args.until is not None and not (args.until > 0 and "random" in chosen):
        print(f"benchmarks.ladder: error: --until {args.until:g}: a half-width in Elo above 0, e.g. 50, with the "
              "random rung among --rungs (the scale's 0)", file=sys.stderr)
        return 2
    if args.games_per_pairing < 2 or args.games_per_pairing % 2:
        print(f"benchmarks.ladder: error: --games-per-pairing {args.games_per_pairing}: an even number, 2 or more",
              file=sys.stderr)
        return 2
    game_type, seats, options = resolve(entry.game_type, no_pauses(entry), 2)
    db = args.db or Path(f"ladder-{entry.short_names[0] if entry.short_names else game_type}-{args.games_per_pairing}.db")
    settings = Settings(game=game_type, bots=[(rung, rungs_of.command(entry, rung)) for rung in chosen],
                        games_per_pairing=args.games_per_pairing, seats=seats, seed=args.seed, options=options,
                        replays=None)
    if args.fit_only and not db.is_file():
        print(f"benchmarks.ladder: error: --db {db}: no such database (--fit-only plays nothing)", file=sys.stderr)
        return 2
    try:
        # --fit-only reads as stored: a database made elsewhere (another venv's commands) fits too
        tournament = _stored(db, game_type, "--db") if args.fit_only else _play(settings, db, args.concurrency)
        others = [_stored(other, game_type) for other in args.also]
        if args.until is not None:
            others += _pair_runs(args, settings, entry, db,
                                 games_of(tournament) + [g for o in others for g in games_of(o)])
    except CannotPlay as error:
        print(f"benchmarks.ladder: error: {error}", file=sys.stderr)
        return 2
    games = games_of(tournament)
    scheduled = len(tournament.slots)
    for stored in others:
        games += games_of(stored)
        scheduled += len(stored.slots)
    names = {g.first for g in games} | {g.second for g in games}
    if "random" not in names:
        print(f"benchmarks.ladder: error: no game of the random rung in {db} or --also: random is the scale's 0",
              file=sys.stderr)
        return 2
    order = [rung for rung in offered if rung in names]
    fitted, covariance = fit_field_covariance(games, "random")
    totals = pair_scores(games, order)
    command = f"python -m benchmarks.ladder --game {args.game} --games-per-pairing {args.games_per_pairing}"
    if args.seed != 1:
        command += f" --seed {args.seed}"
    if args.rungs:
        command += f" --rungs {args.rungs}"
    if args.until is not None:
        command += f" --until {args.until:g}"
    for other in args.also:
        command += f" --also {other.name}"
    ladder = ladder_table.Ladder.from_fit(
        game_type, order, fitted, games=len(games), scheduled=scheduled, games_per_pairing=args.games_per_pairing, seed=args.seed,
        measured=f"{datetime.date.today().isoformat()} at commit {_commit() or 'unknown'}", command=command,
        one_sided=one_sided_notes(totals), pairs={f"{a}~{b}": f"{sum(s):g}-{len(s) - sum(s):g}"
                                                   for (a, b), s in totals.items()})
    ladder.gap95 = {f"{a}~{b}": round(gap_half_width(covariance, a, b), 1) for a, b, _ in ladder.gaps()}
    ladder_table.save(ladder, args.ratings)
    page = args.page or docs_page(entry)
    ladder_table.write_page(page, ladder)
    print(ladder_table.markdown(ladder))
    print(f"written: {args.ratings}, {page}")
    for line in irregular_lines(irregular_ends(tournament, *others), order):
        print(line)
    close = [(a, b, gap) for a, b, gap in ladder.gaps() if gap < ladder_table.MIN_GAP]
    for a, b, gap in close:
        print(f"{b} is only {gap:+.0f} Elo above {a} (the ladder wants {ladder_table.MIN_GAP:.0f} or more)")
    if len(games) < scheduled:
        print(f"{scheduled - len(games)} games without a result; run again to play them")
    return 1 if close else 0


if __name__ == "__main__":
    sys.exit(main())
