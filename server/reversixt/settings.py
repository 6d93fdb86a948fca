"""The ReversiXT door's section of ``server.properties`` and of ``swc serve`` (server/sections.py).

Keys (documented in ``server.properties.example``): ``reversixt`` (true/false: the door is open),
``reversixtPort``, ``reversixtMap``, ``reversixtTimeLimit``, ``reversixtDepth``, ``reversixtZleep``,
``reversixtJoinTimeout``, ``reversixtWriteTimeout``, ``reversixtMaxIdle``; each has a
``--reversixt-...`` flag of ``swc serve`` or none, as listed in :meth:`ReversiSection.add_flags`.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from swc_local.server.sections import ConfigError, Section, number, port_argument, port_number, whole
from swc_local.server.sections import door_port as free_or_default

DEFAULT_PORT = 7777
log = logging.getLogger("swc.reversixt")


class ReversiSettings(BaseModel):
    """The door's keys, read (the house's address, records and budget come from Settings)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    enabled: bool = True
    port: int | None = None  # None: 7777, or a free port when the house asks for free ports
    map: str | None = None  # None: the bundled classic_2p.map
    time_limit: float = 0.0
    depth: int = 1
    zleep: float | None = None
    join_timeout: float = 60.0  # no GROUP for this long (without zleep): closed (issue 21)
    write_timeout: float = 10.0  # takes no bytes for this long: disqualified (issue 21)
    max_idle: int = 100  # connections without a GROUP; the oldest makes room (issue 21)


class ReversiSection(Section):
    name = "reversixt"
    title = "ReversiXT door"
    keys: ClassVar[tuple[str, ...]] = ("reversixt", "reversixtPort", "reversixtMap", "reversixtTimeLimit", "reversixtDepth",
                                       "reversixtZleep", "reversixtJoinTimeout", "reversixtWriteTimeout", "reversixtMaxIdle")
    model = ReversiSettings

    def read(self, props: Mapping[str, str], sources: Mapping[str, str]) -> dict[str, Any]:
        fields: dict[str, Any] = {}
        if "reversixt" in props:
            value = props["reversixt"].strip()
            if value not in ("true", "false"):
                raise ConfigError(f"reversixt must be true or false, not {value!r}")
            fields["enabled"] = value == "true"
        if "reversixtPort" in props:
            fields["port"] = port_number("reversixtPort", props["reversixtPort"])
        if "reversixtMap" in props:
            fields["map"] = props["reversixtMap"].strip() or None
        if "reversixtTimeLimit" in props:
            fields["time_limit"] = number("reversixtTimeLimit", props["reversixtTimeLimit"])
        if "reversixtDepth" in props:
            fields["depth"] = whole("reversixtDepth", props["reversixtDepth"])
        if "reversixtZleep" in props:
            zleep = number("reversixtZleep", props["reversixtZleep"])
            fields["zleep"] = zleep if zleep > 0 else None
        for key, name in (("reversixtJoinTimeout", "join_timeout"), ("reversixtWriteTimeout", "write_timeout")):
            if key in props:
                fields[name] = number(key, props[key])
                if fields[name] < 0:
                    raise ConfigError(f"{key} must be 0 or more seconds, not {props[key]!r}")
        if "reversixtMaxIdle" in props:
            fields["max_idle"] = whole("reversixtMaxIdle", props["reversixtMaxIdle"])
            if fields["max_idle"] < 1:
                raise ConfigError(f"reversixtMaxIdle must be at least 1, not {props['reversixtMaxIdle']!r}")
        return fields

    def add_flags(self, group) -> None:
        group.add_argument("--reversixt-port", type=port_argument, help="port of the ReversiXT door (reversixtPort, default 7777)")
        group.add_argument("--reversixt-map", help="map of every ReversiXT game (reversixtMap, default: bundled classic_2p.map)")
        group.add_argument("--reversixt-timelimit", type=float, help="ReversiXT time limit in seconds, like -t (default none)")
        group.add_argument("--reversixt-depth", type=int, help="ReversiXT depth limit, like -d (default 1)")
        group.add_argument("--reversixt-zleep", type=float, help="seconds a ReversiXT game waits for its players, like -z")
        group.add_argument("--no-reversixt", action="store_true", help="do not open the ReversiXT door")

    def flags(self, args, fields: dict[str, Any]) -> dict[str, Any]:
        given = {"port": args.reversixt_port, "map": args.reversixt_map, "time_limit": args.reversixt_timelimit,
                 "depth": args.reversixt_depth, "zleep": args.reversixt_zleep, "enabled": False if args.no_reversixt else None}
        return {**fields, **{name: value for name, value in given.items() if value is not None}}

    def serve(self, part: ReversiSettings, settings, args) -> ReversiSettings:
        """A ReversiXT map that cannot be read stops ``swc serve`` at once (not a door that never opens)."""
        if not part.enabled or not part.map:
            return part
        from swc_local.games.reversixt.mapfile import MapError, load_map

        name = "--reversixt-map" if args.reversixt_map else f"{settings.sources.get('reversixtMap', 'server.properties')}: reversixtMap"
        try:
            load_map(part.map)
        except OSError as error:
            raise ConfigError(f"{name} {part.map!r}: {error.strerror or error} (accepted: a ReversiXT .map file)") from None
        except MapError as error:
            raise ConfigError(f"{name} {part.map!r} is not a ReversiXT map: {error}") from None
        return part


SECTION = ReversiSection()


def door_port(settings) -> int:
    """The configured port; by default 7777, or a free port when the house asks for free ports (tests)."""
    return free_or_default(settings.section(SECTION.name).port, DEFAULT_PORT, settings)
