"""The toy season's one value (as games/<game>/entry.py states a real season's)."""

from __future__ import annotations

from swc_local.games.dialects import ENVELOPE_2025, MODERN
from swc_local.games.entry import Parts, XmlSeason


class LineToy(XmlSeason):
    game_type = "swc_2000_linie"
    short_names = ("linie",)
    title = "Linie 2000"
    display_name = "Linie"
    season = 2000  # older than every real season: a <join/> without a game type still gets the newest
    dialect = MODERN
    envelope = ENVELOPE_2025

    def load_parts(self):
        from tests.toy_season import pointing, view
        from tests.toy_season.plugin import LinePlugin
        return Parts(plugin=LinePlugin, view=view, pointing=pointing)


ENTRY = LineToy()
