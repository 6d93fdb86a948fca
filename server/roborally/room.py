"""One running Robo Rally game: its messages into the rules and the rules' outbox to the peers.

:class:`Room` is synchronous, like the lobby (server/roborally/lobby.py) that starts it: the trio
side (server/roborally/door.py) calls :meth:`Room.handle` for each game message of a player and
lets the room's clock run with :meth:`Room.deadline` / :meth:`Room.timeout`. What a message means
to the rules, and what the rules' events mean on the wire, is the game's wire mapping
(games/roborally/wire.py: :func:`~swc_local.games.roborally.wire.apply_message` and
:func:`~swc_local.games.roborally.wire.messages`). The room keeps the game's log lines; the file
is written by server/roborally/logwriter.py.
"""

from __future__ import annotations

import json
import logging
import math
import os
import time
from typing import Callable

from swc_local.games.roborally.board import load_map
from swc_local.games.roborally.game import Game
from swc_local.games.roborally.wire import LATE, apply_message, messages
from swc_local.protocol.roborally import encode, encode_unchecked

log = logging.getLogger("swc.roborally")


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

    def __init__(self, switchboard: "Switchboard", lobby: "Lobby", game: Game, seed: int) -> None:
        self.switchboard = switchboard
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
        if self.switchboard.settings.log_dir is None:
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
        if self.log_bytes + len(line) > self.switchboard.settings.log_max_bytes:
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

    def handle(self, peer: "Peer", kind: str, body: dict) -> None:
        if self.game.over or self.unfinished:
            peer.error("Game is over")
            return
        error, after = apply_message(self.game, peer.client_id, kind, body)
        if error == LATE:
            log.info("%r: late PlayCard ignored", peer)
            return
        if error:
            peer.error(error)
        self.flush()
        if after:
            peer.error(after)

    def remove(self, peer: "Peer") -> None:
        if self.unfinished:  # the server stopped the game: nobody wins by the others leaving
            return
        self.game.remove(peer.client_id)
        self.flush()

    # ------------------------------------------------------------------ the clock (spec §10)

    def deadline(self, since: float, timer_since: float | None) -> float:
        """When the current wait times out, on :attr:`clock`'s scale (inf: never)."""
        settings, wait = self.switchboard.settings, self.game.wait
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
        forgets its lines, so a finished room holds no log. Written by server/roborally/logwriter.py."""
        if self.switchboard.settings.log_dir is None:
            return None
        ids = "-".join(str(pid) for pid in sorted(self.peers))
        path = os.path.join(self.switchboard.settings.log_dir, f"roborally-{time.strftime('%Y%m%d-%H%M%S')}-{ids}.jsonl")
        header = {"game": "roborally", "map": self.lobby.map, "seed": self.seed, "players": sorted(self.peers),
                  "winner": self.game.winner}
        if self.unfinished:
            header["unfinished"] = self.unfinished
        if self.log_dropped:
            header["droppedLines"] = self.log_dropped  # over the log limit (roborally.logMaxBytes)
        data = (json.dumps(header) + "\n").encode("utf-8") + b"".join(self.log)
        self.log, self.log_bytes = [], 0
        return path, data
