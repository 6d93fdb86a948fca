"""Hase und Igel 2025: the one value the registry lists (facts here, parts loaded on first use)."""

from __future__ import annotations

from swc_local.games.dialects import ENVELOPE_2025, MODERN
from swc_local.games.entry import Parts, XmlSeason


class HaseUndIgel2025(XmlSeason):
    game_type, short_names, season = "swc_2025_hase_und_igel", ("hase_und_igel_2025",), 2025
    title, display_name = "Hase und Igel 2025", "Hase und Igel"
    dialect, envelope = MODERN, ENVELOPE_2025

    def load_parts(self):
        from swc_local.games.hase_und_igel_2025 import pointing, strategy, view
        from swc_local.games.hase_und_igel_2025.plugin import HaseUndIgel2025Plugin
        return Parts(plugin=HaseUndIgel2025Plugin, view=view, pointing=pointing, strategy=strategy)


ENTRY = HaseUndIgel2025()
