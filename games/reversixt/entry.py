"""ReversiXT: the one value the registry lists (facts here, the rules and view loaded on first use)."""

from __future__ import annotations

from swc_local.games.entry import PYTHON, GameEntry


class ReversiXT(GameEntry):
    game_type = family = "reversixt"
    short_names, seats, title = ("reversixt",), (2, 8), "ReversiXT"
    bot = (PYTHON, "-m", "swc_local.client.reversixt_bot", "--strategy", "greedy", "--host", "{host}", "--port",
           "{port}", "--seed", "{seed}")
    bot_flags = ("--strategy", "greedy")
    strengths = (("greedy", ("--strategy", "greedy")), ("random", ("--strategy", "random")))

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
