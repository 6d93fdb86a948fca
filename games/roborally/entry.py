"""Robo Rally: the one value the registry lists (facts here, the rules and view loaded on first use)."""

from __future__ import annotations

from swc_local.games.entry import GameEntry


class RoboRally(GameEntry):
    game_type = family = "roborally"
    short_names, seats, title = ("roborally",), (2, 6), "Robo Rally"

    def load_rules(self):
        from swc_local.games import roborally
        return roborally

    def load_view(self):
        from swc_local.games.roborally import view
        return view

    def load_strategy(self):
        from swc_local.games.roborally import strategy
        return strategy


ENTRY = RoboRally()
