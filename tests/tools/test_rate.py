"""``swc rate``: the estimator on made-up results, the adaptive choice of opponents, the ladder
table, the command line's errors, and a real run against Penguins' ladder (twice, same number)."""

from __future__ import annotations

import json
import math
import shlex
import sys

import pytest

from swc_local.client import ladder as rungs_of
from swc_local.games import registry
from swc_local.tools import ladder_table
from swc_local.tools.cli import main
from swc_local.tools.ladder_table import Ladder, RungElo
from swc_local.tools.rate import Played, next_round, steering_elo
from swc_local.tools.rating import Game, Result, fit_field, fit_field_covariance, gap_half_width, rate

LADDER = Ladder("swc_2023_penguins", [RungElo("random", 0, 0, 0), RungElo("greedy", 300, 250, 350),
                                      RungElo("search-short", 500, 440, 560), RungElo("search-long", 650, 580, 720)],
                games_per_pairing=40, measured="made up")


def results(opponent: float, won: int, drawn: int, lost: int) -> list[Result]:
    return [Result(opponent, 1.0)] * won + [Result(opponent, 0.5)] * drawn + [Result(opponent, 0.0)] * lost


# -- the estimator ----------------------------------------------------------------------------


@pytest.mark.parametrize("rung", [0.0, 300.0, -150.0])
def test_an_even_score_against_a_rung_is_that_rungs_elo(rung):
    found = rate(results(rung, 7, 2, 7))
    assert found.elo == pytest.approx(rung, abs=0.01)
    assert found.low < rung < found.high


def test_three_of_four_points_is_191_elo_above_the_opponent():
    assert rate(results(100, 3, 0, 1)).elo == pytest.approx(100 + 400 * math.log10(3), abs=0.01)


def test_more_points_give_a_higher_elo():
    elos = [rate(results(200, won, 0, 10 - won)).elo for won in range(1, 10)]
    assert elos == sorted(elos) and len(set(elos)) == len(elos)


def test_the_interval_shrinks_with_more_games():
    widths = [(lambda r: r.high - r.low)(rate(results(0, 3 * n, 0, n))) for n in (1, 4, 16, 64)]
    assert widths == sorted(widths, reverse=True)
    assert widths[-1] < widths[0] / 4


def test_games_against_several_rungs_weigh_each_by_its_opponent():
    found = rate(results(0, 4, 0, 0) + results(250, 2, 0, 2) + results(500, 0, 0, 4))
    assert found.elo == pytest.approx(250, abs=0.01)  # symmetric around 250: 4-0 at 0, 2-2 at 250, 0-4 at 500
    assert 0 < found.low < found.elo < found.high < 500


def test_a_bot_that_wins_everything_gets_a_lower_bound_said_plainly():
    found = rate(results(300, 10, 0, 0))
    assert found.elo == math.inf and found.one_sided and found.high == math.inf
    assert 300 < found.low < 1000
    assert found.text().startswith(f"at least {found.low:+.0f}") and "won every game" in found.text()
    assert rate(results(300, 20, 0, 0)).low > found.low  # more games, a higher bound
    lost = rate(results(300, 0, 0, 10))
    assert lost.elo == -math.inf and lost.low == -math.inf and lost.high == pytest.approx(600 - found.low, abs=0.5)
    assert "lost every game" in lost.text()


def test_the_field_fit_recovers_the_gaps_of_made_up_results():
    # b scores 3 of 4 against random and c 3 of 4 against b: 400*log10(3) = 190.85 Elo a step
    games = [Game("b", "random", 1.0)] * 30 + [Game("b", "random", 0.0)] * 10 + \
        [Game("c", "b", 1.0)] * 30 + [Game("b", "c", 1.0)] * 10
    fitted = fit_field(games, "random", prior_draws=0)
    assert fitted["random"].elo == 0
    assert fitted["b"].elo == pytest.approx(190.85, abs=0.1)
    assert fitted["c"].elo == pytest.approx(381.7, abs=0.2)
    assert fitted["b"].low < 190.85 < fitted["b"].high
    assert fitted["c"].high - fitted["c"].low > fitted["b"].high - fitted["b"].low  # two steps from the anchor


def test_a_gap_between_neighbours_is_known_better_than_their_distance_from_the_anchor():
    games = [Game("b", "random", 1.0)] * 30 + [Game("b", "random", 0.0)] * 10 + \
        [Game("c", "b", 1.0)] * 300 + [Game("b", "c", 1.0)] * 100
    fitted, covariance = fit_field_covariance(games, "random", prior_draws=0)
    gap = gap_half_width(covariance, "b", "c")
    assert gap < (fitted["c"].high - fitted["c"].low) / 2 / 2  # many b-c games, few against the anchor
    assert gap_half_width(covariance, "random", "b") == pytest.approx((fitted["b"].high - fitted["b"].low) / 2)


def test_the_field_fit_stays_finite_when_one_side_won_everything():
    fitted = fit_field([Game("greedy", "random", 1.0)] * 20, "random")
    assert 300 < fitted["greedy"].elo < 2000 and math.isfinite(fitted["greedy"].high)


# -- the adaptive choice ----------------------------------------------------------------------


def played(rung: str, score: float, count: int) -> list[Played]:
    return [Played(i, rung, i % 2, score, "REGULAR") for i in range(count)]


def test_the_first_round_plays_the_rungs_around_the_middle_of_the_ladder():
    assert steering_elo(LADDER, []) == pytest.approx(325)
    assert next_round(LADDER, []) == ["greedy", "search-short"]


def test_a_bot_that_keeps_winning_climbs_to_the_top_rung_and_stays_there():
    assert next_round(LADDER, played("search-short", 1.0, 4)) == ["search-long", "search-long"]
    assert next_round(LADDER, played("search-long", 1.0, 12)) == ["search-long", "search-long"]


def test_a_bot_that_keeps_losing_goes_down_to_random():
    assert next_round(LADDER, played("greedy", 0.0, 2)) == ["random", "greedy"]
    assert next_round(LADDER, played("greedy", 0.0, 4)) == ["random", "random"]
    assert next_round(LADDER, played("random", 0.0, 8)) == ["random", "random"]


def test_a_bot_between_two_rungs_plays_both():
    games = played("greedy", 1.0, 6) + played("greedy", 0.0, 2) + played("search-short", 0.0, 6)
    assert next_round(LADDER, games) == ["greedy", "search-short"]


# -- the ladder table -------------------------------------------------------------------------


def test_the_table_round_trips_and_a_missing_game_is_not_calibrated(tmp_path):
    path = tmp_path / "elo.json"
    ladder_table.save(LADDER, path)
    other = Ladder("swc_2019_piranhas", [RungElo("random", 0, 0, 0), RungElo("greedy", 90, 10, 170)])
    ladder_table.save(other, path)
    assert ladder_table.load("swc_2023_penguins", path) == LADDER
    assert ladder_table.load("swc_2019_piranhas", path).rungs == other.rungs
    assert ladder_table.load("swc_2020_hive", path) is None
    assert LADDER.neighbours(400) == (LADDER.rungs[1], LADDER.rungs[2])
    assert LADDER.neighbours(900) == (LADDER.rungs[3], None)


def test_the_docs_table_goes_between_the_markers_and_flags_close_rungs(tmp_path):
    page = tmp_path / "game.md"
    page.write_text("# A game\n\ntext\n")
    close = Ladder("g", [RungElo("random", 0, 0, 0), RungElo("greedy", 60, -20, 140)], games=8, scheduled=8,
                   games_per_pairing=8, measured="today", command="python -m benchmarks.ladder --game g")
    ladder_table.write_page(page, close)
    ladder_table.write_page(page, LADDER)
    text = page.read_text()
    assert text.count(ladder_table.START) == 1 and text.startswith("# A game\n\ntext\n")
    assert "| search-long | +650 | +580 .. +720 | +150 ✓ |" in text and "greedy | +60" not in text
    assert "| greedy | +300 | +250 .. +350 | +300 ± 40 ✓ |" in ladder_table.markdown(
        Ladder("g", LADDER.rungs, gap95={"random~greedy": 40.0}))
    assert "✗ (under 100)" in ladder_table.markdown(close)


def test_a_page_that_does_not_exist_yet_is_made_with_the_table(tmp_path):
    page = tmp_path / "calibration.md"
    ladder_table.write_page(page, LADDER)
    text = page.read_text()
    assert text.startswith("## The ladder's Elo") and "| search-long | +650 |" in text


def test_the_docs_table_says_whether_every_gap_is_known_to_fifty_elo():
    known = ladder_table.markdown(Ladder("g", LADDER.rungs, gap95={"random~greedy": 40.0, "greedy~search-short": 50.0},
                                         command="python -m benchmarks.ladder --game g"))
    assert "Every gap between neighbours is known to ±50 Elo or better (95 %). Rerun: `python -m benchmarks" in known
    wide = ladder_table.markdown(Ladder("g", LADDER.rungs, gap95={"random~greedy": 40.0, "greedy~search-short": 97.4}))
    assert "the widest gap between neighbours is ±97; the ladder wants ±50 or better" in wide
    assert "known to ±50" not in wide


# -- the command line -------------------------------------------------------------------------

BOT = shlex.join(rungs_of.command(registry.entry("penguins"), "random"))


def one_line_error(capsys, *args: str) -> str:
    assert main(["rate", *args]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("swc rate: error: ") and "Traceback" not in err
    return err


def test_command_line_errors_are_one_line_exit_2(tmp_path, capsys):
    table = tmp_path / "elo.json"
    ladder_table.save(LADDER, table)
    assert "unknown game 'pengiuns'" in one_line_error(capsys, BOT, "--game", "pengiuns", "--ladder", str(table))
    assert "--games 3: an even number" in one_line_error(capsys, BOT, "--game", "penguins", "--games", "3",
                                                         "--ladder", str(table))
    assert "--parallel 0" in one_line_error(capsys, BOT, "--game", "penguins", "--parallel", "0", "--ladder", str(table))
    assert "no-such-program-here: command not found" in one_line_error(
        capsys, "no-such-program-here --port {port}", "--game", "penguins", "--ladder", str(table))
    assert "--ladder" in one_line_error(capsys, BOT, "--game", "penguins", "--ladder", str(tmp_path / "none.json"))
    assert "the ladder of Piranhas 2019 is not calibrated yet" in one_line_error(
        capsys, BOT, "--game", "piranhas", "--ladder", str(table))


@pytest.mark.slow
def test_a_bot_that_crashes_before_joining_stops_the_rating_naming_it(tmp_path, capsys):
    table = tmp_path / "elo.json"
    ladder_table.save(LADDER, table)
    crash = f"{shlex.quote(sys.executable)} -c \"import sys; print('no board for me', file=sys.stderr); sys.exit(3)\""
    assert main(["rate", crash, "--game", "penguins", "--games", "2", "--parallel", "2", "--seed", "1",
                 "--ladder", str(table)]) == 2
    err = capsys.readouterr().err
    assert "bot's command cannot play" in err and "no board for me" in err


@pytest.mark.slow
def test_swc_rate_gives_the_same_number_twice_on_a_fixed_seed(tmp_path, capsys):
    table = tmp_path / "elo.json"
    ladder_table.save(Ladder("swc_2023_penguins", [RungElo("random", 0, 0, 0), RungElo("greedy", 300, 200, 400)],
                             games_per_pairing=2, measured="a test's"), table)
    mine = shlex.join(rungs_of.command(registry.entry("penguins"), "greedy"))
    outputs = []
    for _ in range(2):
        code = main(["rate", mine, "--game", "penguins", "--games", "4", "--parallel", "2", "--seed", "11",
                     "--ladder", str(table), "--json"])
        out = capsys.readouterr().out
        assert code == 0
        outputs.append(json.loads(out))
    first = outputs[0]
    assert outputs[1] == first
    assert first["played"] == first["rated"] == 4 and first["irregular"] == []
    assert sum(row["games"] for row in first["against"]) == 4
    assert {row["rung"] for row in first["against"]} == {"random", "greedy"}  # a round: one pair each side
    assert first["elo"] is None or first["low"] < first["elo"] < first["high"]


# -- what it prints ---------------------------------------------------------------------------


def session_with(games: list[Played]):
    from swc_local.tools.rate import Session

    session = Session("swc_2023_penguins", "python my_bot.py", LADDER, {}, len(games), seed=9)
    session.played = games
    return session


def test_the_report_names_the_rungs_around_the_bot_and_the_games_it_did_not_finish():
    from swc_local.tools.rate_report import report_json, report_text

    games = played("greedy", 1.0, 6) + played("greedy", 0.0, 2) + played("search-short", 0.0, 5) + [
        Played(13, "search-short", 1, 0.0, "CRASHED", "Traceback ...\nZeroDivisionError")]
    text = report_text(session_with(games))
    assert "the rung below: greedy (+300, 95 %: +250 .. +350)" in text
    assert "the rung above: search-short (+500, 95 %: +440 .. +560)" in text
    assert "game 14 vs search-short (bot second): lost (CRASHED: Traceback ...)" in text
    found = report_json(session_with(games))
    assert found["below"]["rung"] == "greedy" and found["above"]["rung"] == "search-short"
    assert found["low"] < found["elo"] < found["high"] and found["one_sided"] is None
    assert found["irregular"] == [{"game": 13, "rung": "search-short", "cause": "CRASHED",
                                   "reason": "Traceback ...\nZeroDivisionError"}]
    json.dumps(found)  # plain data


def test_a_bot_above_the_top_rung_is_said_to_be_beyond_the_ladder():
    from swc_local.tools.rate_report import report_json, report_text

    session = session_with(played("search-long", 1.0, 6))
    text = report_text(session)
    assert "Elo at least +" in text and "won every game" in text and "above the ladder's top rung" in text
    found = report_json(session)
    assert found["elo"] is None and found["one_sided"] == "won every game" and found["high"] is None
    assert found["below"]["rung"] == "search-long" and found["above"] is None


# -- the sandbox ------------------------------------------------------------------------------


def test_an_archive_is_rated_sandboxed_unless_no_sandbox_as_in_swc_match(tmp_path, monkeypatch, capsys):
    from swc_local.server.cli import new_parser
    from swc_local.tools import rate_cli
    from swc_local.tools.rate import BOT as RATED
    from swc_local.tools.sandbox import Limits
    from tests.archives import reference_bot_zip

    monkeypatch.setenv("SWC_ARCHIVE_CACHE", str(tmp_path / "cache"))
    table = tmp_path / "elo.json"
    ladder_table.save(LADDER, table)
    team = str(reference_bot_zip(tmp_path / "team.zip", "swc_2023_penguins"))
    parser, commands = new_parser()
    rate_cli.add_commands(commands)

    def session(*flags: str):
        return rate_cli._session(parser.parse_args(["rate", *flags, "--game", "penguins", "--ladder", str(table)]))

    assert session(team).sandboxed == {RATED: Limits()}
    assert session(team, "--memory-limit", "512").sandboxed == {RATED: Limits(memory_mb=512)}
    assert session(team, "--no-sandbox").sandboxed == {}
    assert session(BOT).sandboxed == {} and session(BOT, "--sandbox").sandboxed == {RATED: Limits()}
    assert session(team).specs(0, ["random"])[0].sandboxed == {RATED: Limits()}
    assert "--sandbox other: no such player (bot)" in one_line_error(capsys, team, "--sandbox", "other", "--game", "penguins",
                                                                      "--ladder", str(table))
    assert "give --sandbox or --no-sandbox, not both" in one_line_error(capsys, team, "--sandbox", "--no-sandbox",
                                                                        "--game", "penguins", "--ladder", str(table))


def test_a_bot_that_lost_every_game_is_placed_by_the_rungs_it_met_not_below_random():
    from swc_local.tools.rate_report import report_json, report_text

    session = session_with(played("greedy", 0.0, 2) + [Played(2, "search-short", 0, 0.0, "REGULAR")])
    text = report_text(session)
    assert "Elo at most +" in text and "lost every game" in text
    assert "the rung above: greedy (+300, 95 %: +250 .. +350)\n" in text
    assert "the rung below: random (0, the scale's anchor), not met yet: more games tell" in text
    assert "below the ladder's lowest rung" not in text
    found = report_json(session)
    assert (found["below"]["rung"], found["above"]["rung"], found["not_met"]) == ("random", "greedy", "random")
    lowest = report_text(session_with(played("random", 0.0, 4)))
    assert "the rung above: random" in lowest and "below the ladder's lowest rung" in lowest


def test_a_bot_that_won_every_game_short_of_the_top_names_the_next_rung_as_not_met():
    from swc_local.tools.rate_report import report_json, report_text

    session = session_with(played("greedy", 1.0, 2))
    text = report_text(session)
    assert "the rung below: greedy (+300, 95 %: +250 .. +350)\n" in text
    assert "the rung above: search-short (+500, 95 %: +440 .. +560), not met yet: more games tell" in text
    assert "above the ladder's top rung" not in text
    assert report_json(session)["not_met"] == "search-short"
