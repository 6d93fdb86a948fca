"""Hive 2020: the one value the registry lists (facts here, parts loaded on first use)."""

from __future__ import annotations

from swc_local.games.dialects import CLASSIC
from swc_local.games.entry import XmlSeason


class Hive2020(XmlSeason):
    game_type, short_names, season = "swc_2020_hive", ("hive",), 2020
    title, display_name = "Hive 2020", "Hive"
    dialect = CLASSIC

    def load_plugin(self):
        from swc_local.games.hive.plugin import HivePlugin
        return HivePlugin

    def load_view(self):
        from swc_local.games.hive import view
        return view

    def load_pointing(self):
        from swc_local.games.hive import pointing
        return pointing

    def load_strategy(self):
        from swc_local.games.hive import strategy
        return strategy


ENTRY = Hive2020()
