"""Performance benchmarks for the server (issue 5): ``python -m benchmarks [--quick]``.

Why a package of plain modules rather than timed tests: numbers depend on the machine, so they
are printed as a table (and quoted in the README with the machine), never asserted.  The server
under test always runs in its own process (:mod:`benchmarks.serverproc`), so the load generator
(:mod:`benchmarks.client`) never shares the server's core or interpreter lock.
"""
