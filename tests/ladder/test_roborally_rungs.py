"""The ladder's rungs in Robo Rally: the reference bot takes every rung (the greedy-N rungs the
strategy's ``GREEDY_SHARES`` names too), each plays legally against every other (the rules answer
no message of theirs with an error), the same game again from the same seeds, each low rung beats
the one below it, the search's programs are five cards of the hand within the budget, and the
search-short bot plays a real game through ``swc match``."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
from collections import Counter

import pytest

from swc_local.client import bot as xml_bot, ladder, roborally_bot
from swc_local.client.roborally_bot import RoboRallyBot, add_arguments
from swc_local.games import registry
from swc_local.games.roborally import strategy
from swc_local.games.roborally.board import load_map
from swc_local.games.roborally.cards import new_deck
from swc_local.games.roborally.plan import best_program
from swc_local.tools.match import MatchConfig, run_match

from benchmarks.roborally_pairs import play, winner

ENTRY = registry.entry("roborally")


@pytest.fixture
def small_budgets(monkeypatch):
    """The same searches, cheap: search-short plays one round, search-long still looks a round
    ahead and samples its start, with few samples; no time guard (the suite's speed varies)."""
    monkeypatch.setattr(strategy, "SHORT_NODES", 40)
    monkeypatch.setattr(strategy, "LONG_NODES", 1_200)
    monkeypatch.setattr(strategy, "BEAM_NODES", 120)
    monkeypatch.setattr(strategy, "LOOKAHEAD_MIN", 400)
    monkeypatch.setattr(strategy, "CANDIDATES", 3)
    monkeypatch.setattr(strategy, "SAMPLES", 2)
    monkeypatch.setattr(strategy, "START_SAMPLES", 2)
    monkeypatch.setattr(roborally_bot, "GUARD_SECONDS", 1e9)


MIXED = tuple(f"greedy-{share}" for share in strategy.GREEDY_SHARES)
LOW_RUNGS = ("random", *MIXED, "greedy")


def test_roborally_offers_every_rung_and_its_bot_takes_them():
    assert ENTRY.strategy is strategy
    assert MIXED == ("greedy-15", "greedy-35", "greedy-65")
    assert ladder.rungs(ENTRY) == ("random", *MIXED, *ladder.RUNGS[1:])
    assert (roborally_bot.RUNGS, roborally_bot.SEARCH_RUNGS) == (ladder.rungs(ENTRY), ladder.SEARCH_RUNGS)
    assert [roborally_bot.greedy_share(rung) for rung in MIXED] == [ladder.greedy_share(rung) for rung in MIXED]
    import argparse

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    for rung in ladder.rungs(ENTRY):
        command = [arg.format(host="127.0.0.1", port=1, seed=1) for arg in ladder.command(ENTRY, rung)]
        args = parser.parse_args(command[command.index("swc_local.client.roborally_bot") + 1:])
        bot = RoboRallyBot(greedy=args.greedy, strategy=args.strategy)
        assert bot.strategy == rung
    assert RoboRallyBot(greedy=True).strategy == "greedy" and RoboRallyBot().strategy == "random"


@pytest.mark.parametrize("first, second", list(itertools.combinations(roborally_bot.RUNGS, 2)))
def test_every_rung_plays_legally_and_again_from_the_same_seeds(small_budgets, first, second):
    game, sent, errors = play("Lost Bearings", [first, second], seed=5, max_rounds=4)
    assert errors == []
    assert sum(1 for _, m in sent if m["messageType"] == "SelectedCard") >= 2 * 5 * min(game.round, 4)
    assert play("Lost Bearings", [first, second], seed=5, max_rounds=4)[1] == sent


def test_a_mixed_rungs_decision_is_greedys_or_randoms_from_the_same_generator():
    """greedy-35's program is the one greedy or random would choose with the generator after one
    draw: greedy's when the draw is below 0.35; so is its reboot direction."""
    board = load_map("Extra Crispy")
    deck = new_deck()
    random.Random(8).shuffle(deck)
    hand, state = deck[:9], (*board.start_points[1], "right")
    programs = Counter()
    for seed in range(60):
        mixed = RoboRallyBot(strategy="greedy-35", seed=seed)
        twin = random.Random(seed)
        plays = "greedy" if twin.random() < 0.35 else "random"
        expected = RoboRallyBot(strategy=plays)
        expected.rng = twin
        for bot in (mixed, expected):
            bot.board, bot.state = board, state
        program = mixed._program(hand)
        assert program == expected._program(hand) and mixed.rng.getstate() == twin.getstate()
        programs[plays] += 1
        assert (program == best_program(board, state, hand, board.checkpoints[1])) >= (plays == "greedy")
    assert 12 <= programs["greedy"] <= 30
    directions = Counter()
    for seed in range(60):
        bot = RoboRallyBot(strategy="greedy-65", seed=seed)
        bot.me, bot.board = 1, board
        bot.on_message("Reboot", {"clientID": 1})
        directions[bot.out[-1]["messageBody"]["direction"]] += 1
    assert directions[board.antenna[2]] > 60 * 0.65 and len(directions) > 1


def test_each_low_rung_beats_the_one_below_it_on_the_calibration_course():
    """Dizzy Highway, 40 rounds, seats swapped: each of random, greedy-15, greedy-35, greedy-65,
    greedy scores more than two thirds against the rung below it (measured over 800 games a
    pair: 0.72 to 0.82, the strategy's ``GREEDY_SHARES``), and none wins every game."""
    for weaker, stronger in zip(LOW_RUNGS, LOW_RUNGS[1:]):
        points = 0.0
        for seed in range(15):
            for rungs in ([stronger, weaker], [weaker, stronger]):
                won = winner("Dizzy Highway", rungs, 300 + seed)
                points += 0.5 if won is None else float(won == stronger)
        assert 30 * 0.6 < points < 30, f"{stronger} scored {points} of 30 against {weaker}"


def test_swc_bot_takes_a_mixed_rung_and_refuses_a_share_the_game_lacks(monkeypatch):
    played = []

    async def play_bot(host, port, greedy=False, seed=None, **options):
        played.append(options["strategy"])
        return roborally_bot.BotReport(finished=True)

    monkeypatch.setattr(roborally_bot, "play_bot", play_bot)
    assert xml_bot.main(["roborally", "--strategy", "greedy-35", "--port", "1"]) == 0
    assert played == ["greedy-35"]
    offered = ", ".join(roborally_bot.RUNGS)
    for argv, line in (
            (["-m", "swc_local.client.bot", "roborally", "--strategy", "greedy-40"],
             f"swc bot: error: --strategy 'greedy-40': the reference bot of roborally plays {offered}; "
             "see swc bot --help"),
            (["-m", "swc_local.client.roborally_bot", "--strategy", "greedy-40"],
             "roborally-bot: error: argument --strategy: invalid choice: 'greedy-40' (choose from "
             + ", ".join(f"'{rung}'" for rung in roborally_bot.RUNGS) + "); see roborally-bot --help")):
        done = subprocess.run([sys.executable, *argv, "--port", "1"], capture_output=True, text=True, timeout=60)
        assert (done.returncode, done.stderr.strip()) == (2, line)


def test_three_robots_on_the_search_rungs_finish_dizzy_highway(small_budgets):
    game, _, errors = play("Dizzy Highway", ["search-short", "search-long", "greedy"], seed=2, max_rounds=15)
    assert errors == [] and game.over and game.winner is not None


def test_a_program_is_five_cards_of_the_hand_chosen_the_same_for_the_same_seed():
    board = load_map("Death Trap")
    rng = random.Random(4)
    for _ in range(5):
        deck = new_deck()
        rng.shuffle(deck)
        hand = deck[:9]
        x, y = board.start_points[0]
        chosen = strategy.program(board, (x, y, "right"), hand, 0, random.Random(1), 200)
        assert len(chosen) == 5 and chosen[0] != "Again"
        assert not any(chosen.count(card) > hand.count(card) for card in chosen)
        assert strategy.program(board, (x, y, "right"), hand, 0, random.Random(1), 200) == chosen


def test_the_search_avoids_the_pit_it_would_drive_into():
    """Death Trap: a robot facing a pit two squares ahead keeps off it when the hand allows."""
    board = load_map("Death Trap")
    pits = [(x, y) for (x, y), square in board.squares.items() if square.pit]
    hand = ["MoveIII", "MoveII", "MoveI", "TurnLeft", "TurnRight", "UTurn", "MoveI", "BackUp", "TurnLeft"]
    checked = 0
    for px, py in pits:
        start = (px - 2, py)
        square = board.square(*start)
        if square is None or square.pit or square.belt or board.square(px - 1, py) is None or board.square(px - 1, py).pit:
            continue
        chosen = strategy.program(board, (*start, "right"), hand, 0, random.Random(0), strategy.SHORT_NODES)
        state = (*start, "right")
        for register, card in enumerate(chosen, 1):
            after = strategy.play_card(board, state, card, chosen[register - 2] if register > 1 else None)
            assert after is not None, (start, chosen)
            state = strategy.board_elements(board, after, register)
            assert state is not None, (start, chosen)
        checked += 1
    assert checked > 0


@pytest.mark.slow  # two bot processes and a door: several seconds on a loaded machine
@pytest.mark.parametrize(("rung", "rounds"), [("search-short", 12), ("greedy-65", 40)])
async def test_a_rung_plays_a_real_game_through_swc_match_and_beats_random(rung, rounds):
    config = MatchConfig(ENTRY.game_type, games=1, seed=3,
                         players=[ladder.command(ENTRY, rung), ladder.command(ENTRY, "random")],
                         options=dict(map="Dizzy Highway", max_rounds=rounds))
    report = await run_match(config)
    assert report.complete
    (record,) = report.records
    assert record.seat_of("player1").rank == 1
    assert [seat.cause for seat in record.seats] == ["REGULAR", "REGULAR"]


def test_a_rebooted_search_robot_faces_the_way_to_its_next_checkpoint():
    from swc_local.games.roborally.plan import distance_map

    checked = 0
    for name in ("Extra Crispy", "Lost Bearings", "Death Trap"):
        board = load_map(name)
        if board.restart is None:
            continue
        fell_from = next(p for p, square in board.squares.items() if square.pit and square.board != "Start A")
        x, y = board.restart[:2]
        distances = distance_map(board, board.checkpoints[1])
        direction = strategy.reboot_direction(board, fell_from, board.start_points[0], 0)
        dx, dy = strategy.DELTA[direction]
        assert distances[(x + dx, y + dy)] < distances[(x, y)], (name, direction)
        checked += 1
    assert checked


def test_search_long_starts_where_the_belts_carry_it_to_the_checkpoint(monkeypatch):
    """Dizzy Highway: (1, 8) is the start point farthest from the checkpoint by steps (16) but
    the blue belts carry a robot from it to the checkpoint's side in one round; search-long's
    sample games find it, the distance (and search-short's random choice) does not."""
    monkeypatch.setattr(strategy, "START_SAMPLES", 4)
    board = load_map("Dizzy Highway")
    free = list(board.start_points)
    for seed in range(3):
        assert strategy.start_point(board, free, random.Random(seed), strategy.LONG_NODES) == (1, 8)
    taken = [square for square in free if square != (1, 8)]
    assert strategy.start_point(board, taken, random.Random(0), strategy.LONG_NODES) == (0, 3)
    assert not strategy.looks_ahead(strategy.SHORT_NODES) and strategy.looks_ahead(strategy.LONG_NODES)


def test_search_long_takes_the_belts_start_point_at_its_real_budget():
    """At search-long's budget the start point that wins the race, (1, 8), is found from nearly
    every seed: with 13 sample games a square (20,000 nodes, at most 16) it took (0, 3) from 3 of
    the first 20 seeds (9 of 60), then losing about half its games against search-short on (1, 8);
    41 samples (60,000 nodes, at most 48) missed it from 1 of 60."""
    board = load_map("Dizzy Highway")
    free = list(board.start_points)
    chosen = [strategy.start_point(board, free, random.Random(seed), strategy.LONG_NODES) for seed in range(12)]
    assert chosen.count((1, 8)) >= 11, chosen


def test_search_short_chooses_its_start_by_one_cheap_round(monkeypatch):
    """Dizzy Highway: search-short's one sample game of one round a start point (all its budget
    buys) finds the belts' start point too, where the greedy bot takes a random one; it is a
    weaker guide than search-long's two rounds: with (1, 8) taken it mostly misses (0, 3)."""
    board = load_map("Dizzy Highway")
    free = list(board.start_points)
    rounds = []
    measure = strategy._registers_to_checkpoint
    monkeypatch.setattr(strategy, "_registers_to_checkpoint",
                        lambda planner, state, hands: rounds.append(len(hands)) or measure(planner, state, hands))
    for seed in range(4):
        assert strategy.start_point(board, free, random.Random(seed), strategy.SHORT_NODES) == (1, 8)
    assert rounds == [1] * len(free) * 4  # one sample of one round per start point
    taken = [square for square in free if square != (1, 8)]
    chosen = [strategy.start_point(board, taken, random.Random(seed), strategy.SHORT_NODES) for seed in range(8)]
    assert chosen.count((0, 3)) < len(chosen) / 2


def test_search_long_looks_a_round_ahead_and_a_time_guard_cuts_it_short(monkeypatch):
    """The long budget judges several programs by the next round (more simulated registers than
    the round's own beam); ``stop()`` true keeps the first, which is the one-round search's best."""
    monkeypatch.setattr(strategy, "SAMPLES", 4)
    board = load_map("Extra Crispy")
    rng = random.Random(2)
    differs = 0
    for _ in range(6):
        deck = new_deck()
        rng.shuffle(deck)
        hand, start = deck[:9], (*board.start_points[1], "right")
        long = strategy.Planner(board, start, hand, 0, strategy.LONG_NODES)
        chosen = long.search(random.Random(1))
        one = strategy.Planner(board, start, hand, 0, strategy.BEAM_NODES)
        one_round = one.search(random.Random(1))
        assert long.nodes > one.nodes  # the same round's beam, then the next rounds' searches
        guarded = strategy.program(board, start, hand, 0, random.Random(1), strategy.LONG_NODES, stop=lambda: True)
        assert guarded == one_round
        assert not Counter(chosen) - Counter(hand) and len(chosen) == 5
        differs += chosen != one_round
    assert differs  # the look-ahead changes some programs


def test_the_bot_follows_the_cards_left_in_its_draw_pile():
    """20 programming cards: a hand of 9 leaves 11 (the next hand is 9 of those), a second hand
    leaves 2; the third hand takes those 2 and 7 of the reshuffled 18, leaving 11."""
    bot = RoboRallyBot(strategy="search-long", seed=1)
    deck = new_deck()
    random.Random(3).shuffle(deck)
    bot._count_dealt(deck[:9])
    assert sorted(bot.draw_pile.elements()) == sorted(deck[9:])
    bot._count_dealt(deck[9:18])
    assert sorted(bot.draw_pile.elements()) == sorted(deck[18:])
    reshuffled = deck[:18]
    third = deck[18:] + reshuffled[:7]
    bot._count_dealt(third)
    assert sorted(bot.draw_pile.elements()) == sorted(reshuffled[7:])


def test_search_long_beats_search_short_on_the_calibration_course(small_budgets, monkeypatch):
    """Dizzy Highway (what ``swc match`` and the ladder's calibration play), seats alternating:
    the long rung's two-round start samples and look-ahead win clearly (2 games in 3), even at
    reduced sample counts, against search-short's one-round start samples."""
    monkeypatch.setattr(strategy, "LONG_NODES", 20_000)
    monkeypatch.setattr(strategy, "BEAM_NODES", 8_000)
    monkeypatch.setattr(strategy, "LOOKAHEAD_MIN", 2_000)
    monkeypatch.setattr(strategy, "SHORT_NODES", 1_200)
    monkeypatch.setattr(strategy, "START_SAMPLES", 4)
    wins = 0
    for seed in range(12):
        rungs = ["search-long", "search-short"] if seed % 2 == 0 else ["search-short", "search-long"]
        game, _, errors = play("Dizzy Highway", rungs, seed, max_rounds=10)
        assert set(errors) <= {"Game is over"} and game.winner is not None
        wins += rungs[game.winner - 1] == "search-long"
    assert wins >= 8
