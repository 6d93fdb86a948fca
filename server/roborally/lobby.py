"""Robo Rally lobby and game glue, without sockets: who may say what, and who hears it.

:class:`Switchboard` is the state machine of spec roborally.md §4 and §7 for every connection of one
Robo Rally door (server/roborally/door.py's ``RoboRallyDoor``, the ``Door`` of server/door.py, owns one); :class:`Room` drives one running game (:class:`~swc_local.games.roborally.game.Game`)
and delivers its outbox. Both are synchronous: the trio side (:mod:`swc_local.server.roborally.door`)
calls :meth:`Switchboard.handle` for each decoded line and :meth:`Switchboard.disconnected` when a connection
ends, and lets each room's clock run with :meth:`Room.deadline` / :meth:`Room.timeout`.

Conformance notes (spec §9.2 choices, as implemented here):

* Client IDs are 1, 2, 3, ... per door; ``HelloServer.clientID`` (reconnect) is ignored.
* ``Welcome`` comes before the catch-up ``PlayerAdded``/``PlayerStatus``/``MapSelected``.
* Lobby messages after ``GameStarted`` get ``Game already running`` (spec §4.5), also from a
  connection that is already a player (§4.3's ``Player values already set`` is for the lobby).
* Game messages from a player whose lobby has no game yet get the phase error of that message
  (``Not in the setup phase``, ...).
* In ``single_game`` mode (``swc roborally``) a ``HelloServer`` after the start is refused with
  ``Game already running`` and the connection closed; in ``swc serve`` it opens a fresh lobby
  (spec §10.1).
"""

from __future__ import annotations

import logging
import math
import random
import time
from typing import Callable

from swc_local.games.roborally.board import MAP_FILES, load_map
from swc_local.games.roborally.game import Game
from swc_local.protocol.roborally import (
    MAP_NAMES, FieldError, Incoming, Malformed, ServerOnly, encode, parse_body, show,
)
from swc_local.server.limits import BurstLog, TokenBucket
from swc_local.server.roborally.room import Room, game_started_line
from swc_local.server.roborally.settings import RoboRallySettings

log = logging.getLogger("swc.roborally")

NEW, WELCOMED, PLAYER, IN_GAME, SPECTATOR, CLOSED = "NEW", "WELCOMED", "PLAYER", "IN_GAME", "SPECTATOR", "CLOSED"
GAME_TYPES = frozenset({"SetStartingPoint", "SelectedCard", "PlayCard", "SelectedDamage", "RebootDirection"})
LOBBY_TYPES = frozenset({"PlayerValues", "SetStatus", "MapSelected"})


class Peer:
    """The lobby's view of one connection; the trio side supplies ``write`` and ``close``."""

    def __init__(self, write: Callable[[bytes], None], close: Callable[[str], None], name: str = "?") -> None:
        self.write = write
        self._close = close
        self.name = name
        self.state = NEW
        self.client_id = 0
        self.group = ""
        self.is_ai = False
        self.player_name = ""
        self.figure: int | None = None
        self.ready = False
        self.lobby: Lobby | None = None
        self.alive_outstanding = False
        self.chat_bucket: TokenBucket | None = None  # set by the door (its chat rate)
        self.unready_since: float | None = None  # a lobby player's not-ready time (time.monotonic)

    def __repr__(self) -> str:
        return f"<robo rally client {self.client_id or '-'} {self.name}>"

    def send(self, message_type: str, body: dict | None = None) -> None:
        if self.state != CLOSED:
            self.write(encode(message_type, body))

    def send_line(self, line: bytes) -> None:
        if self.state != CLOSED:
            self.write(line)

    def error(self, text: str) -> None:
        log.info("%r: Error %s", self, text)
        self.send("Error", {"error": text})
        if self.lobby is not None and self.lobby.room is not None:
            self.lobby.room.record("out", self.client_id, "Error", {"error": text})

    def close(self, reason: str) -> None:
        if self.state != CLOSED:
            self._close(reason)


class Lobby:
    """The welcomed connections that will play one game together, then that game's audience."""

    def __init__(self, switchboard: "Switchboard") -> None:
        self.switchboard = switchboard
        self.peers: list[Peer] = []
        self.ready_order: list[Peer] = []
        self.map: str | None = None
        self.notified_selector: Peer | None = None
        self.room: Room | None = None

    def connected(self) -> list[Peer]:
        return [p for p in self.peers if p.state != CLOSED]

    def players(self) -> list[Peer]:
        return sorted((p for p in self.peers if p.state in (PLAYER, IN_GAME)), key=lambda p: p.client_id)

    def broadcast(self, message_type: str, body: dict | None = None, *, except_id: int = 0) -> None:
        line = encode(message_type, body)
        for peer in self.connected():
            if peer.client_id != except_id:
                peer.send_line(line)
        if self.room is not None:
            self.room.record("out", "all" if not except_id else f"others:{except_id}", message_type, body or {})

    def selector(self) -> Peer | None:
        return next((p for p in self.ready_order if not p.is_ai and p.state == PLAYER), None)

    def update_selector(self) -> None:
        if self.map is not None or self.switchboard.settings.map is not None:
            return
        selector = self.selector()
        if selector is not None and selector is not self.notified_selector:
            self.notified_selector = selector
            selector.send("SelectMap", {"availableMaps": list(MAP_NAMES)})

    def check_start(self) -> None:
        if self.room is not None:
            return
        players = self.players()
        low = max(2, self.switchboard.settings.min_players)
        if not low <= len(players) <= 6 or not all(p.ready for p in players):
            return
        announce = False
        if self.switchboard.settings.map is not None:
            self.map = self.switchboard.settings.map
            announce = True
        elif self.map is None:
            if any(not p.is_ai for p in players):
                return
            self.map = self.switchboard.rng.choice(MAP_NAMES)
            announce = True
        self.switchboard.start_game(self, players, announce)


class Switchboard:
    """Every connection of one Robo Rally door (spec §4, §7): who is welcomed, in the lobby, in which
    room. Not a ``Door`` of server/door.py (no port, no trio): the door that owns it is."""

    def __init__(self, settings: RoboRallySettings, spawn_room: Callable[["Room"], None] | None = None,
                 game_factory: Callable[..., Game] | None = None) -> None:
        self.settings = settings
        self.rng = random.Random(settings.seed)
        self.spawn_room = spawn_room or (lambda room: None)
        self.game_factory = game_factory or Game
        self.next_id = 1
        self.lobby = Lobby(self)
        self.game_started = False
        self.rooms: set[Room] = set()
        self.games_finished = 0
        self._chat_refused = BurstLog(log)
        self.room_listeners: list[Callable[["Room"], None]] = []  # told of every game as it starts (the web viewer)

    # ------------------------------------------------------------------ input

    def accepted(self, peer: Peer) -> None:
        peer.send("HelloClient", {"protocol": self.settings.protocols[0]})

    def handle(self, peer: Peer, event: Incoming | Malformed | ServerOnly) -> None:
        if peer.state == CLOSED:
            return
        if isinstance(event, Malformed):
            peer.error(event.error)
            return
        if isinstance(event, ServerOnly):
            log.info("%r: ignored %s (a server-to-client message)", peer, event.type)
            return
        kind, body = event.type, event.body
        if kind == "Alive":
            peer.alive_outstanding = False
            return
        room = peer.lobby.room if peer.lobby is not None else None
        if room is not None and kind != "SendChat":  # chat: logged once past the rate limit (_chat)
            room.record("in", peer.client_id, kind, body)
        if kind == "HelloServer":
            self._hello(peer, body)
            return
        if peer.state == NEW:
            peer.error("Send HelloServer first")
            return
        if kind == "SendChat":
            self._chat(peer, body)
        elif kind in LOBBY_TYPES:
            getattr(self, "_" + kind)(peer, body)
        elif kind in GAME_TYPES:
            if peer.state in (WELCOMED, SPECTATOR):
                peer.error("You are not a player")
            elif room is None:
                peer.error({"SetStartingPoint": "Not in the setup phase", "SelectedCard": "Not in the programming phase",
                            "PlayCard": "Not in the activation phase", "SelectedDamage": "No damage selection pending",
                            "RebootDirection": "No reboot pending"}[kind])
            else:
                room.handle(peer, kind, body)

    def _hello(self, peer: Peer, body: dict) -> None:
        if peer.state != NEW:
            peer.error("Already welcomed")
            return
        protocol = body.get("protocol")
        if not isinstance(protocol, str) or protocol not in self.settings.protocols:
            peer.error(f"Protocol version not supported: {show(protocol)}")
            peer.close("protocol version not supported")
            return
        try:
            hello = parse_body("HelloServer", body)
        except FieldError as error:
            peer.error(str(error))
            return
        if self.settings.single_game and self.game_started:
            peer.error("Game already running")
            peer.close("game already running")
            return
        peer.client_id = self.next_id
        self.next_id += 1
        peer.group, peer.is_ai = hello.group, hello.isAI  # type: ignore[attr-defined]
        peer.state = WELCOMED
        lobby = self.lobby
        peer.lobby = lobby
        lobby.peers.append(peer)
        log.info("%r welcomed (group %r, AI %s)", peer, peer.group, peer.is_ai)
        peer.send("Welcome", {"clientID": peer.client_id})
        for other in lobby.players():
            peer.send("PlayerAdded", {"clientID": other.client_id, "name": other.player_name, "figure": other.figure})
        for other in lobby.players():
            if other.ready:
                peer.send("PlayerStatus", {"clientID": other.client_id, "ready": True})
        if lobby.map is not None:
            peer.send("MapSelected", {"map": lobby.map})

    def _PlayerValues(self, peer: Peer, body: dict) -> None:
        lobby = peer.lobby
        assert lobby is not None
        if lobby.room is not None:
            peer.error("Game already running")
            return
        if peer.state != WELCOMED:
            peer.error("Player values already set")
            return
        try:
            values = parse_body("PlayerValues", body)
        except FieldError as error:
            peer.error(str(error))
            return
        figure = values.figure  # type: ignore[attr-defined]
        if isinstance(figure, float) and math.isfinite(figure) and figure.is_integer():
            figure = int(figure)
        if isinstance(figure, bool) or not isinstance(figure, int) or not 0 <= figure <= 6:
            peer.error(f"Invalid figure: {show(values.figure)}")  # type: ignore[attr-defined]
            return
        players = lobby.players()
        if len(players) >= 6:
            peer.error("Lobby is full")
            return
        if any(p.figure == figure for p in players):
            peer.error(f"Figure {figure} is already taken")
            return
        peer.player_name, peer.figure, peer.state, peer.ready = values.name, figure, PLAYER, False  # type: ignore[attr-defined]
        peer.unready_since = time.monotonic()
        lobby.broadcast("PlayerAdded", {"clientID": peer.client_id, "name": peer.player_name, "figure": figure})

    def _SetStatus(self, peer: Peer, body: dict) -> None:
        lobby = peer.lobby
        assert lobby is not None
        if lobby.room is not None:
            peer.error("Game already running")
            return
        if peer.state != PLAYER:
            peer.error("Send PlayerValues first")
            return
        try:
            ready = parse_body("SetStatus", body).ready  # type: ignore[attr-defined]
        except FieldError as error:
            peer.error(str(error))
            return
        peer.ready = ready
        peer.unready_since = None if ready else time.monotonic()
        if peer in lobby.ready_order:
            lobby.ready_order.remove(peer)
        if ready:
            lobby.ready_order.append(peer)
        elif lobby.notified_selector is peer:
            lobby.notified_selector = None
        lobby.broadcast("PlayerStatus", {"clientID": peer.client_id, "ready": ready})
        lobby.update_selector()
        lobby.check_start()

    def _MapSelected(self, peer: Peer, body: dict) -> None:
        lobby = peer.lobby
        assert lobby is not None
        if lobby.room is not None:
            peer.error("Game already running")
            return
        if self.settings.map is not None:
            peer.error("Map is fixed by the server")
            return
        if lobby.map is None and lobby.selector() is not peer or lobby.map is not None and lobby.notified_selector is not peer:
            peer.error("You may not select the map")
            return
        chosen = body.get("map")
        if chosen not in MAP_NAMES:
            peer.error(f"Unknown map: {show(chosen)}")
            return
        lobby.map = chosen
        lobby.broadcast("MapSelected", {"map": chosen})
        lobby.check_start()

    def _chat(self, peer: Peer, body: dict) -> None:
        try:
            chat = parse_body("SendChat", body)
        except FieldError as error:
            peer.error(str(error))
            return
        if self.settings.chat_per_second > 0:
            if peer.chat_bucket is None:
                peer.chat_bucket = TokenBucket(self.settings.chat_per_second, self.settings.chat_burst, clock=time.monotonic)
            if not peer.chat_bucket.allow():
                self._chat_refused.note("Robo Rally: chat over %g messages a second refused (roborally.chatPerSecond)",
                                        self.settings.chat_per_second)
                peer.send("Error", {"error": "Too many chat messages"})  # not logged per line: it is a flood
                return
        if peer.lobby is not None and peer.lobby.room is not None:
            peer.lobby.room.record("in", peer.client_id, "SendChat", body)
        lobby = peer.lobby
        assert lobby is not None
        message, to = chat.message, chat.to  # type: ignore[attr-defined]
        if to == -1:
            lobby.broadcast("ReceivedChat", {"message": message, "from": peer.client_id, "isPrivate": False})
            return
        target = next((p for p in lobby.connected() if p.client_id == to), None)
        if target is None:
            peer.error(f"Unknown recipient: {to}")
            return
        target.send("ReceivedChat", {"message": message, "from": peer.client_id, "isPrivate": True})

    def close_unready(self, now: float) -> list[Peer]:
        """Many-games mode (``swc serve``): close the lobby players that hold the others up.

        A player that has not said ready for ``ready_timeout`` seconds while another player of its
        lobby is ready (and waits for it), or while the lobby is full, is closed: otherwise one
        connection that sends ``PlayerValues`` and never ``SetStatus`` would keep every game of
        the door from starting. The course server has no such limit (one game per run)."""
        timeout = self.settings.ready_timeout
        if self.settings.single_game or timeout <= 0:
            return []
        players = self.lobby.players()
        if not (len(players) >= 6 or any(p.ready for p in players)):
            return []
        stale = [p for p in players if not p.ready and p.unready_since is not None and now - p.unready_since >= timeout]
        for peer in stale:
            log.info("%r: not ready for %g s while others waited; closed", peer, timeout)
            peer.close(f"not ready for {timeout:g} s while others waited")
        return stale

    # ------------------------------------------------------------------ start and leave

    def start_game(self, lobby: Lobby, players: list[Peer], announce_map: bool) -> None:
        assert lobby.map is not None
        self.game_started = True
        if not self.settings.single_game:
            self.lobby = Lobby(self)  # the next HelloServer opens a fresh lobby (spec §10.1)
        board = load_map(lobby.map)
        seed = self.rng.randrange(1 << 62)
        game = self.game_factory(board, [p.client_id for p in players], random.Random(seed))
        room = Room(self, lobby, game, seed)
        lobby.room = room
        self.rooms.add(room)
        for peer in lobby.connected():
            peer.state = IN_GAME if peer.state == PLAYER else SPECTATOR
        log.info("game starts on %s with clients %s (seed %d)", lobby.map, [p.client_id for p in players], seed)
        if announce_map:
            lobby.broadcast("MapSelected", {"map": lobby.map})
        line = game_started_line(lobby.map)
        for peer in lobby.connected():
            peer.send_line(line)
        for listener in self.room_listeners:
            listener(room)
        room.record("out", "all", "GameStarted", {"map": lobby.map})
        game.start()
        room.flush()
        self.spawn_room(room)

    def disconnected(self, peer: Peer, reason: str = "") -> None:
        state, peer.state = peer.state, CLOSED
        lobby = peer.lobby
        log.info("%r lost (%s)", peer, reason or "closed")
        if lobby is not None and state == WELCOMED and lobby.room is None and peer in lobby.peers:
            lobby.peers.remove(peer)
        if lobby is None or state in (NEW, WELCOMED, SPECTATOR, CLOSED):
            return
        lobby.broadcast("ConnectionUpdate", {"clientID": peer.client_id, "isConnected": False, "action": "Remove"})
        if state == PLAYER:
            lobby.peers.remove(peer)  # an open lobby forgets its leavers: its list stays bounded
            if peer in lobby.ready_order:
                lobby.ready_order.remove(peer)
            if lobby.notified_selector is peer and lobby.map is None:
                lobby.notified_selector = None
            peer.figure = None
            lobby.update_selector()
            lobby.check_start()
        elif lobby.room is not None:
            lobby.room.remove(peer)

    def room_closed(self, room: "Room") -> None:
        self.rooms.discard(room)
        for closer in room.closers:
            closer(room)
        self.games_finished += 1


__all__ = ["Switchboard", "Lobby", "Peer", "Room", "RoboRallySettings", "MAP_FILES"]  # Room, RoboRallySettings: where callers look
