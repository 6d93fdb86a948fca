"""Hase und Igel 2018: the one value the registry lists (facts here, parts loaded on first use)."""

from __future__ import annotations

from swc_local.games.dialects import CLASSIC
from swc_local.games.entry import Parts, XmlSeason


class HaseUndIgel2018(XmlSeason):
    game_type, short_names = "swc_2018_hase_und_igel", ("hase_und_igel",)
    title, display_name = "Hase und Igel 2018", "Hase und Igel"
    dialect = CLASSIC

    def load_parts(self):
        from swc_local.games.hase_und_igel import pointing, strategy, view
        from swc_local.games.hase_und_igel.plugin import HaseUndIgelPlugin
        return Parts(plugin=HaseUndIgelPlugin, view=view, pointing=pointing, strategy=strategy)


ENTRY = HaseUndIgel2018()
