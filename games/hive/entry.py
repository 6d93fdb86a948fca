"""Hive 2020: the one value the registry lists (facts here, parts loaded on first use)."""

from __future__ import annotations

from swc_local.games.dialects import CLASSIC
from swc_local.games.entry import Parts, XmlSeason


class Hive2020(XmlSeason):
    game_type, short_names, season = "swc_2020_hive", ("hive",), 2020
    title, display_name = "Hive 2020", "Hive"
    dialect = CLASSIC

    def load_parts(self):
        from swc_local.games.hive import pointing, strategy, view
        from swc_local.games.hive.plugin import HivePlugin
        return Parts(plugin=HivePlugin, view=view, pointing=pointing, strategy=strategy)


ENTRY = Hive2020()
