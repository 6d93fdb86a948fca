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
"""

from __future__ import annotations

import logging
import math
import secrets
import threading
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from swc_local.tools.results import CANNOT_START, GameResult
from swc_local.tools.tournament import schedule as schedule_module
from swc_local.tools.tournament.binomial import Significance
from swc_local.tools.tournament.db import DatabaseError, ResultsDb, Stored
from swc_local.tools.tournament.elo import estimate
from swc_local.tools.tournament.schedule import Slot
from swc_local.tools.tournament.sprt import Sprt
from swc_local.tools.tournament.standings import Standings, Tally, pair_score

log = logging.getLogger("swc.tournament")

# what makes two runs the same tournament (``--resume`` must not change any of these)
IDENTITY = ("game", "bots", "format", "games_per_pairing", "seats", "seed", "sprt", "significance", "options")


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

    @property
    def names(self) -> list[str]:
        return [name for name, _ in self.bots]

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "Settings":
        data = dict(data)
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


class Tournament:
    def __init__(self, settings: Settings, db: ResultsDb) -> None:
        self.settings = settings
        self.db = db
        self.slots = schedule_module.schedule(
            settings.names, settings.format, settings.games_per_pairing, settings.seats, settings.seed,
        )
        self.by_index = {slot.index: slot for slot in self.slots}
        self.sprt = Sprt(**settings.sprt) if settings.sprt else None
        self.significance = Significance(**settings.significance) if settings.significance else None
        self.stored: list[Stored] = []
        self.pentanomial = [0] * 5
        self.llr = 0.0
        self.points = [0, 0]  # victory points of the first two bots (significance rule)
        self.scored_games = 0
        self.verdict: str | None = None  # set when a stopping rule ends the run
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
    def pending(self) -> list[Slot]:
        """The games still to play, in schedule order (none once a stopping rule has decided)."""
        if self.verdict is not None:
            return []
        done = {item.key for item in self.stored}
        return [slot for slot in self.slots if slot.key not in done]

    def commands(self) -> dict[str, str | list[str]]:
        return dict(self.settings.bots)

    # -- results --------------------------------------------------------------------------
    def accept(self, result: GameResult) -> bool:
        """Store and count a finished game (by its ``index``); True when the run should stop."""
        slot = self.by_index[result.index]
        result = scored(result)
        with self.lock:
            if self.db.record(slot.key, slot.index, slot.block, result):
                self._count(Stored(slot.key, slot.block, result))
            else:
                log.info("game %s arrived again; it is counted once", slot.key)
        return self.verdict is not None

    def standings(self) -> Standings:
        return self._tally.standings()

    def _count(self, item: Stored) -> None:
        self.stored.append(item)
        self._tally.add(item)
        result = item.result
        if not result.ok or len(result.seats) != 2 or self.verdict is not None:
            return
        first, second = self.settings.names[:2]
        if {s.name for s in result.seats} != {first, second}:
            return
        score = pair_score(result.seat_of(first).rank, result.seat_of(second).rank)
        self.scored_games += 1
        self.points[0] += round(2 * score)
        self.points[1] += round(2 * (1 - score))
        if self.significance is not None:
            self._check_significance()
        games = self._blocks.setdefault(item.block, [])
        games.append(result)
        if len(games) == 2 and self.sprt is not None:
            total = sum(pair_score(g.seat_of(first).rank, g.seat_of(second).rank) for g in games)
            self.pentanomial[round(2 * total)] += 1
            self._check_sprt()

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
                            f"Elo {estimate(self.pentanomial)}")

    def _check_significance(self) -> None:
        found = self.significance.better(tuple(self.points), self.scored_games)
        if found is not None:
            better, uncertainty = found
            self.verdict = (f"{self.settings.names[better]} is significantly better after {self.scored_games} games "
                            f"(uncertainty {uncertainty:.2%})")
