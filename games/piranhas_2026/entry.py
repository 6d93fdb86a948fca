"""Piranhas 2026: the one value the registry lists (facts here, parts loaded on first use)."""

from __future__ import annotations

from swc_local.games.dialects import ENVELOPE_2025, MODERN
from swc_local.games.entry import Parts, XmlSeason


class Piranhas2026(XmlSeason):
    game_type, short_names, season = "swc_2026_piranhas", ("piranhas_2026",), 2026
    title, display_name = "Piranhas 2026", "Piranhas"
    dialect, envelope = MODERN, ENVELOPE_2025

    def load_parts(self):
        from swc_local.games.piranhas_2026 import pointing, strategy, view
        from swc_local.games.piranhas_2026.plugin import Piranhas2026Plugin
        return Parts(plugin=Piranhas2026Plugin, view=view, pointing=pointing, strategy=strategy)


ENTRY = Piranhas2026()
