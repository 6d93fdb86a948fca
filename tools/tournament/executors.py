"""Where the games of a tournament are played: on this machine, or as tasks on a Dask cluster.

Both take the same tasks, one :class:`~swc_local.tools.runner.GameSpec` per game, and report each
finished game to :meth:`Tournament.accept` (which writes it to the database) as soon as it ends.

- Locally, the one match runner plays the specs ``concurrency`` at a time with in-process doors
  (:func:`~swc_local.tools.runner.play_games`); a stopping rule cancels the games still running.
- With ``--dask``, every game is one task (:func:`play_task`): a worker plays it with its own
  in-process door (:func:`~swc_local.tools.runner.play_games_blocking`) and returns the result
  records; the tournament process keeps at most ``concurrency`` tasks in flight and writes the
  results. A worker that dies mid-game loses only that game: the scheduler runs the task again on
  another worker, and the game's key (its schedule key) makes it count once. A task that fails
  for good (Dask gives up after a task's worker died three times) is reported and left out of
  the database, so ``--resume`` plays it again.

Conformance notes: a game is the unit of work on Dask (not a game pair) so a dead worker costs
one game; the two games of a pair still share their board (the seed is in the spec).

Where a Dask game's files go (``--dask-files``, the user's choice): ``return`` (the default) plays
into a scratch folder on the worker and sends the replay and the bot logs back inside the task's
result; the host writes them to ``--replays``/``--logs`` (default: ``NAME-replays/`` beside the
database), so every path in the database is a path on the tournament's host. ``shared`` has the
worker write straight to ``--replays``/``--logs``, which must then be the same folder on every
machine (a network share; the paths are made absolute on the host). Each game records the worker
that played it and how often the scheduler had to run it again because a worker died (the
scheduler's count of workers lost while running the task), in the database and the output.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from itertools import islice
from pathlib import Path

import trio

from swc_local.tools import runner
from swc_local.tools.results import GameResult
from swc_local.tools.runner import GameSpec
from swc_local.tools.sandbox import Limits
from swc_local.tools.tournament.core import Tournament
from swc_local.tools.tournament.schedule import Slot

log = logging.getLogger("swc.tournament")

OnGame = Callable[[GameResult], None]


def spec_for(tournament: Tournament, slot: Slot) -> GameSpec:
    settings = tournament.settings
    commands = tournament.commands()
    return GameSpec(
        game=settings.game, index=slot.index, seed=slot.seed,
        players=[(name, commands[name]) for name in slot.seating],
        replays=Path(settings.replays) if settings.replays else None,
        logs=Path(settings.logs) if settings.logs else None,
        start_timeout=settings.start_timeout, game_timeout=settings.game_timeout,
        options=dict(settings.options) | dict(slot.options), seat_seeds=slot.bot_seeds,
        sandboxed={name: Limits(**limits) for name, limits in settings.sandboxed.items()},
    )


async def play_locally(tournament: Tournament, concurrency: int, on_game: OnGame | None = None, *,
                       play_games=None) -> None:
    """Play every pending game on this machine, ``concurrency`` at a time, until done or decided.

    A bot that crashes or never joins just loses its games; a command that cannot play at all
    (:attr:`Tournament.broken`) stops the run at once.
    """
    play_games = play_games or runner.play_games
    for slots in stages(tournament):
        specs = [spec_for(tournament, slot) for slot in slots]
        try:
            await _play_until_decided(tournament, specs, concurrency, on_game, play_games)
        except runner.CommandError as error:  # the runner stops for a command that cannot start
            if tournament.broken is None:
                tournament.broken = str(error)
            return
        if tournament.verdict is not None or tournament.broken is not None:
            return


def stages(tournament: Tournament):
    """The pending games, batch after batch: one for the formats whose schedule is known at the
    start; the contest's formats learn the next stage's games when a stage is complete. Ends
    when nothing is pending, or when a batch left games unplayed (a failed Dask task: those wait
    for ``--resume``, and the stage after them cannot be known)."""
    tried: set[str] = set()
    while True:
        pending = tournament.pending()
        keys = {slot.key for slot in pending}
        if not pending or keys & tried:
            return
        tried |= keys
        yield pending


async def _play_until_decided(tournament: Tournament, specs, concurrency: int, on_game, play_games) -> None:
    with trio.CancelScope() as scope:
        def on_result(result: GameResult) -> None:
            stop = tournament.accept(result)
            if on_game is not None:
                on_game(result)
            if stop:
                scope.cancel()

        await play_games(specs, parallel=max(1, concurrency), on_result=on_result, give_up_after=None)


def play_task(spec: GameSpec, bring_back: bool = False) -> list[dict]:
    """One game on a Dask worker: its own in-process door, the records as plain dicts.

    Each record has ``info``: the worker, the think times and, with ``bring_back``, the replay
    and log files' bytes (``files``: {"replay": ..., "logs": {bot: ...}}); then the game is played
    into a scratch folder that is removed afterwards. A command that cannot start stops the
    runner after it reported the game (cause ``CANNOT_START``): that game is returned like any
    other.
    """
    import dataclasses
    import shutil
    import tempfile

    from swc_local.tools.tournament.db import think_of

    scratch = Path(tempfile.mkdtemp(prefix="swc-task-")) if bring_back else None
    if scratch is not None:
        spec = dataclasses.replace(spec, replays=scratch / "replays" if spec.replays else None,
                                   logs=scratch / "logs" if spec.logs else None)
    results: list[GameResult] = []
    try:
        try:
            runner.play_games_blocking([spec], parallel=1, on_result=results.append, give_up_after=None)
        except runner.CommandError:
            if not results:
                raise
        records = []
        for result in results:
            info = {"worker": _worker_name(), "think": think_of(result)}
            if scratch is not None:
                info["files"] = _read_files(result)
            records.append(result.to_dict() | {"info": info})
        return records
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)


def _worker_name() -> str | None:
    try:
        from distributed import get_worker

        worker = get_worker()
    except (ImportError, ValueError):
        return None
    return str(worker.name) if worker.name is not None else worker.address


def _read_files(result: GameResult) -> dict:
    def read(path: str | None) -> bytes | None:
        try:
            return Path(path).read_bytes() if path else None
        except OSError:
            return None

    return {"replay": [Path(result.replay).name, read(result.replay)] if result.replay else None,
            "logs": {seat.name: [Path(seat.log).name, read(seat.log)] for seat in result.seats if seat.log}}


def land_files(tournament: Tournament, result: GameResult, files: dict | None) -> GameResult:
    """Write the files a task brought back to ``--replays``/``--logs`` on this host; the result
    with those paths."""
    import dataclasses

    if not files:
        return result
    settings = tournament.settings
    replay = result.replay
    if files.get("replay") and settings.replays:
        name, data = files["replay"]
        if data is not None:
            folder = Path(settings.replays)
            folder.mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes(data)
            replay = str(folder / name)
    seats = []
    for seat in result.seats:
        log_file = (files.get("logs") or {}).get(seat.name)
        if log_file and settings.logs and log_file[1] is not None:
            folder = Path(settings.logs)
            folder.mkdir(parents=True, exist_ok=True)
            (folder / log_file[0]).write_bytes(log_file[1])
            seat = dataclasses.replace(seat, log=str(folder / log_file[0]))
        seats.append(seat)
    return dataclasses.replace(result, replay=replay, seats=tuple(seats))


def _lost_workers(dask_scheduler, key: str) -> int:
    """On the scheduler: how many workers died while running the task ``key``."""
    task = dask_scheduler.tasks.get(key)
    return int(task.suspicious) if task is not None else 0


def _retries(client, key: str) -> int:
    try:
        return client.run_on_scheduler(_lost_workers, key=key)
    except Exception as error:  # an older scheduler: the game counts, its retries are unknown
        log.info("retries of %s unknown: %s", key, error)
        return 0


def task_key(tournament: Tournament, slot: Slot) -> str:
    """The Dask key of a game: the same for a retry, different for another tournament."""
    identity = f"{Path(tournament.db.path).resolve()}/{tournament.settings.seed}"
    return f"swc-game-{hashlib.sha1(identity.encode()).hexdigest()[:12]}-{slot.key}"


class DaskUnavailable(Exception):
    """Dask is not installed or the scheduler cannot be reached (one line, for the CLI)."""


def connect(address: str, timeout: float = 20.0):
    try:
        from distributed import Client
    except ImportError:
        raise DaskUnavailable("--dask needs Dask distributed: pip install 'swc-local[dask]'") from None
    try:
        return Client(address, timeout=timeout)
    except (OSError, TimeoutError, ValueError) as error:
        raise DaskUnavailable(f"--dask {address}: cannot reach a Dask scheduler ({error})") from None


def play_on_dask(tournament: Tournament, client, concurrency: int | None = None,
                 on_game: OnGame | None = None, *, task: Callable[[GameSpec], list[dict]] = play_task) -> list[str]:
    """Play every pending game as tasks on the cluster of ``client`` (stage after stage in the
    contest's formats); the keys of failed games."""
    if concurrency is None:
        concurrency = max(1, sum(client.nthreads().values()))
    failed: list[str] = []
    for batch in stages(tournament):
        stop = _play_batch_on_dask(tournament, client, batch, concurrency, on_game, task, failed)
        if stop or tournament.broken is not None:
            break
    return failed


def _play_batch_on_dask(tournament: Tournament, client, batch: list[Slot], concurrency: int, on_game, task,
                        failed: list[str]) -> bool:
    """One batch of games on the cluster; True when a stopping rule ended the run."""
    from distributed import as_completed

    slots = iter(batch)
    slot_of: dict[str, Slot] = {}
    in_flight: dict[str, object] = {}

    bring_back = tournament.settings.dask_files == "return"

    def submit(slot: Slot):
        spec = spec_for(tournament, slot)
        future = client.submit(task, spec, bring_back, key=task_key(tournament, slot), pure=False, retries=0)
        slot_of[future.key] = slot
        in_flight[future.key] = future
        return future

    running = as_completed([submit(slot) for slot in islice(slots, concurrency)])
    for future in running:
        slot = slot_of.pop(future.key)
        in_flight.pop(future.key, None)
        try:
            records = future.result()
            retries = _retries(client, future.key)
        except Exception as error:  # the task failed for good (e.g. its workers kept dying)
            log.error("game %s could not be played: %s: %s", slot.key, type(error).__name__, error)
            failed.append(slot.key)
            records = []
        finally:
            future.release()
        stop = False
        for record in records:
            info = dict(record.get("info") or {})
            result = land_files(tournament, GameResult.from_dict(record), info.pop("files", None))
            if retries:
                info["retries"] = retries
                log.warning("game %s was played again after %d worker(s) died running it; it counts once",
                            slot.key, retries)
            stop = tournament.accept(result, info) or stop
            if on_game is not None:
                on_game(result)
        if stop:
            client.cancel(list(in_flight.values()))
            return True
        following = next(slots, None)
        if following is not None:
            running.add(submit(following))
    return False
