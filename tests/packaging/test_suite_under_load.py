"""benchmarks/suite_under_load.py, the script that runs the suite beside CPU hogs (issue 35),
runs a small selection with one hog and reports its counts, and kills its hogs."""

from __future__ import annotations

from benchmarks import suite_under_load


def test_the_counts_come_from_pytests_last_line():
    output = "....F\nFAILED tests/x.py::test_y\n1 failed, 2480 passed, 31 deselected, 2 errors in 612.30s (0:10:12)\n"
    assert suite_under_load.summary_counts(output) == {"failed": 1, "passed": 2480, "deselected": 31, "errors": 2}


def test_a_run_beside_one_hog_reports_its_row_and_leaves_no_hog(capsys, monkeypatch):
    started = []
    real_start = suite_under_load.start_hogs
    monkeypatch.setattr(suite_under_load, "start_hogs", lambda n: started.extend(real_start(n)) or started)
    code = suite_under_load.main(["--hogs", "1", "--runs", "1", "--", "-q", "-p", "no:cacheprovider",
                                  "tests/tools/test_cli_points.py", "-k", "version"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "run 1: " in out and "1 passed, 0 failed/errors, exit 0" in out
    assert out.splitlines()[-1].startswith("| `python -m benchmarks.suite_under_load --hogs 1 --runs 1 -- -q")
    assert len(started) == 1 and started[0].poll() is not None  # killed
