"""The reference random bot: speaks only the wire protocol, asks the game plugin for a move.

It works for every classic game: it keeps the last memento's ``<state>``, rebuilds the game from
it when a move is requested, and answers with a uniformly random legal move.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass

from games.plugin import GamePlugin
from protocol import messages as msg
from protocol.element import Element
from client.connection import ClientConnection, ConnectionClosed

log = logging.getLogger("swc.bot")


@dataclass
class BotReport:
    """What one game looked like from the bot's seat."""

    room_id: str | None = None
    color: str | None = None
    moves: int = 0
    result: Element | None = None
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
    connection = await ClientConnection.connect(host, port)
    async with connection:
        if reservation:
            await connection.send(Element("joinPrepared", {"reservationCode": reservation}))
        else:
            await connection.send(Element("join", {"gameType": plugin.game_type}))
        state: Element | None = None
        while True:
            try:
                message = await connection.receive()
            except ConnectionClosed:
                report.error = report.error or "the server closed the connection"
                return report
            if message.tag == "joined":
                report.room_id = message.get("roomId")
            elif message.tag == "left":
                return report
            elif message.tag == "room":
                data = message.find("data")
                kind = data.get("class") if data is not None else None
                if kind == "welcomeMessage":
                    report.color = data.get("color")
                elif kind == "memento":
                    state = data.find("state")
                elif kind == msg.MOVE_REQUEST_CLASS and state is not None:
                    game = plugin.game_from_state(state)
                    move = plugin.random_move(game, rng)
                    if move is None:
                        report.error = "no legal move"
                        log.info("no legal move in room %s; leaving", report.room_id)
                        return report
                    report.moves += 1
                    await connection.send(msg.room(message.get("roomId"), plugin.move_element(move)))
                elif kind == "result":
                    report.result = data
                elif kind == "error":
                    report.error = data.get("message")
