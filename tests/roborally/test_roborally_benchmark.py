"""The Robo Rally benchmark row is produced (no timing assertion)."""

from benchmarks.roborally import register_activation_seconds, roborally_rows


def test_register_activation_benchmark_runs():
    seconds, messages = register_activation_seconds(0.01)
    assert seconds > 0 and messages > 6
    assert roborally_rows(0.01)[0].metric.startswith("Robo Rally: one register's activation")


def test_the_ladder_search_row_counts_the_simulated_registers():
    from benchmarks.roborally import search_registers_per_second
    from swc_local.games.roborally import strategy

    rate, searched = search_registers_per_second(0.01)
    assert searched >= 1 and rate > 0
    row = roborally_rows(0.01)[1]
    assert "simulated registers/s" in row.metric and "programming phases searched" in row.measured
    assert strategy.SHORT_NODES <= strategy.BEAM_NODES  # search-short spends its budget in this round's beam
