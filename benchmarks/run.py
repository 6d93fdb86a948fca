"""Run every benchmark and build the table (``python -m benchmarks [--quick] [--profile]``).

Why one plan object: the full run and the ``--quick`` smoke run execute the same functions with
different sizes, so the smoke test proves the code the full run uses.  The full run takes about
a minute; ``--quick`` a few seconds.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass

from benchmarks import blokus, engine, machine
from benchmarks.load import LoadResult, run_load
from benchmarks.memory import ACTIVE_TURN, run_memory
from benchmarks.serverproc import ServerProcess
from benchmarks.table import Row, meets, render

OFFICIAL = {1: 26, 10: 33}  # moves/s of the official 2019 server with instant clients
TARGET_MOVES = {1: 1500, 10: 3000}
TARGET_P99_MS = 5.0
TARGET_GENERATIONS = 50_000
TARGET_US_PER_MOVE = 100  # server CPU per classic Piranhas move at 10 rooms (issue 23)
TARGET_BLOKUS_GAME_MS = 10.0  # server CPU per random Blokus game (issue 23)
TARGET_PENGUINS_GAME_MS = 10.0  # server CPU per random Penguins game (issue 31)


@dataclass(frozen=True)
class Plan:
    rooms: tuple[int, ...] = (1, 10, 100, 500)
    seconds: float = 6.0
    paced_rooms: int = 100
    paced_think: tuple[float, float] = (0.05, 0.15)
    paced_seconds: float = 6.0
    memory_rooms: int = 300
    startup_samples: int = 5
    engine_budget: float = 1.5
    join_prepared_rooms: int = 10_000  # prepared rooms waiting while joins are timed
    join_samples: int = 200
    server_games: int = 20  # random games per game type for the server-CPU-per-game rows
    socha_games: int = 0  # games per socha version and server variant (benchmarks/socha.py; needs PyPI once)


FULL = Plan(socha_games=2)
QUICK = Plan(rooms=(1, 10), seconds=0.5, paced_rooms=10, paced_think=(0.005, 0.015), paced_seconds=0.5,
             memory_rooms=10, startup_samples=1, engine_budget=0.1, join_prepared_rooms=200, join_samples=50,
             server_games=2)


def _log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def load_rows(plan: Plan) -> list[Row]:
    rows, errors, results = [], [], []
    for k in plan.rooms:
        result = run_load(k, plan.seconds)
        results.append(result)
        _log(f"  {k} rooms: {result.moves_per_second:,.0f} moves/s")
        errors += result.errors
        rows += _load_rows(result)
    paced = run_load(plan.paced_rooms, plan.paced_seconds, think=plan.paced_think)
    errors += paced.errors
    think = "–".join(f"{t * 1000:g}" for t in plan.paced_think)
    p99 = paced.percentile(0.99)
    rows.append(Row(
        f"move round trip p50 / p99, {plan.paced_rooms} rooms, clients think {think} ms",
        f"{paced.percentile(0.5):.2f} / {p99:.2f} ms ({paced.moves_per_second:,.0f} moves/s)",
        f"p99 < {TARGET_P99_MS:g} ms {meets(p99, TARGET_P99_MS, False)}", f"{TARGET_P99_MS / p99:.1f}x below target"))
    others = [result.other_cpu for result in results + [paced]]
    rows.append(Row("CPU used by other processes during the load runs (noise)",
                    f"mean {statistics.mean(others):.0%}, max {max(others):.0%} of one CPU"))
    biggest = max(plan.rooms)
    rows.append(Row(f"errors in all load runs (up to {biggest} rooms)", f"{len(errors)}"
                    + (f" (first: {errors[0]})" if errors else ""), f"0 {meets(0, len(errors))}"))
    return rows


def _load_rows(result: LoadResult) -> list[Row]:
    k, rate = result.rooms, result.moves_per_second
    target = TARGET_MOVES.get(k)
    goal = f"≥ {target:,} {meets(rate, target)}" if target else ""
    if k >= 500:
        goal = f"no error {meets(0, len(result.errors))}"
    ratio = f"{rate / OFFICIAL[k]:.0f}x official 2019 ({OFFICIAL[k]} moves/s)" if k in OFFICIAL else ""
    per_move = result.server_cpu * result.seconds / max(result.moves, 1) * 1e6
    rows = [
        Row(f"moves/s, {k} room{'s' * (k > 1)} (instant clients)",
            f"{rate:,.0f} ({result.games} games; server CPU {result.server_cpu:.0%}, "
            f"{per_move:.0f} µs/move; clients {result.client_cpu:.0%})",
            goal, ratio),
        Row(f"move round trip p50 / p99, {k} room{'s' * (k > 1)} (saturated)",
            f"{result.percentile(0.5):.2f} / {result.percentile(0.99):.2f} ms"),
    ]
    if k == 10:
        rows.insert(1, Row("server CPU per classic Piranhas move, 10 rooms (user + system time / moves)",
                           f"{per_move:.0f} µs", f"≤ {TARGET_US_PER_MOVE} µs {meets(per_move, TARGET_US_PER_MOVE, False)}",
                           f"{TARGET_US_PER_MOVE / per_move:.2f}x below target"))
    return rows


def memory_rows(plan: Plan) -> list[Row]:
    result = run_memory(plan.memory_rooms)
    note = f"{plan.memory_rooms} rooms, server baseline {result.baseline_kib / 1024:.1f} MiB"
    return [
        Row("memory per idle room (one player waiting)", f"{result.idle_kib_per_room:.1f} KiB ({note})"),
        Row(f"memory per active room (two players, turn {ACTIVE_TURN})", f"{result.active_kib_per_room:.1f} KiB"),
    ]


def startup_rows(plan: Plan) -> list[Row]:
    samples = []
    for _ in range(plan.startup_samples):
        server = ServerProcess().start()
        samples.append(server.startup_seconds)
        server.stop()
    return [Row("server start-up (spawn to accepting a connection)",
                f"{statistics.median(samples) * 1000:.0f} ms (median of {len(samples)})")]


def engine_rows(plan: Plan) -> list[Row]:
    rows = []
    results = engine.measure_engines(plan.engine_budget)
    rates = {result.game_type: result.generations_per_second for result in results if not result.error}
    for result in results:
        if result.error:
            rows.append(Row(f"{result.game_type} rules engine", f"skipped: {result.error}"))
            continue
        generations = result.generations_per_second
        goal = ratio = ""
        if result.game_type == "swc_2019_piranhas":
            goal = f"≥ {TARGET_GENERATIONS:,} {meets(generations, TARGET_GENERATIONS)}"
            ratio = f"{generations / TARGET_GENERATIONS:.1f}x target"
        elif result.game_type == "swc_2026_piranhas" and "swc_2019_piranhas" in rates:
            share = generations / rates["swc_2019_piranhas"]
            goal, ratio = f"≥ 50% of 2019 {meets(share, 0.5)}", f"{share:.0%} of Piranhas 2019"
        rows.append(Row(
            f"{result.game_type}: legal-move generations/s",
            f"{generations:,.0f} ({result.moves_per_generation:.1f} moves each)", goal, ratio))
        rows.append(Row(f"{result.game_type}: random playouts/s",
                        f"{result.playouts_per_second:,.0f} ({result.plies_per_playout:.0f} plies each)"))
        if result.search_nodes_per_second is not None:
            rows.append(Row(f"{result.game_type}: the ladder's search nodes/s (search-short budget)",
                            f"{result.search_nodes_per_second:,.0f} ({result.searches} moves searched)", "",
                            f"{result.search_nodes_per_second / generations:.2f}x its legal-move generations/s"))
    rows += blokus_rows(plan)
    rows += server_game_rows(plan)
    render_s, size = engine.memento_render_seconds(plan.engine_budget)
    parse_s = engine.move_parse_seconds(plan.engine_budget)
    rows.append(Row("hot path: render one Piranhas memento", f"{render_s * 1e6:.0f} µs ({size:,} bytes)"))
    rows.append(Row("hot path: parse one move (reader + decode)", f"{parse_s * 1e6:.1f} µs"))
    from benchmarks.roborally import roborally_rows  # Robo Rally (issue 16)

    rows += roborally_rows(plan.engine_budget)
    return rows


def join_rows(plan: Plan) -> list[Row]:
    from benchmarks.reliability import join_cost_rows  # the open-room index (issue 15)

    return join_cost_rows(plan.join_prepared_rooms, plan.join_samples)


def blokus_rows(plan: Plan) -> list[Row]:
    from swc_local.games import registry

    rows = []
    for game_type in ("swc_2027_blokus", "swc_2021_blokus"):
        plugin = registry.get(game_type)
        blokus_result = blokus.measure(plan.engine_budget, plugin)
        check = blokus.check_seconds(plan.engine_budget, plugin)
        rows += [Row(f"{game_type}: legal-move generations/s, mid-game (turns 16–48, CPU time)",
                     f"{blokus_result.generations_per_second:,.0f} ({blokus_result.moves_per_generation:.0f} moves each)"),
                 Row(f"{game_type}: check of one placement (mid-game, legal ones)", f"{check * 1e6:.1f} µs")]
    return rows


def server_game_rows(plan: Plan) -> list[Row]:
    """Server CPU per whole random game, in-process (lobby, referee, rules, mementos; no sockets)."""
    rows = []
    for game_type in ("swc_2019_piranhas", "swc_2026_piranhas", "swc_2027_blokus", "swc_2023_penguins",
                      "swc_2024_mississippi_queen", "swc_2021_blokus", "swc_2020_hive"):
        seconds, moves = engine.server_game_seconds(game_type, plan.server_games)
        goal = ratio = ""
        if game_type == "swc_2023_penguins":  # issue 31: a whole random game under 10 ms of server CPU
            goal = f"< {TARGET_PENGUINS_GAME_MS:g} ms {meets(seconds * 1000, TARGET_PENGUINS_GAME_MS, False)}"
            ratio = f"{TARGET_PENGUINS_GAME_MS / (seconds * 1000):.1f}x below target"
        if game_type in ("swc_2027_blokus", "swc_2024_mississippi_queen", "swc_2021_blokus", "swc_2020_hive"):  # issues 23 and 31
            goal = f"< {TARGET_BLOKUS_GAME_MS:g} ms {meets(seconds * 1000, TARGET_BLOKUS_GAME_MS, False)}"
            ratio = f"{TARGET_BLOKUS_GAME_MS / (seconds * 1000):.1f}x below target"
        rows.append(Row(f"{game_type}: server CPU per random game, in-process (no sockets)",
                        f"{seconds * 1000:.2f} ms ({moves:.0f} moves, {seconds / moves * 1e6:.0f} µs/move)",
                        goal, ratio))
    return rows


def socha_rows(plan: Plan) -> list[Row]:
    if not plan.socha_games:
        return []
    from benchmarks.socha import rows

    return rows(plan.socha_games)


def collect(plan: Plan) -> list[Row]:
    rows = []
    from benchmarks.reversixt import reversixt_rows
    from benchmarks.tournament import tournament_rows

    for name, part in (("start-up", startup_rows), ("load", load_rows), ("memory", memory_rows),
                       ("rules engines", engine_rows), ("join cost", join_rows), ("reversixt", reversixt_rows),
                       ("tournament", tournament_rows), ("socha clients", socha_rows)):
        _log(f"running {name} benchmarks ...")
        rows += part(plan)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--profile", type=int, metavar="ROOMS", nargs="?", const=10,
                        help="instead: profile the server under load (default 10 rooms)")
    args = parser.parse_args(argv)
    if args.profile:
        from benchmarks.hotpath import profile_server
        print(profile_server(args.profile, 2.0 if args.quick else 8.0))
        return 0
    header = machine.describe()
    started = time.perf_counter()
    rows = collect(QUICK if args.quick else FULL)
    print(header + "\n")
    print(render(rows))
    print(f"\n({'quick' if args.quick else 'full'} run, {time.perf_counter() - started:.0f} s)")
    return 0
