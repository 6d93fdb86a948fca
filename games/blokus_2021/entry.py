"""Blokus 2021: the one value the registry lists (facts here, parts loaded on first use)."""

from __future__ import annotations

from swc_local.games.dialects import SEASON_2021
from swc_local.games.entry import Parts, XmlSeason


class Blokus2021(XmlSeason):
    game_type, short_names, season = "swc_2021_blokus", ("blokus_2021",), 2021
    title, display_name = "Blokus 2021", "Blokus"
    dialect = SEASON_2021

    def load_parts(self):
        from swc_local.games import blokus_pointing
        from swc_local.games.blokus_2021 import strategy, view
        from swc_local.games.blokus_2021.plugin import Blokus2021Plugin
        return Parts(plugin=Blokus2021Plugin, view=view, pointing=blokus_pointing, strategy=strategy)


ENTRY = Blokus2021()
