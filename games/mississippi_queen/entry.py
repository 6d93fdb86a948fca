"""Mississippi Queen 2024: the one value the registry lists (facts here, parts loaded on first use)."""

from __future__ import annotations

from swc_local.games.dialects import ENVELOPE_2025, MODERN
from swc_local.games.entry import Parts, XmlSeason


class MississippiQueen2024(XmlSeason):
    game_type, short_names, season = "swc_2024_mississippi_queen", ("mississippi_queen",), 2024
    title, display_name = "Mississippi Queen 2024", "Mississippi Queen"
    dialect, envelope = MODERN, ENVELOPE_2025

    def load_parts(self):
        from swc_local.games.mississippi_queen import pointing, strategy, view
        from swc_local.games.mississippi_queen.plugin import MississippiQueenPlugin
        return Parts(plugin=MississippiQueenPlugin, view=view, pointing=pointing, strategy=strategy)


ENTRY = MississippiQueen2024()
