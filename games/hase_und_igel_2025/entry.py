"""Hase und Igel 2025: the one value the registry lists (facts here, parts loaded on first use)."""

from __future__ import annotations

from swc_local.games.dialects import ENVELOPE_2025, MODERN
from swc_local.games.entry import XmlSeason


class HaseUndIgel2025(XmlSeason):
    game_type, short_names, season = "swc_2025_hase_und_igel", ("hase_und_igel_2025",), 2025
    title, display_name = "Hase und Igel 2025", "Hase und Igel"
    dialect, envelope = MODERN, ENVELOPE_2025

    def load_plugin(self):
        from swc_local.games.hase_und_igel_2025.plugin import HaseUndIgel2025Plugin
        return HaseUndIgel2025Plugin

    def load_view(self):
        from swc_local.games.hase_und_igel_2025 import view
        return view

    def load_pointing(self):
        from swc_local.games.hase_und_igel_2025 import pointing
        return pointing

    def load_strategy(self):
        from swc_local.games.hase_und_igel_2025 import strategy
        return strategy


ENTRY = HaseUndIgel2025()
