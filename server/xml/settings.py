"""The XML door's section of ``server.properties`` and of ``swc serve`` (server/sections.py).

Its model :class:`XmlSettings` is one section of :class:`~swc_local.server.config.Settings`
like every door's, its port (key ``port``, flag ``--port``, 13050) among them. The door builds
what its modules read in its own ``prepare`` (server/xml/door.py): :class:`XmlDoorSettings`, its
section's fields beside the house's it shares (``settings.paused``, ``settings.password``), as the
official server's one settings object had them (:func:`door_settings`).

Spec-conformance notes (classic lobby spec §7, modern_dialect_2023plus.md):

* ``paused`` is lenient as on the official server (only ``true``, any case, is true), but any
  other value than true/false is logged as a warning with the file and line.  Difference:
  ``testMode`` (lenient on the official server) accepts ``true``/``false`` in any case and
  rejects anything else.
* ``turn`` (the 2022+ servers' name of ``turnToLoad``) is read too; ``turnToLoad`` wins.
* ``timeout`` (true/false, default true) switches the timeouts of modern ``<join/>`` players, as
  on the 25.x servers; the 2018/2019 servers never read it and classic rooms ignore it.
* A ``defaultGame`` that is no modern game, and a ``loadGameFile`` that cannot be used, stop
  ``swc serve`` before it listens, named by their flag or their file line.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from swc_local.server.sections import (
    ConfigError, Section, any_case_bool, door_port, lenient_bool, located, number, port_argument, port_number,
    strict_bool, whole,
)

DEFAULT_PORT = 13050


class XmlSettings(BaseModel):
    """The XML door's fields (the keys below)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    port: int | None = None  # None: 13050, or a free port when the house asks for free ports
    paused: bool = False
    load_game_file: str | None = None
    turn_to_load: int = 0
    test_mode: bool = False
    max_message_bytes: int = 1 << 20
    max_depth: int = 32
    idle_timeout: float = 60.0
    soft_timeout_ms: int | None = None
    hard_timeout_ms: int | None = None
    max_seats_per_connection: int = 100
    passphrase_checks_per_second: float = 5.0
    default_game: str | None = None  # <join/> without gameType (modern dialect): None = newest season
    lobby_dialect: str = "classic"  # how a connection that showed no dialect yet is answered
    join_timeout: bool = True  # modern <join/> players get the soft/hard timeouts (key "timeout")


LOBBY_DIALECTS = ("classic", "modern", "2020", "2021")
"""``lobbyDialect``: 2020 answers ``password=`` and ``<join/>`` as the 2020 server (season_2020.py);
2021 also answers the 2022-looking requests (``password=``, ``pause=``, ``<join/>``) of a
connection that showed no dialect the 2021 way (server/xml/season_2021.py)."""
_WHOLE = {"maxMessageBytes": "max_message_bytes", "maxDepth": "max_depth", "softTimeoutMs": "soft_timeout_ms",
          "hardTimeoutMs": "hard_timeout_ms", "maxSeatsPerConnection": "max_seats_per_connection"}
_NUMBER = {"idleTimeout": "idle_timeout", "passphraseChecksPerSecond": "passphrase_checks_per_second"}


class XmlSection(Section):
    name = "xml"
    title = "XML door (Software-Challenge lobby)"
    keys: ClassVar[tuple[str, ...]] = ("port", "paused", "loadGameFile", "turnToLoad", "turn", "testMode", "timeout",
                                       *_WHOLE, *_NUMBER, "defaultGame", "lobbyDialect")
    model = XmlSettings

    def read(self, props: Mapping[str, str], sources: Mapping[str, str]) -> dict[str, Any]:
        fields: dict[str, Any] = {}
        if "port" in props:
            fields["port"] = port_number("port", props["port"])
        if "paused" in props:
            fields["paused"] = lenient_bool("paused", props["paused"], sources["paused"])
        if "loadGameFile" in props:
            fields["load_game_file"] = props["loadGameFile"].strip() or None
        for key in ("turn", "turnToLoad"):  # the 2022+ servers' name, then ours (it wins)
            if key in props:
                fields["turn_to_load"] = whole(key, props[key])
        if "testMode" in props:
            fields["test_mode"] = any_case_bool("testMode", props["testMode"])
        for key, name in _WHOLE.items():
            if key in props:
                fields[name] = whole(key, props[key])
        if "defaultGame" in props:
            fields["default_game"] = props["defaultGame"].strip() or None
        if "lobbyDialect" in props:
            dialect = props["lobbyDialect"].strip()
            if dialect not in LOBBY_DIALECTS:
                raise ConfigError(f"lobbyDialect must be {', '.join(LOBBY_DIALECTS[:-1])} or {LOBBY_DIALECTS[-1]}, not {dialect!r}")
            fields["lobby_dialect"] = dialect
        if "timeout" in props:
            fields["join_timeout"] = strict_bool("timeout", props["timeout"])
        for key, name in _NUMBER.items():
            if key in props:
                fields[name] = number(key, props[key])
        return fields

    def add_flags(self, group) -> None:
        group.add_argument("--port", type=port_argument, help="TCP port 0..65535 (default 13050; 0: a free port)")
        group.add_argument("--paused", action="store_true", help="start rooms created by join paused")
        group.add_argument("--load-game", help="start every room from a state of this replay (loadGameFile)")
        group.add_argument("--turn", type=int, help="turn of --load-game to start from (turnToLoad, default 0)")
        group.add_argument("--game", help="game of <join/> without gameType (defaultGame; default: newest modern season)")
        group.add_argument("--no-timeout", action="store_true", help="no move timeouts for modern <join/> players (timeout=false)")
        group.add_argument("--lobby-dialect", choices=LOBBY_DIALECTS,
                           help="answers before a client showed its dialect (lobbyDialect; 2020: as the Hive 2020 server, 2021: as the Blokus 2021 server)")

    def flags(self, args, fields: dict[str, Any]) -> dict[str, Any]:
        given = {
            "port": args.port,
            "paused": True if args.paused else None,
            "default_game": args.game,
            "join_timeout": False if args.no_timeout else None,
            "lobby_dialect": args.lobby_dialect,
            "load_game_file": args.load_game,
            "turn_to_load": args.turn,
        }
        return {**fields, **{name: value for name, value in given.items() if value is not None}}

    def serve(self, part, settings, args):
        """A wrong ``--game``/``defaultGame`` or ``--load-game``/``loadGameFile`` stops ``swc serve``."""
        from swc_local.server.xml.modern_lobby import check_default_game
        from swc_local.server.xml.replay import ReplayError, position_factory

        problem = check_default_game(part.default_game)
        if problem is not None:
            if args.game:
                raise ConfigError(problem.replace("defaultGame", "--game", 1))
            raise ConfigError(located(ConfigError(problem), settings.sources))
        if part.load_game_file:
            try:
                position_factory(part.load_game_file, part.turn_to_load, part.default_game)
            except ReplayError as error:
                raise ConfigError(str(error)) from None
        return part

    def asks_for_free_ports(self, part) -> bool:
        """``swc serve --port 0`` (``port = 0``) puts every door whose port is not given on a free
        port too, as before each door had its own port key: how tests start a whole server."""
        return part.port == 0


SECTION = XmlSection()


class XmlDoorSettings(XmlSettings):
    """What the XML door and its modules read: its section's fields, its port decided, and the
    house's fields it shares (the defaults are the house's, for a lobby built alone in a test)."""

    port: int = DEFAULT_PORT
    host: str = "127.0.0.1"
    password: str | None = "examplepassword"
    save_replay: bool = False
    replay_dir: str = "replays"
    seed: int | None = None
    max_connections: int = 1000


def door_settings(settings) -> XmlDoorSettings:
    """The XML door's settings from the house's ``settings`` (server/config.py's Settings)."""
    part = settings.section(SECTION.name)
    return XmlDoorSettings(**{**part.model_dump(), "port": door_port(part.port, DEFAULT_PORT, settings)},
                           host=settings.host, password=settings.password, save_replay=settings.save_replay,
                           replay_dir=settings.replay_dir, seed=settings.seed, max_connections=settings.max_connections)
