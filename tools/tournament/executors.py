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
one game, as the issue asks; the two games of a pair still share their board (the seed is in the
spec). Replay and log paths are paths on the worker that played the game.
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
        options=dict(settings.options),
    )


async def play_locally(tournament: Tournament, concurrency: int, on_game: OnGame | None = None, *,
                       play_games=None) -> None:
    """Play every pending game on this machine, ``concurrency`` at a time, until done or decided.

    A bot that crashes or never joins just loses its games (the runner is told never to give up
    on it). A command that could not be started in one game (checked once before the run, so
    something changed since) loses that game too: the runner stops its run for it, the game is
    already stored, and the run goes on with the games still pending.
    """
    play_games = play_games or runner.play_games
    reported: set[str] = set()
    while True:
        specs = [spec_for(tournament, slot) for slot in tournament.pending()]
        if not specs:
            return
        stored = len(tournament.stored)
        try:
            await _play_until_decided(tournament, specs, concurrency, on_game, play_games)
            return
        except runner.CommandError as error:
            if len(tournament.stored) == stored:  # nothing was recorded: it would only repeat
                raise
            if str(error) not in reported:  # once per command and reason, not once per game
                reported.add(str(error))
                log.warning("%s; it loses its games, the tournament goes on", error)


async def _play_until_decided(tournament: Tournament, specs, concurrency: int, on_game, play_games) -> None:
    with trio.CancelScope() as scope:
        def on_result(result: GameResult) -> None:
            stop = tournament.accept(result)
            if on_game is not None:
                on_game(result)
            if stop:
                scope.cancel()

        await play_games(specs, parallel=max(1, concurrency), on_result=on_result, give_up_after=None)


def play_task(spec: GameSpec) -> list[dict]:
    """One game on a Dask worker: its own in-process door, the records as plain dicts.

    A command that cannot start stops the runner after it reported the game (cause
    ``CANNOT_START``): that game is returned like any other.
    """
    results: list[GameResult] = []
    try:
        runner.play_games_blocking([spec], parallel=1, on_result=results.append, give_up_after=None)
    except runner.CommandError:
        if not results:
            raise
    return [result.to_dict() for result in results]


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
    """Play every pending game as tasks on the cluster of ``client``; the keys of failed games."""
    from distributed import as_completed

    slots = iter(tournament.pending())
    if concurrency is None:
        concurrency = max(1, sum(client.nthreads().values()))
    slot_of: dict[str, Slot] = {}
    in_flight: dict[str, object] = {}

    def submit(slot: Slot):
        spec = spec_for(tournament, slot)
        future = client.submit(task, spec, key=task_key(tournament, slot), pure=False, retries=0)
        slot_of[future.key] = slot
        in_flight[future.key] = future
        return future

    running = as_completed([submit(slot) for slot in islice(slots, concurrency)])
    failed: list[str] = []
    for future in running:
        slot = slot_of.pop(future.key)
        in_flight.pop(future.key, None)
        try:
            records = future.result()
        except Exception as error:  # the task failed for good (e.g. its workers kept dying)
            log.error("game %s could not be played: %s: %s", slot.key, type(error).__name__, error)
            failed.append(slot.key)
            records = []
        finally:
            future.release()
        stop = False
        for record in records:
            result = GameResult.from_dict(record)
            stop = tournament.accept(result) or stop
            if on_game is not None:
                on_game(result)
        if stop:
            client.cancel(list(in_flight.values()))
            break
        following = next(slots, None)
        if following is not None:
            running.add(submit(following))
    return failed
