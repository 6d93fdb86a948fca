"""The runner's seat adapter for Robo Rally (2 to 6 players, the course's JSON protocol 1.0).

Each game gets a door of its own (``swc roborally`` semantics: one game, fixed map,
``min_players`` = the number of seats, the game's seed) on a free localhost port, so games
running at once never share a lobby.  Client IDs are given in connection order, so the seats
join one after the other (``ordered``): seat *k* is client ID *k* + 1 (also ``{color}`` and
``{player}``).  ``{host}``, ``{port}`` and ``{seed}`` are filled in.

A seat whose command did not join gets a stand-in (the reference bot) that takes the seat and
leaves the moment the game begins, so its robot is removed and the others play on.

Per seat: rank (the winner first, then by checkpoints reached), score ``(checkpoints,
reboots)``, cause ``REGULAR``, ``LEFT`` for a robot whose player left, or ``ROUND_LIMIT`` for
every seat of a game that had no winner after ``max_rounds`` rounds (a result, not an error).
``GameSpec.replays`` keeps the game's JSON-lines log (``swc replay`` reads it).

Options: ``map`` (default Dizzy Highway), ``max_rounds`` (default 40), and any
:class:`~swc_local.server.roborally.lobby.RoboRallySettings` field (``timer``,
``play_card_timeout``, ...).
"""

from __future__ import annotations

import contextlib
import dataclasses

import trio

from swc_local.server.roborally.door import RoboRallyDoor
from swc_local.server.roborally.lobby import RoboRallySettings
from swc_local.tools.results import ROUND_LIMIT, ranks_from_points
from swc_local.tools.seats import Flag, Outcome, SeatOutcome

POLL = 0.01
MAX_ROUNDS = 40
CLOSE_DELAY = 0.2  # seconds the bots get to read GameFinished before the door closes (serve: 2)
DOOR_FIXED = ("port", "host", "seed", "min_players", "single_game", "log_dir", "map")


OPTIONS = ("map", "max_rounds") + tuple(f.name for f in dataclasses.fields(RoboRallySettings) if f.name not in DOOR_FIXED)
FLAGS = (  # swc match's and swc tournament's flags of this family (tools/family_flags.py)
    Flag(("--map",), "map", "a map name (default Dizzy Highway)", tournament="map name"),
    Flag(("--max-rounds",), "max_rounds", "end a game without winner after this many rounds (default 40)", int,
         tournament="rounds before a game ends without winner"),
    Flag(("--timer",), "timer", "programming timer in seconds (default 30)", float),
    Flag(("--play-card-timeout",), "play_card_timeout", "wait for PlayCard in seconds (default 5)", float),
)


def maps() -> list[str]:
    """``swc maps``: the bundled courses by the names ``--map`` takes."""
    from swc_local.games.roborally.board import MAP_FILES, load_map

    out = ["Robo Rally courses (--map NAME):"]
    for name in MAP_FILES:
        board = load_map(name)
        out.append(f"  {name:<14} {len(board.start_points)} start points, {board.width}x{board.height}, "
                   f"{len(board.checkpoints)} checkpoints")
    return out


def check_options(game: str, options: dict) -> str | None:
    """A one-line problem with the options (an unknown map), or None."""
    from swc_local.protocol.roborally import MAP_NAMES

    if options.get("map") and options["map"] not in MAP_NAMES:
        return f"unknown map {options['map']!r} (known: {', '.join(MAP_NAMES)})"
    return None


class Family:
    def __init__(self, nursery: trio.Nursery) -> None:
        self.nursery = nursery

    @contextlib.asynccontextmanager
    async def table(self, spec):
        door_options = {k: v for k, v in spec.options.items() if k not in DOOR_FIXED and k != "max_rounds"}
        door_options.setdefault("close_delay", CLOSE_DELAY)
        settings = RoboRallySettings(
            port=0, map=spec.options.get("map") or "Dizzy Highway", seed=spec.seed, min_players=len(spec.players),
            single_game=True, log_dir=str(spec.replays) if spec.replays is not None else None, **door_options,
        )
        door = _WatchedDoor(settings)
        async with trio.open_nursery() as tasks:
            table = RoboRallyTable(door, tasks, spec)
            await tasks.start(table.run_door)
            try:
                yield table
            finally:
                tasks.cancel_scope.cancel()


class _WatchedDoor(RoboRallyDoor):
    """Notes which players left while their game ran (the rules forget it once it is over)."""

    left: set[int]

    def _spawn_room(self, room) -> None:
        self.left = set()
        game, remove = room.game, room.game.remove

        def watched_remove(pid: int) -> None:
            if not game.over:
                self.left.add(pid)
            remove(pid)

        game.remove = watched_remove
        super()._spawn_room(room)


class RoboRallyTable:
    ordered = True

    def __init__(self, door: RoboRallyDoor, tasks: trio.Nursery, spec) -> None:
        self.door, self.tasks, self.spec = door, tasks, spec
        self.labels = [str(k + 1) for k in range(len(spec.players))]
        self.stopped = trio.Event()
        self.max_rounds = spec.options.get("max_rounds") or MAX_ROUNDS

    async def run_door(self, task_status=trio.TASK_STATUS_IGNORED) -> None:
        try:
            await self.door.run(task_status=task_status)
        finally:
            self.stopped.set()

    def values(self, seat: int) -> dict:
        return dict(host="127.0.0.1", port=self.door.port, player=seat + 1, color=seat + 1)

    async def wait_joined(self, seat: int) -> None:
        while self.door.switchboard is None or self.door.switchboard.next_id <= seat + 1:
            await trio.sleep(POLL)

    async def fill(self, seats: list[int]) -> None:
        for seat in seats:
            self.tasks.start_soon(self._stand_in)
            await self.wait_joined(seat)

    async def _stand_in(self) -> None:
        from swc_local.client.roborally_bot import RoboRallyBot

        with trio.CancelScope() as scope:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(RoboRallyBot(seed=0, name="stand-in").play, "127.0.0.1", self.door.port)
                while not (self.door.switchboard and self.door.switchboard.rooms) and not self.door.done.is_set():
                    await trio.sleep(POLL)
                scope.cancel()  # the game began: the stand-in leaves, its robot is removed

    async def finish(self) -> Outcome:
        limited, room = False, None
        while not self.door.done.is_set():
            rooms = list(self.door.switchboard.rooms) if self.door.switchboard else []
            room = rooms[0] if rooms else None
            if room is not None and room.game.over:
                break
            if room is not None and room.game.round > self.max_rounds:
                limited = True
                break
            await trio.sleep(POLL)
        if room is None and self.door.finished_rooms:
            room = self.door.finished_rooms[0]
        if limited:  # the game stands as it is; its log says why it stopped
            self.door.stop(f"no winner after {self.max_rounds} rounds")
        await self.stopped.wait()  # after the close delay (a short one here) and the game's log
        if room is None:
            return Outcome(None, error="the game ended without a room")
        rules = room.game
        pids = sorted(rules.robots)
        if len(pids) != len(self.spec.players):
            return Outcome(None, error=f"{len(pids)} robots for {len(self.spec.players)} seats")
        points = [rules.robots[pid].checkpoints + (1000 if pid == rules.winner else 0) for pid in pids]
        seats = []
        for pid, rank in zip(pids, ranks_from_points(points)):
            robot = rules.robots[pid]
            cause, reason = "REGULAR", None
            if limited:
                cause, reason = ROUND_LIMIT, f"no winner after {self.max_rounds} rounds"
            elif pid in getattr(self.door, "left", ()):
                cause, reason = "LEFT", "the player left the game"
            seats.append(SeatOutcome(rank, (str(robot.checkpoints), str(robot.reboots)), cause, reason))
        summary = {"winner": pids.index(rules.winner) if rules.winner in pids else None, "rounds": rules.round}
        replay = self.door.log_files[0] if self.door.log_files else None
        return Outcome(seats, replay=replay, raw=summary, score_names=("checkpoints", "reboots"))
