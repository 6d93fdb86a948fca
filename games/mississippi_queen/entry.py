"""Mississippi Queen 2024: the one value the registry lists (facts here, parts loaded on first use)."""

from __future__ import annotations

from swc_local.games.dialects import ENVELOPE_2025, MODERN
from swc_local.games.entry import XmlSeason


class MississippiQueen2024(XmlSeason):
    game_type, short_names, season = "swc_2024_mississippi_queen", ("mississippi_queen",), 2024
    title, display_name = "Mississippi Queen 2024", "Mississippi Queen"
    dialect, envelope = MODERN, ENVELOPE_2025

    def load_plugin(self):
        from swc_local.games.mississippi_queen.plugin import MississippiQueenPlugin
        return MississippiQueenPlugin

    def load_view(self):
        from swc_local.games.mississippi_queen import view
        return view

    def load_pointing(self):
        from swc_local.games.mississippi_queen import pointing
        return pointing

    def load_strategy(self):
        from swc_local.games.mississippi_queen import strategy
        return strategy


ENTRY = MississippiQueen2024()
