"""Penguins 2023: the one value the registry lists (facts here, parts loaded on first use)."""

from __future__ import annotations

from swc_local.games.dialects import ENVELOPE_2022, MODERN
from swc_local.games.entry import XmlSeason


class Penguins2023(XmlSeason):
    game_type, short_names, season = "swc_2023_penguins", ("penguins",), 2023
    title, display_name = "Penguins 2023", "Penguins"
    dialect, envelope = MODERN, ENVELOPE_2022

    def load_plugin(self):
        from swc_local.games.penguins.plugin import PenguinsPlugin
        return PenguinsPlugin

    def load_view(self):
        from swc_local.games.penguins import view
        return view

    def load_pointing(self):
        from swc_local.games.penguins import pointing
        return pointing

    def load_strategy(self):
        from swc_local.games.penguins import strategy
        return strategy


ENTRY = Penguins2023()
