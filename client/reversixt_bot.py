"""Reference ReversiXT clients that speak only the wire protocol, on the ladder's rungs
(client/ladder.py): ``random``, ``greedy``, ``search-short`` and ``search-long``.

They learn everything from the server's messages (MAP, PLAYER, MOVED, DISQ, END_PHASE1,
END_GAME), read with the codec of ``protocol/reversixt.py``, keep their own copy of the game
with the pure rules of ``games/reversixt/``, and answer every REQUEST with a legal move. ``greedy`` takes the move after which it owns the most stones (choice: the colour
with the most stones; bonus: an overwrite stone); in phase 2 it bombs where it loses the fewest
and others lose the most. The search rungs search with client/search.py (paranoid with more
than two players, max-n in their bomb phase) on ``games/reversixt/strategy.py`` within its node
budgets. Run one with::

    python -m swc_local.client.reversixt_bot --port 7777 --strategy greedy [--group 0] [--seed 1]

Conformance notes (the search rungs and the REQUEST's limits, spec reversixt.md D):

* The time in a REQUEST (the player's account in ms; 0: no limit) is the search's time guard:
  the search stops at 80 % of the account less 150 ms for the wire (at most
  :data:`GUARD_SECONDS`, client/ladder.py's), so a slow machine loses depth, never the game.
  Without a limit (the reference's default without ``-t``, and this door's without
  ``--reversixt-timelimit``) the guard is :data:`GUARD_SECONDS` all the same: a game with no
  clock still waits on the bot, and on a loaded machine a 4-player search once took 1.98 s a
  move with only the node budget to stop it.
* The depth byte caps the search's depth in plies (every player's move is one) when it is 2 or
  more.  A depth of 1 is what every server sends when it was started without ``-d`` (the
  reference never enforces it), so 1 (and 0) leave the depth to the budget: a search rung capped
  at one ply would be the greedy rung on another evaluation.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass, field

import trio

from swc_local.client import search
from swc_local.games.reversixt import strategy as search_strategy
from swc_local.protocol import reversixt as wire

from swc_local.games.reversixt.mapfile import BONUS, CHOICE, HOLE, INVERSION, MapError, parse_map
from swc_local.games.reversixt.rules import EMPTY_KINDS, SPECIAL_OVERWRITE, State

STRATEGIES = ("random", "greedy", "search-short", "search-long")
"""client/ladder.py's ``RUNGS``, spelt out: the ladder imports this module (through
client/bots.py), so this module cannot import the ladder (tests/ladder checks they agree)."""
BUDGETS = {"search-short": "SHORT_NODES", "search-long": "LONG_NODES"}  # the ladder's SEARCH_RUNGS
GUARD_SECONDS = 1.6  # the ladder's guard: the most a search move takes even with a larger account


class ClientError(Exception):
    """The client cannot go on (the server sent something it cannot use)."""


@dataclass
class ClientGame:
    """What a client knows, updated from the server's messages (sans-I/O)."""

    strategy: str = "greedy"
    rng: random.Random = field(default_factory=random.Random)
    state: State | None = None
    me: int = 0
    phase: int = 1
    over: bool = False
    disqualified: bool = False
    time_ms: int = 0  # the last REQUEST's time account (0: no limit)
    depth: int = 1  # the last REQUEST's depth byte

    def handle(self, frame: wire.Frame) -> bytes | None:
        """Feed one server frame; returns the answer to send (for a REQUEST), else None."""
        if frame.type == wire.MAP:
            try:
                self.state = State.initial(parse_map(frame.payload))
            except MapError as error:  # e.g. a map over 64 KiB, cut by the 16-bit MAP length
                raise ClientError(f"cannot read the map: {error}") from None
        elif frame.type == wire.PLAYER:
            self.me = frame.payload[0]
        elif frame.type == wire.MOVED:
            move, player = wire.decode_moved(frame.payload)
            self._apply(player, move)
        elif frame.type == wire.DISQ:
            player = frame.payload[0]
            self.state.disqualified.add(player)
            self.disqualified |= player == self.me
        elif frame.type == wire.END_PHASE1:
            self.phase = 2
        elif frame.type == wire.END_GAME:
            self.over = True
        elif frame.type == wire.REQUEST:
            self.time_ms, self.depth = wire.decode_request(frame.payload)
            x, y, special = self.choose()
            return wire.encode_move(x, y, special)
        return None

    def _apply(self, player: int, move: wire.Move) -> None:
        state = self.state
        if self.phase == 1:
            flips = state.check_placement(player, move.x, move.y, move.special)
            if flips is None:  # cannot happen with a correct server; stay usable anyway
                flips = []
            state.place(player, move.x, move.y, move.special, flips)
        else:
            state.bomb(player, move.x, move.y)

    def _special(self, square: int) -> int:
        code = self.state.squares[square]
        if code == CHOICE:
            if self.strategy == "random":
                return self.rng.randint(1, self.state.players)
            counts = {p: self.state.stones(p) for p in range(1, self.state.players + 1)}
            return max(counts, key=lambda p: (counts[p], p == self.me))
        if code == BONUS:
            return SPECIAL_OVERWRITE if self.strategy == "greedy" else self.rng.choice((20, 21))
        return 0

    def choose(self) -> tuple[int, int, int]:
        if self.strategy in BUDGETS:
            return self._search()
        state, me = self.state, self.me
        width = state.game_map.width
        if self.phase == 1:
            targets = sorted(state.legal_targets(me))
            if not targets:
                return (0, 0, 0)
            if self.strategy == "random":
                square = self.rng.choice(targets)
                return (square % width, square // width, self._special(square))
            best, best_key = targets[0], None
            mine = state.stones(me)
            for square in targets:
                special = self._special(square)
                x, y = square % width, square // width
                code = state.squares[square]
                if code in (CHOICE, INVERSION):  # colours change: play it out on a copy
                    trial = state.copy()
                    trial.place(me, x, y, special, trial.check_placement(me, x, y, special))
                    stones, overwrites = trial.stones(me), trial.overwrites[me]
                else:
                    flips = state.check_placement(me, x, y, special)
                    stones = mine + len(set(flips)) + (code != me)
                    overwrites = state.overwrites[me] - (code not in EMPTY_KINDS) + (code == BONUS)
                # prefer more stones, then not spending an overwrite stone
                key = (stones, overwrites)
                if best_key is None or key > best_key:
                    best, best_key = square, key
            return (best % width, best // width, self._special(best))
        squares = [i for i, code in enumerate(state.squares) if code != HOLE]
        if self.strategy == "random" or len(squares) > 400:
            square = self.rng.choice(squares)
            return (square % width, square // width, 0)
        best, best_key = squares[0], None
        for square in squares:
            trial = state.copy()
            trial.bomb(me, square % width, square // width)
            others = sum(trial.stones(p) for p in state.in_game() if p != me)
            key = (trial.stones(me), -others)
            if best_key is None or key > best_key:
                best, best_key = square, key
        return (best % width, best // width, 0)

    def _search(self) -> tuple[int, int, int]:
        """The search rungs' move within the rung's node budget, the REQUEST's time as the guard
        (:data:`GUARD_SECONDS` without one) and its depth (2 or more) as the cap (the module
        docstring's conformance notes)."""
        budget = getattr(search_strategy, BUDGETS[self.strategy])
        guard = GUARD_SECONDS
        if self.time_ms > 0:
            guard = max(0.01, min(GUARD_SECONDS, 0.8 * (self.time_ms - 150) / 1000))
        max_depth = self.depth if self.depth >= 2 else 64
        seats = self.state.in_game()
        if self.phase == 2 and len(seats) > 2:
            move = search.max_n_move(search_strategy, search_strategy.position(self), self.rng, budget, seats,
                                     max_depth=max_depth, seconds=guard)
        else:
            move = search.best_move(search_strategy, search_strategy.position(self), self.rng, budget,
                                    max_depth=max_depth, seconds=guard)
        return (0, 0, 0) if move is None else move


async def play(host: str, port: int, *, strategy: str = "greedy", group: int = 0, seed: int | None = None) -> ClientGame:
    """Join, play until END_GAME (or until the server closes), return what the client saw."""
    game = ClientGame(strategy, random.Random(seed))
    stream = await trio.open_tcp_stream(host, port)
    reader = wire.FrameReader(server_side=False, max_payload=1 << 24)
    async with stream:
        await stream.send_all(wire.encode_group(group))
        while not game.over:
            try:
                data = await stream.receive_some(65536)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                break
            if not data:
                break
            reader.feed(data)
            try:
                frames = reader.frames()
            except wire.FrameError as error:
                raise ClientError(f"bad frame from the server: {error}") from None
            for frame in frames:
                answer = game.handle(frame)
                if answer is not None:
                    await stream.send_all(answer)
    return game


def main(argv: list[str] | None = None) -> int:
    from swc_local.client.connection import port_argument

    parser = argparse.ArgumentParser(prog="reversixt-bot", description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", "-p", type=port_argument, default=7777)
    parser.add_argument("--strategy", choices=STRATEGIES, default="greedy")
    parser.add_argument("--group", type=int, default=0)
    parser.add_argument("--seed", type=int)
    args = parser.parse_args(argv)
    try:
        game = trio.run(lambda: play(args.host, args.port, strategy=args.strategy, group=args.group, seed=args.seed))
    except OSError as error:
        print(f"cannot connect to {args.host}:{args.port}: {error}", file=sys.stderr)
        return 1
    except ClientError as error:
        print(str(error), file=sys.stderr)
        return 1
    if game.state is None:
        return 1
    print(verdict(game))
    return 0 if game.over and not game.disqualified else 1


def verdict(game: ClientGame) -> str:
    """The bot's last line: won, lost or draw, and why (``player 1 won: 35 stones, the most
    (player 2: 29)``), from what the client saw.  A disqualified player scores nothing and ranks
    last, as the referee ranks; the DISQ frame carries no reason, so none is named."""
    state, me = game.state, game.me
    if game.disqualified:
        return f"player {me} lost: disqualified by the server"
    if not game.over:
        return f"player {me}: no result: the server closed the connection before the end ({state.stones(me)} stones)"
    points = {p: 0 if p in state.disqualified else state.stones(p) for p in range(1, state.players + 1)}
    others = ", ".join(f"player {p}: {n}" + (" disq." if p in state.disqualified else "")
                       for p, n in points.items() if p != me)
    best = max(points.values())
    if points[me] < best:
        return f"player {me} lost: {points[me]} stones, fewer than the best {best} ({others})"
    if list(points.values()).count(best) > 1:
        return f"player {me} draw: {points[me]} stones, the most, shared ({others})"
    return f"player {me} won: {points[me]} stones, the most ({others})"


if __name__ == "__main__":
    sys.exit(main())
