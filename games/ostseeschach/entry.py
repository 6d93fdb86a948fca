"""Ostseeschach 2022: the one value the registry lists (facts here, parts loaded on first use)."""

from __future__ import annotations

from swc_local.games.dialects import ENVELOPE_2022, MODERN
from swc_local.games.entry import Parts, XmlSeason


class Ostseeschach2022(XmlSeason):
    game_type, short_names, season = "swc_2022_ostseeschach", ("ostseeschach",), 2022
    title, display_name = "Ostseeschach 2022", "Ostseeschach"
    dialect, envelope = MODERN, ENVELOPE_2022

    def load_parts(self):
        from swc_local.games.ostseeschach import pointing, strategy, view
        from swc_local.games.ostseeschach.plugin import OstseeschachPlugin
        return Parts(plugin=OstseeschachPlugin, view=view, pointing=pointing, strategy=strategy)


ENTRY = Ostseeschach2022()
