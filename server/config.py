"""Server settings: ``server.properties`` (Java properties syntax) plus command-line overrides.

Spec-conformance notes (classic lobby spec §7):

* Without a ``server.properties`` file the password is ``examplepassword``; a file without a
  ``password`` key means nobody can authenticate, as on the official server.
* ``paused`` is lenient as on the official server (only ``true``, any case, is true), but any
  other value than true/false is logged as a warning with the file and line.  ``local`` is strict
  (``true``/``false``, anything else is an error).  Difference: ``saveReplay`` and ``testMode``
  (lenient on the official server, so ``saveReplay = yes`` silently meant false) accept
  ``true``/``false`` in any case and reject anything else.
* Every error names the file and line (``server.properties:3: saveReplay must be ...``).  A key
  this server does not know is a warning naming the closest known key (``pasword``: did you mean
  ``password``?); the official server's keys that do nothing here (``plugins``, ``debug``) are
  known keys.  A line that cannot be a key (``<xml>garbage``) is an error.
* ``turn`` (the 2022+ servers' name of ``turnToLoad``) is read too; ``turnToLoad`` wins.
* ``port``, ``reversixtPort`` and ``roborally.port`` must be 0..65535 (``roborally.port`` also
  ``-1``/``off``).
* Difference: on the official server a ``port`` line in the file overrides ``--port``.  Here every
  command-line flag wins over the file, which is what a person typing a flag expects.
* ``plugins`` is accepted and ignored (games are built in).  ``timeout`` (true/false, default
  true) switches the timeouts of modern ``<join/>`` players, as on the 25.x servers; the 2018/2019
  servers never read it and classic rooms ignore it.
* Keys of our own (``seed``, ``maxMessageBytes``, ...) are documented in
  ``server.properties.example``.
"""

from __future__ import annotations

import argparse
import difflib
import io
import logging
import re
from pathlib import Path

import javaproperties
from pydantic import BaseModel, ConfigDict

DEFAULT_PASSWORD = "examplepassword"
DEFAULT_PORT = 13050
PORT_RANGE = "0..65535"

log = logging.getLogger("swc.config")

# Keys of the official servers (spec classic_lobby_and_piranhas_2019.md §7, modern_dialect_2023plus.md):
# read here, or accepted and ignored (plugins, debug: games are built in, the log is ours).
OFFICIAL_KEYS = ("password", "paused", "port", "local", "plugins", "saveReplay", "loadGameFile", "turnToLoad",
                 "turn", "testMode", "timeout", "debug")
OWN_KEYS = ("replayDir", "seed", "maxMessageBytes", "maxDepth", "maxConnections", "softTimeoutMs", "hardTimeoutMs",
            "maxSeatsPerConnection", "defaultGame", "lobbyDialect", "idleTimeout", "passphraseChecksPerSecond", "viewerPort")
_KEY_SHAPE = re.compile(r"[A-Za-z][A-Za-z0-9._-]*\Z")


class ConfigError(ValueError):
    """A setting has a value the server cannot use.

    Every message begins with the key it is about (``port must be ...``), so :func:`located` can
    put the file and line of that key in front of it.
    """

    @property
    def key(self) -> str:
        return str(self).split(" ", 1)[0]


def located(error: ConfigError, sources: dict[str, str]) -> str:
    """The error's text, led by ``file:line`` of its key when the key came from a file."""
    where = sources.get(error.key)
    return f"{where}: {error}" if where and not str(error).startswith(where) else str(error)


def known_keys() -> tuple[str, ...]:
    from swc_local.server.reversixt.config import PROPERTY_KEYS as reversixt_keys
    from swc_local.server.roborally.config import PROPERTY_KEYS as roborally_keys

    return OFFICIAL_KEYS + OWN_KEYS + reversixt_keys + tuple(f"roborally.{key}" for key in roborally_keys)


def port_number(key: str, value: str, *, off: bool = False) -> int:
    """A TCP port from a properties value (``off``: -1 switches the door off)."""
    accepted = ("-1 (off) or " if off else "") + PORT_RANGE
    try:
        port = int(value.strip())
    except ValueError:
        raise ConfigError(f"{key} must be a port number {accepted}, not {value!r}") from None
    if not 0 <= port <= 65535 and not (off and port == -1):
        raise ConfigError(f"{key} must be a port number {accepted}, not {value!r}")
    return port


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
    # ReversiXT door (server/reversixt/door.py); keys in server/reversixt/config.py
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
    viewer_port: int | None = None  # the web viewer (server/web/); swc serve makes None 13080, -1 is off
    roborally: dict[str, str] = {}  # the roborally.* keys of server.properties, read by server/roborally/config.py
    sources: dict[str, str] = {}  # key of the properties file -> "file:line", for error messages


def port_argument(text: str) -> int:
    """argparse type of every port flag: a number 0..65535 (0: a free port)."""
    try:
        return port_number("port", text)
    except ConfigError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (accepted: {PORT_RANGE})") from None


def port_or_off_argument(text: str) -> int:
    """A door's port: 0..65535, or -1 for no door."""
    try:
        return port_number("port", text, off=True)
    except ConfigError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (accepted: -1 for off, {PORT_RANGE})") from None


def _strict_bool(key: str, value: str) -> bool:
    if value == "true":
        return True
    if value == "false":
        return False
    raise ConfigError(f"{key} must be true or false, not {value!r}")


def _bool(key: str, value: str) -> bool:
    """true/false in any case (what the official lenient reading means by them); else an error."""
    word = value.strip().lower()
    if word not in ("true", "false"):
        raise ConfigError(f"{key} must be true or false, not {value.strip()!r}")
    return word == "true"


def _lenient_bool(key: str, value: str, where: str) -> bool:
    """The official reading: only ``true``, any case, is true; other words are warned about."""
    word = value.strip().lower()
    if word not in ("true", "false"):
        log.warning("%s: %s = %r is read as false (accepted: true, false)", where, key, value.strip())
    return word == "true"


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


def _lines(path: Path, text: str) -> dict[str, int]:
    """Where each key is set (the last line of a key set twice, which is the value that counts);
    a line that cannot be a key is an error with its line."""
    lines: dict[str, int] = {}
    number = 1
    for element in javaproperties.parse(io.StringIO(text)):
        if isinstance(element, javaproperties.KeyValue):
            if not _KEY_SHAPE.match(element.key):
                raise ConfigError(f"{path}:{number}: malformed line {element.source.strip()!r}: "
                                  "expected key = value, # comment or a blank line")
            lines[element.key] = number
        number += element.source.count("\n")
    return lines


def _warn_unknown(path: Path, lines: dict[str, int]) -> None:
    known = known_keys()
    for key, number in lines.items():
        if key not in known:
            close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
            hint = f"; did you mean {close[0]!r}?" if close else " (server.properties.example lists every key)"
            log.warning("%s:%d: unknown key %r is ignored%s", path, number, key, hint)


def read_properties(path: Path) -> dict[str, object]:
    """Settings fields from one ``server.properties`` file; ``sources`` says where each key is."""
    text = path.read_text(encoding="latin-1")  # as the official server reads it
    lines = _lines(path, text)
    _warn_unknown(path, lines)
    sources = {key: f"{path}:{number}" for key, number in lines.items()}
    try:
        fields = _fields(javaproperties.loads(text), sources)
    except ConfigError as error:
        raise ConfigError(located(error, sources)) from None
    fields["sources"] = sources
    return fields


def _fields(props: dict[str, str], sources: dict[str, str]) -> dict[str, object]:
    fields: dict[str, object] = {"password": props.get("password")}
    if "paused" in props:
        fields["paused"] = _lenient_bool("paused", props["paused"], sources["paused"])
    if "port" in props:
        fields["port"] = port_number("port", props["port"])
    if "local" in props:
        fields["host"] = "127.0.0.1" if _strict_bool("local", props["local"].strip()) else "0.0.0.0"
    if "saveReplay" in props:
        fields["save_replay"] = _bool("saveReplay", props["saveReplay"])
    if "replayDir" in props:
        fields["replay_dir"] = props["replayDir"].strip()
    if "loadGameFile" in props:
        fields["load_game_file"] = props["loadGameFile"].strip() or None
    for key in ("turn", "turnToLoad"):  # the 2022+ servers' name, then ours (it wins)
        if key in props:
            fields["turn_to_load"] = _int(key, props[key])
    if "testMode" in props:
        fields["test_mode"] = _bool("testMode", props["testMode"])
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
    if "viewerPort" in props:
        fields["viewer_port"] = port_number("viewerPort", props["viewerPort"], off=True)
    if "idleTimeout" in props:
        fields["idle_timeout"] = _float("idleTimeout", props["idleTimeout"])
    if "passphraseChecksPerSecond" in props:
        fields["passphrase_checks_per_second"] = _float("passphraseChecksPerSecond", props["passphraseChecksPerSecond"])
    from swc_local.server.reversixt.config import reversixt_fields

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
