"""Server settings: ``server.properties`` (Java properties syntax) plus command-line overrides.

Spec-conformance notes (classic lobby spec §7):

* Without a ``server.properties`` file the password is ``examplepassword``; a file without a
  ``password`` key means nobody can authenticate, as on the official server.
* ``paused`` is lenient (only ``true``, any case, is true); ``local`` is strict
  (``true``/``false``, anything else is an error).
* Difference: on the official server a ``port`` line in the file overrides ``--port``.  Here every
  command-line flag wins over the file, which is what a person typing a flag expects.
* ``plugins`` is accepted and ignored (games are built in).  ``timeout`` (true/false, default
  true) switches the timeouts of modern ``<join/>`` players, as on the 25.x servers; the 2018/2019
  servers never read it and classic rooms ignore it.
* Keys of our own (``seed``, ``maxMessageBytes``, ...) are documented in
  ``server.properties.example``.
"""

from __future__ import annotations

from pathlib import Path

import javaproperties
from pydantic import BaseModel, ConfigDict

DEFAULT_PASSWORD = "examplepassword"
DEFAULT_PORT = 13050


class ConfigError(ValueError):
    """A setting has a value the server cannot use."""


class Settings(BaseModel):
    """Everything the server reads at start-up."""

    model_config = ConfigDict(frozen=True)

    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    password: str | None = DEFAULT_PASSWORD
    paused: bool = False
    save_replay: bool = False
    replay_dir: str = "replays"
    load_game_file: str | None = None
    turn_to_load: int = 0
    test_mode: bool = False
    seed: int | None = None
    max_message_bytes: int = 1 << 20
    max_depth: int = 32
    max_connections: int = 1000
    idle_timeout: float = 60.0
    soft_timeout_ms: int | None = None
    hard_timeout_ms: int | None = None
    max_seats_per_connection: int = 100
    passphrase_checks_per_second: float = 5.0
    default_game: str | None = None  # <join/> without gameType (modern dialect): None = newest season
    lobby_dialect: str = "classic"  # how a connection that showed no dialect yet is answered
    join_timeout: bool = True  # modern <join/> players get the soft/hard timeouts (key "timeout")
    # ReversiXT door (server/reversixt_door.py); keys in server/reversixt_config.py
    reversixt_enabled: bool = True
    reversixt_port: int | None = None  # None: 7777, or a free port when port is 0
    reversixt_map: str | None = None  # None: the bundled classic_2p.map
    reversixt_time_limit: float = 0.0
    reversixt_depth: int = 1
    reversixt_zleep: float | None = None
    reversixt_join_timeout: float = 60.0  # no GROUP for this long (without zleep): closed (issue 21)
    reversixt_write_timeout: float = 10.0  # takes no bytes for this long: disqualified (issue 21)
    reversixt_max_idle: int = 100  # connections without a GROUP; the oldest makes room (issue 21)
    roborally_port: int | None = None  # the Robo Rally door (issue 16); swc serve makes None 52020, -1 is off
    roborally: dict[str, str] = {}  # the roborally.* keys of server.properties, read by server/roborally_config.py


def _strict_bool(key: str, value: str) -> bool:
    if value == "true":
        return True
    if value == "false":
        return False
    raise ConfigError(f"{key} must be true or false, not {value!r}")


def _lenient_bool(value: str) -> bool:
    return value.strip().lower() == "true"


def _int(key: str, value: str) -> int:
    try:
        return int(value.strip())
    except ValueError:
        raise ConfigError(f"{key} must be a whole number, not {value!r}") from None


def _float(key: str, value: str) -> float:
    try:
        return float(value.strip())
    except ValueError:
        raise ConfigError(f"{key} must be a number, not {value!r}") from None


def read_properties(path: Path) -> dict[str, object]:
    """Settings fields from one ``server.properties`` file."""
    with path.open(encoding="latin-1") as handle:
        props = javaproperties.load(handle)
    fields: dict[str, object] = {"password": props.get("password")}
    if "paused" in props:
        fields["paused"] = _lenient_bool(props["paused"])
    if "port" in props:
        fields["port"] = _int("port", props["port"])
    if "local" in props:
        fields["host"] = "127.0.0.1" if _strict_bool("local", props["local"].strip()) else "0.0.0.0"
    if "saveReplay" in props:
        fields["save_replay"] = _lenient_bool(props["saveReplay"])
    if "replayDir" in props:
        fields["replay_dir"] = props["replayDir"].strip()
    if "loadGameFile" in props:
        fields["load_game_file"] = props["loadGameFile"].strip() or None
    if "turnToLoad" in props:
        fields["turn_to_load"] = _int("turnToLoad", props["turnToLoad"])
    if "testMode" in props:
        fields["test_mode"] = _lenient_bool(props["testMode"])
    if "seed" in props:
        fields["seed"] = _int("seed", props["seed"])
    for key, name in (
        ("maxMessageBytes", "max_message_bytes"),
        ("maxDepth", "max_depth"),
        ("maxConnections", "max_connections"),
        ("softTimeoutMs", "soft_timeout_ms"),
        ("hardTimeoutMs", "hard_timeout_ms"),
        ("maxSeatsPerConnection", "max_seats_per_connection"),
    ):
        if key in props:
            fields[name] = _int(key, props[key])
    if "defaultGame" in props:
        fields["default_game"] = props["defaultGame"].strip() or None
    if "lobbyDialect" in props:
        dialect = props["lobbyDialect"].strip()
        if dialect not in ("classic", "modern"):
            raise ConfigError(f"lobbyDialect must be classic or modern, not {dialect!r}")
        fields["lobby_dialect"] = dialect
    if "timeout" in props:
        fields["join_timeout"] = _strict_bool("timeout", props["timeout"].strip())
    if "idleTimeout" in props:
        fields["idle_timeout"] = _float("idleTimeout", props["idleTimeout"])
    if "passphraseChecksPerSecond" in props:
        fields["passphrase_checks_per_second"] = _float("passphraseChecksPerSecond", props["passphraseChecksPerSecond"])
    from swc_local.server.reversixt_config import reversixt_fields

    fields.update(reversixt_fields(props))
    roborally = {key[len("roborally."):]: value.strip() for key, value in props.items() if key.startswith("roborally.")}
    if roborally:
        fields["roborally"] = roborally
    return fields


def load_settings(properties: Path | None = None, **overrides: object) -> Settings:
    """Defaults, then the properties file (if it exists), then the non-None ``overrides``."""
    fields: dict[str, object] = {}
    path = properties if properties is not None else Path("server.properties")
    if path.is_file():
        fields.update(read_properties(path))
    elif properties is not None:
        raise ConfigError(f"properties file {path} does not exist")
    fields.update({key: value for key, value in overrides.items() if value is not None})
    return Settings(**fields)
