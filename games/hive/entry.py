"""Hive 2020: the one value the registry lists (facts here, parts loaded on first use)."""

from __future__ import annotations

from swc_local.games.dialects import CLASSIC
from swc_local.games.entry import XmlSeason


class Hive2020(XmlSeason):
    game_type = "swc_2020_hive"
    short_names = ("hive",)
    title = "Hive 2020"
    display_name = "Hive"
    season = 2020
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


ENTRY = Hive2020()
