"""Every wire family's part of the tools, one :class:`~swc_local.tools.seats.ToolFamily` each:
the seat adapter ``swc match``, the tournament and the runner play it with, and the replay reader
of ``swc replay``. The generic tools iterate this tuple and name no family.
"""

from __future__ import annotations

from pathlib import Path

from swc_local.games import registry
from swc_local.tools import replay_check, reversixt_match, reversixt_replay, roborally_match, roborally_replay, xml_match
from swc_local.tools.seats import ToolFamily

FAMILIES: tuple[ToolFamily, ...] = (
    ToolFamily("xml", xml_match, replay_check.main, (".xml",), xml_match.FLAGS,
               "the Software-Challenge games", "Software-Challenge games"),
    ToolFamily("reversixt", reversixt_match, reversixt_replay.main, (".log", ".txt"), reversixt_match.FLAGS,
               "ReversiXT", "reversixt", reversixt_match.maps),
    ToolFamily("roborally", roborally_match, roborally_replay.main, (".jsonl",), roborally_match.FLAGS,
               "Robo Rally", "roborally", roborally_match.maps),
)


def family(name: str) -> ToolFamily:
    """The family called ``name`` (KeyError: the tools know no such family)."""
    for entry in FAMILIES:
        if entry.name == name:
            return entry
    raise KeyError(f"the tools know no family {name!r}")


def seat_adapter(game: str):
    """``(registry row, seat adapter module)`` of ``game`` (a game type or short name)."""
    entry = registry.entry(game)
    if entry is None:
        raise ValueError(f"unknown game {game!r}")
    return entry, family(entry.family).adapter


def family_for_file(path: Path) -> ToolFamily | None:
    """The family whose replay/log files are named like ``path`` (None: no family's)."""
    name = Path(path).name.lower()
    for entry in FAMILIES:
        if name.endswith(entry.log_suffixes):
            return entry
    return None
