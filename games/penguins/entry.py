"""Penguins 2023: the one value the registry lists (facts here, parts loaded on first use)."""

from __future__ import annotations

from swc_local.games.dialects import ENVELOPE_2022, MODERN
from swc_local.games.entry import Parts, XmlSeason


class Penguins2023(XmlSeason):
    game_type, short_names, season = "swc_2023_penguins", ("penguins",), 2023
    title, display_name = "Penguins 2023", "Penguins"
    dialect, envelope = MODERN, ENVELOPE_2022

    def load_parts(self):
        from swc_local.games.penguins import pointing, strategy, view
        from swc_local.games.penguins.plugin import PenguinsPlugin
        return Parts(plugin=PenguinsPlugin, view=view, pointing=pointing, strategy=strategy)


ENTRY = Penguins2023()
