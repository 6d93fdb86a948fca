"""Seat soak (issue 41): a person's seat is never stuck, in every game the start page offers.

One server in this process (its viewer, XML, ReversiXT and Robo Rally doors); the games are the
ones its start page offers (``GET /api/tables``): every XML game (the person first, second, and
two persons at one table), every bundled ReversiXT map (the person alone against the reference
bots, and two persons) and every Robo Rally course with 2 and with 4 robots.  Each game is played
``--seeds`` times, every person's seat through the seat API as a script plays it
(``GET /api/seats/ID?after=N``, ``POST /api/seats/ID/move`` with a random offered move), to its
end within a bound.

A game is **stuck** when a person's seat stops changing for ``--stall`` seconds before its game
ended (the seat's turn with nothing offered, a question never asked again, a referee waiting for
a move nobody is offered), when it is not over after ``--bound`` seconds, or when a seat left on
the "no legal move to offer" check of the seat code (server/web/seats.py).  A move the seat offered
and then refused (409) is counted apart: the offered moves must be those the referee accepts.

    python -m benchmarks.seat_soak --seeds 4 --parallel 4

Conformance note: the ReversiXT door plays without the reference server's 1 s start and 100 ms
turn pauses here (as ``swc match --start-delay 0 --turn-delay 0``), so the soak measures seats,
not pauses; everything else is the house's defaults.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from dataclasses import dataclass, field

import trio

PERSON_DEFECT = "no legal move to offer"


@dataclass(frozen=True)
class Setup:
    """One kind of table: what ``POST /api/tables`` is sent, and its name in the report."""

    label: str
    body: dict


@dataclass
class Tally:
    planned: int = 0
    games: int = 0
    moves: int = 0
    stuck: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # offered, then refused by a seat that had not changed
    stale: int = 0  # moves refused because the seat changed between the read and the move
    endings: Counter = field(default_factory=Counter)  # the result rows' causes
    irregular: list[str] = field(default_factory=list)  # games with a cause other than REGULAR
    per_setup: Counter = field(default_factory=Counter)  # label -> games ended


def setups(listing: dict, reduced: bool = False) -> list[Setup]:
    """Every table the start page offers, in the seatings above; ``reduced`` (the test suite's
    soak): one seating each, two persons where the game takes them, and each Robo Rally course
    once (Dizzy Highway and Extra Crispy with 2 robots, the others with 4)."""
    out = []
    for game in listing["games"]:
        name = game["name"]
        for seats in ([["you", "person"]] if reduced else (["you", "bot"], ["bot", "you"], ["you", "person"])):
            out.append(Setup(f"{name} {'+'.join(seats)}", {"game": name, "seats": seats}))
    for family in listing["families"]:
        for entry in family.get("maps", ()):
            n = entry["players"]
            seatings = (["you"] + ["bot"] * (n - 1), ["bot"] * (n - 2) + ["you", "person"])
            for seats in seatings[1:] if reduced else seatings:
                out.append(Setup(f"{family['game']} {entry['name']} {'+'.join(seats)}",
                                 {"game": family["game"], "map": entry["name"], "seats": seats}))
        fewest, most = family.get("seats", (2, 2))
        for k, course in enumerate(family.get("courses", ())):
            seatings = (["you"] + ["bot"] * (fewest - 1), ["you", "person"] + ["bot"] * (min(4, most) - 2))
            for seats in [seatings[k * 2 // len(family["courses"])]] if reduced else seatings:
                out.append(Setup(f"{family['game']} {course} {len(seats)} robots {'+'.join(seats)}",
                                 {"game": family["game"], "course": course, "robots": len(seats), "seats": seats}))
    return out


def _call(url: str, body: dict | None = None) -> tuple[int, dict]:
    """(status, JSON) of one request; a connection the loaded server dropped is tried again
    (a read), or answered as status 0 (a move: it may have arrived, so the caller reads again)."""
    data = None if body is None else json.dumps(body).encode()
    for attempt in range(5):
        request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")
        except (OSError, http.client.HTTPException) as error:
            if body is not None or attempt == 4:
                return 0, {"error": f"no answer: {error}"}
            time.sleep(0.5)
    raise AssertionError("unreachable")


async def call(url: str, body: dict | None = None) -> tuple[int, dict]:
    return await trio.to_thread.run_sync(_call, url, body)


class Stuck(Exception):
    """A seat that stopped before its game's end; the text says where."""


async def play_seat(url: str, seat: str, rng: random.Random, stall: float, tally: Tally, where: str) -> dict:
    """One person's seat to its game's end with random offered moves; its last state."""
    status, data = await call(f"{url}/api/seats/{seat}?after=-1")
    changed = trio.current_time()
    while not data["over"]:
        if PERSON_DEFECT in (data.get("closed") or ""):
            raise Stuck(f"{where}: {data['closed']}")
        if data["your_turn"] and data.get("moves"):
            index = rng.choice(data["moves"])["index"]
            status, answer = await call(f"{url}/api/seats/{seat}/move", {"index": index})
            if status == 200:
                tally.moves += 1
                data, changed = answer, trio.current_time()
                continue
            version = data["version"] if status else -1  # no answer: read again, never counted as refused
            status, data = await call(f"{url}/api/seats/{seat}?after=-1")
            if data["version"] != version:  # the seat changed between the read and the move: read again
                tally.stale += 1
                changed = trio.current_time()
                continue
            tally.refused.append(f"{where}: move {index} refused: {answer.get('error')}")
        version = data["version"]
        status, data = await call(f"{url}/api/seats/{seat}?after={version}")
        if data["version"] != version:
            changed = trio.current_time()
        elif trio.current_time() - changed > stall:
            shown = {k: data.get(k) for k in ("turn", "to_move", "asked", "your_turn", "closed", "error", "phase")}
            shown["notes"] = (data.get("notes") or [])[-3:]
            raise Stuck(f"{where}: no change for {stall:g} s, {len(data.get('moves') or [])} moves offered, {shown}")
    if PERSON_DEFECT in (data.get("closed") or ""):
        raise Stuck(f"{where}: {data['closed']}")
    return data


async def play_game(url: str, setup: Setup, seed: int, args, tally: Tally) -> None:
    where = f"{setup.label} seed {seed}"
    status, table = await call(f"{url}/api/tables", setup.body)
    if status != 200:
        tally.stuck.append(f"{where}: the table was refused: {table.get('error')}")
        return
    persons = [s["seat"] for s in table["seats"] if "seat" in s]
    ends: list[dict] = []
    try:
        with trio.fail_after(args.bound):
            async with trio.open_nursery() as nursery:
                for k, seat in enumerate(persons):
                    async def one(seat=seat, k=k) -> None:
                        ends.append(await play_seat(url, seat, random.Random(seed * 10 + k), args.stall, tally,
                                                    f"{where} seat {k + 1}"))
                    nursery.start_soon(one)
            # the viewer's record of the game catches up with its result
            while True:
                status, data = await call(f"{url}/api/seats/{persons[0]}?after=-1")
                if data.get("status") == "finished" and data.get("result_rows") is not None:
                    break
                await trio.sleep(0.1)
    except trio.TooSlowError:
        tally.stuck.append(f"{where}: not over after {args.bound:g} s")
        return
    except ExceptionGroup as group:  # one or more seats of the game stopped
        stuck, rest = group.split(Stuck)
        if rest is not None:
            raise rest
        tally.stuck += [str(error) for error in stuck.exceptions]
        return
    tally.games += 1
    tally.per_setup[setup.label] += 1
    for row in data["result_rows"]:
        tally.endings[row.get("cause") or "?"] += 1
        if row.get("cause") != "REGULAR":
            tally.irregular.append(f"{where}: {row.get('seat')} {row.get('cause')} ({row.get('reason')})")


async def soak(seeds: int, parallel: int, bound: float, stall: float, only: str | None = None,
               log=lambda text: None, reduced: bool = False, skip: str | None = None) -> Tally:
    """Every setup ``seeds`` times, ``parallel`` games at once; the tally."""
    from swc_local.client import ladder
    from swc_local.server.app import Server
    from swc_local.server.config import Settings
    from swc_local.server.reversixt.game import Timing

    args = argparse.Namespace(bound=bound, stall=stall)
    tally = Tally()
    async with trio.open_nursery() as outer:
        server = await outer.start(Server(Settings(free_ports=True, seed=1, sections={"web": {"port": 0}}),
                                          opponents=ladder).run)  # the tables' bot seats: the reference bots
        server.door("reversixt").settings.timing = Timing(start_delay=0.0, turn_delay=0.0)
        server.door("web").context.tables.limits.max_tables = max(16, 2 * parallel)
        url = server.door("web").url
        _, listing = await call(f"{url}/api/tables")
        plan = [(s, seed) for seed in range(seeds) for s in setups(listing, reduced)
                if (only is None or only in s.label) and (skip is None or skip not in s.label)]
        plan.sort(key=lambda item: "course" not in item[0].body)  # the longest games (Robo Rally) first
        tally.planned = len(plan)
        slots = trio.Semaphore(parallel)

        async def run(setup: Setup, seed: int) -> None:
            async with slots:
                await play_game(url, setup, seed, args, tally)
                log(f"  {setup.label} seed {seed}: {tally.games} games, {tally.moves} moves, {len(tally.stuck)} stuck")

        async with trio.open_nursery() as nursery:
            for setup, seed in plan:
                nursery.start_soon(run, setup, seed)
        outer.cancel_scope.cancel()
    return tally


def report(tally: Tally, seconds: float, seeds: int) -> str:
    kinds = len(tally.per_setup)
    lines = [f"seat soak: {tally.games} games ({kinds} setups x {seeds} seeds), {tally.moves:,} moves through the "
             f"seat API, {len(tally.stuck)} stuck, {len(tally.refused)} offered moves refused "
             f"({tally.stale} more sent after the seat had changed), in {seconds:.0f} s",
             "  result causes of every seat: " + ", ".join(f"{k} {v}" for k, v in sorted(tally.endings.items()))]
    lines += [f"  stuck: {text}" for text in tally.stuck]
    lines += [f"  refused: {text}" for text in tally.refused[:20]]
    lines += [f"  not REGULAR: {text}" for text in tally.irregular[:20]]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=4, help="games of each setup (default 4)")
    parser.add_argument("--parallel", type=int, default=4, help="games at once (default 4)")
    parser.add_argument("--bound", type=float, default=1800.0, help="seconds a game may take (default 1800)")
    parser.add_argument("--stall", type=float, default=60.0, help="seconds a seat may stay unchanged (default 60)")
    parser.add_argument("--only", help="only the setups whose name contains this (e.g. roborally)")
    parser.add_argument("--skip", help="leave out the setups whose name contains this")
    args = parser.parse_args()
    started = time.monotonic()
    tally = trio.run(soak, args.seeds, args.parallel, args.bound, args.stall, args.only,
                     lambda text: print(text, file=sys.stderr, flush=True), False, args.skip)
    print(report(tally, time.monotonic() - started, args.seeds))
    return 1 if tally.stuck or tally.refused else 0


if __name__ == "__main__":
    sys.exit(main())
