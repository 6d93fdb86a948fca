"""The greedy-N rungs (client/ladder.py): in a game whose strategy names ``GREEDY_SHARES`` they
sit between random and greedy, weakest first; each plays greedy's move on N % of its moves and a
random one on the others, from the bot's seeded generator; every one plays legally to the end, the
same game from the same seed, and each rung scores more than the one below it."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from swc_local.client import bots, ladder
from swc_local.client.bot import choose_move
from swc_local.games import registry
from tests.ladder.rung_games import play, search_short_against_random

MIXED_GAMES = [entry.short_names[0] for entry in registry.entries()
               if entry.strategy is not None and getattr(entry.strategy, "GREEDY_SHARES", ())
               and bots.family(entry.family) is None]
"""The XML games with mixed rungs (client/bot.py plays them); Robo Rally's own bot plays its
mixed rungs, tested in test_roborally_rungs.py."""


def low_rungs(name: str) -> list[str]:
    """random, the greedy-N rungs and greedy: the part of the ladder the mixed rungs split."""
    offered = ladder.rungs(registry.entry(name))
    return list(offered[:offered.index("greedy") + 1])


def test_the_games_whose_greedy_wins_nearly_always_offer_mixed_rungs_weakest_first():
    assert sorted(MIXED_GAMES) == ["blokus", "blokus_2021", "hase_und_igel_2025", "ostseeschach", "penguins", "piranhas",
                                 "piranhas_2026"]
    assert low_rungs("piranhas") == ["random", "greedy-25", "greedy-50", "greedy-75", "greedy"]
    assert low_rungs("blokus") == ["random", "greedy-45", "greedy-80", "greedy"]
    assert low_rungs("penguins") == ["random", "greedy-50", "greedy"]
    assert low_rungs("roborally") == ["random", "greedy-15", "greedy-35", "greedy-65", "greedy"]
    assert ladder.rungs(registry.entry("hive")) == ladder.RUNGS  # its greedy loses games to random


def test_a_mixed_rungs_name_is_its_share_of_greedy_moves():
    assert [ladder.greedy_share(rung) for rung in ("greedy-25", "greedy-1", "greedy-99")] == [0.25, 0.01, 0.99]
    for other in ("greedy", "random", "search-short", "greedy-0", "greedy-05", "greedy-100", "greedy-x", "greedy-50 "):
        assert ladder.greedy_share(other) is None
        assert ladder.unmixed(other, random.Random(1)) == other


def test_a_mixed_rung_plays_greedy_on_its_share_of_moves_from_the_seed():
    draws = [ladder.unmixed("greedy-25", rng) for rng in [random.Random(7)] for _ in range(2000)]
    assert set(draws) == {"greedy", "random"}
    assert 450 <= draws.count("greedy") <= 550
    again = [ladder.unmixed("greedy-25", rng) for rng in [random.Random(7)] for _ in range(2000)]
    assert again == draws


def test_a_mixed_rungs_move_is_greedys_or_randoms_with_the_same_generator():
    plugin = registry.entry("penguins").plugin
    game = plugin.new_game(random.Random(3))
    seen = set()
    for seed in range(40):
        rng, twin = random.Random(seed), random.Random(seed)
        move = choose_move(plugin, game, rng, "greedy-50")
        expected = choose_move(plugin, game, twin, ladder.unmixed("greedy-50", twin))
        assert move == expected
        seen.add(str(move))
    greedy = {str(choose_move(plugin, game, random.Random(seed), "greedy")) for seed in range(40)}
    assert greedy < seen  # greedy's move, and random ones besides


@pytest.mark.parametrize("name", MIXED_GAMES)
def test_every_mixed_rung_plays_legally_to_the_end_and_the_same_again(name):
    rungs = low_rungs(name)
    for weaker, stronger in zip(rungs, rungs[1:]):
        outcome, moves = play(name, weaker, stronger, seed=11)  # the referee raises on an illegal move
        assert outcome is not None and moves
        assert play(name, weaker, stronger, seed=11) == (outcome, moves)


@pytest.mark.parametrize("name", MIXED_GAMES)
def test_each_low_rung_outscores_the_one_below_it(name):
    rungs = low_rungs(name)
    for weaker, stronger in zip(rungs, rungs[1:]):
        points = 0.0
        for seed in range(12):
            for first, second, ours in ((stronger, weaker, 0), (weaker, stronger, 1)):
                outcome, _ = play(name, first, second, seed=100 + seed)
                points += 0.5 if outcome.winner is None else float(outcome.winner == ours)
        assert points > 14, f"{stronger} scored {points} of 24 against {weaker}"


def test_the_bot_takes_a_mixed_rung_and_refuses_one_the_game_lacks():
    done = subprocess.run([sys.executable, "-m", "swc_local.client.bot", "hive", "--strategy", "greedy-50",
                           "--port", "1"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip() == ("swc bot: error: --strategy 'greedy-50': the reference bot of hive plays random, "
                                   "greedy, search-short, search-long; see swc bot --help")
    assert ladder.command(registry.entry("penguins"), "greedy-50")[-2:] == ["--strategy", "greedy-50"]


@pytest.mark.slow
async def test_a_mixed_rung_plays_a_real_game_through_swc_match():
    record = await search_short_against_random("piranhas", seed=3, rung="greedy-75")
    assert (record.seat_of("player1").cause, record.seat_of("player2").cause) == ("REGULAR", "REGULAR")
