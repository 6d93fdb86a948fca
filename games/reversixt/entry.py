"""ReversiXT: the one value the registry lists (facts here, the rules and view loaded on first use)."""

from __future__ import annotations

from swc_local.games.entry import GameEntry


class ReversiXT(GameEntry):
    game_type = family = "reversixt"
    short_names, seats, title = ("reversixt",), (2, 8), "ReversiXT"

    def load_rules(self):
        from swc_local.games.reversixt import play
        return play

    def load_view(self):
        from swc_local.games.reversixt import view
        return view

    def load_strategy(self):
        from swc_local.games.reversixt import strategy
        return strategy


ENTRY = ReversiXT()
