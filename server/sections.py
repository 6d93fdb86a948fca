"""What a door's settings section is: :class:`Section`, the error type and the value readers.

The split: this module is the part of the settings that every door's section is built on (a door's
``server/<family>/settings.py`` imports it), and server/config.py is the whole, the house's
``Settings`` and the reading of ``server.properties``, which needs every door's section (through
server/doors.py's tuple), so the two cannot be one module without an import cycle.

``server.properties`` is one file, but each door reads its own part of it. A door declares its
part as a :class:`Section` (its keys, its frozen pydantic model, its ``swc serve`` flags, the
defaults ``swc serve`` adds); the house (:mod:`swc_local.server.config`) reads the file once,
warns about keys no section knows, and hands each section the keys it owns. This module knows no
door and no key of any door, so a new family brings its whole section in its own subpackage
(``server/<family>/settings.py``) and nothing here changes.
"""

from __future__ import annotations

import argparse
import logging
from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

PORT_RANGE = "0..65535"
DEFAULT_PASSWORD = "examplepassword"
"""The passphrase without a ``server.properties`` file: public (in every manual), so it guards
nothing that loopback does not (the viewer's gate, server/web/auth.py)."""

log = logging.getLogger("swc.config")


class ConfigError(ValueError):
    """A setting has a value the server cannot use.

    Every message begins with the key it is about (``port must be ...``), so :func:`located` can
    put the file and line of that key in front of it.
    """

    @property
    def key(self) -> str:
        return str(self).split(" ", 1)[0]


def located(error: ConfigError, sources: Mapping[str, str]) -> str:
    """The error's text, led by ``file:line`` of its key when the key came from a file."""
    where = sources.get(error.key)
    return f"{where}: {error}" if where and not str(error).startswith(where) else str(error)


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


def strict_bool(key: str, value: str) -> bool:
    """Exactly ``true`` or ``false`` (after stripping)."""
    word = value.strip()
    if word not in ("true", "false"):
        raise ConfigError(f"{key} must be true or false, not {word!r}")
    return word == "true"


def any_case_bool(key: str, value: str) -> bool:
    """true/false in any case (what the official lenient reading means by them); else an error."""
    word = value.strip().lower()
    if word not in ("true", "false"):
        raise ConfigError(f"{key} must be true or false, not {value.strip()!r}")
    return word == "true"


def lenient_bool(key: str, value: str, where: str) -> bool:
    """The official reading: only ``true``, any case, is true; other words are warned about."""
    word = value.strip().lower()
    if word not in ("true", "false"):
        log.warning("%s: %s = %r is read as false (accepted: true, false)", where, key, value.strip())
    return word == "true"


def whole(key: str, value: str) -> int:
    try:
        return int(value.strip())
    except ValueError:
        raise ConfigError(f"{key} must be a whole number, not {value!r}") from None


def number(key: str, value: str) -> float:
    try:
        return float(value.strip())
    except ValueError:
        raise ConfigError(f"{key} must be a number, not {value!r}") from None


class Section:
    """One door's part of ``server.properties`` and of ``swc serve``'s command line.

    A subclass says which keys it owns (:attr:`keys`, each a whole key as written in the file),
    the frozen pydantic model they become (:attr:`model`), how the file's values become model
    fields (:meth:`read`), which ``swc serve`` flags it adds and how they become fields
    (:meth:`add_flags`, :meth:`flags`; a flag wins over its key), and what ``swc serve`` adds on
    top of the model's defaults and checks before the first door opens (:meth:`serve`).
    In-process servers (tests, ``swc match``) use the model's own defaults.
    """

    name: ClassVar[str]  # the door's name, and the key of its part in ``Settings.sections``
    title: ClassVar[str]  # the heading of its flags in ``swc serve --help``
    keys: ClassVar[tuple[str, ...]]
    model: ClassVar[type[BaseModel]]

    def read(self, props: Mapping[str, str], sources: Mapping[str, str]) -> dict[str, Any]:
        """Model fields from the file's keys of this section (only those present)."""
        return {}

    def add_flags(self, group: argparse._ArgumentGroup) -> None:
        """This section's ``swc serve`` flags."""

    def flags(self, args: argparse.Namespace, fields: dict[str, Any]) -> dict[str, Any]:
        """``fields`` (from the file) with the flags given on the command line put over them."""
        return fields

    def serve(self, part: BaseModel, settings: Any, args: argparse.Namespace) -> BaseModel:
        """``swc serve``'s defaults over the model's, and checks that must stop it before it
        listens (raise :class:`ConfigError`, one line)."""
        return part

    def asks_for_free_ports(self, part: BaseModel) -> bool:
        """Whether this part asks ``swc serve`` to put every door whose port is not given on a
        free port (``Settings.free_ports``); no section does by default."""
        return False


def door_port(port: int | None, default: int, settings: Any) -> int:
    """A door's port: its section's own (``port``), else a free one when the house asks for free
    ports (``Settings.free_ports``: tests, ``swc serve --port 0``), else ``default``."""
    if port is not None:
        return port
    return 0 if settings.free_ports else default


class PortSettings(BaseModel):
    """A door whose one setting is its port."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    port: int | None = None  # None: as the door decides in-process; swc serve's default; -1: off


class PortSection(Section):
    """The section of a door whose one key is its port (``key``, flag ``flag``): unset in-process,
    ``default_port`` for ``swc serve`` (a free port when the house asks for free ports, as in
    tests), -1 off."""

    key: ClassVar[str]
    flag: ClassVar[str]
    default_port: ClassVar[int]
    what: ClassVar[str]  # "web viewer": the flag's help says "port of the web viewer"
    model = PortSettings

    @property
    def keys(self) -> tuple[str, ...]:  # type: ignore[override]
        return (self.key,)

    def read(self, props: Mapping[str, str], sources: Mapping[str, str]) -> dict[str, Any]:
        return {"port": port_number(self.key, props[self.key], off=True)} if self.key in props else {}

    def add_flags(self, group) -> None:
        group.add_argument(self.flag, type=port_or_off_argument,
                           help=f"port of the {self.what} ({self.key}, default {self.default_port}; -1: off)")

    def flags(self, args: argparse.Namespace, fields: dict[str, Any]) -> dict[str, Any]:
        given = getattr(args, self.flag.lstrip("-").replace("-", "_"))
        return fields if given is None else {**fields, "port": given}

    def serve(self, part: BaseModel, settings: Any, args: argparse.Namespace) -> BaseModel:
        if part.port is not None:  # type: ignore[attr-defined]
            return part
        return part.model_copy(update={"port": door_port(None, self.default_port, settings)})
