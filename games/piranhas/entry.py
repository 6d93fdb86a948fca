"""Piranhas 2019: the one value the registry lists (facts here, parts loaded on first use)."""

from __future__ import annotations

from swc_local.games.dialects import CLASSIC
from swc_local.games.entry import Parts, XmlSeason


class Piranhas2019(XmlSeason):
    game_type, short_names = "swc_2019_piranhas", ("piranhas",)
    title, display_name = "Piranhas 2019", "Piranhas"
    dialect = CLASSIC

    def load_parts(self):
        from swc_local.games.piranhas import pointing, strategy, view
        from swc_local.games.piranhas.plugin import PiranhasPlugin
        return Parts(plugin=PiranhasPlugin, view=view, pointing=pointing, strategy=strategy)


ENTRY = Piranhas2019()
