"""``swc match``: N games between two player commands on an in-process server.

How one match runs:

1. A server starts on a free localhost port with a random admin passphrase (and ``--seed``,
   ``--replays``, ``--load-game``/``--turn``, timeouts as given).
2. An admin prepares all N rooms up front, in game order, so room *i* always gets the *i*-th
   board of the seed whatever ``--parallel`` is.  Colours alternate: player 1 is red in games
   1, 3, 5, ... and blue in the others (ONE and TWO in the 2022+ games: every seat label, here,
   in the report and in ``{color}``, comes from :func:`swc_local.games.plugin.seat_labels`); the
   display names are ``player1``/``player2``.
3. Up to K games run at once.  For each, an admin connection observes the room, then both
   commands are started with their reservation codes.  The game ends the usual way, with a
   result, whatever the commands do: a crash is LEFT, a bot that stops answering is
   HARD_TIMEOUT (the server's timer), and a command that exits or does not join within
   ``start_timeout`` seconds is replaced by the server's dummy via a forced ``step`` (which then
   times out).  After the result both processes get a moment to exit and are then killed.
   Only a game that runs past ``game_timeout`` is cancelled and counts as "no result".

Time per move is measured by the observer: the time from one state to the next is charged to
the side that was to move (it includes the loopback round trip, well under a millisecond).
"""

from __future__ import annotations

import logging
import random
import secrets
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import trio

from swc_local.client.admin import Admin
from swc_local.client.client import Client
from swc_local.client.messages import Left, Memento, Result
from swc_local.games.plugin import MODERN, GamePlugin, seat_labels
from swc_local.server.app import Server
from swc_local.server.config import Settings
from swc_local.server.replay import position_factory
from swc_local.tools.players import expand, reference_bot_command, run_player

log = logging.getLogger("swc.match")

NAMES = ("player1", "player2")


@dataclass
class MatchConfig:
    plugin: GamePlugin
    games: int = 10
    player1: str | list[str] | None = None  # None: the reference bot
    player2: str | list[str] | None = None
    seed: int | None = None
    parallel: int = 1
    replays: Path | None = None
    load_game: str | None = None
    turn: int = 0
    soft_timeout_ms: int | None = None
    hard_timeout_ms: int | None = None
    start_timeout: float = 15.0
    game_timeout: float = 900.0
    logs: Path | None = None  # bot output files; None discards it

    def command(self, player: int) -> str | list[str]:
        command = (self.player1, self.player2)[player]
        return command if command is not None else reference_bot_command(self.plugin.game_type)


@dataclass
class GameRecord:
    index: int
    room_id: str
    player1_seat: int  # 0: player1 is red (ONE)
    result: Result | None = None
    error: str | None = None
    move_times: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))  # per player
    exit_codes: list[int | None] = field(default_factory=lambda: [None, None])  # per player
    replay: Path | None = None
    labels: tuple[str, str] = ("red", "blue")  # the game's seat names, :func:`seat_labels`

    def seat_of(self, player: int) -> int:
        return self.player1_seat if player == 0 else 1 - self.player1_seat

    def label(self, player: int) -> str:
        """The seat of ``player`` as the game names it: red/blue, or ONE/TWO in 2022+ games."""
        return self.labels[self.seat_of(player)]

    def score(self, player: int):
        return self.result.scores[self.seat_of(player)] if self.result else None


@dataclass
class PlayedGame:
    """One game seen from player 1 (the bot under test): what the pytest helper returns."""

    record: GameRecord

    @property
    def result(self) -> Result | None:
        return self.record.result

    @property
    def bot(self):
        """The bot's :class:`swc_local.client.messages.Score` (cause, reason, parts, points)."""
        return self.record.score(0)

    @property
    def opponent(self):
        return self.record.score(1)

    @property
    def color(self) -> str:
        """The bot's seat in the game's own names: red/blue, or ONE/TWO in 2022+ games."""
        return self.record.label(0)

    @property
    def team(self) -> str:
        """The bot's seat as the 2022+ games name it (ONE moves first, as red does)."""
        return ("ONE", "TWO")[self.record.player1_seat]

    @property
    def won(self) -> bool:
        return self.bot is not None and self.bot.points == 2

    @property
    def draw(self) -> bool:
        return self.bot is not None and self.bot.points == 1

    @property
    def exit_code(self) -> int | None:
        return self.record.exit_codes[0]

    @property
    def replay(self) -> Path | None:
        return self.record.replay

    @property
    def error(self) -> str | None:
        return self.record.error

    def __repr__(self) -> str:
        if self.result is None:
            return f"<game without a result: {self.error}>"
        return f"<game: bot {self.color} {self.bot.cause} {'/'.join(self.bot.parts)}, opponent {self.opponent.cause} {'/'.join(self.opponent.parts)}>"


@dataclass
class MatchReport:
    config: MatchConfig
    seed: int
    records: list[GameRecord]
    seconds: float

    @property
    def complete(self) -> bool:
        return len(self.records) == self.config.games and all(r.result is not None for r in self.records)


def bot_seed(match_seed: int, index: int, player: int) -> int:
    """The ``{seed}`` of one player in one game: fixed by the match seed, different per bot."""
    return random.Random(f"{match_seed}/{index}/{player}").getrandbits(31)


async def run_match(config: MatchConfig, on_game: Callable[[GameRecord], None] | None = None) -> MatchReport:
    """Play the match; ``on_game`` is called as each game ends (for progress display)."""
    seed = config.seed if config.seed is not None else secrets.randbits(31)
    password = secrets.token_hex(16)
    settings = Settings(
        host="127.0.0.1", port=0, password=password, seed=seed,
        save_replay=config.replays is not None, replay_dir=str(config.replays or "replays"),
        load_game_file=config.load_game, turn_to_load=config.turn,
        soft_timeout_ms=config.soft_timeout_ms, hard_timeout_ms=config.hard_timeout_ms,
        passphrase_checks_per_second=0,  # a private server with a random passphrase: no limit needed
    )
    started_at = trio.current_time()
    records: list[GameRecord] = []
    # outside the nursery: a bad --load-game (or one of another game) raises ReplayError plainly
    server = Server(settings, position_factory(config.load_game, config.turn, config.plugin.game_type) if config.load_game else None)
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run)
        async with await Admin.connect("127.0.0.1", server.port, password) as admin:
            rooms = [await _prepare(admin, config, index, index % 2) for index in range(config.games)]
        queue = iter(rooms)  # K workers take the games in order

        async def worker() -> None:
            for record, codes in queue:
                await _play(config, server, password, seed, record, codes)
                records.append(record)
                if on_game is not None:
                    on_game(record)

        async with trio.open_nursery() as games:
            for _ in range(max(1, config.parallel)):
                games.start_soon(worker)
        nursery.cancel_scope.cancel()
    records.sort(key=lambda r: r.index)
    return MatchReport(config, seed, records, trio.current_time() - started_at)


async def play_one_game(
    config: MatchConfig, server: Server, password: str, *, player1_seat: int = 0, seed: int | None = None
) -> GameRecord:
    """One game of ``config`` on an already running ``server`` (the pytest helper uses this)."""
    seed = seed if seed is not None else secrets.randbits(31)
    async with await Admin.connect("127.0.0.1", server.port, password) as admin:
        record, codes = await _prepare(admin, config, 0, player1_seat)
    await _play(config, server, password, seed, record, codes)
    return record


async def _prepare(admin: Admin, config: MatchConfig, index: int, player1_seat: int) -> tuple[GameRecord, tuple[str, ...]]:
    names = NAMES if player1_seat == 0 else NAMES[::-1]
    prepared = await admin.prepare(config.plugin, list(names))
    record = GameRecord(index, prepared.room_id, player1_seat, labels=seat_labels(config.plugin))
    return record, prepared.reservations


async def _play(config: MatchConfig, server: Server, password: str, seed: int, record: GameRecord, codes) -> None:
    started = trio.Event()
    exited = [trio.Event(), trio.Event()]
    async with await Admin.connect("127.0.0.1", server.port, password) as admin:
        await admin.observe(record.room_id)
        async with trio.open_nursery() as nursery:
            for player in (0, 1):
                seat = record.seat_of(player)
                argv = expand(
                    config.command(player), host="127.0.0.1", port=server.port, reservation=codes[seat],
                    seed=bot_seed(seed, record.index, player), game=config.plugin.game_type,
                    color=record.labels[seat],
                )
                nursery.start_soon(_player, config, record, player, argv, exited[player])
            nursery.start_soon(_force_start_when_stuck, config, admin, record, started, exited, codes, server.port)
            with trio.move_on_after(config.game_timeout) as deadline:
                await _observe(config, admin, record, started)
            if deadline.cancelled_caught:
                record.error = f"no result within {config.game_timeout:g} s; cancelled"
                await admin.cancel(record.room_id)
            with trio.move_on_after(1.0):  # let the bots leave on their own
                for event in exited:
                    await event.wait()
            nursery.cancel_scope.cancel()
    writer = server.replay_writer
    if writer is not None and record.room_id in writer.paths:
        path = writer.paths[record.room_id]
        record.replay = path.rename(path.with_name(f"game{record.index + 1:03d}_{path.name}"))


async def _player(config: MatchConfig, record: GameRecord, player: int, argv: list[str], exited: trio.Event) -> None:
    output = subprocess.DEVNULL
    if config.logs is not None:
        config.logs.mkdir(parents=True, exist_ok=True)
        output = open(config.logs / f"game{record.index + 1:03d}_{NAMES[player]}.log", "wb")
    try:
        record.exit_codes[player] = await run_player(argv, output, exited=exited)
    finally:
        if output is not subprocess.DEVNULL:
            output.close()


async def _force_start_when_stuck(config, admin: Admin, record: GameRecord, started: trio.Event, exited, codes, port) -> None:
    """A forced step when the game has not started in time or a command exited before it did.

    The 2022+ servers ignore (2022) or cancel on (2025+) a forced step in a half-empty room, so
    for those games the runner takes every free seat itself with a silent stand-in instead: the
    server's move timer then scores the missing player, as the classic dummy is scored.
    """
    with trio.move_on_after(config.start_timeout):
        async with trio.open_nursery() as watch:
            for event in exited:
                async def wait(event=event):
                    await event.wait()
                    watch.cancel_scope.cancel()
                watch.start_soon(wait)
            watch.start_soon(_cancel_on, started, watch)
    if not started.is_set():
        log.info("game %d: not started (a player did not join); forcing the start", record.index + 1)
        if config.plugin.dialect == MODERN:
            # the seats of commands that exited, or every seat once start_timeout has passed
            gone = [player for player in (0, 1) if exited[player].is_set()] or [0, 1]
            async with trio.open_nursery() as stand_ins:
                for player in gone:
                    stand_ins.start_soon(_silent_stand_in, config.plugin, port, codes[record.seat_of(player)])
        else:
            await admin.step(record.room_id, forced=True)


async def _silent_stand_in(plugin: GamePlugin, port: int, code: str) -> None:
    """Join a prepared seat and never move (a seat already taken just refuses the code)."""
    try:
        async with await Client.connect("127.0.0.1", port, plugin) as client:
            await client.join_prepared(code)
            async for _ in client:
                pass
    except Exception as error:  # a taken seat's refusal or the room's end: nothing to do
        log.debug("stand-in for %s: %s", code, error)


async def _cancel_on(event: trio.Event, nursery: trio.Nursery) -> None:
    await event.wait()
    nursery.cancel_scope.cancel()


async def _observe(config: MatchConfig, admin: Admin, record: GameRecord, started: trio.Event) -> None:
    last: tuple[float, int] | None = None  # (time, seat to move) of the previous state
    async for message in admin.room_messages(record.room_id):
        if isinstance(message, Memento):
            started.set()
            now = trio.current_time()
            seat = config.plugin.game_from_state(message.state).current_seat
            if last is not None:
                player = 0 if last[1] == record.player1_seat else 1
                record.move_times[player].append(now - last[0])
            last = (now, seat)
        elif isinstance(message, Result):
            record.result = message
        elif isinstance(message, Left) and record.result is None:
            record.error = "the room closed without a result"
