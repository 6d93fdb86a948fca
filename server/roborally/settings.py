"""The Robo Rally door's section of ``server.properties`` and of ``swc serve`` (server/sections.py).

``server.properties`` keys (all optional; see ``server.properties.example``)::

    roborally.port=52020            # -1 or off: no Robo Rally door
    roborally.minPlayers=2
    roborally.map=Dizzy Highway     # fixed map; default: the first ready human chooses
    roborally.seed=7                # default: swc serve's seed
    roborally.protocols=Version 1.0 # comma-separated accepted protocol strings
    roborally.aliveInterval=5
    roborally.timer=30
    roborally.playCardTimeout=5
    roborally.pickDamageTimeout=5
    roborally.rebootDirectionWait=2
    roborally.setupTimeout=0
    roborally.programmingLimit=0
    roborally.logDir=roborally-logs # every game's messages as JSON lines
    roborally.maxConnections=1000   # more connections are closed at once
    roborally.helloTimeout=60       # no HelloServer for this long: closed (0: never)
    roborally.maxIdle=100           # connections not playing; the oldest makes room for a new one
    roborally.chatPerSecond=5       # per connection (bursts of chatBurst); excess: Error (0: no limit)
    roborally.chatBurst=20
    roborally.writeTimeout=10       # a client that takes no data for this long is closed (0: never)
    roborally.readyTimeout=120      # a lobby player not ready while others wait is closed (0: never)
    roborally.logMaxBytes=16777216  # per game log; later lines are counted in its header, not kept

The keys are kept as text (:class:`RoboRallyKeys`) and read when the door starts: the ``swc serve``
flags are put over them as text first, so a flag and a key get the same check and the same error.
In-process servers leave the door off unless a port is set; ``swc serve`` opens it on 52020.

The door knows its game through the registry (``registry.entry("roborally")``: its seats bound
``minPlayers``); the rooms of server/roborally/lobby.py, the family's wire mapping (rules events
to JSON messages), import the rules themselves, as a mapping of that one game.

The door listens on the same address as the XML door and keeps serving: many lobbies and games
at once (spec roborally.md §10.1). A port that cannot be bound is logged and the XML door runs
on without it, so a second ``swc serve`` on one machine still works.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, ClassVar

from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict

from swc_local.games import registry
from swc_local.protocol.roborally import MAP_NAMES
from swc_local.server.sections import ConfigError, Section, located, number, port_number, port_or_off_argument, whole

log = logging.getLogger("swc.roborally")

DEFAULT_PORT = 52020
PREFIX = "roborally."
_FLOATS = {
    "aliveInterval": ("alive_interval", True), "timer": ("timer", True), "playCardTimeout": ("play_card_timeout", False),
    "pickDamageTimeout": ("pick_damage_timeout", False), "rebootDirectionWait": ("reboot_direction_wait", False),
    "setupTimeout": ("setup_timeout", False), "programmingLimit": ("programming_limit", False),
    "helloTimeout": ("hello_timeout", False), "chatPerSecond": ("chat_per_second", False),
    "writeTimeout": ("write_timeout", False), "readyTimeout": ("ready_timeout", False),
}
_INTS = {"maxConnections": "max_connections", "maxIdle": "max_idle", "chatBurst": "chat_burst", "logMaxBytes": "log_max_bytes"}
# the roborally.* keys (without the prefix) of server.properties; any other is warned about
PROPERTY_KEYS = ("port", "minPlayers", "map", "seed", "protocols", "logDir", *_FLOATS, *_INTS)

FLAG_KEYS = {  # swc serve flag (dest) -> roborally.* key
    "roborally_min_players": "minPlayers", "roborally_map": "map", "roborally_seed": "seed",
    "roborally_alive_interval": "aliveInterval", "roborally_timer": "timer",
    "roborally_play_card_timeout": "playCardTimeout", "roborally_pick_damage_timeout": "pickDamageTimeout",
    "roborally_reboot_direction_wait": "rebootDirectionWait", "roborally_setup_timeout": "setupTimeout",
    "roborally_programming_limit": "programmingLimit", "roborally_log_dir": "logDir", "roborally_protocol": "protocols",
}


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


class RoboRallyKeys(BaseModel):
    """The section as given: the port (None: off in-process, 52020 for ``swc serve``; -1: off)
    and the other ``roborally.*`` keys as text, without their prefix."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    port: int | None = None
    keys: dict[str, str] = {}


class RoboRallySection(Section):
    name = "roborally"
    title = "Robo Rally door (spec roborally.md §10; times in seconds)"
    keys: ClassVar[tuple[str, ...]] = tuple(PREFIX + key for key in PROPERTY_KEYS)
    model = RoboRallyKeys

    def read(self, props: Mapping[str, str], sources: Mapping[str, str]) -> dict[str, Any]:
        keys = {key[len(PREFIX):]: value.strip() for key, value in props.items()}
        return {"keys": keys} if keys else {}

    def add_flags(self, group) -> None:
        group.add_argument("--roborally-port", type=port_or_off_argument, help="port of the Robo Rally door (default 52020; -1: off)")
        group.add_argument("--roborally-min-players", type=int, metavar="N", help="players needed to start (default 2)")
        group.add_argument("--roborally-map", choices=MAP_NAMES, help="fixed map (default: the first ready human chooses)")
        group.add_argument("--roborally-seed", type=int, metavar="N", help="seed for shuffles and the random map (default: --seed)")
        for flag, default in (("alive-interval", 5), ("timer", 30), ("play-card-timeout", 5), ("pick-damage-timeout", 5),
                              ("reboot-direction-wait", 2), ("setup-timeout", 0), ("programming-limit", 0)):
            group.add_argument(f"--roborally-{flag}", type=float, metavar="S", help=f"default {default}")
        group.add_argument("--roborally-log-dir", metavar="DIR", help="write every game's messages as JSON lines here")
        group.add_argument("--roborally-protocol", action="append", metavar="TEXT", help="accepted protocol string (repeatable)")

    def flags(self, args, fields: dict[str, Any]) -> dict[str, Any]:
        keys = dict(fields.get("keys", {}))
        for dest, key in FLAG_KEYS.items():
            value = getattr(args, dest, None)
            if value is not None:
                keys[key] = ",".join(value) if isinstance(value, list) else str(value)
        fields = {**fields, "keys": keys}
        if args.roborally_port is not None:
            fields["port"] = args.roborally_port
        return fields

    def serve(self, part: RoboRallyKeys, settings, args) -> RoboRallyKeys:
        """``swc serve`` opens the door on 52020 unless told otherwise, and checks its keys now."""
        try:
            part = serve_default(part)
            door_settings(part, settings)
        except ConfigError as error:
            raise ConfigError(located(error, settings.sources)) from None
        return part


SECTION = RoboRallySection()


def serve_default(part: RoboRallyKeys) -> RoboRallyKeys:
    """The port ``swc serve`` gives the door: the flag, else ``roborally.port`` (``off``: -1), else 52020."""
    if part.port is not None:
        return part
    port = part.keys.get("port", str(DEFAULT_PORT))
    return part.model_copy(update={"port": -1 if port.lower() == "off" else port_number("roborally.port", port, off=True)})


def door_settings(part: RoboRallyKeys, settings):
    """The door's settings (:class:`RoboRallySettings`), or None when the door is off."""
    port = part.port
    if port is None or port < 0:
        return None
    keys = part.keys
    fields: dict[str, object] = {"host": settings.host, "port": port, "single_game": False, "seed": settings.seed}
    for key, (name, strictly_positive) in _FLOATS.items():
        if key in keys:
            value = number(f"roborally.{key}", keys[key])
            if value < 0 or (strictly_positive and value == 0):
                raise ConfigError(f"roborally.{key} must be {'>' if strictly_positive else '>='} 0, not {keys[key]!r}")
            fields[name] = value
    if "minPlayers" in keys:
        fewest, most = registry.entry("roborally").seats
        fields["min_players"] = whole("roborally.minPlayers", keys["minPlayers"])
        if not fewest <= fields["min_players"] <= most:  # type: ignore[operator]
            raise ConfigError(f"roborally.minPlayers must be {fewest}..{most}")
    if keys.get("map"):
        if keys["map"] not in MAP_NAMES:
            raise ConfigError(f"roborally.map must be one of {', '.join(MAP_NAMES)}, not {keys['map']!r}")
        fields["map"] = keys["map"]
    for key, name in _INTS.items():
        if key in keys:
            fields[name] = whole(f"roborally.{key}", keys[key])
            if fields[name] < 1:  # type: ignore[operator]
                raise ConfigError(f"roborally.{key} must be at least 1, not {keys[key]!r}")
    if "maxConnections" in keys and "maxIdle" not in keys:  # idle ones must leave room for players
        fields["max_idle"] = min(RoboRallySettings.max_idle, max(1, fields["max_connections"] // 2))  # type: ignore[operator]
    if "seed" in keys:
        fields["seed"] = whole("roborally.seed", keys["seed"])
    if keys.get("protocols"):
        fields["protocols"] = tuple(p.strip() for p in keys["protocols"].split(",") if p.strip())
    if keys.get("logDir"):
        fields["log_dir"] = keys["logDir"]
    return RoboRallySettings(**fields)  # type: ignore[arg-type]


def roborally_settings(settings):
    """The door's settings for the house's ``settings``, or None when the door is off."""
    return door_settings(settings.section("roborally"), settings)
