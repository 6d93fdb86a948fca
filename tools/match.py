"""``swc match``'s one config: N games of any game between player commands.

:class:`MatchConfig` turns into one :class:`~swc_local.tools.runner.GameSpec` per game
(:meth:`MatchConfig.specs`) and :func:`run_match` plays them through the one runner.

- Seats: the game's seat count is the number of ``players`` (one command for every seat when
  only one is given); a family whose options fix the count (a ReversiXT map) says so through its
  adapter's ``seat_count``.  Without ``players`` every seat plays the game's reference bot.
- ``opponent``: a rung of the game's ladder (client/ladder.py); every seat but the first plays the
  reference bot at it, the first the one command given (or the default reference bot).
- Names: ``player1``, ``player2``, ... in the order the commands were given.
- Seats rotate: in game *i* (0-based) seat *k* is played by player ``(k + i) % n``, so with two
  players player 1 is red (ONE) in games 1, 3, 5, ... and blue (TWO) in the others, and with
  more each player sits in each seat equally often over ``n`` games.
- Seeds: game *i* has the board seed ``seed + i`` (so one game can be played again alone with
  ``--seed`` of that game and ``--games 1``), whatever ``--parallel`` is.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from swc_local.client import ladder
from swc_local.games import registry
from swc_local.tools import families
from swc_local.tools.results import GameResult
from swc_local.tools.runner import GameSpec, play_games
from swc_local.tools.sandbox import Limits
from swc_local.tools.sandbox_flags import chosen


@dataclass
class MatchConfig:
    game: object  # game type, short name, or an XML plugin (its game_type is used)
    games: int = 10
    players: list[str | list[str]] | None = None  # None: the reference bot in every seat
    opponent: str | None = None  # a rung: every seat but the first is the reference bot at it
    seats: int | None = None  # with one command (or none): how many seats it fills
    seed: int | None = None
    parallel: int = 1
    replays: Path | None = None
    logs: Path | None = None  # every command's output (None: read for its last lines, then removed)
    start_timeout: float = 15.0
    game_timeout: float = 900.0
    options: dict = field(default_factory=dict)  # per-family extras (map, move time limits, ...)
    sandbox: bool | frozenset[str] | None = None  # every player, none, those named; None: each one's default
    limits: Limits = field(default_factory=Limits)  # a sandboxed player's limits

    @property
    def game_type(self) -> str:
        name = getattr(self.game, "game_type", self.game)
        game = registry.entry(name)
        if game is None:
            raise ValueError(registry.unknown_game_message(str(name)))
        return game.game_type

    def commands(self) -> list[str | list[str]]:
        """One command per player, in the order given (before any rotation)."""
        game = registry.entry(self.game_type)
        adapter = families.family(game.family).adapter
        fixed = adapter.seat_count(self.options) if hasattr(adapter, "seat_count") else None
        given = list(self.players or [])
        count = fixed or self.seats or (len(given) if len(given) > 1 else game.seats[0])
        low, high = game.seats
        if not low <= count <= high:
            seats = f"{low} seats" if low == high else f"{low} to {high} seats"
            raise ValueError(f"{game.name} has {seats}, not {count} (one --player per seat, or one for all)")
        if self.opponent is not None:
            if len(given) > 1:
                raise ValueError("--opponent seats the reference bot in every seat but the first: give one player")
            return [given[0] if given else ladder.command(game), *[ladder.command(game, self.opponent)] * (count - 1)]
        if len(given) <= 1:
            return (given or [ladder.command(game)]) * count
        if len(given) != count:
            raise ValueError(f"{game.name} here has {count} seats: give one command for all or exactly {count}")
        return given

    def sandboxed(self, commands: list) -> dict[str, Limits]:
        """Player name -> its sandbox's limits, for the players that run sandboxed."""
        names = [f"player{k + 1}" for k in range(len(commands))]
        return {name: self.limits for name, command in zip(names, commands) if chosen(self.sandbox, name, command)}

    def specs(self, seed: int) -> list[GameSpec]:
        commands = self.commands()
        named = [(f"player{k + 1}", command) for k, command in enumerate(commands)]
        sandboxed = self.sandboxed(commands)
        n = len(named)
        return [
            GameSpec(
                game=self.game_type, index=i, seed=seed + i,
                players=[named[(k + i) % n] for k in range(n)],
                replays=self.replays, logs=self.logs, start_timeout=self.start_timeout,
                game_timeout=self.game_timeout, options=dict(self.options), sandboxed=dict(sandboxed),
            )
            for i in range(self.games)
        ]


@dataclass
class MatchReport:
    config: MatchConfig
    seed: int
    records: list[GameResult]
    seconds: float
    commands: list = field(default_factory=list)  # per player, in the order given

    @property
    def complete(self) -> bool:
        return len(self.records) == self.config.games and all(r.error is None for r in self.records)


async def run_match(config: MatchConfig, on_game: Callable[[GameResult], None] | None = None) -> MatchReport:
    """Play the match; ``on_game`` is called as each game ends (progress, Ctrl-C's table)."""
    import trio

    seed = config.seed if config.seed is not None else secrets.randbits(31)
    started = trio.current_time()
    records = await play_games(config.specs(seed), parallel=config.parallel, on_result=on_game)
    return MatchReport(config, seed, records, trio.current_time() - started, config.commands())
