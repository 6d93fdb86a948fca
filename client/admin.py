"""Admin scripting: authenticate with the passphrase, prepare rooms, observe, pause, step, cancel.

::

    async with await Admin.connect("localhost", 13050, "examplepassword") as admin:
        room = await admin.prepare("piranhas", ["Alice", "Bob"], paused=True)
        await admin.observe(room.room_id)
        ...  # start two bots with room.reservations[0] and [1]
        await admin.step(room.room_id)
        print((await admin.next_memento(room.room_id)).game)
        await admin.unpause(room.room_id)
        print(await admin.wait_result(room.room_id))

Spec-conformance notes (classic lobby spec §2, §5):

* ``authenticate`` has no reply; a wrong passphrase makes the server send ``CloseConnection``,
  which surfaces as :class:`AdminError` on the next call that waits for an answer.  The close
  carries no reason on the wire (the server's log has it), so the error names the request the
  close answered and what the server refuses it for: a wrong passphrase until a reply has proved
  the passphrase, then an unknown room or game.
* ``pause``, ``step`` and ``cancel`` have no reply either; their effect is seen in the observed
  stream.  In a paused room a ``step`` sends the current state and one move request; the move's
  own state only arrives with the next ``step`` (or unpause).  Stepping again before the player
  has answered sends it a second move request, and a bot that answers both is out of turn (LEFT)
  -- so give the player time between steps (:meth:`Admin.step` takes ``settle``).
* One task at a time should wait on an Admin: messages for rooms nobody is waiting for are kept
  (per room, in order) until someone asks, which is enough for sequential scripts and for one
  Admin per room.
"""

from __future__ import annotations

from collections import defaultdict, deque
from dataclasses import dataclass

import trio

from swc_local.games.plugin import GamePlugin
from swc_local.protocol.element import Element
from swc_local.client.client import Client, resolve_plugin
from swc_local.client.connection import ClientConnection, ConnectionClosed
from swc_local.client.messages import (
    Closed, JoinedGameRoom, Left, Memento, Observed, Prepared, Result, ServerMessage,
    Testing,
)

__all__ = ["Admin", "AdminError", "Slot"]


class AdminError(Exception):
    """The server refused an admin request (and closed the connection) or hung up."""


@dataclass(frozen=True)
class Slot:
    """One seat of a prepared room (``<slot displayName canTimeout shouldBePaused/>``)."""

    name: str = "Unknown"
    can_timeout: bool = True
    paused: bool = False

    def element(self) -> Element:
        return Element(
            "slot",
            {
                "displayName": self.name,
                "canTimeout": "true" if self.can_timeout else "false",
                "shouldBePaused": "true" if self.paused else "false",
            },
        )


class Admin(Client):
    """An authenticated admin connection (it can also observe any number of rooms)."""

    def __init__(self, connection: ClientConnection, game: str | GamePlugin | None = None) -> None:
        super().__init__(connection, game)
        self._rooms: defaultdict[str, deque[ServerMessage]] = defaultdict(deque)
        self._lobby: deque[ServerMessage] = deque()
        self.plugins: dict[str, GamePlugin] = {}  # room id -> plugin, for prepared rooms
        self._asked: Element | None = None  # the last request sent (what a close refuses)
        self._proved = False  # a reply came: the passphrase was right

    @classmethod
    async def connect(
        cls, host: str = "localhost", port: int = 13050, password: str = "examplepassword",
        game: str | GamePlugin | None = None,
    ) -> Admin:
        admin = cls(await ClientConnection.connect(host, port), game)
        await admin.authenticate(password)
        return admin

    async def authenticate(self, password: str) -> None:
        await self.send(Element("authenticate", {"passphrase": password}))

    async def send(self, element: Element | str) -> None:
        if isinstance(element, Element):
            self._asked = element
        await super().send(element)

    def _refusal(self) -> str:
        """Why the server closed on us, from what was asked (the wire says only CloseConnection)."""
        asked = self._asked
        room = asked.get("roomId") if asked is not None else None
        if asked is None or asked.tag == "authenticate":
            what = "wrong passphrase"
        elif asked.tag == "prepare":
            what = f"a game type it does not serve ({asked.get('gameType')!r})"
        elif room is not None:
            what = f"unknown room {room!r}"
        else:
            what = f"a <{asked.tag}> it refuses"
        if not self._proved and what != "wrong passphrase":
            what = f"wrong passphrase or {what}"
        return f"the server closed the connection: {what}"

    # -- requests with an answer --------------------------------------------------------------

    async def prepare(
        self,
        game: str | GamePlugin,
        slots: list[str | Slot] | tuple[str | Slot, ...] = ("Unknown", "Unknown"),
        *,
        can_timeout: bool = True,
        paused: bool = False,
    ) -> Prepared:
        """Create a room with named slots; returns the room id and the two reservation codes.

        Plain names become ``Slot(name, can_timeout, paused)``; the room starts paused when any
        slot says so (spec §5).
        """
        plugin = resolve_plugin(game)
        descriptors = [s if isinstance(s, Slot) else Slot(s, can_timeout, paused) for s in slots]
        await self.send(Element("prepare", {"gameType": plugin.game_type}, [s.element() for s in descriptors]))
        prepared = await self._lobby_reply(Prepared)
        self.plugins[prepared.room_id] = plugin
        return prepared

    async def observe(self, room_id: str) -> None:
        """Start receiving the room's states, errors, result and ``left``."""
        await self.send(Element("observe", {"roomId": room_id}))
        await self._lobby_reply(Observed)

    async def set_test_mode(self, on: bool) -> bool:
        await self.send(Element("testMode", {"testMode": "true" if on else "false"}))
        return (await self._lobby_reply(Testing)).test_mode

    # -- requests without an answer -----------------------------------------------------------

    async def pause(self, room_id: str) -> None:
        await self.send(Element("pause", {"roomId": room_id, "pause": "true"}))

    async def unpause(self, room_id: str) -> None:
        await self.send(Element("pause", {"roomId": room_id, "pause": "false"}))

    async def step(self, room_id: str, forced: bool = False, settle: float = 0.0) -> None:
        """One move in a paused room (``forced`` also starts a room whose seats are not all taken).

        ``settle`` seconds are waited afterwards, giving the player time to answer before the
        next step (see the module notes).
        """
        await self.send(Element("step", {"roomId": room_id, "forced": "true" if forced else "false"}))
        if settle:
            await trio.sleep(settle)

    async def first_step(self, room_id: str, poll: float = 0.5, settle: float = 0.0) -> Memento:
        """The first step of a paused room whose players may still be joining.

        A step before the game has started is ignored and the server says nothing about a
        start in a paused room, so this steps every ``poll`` seconds until the first state
        arrives and returns it (the room must be observed).  Keep ``poll`` well above a
        loopback round trip: a step whose state is merely late would be repeated.
        """
        while True:
            await self.step(room_id)
            with trio.move_on_after(poll):
                memento = await self.next_memento(room_id)
                if settle:
                    await trio.sleep(settle)
                return memento

    async def cancel(self, room_id: str) -> None:
        await self.send(Element("cancel", {"roomId": room_id}))

    async def free_reservation(self, code: str) -> None:
        await self.send(Element("freeReservation", {"reservation": code}))

    async def set_timeout(self, room_id: str, slot: int, activate: bool) -> None:
        await self.send(Element("timeout", {"roomId": room_id, "activate": "true" if activate else "false", "slot": str(slot)}))

    # -- the observed stream ------------------------------------------------------------------

    async def room_message(self, room_id: str) -> ServerMessage:
        """The next message of an observed room (state, error, result or left)."""
        queue = self._rooms[room_id]
        while not queue:
            await self._pump()
        return queue.popleft()

    async def room_messages(self, room_id: str):
        """Iterate over a room's messages until its ``left``."""
        while True:
            message = await self.room_message(room_id)
            yield message
            if isinstance(message, Left):
                self._rooms.pop(room_id, None)
                return

    async def next_memento(self, room_id: str) -> Memento:
        """The room's next state; AdminError if the game ends first."""
        while True:
            message = await self.room_message(room_id)
            if isinstance(message, Memento):
                return message
            if isinstance(message, (Result, Left)):
                raise AdminError(f"room {room_id} ended before the next state")

    async def wait_result(self, room_id: str) -> Result | None:
        """Wait for the room's end: its result, or None when it was cancelled."""
        result = None
        async for message in self.room_messages(room_id):
            if isinstance(message, Result):
                result = message
        return result

    def lobby_messages(self) -> list[ServerMessage]:
        """Messages not tied to an observed room (``joinedGameRoom`` notices), oldest first."""
        messages = list(self._lobby)
        self._lobby.clear()
        return messages

    # -- plumbing -----------------------------------------------------------------------------

    async def _pump(self) -> None:
        """Read one message and file it under its room (or the lobby)."""
        try:
            message = await self.receive()
        except ConnectionClosed:
            raise AdminError(self._refusal()) from None
        if isinstance(message, Closed):
            raise AdminError(self._refusal())
        self._proved = True
        if isinstance(message, Memento) and message.plugin is None and message.room_id in self.plugins:
            message = Memento(message.room_id, message.state, self.plugins[message.room_id], message.element)
        room_id = getattr(message, "room_id", None)
        if room_id and not isinstance(message, (Prepared, Observed, JoinedGameRoom)):
            self._rooms[room_id].append(message)
        else:
            self._lobby.append(message)

    async def _lobby_reply(self, kind: type) -> ServerMessage:
        while True:
            for message in list(self._lobby):
                if isinstance(message, kind):
                    self._lobby.remove(message)
                    return message
            await self._pump()

    def _track(self, message: ServerMessage) -> None:
        # an admin is not a player: Left/Closed of one room does not end the connection
        if isinstance(message, Closed):
            self.over = True

