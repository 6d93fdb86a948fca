"""Mississippi Queen 2024: the one value the registry lists (facts here, parts loaded on first use)."""

from __future__ import annotations

from swc_local.games.dialects import ENVELOPE_2025, MODERN
from swc_local.games.entry import XmlSeason


class MississippiQueen2024(XmlSeason):
    game_type = "swc_2024_mississippi_queen"
    short_names = ("mississippi_queen",)
    title = "Mississippi Queen 2024"
    display_name = "Mississippi Queen"
    season = 2024
    dialect = MODERN
    envelope = ENVELOPE_2025

    def load_plugin(self):
        from swc_local.games.mississippi_queen.plugin import MississippiQueenPlugin
        return MississippiQueenPlugin

    def load_view(self):
        from swc_local.games.mississippi_queen import view
        return view

    def load_pointing(self):
        from swc_local.games.mississippi_queen import pointing
        return pointing


ENTRY = MississippiQueen2024()
