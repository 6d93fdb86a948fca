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
"""

from __future__ import annotations

import json
import logging
import math
import os
import secrets
import time
from pathlib import Path

import trio

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


class Ratings:
    """The archives' ratings: started in ``nursery`` (the viewer's), kept in ``folder``,
    rated against the ladder table ``ladder_file`` (None: the calibrated one)."""

    def __init__(self, folder: Path, nursery: trio.Nursery, ladder_file: Path | None = None) -> None:
        self.folder = folder
        self.nursery = nursery
        self.ladder_file = ladder_file
        self.slots = trio.Semaphore(MAX_RATINGS)
        self.states: dict[str, dict] = {}
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

    async def start(self, aid: str, spec: str, name: str, entry, games: int) -> dict:
        """Start rating the archive ``spec`` (id ``aid``, shown as ``name``) in ``entry``'s game;
        its first state, or RatingRefused (nothing started, the last result kept)."""
        if self.states.get(aid, {}).get("status") in WAITING:
            raise RatingRefused(f"{name} is being rated already; its rating goes on", 409)
        previous = self.states.get(aid)
        self.states[aid] = {"status": "queued"}  # holds the archive's place while the checks run
        try:
            session = await trio.to_thread.run_sync(self._session, spec, entry, games)
        except BaseException:
            self._restore(aid, previous)
            raise
        state = {"status": "queued", "archive": name, "game": entry.game_type, "game_name": entry.name,
                 "games": games, "seed": session.seed, "sandboxed": bool(session.sandboxed), "played": 0,
                 "current": None, "estimate": None, "lines": [], "text": None, "report": None, "error": None,
                 "started": _now(), "ended": None}
        self.states[aid] = state
        self._save(aid)
        self.nursery.start_soon(self._run, aid, session, state)
        log.info("archives: %s queued for a rating in %s (%d games, seed %d)", name, entry.game_type, games, session.seed)
        return state

    def _restore(self, aid: str, previous: dict | None) -> None:
        if previous is None:
            self.states.pop(aid, None)
        else:
            self.states[aid] = previous

    def _session(self, spec: str, entry, games: int) -> Session:
        """``swc rate``'s checks before the first game, in a worker thread (an archive unpacks)."""
        try:
            ladder, commands = calibrated_ladder(entry, self.ladder_file)
        except NotRatable as error:
            raise RatingRefused(str(error)) from None
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
        return Session(entry.game_type, spec, ladder, commands, games, secrets.randbits(31), sandboxed=sandboxed)

    async def _run(self, aid: str, session: Session, state: dict) -> None:
        try:
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
            if state["status"] in WAITING:  # cancelled: the viewer stops
                state["status"] = "stopped"
            state.update(current=None, ended=_now(), **_results(session))
            self._save(aid)
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


def _results(session: Session) -> dict:
    """What the page shows of the games so far: the estimate and ``swc rate``'s own report."""
    rating = session.rating()
    return {"played": len(session.played),
            "estimate": rating.text() if rating is not None and not math.isnan(rating.elo) else None,
            "report": report_json(session), "text": report_text(session)}


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
