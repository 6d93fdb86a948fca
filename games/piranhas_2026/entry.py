"""Piranhas 2026: the one value the registry lists (facts here, parts loaded on first use)."""

from __future__ import annotations

from swc_local.games.dialects import ENVELOPE_2025, MODERN
from swc_local.games.entry import XmlSeason


class Piranhas2026(XmlSeason):
    game_type, short_names, season = "swc_2026_piranhas", ("piranhas_2026",), 2026
    title, display_name = "Piranhas 2026", "Piranhas"
    dialect, envelope = MODERN, ENVELOPE_2025

    def load_plugin(self):
        from swc_local.games.piranhas_2026.plugin import Piranhas2026Plugin
        return Piranhas2026Plugin

    def load_view(self):
        from swc_local.games.piranhas_2026 import view
        return view

    def load_pointing(self):
        from swc_local.games.piranhas_2026 import pointing
        return pointing

    def load_strategy(self):
        from swc_local.games.piranhas_2026 import strategy
        return strategy


ENTRY = Piranhas2026()
