"""The sandbox's cost per game start: the time from starting the reference bot's command until
the server has seated it (its ``joinPrepared``), sandboxed (tools/sandbox.py: bubblewrap, the
keeper, the relay) against the same command unsandboxed.

Through the runner's own seat (tools/runner.py ``_Seat``) on a prepared Piranhas room of the
in-process server, as ``swc match`` starts it.  The two kinds alternate, so a burst of load on the
shared machine hits both alike; the medians, the minima and the ratio of the medians are shown.

    python -m benchmarks.sandbox [--runs 10]
"""

from __future__ import annotations

import argparse
import statistics

import trio

from swc_local.client import ladder
from swc_local.games import registry
from swc_local.tools import families
from swc_local.tools.players import expand
from swc_local.tools.runner import GameSpec, _Seat
from swc_local.tools.sandbox import Limits, unavailable


async def time_to_join(sandboxed: bool) -> float:
    """Seconds from starting the command until the server seated it (one fresh room)."""
    bot = ladder.command(registry.entry("piranhas"))
    spec = GameSpec(game="piranhas", index=0, seed=1, players=[("bot", bot), ("other", bot)],
                    sandboxed={"bot": Limits()} if sandboxed else {})
    entry, module = families.seat_adapter(spec.game)
    async with trio.open_nursery() as run:
        family = module.Family(run)
        async with family.table(spec) as table:
            seat = _Seat(spec, 0)
            try:
                async with trio.open_nursery() as processes:
                    values = dict(table.values(0), seed=1, game=entry.game_type)
                    seat.argv = expand(seat.command, **values)
                    started = trio.current_time()
                    if seat.sandbox is not None:
                        await seat.enter_sandbox(processes, values)
                    await processes.start(seat.run)
                    await table.wait_joined(0)
                    took = trio.current_time() - started
                    processes.cancel_scope.cancel()
            finally:
                seat.discard_log()
        run.cancel_scope.cancel()
    return took


async def measure(runs: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {"unsandboxed": [], "sandboxed": []}
    for _ in range(runs):
        times["unsandboxed"].append(await time_to_join(False))
        times["sandboxed"].append(await time_to_join(True))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    problem = unavailable()
    if problem:
        raise SystemExit(f"benchmarks.sandbox: {problem}")
    times = trio.run(measure, args.runs)
    for kind, values in times.items():
        print(f"{kind}: median {statistics.median(values):.3f} s, min {min(values):.3f} s ({args.runs} starts)")
    ratio = statistics.median(times["sandboxed"]) / statistics.median(times["unsandboxed"])
    print(f"ratio sandboxed/unsandboxed (medians): {ratio:.2f}")


if __name__ == "__main__":
    main()
