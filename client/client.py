"""A player's connection: join a game, receive typed messages, send moves.

Built on :class:`swc_local.client.connection.ClientConnection` (the same sans-I/O reader the server uses)
and :mod:`swc_local.client.messages`.  A minimal bot::

    async with await Client.connect("localhost", 13050, game="piranhas") as client:
        await client.join()
        async for message in client:
            if isinstance(message, MoveRequest):
                game = client.memento.game
                await client.send_move(my_choice(game))

The client remembers what a bot always needs: the room id, its seat, the last memento and the
result.  Iteration ends after ``<left>`` (the game is over; the server keeps the connection open,
spec §4), after ``CloseConnection``, or when the server hangs up.
"""

from __future__ import annotations

from swc_local.games import registry
from swc_local.games.plugin import GamePlugin
from swc_local.protocol.element import Element
from swc_local.protocol import responses as msg
from swc_local.client.connection import ClientConnection, ConnectionClosed
from swc_local.client.messages import (
    Closed, Error, Joined, Left, Memento, Result, ServerMessage, Welcome, parse, seat_of,
)

__all__ = ["Client", "ConnectionClosed", "WrongGame", "resolve_plugin"]


class WrongGame(Exception):
    """The room plays another game than the client was made for (a Piranhas bot seated in a
    Blokus room): raised by :meth:`Client.receive` at the first state, naming both games,
    instead of the bot failing later on a board it cannot read."""


def resolve_plugin(game: str | GamePlugin | None) -> GamePlugin | None:
    """A plugin from a game type, a short name (``piranhas``) or a plugin object."""
    if game is None or not isinstance(game, str):
        return game
    plugin = registry.get(registry.resolve(game))
    if plugin is None:
        raise ValueError(f"unknown game {game!r} (known: {', '.join(registry.game_types())})")
    return plugin


class Client:
    """One player connection (also the base of :class:`swc_local.client.admin.Admin`)."""

    def __init__(self, connection: ClientConnection, game: str | GamePlugin | None = None) -> None:
        self.connection = connection
        self.plugin = resolve_plugin(game)
        self.room_id: str | None = None
        self.color: str | None = None  # "red" / "blue" once welcomed
        self.memento: Memento | None = None
        self.result: Result | None = None
        self.error: str | None = None  # the last error the server sent (a refused join or move)
        self.closed_by_server = False
        self.over = False  # left, closed or disconnected

    @classmethod
    async def connect(
        cls, host: str = "localhost", port: int = 13050, game: str | GamePlugin | None = None
    ) -> Client:
        return cls(await ClientConnection.connect(host, port), game)

    # -- requests -----------------------------------------------------------------------------

    async def send(self, element: Element | str) -> None:
        await self.connection.send(element)

    async def join(self, game: str | GamePlugin | None = None) -> None:
        """``<join gameType=...>``: take the first open seat of that game, or open a room."""
        if game is not None:
            self.plugin = resolve_plugin(game)
        if self.plugin is None:
            raise ValueError("join needs a game")
        await self.send(Element("join", {"gameType": self.plugin.game_type}))

    async def join_prepared(self, reservation: str) -> None:
        """``<joinPrepared reservationCode=...>``: take the seat an admin prepared."""
        await self.send(Element("joinPrepared", {"reservationCode": reservation}))

    async def send_move(self, move: object, room_id: str | None = None) -> None:
        """Send ``move`` (a plugin move object, or a ready ``<data class="move">`` Element)."""
        room_id = room_id or self.room_id
        if room_id is None:
            raise RuntimeError("no room yet: wait for the welcome message")
        if not isinstance(move, Element):
            plugin = self.plugin or (self.memento.plugin if self.memento else None)
            if plugin is None:
                raise ValueError("send_move needs the game plugin to encode a move object")
            move = plugin.move_element(move)
        await self.send(msg.room(room_id, move))

    # -- messages -----------------------------------------------------------------------------

    async def receive(self) -> ServerMessage:
        """The next typed message; raises ConnectionClosed when the server hung up."""
        try:
            element = await self.connection.receive()
        except ConnectionClosed:
            self.over = True
            raise
        message = parse(element, self.plugin)
        self._track(message)
        return message

    def _track(self, message: ServerMessage) -> None:
        if isinstance(message, Joined):
            self.room_id = message.room_id
        elif isinstance(message, Welcome):
            self.room_id, self.color = message.room_id, message.color
        elif isinstance(message, Memento):
            _check_game(self.plugin, message.state)
            self.memento = message
            if self.plugin is None:
                self.plugin = message.plugin or _guess(message)
        elif isinstance(message, Result):
            self.result = message
        elif isinstance(message, Error):
            self.error = message.message
        elif isinstance(message, (Left, Closed)):
            self.over = True
            self.closed_by_server |= isinstance(message, Closed)

    @property
    def outcome(self) -> str:
        """How the game ended for this player, in words, for a bot to print at the end:
        ``won as red: REGULAR 2/8 against REGULAR 0/8 (Gewinner/∅ Schwarm)``, and when no
        result came (the classic servers send a rule breaker an error and close its connection
        without one) why: ``no result: the server said "..." and closed the connection``."""
        if self.result is not None:
            return self.result.describe(self.seat, self.color)
        if self.error is not None:
            closed = " and closed the connection" if self.closed_by_server or self.connection.closed else ""
            return f"no result: the server said {self.error!r}{closed}"
        if self.over:
            return "no result: the server closed the connection before the game ended"
        return "no result yet: the game is not over"

    @property
    def seat(self) -> int | None:
        """0 for red/ONE, 1 for blue/TWO, None before the welcome message."""
        if self.color is None:
            return None
        return seat_of(self.color)

    def __aiter__(self) -> Client:
        return self

    async def __anext__(self) -> ServerMessage:
        if self.over:
            raise StopAsyncIteration
        try:
            return await self.receive()
        except ConnectionClosed:
            raise StopAsyncIteration from None

    async def close(self) -> None:
        if not self.connection.closed:
            await self.connection.close()

    async def __aenter__(self) -> Client:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()


def _check_game(plugin: GamePlugin | None, state: Element) -> None:
    """A state this client's game cannot read is another game's (its class is not the plugin's,
    or the plugin disowns it where several years share the class name ``state``)."""
    if plugin is None:
        return
    if state.get("class") in plugin.data_classes and plugin.recognizes_state(state) is not False:
        return
    other = registry.plugin_for_state(state)
    room = other.game_type if other is not None else f"a game whose states are of class {state.get('class')!r}"
    raise WrongGame(f"this room plays {room}, but the client plays {plugin.game_type}: "
                    f"start the bot of {room} or join a room of {plugin.game_type}")


def _guess(memento: Memento) -> GamePlugin | None:
    from swc_local.client.messages import plugin_for_state

    return plugin_for_state(memento.state)
