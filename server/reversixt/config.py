"""``server.properties`` keys of the ReversiXT door (documented in server.properties.example)."""

from __future__ import annotations

from swc_local.server.config import ConfigError, Settings, port_argument, port_number

DEFAULT_PORT = 7777
PROPERTY_KEYS = ("reversixt", "reversixtPort", "reversixtMap", "reversixtTimeLimit", "reversixtDepth", "reversixtZleep",
                 "reversixtJoinTimeout", "reversixtWriteTimeout", "reversixtMaxIdle")  # read below; others are warned about


def _number(key: str, value: str, kind=float):
    try:
        return kind(value.strip())
    except ValueError:
        raise ConfigError(f"{key} must be a {'whole ' if kind is int else ''}number, not {value!r}") from None


def reversixt_fields(props) -> dict[str, object]:
    fields: dict[str, object] = {}
    if "reversixt" in props:
        value = props["reversixt"].strip()
        if value not in ("true", "false"):
            raise ConfigError(f"reversixt must be true or false, not {value!r}")
        fields["reversixt_enabled"] = value == "true"
    if "reversixtPort" in props:
        fields["reversixt_port"] = port_number("reversixtPort", props["reversixtPort"])
    if "reversixtMap" in props:
        fields["reversixt_map"] = props["reversixtMap"].strip() or None
    if "reversixtTimeLimit" in props:
        fields["reversixt_time_limit"] = _number("reversixtTimeLimit", props["reversixtTimeLimit"])
    if "reversixtDepth" in props:
        fields["reversixt_depth"] = _number("reversixtDepth", props["reversixtDepth"], int)
    if "reversixtZleep" in props:
        zleep = _number("reversixtZleep", props["reversixtZleep"])
        fields["reversixt_zleep"] = zleep if zleep > 0 else None
    for key, name in (("reversixtJoinTimeout", "reversixt_join_timeout"), ("reversixtWriteTimeout", "reversixt_write_timeout")):
        if key in props:
            fields[name] = _number(key, props[key])
            if fields[name] < 0:  # type: ignore[operator]
                raise ConfigError(f"{key} must be 0 or more seconds, not {props[key]!r}")
    if "reversixtMaxIdle" in props:
        fields["reversixt_max_idle"] = _number("reversixtMaxIdle", props["reversixtMaxIdle"], int)
        if fields["reversixt_max_idle"] < 1:  # type: ignore[operator]
            raise ConfigError(f"reversixtMaxIdle must be at least 1, not {props['reversixtMaxIdle']!r}")
    return fields


def door_port(settings: Settings) -> int:
    """The configured port; by default 7777, or a free port for a server on port 0 (tests)."""
    if settings.reversixt_port is not None:
        return settings.reversixt_port
    return 0 if settings.port == 0 else DEFAULT_PORT


async def run_door_for(settings: Settings, server, *, task_status=None) -> None:
    """The door as a task of ``swc serve``: a port it cannot open is logged, not fatal."""
    import logging

    import trio

    from swc_local.games.reversixt.mapfile import MapError
    from swc_local.server.reversixt.door import DoorSettings, ReversiDoor

    log = logging.getLogger("swc.reversixt")
    task_status = task_status or trio.TASK_STATUS_IGNORED
    door_settings = DoorSettings(
        host=settings.host,
        port=door_port(settings),
        map_path=settings.reversixt_map or "",
        time_limit=settings.reversixt_time_limit,
        depth=settings.reversixt_depth,
        zleep=settings.reversixt_zleep,
        replay_dir=settings.replay_dir if settings.save_replay else None,
        max_connections=settings.max_connections,
        join_timeout=settings.reversixt_join_timeout,
        write_timeout=settings.reversixt_write_timeout,
        max_idle=settings.reversixt_max_idle,
    )
    try:
        door = ReversiDoor(door_settings)
    except (OSError, MapError) as error:
        log.error("ReversiXT door not started: map %s: %s", settings.reversixt_map, error)
        task_status.started(None)
        return
    server.reversixt_door = door
    try:
        await door.run(task_status=task_status)
    except OSError as error:
        task_status.started(None)
        log.error("ReversiXT door not started: cannot listen on %s:%d: %s", settings.host, door_settings.port, error)
        server.reversixt_door = None


def add_serve_arguments(parser) -> None:
    """``swc serve`` flags of the door (each overrides its server.properties key)."""
    group = parser.add_argument_group("ReversiXT door")
    group.add_argument("--reversixt-port", type=port_argument, help="port of the ReversiXT door (reversixtPort, default 7777)")
    group.add_argument("--reversixt-map", help="map of every ReversiXT game (reversixtMap, default: bundled classic_2p.map)")
    group.add_argument("--reversixt-timelimit", type=float, help="ReversiXT time limit in seconds, like -t (default none)")
    group.add_argument("--reversixt-depth", type=int, help="ReversiXT depth limit, like -d (default 1)")
    group.add_argument("--reversixt-zleep", type=float, help="seconds a ReversiXT game waits for its players, like -z")
    group.add_argument("--no-reversixt", action="store_true", help="do not open the ReversiXT door")


def serve_overrides(args) -> dict[str, object]:
    return {
        "reversixt_port": args.reversixt_port,
        "reversixt_map": args.reversixt_map,
        "reversixt_time_limit": args.reversixt_timelimit,
        "reversixt_depth": args.reversixt_depth,
        "reversixt_zleep": args.reversixt_zleep,
        "reversixt_enabled": False if args.no_reversixt else None,
    }
