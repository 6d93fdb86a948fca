"""Blokus 2027: the one value the registry lists (facts here, parts loaded on first use)."""

from __future__ import annotations

from swc_local.games.dialects import ENVELOPE_2025, MODERN
from swc_local.games.entry import Parts, XmlSeason


class Blokus2027(XmlSeason):
    game_type, short_names, season = "swc_2027_blokus", ("blokus",), 2027
    title, display_name = "Blokus 2027", "Blokus"
    dialect, envelope = MODERN, ENVELOPE_2025

    def load_parts(self):
        from swc_local.games import blokus_pointing
        from swc_local.games.blokus import strategy, view
        from swc_local.games.blokus.plugin import BlokusPlugin
        return Parts(plugin=BlokusPlugin, view=view, pointing=blokus_pointing, strategy=strategy)


ENTRY = Blokus2027()
