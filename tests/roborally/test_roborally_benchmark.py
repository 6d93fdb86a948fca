"""The Robo Rally benchmark row is produced (no timing assertion)."""

from benchmarks.roborally import register_activation_seconds, roborally_rows


def test_register_activation_benchmark_runs():
    seconds, messages = register_activation_seconds(0.01)
    assert seconds > 0 and messages > 6
    assert roborally_rows(0.01)[0].metric.startswith("Robo Rally: one register's activation")
