"""The reference random bot, written on the client library (:mod:`swc_local.client.client`).

It works for every classic game: on each move request it rebuilds the game from the last
memento (``plugin.game_from_state``) and answers with a uniformly random legal move drawn from
its own ``random.Random(seed)``, so a seeded bot on a seeded board plays the same game again.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass

from swc_local.games.plugin import GamePlugin
from swc_local.protocol.element import Element
from swc_local.client.client import Client
from swc_local.client.messages import Error, Joined, MoveRequest, Result, Welcome

log = logging.getLogger("swc.bot")


@dataclass
class BotReport:
    """What one game looked like from the bot's seat."""

    room_id: str | None = None
    color: str | None = None
    moves: int = 0
    result: Element | None = None  # the <data class="result"> element
    outcome: Result | None = None  # the same, typed
    error: str | None = None


async def play_game(
    plugin: GamePlugin,
    host: str = "localhost",
    port: int = 13050,
    reservation: str | None = None,
    seed: int | None = None,
) -> BotReport:
    """Join (or joinPrepared) one game, play it with random moves, and return what happened."""
    rng = random.Random(seed)
    report = BotReport()
    async with await Client.connect(host, port, plugin) as client:
        if reservation:
            await client.join_prepared(reservation)
        else:
            await client.join()
        async for message in client:
            if isinstance(message, (Joined, Welcome)):
                report.room_id = message.room_id
                report.color = client.color
            elif isinstance(message, MoveRequest) and client.memento is not None:
                move = plugin.random_move(client.memento.game, rng)
                if move is None:
                    report.error = "no legal move"
                    log.info("no legal move in room %s; leaving", report.room_id)
                    return report
                report.moves += 1
                await client.send_move(move, message.room_id)
            elif isinstance(message, Result):
                report.outcome, report.result = message, message.element.find("data")
            elif isinstance(message, Error):
                report.error = message.message
        if report.outcome is None and report.error is None:
            report.error = "the server closed the connection"
    return report


def add_commands(commands) -> None:
    """``swc bot GAME`` (the classic and modern games) and ``swc roborally-bot``."""
    from swc_local.games import registry
    from swc_local.protocol.roborally import MAP_NAMES

    bot = commands.add_parser("bot", help="play one game with the reference random bot")
    bot.add_argument("game", help="game type or short name: " + ", ".join(registry.game_types()))
    bot.add_argument("--host", default="localhost")
    bot.add_argument("--port", type=int, default=13050)
    bot.add_argument("--reservation", help="reservation code of a prepared game (joinPrepared)")
    bot.add_argument("--seed", type=int, help="seed for the bot's random choices")
    bot.set_defaults(run=_bot)

    roborally = commands.add_parser("roborally-bot", help="play one Robo Rally game with a reference bot")
    roborally.add_argument("--host", default="localhost")
    roborally.add_argument("--port", type=int, default=52020)
    roborally.add_argument("--greedy", action="store_true", help="program towards the next checkpoint (default: random)")
    roborally.add_argument("--seed", type=int)
    roborally.add_argument("--name")
    roborally.add_argument("--human", action="store_true", help="say isAI=false (then the bot chooses the map)")
    roborally.add_argument("--map", choices=MAP_NAMES, help="the map to choose when asked")
    roborally.set_defaults(run=_roborally_bot)


def _bot(args) -> int:
    import trio

    from swc_local.games import registry

    plugin = registry.get(registry.resolve(args.game))
    if plugin is None:
        log.error("unknown game %r (known: %s)", args.game, ", ".join(registry.game_types()))
        return 2
    report = None
    try:
        report = trio.run(play_game, plugin, args.host, args.port, args.reservation, args.seed)
    except* OSError as errors:
        log.error("cannot connect to %s:%d: %s", args.host, args.port, errors.exceptions[0])
    except* KeyboardInterrupt:
        log.info("interrupted")
    if report is None:
        return 1
    if report.result is None:
        log.error("game ended without a result: %s", report.error)
        return 1
    scores = [(score.cause, list(score.parts)) for score in report.outcome.scores] if report.outcome else []
    log.info("room %s, playing %s, %d moves: %s", report.room_id, report.color, report.moves, scores)
    return 0


def _roborally_bot(args) -> int:
    import json

    import trio

    from swc_local.games.roborally.bots import play_bot

    report = trio.run(lambda: play_bot(args.host, args.port, args.greedy, args.seed, name=args.name,
                                       is_ai=not args.human, map_name=args.map))
    print(json.dumps(report.__dict__))
    return 0 if report.finished else 1
