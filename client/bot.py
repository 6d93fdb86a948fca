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
