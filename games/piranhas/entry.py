"""Piranhas 2019: the one value the registry lists (facts here, parts loaded on first use)."""

from __future__ import annotations

from swc_local.games.dialects import CLASSIC
from swc_local.games.entry import XmlSeason


class Piranhas2019(XmlSeason):
    game_type = "swc_2019_piranhas"
    short_names = ("piranhas",)
    title = "Piranhas 2019"
    display_name = "Piranhas"
    dialect = CLASSIC

    def load_plugin(self):
        from swc_local.games.piranhas.plugin import PiranhasPlugin
        return PiranhasPlugin

    def load_view(self):
        from swc_local.games.piranhas import view
        return view

    def load_pointing(self):
        from swc_local.games.piranhas import pointing
        return pointing


ENTRY = Piranhas2019()
