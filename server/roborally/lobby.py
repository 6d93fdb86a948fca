"""Robo Rally lobby and game glue, without sockets: who may say what, and who hears it.

:class:`Door` is the state machine of spec roborally.md §4 and §7 for every connection of one
Robo Rally front door; :class:`Room` drives one running game (:class:`~swc_local.games.roborally.game.Game`)
and delivers its outbox. Both are synchronous: the trio side (:mod:`swc_local.server.roborally.door`)
calls :meth:`Door.handle` for each decoded line and :meth:`Door.disconnected` when a connection
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

import json
import logging
import math
import os
import random
import time
from dataclasses import dataclass, field
from typing import Callable

from swc_local.games.roborally.board import MAP_FILES, load_map
from swc_local.games.roborally.game import Game
from swc_local.games.roborally.wire import messages
from swc_local.protocol.roborally import (
    MAP_NAMES, FieldError, Incoming, Malformed, ServerOnly, encode, encode_unchecked, parse_body, show,
)
from swc_local.server.limits import BurstLog, TokenBucket

log = logging.getLogger("swc.roborally")

NEW, WELCOMED, PLAYER, IN_GAME, SPECTATOR, CLOSED = "NEW", "WELCOMED", "PLAYER", "IN_GAME", "SPECTATOR", "CLOSED"
GAME_TYPES = frozenset({"SetStartingPoint", "SelectedCard", "PlayCard", "SelectedDamage", "RebootDirection"})
LOBBY_TYPES = frozenset({"PlayerValues", "SetStatus", "MapSelected"})


@dataclass(frozen=True)
class RoboRallySettings:
    """Spec §10; every time value in seconds, fractions allowed."""

    host: str = "127.0.0.1"
    port: int = 52020
    protocols: tuple[str, ...] = ("Version 1.0",)
    min_players: int = 2
    map: str | None = None
    seed: int | None = None
    alive_interval: float = 5.0
    timer: float = 30.0
    play_card_timeout: float = 5.0
    pick_damage_timeout: float = 5.0
    reboot_direction_wait: float = 2.0
    setup_timeout: float = 0.0
    programming_limit: float = 0.0
    close_delay: float = 2.0
    max_line_bytes: int = 1 << 20
    max_connections: int = 1000  # more are closed at once (not in the spec: protects the host)
    hello_timeout: float = 60.0  # a connection without HelloServer for this long is closed (0: never)
    single_game: bool = True
    log_dir: str | None = None
    log_max_bytes: int = 16 << 20  # per game; later lines are counted, not kept (a chat flood)
    chat_per_second: float = 5.0  # per connection, bursts of chat_burst; excess: Error (0: no limit)
    chat_burst: int = 20
    write_timeout: float = 10.0  # a send the client does not take for this long closes it (0: never)
    max_idle: int = 100  # connections not playing (no HelloServer, no PlayerValues, spectators); the oldest makes room
    ready_timeout: float = 120.0  # many-games mode: a player holding up a lobby without ready is closed (0: never)


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

    def __init__(self, door: "Door") -> None:
        self.door = door
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
        if self.map is not None or self.door.settings.map is not None:
            return
        selector = self.selector()
        if selector is not None and selector is not self.notified_selector:
            self.notified_selector = selector
            selector.send("SelectMap", {"availableMaps": list(MAP_NAMES)})

    def check_start(self) -> None:
        if self.room is not None:
            return
        players = self.players()
        low = max(2, self.door.settings.min_players)
        if not low <= len(players) <= 6 or not all(p.ready for p in players):
            return
        announce = False
        if self.door.settings.map is not None:
            self.map = self.door.settings.map
            announce = True
        elif self.map is None:
            if any(not p.is_ai for p in players):
                return
            self.map = self.door.rng.choice(MAP_NAMES)
            announce = True
        self.door.start_game(self, players, announce)


class Door:
    """Every connection of one Robo Rally front door (spec §4, §7)."""

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


_GAME_STARTED: dict[str, bytes] = {}


def game_started_line(name: str) -> bytes:
    """``GameStarted`` with the map file's ``gameMap`` unchanged, compact; validated once per map."""
    line = _GAME_STARTED.get(name)
    if line is None:
        game_map = load_map(name).game_map
        encode("GameStarted", {"gameMap": game_map})  # validation only
        line = _GAME_STARTED[name] = encode_unchecked("GameStarted", {"gameMap": game_map})
    return line


class Room:
    """One running game: routes game messages into the rules and the rules' outbox to the peers."""

    def __init__(self, door: Door, lobby: Lobby, game: Game, seed: int) -> None:
        self.door = door
        self.lobby = lobby
        self.game = game
        self.seed = seed
        self.peers = {p.client_id: p for p in lobby.players()}
        self.reboot_times: dict[int, float] = {}
        self.clock: Callable[[], float] = time.monotonic
        self.poke: Callable[[], None] = lambda: None
        self.log: list[bytes] = []  # encoded lines, at most settings.log_max_bytes (then counted only)
        self.log_bytes = 0
        self.log_dropped = 0
        self.watchers: list[Callable[[str, dict, float], None]] = []  # every message sent (the web viewer)
        self.closers: list[Callable[["Room"], None]] = []
        self.started = time.time()
        self.closed = False
        self.unfinished: str | None = None  # why the server stopped the game before its end

    def record(self, direction: str, who, message_type: str, body: dict) -> None:
        """Keep one log line (JSON, already encoded: bounded by bytes, never fails at the end)."""
        if self.door.settings.log_dir is None:
            return
        entry = {"t": round(time.time() - self.started, 4), "dir": direction, "peer": who,
                 "messageType": message_type, "messageBody": body}
        try:
            line = (json.dumps(entry, ensure_ascii=False) + "\n").encode("utf-8")
        except UnicodeEncodeError:  # cannot come from a client (the codec refuses it); escaped, never lost
            line = (json.dumps(entry) + "\n").encode("ascii")
        except (TypeError, ValueError, RecursionError) as error:
            log.warning("Robo Rally room: a %s could not be logged: %s", message_type, error)
            return
        if self.log_bytes + len(line) > self.door.settings.log_max_bytes:
            self.log_dropped += 1
            return
        self.log.append(line)
        self.log_bytes += len(line)

    def flush(self) -> None:
        lobby = self.lobby
        for to, pid, message_type, body in messages(self.game.take_outbox()):
            line = encode(message_type, body)
            if message_type == "Reboot":
                self.reboot_times[body["clientID"]] = self.clock()
            if to == "one":
                peer = self.peers.get(pid)
                if peer is not None:
                    peer.send_line(line)
            else:
                for peer in lobby.connected():
                    if to == "all" or peer.client_id != pid:
                        peer.send_line(line)
            self.record("out", pid if to == "one" else ("all" if to == "all" else f"others:{pid}"), message_type, body)
            for watcher in self.watchers:
                watcher(message_type, body, round(time.time() - self.started, 4))
        self.poke()

    def handle(self, peer: Peer, kind: str, body: dict) -> None:
        game, pid = self.game, peer.client_id
        if game.over or self.unfinished:
            peer.error("Game is over")
            return
        after: str | None = None
        if kind == "SetStartingPoint":
            error = game.check_setup_turn(pid)
            if error is None:
                try:
                    point = parse_body(kind, body)
                except FieldError as field_error:
                    error = str(field_error)
                else:
                    error = game.on_set_starting_point(pid, point.x, point.y)  # type: ignore[attr-defined]
        elif kind == "SelectedCard":
            error = game.on_selected_card(pid, body.get("card"), body.get("register"))
        elif kind == "PlayCard":
            error = game.play_card_error(pid)
            if error == "":
                log.info("%r: late PlayCard ignored", peer)
                return
            if error is None:
                try:
                    card = parse_body(kind, body).card  # type: ignore[attr-defined]
                except FieldError as field_error:
                    error = str(field_error)
                else:
                    after = game.on_play_card(pid, card)
        elif kind == "SelectedDamage":
            error = None if game.damage_pending_for(pid) else "No damage selection pending"
            if error is None:
                try:
                    cards = parse_body(kind, body).cards  # type: ignore[attr-defined]
                except FieldError as field_error:
                    error = str(field_error)
                else:
                    error = game.on_selected_damage(pid, cards)
        else:  # RebootDirection
            error = game.on_reboot_direction(pid, body.get("direction"))
        if error:
            peer.error(error)
        self.flush()
        if after:
            peer.error(after)

    def remove(self, peer: Peer) -> None:
        if self.unfinished:  # the server stopped the game: nobody wins by the others leaving
            return
        self.game.remove(peer.client_id)
        self.flush()

    # ------------------------------------------------------------------ the clock (spec §10)

    def deadline(self, since: float, timer_since: float | None) -> float:
        """When the current wait times out, on :attr:`clock`'s scale (inf: never)."""
        settings, wait = self.door.settings, self.game.wait
        if wait is None:
            return math.inf
        if wait.kind == "start":
            return since + settings.setup_timeout if settings.setup_timeout > 0 else math.inf
        if wait.kind == "programming":
            ends = [math.inf]
            if timer_since is not None:
                ends.append(timer_since + settings.timer)
            if settings.programming_limit > 0:
                ends.append(since + settings.programming_limit)
            return min(ends)
        if wait.kind == "play_card":
            return since + settings.play_card_timeout
        if wait.kind == "damage":
            return since + settings.pick_damage_timeout
        reboots = [self.reboot_times.get(pid, since) for pid in wait.pids]
        return max(reboots, default=since) + settings.reboot_direction_wait

    def timeout(self) -> None:
        if self.unfinished:
            return
        self.game.timeout()
        self.flush()

    def log_file(self) -> tuple[str, bytes] | None:
        """Where the game's log goes and its bytes (None without a log directory); the room
        forgets its lines, so a finished room holds no log. Written by :func:`write_log_file`."""
        if self.door.settings.log_dir is None:
            return None
        ids = "-".join(str(pid) for pid in sorted(self.peers))
        path = os.path.join(self.door.settings.log_dir, f"roborally-{time.strftime('%Y%m%d-%H%M%S')}-{ids}.jsonl")
        header = {"game": "roborally", "map": self.lobby.map, "seed": self.seed, "players": sorted(self.peers),
                  "winner": self.game.winner}
        if self.unfinished:
            header["unfinished"] = self.unfinished
        if self.log_dropped:
            header["droppedLines"] = self.log_dropped  # over the log limit (roborally.logMaxBytes)
        data = (json.dumps(header) + "\n").encode("utf-8") + b"".join(self.log)
        self.log, self.log_bytes = [], 0
        return path, data

    def write_log(self) -> str | None:
        """Write the log now (blocking); None without a log directory or when the write failed."""
        planned = self.log_file()
        return None if planned is None else write_log_file(*planned)


def write_log_file(path: str, data: bytes) -> str | None:
    """Write one game log; a failure (disk full, no descriptors, bad folder) is logged and costs
    only this file, never the game, the door or the server."""
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as handle:
            handle.write(data)
    except (OSError, ValueError) as error:
        log.error("Robo Rally game log %s not written: %s", path, error)
        return None
    return path


__all__ = ["Door", "Lobby", "Peer", "Room", "RoboRallySettings", "MAP_FILES"]
