"""The pytest fixtures of each wire family beyond the XML one, one :class:`FixtureFamily` each.

``swc_pytest/plugin.py`` (the entry point pytest loads) registers every family's fixture module
as a pytest plugin of its own and adds its marker; it names no family. The XML family's
fixtures (``swc_server``, ``swc_play``) are the plugin's own.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

from swc_local.swc_pytest import reversixt, roborally


@dataclass(frozen=True)
class FixtureFamily:
    name: str  # the registry's family name
    fixtures: ModuleType  # a pytest plugin module: its fixtures
    marker: str  # its marker's line for ``pytest --markers``


FAMILIES: tuple[FixtureFamily, ...] = (
    FixtureFamily("reversixt", reversixt, reversixt.MARKER),
    FixtureFamily("roborally", roborally, roborally.MARKER),
)
