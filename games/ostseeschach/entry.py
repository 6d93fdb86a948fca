"""Ostseeschach 2022: the one value the registry lists (facts here, parts loaded on first use)."""

from __future__ import annotations

from swc_local.games.dialects import ENVELOPE_2022, MODERN
from swc_local.games.entry import XmlSeason


class Ostseeschach2022(XmlSeason):
    game_type = "swc_2022_ostseeschach"
    short_names = ("ostseeschach",)
    title = "Ostseeschach 2022"
    display_name = "Ostseeschach"
    season = 2022
    dialect = MODERN
    envelope = ENVELOPE_2022

    def load_plugin(self):
        from swc_local.games.ostseeschach.plugin import OstseeschachPlugin
        return OstseeschachPlugin

    def load_view(self):
        from swc_local.games.ostseeschach import view
        return view

    def load_pointing(self):
        from swc_local.games.ostseeschach import pointing
        return pointing


ENTRY = Ostseeschach2022()
