"""The one match runner: games of any game of the registry between player commands.

``swc match``, the pytest fixtures and tournaments all play through :func:`play_games`.  What a
run does, game after game (K at a time, ``parallel``):

1. The game's family (from :mod:`swc_local.games.registry`) opens a *table*: a prepared XML room
   on the run's in-process server, or a ReversiXT or Robo Rally door of the game's own.
2. Each seat's command is started with its placeholders filled in (:func:`expand`; a leading bare
   ``python``/``python3`` is this process's own interpreter, tools/players.py): at once for
   XML rooms (reservation codes say who sits where), one after the other for the families whose
   join order is the seat order (``table.ordered``).  Its output goes to a file (``spec.logs``,
   else a temporary one read for the last lines and removed).
3. A seat whose command exits before it joined (``CRASHED``, or ``CANNOT_START`` for exit
   126/127 or no such program) or has not joined within ``start_timeout`` seconds
   (``NEVER_JOINED``) gets a stand-in that loses (``table.fill``) — only once every other seat
   has joined or run out of its own start timeout, so a stand-in never takes a seat a real
   player was about to take.  That seat is ranked last with its own cause, and the seats that
   played keep their order.  A command that cannot start stops the run at once
   (:class:`CommandError`, a one-line reason with its last output lines); so does a command
   whose first games (``give_up_after``) all crashed before it joined.
   A seat whose player is sandboxed (``spec.sandboxed``: tools/sandbox.py) runs inside
   bubblewrap, its connection relayed to the table's port (tools/sandbox_relay.py); when a
   sandbox limit ended it, before it joined or mid-game, its cause is that limit
   (``MEMORY_LIMIT``, ``CPU_TIME_LIMIT``, ``PROCESS_LIMIT``) and it is ranked last.  A sandbox
   that cannot be made is a command that cannot start: nothing runs unsandboxed instead.
4. The game ends by its rules (``table.finish``) or is cancelled after ``game_timeout`` seconds
   (then the record has ``error`` set); the commands get a second to exit, then their process
   groups are stopped.

Seeds: game *i* of a run is exactly ``specs[i]`` (its board seed, its seat order), whatever
``parallel`` is; each seat's ``{seed}`` is derived from the game's seed and the seat number
(unless the spec gives ``seat_seeds``: a tournament gives every bot a stream of its own).

A family contributes only its seat adapter, the module named by its registry entry: a class
``Family(nursery)`` with ``table(spec)``, an async context manager yielding the table described
by :class:`Table`.
"""

from __future__ import annotations

import os
import random
import re
import shlex
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import trio

from swc_local.tools import families
from swc_local.tools.archive import ArchiveError, is_archive_spec, resolve, resolve_command
from swc_local.tools.players import command_text, expand, own_python, wait_or_stop
from swc_local.tools.results import (
    ABSENT_CAUSES, CANNOT_START, CRASHED, NEVER_JOINED, REGULAR, GameResult, SeatResult, absent_last,
)
from swc_local.tools.sandbox import Limits, SandboxUnavailable
from swc_local.tools.sandbox_relay import SandboxedSeat
from swc_local.tools.seats import Outcome, SeatOutcome, Table  # noqa: F401 -- what the adapters return, named here too

CANNOT_START_CODES = (126, 127)  # the shell's "not executable" and "not found"
EXIT_GRACE = 1.0  # seconds the commands get to leave on their own after the game
TAIL_LINES = 5
JOIN_GRACE = 1.0  # seconds a join sent just before the command exited may take to arrive


@dataclass
class GameSpec:
    game: str  # game type or short name from the registry
    index: int
    seed: int
    players: list[tuple[str, str | list[str]]]  # (name, command) in seat order
    replays: Path | None = None
    logs: Path | None = None
    start_timeout: float = 15.0
    game_timeout: float = 900.0
    options: dict = field(default_factory=dict)  # per-family extras (map, timeouts)
    seat_seeds: tuple[int, ...] = ()  # each seat's {seed} (tournaments: per bot); empty: seat_seed()
    sandboxed: dict[str, Limits] = field(default_factory=dict)  # player name -> its sandbox's limits


class CommandError(Exception):
    """A player's command cannot play: the run stops, the message is one line."""


def seat_seed(game_seed: int, seat: int) -> int:
    """The ``{seed}`` of one seat in one game: fixed by the game's seed, different per seat."""
    return random.Random(f"{game_seed}/{seat}").getrandbits(31)


def check_command(command: str | list[str]) -> str | None:
    """None if the command's program exists and may be run, else a one-line reason (before a run)."""
    try:
        argv = own_python(shlex.split(command) if isinstance(command, str) else list(command))
    except ValueError as error:
        return f"cannot read the command {command!r}: {error}"
    if is_archive_spec(argv):
        return _archive_problem(argv)
    if not argv:
        return "the command is empty"
    program = argv[0]
    if "{" in program:
        return None  # a placeholder names the program: known only per game
    if os.sep in program or (os.altsep and os.altsep in program):
        if not os.path.exists(program):
            return f"{program}: no such file (command: {command_text(command)})"
        if os.path.isdir(program) or not os.access(program, os.X_OK):
            return f"{program}: not an executable file (command: {command_text(command)})"
        return None
    if shutil.which(program) is None:
        return f"{program}: command not found (command: {command_text(command)})"
    return None


def _archive_problem(argv: list[str]) -> str | None:
    """None if the archive unpacks, has one main file and its starter exists, else the line."""
    try:
        player = resolve(argv)
    except ArchiveError as error:
        return str(error)
    if player.main.lower().endswith(".jar") and shutil.which("java") is None:
        return f"java: command not found (needed for the jar {player.main} of {player.archive})"
    if shutil.which("env") is None:
        return "env: command not found (it starts an archive's main file in the archive's folder)"
    return None


def require_commands(players: list[tuple[str, str | list[str]]]) -> None:
    """:class:`CommandError` for the first player whose command cannot start (before a run)."""
    for name, command in players:
        problem = check_command(command)
        if problem:
            raise CommandError(f"{name} cannot start: {problem}")


async def play_games(
    specs: list[GameSpec],
    *,
    parallel: int = 1,
    on_result: Callable[[GameResult], None] | None = None,
    give_up_after: int | None = 2,
) -> list[GameResult]:
    """Play ``specs``, ``parallel`` at a time; ``on_result`` is called as each game ends.
    Returns the results in spec order.  Raises :class:`CommandError` when a command cannot
    start, or crashed before joining in each of its first ``give_up_after`` games (or in every
    game it had, when it had fewer; None: never for crashes)."""
    results: list[GameResult | None] = [None] * len(specs)
    games_of: dict[str, int] = {}
    for spec in specs:
        for key in {command_text(command) for _, command in spec.players}:
            games_of[key] = games_of.get(key, 0) + 1
    crashes: dict[str, set[int]] = {}
    joined: set[str] = set()
    try:
        await _pool(specs, parallel, results, on_result,
                    lambda spec, result: _give_up_check(spec, result, crashes, joined, games_of, give_up_after))
    except BaseExceptionGroup as group:
        plain = _single_error(group)
        if plain is None:
            raise
        raise plain from None
    return [r for r in results if r is not None]


def _single_error(group: BaseExceptionGroup) -> BaseException | None:
    """The one error inside nested nurseries' groups (CommandError, a bad option, Ctrl-C)."""
    leaves, todo = [], [group]
    while todo:
        error = todo.pop()
        if isinstance(error, BaseExceptionGroup):
            todo.extend(error.exceptions)
        elif not isinstance(error, trio.Cancelled):
            leaves.append(error)
    return leaves[0] if len(leaves) == 1 else None


async def _pool(specs, parallel, results, on_result, check) -> None:
    async with trio.open_nursery() as run_nursery:
        tables: dict[str, object] = {}  # family name -> its adapter's Family

        def family(spec: GameSpec):
            entry, module = families.seat_adapter(spec.game)
            if entry.family not in tables:
                tables[entry.family] = module.Family(run_nursery)
            return entry, tables[entry.family]

        queue = iter(range(len(specs)))

        async def worker() -> None:
            for i in queue:
                entry, fam = family(specs[i])
                result = await _play(fam, entry.game_type, specs[i])
                results[i] = result
                if on_result is not None:
                    on_result(result)
                check(specs[i], result)

        async with trio.open_nursery() as pool:
            for _ in range(max(1, parallel)):
                pool.start_soon(worker)
        run_nursery.cancel_scope.cancel()


def play_games_blocking(specs: list[GameSpec], parallel: int = 1, **options) -> list[GameResult]:
    """:func:`play_games` in a trio loop of its own (for threads and worker processes)."""
    return trio.run(lambda: play_games(specs, parallel=parallel, **options))


def _give_up_check(spec, result: GameResult, crashes, joined, games_of, give_up_after) -> None:
    for (name, command), seat in zip(spec.players, result.seats):
        key = command_text(command)
        if seat.cause == CANNOT_START:
            raise CommandError(_broken_line(name, command, seat))
        if seat.cause == CRASHED:
            if give_up_after is not None:
                crashes.setdefault(key, set()).add(spec.index)
                if key not in joined and len(crashes[key]) >= min(give_up_after, games_of[key]):
                    raise CommandError(_broken_line(name, command, seat, games=len(crashes[key])))
        elif seat.cause not in ABSENT_CAUSES:
            joined.add(key)


def _broken_line(name: str, command, seat: SeatResult, games: int = 1) -> str:
    why = seat.reason or seat.cause
    head = f"{name}'s command cannot play"
    if games > 1:
        head += f" (it crashed before joining in each of its first {games} games)"
    return f"{head}: {why} -- command: {command_text(command)}"


async def _play(family, game_type: str, spec: GameSpec) -> GameResult:
    seats = [_Seat(spec, k) for k in range(len(spec.players))]
    try:
        return await _play_seats(family, game_type, spec, seats)
    finally:  # also when the run stops or is cancelled mid-game: no temporary log outlives its game
        for seat in seats:
            seat.discard_log()


async def _play_seats(family, game_type: str, spec: GameSpec, seats: list[_Seat]) -> GameResult:
    started_at = trio.current_time()
    count = len(seats)
    async with family.table(spec) as table:
        async with trio.open_nursery() as processes:
            absent: dict[int, str] = {}

            async def start_and_join(k: int) -> None:
                seat = seats[k]
                seed = spec.seat_seeds[k] if spec.seat_seeds else seat_seed(spec.seed, k)
                values = dict(table.values(k), seed=seed, game=game_type)
                command = resolve_command(seat.command)
                seat.argv = expand(command, **values)
                seat.without_reservation = "reservation" in values and not any(
                    "{reservation}" in word for word in ([command] if isinstance(command, str) else command))
                if seat.sandbox is not None:
                    await seat.enter_sandbox(processes, values)
                await processes.start(seat.run)
                cause = await seat.join(table, spec.start_timeout)
                if cause is not None:
                    absent[k] = cause

            if table.ordered:
                for k in range(count):
                    await start_and_join(k)
                    if absent.get(k) == CANNOT_START:
                        for later in seats[k + 1:]:
                            later.exited.set()  # never started
                        break
                    if k in absent:
                        await table.fill([k])
            else:
                async with trio.open_nursery() as joining:
                    for k in range(count):
                        joining.start_soon(start_and_join, k)
                if absent and CANNOT_START not in absent.values():
                    await table.fill(sorted(absent))
            outcome = Outcome(None, error=None)
            if CANNOT_START in absent.values():  # the run stops: no need to play this game out
                outcome.error = "a command cannot start"
            elif len(absent) == count:
                outcome.error = "no player joined"
            else:
                with trio.move_on_after(spec.game_timeout) as deadline:
                    outcome = await table.finish()
                if deadline.cancelled_caught:
                    outcome = Outcome(None, error=f"no result within {spec.game_timeout:g} s; cancelled")
            with trio.move_on_after(EXIT_GRACE):  # let the bots leave on their own
                for seat in seats:
                    await seat.exited.wait()
            processes.cancel_scope.cancel()
    return _record(game_type, spec, table, seats, absent, outcome, trio.current_time() - started_at)


def _record(game_type, spec, table, seats, absent, outcome: Outcome, duration: float) -> GameResult:
    count = len(seats)
    limited = {k for k, seat in enumerate(seats) if seat.limit is not None}
    if outcome.seats is not None:
        ranks = absent_last([s.rank for s in outcome.seats], set(absent) | limited)
    else:
        ranks = [count] * count
    results = []
    for k, seat in enumerate(seats):
        told = outcome.seats[k] if outcome.seats is not None else SeatOutcome(count, ())
        cause, reason = told.cause, told.reason
        if k in absent:
            cause, reason = absent[k], seat.absence_text(absent[k], spec.start_timeout)
        elif seat.limit is not None:  # the sandbox ended it mid-game: its limit, not the server's word
            cause = seat.limit[0]
            reason = "; ".join(part for part in (f"the sandbox ended it: {seat.limit[1]}", seat.tail_text()) if part)
        elif cause != REGULAR or seat.code not in (None, 0):
            reason = "; ".join(part for part in (reason, seat.tail_text()) if part) or None
        results.append(SeatResult(
            name=seat.name, seat=table.labels[k], rank=ranks[k], score=tuple(told.score), cause=cause,
            reason=reason, exit_code=seat.code, log=seat.kept_log(),
        ))
    return GameResult(
        game=game_type, index=spec.index, seed=spec.seed, seats=tuple(results), duration=duration,
        replay=outcome.replay, error=outcome.error, score_names=tuple(outcome.score_names),
        move_times={seats[k].name: tuple(times) for k, times in outcome.move_times.items()},
        raw=outcome.raw,
    )


class _Seat:
    """One seat's command in one game: its process, its output file, how it joined."""

    def __init__(self, spec: GameSpec, k: int) -> None:
        self.k = k
        self.name, self.command = spec.players[k]
        self.argv: list[str] = []
        self.exited = trio.Event()
        self.code: int | None = None
        self.could_not_start: str | None = None
        self.without_reservation = False  # a seat joined by reservation code whose command has no {reservation}
        limits = spec.sandboxed.get(self.name)
        self.sandbox = SandboxedSeat(limits) if limits is not None else None
        self.limit: tuple[str, str] | None = None  # (cause, reason) when a sandbox limit ended it
        if spec.logs is not None:
            spec.logs.mkdir(parents=True, exist_ok=True)
            safe = re.sub(r"[^\w.-]", "_", self.name)  # a tournament bot's name may hold any character
            self.log_path = spec.logs / f"game{spec.index + 1:03d}_{safe}.log"
            self.keep = True
        else:
            handle, name = tempfile.mkstemp(prefix="swc-seat-", suffix=".log")
            os.close(handle)
            self.log_path, self.keep = Path(name), False

    async def enter_sandbox(self, processes: trio.Nursery, values: dict) -> None:
        """Serve the relay to the game's port and wrap the command (a sandbox that cannot be
        made is a command that cannot start: the run stops, nothing runs unsandboxed)."""
        try:
            self.argv = self.sandbox.wrap(self.argv, int(values["port"]))
        except SandboxUnavailable as error:
            self.could_not_start = f"sandbox: {error}"
            return
        await processes.start(self.sandbox.serve, values["host"], int(values["port"]))

    async def run(self, task_status=trio.TASK_STATUS_IGNORED) -> None:
        if self.could_not_start:
            self.code = 127
            self.exited.set()
            task_status.started()
            return
        passed = (self.sandbox.status_write,) if self.sandbox is not None else ()
        with open(self.log_path, "wb") as output:
            try:
                process = await trio.lowlevel.open_process(
                    self.argv, stdin=subprocess.DEVNULL, stdout=output, stderr=output, start_new_session=True,
                    pass_fds=passed,
                )
            except OSError as error:
                self.could_not_start = f"{self.argv[0] if self.argv else '?'}: {error.strerror or error}"
                self.code = 127
                self.exited.set()
                task_status.started()
                return
            if self.sandbox is not None:
                self.sandbox.started()
            task_status.started()
            try:
                self.code = await wait_or_stop(process)
            finally:
                if self.sandbox is not None:
                    self.limit = self.sandbox.limit()
                self.exited.set()

    async def join(self, table: Table, timeout: float) -> str | None:
        """None once the seat has joined, else the cause it did not."""
        joined = trio.Event()

        async def watch_join() -> None:
            await table.wait_joined(self.k)
            joined.set()

        with trio.move_on_after(timeout):
            async with trio.open_nursery() as race:
                async def on_join() -> None:
                    await joined.wait()
                    race.cancel_scope.cancel()

                async def on_exit() -> None:
                    await self.exited.wait()
                    with trio.move_on_after(JOIN_GRACE):  # a join sent just before the exit counts
                        await joined.wait()
                    race.cancel_scope.cancel()

                race.start_soon(watch_join)
                race.start_soon(on_join)
                race.start_soon(on_exit)
        if joined.is_set():
            return None
        if not self.exited.is_set():
            return NEVER_JOINED
        if self.limit is not None:
            return self.limit[0]
        if self.could_not_start or self.code in CANNOT_START_CODES:
            return CANNOT_START
        return CRASHED

    def absence_text(self, cause: str, timeout: float) -> str:
        if cause == NEVER_JOINED:
            head = f"did not join within {timeout:g} s"
            if self.without_reservation:  # it most likely joined a room of its own
                head += ("; its command has no {reservation}: the seat is taken with the reservation code "
                         "(joinPrepared), e.g. add --reservation {reservation}")
        elif self.limit is not None:
            head = f"the sandbox ended it before it joined: {self.limit[1]}"
        elif self.could_not_start:
            head = f"cannot start: {self.could_not_start}"
        else:
            head = f"exited with code {self.code} before it joined"
        tail = self.tail_text()
        return f"{head}; {tail}" if tail else head

    def tail_text(self) -> str:
        lines = self.tail()
        return "last output: " + " | ".join(lines) if lines else ""

    def tail(self, count: int = TAIL_LINES) -> list[str]:
        try:
            with open(self.log_path, "rb") as handle:
                handle.seek(0, os.SEEK_END)
                handle.seek(max(0, handle.tell() - 8192))
                text = handle.read().decode("utf-8", "replace")
        except OSError:
            return []
        return [line.strip() for line in text.splitlines() if line.strip()][-count:]

    def kept_log(self) -> str | None:
        return str(self.log_path) if self.keep else None

    def discard_log(self) -> None:
        if self.sandbox is not None:
            self.sandbox.close()
        if not self.keep:
            self.log_path.unlink(missing_ok=True)
