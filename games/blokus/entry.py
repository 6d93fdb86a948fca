"""Blokus 2027: the one value the registry lists (facts here, parts loaded on first use)."""

from __future__ import annotations

from swc_local.games.dialects import ENVELOPE_2025, MODERN
from swc_local.games.entry import XmlSeason


class Blokus2027(XmlSeason):
    game_type, short_names, season = "swc_2027_blokus", ("blokus",), 2027
    title, display_name = "Blokus 2027", "Blokus"
    dialect, envelope = MODERN, ENVELOPE_2025

    def load_plugin(self):
        from swc_local.games.blokus.plugin import BlokusPlugin
        return BlokusPlugin

    def load_view(self):
        from swc_local.games.blokus import view
        return view

    def load_pointing(self):
        from swc_local.games import blokus_pointing
        return blokus_pointing

    def load_strategy(self):
        from swc_local.games.blokus import strategy
        return strategy


ENTRY = Blokus2027()
