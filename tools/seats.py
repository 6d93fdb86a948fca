"""The tools layer's kinds: what a family's seat adapter is to the runner, and its family value.

The runner (tools/runner.py) plays any game through the seat adapter of the game's family (a
module: ``tools/<family>_match.py``), the replay command (``swc replay``) through its replay
reader; both come from :data:`swc_local.tools.families.FAMILIES`, one :class:`ToolFamily` per
family. The adapters import this module, not the runner, so nothing here imports in a cycle.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TextIO

from swc_local.tools.results import REGULAR


@dataclass
class SeatOutcome:
    """What the game says about one seat (the adapter's part of a :class:`SeatResult`)."""

    rank: int
    score: tuple[str, ...]
    cause: str = REGULAR
    reason: str | None = None


@dataclass
class Outcome:
    seats: list[SeatOutcome] | None  # None: no result (then ``error`` says why)
    error: str | None = None
    replay: str | None = None
    score_names: tuple[str, ...] = ()
    move_times: dict[int, list[float]] = field(default_factory=dict)  # seat -> seconds per move
    raw: object = None


class Table(Protocol):
    """One game being set up and played, as a family's adapter presents it to the runner."""

    labels: list[str]  # each seat's label in the game's own words
    ordered: bool  # True: seat k's command starts only once seat k-1 has joined

    def values(self, seat: int) -> dict:
        """The placeholders of seat ``seat``'s command besides {seed} and {game}."""

    async def wait_joined(self, seat: int) -> None:
        """Return once the seat's player has joined."""

    async def fill(self, seats: list[int]) -> None:
        """Seat stand-ins that lose in ``seats`` (their commands did not join)."""

    async def finish(self) -> Outcome:
        """Wait for the end of the game (cancelled after the game timeout)."""


class SeatAdapter(Protocol):
    """A family's seat adapter module, as the runner, ``swc match`` and the tournament use it."""

    OPTIONS: tuple[str, ...]  # the runner options (GameSpec.options) the family knows

    def check_options(self, game: str, options: dict) -> str | None:
        """A one-line problem with ``options`` for ``game``, or None."""

    def Family(self, nursery) -> Any:  # noqa: N802 -- the adapter's class: its in-process door(s), one per run
        """Open the family's door(s) for one run; ``table(game, spec)`` then seats each game."""


@dataclass(frozen=True)
class Flag:
    """One ``swc match`` flag of a family: its spellings, the runner option it sets
    (``GameSpec.options[key]``), its type and help; ``tournament``: its help in ``swc tournament``
    (None: not a tournament flag). Families may declare the same flag (``--map``): it is one
    flag, each family's help in it (tools/family_flags.py)."""

    names: tuple[str, ...]  # the first is the long one; argparse's dest comes from it
    key: str
    help: str
    type: Callable[[str], Any] = str
    metavar: str | None = None
    tournament: str | None = None
    tournament_metavar: str | None = None  # its metavar there, when it differs

    @property
    def dest(self) -> str:
        return self.names[0].lstrip("-").replace("-", "_")


@dataclass(frozen=True)
class ToolFamily:
    """One family's part of the tools: its seat adapter, its replay reader, its flags."""

    name: str  # the registry's family name
    adapter: SeatAdapter
    read_replay: Callable[[Path, bool, TextIO], int]  # (path, check, out) -> exit code: swc replay
    log_suffixes: tuple[str, ...] = field(default=())  # the file names of its replays/logs end so
    flags: tuple[Flag, ...] = ()  # its options of swc match and swc tournament
    title: str = ""  # the heading of its flags in ``swc match --help`` ("ReversiXT")
    label: str = ""  # what its help says in ``swc tournament --help`` ("reversixt: map file")
    maps: Callable[[], list[str]] | None = None  # ``swc maps``: its bundled maps, a heading line first
