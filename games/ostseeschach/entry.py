"""Ostseeschach 2022: the one value the registry lists (facts here, parts loaded on first use)."""

from __future__ import annotations

from swc_local.games.dialects import ENVELOPE_2022, MODERN
from swc_local.games.entry import XmlSeason


class Ostseeschach2022(XmlSeason):
    game_type, short_names, season = "swc_2022_ostseeschach", ("ostseeschach",), 2022
    title, display_name = "Ostseeschach 2022", "Ostseeschach"
    dialect, envelope = MODERN, ENVELOPE_2022

    def load_plugin(self):
        from swc_local.games.ostseeschach.plugin import OstseeschachPlugin
        return OstseeschachPlugin

    def load_view(self):
        from swc_local.games.ostseeschach import view
        return view

    def load_pointing(self):
        from swc_local.games.ostseeschach import pointing
        return pointing

    def load_strategy(self):
        from swc_local.games.ostseeschach import strategy
        return strategy


ENTRY = Ostseeschach2022()
