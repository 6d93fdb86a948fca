"""Robo Rally: the one value the registry lists (facts here, the rules and view loaded on first use)."""

from __future__ import annotations

from swc_local.games.entry import GameEntry, Parts


class RoboRally(GameEntry):
    game_type = family = "roborally"
    short_names, seats, title = ("roborally",), (2, 6), "Robo Rally"

    def load_parts(self):
        from swc_local.games import roborally
        from swc_local.games.roborally import strategy, view
        return Parts(rules=roborally, view=view, strategy=strategy)


ENTRY = RoboRally()
