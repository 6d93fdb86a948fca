"""A few seconds of benchmarks/fuzz.py's fuzzers against the doors of an in-process server: the
fuzzers run, every door answers where its protocol demands it, and nothing is logged as an error."""

from __future__ import annotations

import logging

import trio

from benchmarks import fuzz

from tests.server.test_door_hardening import swc_serve


async def test_the_fuzzers_run_against_every_door(caplog):
    caplog.set_level(logging.INFO)
    async with swc_serve() as server:
        fuzzers = [fuzz.XmlFuzzer(server.door("xml").port, fuzz._counts()),
                   fuzz.ReversiFuzzer(server.door("reversixt").port, fuzz._counts()),
                   fuzz.RoboRallyFuzzer(server.door("roborally").port, fuzz._counts())]
        with trio.fail_after(60):
            async with trio.open_nursery() as nursery:
                fuzz._NURSERY[:] = [nursery]
                async with trio.open_nursery() as fuzzing:
                    for seed, fuzzer in enumerate(fuzzers):
                        fuzzing.start_soon(fuzz._fuzz, fuzzer, seed, 150, 15, 10)
                nursery.cancel_scope.cancel()
    assert [f.stats["sent"] >= 150 for f in fuzzers] == [True] * 3
    assert [f.stats["unanswered"] for f in fuzzers] == [0, 0, 0]
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info] == []
