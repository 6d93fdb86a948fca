"""ReversiXT: the one value the registry lists (facts here, the rules and view loaded on first use)."""

from __future__ import annotations

from swc_local.games.entry import GameEntry, Parts


class ReversiXT(GameEntry):
    game_type = family = "reversixt"
    short_names, seats, title = ("reversixt",), (2, 8), "ReversiXT"

    def load_parts(self):
        from swc_local.games.reversixt import play, strategy, view
        return Parts(rules=play, view=view, strategy=strategy)


ENTRY = ReversiXT()
