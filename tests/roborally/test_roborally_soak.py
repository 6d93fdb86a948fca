"""Issue 16's acceptance runs: greedy bots over TCP, several games at once.

* games on Dizzy Highway with 2, 3, 4 and 6 players (10 each), at least 95 % end with
  ``GameFinished`` within 40 rounds (the issue's run was 100 games, 25 each: 40 keep its rate
  and every size, at two fifths of the time);
* 6 games on each of the other three maps (2 and 3 players, 3 each: the issue sets no size
  there, and 6-player games that run the full 40 rounds would cost the suite most of its time)
  run to ``GameFinished`` or 40 rounds without an ``Error`` (the games of a size still all run
  at once, which is what this run adds to the one-game tests; 20 per map cost the suite 28 s).

Games of one size share a door whose ``min_players`` is that size, so a lobby starts exactly
when its seats are full; one lobby fills at a time, up to PARALLEL games run at once. The door's
seed is fixed, so each game's shuffles are the same from run to run (lobbies fill in order).
"""

import pytest
import trio

from swc_local.client.roborally_bot import RoboRallyBot

from tests.roborally_wire import running_door

PARALLEL = 10
MAX_ROUNDS = 40


async def play_sized(name, size, count):
    outcomes = []
    # Every wait ends as soon as the bots answer, so generous limits cost nothing on a quiet
    # machine; on a loaded one they keep a slow-scheduled bot from being timed out, after which
    # its late PlayCard would (rightly) get "Not in the activation phase".
    async with running_door(map=name, timer=10.0, play_card_timeout=10.0, pick_damage_timeout=10.0,
                                 reboot_direction_wait=10.0, min_players=size, seed=size) as door:
        limiter = trio.Semaphore(PARALLEL)
        lobby_lock = trio.Lock()

        async def game(index):
            async with limiter:
                bots = [RoboRallyBot(greedy=True, seed=size * 1000 + index * 10 + seat) for seat in range(size)]
                async with trio.open_nursery() as nursery:
                    async with lobby_lock:  # the bots of one game join one lobby together
                        for bot in bots:
                            nursery.start_soon(bot.play, "127.0.0.1", door.port)
                        while not all(bot.board is not None for bot in bots):
                            await trio.sleep(0.005)

                    async def watch():
                        while not all(bot.report.finished for bot in bots):
                            if max(bot.report.rounds for bot in bots) > MAX_ROUNDS:
                                nursery.cancel_scope.cancel()
                                return
                            await trio.sleep(0.02)

                    nursery.start_soon(watch)
                reports = [bot.report for bot in bots]
                outcomes.append((size, all(r.finished for r in reports), max(r.rounds for r in reports),
                                 [e for r in reports for e in r.errors]))

        async with trio.open_nursery() as nursery:
            for index in range(count):
                nursery.start_soon(game, index)
    return outcomes


async def play_games(name, per_size, sizes=(2, 3, 4, 6)):
    outcomes = []
    for size in sizes:
        outcomes += await play_sized(name, size, per_size)
    return outcomes


async def test_forty_greedy_games_on_dizzy_highway():
    with trio.fail_after(240):
        outcomes = await play_games("Dizzy Highway", 10)
    assert len(outcomes) == 40
    finished = [o for o in outcomes if o[1] and o[2] <= MAX_ROUNDS]
    assert len(finished) >= 38, [o for o in outcomes if o not in finished]  # 95 %
    assert not [o for o in outcomes if o[3]]


@pytest.mark.parametrize("name", ["Extra Crispy", "Lost Bearings", "Death Trap"])
async def test_six_greedy_games_on_the_other_maps(name):
    with trio.fail_after(240):
        outcomes = await play_games(name, 3, sizes=(2, 3))
    assert len(outcomes) == 6
    assert not [o for o in outcomes if o[3]], [o for o in outcomes if o[3]]
