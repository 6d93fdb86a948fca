"""One tournament: its settings, its schedule, its database and the stopping rules.

:class:`Tournament` is what the executors report to: every finished game goes through
:meth:`Tournament.accept`, which writes it to the database first (so nothing is counted that is
not stored) and then updates the SPRT or the significance rule, which may end the run. A game
whose key is already stored is ignored, so a result that arrives twice is counted once.

Conformance note: the runner does not play out a game in which a command cannot start (exit
126/127 or no such program) and reports it without a result. In a tournament that game is lost
by the seats whose command cannot start and won by the others, as a command that crashes or
never joins loses to the stand-in in its seat; the seats keep the cause ``CANNOT_START`` and its
reason. A game in which no command could start stays without a result.

A command that cannot play stops the whole tournament at once, as it stops ``swc match``
(:attr:`Tournament.broken`, exit status 2): a seat ``CANNOT_START``, or a bot that crashed before
joining in each of its first two games without ever having joined one (a misspelled file after
``python``). A bot that played once and crashes later just loses those games.

Per-bot time limits (``--bot-timeout NAME=MS``, cutechess's per-engine ``tc=``): a bot whose
slowest move of a game took longer than its limit loses that game (cause ``TIME_LIMIT``, ranked
last as a bot that never played; the others keep their order). The game is played out under the
game's own move timer, which stays the same for both seats (one server room has one timer); the
limit is judged from the observer's move times, so it needs a game whose moves are timed (the
Software-Challenge games).
"""

from __future__ import annotations

import logging
import math
import secrets
import threading
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from swc_local.tools.results import ABSENT_CAUSES, CANNOT_START, CRASHED, GameResult, absent_last
from swc_local.tools.tournament import league
from swc_local.tools.tournament import schedule as schedule_module
from swc_local.tools.tournament.binomial import Significance
from swc_local.tools.tournament.db import DatabaseError, ResultsDb, Stored, think_of
from swc_local.tools.tournament.elo import shown
from swc_local.tools.tournament.openings import Opening, ordered
from swc_local.tools.tournament.schedule import Slot
from swc_local.tools.tournament.sprt import Sprt
from swc_local.tools.tournament.standings import Standings, Tally, pair_score

log = logging.getLogger("swc.tournament")

# what makes two runs the same tournament (``--resume`` must not change any of these)
IDENTITY = ("game", "bots", "format", "games_per_pairing", "seats", "seed", "sprt", "significance", "options",
            "openings", "openings_order", "time_limits", "group_size", "advance")
TIME_LIMIT = "TIME_LIMIT"
GIVE_UP_AFTER = 2  # crashes before a first join that stop the tournament (as swc match)


@dataclass
class Settings:
    game: str
    bots: list[tuple[str, str | list[str]]]  # (name, command) in the order given
    format: str = "roundrobin"
    games_per_pairing: int = 2
    seats: int = 2
    seed: int | None = None  # None: a random one, chosen once and stored
    sprt: dict | None = None  # Sprt fields
    significance: dict | None = None  # Significance fields
    options: dict = field(default_factory=dict)  # per-family extras for the runner
    start_timeout: float = 15.0
    game_timeout: float = 900.0
    replays: str | None = None
    logs: str | None = None
    openings: list[dict] | None = None  # the book as written (Opening fields)
    openings_order: str = "sequential"  # or random: shuffled once with the tournament seed
    book: str | None = None  # where the book came from and its order, for the report
    time_limits: dict[str, int] = field(default_factory=dict)  # bot -> ms per move at most
    dask_files: str = "return"  # return: replays and logs come back with the result; shared: written to --replays
    group_size: int = league.GROUP_SIZE  # the contest's formats: teams per group, about
    advance: int = league.ADVANCE  # the contest's formats: the best of each group in the Champions League
    sandboxed: dict[str, dict] = field(default_factory=dict)  # bot -> its sandbox's Limits fields (tools/sandbox.py)

    @property
    def names(self) -> list[str]:
        return [name for name, _ in self.bots]

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "Settings":
        data = {key: value for key, value in data.items() if key in cls.__dataclass_fields__}
        data["bots"] = [tuple(bot) for bot in data["bots"]]
        return cls(**data)

    def differences(self, other: "Settings") -> list[str]:
        mine, theirs = self.to_dict(), other.to_dict()
        return [key for key in IDENTITY if _jsonish(mine[key]) != _jsonish(theirs[key])]


def scored(result: GameResult) -> GameResult:
    """``result``, or a game the runner stopped for a command that cannot start scored as lost by it."""
    broken = [seat.cause == CANNOT_START for seat in result.seats]
    if result.error is None or not any(broken) or all(broken):
        return result
    last = broken.count(False) + 1
    seats = tuple(replace(seat, rank=last if lost else 1) for seat, lost in zip(result.seats, broken))
    return replace(result, seats=seats, error=None)


def _jsonish(value):
    if isinstance(value, (list, tuple)):
        return [_jsonish(v) for v in value]
    return value


def check_schedule(settings: Settings) -> None:
    """ScheduleError (one line) for settings that cannot make a tournament, before anything runs."""
    if settings.format in league.LEAGUE_FORMATS:
        league.check(settings.names, settings.format, settings.games_per_pairing, settings.seats,
                     settings.group_size, settings.advance)
    else:
        schedule_module.schedule(settings.names, settings.format, settings.games_per_pairing, settings.seats, 0)


class Tournament:
    def __init__(self, settings: Settings, db: ResultsDb) -> None:
        self.settings = settings
        self.db = db
        self.openings = (ordered([Opening(**item) for item in settings.openings], settings.openings_order, settings.seed)
                         if settings.openings else None)
        self.plan: league.Plan | None = None  # the contest's formats: the stages known so far
        self._results: dict[str, GameResult] = {}  # the contest's formats: every stored game by key
        if settings.format in league.LEAGUE_FORMATS:
            self._replan()
        else:
            self.slots = schedule_module.schedule(
                settings.names, settings.format, settings.games_per_pairing, settings.seats, settings.seed,
                self.openings,
            )
            self.by_key = {slot.key: slot for slot in self.slots}
            self.by_index = {slot.index: slot for slot in self.slots}
            self._unplayed = set()
        self.sprt = Sprt(**settings.sprt) if settings.sprt else None
        self.significance = Significance(**settings.significance) if settings.significance else None
        self.stored: list[Stored] = []
        self.pentanomial = [0] * 5
        self.llr = 0.0
        self.points = [0, 0]  # victory points of the first two bots (significance rule)
        self.scored_games = 0
        self.verdict: str | None = None  # set when a stopping rule ends the run
        self.broken: str | None = None  # set when a bot's command cannot play: the run stops
        self.retried: list[tuple[str, int]] = []  # (game key, extra runs) of games run again on Dask
        self.listeners: list = []  # called with (Stored, pair completed) after every new game
        self._joined: set[str] = set()
        self._crashes: dict[str, int] = {}
        self._games_of = {name: sum(name in slot.seating for slot in self.slots) for name in settings.names}
        self._blocks: dict[str, list[GameResult]] = {}
        self._tally = Tally(settings.names)
        self.lock = threading.Lock()  # the live view reads from its own thread while games arrive
        for item in db.stored():
            self._count(item)

    @classmethod
    def open(cls, settings: Settings, path: Path | str, *, resume: bool) -> "Tournament":
        """A new tournament in ``path``, or the one stored there with ``resume``.

        A new tournament without a seed gets a random one; it is stored with the settings, so
        ``--resume`` without ``--seed`` plays the same boards.
        """
        db = ResultsDb(path)
        stored = db.settings()
        if stored is None:
            if settings.seed is None:
                settings = replace(settings, seed=secrets.randbits(31))
            db.save_settings(settings.to_dict())
            return cls(settings, db)
        if not resume:
            db.close()
            raise DatabaseError(f"--db {path} already holds a tournament; add --resume to continue it, or choose another file")
        previous = Settings.from_dict(stored)
        given = settings if settings.seed is not None else replace(settings, seed=previous.seed)
        differing = previous.differences(given)
        if differing:
            db.close()
            raise DatabaseError(f"--resume: {', '.join(differing)} differ from the tournament in {path}; give the same settings")
        return cls(given, db)

    # -- the schedule ---------------------------------------------------------------------
    def _replan(self) -> None:
        """The contest's formats: the games known from the results so far (the next stage's once
        one is complete); the games known before keep their keys and indices."""
        s = self.settings
        self.plan = league.plan(s.names, s.format, s.games_per_pairing, s.seed, self._results,
                                group_size=s.group_size, advance=s.advance)
        self.slots = self.plan.slots
        self.by_key = {slot.key: slot for slot in self.slots}
        self.by_index = {slot.index: slot for slot in self.slots}
        self._unplayed = {slot.key for slot in self.slots if slot.key not in self._results}

    def stored_key(self, key: str) -> bool:
        """The contest's formats: whether the game ``key`` is stored."""
        return key in self._results

    def results_of(self, keys) -> dict[str, GameResult]:
        """The contest's formats: the stored results of the games ``keys``."""
        return {key: self._results[key] for key in keys if key in self._results}

    def league_view(self) -> league.Plan | None:
        """The contest's formats: the stages with every encounter judged on the games stored now."""
        if self.plan is None:
            return None
        s = self.settings
        return league.plan(s.names, s.format, s.games_per_pairing, s.seed, dict(self._results),
                           group_size=s.group_size, advance=s.advance)

    def pending(self) -> list[Slot]:
        """The games still to play, in schedule order (none once a stopping rule has decided)."""
        if self.verdict is not None or self.broken is not None:
            return []
        done = {item.key for item in self.stored}
        return [slot for slot in self.slots if slot.key not in done]

    def commands(self) -> dict[str, str | list[str]]:
        return dict(self.settings.bots)

    # -- results --------------------------------------------------------------------------
    def accept(self, result: GameResult, info: dict | None = None) -> bool:
        """Store and count a finished game (by its ``index``); True when the run should stop.

        ``info`` (from a Dask task): the worker, the retries, the think times (a local game has
        them in ``result.move_times``)."""
        slot = self.by_index[result.index]
        info = dict(info or {})
        info.setdefault("think", think_of(result))
        if slot.opening is not None:
            info["opening"] = slot.opening
        result = self._judge_time(scored(result), info["think"])
        item = Stored(slot.key, slot.block, result, info)
        with self.lock:
            if self.db.record(slot.key, slot.index, slot.block, result, info):
                paired = self._count(item)
                if paired:
                    self._record_pair()
            else:
                log.info("game %s arrived again; it is counted once", slot.key)
                return self.verdict is not None or self.broken is not None
        for listener in self.listeners:
            listener(item, paired)
        return self.verdict is not None or self.broken is not None

    def _judge_time(self, result: GameResult, think: dict) -> GameResult:
        limits = self.settings.time_limits
        over = {i for i, seat in enumerate(result.seats)
                if seat.name in limits and seat.name in think and think[seat.name][2] > limits[seat.name]
                and seat.cause not in ABSENT_CAUSES}
        if not over or not result.ok:
            return result
        ranks = absent_last([seat.rank for seat in result.seats], over)
        seats = tuple(
            replace(seat, rank=rank, cause=TIME_LIMIT,
                    reason=f"its slowest move took {think[seat.name][2]:.0f} ms; its limit is {limits[seat.name]} ms")
            if i in over else replace(seat, rank=rank)
            for i, (seat, rank) in enumerate(zip(result.seats, ranks)))
        return replace(result, seats=seats)

    def _record_pair(self) -> None:
        """The ``sprt`` history row of the pair just completed by the first two bots."""
        pairs = sum(self.pentanomial)
        self.db.record_pair(pairs, self.scored_games, list(self.pentanomial), self.llr if self.sprt else None,
                            shown(self.pentanomial))

    def _watch_commands(self, result: GameResult) -> None:
        for seat in result.seats:
            if seat.cause == CANNOT_START:
                self.broken = f"{seat.name}'s command cannot play: {seat.reason or seat.cause}"
            elif seat.cause == CRASHED and seat.name not in self._joined:
                self._crashes[seat.name] = self._crashes.get(seat.name, 0) + 1
                if self._crashes[seat.name] >= min(GIVE_UP_AFTER, self._games_of.get(seat.name, 1)):
                    self.broken = (f"{seat.name}'s command cannot play (it crashed before joining in each of its first "
                                   f"{self._crashes[seat.name]} games): {seat.reason or seat.cause}")
            elif seat.cause not in ABSENT_CAUSES:
                self._joined.add(seat.name)

    def standings(self) -> Standings:
        return self._tally.standings()

    def _count(self, item: Stored) -> bool:
        """Count a stored game; True when it completed a pair of the first two bots."""
        self.stored.append(item)
        self._tally.add(item)
        if self.plan is not None:
            self._results[item.key] = item.result
            self._unplayed.discard(item.key)
            if not self._unplayed and not self.plan.complete:
                self._replan()  # a stage is complete: the next one's games are known now
        if item.info.get("retries"):
            self.retried.append((item.key, item.info["retries"]))
        result = item.result
        self._watch_commands(result)
        if not result.ok or len(result.seats) != 2 or self.verdict is not None:
            return False
        first, second = self.settings.names[:2]
        if {s.name for s in result.seats} != {first, second}:
            return False
        score = pair_score(result.seat_of(first).rank, result.seat_of(second).rank)
        self.scored_games += 1
        self.points[0] += round(2 * score)
        self.points[1] += round(2 * (1 - score))
        if self.significance is not None:
            self._check_significance()
        games = self._blocks.setdefault(item.block, [])
        games.append(result)
        if len(games) != 2:
            return False
        total = sum(pair_score(g.seat_of(first).rank, g.seat_of(second).rank) for g in games)
        self.pentanomial[round(2 * total)] += 1
        if self.sprt is not None:
            self._check_sprt()
        return True

    def _check_sprt(self) -> None:
        try:
            self.llr = self.sprt.llr(self.pentanomial)
        except ArithmeticError as error:  # a hypothesis no distribution on these scores can meet
            log.warning("SPRT: no LLR for the pairs %s (%s); the test goes on", self.pentanomial, error)
            self.llr = math.nan
            return
        decision = self.sprt.decision(self.llr)
        if decision is not None:
            first, second = self.settings.names[:2]
            meaning = (f"{first} is stronger than {second} by about {self.sprt.elo1:g} Elo or more" if decision == "H1"
                       else f"{first} is not stronger than {second} by {self.sprt.elo1:g} Elo")
            self.verdict = (f"SPRT: {decision} accepted after {sum(self.pentanomial)} pairs (LLR {self.llr:.2f}): {meaning}; "
                            f"Elo {shown(self.pentanomial)}")

    def _check_significance(self) -> None:
        found = self.significance.better(tuple(self.points), self.scored_games)
        if found is not None:
            better, uncertainty = found
            self.verdict = (f"{self.settings.names[better]} is significantly better after {self.scored_games} games "
                            f"(uncertainty {uncertainty:.2%})")
