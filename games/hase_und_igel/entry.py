"""Hase und Igel 2018: the one value the registry lists (facts here, parts loaded on first use)."""

from __future__ import annotations

from swc_local.games.dialects import CLASSIC
from swc_local.games.entry import XmlSeason


class HaseUndIgel2018(XmlSeason):
    game_type, short_names = "swc_2018_hase_und_igel", ("hase_und_igel",)
    title, display_name = "Hase und Igel 2018", "Hase und Igel"
    dialect = CLASSIC

    def load_plugin(self):
        from swc_local.games.hase_und_igel.plugin import HaseUndIgelPlugin
        return HaseUndIgelPlugin

    def load_view(self):
        from swc_local.games.hase_und_igel import view
        return view

    def load_pointing(self):
        from swc_local.games.hase_und_igel import pointing
        return pointing

    def load_strategy(self):
        from swc_local.games.hase_und_igel import strategy
        return strategy


ENTRY = HaseUndIgel2018()
