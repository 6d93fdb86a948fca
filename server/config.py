"""The house's settings: ``server.properties`` (Java properties syntax) plus command-line overrides.

The file is read once, here: its lines (every key's ``file:line`` for error messages), a warning
for every key that no section knows (naming the closest known key), and then each part is handed
to whoever reads it: the house's own keys below, and every door's section (server/sections.py's
:class:`~swc_local.server.sections.Section`, declared in the door's subpackage and found through
server/doors.py's tuple, :func:`sections`) its own keys. No key of a door is named in this file.

Spec-conformance notes (classic lobby spec §7):

* Without a ``server.properties`` file the password is ``examplepassword``; a file without a
  ``password`` key means nobody can authenticate, as on the official server.  Differences
  (issue 34): a ``password`` line without a value is an error (it silently meant an empty
  passphrase); ``swc serve`` off loopback refuses to start with ``examplepassword`` (public in
  every copy of this project) unless ``--allow-default-passphrase`` is given.
* ``local`` is strict (``true``/``false``, anything else is an error).  Difference: ``saveReplay``
  (lenient on the official server, so ``saveReplay = yes`` silently meant false) accepts
  ``true``/``false`` in any case and rejects anything else.
* Every error names the file and line (``server.properties:3: saveReplay must be ...``).  A key
  this server does not know is a warning naming the closest known key (``pasword``: did you mean
  ``password``?); the official server's keys that do nothing here (``plugins``, ``debug``) are
  known keys.  A line that cannot be a key (``<xml>garbage``) is an error.
* ``port`` must be 0..65535; it is the XML door's key (its section, server/xml/settings.py), as
  every other door's port is its own section's.
* Difference: on the official server a ``port`` line in the file overrides ``--port``.  Here every
  command-line flag wins over the file, which is what a person typing a flag expects.
* ``plugins`` is accepted and ignored (games are built in).
* Keys of our own (``seed``, ``maxConnections``, ...) are documented in ``server.properties.example``.
"""

from __future__ import annotations

import difflib
import io
import re
from pathlib import Path
from typing import Any

import javaproperties
from pydantic import BaseModel, ConfigDict, model_validator

from swc_local.server.sections import (  # noqa: F401 -- the names every caller imports from here
    DEFAULT_PASSWORD, PORT_RANGE, ConfigError, Section, any_case_bool, located, log, port_argument, port_number, port_or_off_argument,
    strict_bool, whole,
)
from swc_local.server.doors import all_doors


# The house's own keys: what every door shares (address, passphrase, seed, records, connection
# budget), and the official keys that do nothing here (plugins, debug: games are built in, the
# log is ours).  Everything else belongs to a door's section.
HOUSE_KEYS = ("password", "local", "plugins", "saveReplay", "debug", "replayDir", "seed", "maxConnections")
_KEY_SHAPE = re.compile(r"[A-Za-z][A-Za-z0-9._-]*\Z")


class Settings(BaseModel):
    """Everything the server reads at start-up: the house's fields (what every door shares:
    address, passphrase, seed, records, connection budget, whether doors take free ports) and
    each door's section (:meth:`section`), none of them privileged.

    Every door reads its own section (``settings.section("xml").paused``): a section's field read
    at the top is an AttributeError, not the first section's field.  A section's field may be
    *given* at the top (``Settings(paused=True)``), as in-process callers (tests, ``swc match``,
    the pytest fixture) have it, when exactly one section declares it; a field that several
    declare (``port``, ``join_timeout``) is given in its section (``sections={"xml": {"port":
    0}}``), and ``free_ports=True`` puts every door whose port is unset on a free port.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")  # a stale field name is an error, not ignored

    host: str = "127.0.0.1"
    password: str | None = DEFAULT_PASSWORD
    save_replay: bool = False
    replay_dir: str = "replays"
    seed: int | None = None
    max_connections: int = 1000
    free_ports: bool = False  # every door whose port is not set listens on a free port (tests, --port 0)
    sections: dict[str, Any] = {}  # section name -> its model (a dict of its fields is read into one)
    sources: dict[str, str] = {}  # key of the properties file -> "file:line", for error messages

    @model_validator(mode="before")
    @classmethod
    def _sections_of_top_fields(cls, data: Any) -> Any:
        """Every section's part as its model, a section's field given at the top put into it."""
        if not isinstance(data, dict):
            return data
        data = dict(data)
        parts = dict(data.get("sections") or {})
        for name in [key for key in data if key not in cls.model_fields]:
            declaring = [section for section in sections() if name in section.model.model_fields]
            if len(declaring) > 1:
                raise ValueError(f"{name} is a field of the sections {', '.join(s.name for s in declaring)}: "
                                 f"give it in its section (sections={{{declaring[0].name!r}: {{{name!r}: ...}}}})")
            section = declaring[0] if declaring else None
            if section is not None:
                part = parts.get(section.name) or {}
                value = data.pop(name)
                parts[section.name] = (part.model_copy(update={name: value}) if isinstance(part, BaseModel)
                                       else {**part, name: value})
        data["sections"] = {name: _model_of(name, part) for name, part in parts.items()}
        return data

    def section(self, name: str) -> BaseModel:
        """The part of the settings the section ``name`` reads (its model's defaults if unset)."""
        part = self.sections.get(name)
        if isinstance(part, BaseModel):
            return part
        return section_named(name).model.model_validate(part or {})

    def with_section(self, name: str, part: BaseModel) -> Settings:
        return self.model_copy(update={"sections": {**self.sections, name: part}})


def _model_of(name: str, part: Any) -> Any:
    if isinstance(part, BaseModel):
        return part
    try:
        return section_named(name).model.model_validate(part or {})
    except KeyError:  # a section of a family that is not served (tests): kept as it is
        return part


def sections() -> list[Section]:
    """Every door's section, in the order the doors start (server/doors.py)."""
    return [door.section for door in all_doors()]


def section_named(name: str) -> Section:
    for section in sections():
        if section.name == name:
            return section
    raise KeyError(f"no settings section {name!r}")


def known_keys() -> tuple[str, ...]:
    return HOUSE_KEYS + tuple(key for section in sections() for key in section.keys)


def _lines(path: Path, text: str) -> dict[str, int]:
    """Where each key is set (the last line of a key set twice, which is the value that counts);
    a line that cannot be a key is an error with its line."""
    lines: dict[str, int] = {}
    line = 1
    for element in javaproperties.parse(io.StringIO(text)):
        if isinstance(element, javaproperties.KeyValue):
            if not _KEY_SHAPE.match(element.key):
                raise ConfigError(f"{path}:{line}: malformed line {element.source.strip()!r}: "
                                  "expected key = value, # comment or a blank line")
            lines[element.key] = line
        line += element.source.count("\n")
    return lines


def _warn_unknown(path: Path, lines: dict[str, int]) -> None:
    known = known_keys()
    for key, line in lines.items():
        if key not in known:
            close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
            hint = f"; did you mean {close[0]!r}?" if close else " (server.properties.example lists every key)"
            log.warning("%s:%d: unknown key %r is ignored%s", path, line, key, hint)


def read_properties(path: Path) -> dict[str, object]:
    """Settings fields from one ``server.properties`` file; ``sources`` says where each key is;
    ``sections`` holds each section's fields from the file."""
    text = path.read_text(encoding="latin-1")  # as the official server reads it
    lines = _lines(path, text)
    _warn_unknown(path, lines)
    sources = {key: f"{path}:{line}" for key, line in lines.items()}
    props = javaproperties.loads(text)
    try:
        fields = _house_fields(props)
        parts: dict[str, dict[str, Any]] = {}
        for section in sections():
            own = {key: value for key, value in props.items() if key in section.keys}
            parts[section.name] = section.read(own, sources)
    except ConfigError as error:
        raise ConfigError(located(error, sources)) from None
    fields["sections"] = parts
    fields["sources"] = sources
    return fields


def _house_fields(props: dict[str, str]) -> dict[str, object]:
    fields: dict[str, object] = {"password": props.get("password")}
    if "password" in props and not props["password"].strip():
        raise ConfigError("password must not be empty (a passphrase, or no password line: nobody can authenticate)")
    if "local" in props:
        fields["host"] = "127.0.0.1" if strict_bool("local", props["local"]) else "0.0.0.0"
    if "saveReplay" in props:
        fields["save_replay"] = any_case_bool("saveReplay", props["saveReplay"])
    if "replayDir" in props:
        fields["replay_dir"] = props["replayDir"].strip()
    if "seed" in props:
        fields["seed"] = whole("seed", props["seed"])
    if "maxConnections" in props:
        fields["max_connections"] = whole("maxConnections", props["maxConnections"])
    return fields


def load_settings(properties: Path | None = None, **overrides: object) -> Settings:
    """Defaults, then the properties file (if it exists), then the non-None ``overrides``.

    An override named like a section (``reversixt={"enabled": False}``) is a dict of that
    section's fields, put over the file's.
    """
    fields: dict[str, Any] = {"sections": {}}
    path = properties if properties is not None else Path("server.properties")
    if path.is_file():
        fields.update(read_properties(path))
    elif properties is not None:
        raise ConfigError(f"properties file {path} does not exist")
    names = {section.name for section in sections()}
    parts = dict(fields["sections"])
    for key, value in overrides.items():
        if key in names and isinstance(value, dict):
            parts[key] = {**parts.get(key, {}), **{k: v for k, v in value.items() if v is not None}}
        elif value is not None:
            fields[key] = value
    fields["sections"] = {name: section_named(name).model.model_validate(part) for name, part in parts.items()}
    return Settings(**fields)
