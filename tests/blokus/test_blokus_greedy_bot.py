"""The reference bot's strength (``swc bot GAME --strategy``): greedy where the plugin has a
``greedy_move`` (Blokus), random everywhere; a strength a game's bot lacks is one line naming the
rungs it offers, exit 2."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

from swc_local.client.bot import choose_move
from swc_local.games import registry


def test_the_greedy_bot_answers_with_the_plugins_greedy_move():
    plugin = registry.get("swc_2027_blokus")
    game = plugin.new_game(random.Random(5))
    for _ in range(6):
        greedy = choose_move(plugin, game, random.Random(1), "greedy")
        assert greedy == plugin.greedy_move(game, random.Random(1))
        assert choose_move(plugin, game, random.Random(1)) == plugin.random_move(game, random.Random(1))
        game.apply(game.current_seat, greedy)


def test_swc_bot_refuses_a_strength_the_games_bot_lacks_in_one_line():
    swc = Path(sys.executable).parent / "swc"
    run = subprocess.run([str(swc), "bot", "piranhas", "--strategy", "grandmaster", "--port", "1"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert run.stderr.strip().splitlines() == [run.stderr.strip()]
    assert "--strategy 'grandmaster': the reference bot of piranhas plays random" in run.stderr
    assert "search-long" in run.stderr  # every rung Piranhas offers is named
