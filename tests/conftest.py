"""Shared fixtures: an in-process server on a free port; the run's Ctrl-C and process hooks."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest
import trio

from swc_local.client import ladder
from swc_local.server.app import Server
from swc_local.server.config import Settings
from swc_local.server.xml.door import XmlDoor
from swc_local.server.xml.settings import door_settings
from tests.processes import (  # noqa: F401 -- hooks: Ctrl-C stops the run, no process outlives it
    pytest_configure, pytest_runtest_call, pytest_runtest_setup, pytest_runtest_teardown, pytest_unconfigure,
)

PASSWORD = "testpassword"

pytest_plugins = ["pytester"]  # the fixture, packaging and README tests run pytest projects of their own


@pytest.fixture
def start_server(nursery):
    """``await start_server(**settings)`` -> a running Server on a free port (per test)."""

    async def start(game_factory=None, **overrides) -> Server:
        fields = {"free_ports": True, "password": PASSWORD, "seed": 1} | overrides
        settings = Settings(**fields)
        given = {XmlDoor.name: XmlDoor(door_settings(settings), game_factory)} if game_factory else None
        return await nursery.start(Server(settings, prepared=given, opponents=ladder).run)  # swc serve's bots

    return start


@pytest.fixture
async def server(start_server):
    return await start_server()


@pytest.fixture(autouse=True)
def _quiet_logs(caplog):
    caplog.set_level(logging.INFO, logger="swc")


# -- the quick subset: `python -m pytest -q -m "not slow"` ------------------------------------------
# Tests of more than about two seconds (measured with --durations; see below), marked here so that
# their modules stay as their owners wrote them; tests/packaging/test_suite_interrupt.py checks that
# every name below still exists.
SLOW_MODULES = {
    "test_packaging.py",  # builds the wheel, installs it into fresh venvs
    "test_benchmarks_smoke.py",
    "test_roborally_soak.py",
    "test_foreign_clients.py",  # hundreds of games of foreign client processes
    "test_foreign_clients_2022.py",
    "test_socha_clients.py",  # the official socha clients, each in its own venv
    "test_socha_hase_und_igel_2025.py",
    "test_socha_piranhas_2026.py",
    "test_socha_bare_joins.py",  # socha 1.x-5.x joining bare against swc bot, one whole game each
    "test_socha_blokus_2027.py",
    "test_socha_penguins_2023.py",
    "test_socha_mississippi_queen_2024.py",
    "test_web_seat_family_browser.py",  # whole ReversiXT and Robo Rally games played by clicking
    "test_seat_soak.py",  # every game the start page offers, played to its end through the seat API
    "test_web_setup_browser.py",  # tables set up and steered in Chromium
    "test_web_looks_browser.py",  # the boards, hints and start page in Chromium
    "test_executable.py",  # the built executable (built here when missing) in a sandbox, whole games
    "test_java.py",  # javac, the JUnit console launcher, whole games of the Java player
    "test_hare_ladder_matches.py",  # a whole swc match game of a search rung in each of four games
    "test_archive_games.py",  # whole games of archived players (a start.sh, a Java jar) in match, tournament, fixture
    "test_tournament_league_play.py",  # a whole contest of 8 reference bots (96 games), resume, Dask
    "test_tournament_league_page.py",  # the contest's run page and starting a league, in Chromium
    "test_archive_rating_browser.py",  # an archive rated from the page in Chromium (two real games)
}
SLOW_TESTS = {
    # a person plays a whole game of each XML game in Chromium (6 min for the ten)
    "test_web_seat_games.py": {"test_a_person_plays_a_whole_game_by_pointing_against_the_reference_bot"},
    "test_piranhas_2026_play.py": {"test_sixteen_reference_bot_games_eight_at_a_time"},
    "test_hase_und_igel_2025_play.py": {"test_reference_bot_games_eight_at_a_time"},
    "test_match.py": {"test_eight_reference_games_alternate_colours_and_write_replays"},
    "test_web_seat_archives.py": {"test_an_archive_takes_a_command_seat_and_plays_against_a_person"},
    "test_archive_page.py": {"test_a_person_uploads_names_and_tests_an_archive_in_the_browser"},
    # two sandboxed starts of an archive that crashes (about 4 s)
    "test_archive_rating.py": {"test_a_real_archive_that_crashes_fails_its_rating_with_its_own_words"},
    "test_archive_check.py": {"test_a_good_archive_passes_with_its_memory_and_cpu", "test_a_client_that_never_joins_fails_joined",
                              "test_a_client_that_moves_illegally_fails_moved_legally",
                              "test_sigterm_stops_the_check_and_its_client"},
    # two sandboxed bots play a whole Piranhas game (the probing bot then plays as the reference bot)
    "test_sandbox_bots.py": {"test_a_probing_bot_sees_no_home_and_no_network_and_both_sandboxed_bots_play_a_whole_game"},
    "test_fixture.py": {"test_fixture_in_a_plain_pytest_project", "test_fixture_in_a_trio_mode_project"},
    "test_blokus_tools.py": {"test_the_fixture_plays_a_blokus_game"},
    "test_readme_examples.py": {"test_fixture_example", "test_the_readme_quick_match_as_written"},
    "test_tournament_trust_play.py": {"test_a_four_seat_reversixt_tournament_of_24_games_uses_all_24_orders",
                                      "test_dask_with_a_shared_replays_folder_keeps_every_replay_and_records_the_retry"},
    "test_tournament_readme.py": {"test_the_self_play_sanity_example_runs_as_written_and_is_no_mirror"},
    # a league started from the page: a swc tournament process and its first games (about 5 s)
    "test_tournament_launch.py": {"test_the_page_needs_the_passphrase_refuses_other_sites_and_starts_a_league"},
    "test_web_seat_browser.py": {"test_a_person_plays_piranhas_by_clicking_against_the_reference_bot"},
    "test_web_seats_families.py": {"test_a_person_plays_a_whole_reversixt_game_against_the_reference_bot",
                                   "test_an_uploaded_three_player_map_offers_the_choices_of_its_special_squares"},
    "test_penguins_play.py": {"test_reference_bot_games_eight_at_a_time"},
    "test_mississippi_queen_tools.py": {"test_the_fixture_plays_a_mississippi_queen_game"},
    # twenty Penguins games of search-short against greedy through the fixture (the docs' example)
    "test_fixture_example.py": {"test_the_beats_greedy_example_runs_as_written"},
    # a whole Robo Rally game on Extra Crispy through the seat API (about a minute)
    "test_web_seats_never_stuck.py": {"test_a_person_rebooting_after_a_damage_pick_on_extra_crispy_plays_on_to_the_end"},
    # an uploaded replay is read in a child process (server/web/read_apart.py): about 6 s each
    "test_web_setup_api.py": {"test_play_from_here_on_loopback_asks_a_passphrase_only_of_a_server_that_has_its_own"},
}


# Measured (issue 35): a test is slow when it takes more than about two seconds on an idle
# two-CPU machine (its setup, call and teardown; pyproject.toml's marker help says the same).  The
# names below come from one `python -m pytest -q -n auto --durations=0` run of the whole suite
# (2026-11-27, 4,246 tests, on a loaded machine, so the cut was 5 s there, about 2 s idle): every
# test over the cut that was not marked above.  A module whose tests are all slow (and the browser
# modules, whose new tests will be too) is named as a whole.
SLOW_MODULES |= {
    "test_blokus_server.py",
    "test_fixture.py",
    "test_reference_bots.py",
    "test_socha_reads.py",
    "test_tournament_readme.py",
    "test_tournament_trust_play.py",
    "test_web_browser.py",
    "test_web_move_texts.py",
    "test_web_names_browser.py",
    "test_web_seat_browser.py",
}
for _module, _names in {
    "test_admin.py": {
        "test_blocking_admin_and_swc_admin_command", "test_swc_admin_and_swc_bot_say_why_the_server_closed_on_them",
        "test_swc_admin_cancel_confirms_and_swc_bot_says_won_lost_or_draw",
        "test_swc_admin_finds_the_passphrase_as_swc_serve_does",
    },
    "test_blokus_2021_scenarios.py": {
        "test_a_default_server_speaks_2021_to_whoever_names_the_game", "test_ruby_client_game",
        "test_ruby_clients_in_a_prepared_paused_room",
    },
    "test_blokus_2021_tools.py": {
        "test_reference_bots_play_whole_games_over_tcp", "test_swc_match_replays_check_and_load",
        "test_tournament_plays_a_pair_of_reference_bots",
    },
    "test_blokus_rules.py": {"test_random_playouts_never_raise_and_generator_agrees_with_validator"},
    "test_blokus_scenarios.py": {"test_socha_join_game_capture", "test_socha_prepared_game_capture"},
    "test_cli_config.py": {
        "test_a_busy_port_stops_swc_serve_with_one_plain_line",
        "test_swc_serve_plays_two_swc_bots_and_stops_on_ctrl_c",
    },
    "test_cli_output.py": {
        "test_a_printing_command_stops_quietly_when_its_reader_leaves",
        "test_swc_admin_output_into_a_closed_pipe_is_quiet_too",
    },
    "test_cli_points.py": {
        "test_a_bundled_map_is_named_by_its_name_from_any_folder",
        "test_a_command_without_reservation_that_never_joins_gets_the_hint",
        "test_fail_on_irregular_exits_1_and_names_the_cause",
        "test_the_temporary_log_folder_goes_after_regular_games_and_stays_after_others",
    },
    "test_client.py": {"test_blocking_client_for_scripts"},
    "test_door_hardening.py": {"test_swc_serve_raises_its_soft_file_limit_and_says_so"},
    "test_serve_stop_signals.py": {"test_swc_serve_stopped_by_a_signal_ends_its_tables_bots_and_counts_the_finished_games"},
    "test_stop_signals.py": {  # swc match and swc tournament processes stopped by each signal
        "test_swc_match_stopped_by_a_signal_ends_every_bot_and_names_the_finished_games",
        "test_swc_tournament_stopped_by_a_signal_ends_every_bot_and_names_the_finished_games",
    },
    "test_door_shutdown.py": {"test_sigterm_ends_reversixt_and_robo_rally_games_with_their_logs_and_closes"},
    "test_hase_und_igel_properties.py": {
        "test_random_action_lists_are_accepted_iff_offered", "test_validator_accepts_exactly_the_generated_moves",
        "test_validator_and_generator_agree_on_constructed_states",
    },
    "test_hive_play.py": {"test_reference_bot_games_end_regular", "test_swc_match_replays_check_and_load"},
    "test_hive_vectors.py": {"test_every_vector_agrees_with_the_official_classes"},
    "test_layers.py": {
        "test_a_planted_client_import_of_tools_or_swc_pytest_is_found",
        "test_a_planted_import_of_another_game_is_found", "test_a_planted_lazy_cycle_is_found",
        "test_a_planted_string_import_is_found", "test_a_planted_type_checking_cycle_is_found",
        "test_every_layer_imports_only_what_it_may", "test_no_module_of_the_package_is_imported_by_a_string",
        "test_the_package_has_no_import_cycle",
    },
    "test_lobby.py": {"test_the_connection_stays_open_after_a_normal_end_until_the_client_closes"},
    "test_match.py": {
        "test_a_crashing_and_a_hanging_bot_cost_their_games_not_the_match", "test_the_same_seed_plays_the_same_games",
    },
    "test_match_cli.py": {
        "test_an_irregular_game_says_why_and_where_its_output_and_replay_are",
        "test_ctrl_c_prints_the_table_of_the_games_played",
        "test_json_and_csv_have_one_record_per_game_and_seats_rotate",
        "test_swc_bot_plays_the_games_of_the_other_families",
    },
    "test_match_labels.py": {
        "test_a_2022_player_that_never_joins_loses_instead_of_hanging_the_match",
        "test_a_modern_match_speaks_of_one_and_two", "test_classic_color_placeholder_stays_red_and_blue",
        "test_the_fixture_names_modern_seats_one_and_two_and_accepts_red_blue",
    },
    "test_modern_lobby.py": {"test_dialect_helpers_never_raise_on_any_element"},
    "test_ostseeschach_server.py": {
        "test_ostseeschach_games_eight_at_a_time_all_end_regular", "test_swc_match_and_swc_replay",
        "test_the_pytest_fixture_plays_ostseeschach",
    },
    "test_penguins_play.py": {"test_fixture_plays_penguins", "test_swc_match_replays_check_print_and_load"},
    "test_piranhas_2026_play.py": {"test_fixture_plays_piranhas_2026", "test_swc_match_replays_check_and_load"},
    "test_piranhas_2026_rules.py": {"test_random_playouts_never_raise_and_generator_equals_validator"},
    "test_piranhas_2026_xml.py": {"test_any_move_element_decodes_or_is_dropped_and_never_crashes"},
    "test_protocol.py": {"test_mutated_valid_streams_raise_only_protocol_errors"},
    "test_readme_examples.py": {"test_admin_example", "test_bot_example", "test_match_and_replay_sections_as_written"},
    "test_reliability.py": {
        "test_a_second_signal_exits_at_once", "test_batched_joins_under_the_seat_limit_are_handled_a_batch_per_step",
        "test_sigterm_ends_every_game_with_replays_and_the_close_sequence",
    },
    "test_replay.py": {"test_match_takes_the_same_options", "test_swc_replay_prints_boards_and_checks"},
    "test_reversixt_door.py": {
        "test_door_replays_capture", "test_eight_player_games_five_at_a_time_end_cleanly",
        "test_four_player_games_eight_at_a_time_end_cleanly",
    },
    "test_reversixt_dropin.py": {"test_dropin_replays_capture", "test_swc_reversixt_command_runs_the_dropin"},
    "test_reversixt_silent_crowd.py": {"test_a_real_player_joins_at_once_while_a_thousand_silent_connections_are_open"},
    "test_roborally_codec.py": {"test_body_validation_never_raises_anything_but_its_own_error"},
    "test_roborally_serve.py": {"test_swc_roborally_plays_one_game_and_exits"},
    "test_roborally_tools.py": {"test_match_runs_bot_processes_and_reports"},
    "test_robustness.py": {"test_chaos_fifty_games_each_end_with_one_right_result"},
    "test_runner.py": {
        "test_a_bot_that_exits_at_once_loses_its_own_seat", "test_a_bot_that_never_joins_loses_its_own_seat",
        "test_every_game_crashing_before_the_join_stops_the_run",
        "test_exit_127_stops_the_run_at_once_naming_the_command", "test_game_i_is_the_same_whatever_parallel_is",
        "test_registry_import_is_light", "test_results_are_json_and_come_back",
        "test_the_fixture_raises_the_text_of_swc_match_for_exit_127",
        "test_the_reversixt_fixture_does_not_rank_a_crashing_bot_above_the_others",
    },
    "test_scenarios_hase_und_igel.py": {"test_captured_scenario"},
    "test_scenarios_ostseeschach.py": {
        "test_captured_scenario", "test_captured_timeouts_of_prepared_slots", "test_join_players_time_out_by_default",
        "test_join_players_without_timeouts_as_22_final", "test_lonely_leave_leaves_no_dead_room",
    },
    "test_scenarios_piranhas.py": {"test_captured_scenario"},
    "test_suite_interrupt.py": {"test_an_interrupted_run_stops_at_once_and_leaves_no_process"},
    "test_suite_under_load.py": {"test_a_run_beside_one_hog_reports_its_row_and_leaves_no_hog"},
    "test_tournament_page.py": {
        "test_swc_view_names_a_file_that_is_no_tournament",
        "test_the_run_page_of_a_finished_sprt_shows_its_llr_chart_and_the_report",
    },
    "test_tournament_play.py": {
        "test_a_command_that_cannot_play_stops_the_tournament_at_once",
        "test_a_three_seat_reversixt_map_rotates_every_bot_through_every_seat",
        "test_bots_that_crash_or_never_join_lose_with_their_cause_and_the_tournament_goes_on",
        "test_ctrl_c_keeps_the_finished_games_and_says_how_to_go_on",
        "test_dask_cluster_losing_a_worker_mid_game_records_every_game_once",
        "test_every_other_game_plays_a_pair_of_its_reference_bots",
        "test_resume_after_sigkill_plays_and_counts_every_game_exactly_once",
        "test_round_robin_of_three_reference_bots_in_piranhas",
        "test_round_robin_of_three_reference_bots_in_reversixt",
        "test_sprt_between_two_copies_of_one_bot_never_accepts_h1",
        "test_sprt_of_a_strong_against_a_weak_bot_stops_with_h1_well_before_its_cap",
        "test_the_test_clients_significance_rule_stops_once_one_bot_is_significantly_better",
    },
    "test_toy_all_the_way.py": {"test_it_is_matched_replayed_and_drawn", "test_it_is_played_in_a_tournament"},
    "test_views_reversixt.py": {"test_every_move_of_a_reference_log"},
    "test_web_hardening.py": {
        "test_sigterm_ends_a_thousand_open_event_streams_within_two_seconds",
        "test_the_listen_backlog_is_the_game_doors_and_idle_clients_are_closed",
    },
    "test_web_pages.py": {
        "test_nameless_players_the_result_the_counter_and_the_icons_in_a_browser",
        "test_room_buttons_on_the_game_page_steer_a_paused_room",
        "test_swc_view_does_not_offer_play_from_here_and_a_server_does",
    },
    "test_web_seats.py": {
        "test_a_person_plays_a_whole_game_against_the_reference_bot",
        "test_a_seat_nobody_reads_is_closed_and_scored_left",
        "test_an_open_seat_takes_a_bot_started_by_hand_and_a_command_seat_runs_its_command",
        "test_the_readme_curl_commands_take_a_seat_and_move",
    },
    "test_web_viewer.py": {
        "test_serve_flag_and_key_for_the_viewer_port", "test_swc_view_refuses_a_file_it_cannot_show",
        "test_swc_view_shows_the_last_state_swc_replay_prints", "test_the_viewer_benchmark_runs",
    },
}.items():
    SLOW_TESTS.setdefault(_module, set()).update(_names)


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config) -> None:
    """``-n auto`` hands out tests by work stealing (pytest-xdist's ``--dist worksteal``) unless
    ``--dist`` says otherwise: the default ``load`` gives each worker a fixed share up front, so a
    worker that drew a few long tests is still busy minutes after the other ran dry."""
    if getattr(config.option, "numprocesses", None) and getattr(config.option, "dist", "no") == "no":
        config.option.dist = "worksteal"
    _bytecode_cache_outside_the_tree()


def pytest_xdist_auto_num_workers(config) -> int:
    """``-n auto`` starts one worker more than there are CPUs: many tests spend their time waiting
    (for a bot's join or start timeout, a browser, a socket, a client process), and the extra
    worker uses the CPU they leave idle.  ``-n N`` still starts exactly N."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return cpus + 1


def _bytecode_cache_outside_the_tree() -> None:
    """Under ``PYTHONDONTWRITEBYTECODE`` every process of the run (the xdist workers, and the
    hundreds of ``swc`` bots, servers and tools the tests start) compiles every module it imports
    from source again: about 0.4 s of CPU per ``swc`` start (1.3 s against 0.9 s).  So the run's processes
    share one bytecode cache instead, kept outside the source tree (``PYTHONPYCACHEPREFIX``, a
    folder of the user's cache), which is what that setting protects; the code run is the same."""
    if not os.environ.get("PYTHONDONTWRITEBYTECODE") or os.environ.get("PYTHONPYCACHEPREFIX"):
        return
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "swc-local" / "pycache"
    os.environ.pop("PYTHONDONTWRITEBYTECODE")
    os.environ["PYTHONPYCACHEPREFIX"] = str(cache)  # the processes started from now on (xdist's workers too)


def pytest_collection_modifyitems(config, items) -> None:
    """Marks the slow tests, and runs them first: xdist's work stealing balances the run's end
    with whatever short tests are left, instead of one worker finishing a long game alone while
    the other waits.  A stable sort: the slow tests keep the collection's order among themselves,
    and so do the others."""
    for item in items:
        module = item.path.name
        if module in SLOW_MODULES or item.originalname in SLOW_TESTS.get(module, ()):
            item.add_marker(pytest.mark.slow)
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
