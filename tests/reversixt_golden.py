"""Shared helpers for the ReversiXT golden tests: scenario options, captured frames."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from swc_local.protocol import reversixt as wire

GOLDEN = Path(__file__).parent / "data" / "reversixt"
MAPS = GOLDEN / "maps"

_ROW = re.compile(r"^\| `([a-z0-9_]+)` \| `([^`]*)` \| `([^`]*)` \| ([^|]*) \|", re.M)


@dataclass
class Scenario:
    name: str
    map_name: str
    options: list[str]
    clients: str

    @property
    def folder(self) -> Path:
        return GOLDEN / self.name

    def option(self, flag: str, default=None):
        return self.options[self.options.index(flag) + 1] if flag in self.options else default

    @property
    def timed(self) -> bool:
        return "-t" in self.options or "-z" in self.options

    def connections(self) -> list[int]:
        return sorted(int(p.name[1:-4]) for p in self.folder.glob("C*.raw") if ".sent" not in p.name)

    def received(self, k: int) -> bytes:
        return (self.folder / f"C{k}.raw").read_bytes()

    def sent(self, k: int) -> bytes:
        path = self.folder / f"C{k}.sent.raw"
        return path.read_bytes() if path.exists() else b""

    def log(self) -> str | None:
        path = self.folder / "log_game.txt"
        return path.read_text() if path.exists() else None

    def result(self) -> str | None:
        path = self.folder / "result.txt"
        return path.read_text() if path.exists() else None


def scenarios() -> dict[str, Scenario]:
    text = (GOLDEN / "README.md").read_text()
    out = {}
    for name, map_name, options, clients in _ROW.findall(text):
        out[name] = Scenario(name, map_name, [] if options == "-" else options.split(), clients.strip())
    return out


def normalise_log(text: str) -> str:
    return re.sub(r"listening on port \d+", "listening on port PORT", text)


def frames(data: bytes) -> list[wire.Frame]:
    return wire.split_frames(data)[0]
