"""The runner's seat adapter for ReversiXT (2 to 8 players, the reference server's binary protocol).

Each game gets a door of its own (:class:`~swc_local.server.reversixt.door.ReversiDoor`) on a
free localhost port, so games running at once never share a queue.  The door numbers players in
join order, so the seats join one after the other (``ordered``): seat *k*'s command starts once
seat *k-1* has sent its GROUP.  ``{port}``, ``{host}``, ``{seed}`` and ``{player}`` (the player
number, 1-based, also ``{color}``) are filled in.

A seat whose command did not join gets a stand-in that sends its GROUP and closes as soon as the
game begins: the door disqualifies it on its first request ("send failed"), the others play on.

Per seat: rank (the referee's: points, disqualified last), score ``(stones,)``, cause
``REGULAR`` or ``DISQUALIFIED`` with the referee's reason.  ``GameSpec.replays`` keeps the move
log (``gameNNN.log``, ``swc replay`` reads it); the option ``results`` a result file (``-r``
format, ``gameNNN.result``).

Options: ``map`` (a map file; default the bundled ``classic_2p.map``), ``time_limit`` (seconds,
``-t``), ``depth`` (``-d``), ``start_delay`` and ``turn_delay`` (the reference's pauses, 1 s
and 0.1 s), ``results`` (a directory).
"""

from __future__ import annotations

import contextlib
import os
import re

import trio

from swc_local.games.reversixt.mapfile import load_map
from swc_local.protocol import reversixt as wire
from swc_local.server.reversixt.door import DEFAULT_MAP, DoorSettings, FinishedGame, ReversiDoor
from swc_local.server.reversixt.game import Timing
from swc_local.tools.seats import Flag, Outcome, SeatOutcome

POLL = 0.005
_DISQUALIFIED = re.compile(r"^disqualified player (\d+) \((.*)\)$", re.M)


OPTIONS = ("map", "time_limit", "depth", "start_delay", "turn_delay", "results")
FLAGS = (  # swc match's and swc tournament's flags of this family (tools/family_flags.py)
    Flag(("--map",), "map", "a map file (default the bundled classic_2p.map)",
         tournament="map file (its player count is the seat count)"),
    Flag(("--timelimit", "-t"), "time_limit", "time limit per move in seconds, like -t (default 0: none)", float),
    Flag(("--depth", "-d"), "depth", "depth limit, like -d (default 1)", int),
    Flag(("--start-delay",), "start_delay", "pause before the first move (reference: 1 s)", float,
         tournament="pause before the first move (default 1 s, as the reference server)", tournament_metavar="S"),
    Flag(("--turn-delay",), "turn_delay", "pause between turns (reference: 0.1 s)", float,
         tournament="pause between moves (default 0.1 s, as the reference server)", tournament_metavar="S"),
    Flag(("--results",), "results", "write a result file (-r format) per game into this directory"),
)


def maps() -> list[str]:
    """``swc maps``: the bundled maps by the names ``--map`` takes."""
    from swc_local.games.reversixt.mapfile import bundled_maps

    out = ["ReversiXT maps (--map NAME, or a map file):"]
    for name, path in bundled_maps().items():
        game_map = load_map(str(path))
        out.append(f"  {name:<14} {game_map.players} players, {game_map.width}x{game_map.height}, "
                   f"{len(game_map.transitions)} transitions")
    return out


def check_options(game: str, options: dict) -> str | None:
    """A one-line problem with the options (a map that cannot be loaded), or None."""
    from swc_local.games.reversixt.mapfile import MapError

    path = options.get("map") or DEFAULT_MAP
    try:
        load_map(path)
    except (OSError, MapError) as error:
        return f"cannot load map {path}: {error}"
    return None


def seat_count(options: dict) -> int:
    """The map fixes the number of seats."""
    return load_map(options.get("map") or DEFAULT_MAP).players


class Family:
    def __init__(self, nursery: trio.Nursery) -> None:
        self.nursery = nursery

    @contextlib.asynccontextmanager
    async def table(self, spec):
        options = spec.options
        timing = Timing(**{k: options[k] for k in ("start_delay", "turn_delay") if options.get(k) is not None})
        settings = DoorSettings(
            host="127.0.0.1", port=0, map_path=options.get("map") or DEFAULT_MAP,
            time_limit=options.get("time_limit") or 0.0, depth=options.get("depth") or 1, timing=timing,
        )
        door = ReversiDoor(settings, load_map(settings.map_path))
        async with trio.open_nursery() as tasks:
            await tasks.start(door.run)
            try:
                yield ReversiTable(door, tasks, spec)
            finally:
                tasks.cancel_scope.cancel()


class ReversiTable:
    ordered = True

    def __init__(self, door: ReversiDoor, tasks: trio.Nursery, spec) -> None:
        self.door, self.tasks, self.spec = door, tasks, spec
        self.labels = [str(k + 1) for k in range(len(spec.players))]
        self.done = trio.Event()
        door.on_finished.append(lambda finished: self.done.set())

    def values(self, seat: int) -> dict:
        return dict(host="127.0.0.1", port=self.door.port, player=seat + 1, color=seat + 1)

    async def wait_joined(self, seat: int) -> None:
        while self.door.waiting_count() < seat + 1 and self.door.games_started == 0:
            await trio.sleep(POLL)

    async def fill(self, seats: list[int]) -> None:
        for seat in seats:
            self.tasks.start_soon(_stand_in, self.door.port)
            await self.wait_joined(seat)

    async def finish(self) -> Outcome:
        await self.done.wait()
        finished: FinishedGame = self.door.finished[-1]
        referee = finished.referee
        reasons = {int(player): why for player, why in _DISQUALIFIED.findall("".join(referee.log))}
        ranks = {player: (rank, points) for rank, player, points in referee.ranking()}
        seats = []
        for player in range(1, len(self.spec.players) + 1):
            rank, points = ranks[player]
            out = player in referee.state.disqualified
            seats.append(SeatOutcome(rank, (str(points),), "DISQUALIFIED" if out else "REGULAR",
                                     reasons.get(player) if out else None))
        number = self.spec.index + 1
        replay = None
        if self.spec.replays is not None:
            os.makedirs(self.spec.replays, exist_ok=True)
            replay = os.path.join(self.spec.replays, f"game{number:03d}.log")
            with open(replay, "w") as handle:
                handle.write("".join(referee.log))
        if self.spec.options.get("results"):
            os.makedirs(self.spec.options["results"], exist_ok=True)
            with open(os.path.join(self.spec.options["results"], f"game{number:03d}.result"), "w") as handle:
                handle.write(finished.result_text())
        return Outcome(seats, replay=replay, raw=finished, score_names=("stones",))


async def _stand_in(port: int) -> None:
    """Join with group 0 and close at the game's first message (the door disqualifies the seat)."""
    try:
        async with await trio.open_tcp_stream("127.0.0.1", port) as stream:
            await stream.send_all(wire.encode_group(0))
            await stream.receive_some(1)
    except (OSError, trio.BrokenResourceError, trio.ClosedResourceError):
        pass
