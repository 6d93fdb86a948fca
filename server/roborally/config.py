"""The Robo Rally door inside ``swc serve``: its settings and its start beside the XML door.

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

The door listens on the same address as the XML door and keeps serving: many lobbies and games
at once (spec roborally.md §10.1). A port that cannot be bound is logged and the XML door runs
on without it, so a second ``swc serve`` on one machine still works.
"""

from __future__ import annotations

import logging

import trio

from swc_local.protocol.roborally import MAP_NAMES
from swc_local.server.config import ConfigError, Settings, port_number
from swc_local.server.roborally.lobby import RoboRallySettings

log = logging.getLogger("swc.roborally")

DEFAULT_PORT = 52020
_FLOATS = {
    "aliveInterval": ("alive_interval", True), "timer": ("timer", True), "playCardTimeout": ("play_card_timeout", False),
    "pickDamageTimeout": ("pick_damage_timeout", False), "rebootDirectionWait": ("reboot_direction_wait", False),
    "setupTimeout": ("setup_timeout", False), "programmingLimit": ("programming_limit", False),
    "helloTimeout": ("hello_timeout", False), "chatPerSecond": ("chat_per_second", False),
    "writeTimeout": ("write_timeout", False), "readyTimeout": ("ready_timeout", False),
}
_INTS = {"maxConnections": "max_connections", "maxIdle": "max_idle", "chatBurst": "chat_burst", "logMaxBytes": "log_max_bytes"}
# the roborally.* keys of server.properties (a key read here and not listed is warned about as unknown)
PROPERTY_KEYS = ("port", "minPlayers", "map", "seed", "protocols", "logDir", *_FLOATS, *_INTS)


FLAG_KEYS = {  # swc serve flag (dest) -> roborally.* key
    "roborally_min_players": "minPlayers", "roborally_map": "map", "roborally_seed": "seed",
    "roborally_alive_interval": "aliveInterval", "roborally_timer": "timer",
    "roborally_play_card_timeout": "playCardTimeout", "roborally_pick_damage_timeout": "pickDamageTimeout",
    "roborally_reboot_direction_wait": "rebootDirectionWait", "roborally_setup_timeout": "setupTimeout",
    "roborally_programming_limit": "programmingLimit", "roborally_log_dir": "logDir", "roborally_protocol": "protocols",
}


def add_serve_flags(parser) -> None:
    """The Robo Rally door's settings as ``swc serve`` flags (they win over ``roborally.*`` keys)."""
    group = parser.add_argument_group("Robo Rally door (spec roborally.md §10; times in seconds)")
    group.add_argument("--roborally-min-players", type=int, metavar="N", help="players needed to start (default 2)")
    group.add_argument("--roborally-map", choices=MAP_NAMES, help="fixed map (default: the first ready human chooses)")
    group.add_argument("--roborally-seed", type=int, metavar="N", help="seed for shuffles and the random map (default: --seed)")
    for flag, default in (("alive-interval", 5), ("timer", 30), ("play-card-timeout", 5), ("pick-damage-timeout", 5),
                          ("reboot-direction-wait", 2), ("setup-timeout", 0), ("programming-limit", 0)):
        group.add_argument(f"--roborally-{flag}", type=float, metavar="S", help=f"default {default}")
    group.add_argument("--roborally-log-dir", metavar="DIR", help="write every game's messages as JSON lines here")
    group.add_argument("--roborally-protocol", action="append", metavar="TEXT", help="accepted protocol string (repeatable)")


def serve_default(settings: Settings, args=None) -> Settings:
    """``swc serve`` opens the door on 52020 unless told otherwise; flags over keys; checks early."""
    if args is not None:
        keys = dict(settings.roborally)
        for dest, key in FLAG_KEYS.items():
            value = getattr(args, dest, None)
            if value is not None:
                keys[key] = ",".join(value) if isinstance(value, list) else str(value)
        settings = settings.model_copy(update={"roborally": keys})
    if settings.roborally_port is None:
        port = settings.roborally.get("port", str(DEFAULT_PORT))
        settings = settings.model_copy(update={"roborally_port": -1 if port.lower() == "off" else port_number("roborally.port", port, off=True)})
    roborally_settings(settings)
    return settings


def _int(key: str, value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise ConfigError(f"{key} must be a whole number, not {value!r}") from None


def roborally_settings(settings: Settings) -> RoboRallySettings | None:
    """The door's settings, or None when the door is off."""
    port = settings.roborally_port
    if port is None or port < 0:
        return None
    keys = settings.roborally
    fields: dict[str, object] = {"host": settings.host, "port": port, "single_game": False, "seed": settings.seed}
    for key, (name, strictly_positive) in _FLOATS.items():
        if key in keys:
            try:
                value = float(keys[key])
            except ValueError:
                raise ConfigError(f"roborally.{key} must be a number, not {keys[key]!r}") from None
            if value < 0 or (strictly_positive and value == 0):
                raise ConfigError(f"roborally.{key} must be {'>' if strictly_positive else '>='} 0, not {keys[key]!r}")
            fields[name] = value
    if "minPlayers" in keys:
        fields["min_players"] = _int("roborally.minPlayers", keys["minPlayers"])
        if not 2 <= fields["min_players"] <= 6:  # type: ignore[operator]
            raise ConfigError("roborally.minPlayers must be 2..6")
    if keys.get("map"):
        if keys["map"] not in MAP_NAMES:
            raise ConfigError(f"roborally.map must be one of {', '.join(MAP_NAMES)}, not {keys['map']!r}")
        fields["map"] = keys["map"]
    for key, name in _INTS.items():
        if key in keys:
            fields[name] = _int(f"roborally.{key}", keys[key])
            if fields[name] < 1:  # type: ignore[operator]
                raise ConfigError(f"roborally.{key} must be at least 1, not {keys[key]!r}")
    if "maxConnections" in keys and "maxIdle" not in keys:  # idle ones must leave room for players
        fields["max_idle"] = min(RoboRallySettings.max_idle, max(1, fields["max_connections"] // 2))  # type: ignore[operator]
    if "seed" in keys:
        fields["seed"] = _int("roborally.seed", keys["seed"])
    if keys.get("protocols"):
        fields["protocols"] = tuple(p.strip() for p in keys["protocols"].split(",") if p.strip())
    if keys.get("logDir"):
        fields["log_dir"] = keys["logDir"]
    return RoboRallySettings(**fields)  # type: ignore[arg-type]


async def start_beside(nursery: trio.Nursery, settings: Settings):
    """Start the door as its own task in ``nursery``; None if it is off or cannot listen."""
    roborally = roborally_settings(settings)
    if roborally is None:
        return None
    from swc_local.server.roborally.door import RoboRallyDoor

    try:
        return await nursery.start(RoboRallyDoor(roborally).run)
    except OSError as error:
        log.error("Robo Rally door cannot listen on %s:%d (%s); serving without it", roborally.host, roborally.port, error)
        return None
