"""Piranhas 2019: the one value the registry lists (facts here, parts loaded on first use)."""

from __future__ import annotations

from swc_local.games.dialects import CLASSIC
from swc_local.games.entry import XmlSeason


class Piranhas2019(XmlSeason):
    game_type, short_names = "swc_2019_piranhas", ("piranhas",)
    title, display_name = "Piranhas 2019", "Piranhas"
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

    def load_strategy(self):
        from swc_local.games.piranhas import strategy
        return strategy


ENTRY = Piranhas2019()
