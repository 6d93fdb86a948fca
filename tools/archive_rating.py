"""Rating an archive from the archives page (issue 45): ``swc rate`` in the viewer's background.

A teacher picks a game and presses "Rate" on an archive's row; :meth:`Ratings.start` checks what
``swc rate`` checks before its first game (the game's ladder is calibrated, the archive unpacks
and its command can start, the sandbox can be made) and answers at once with the one line of
the first problem; otherwise the rating runs as a task of the viewer (tools/rate.py's
:class:`~swc_local.tools.rate.Session`, the same adaptive rounds, estimate and report), and the
page asks for its state every second or so: games played, the estimate so far, the rung being
played, then the report exactly as ``swc rate`` prints it (tools/rate_report.py).

The state of an archive's last rating is kept beside it, ``ID.rating.json``, rewritten by rename
after every game: a restarted viewer shows the last result again; a rating the viewer's stop
cut short is shown as stopped, with what its games gave.

Stop and Resume: :meth:`Ratings.stop` cancels a queued or running rating and answers once it has
ended (the game being played is cut off: the bots' process groups are stopped, SIGTERM then
SIGKILL, the sandbox's relay closed; tools/runner.py), so the answer is the stopped state with
the estimate of the games played.  :meth:`Ratings.resume` goes on with a stopped rating, also one
the viewer's stop cut short: its kept games (``results``) count, its seed is kept, and
tools/rate.py's Session walks the same rounds and plays only the missing games; the game that
was cut off is played again from its start.  A deterministic bot so ends with the same games and
the same number as a rating never stopped.

Conformance notes (choices, also in docs/differences.md):

- The archive runs sandboxed, as archives do by default everywhere (tools/sandbox.py's
  default limits); a sandbox that cannot be made is refused before the first game, as ``swc
  check`` refuses it, and nothing runs unsandboxed instead.
- One rating at a time per archive (a second "Rate" is refused with 409 while one is queued or
  running), and at most :data:`MAX_RATINGS` play at once; more wait in line, their state says
  so.  Why a bound: a rating game runs two players that each think on a CPU, and the search
  rungs' think time is a wall-clock guard (client/ladder.py), so on an overloaded machine the
  rungs play weaker than they were calibrated and every rating comes out too high.  One rating
  per two CPUs keeps each game's players on a CPU of their own.
- A rating plays one game at a time (``swc rate``'s default ``--parallel 1``) for the same reason.
- A resumed rating plays the archive with the extra parameters it was started with (kept in its
  state), not ones changed since: the games it adds are the games the rating would have played.
  It is rated against the ladder table of now; a table that no longer has a rung its games were
  played against refuses the resume (Rate starts a new rating).
- Stop and Resume of something that is not running, or not stopped, are refused with 409 and
  one line; a Stop while the rating's checks before its first game run (a second or so) too.
"""

from __future__ import annotations

import json
import logging
import math
import os
import secrets
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import trio

from swc_local.games import registry
from swc_local.tools.archive import ArchiveError, resolve
from swc_local.tools.rate import BOT, NotRatable, Played, Session, calibrated_ladder
from swc_local.tools.rate_cli import DEFAULT_GAMES
from swc_local.tools.rate_report import game_words, report_json, report_text
from swc_local.tools.runner import CommandError, GameSpec, check_command
from swc_local.tools.sandbox import Limits, default_sandbox
from swc_local.tools.sandbox_flags import sandbox_problem

log = logging.getLogger("swc.archives")

MAX_RATINGS = max(1, (os.cpu_count() or 2) // 2)  # the module's notes say why
MAX_GAMES = 400  # a rating's games: ten times swc rate's default, days of play at the long think time
WAITING = ("queued", "running")
SUMMARY = ("status", "archive", "game", "game_name", "games", "played", "estimate", "ended")  # a row of the listing
SUFFIX = ".rating.json"


class RatingRefused(Exception):
    """A rating that cannot start: one line, and the HTTP status the page gets."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def games_asked(value: object) -> int:
    """The games of a rating the page asked for (RatingRefused naming what is accepted)."""
    if value is None:
        return DEFAULT_GAMES
    if not isinstance(value, int) or isinstance(value, bool) or value < 2 or value % 2 or value > MAX_GAMES:
        raise RatingRefused(f"games {value!r}: an even number from 2 to {MAX_GAMES} (the games come in pairs, "
                            "seats swapped)")
    return value


@dataclass
class Running:
    """A queued or running rating: the scope Stop cancels, and the event its end sets."""

    scope: trio.CancelScope = field(default_factory=trio.CancelScope)
    ended: trio.Event = field(default_factory=trio.Event)


class Ratings:
    """The archives' ratings: started in ``nursery`` (the viewer's), kept in ``folder``,
    rated against the ladder table ``ladder_file`` (None: the calibrated one)."""

    def __init__(self, folder: Path, nursery: trio.Nursery, ladder_file: Path | None = None) -> None:
        self.folder = folder
        self.nursery = nursery
        self.ladder_file = ladder_file
        self.slots = trio.Semaphore(MAX_RATINGS)
        self.states: dict[str, dict] = {}
        self.running: dict[str, Running] = {}
        for path in sorted(folder.glob("*" + SUFFIX)):
            self.states[path.name[:-len(SUFFIX)]] = _loaded(path)

    def state(self, aid: str) -> dict | None:
        return self.states.get(aid)

    def summary(self, aid: str) -> dict | None:
        """What the archives' listing shows of the last rating (its report is asked for alone)."""
        state = self.states.get(aid)
        return None if state is None else {key: state.get(key) for key in SUMMARY}

    def refusal(self, entry) -> str | None:
        """The one line saying why ``entry``'s game cannot be rated, or None."""
        try:
            calibrated_ladder(entry, self.ladder_file)
        except NotRatable as error:
            return str(error)
        return None

    async def start(self, aid: str, spec: str, name: str, entry, games: int, params: str = "") -> dict:
        """Start rating the archive ``spec`` (id ``aid``, shown as ``name``, its extra parameters
        ``params``) in ``entry``'s game; its first state, or RatingRefused (nothing started, the
        last result kept)."""
        if self.states.get(aid, {}).get("status") in WAITING:
            raise RatingRefused(f"{name} is being rated already; its rating goes on", 409)
        previous = self.states.get(aid)
        self.states[aid] = {"status": "queued"}  # holds the archive's place while the checks run
        try:
            session = await trio.to_thread.run_sync(self._session, spec, entry, games, secrets.randbits(31), [])
        except BaseException:
            self._restore(aid, previous)
            raise
        state = {"status": "queued", "archive": name, "game": entry.game_type, "game_name": entry.name,
                 "games": games, "seed": session.seed, "sandboxed": bool(session.sandboxed), "params": params,
                 "played": 0, "current": None, "estimate": None, "lines": [], "text": None, "report": None,
                 "results": [], "error": None, "started": _now(), "ended": None}
        self._begin(aid, session, state)
        log.info("archives: %s queued for a rating in %s (%d games, seed %d)", name, entry.game_type, games, session.seed)
        return state

    async def resume(self, aid: str, spec_with, name: str) -> dict:
        """Go on with ``aid``'s stopped rating (``spec_with(params)``: the archive's spec with the
        extra parameters the rating was started with); its state, or RatingRefused."""
        state = self.states.get(aid)
        if state is None:
            raise RatingRefused(f"{name} has no rating to resume; Rate starts one", 409)
        if state.get("status") != "stopped":
            raise RatingRefused(f"{name}'s rating is {state.get('status')}, not stopped: only a stopped rating "
                                "can be resumed", 409)
        entry, played = registry.entry(state.get("game")), _played(state.get("results"))
        if entry is None or played is None or not all(isinstance(state.get(key), int) for key in ("seed", "games")):
            raise RatingRefused(f"the kept rating of {name} does not list its games, so it cannot go on; "
                                "Rate starts a new one", 409)
        self.states[aid] = dict(state, status="queued")  # holds the archive's place while the checks run
        try:
            session = await trio.to_thread.run_sync(self._session, spec_with(state.get("params", None)), entry,
                                                    state["games"], state["seed"], played)
        except BaseException:
            self._restore(aid, state)
            raise
        state = dict(state, status="queued", archive=name, current=None, error=None, ended=None,
                     resumed=state.get("resumed", 0) + 1)
        state.pop("round", None)
        self._begin(aid, session, state)
        log.info("archives: %s queued to go on with its rating in %s after %d of %d games", name, entry.game_type,
                 len(played), state["games"])
        return state

    async def stop(self, aid: str, name: str) -> dict:
        """Stop ``aid``'s queued or running rating; its state once it has ended (every process of
        its game killed, tools/runner.py), or RatingRefused (409) when there is nothing to stop."""
        running = self.running.get(aid)
        if running is None:
            if self.states.get(aid, {}).get("status") in WAITING:
                raise RatingRefused(f"the rating of {name} is being checked before its first game; "
                                    "Stop again in a moment", 409)
            raise RatingRefused(f"{name} is not being rated: nothing to stop", 409)
        if running.scope.cancel_called:
            raise RatingRefused(f"the rating of {name} is being stopped already", 409)
        running.scope.cancel()
        await running.ended.wait()
        return self.states[aid]

    def _begin(self, aid: str, session: Session, state: dict) -> None:
        running = Running()
        self.states[aid] = state
        self.running[aid] = running
        self._save(aid)
        self.nursery.start_soon(self._run, aid, session, state, running)

    def _restore(self, aid: str, previous: dict | None) -> None:
        if previous is None:
            self.states.pop(aid, None)
        else:
            self.states[aid] = previous

    def _session(self, spec: str, entry, games: int, seed: int, played: list[Played]) -> Session:
        """``swc rate``'s checks before the first game, in a worker thread (an archive unpacks);
        ``played``: the games a resumed rating had."""
        try:
            ladder, commands = calibrated_ladder(entry, self.ladder_file)
        except NotRatable as error:
            raise RatingRefused(str(error)) from None
        gone = sorted({p.rung for p in played} - set(commands))
        if gone:
            raise RatingRefused(f"the ladder table has no rung {', '.join(gone)} any more, which the rating's games "
                                "were played against; Rate starts a new rating", 409)
        problem = check_command(spec)
        if problem:
            raise RatingRefused(problem)
        limits = Limits()
        sandboxed = {BOT: limits} if default_sandbox(spec) else {}
        try:
            problem = sandbox_problem(limits, [resolve(spec).command]) if sandboxed else None
        except ArchiveError as error:
            problem = str(error)
        if problem:
            raise RatingRefused(problem)
        return Session(entry.game_type, spec, ladder, commands, games, seed, sandboxed=sandboxed, played=list(played))

    async def _run(self, aid: str, session: Session, state: dict, running: Running) -> None:
        try:
            with running.scope:
                async with self.slots:
                    state["status"] = "running"
                    self._save(aid)
                    await session.run(lambda played: self._on_game(aid, session, state, played),
                                      lambda specs: self._on_round(aid, state, specs))
                state["status"] = "done"
        except CommandError as error:  # the archive cannot play: the cause, as swc check names it
            state.update(status="failed", error=str(error))
        except Exception as error:  # a bug here must not take the viewer down with it
            log.exception("archives: the rating of %s stopped", state["archive"])
            state.update(status="failed", error=f"the rating stopped: {type(error).__name__}: {error}")
        finally:
            stopped_by = None
            if state["status"] in WAITING:  # cancelled: Stop on the page, or the viewer stops
                state["status"] = "stopped"
                stopped_by = "Stop on the archives page" if running.scope.cancel_called else "the viewer's stop"
            state.update(current=None, ended=_now(), **_results(session, stopped_by))
            self._save(aid)
            if self.running.get(aid) is running:
                del self.running[aid]
            running.ended.set()
            log.info("archives: the rating of %s in %s %s after %d games: %s", state["archive"], state["game"],
                     state["status"], state["played"], state["estimate"] or state["error"] or "no result")

    def _on_round(self, aid: str, state: dict, specs: list[GameSpec]) -> None:
        state["round"] = [{"index": spec.index, "rung": _rung(spec), "seat": _seat(spec)} for spec in specs]
        self._point(state)
        self._save(aid)

    def _on_game(self, aid: str, session: Session, state: dict, played: Played) -> None:
        state["lines"].append(f"game {played.index + 1} {game_words(played)}")
        state.update(_results(session))
        self._point(state, {p.index for p in session.played})
        self._save(aid)

    @staticmethod
    def _point(state: dict, finished: set[int] = frozenset()) -> None:
        """The game being played now: the round's first game without a result (one at a time)."""
        waiting = [game for game in state.get("round", ()) if game["index"] not in finished]
        state["current"] = waiting[0] if waiting else None

    def _save(self, aid: str) -> None:
        partial = self.folder / f"{aid}{SUFFIX}.partial"
        partial.write_text(json.dumps(self.states[aid], indent=1))
        os.replace(partial, self.folder / f"{aid}{SUFFIX}")


def _results(session: Session, stopped_by: str | None = None) -> dict:
    """What the page shows of the games so far: the estimate and ``swc rate``'s own report; and
    the games themselves, which a resumed rating starts from."""
    rating = session.rating()
    return {"played": len(session.played),
            "estimate": rating.text() if rating is not None and not math.isnan(rating.elo) else None,
            "report": report_json(session, stopped_by), "text": report_text(session, stopped_by),
            "results": [asdict(p) for p in session.played]}


def _played(results: object) -> list[Played] | None:
    """The kept games of a rating (None: missing or not as written, a state kept by an older swc)."""
    if not isinstance(results, list):
        return None
    try:
        played = [Played(**item) for item in results]
    except TypeError:
        return None
    if not all(isinstance(p.index, int) and isinstance(p.rung, str) and p.seat in (0, 1) for p in played):
        return None
    return sorted(played, key=lambda p: p.index)


def _rung(spec: GameSpec) -> str:
    return next(name for name, _ in spec.players if name != BOT)


def _seat(spec: GameSpec) -> int:
    return next(k for k, (name, _) in enumerate(spec.players) if name == BOT)


def _loaded(path: Path) -> dict:
    """A kept state; one the viewer's stop cut short (or a file that does not read) says so."""
    try:
        state = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        return {"status": "failed", "error": f"the kept rating does not read: {error}", "lines": []}
    if not isinstance(state, dict):
        return {"status": "failed", "error": "the kept rating does not read: not a JSON object", "lines": []}
    if state.get("status") in WAITING:
        state.update(status="stopped", current=None)
    return state


def _now() -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S %Z")
