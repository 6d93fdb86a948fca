"""What makes a tournament trustworthy and watchable, with a stand-in runner: a {seed} per bot,
honest small samples, opening books, seat orders, think times, time limits, progress lines off a
terminal, CSV of games and pairs, the SPRT history, a command that cannot play, Dask files."""

from __future__ import annotations

import csv
import io
import math
import sqlite3
from collections import Counter
from dataclasses import replace

import pytest
import trio

from swc_local.tools.results import CANNOT_START, CRASHED
from swc_local.tools.tournament.core import Settings, Tournament
from swc_local.tools.tournament.elo import estimate, shown
from swc_local.tools.tournament.executors import land_files, play_locally, spec_for
from swc_local.tools.tournament.openings import BookError, Opening, ordered, parse_options, read_book
from swc_local.tools.tournament.report import csv_report, json_report, text_report
from swc_local.tools.tournament.schedule import schedule, seating_design
from swc_local.tools.tournament.sprt import Sprt
from tests.tournament_fakes import fake_play_games, fake_result


def settings(**overrides) -> Settings:
    fields = dict(game="swc_2019_piranhas", bots=[("strong3", "x"), ("weak1", "x")], games_per_pairing=8, seed=5)
    return Settings(**(fields | overrides))


async def played(tmp_path, name="t.db", play=None, **overrides) -> Tournament:
    tournament = Tournament.open(settings(**overrides), tmp_path / name, resume=False)
    await play_locally(tournament, 1, play_games=play or fake_play_games())
    return tournament


def rows(db, sql: str) -> list[tuple]:
    with sqlite3.connect(db) as connection:
        return connection.execute(sql).fetchall()


# -- {seed} per bot ------------------------------------------------------------------------------

def test_every_bot_gets_its_own_seed_in_every_game_of_a_pair():
    slots = schedule(["a", "b"], "roundrobin", 6, 2, seed=3)
    seeds = [dict(zip(slot.seating, slot.bot_seeds)) for slot in slots]
    for first, second in zip(seeds[::2], seeds[1::2]):
        assert first["a"] != first["b"] and first["a"] != second["a"] and first["b"] != second["b"]
        assert {first["a"], first["b"]} != {second["a"], second["b"]}  # the pair is no mirror of seeds
    assert schedule(["a", "b"], "roundrobin", 6, 2, seed=3) == slots  # the same again for --resume
    tournament_slot = slots[1]
    spec = spec_for(Tournament(settings(bots=[("a", "x"), ("b", "x")], games_per_pairing=6, seed=3), _MemoryDb()),
                    tournament_slot)
    assert spec.seat_seeds == tournament_slot.bot_seeds and [n for n, _ in spec.players] == list(tournament_slot.seating)


def test_the_runner_gives_each_seat_the_seed_of_the_spec(tmp_path):
    import sys

    from swc_local.tools.runner import GameSpec, play_games_blocking

    show = [sys.executable, "-c", "import sys; print('seed', sys.argv[1])", "{seed}"]
    spec = GameSpec(game="piranhas", index=0, seed=1, players=[("a", show), ("b", show)], logs=tmp_path,
                    start_timeout=5, seat_seeds=(111, 222))
    play_games_blocking([spec], give_up_after=None)
    assert (tmp_path / "game001_a.log").read_text().strip() == "seed 111"
    assert (tmp_path / "game001_b.log").read_text().strip() == "seed 222"


async def test_a_pairing_whose_every_pair_was_a_mirror_is_named_in_the_report(tmp_path):
    tournament = await played(tmp_path, bots=[("same1", "x"), ("copy1", "x")])  # equal: every pair repeats
    data = json_report(tournament)
    assert data["head_to_head"][0]["all_mirrors"] and data["head_to_head"][0]["mirrors"] == 4
    assert any("was a mirror" in note and "{seed}" in note for note in data["notes"])
    assert all(pair["mirror"] for pair in data["pairs"])
    other = await played(tmp_path, "noisy.db", play=fake_play_games(noise=5), bots=[("same1", "x"), ("copy1", "x")])
    assert not any("mirror" in note for note in json_report(other)["notes"])


# -- small samples, 0 % and 100 % ---------------------------------------------------------------

def test_a_perfect_score_has_no_finite_elo_but_a_bound():
    eight = shown([0, 0, 0, 0, 4])
    assert eight.elo == math.inf and eight.bound is not None and 0 < eight.bound < 400
    assert eight.text().startswith("+inf (≥ +") and eight.small
    assert shown([4, 0, 0, 0, 0]).elo == -math.inf and shown([4, 0, 0, 0, 0]).text().startswith("-inf (≤ -")
    assert math.isfinite(estimate([0, 0, 0, 0, 4]).elo)  # fishtest's own number stays what it is
    assert not shown([10, 10, 10, 10, 10]).small and shown([1, 2, 4, 2, 1]).small


async def test_eight_wins_out_of_eight_show_plus_infinity_marked_as_a_small_sample(tmp_path):
    tournament = await played(tmp_path)
    data = json_report(tournament)
    strong = next(row for row in data["standings"] if row["bot"] == "strong3")
    assert strong["wins"] == 8 and strong["elo"] is None and strong["elo_text"].startswith("+inf")
    assert strong["small_sample"] and strong["elo_bound"] > 0
    head = data["head_to_head"][0]
    assert head["elo"] is None and head["elo_text"].startswith("+inf") and head["small_sample"]
    from rich.console import Console

    console = Console(record=True, width=200)
    console.print(text_report(tournament))
    text = console.export_text()
    assert "+inf" in text and "1199" not in text and "fewer than 30 game pairs" in text
    tournament.db.close()


# -- opening books -------------------------------------------------------------------------------

async def test_a_book_of_six_seeds_plays_six_pairs_on_exactly_those_boards(tmp_path):
    book = tmp_path / "book.txt"
    book.write_text("# six boards\n11\n22\n33\n\n44\n55\n66  # the last\n")
    openings = read_book(book)
    assert [o.seed for o in openings] == [11, 22, 33, 44, 55, 66]
    tournament = await played(tmp_path, openings=[o.to_dict() for o in openings], games_per_pairing=12, book=str(book))
    games = rows(tournament.db.path, "SELECT block, seed, bots, opening FROM games ORDER BY position")
    assert len(games) == 12 and [seed for _, seed, _, _ in games[::2]] == [11, 22, 33, 44, 55, 66]
    for (block1, seed1, bots1, opening1), (block2, seed2, bots2, opening2) in zip(games[::2], games[1::2]):
        assert block1 == block2 and seed1 == seed2 and bots1.split(",") == bots2.split(",")[::-1]
        assert opening1 == opening2 == f"seed {seed1}"
    assert any("openings: 6" in note for note in json_report(tournament)["notes"])
    tournament.db.close()


def test_book_options_and_errors(tmp_path):
    book = tmp_path / "book.txt"
    book.write_text("1\n2\n3\n4\n")
    assert parse_options([str(book), "order=random", "plies=4"]) == (book, "random", 4)
    shuffled = ordered(read_book(book), "random", seed=9)
    assert sorted(o.seed for o in shuffled) == [1, 2, 3, 4] and shuffled == ordered(read_book(book), "random", 9)
    with pytest.raises(BookError, match="order=sequential|random"):
        parse_options([str(book), "order=shuffle"])
    with pytest.raises(BookError, match="plies= is for replay positions"):
        read_book(book, plies=4)
    (tmp_path / "bad.txt").write_text("no_such_replay.xml@3\n")
    with pytest.raises(BookError, match="no such replay"):
        read_book(tmp_path / "bad.txt")
    with pytest.raises(BookError, match="no replays"):
        read_book(tmp_path)
    from swc_local.tools.tournament.openings import check_positions

    with pytest.raises(BookError, match="reversixt cannot start from replay positions"):
        check_positions([Opening(replay="x.xml", turn=2)], "reversixt", can_load=False)


def test_a_replay_position_becomes_the_games_load_game_option():
    slots = schedule(["a", "b"], "roundrobin", 2, 2, seed=1, openings=[Opening(replay="/r/x.xml", turn=6)])
    assert all(dict(slot.options) == {"load_game": "/r/x.xml", "turn": 6} for slot in slots)
    assert slots[0].opening == "/r/x.xml@6"


# -- seat orders ---------------------------------------------------------------------------------

def test_four_seats_and_twenty_four_games_use_every_seat_order():
    slots = schedule(["g1", "g2", "g3", "g4"], "roundrobin", 24, 4, seed=1)
    assert len({slot.seating for slot in slots}) == 24
    assert seating_design(("a", "b", "c", "d"), 6)[0] == "every order"


def right_before(bases, group) -> list[int]:
    seats = len(group)
    counts = Counter((order[i], order[(i + 1) % seats]) for order in bases for i in range(seats))
    return [counts[(x, y)] for x in group for y in group if x != y]


def test_fewer_games_get_a_balanced_design():
    five = tuple("abcde")
    name, bases = seating_design(five, 4)
    assert name == "balanced" and set(right_before(bases, five)) == {1}  # each bot right before each other once
    four = tuple("abcd")  # no such design exists for 4 seats (Tillson): as even as the games allow
    assert max(right_before(seating_design(four, 3)[1], four)) <= 2
    assert max(right_before(seating_design(four, 2)[1], four)) <= 1
    slots = schedule(["a", "b", "c", "d"], "roundrobin", 12, 4, seed=1)
    seats = Counter((bot, slot.seating.index(bot)) for slot in slots for bot in slot.seating)
    assert set(seats.values()) == {3}  # and every bot in every seat equally often


# -- think times and per-bot limits ---------------------------------------------------------------

def timed_play(times: dict[str, list[float]]):
    async def play_games(specs, *, parallel=1, on_result=None, give_up_after=None):
        for spec in specs:
            await trio.sleep(0)
            result = replace(fake_result(spec), move_times={name: tuple(times[name]) for name, _ in spec.players})
            on_result(result)
    return play_games


async def test_think_times_per_bot_are_in_the_report_and_the_seats_table(tmp_path):
    tournament = await played(tmp_path, play=timed_play({"strong3": [0.010, 0.030], "weak1": [0.1, 0.3]}))
    standings = {row["bot"]: row for row in json_report(tournament)["standings"]}
    assert standings["strong3"]["think_avg_ms"] == 20.0 and standings["strong3"]["think_max_ms"] == 30.0
    assert standings["weak1"]["think_avg_ms"] == 200.0 and standings["weak1"]["moves"] == 16
    seats = rows(tournament.db.path, "SELECT bot, moves, think_avg_ms, think_max_ms FROM seats WHERE bot = 'weak1'")
    assert seats[0][1:] == (2, pytest.approx(200.0), pytest.approx(300.0))
    tournament.db.close()


async def test_a_bot_slower_than_its_own_limit_loses_with_time_limit(tmp_path):
    tournament = await played(tmp_path, play=timed_play({"strong3": [0.010, 0.250], "weak1": [0.01]}),
                              time_limits={"strong3": 200})
    standings = {row["bot"]: row for row in json_report(tournament)["standings"]}
    assert standings["strong3"]["losses"] == 8 and standings["strong3"]["causes"] == {"TIME_LIMIT": 8}
    reasons = rows(tournament.db.path, "SELECT reason FROM seats WHERE bot = 'strong3'")
    assert all("250 ms" in reason and "200 ms" in reason for (reason,) in reasons)
    tournament.db.close()


# -- output off a terminal, CSV, the SPRT history ------------------------------------------------

async def test_off_a_terminal_every_finished_pair_prints_one_plain_line(tmp_path):
    from rich.console import Console

    from swc_local.tools.tournament.live import LiveView

    tournament = Tournament.open(settings(sprt={"elo0": 0, "elo1": 5}), tmp_path / "t.db", resume=False)
    out = io.StringIO()
    with LiveView(tournament, Console(file=io.StringIO(), force_terminal=False), plain=out):
        await play_locally(tournament, 1, play_games=fake_play_games(noise=5))
    lines = out.getvalue().splitlines()
    assert len(lines) == sum(tournament.pentanomial) == len(tournament.stored) // 2
    assert all(line.startswith("pair r") and "LLR" in line and "Elo" in line for line in lines)
    assert "\x1b" not in out.getvalue()  # plain text, no terminal codes
    tournament.db.close()


async def test_on_an_80_column_terminal_the_tables_fit_and_no_elo_is_cut(tmp_path):
    from rich.console import Console

    from swc_local.tools.tournament.live import LiveView

    tournament = await played(tmp_path, play=fake_play_games(noise=5), bots=[("a_long_bot_name3", "x"), ("weak1", "x")],
                              sprt={"elo0": 0, "elo1": 5})
    console = Console(record=True, width=80, force_terminal=True)
    console.print(text_report(tournament, width=80))
    console.print(LiveView(tournament, console))
    text = console.export_text()
    assert "…" not in text and all(len(line) <= 80 for line in text.splitlines())
    for row in json_report(tournament)["standings"]:
        assert row["elo_text"] in text  # the Elo column whole
    assert "left out at this width" in text
    tournament.db.close()


async def test_report_csv_of_games_pairs_and_the_sprt_history(tmp_path):
    tournament = await played(tmp_path, play=fake_play_games(noise=5), sprt={"elo0": 0, "elo1": 5})
    games = list(csv.DictReader(io.StringIO(csv_report(tournament, "games"))))
    pairs = list(csv.DictReader(io.StringIO(csv_report(tournament, "pairs"))))
    history = list(csv.DictReader(io.StringIO(csv_report(tournament, "sprt"))))
    assert len(games) == 8 and {row["key"] for row in games} == {slot.key for slot in tournament.slots}
    assert len(pairs) == 4 and all(len(row["games"].split()) == 2 for row in pairs)
    assert [int(row["pair"]) for row in history] == [1, 2, 3, 4]
    test = Sprt(elo0=0, elo1=5)
    counts = [0] * 5
    for pair, row in zip(pairs, history):  # the LLR after every pair, as fishtest computes it
        counts[int(pair["pentanomial_index"])] += 1
        assert row["pentanomial"] == " ".join(map(str, counts))
        assert float(row["llr"]) == pytest.approx(test.llr(counts), abs=1e-9)
    assert json_report(tournament)["history"][-1]["llr"] == pytest.approx(tournament.llr)
    tournament.db.close()


# -- a command that cannot play, Dask files and retries ------------------------------------------

def crashing_play(cause: str):
    async def play_games(specs, *, parallel=1, on_result=None, give_up_after=None):
        for spec in specs:
            await trio.sleep(0)  # where the runner would notice the cancellation
            result = fake_result(spec)
            seats = tuple(replace(seat, cause=cause, rank=2, reason="exited with code 2 before it joined")
                          if seat.name == "weak1" else replace(seat, rank=1) for seat in result.seats)
            on_result(replace(result, seats=seats))
    return play_games


@pytest.mark.parametrize("cause, games", [(CANNOT_START, 1), (CRASHED, 2)])
async def test_a_command_that_cannot_play_stops_the_tournament_at_once(tmp_path, cause, games):
    tournament = await played(tmp_path, play=crashing_play(cause))
    assert tournament.broken and "weak1's command cannot play" in tournament.broken
    assert len(tournament.stored) == games and tournament.pending() == []
    tournament.db.close()


async def test_dask_info_is_stored_and_brought_back_files_land_beside_the_database(tmp_path):
    tournament = Tournament.open(settings(replays=str(tmp_path / "t-replays"), logs=str(tmp_path / "logs")),
                                 tmp_path / "t.db", resume=False)
    slot = tournament.slots[0]
    result = fake_result(spec_for(tournament, slot))
    result = replace(result, replay="/on/the/worker/game.xml",
                     seats=tuple(replace(seat, log=f"/on/the/worker/{seat.name}.log") for seat in result.seats))
    files = {"replay": ["game.xml", b"<protocol/>"], "logs": {"weak1": ["w.log", b"thinking"]}}
    landed = land_files(tournament, result, files)
    assert landed.replay == str(tmp_path / "t-replays" / "game.xml") and (tmp_path / "t-replays" / "game.xml").read_bytes() == b"<protocol/>"
    assert landed.seat_of("weak1").log == str(tmp_path / "logs" / "w.log")
    tournament.accept(landed, {"worker": "w1", "retries": 1})
    assert rows(tournament.db.path, "SELECT worker, retries, replay FROM games") == [("w1", 1, landed.replay)]
    data = json_report(tournament)
    assert data["retries"] == [{"game": slot.key, "retries": 1}] and data["game_list"][0]["worker"] == "w1"
    assert any("played again after a worker died" in note for note in data["notes"])
    tournament.db.close()


def test_a_database_of_the_previous_version_gets_the_new_columns(tmp_path):
    from swc_local.tools.tournament.db import ResultsDb

    path = tmp_path / "old.db"
    with sqlite3.connect(path) as connection:
        connection.executescript("""
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE games (key TEXT PRIMARY KEY, position INTEGER NOT NULL, block TEXT NOT NULL, game TEXT NOT NULL,
                seed INTEGER NOT NULL, bots TEXT NOT NULL, duration REAL NOT NULL, replay TEXT, error TEXT,
                finished_at REAL NOT NULL, record TEXT NOT NULL);
            CREATE TABLE seats (game_key TEXT NOT NULL, seat_index INTEGER NOT NULL, bot TEXT NOT NULL, seat TEXT NOT NULL,
                rank INTEGER NOT NULL, score TEXT NOT NULL, cause TEXT NOT NULL, reason TEXT, exit_code INTEGER,
                PRIMARY KEY (game_key, seat_index));""")
    with ResultsDb(path) as db:
        assert db.history() == [] and db.stored() == []
    assert "opening" in {row[1] for row in rows(path, "PRAGMA table_info(games)")}


class _MemoryDb:
    """Just enough of a database for building specs."""

    path = ":memory:"

    def stored(self) -> list:
        return []



@pytest.mark.parametrize("args, message", [
    (["piranhas", "--bot=a=true", "--bot=b=true", "--db", "x.db", "--openings", "missing.txt"], "cannot read the book"),
    (["piranhas", "--bot=a=true", "--bot=b=true", "--db", "x.db", "--openings", "book.txt", "order=shuffled"], "sequential, random"),
    (["piranhas", "--bot=a=true", "--bot=b=true", "--db", "x.db", "--bot-timeout", "c=100"], "no --bot is called 'c'"),
    (["piranhas", "--bot=a=true", "--bot=b=true", "--db", "x.db", "--bot-timeout", "a=fast"], "expected NAME=MS"),
    (["report", "x.db", "--csv", "moves"], "standings, games, pairs, sprt"),
    (["openings", "out.txt"], "--count N"),
    (["openings", "out.txt", "--from", "nowhere"], "no such folder"),
    (["--db", "x.db"], "the game is needed"),
    (["--resume", "--db", "missing.db"], "no such tournament database"),
])
def test_bad_new_arguments_are_one_line_errors(tmp_path, capsys, monkeypatch, args, message):
    from swc_local.tools.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "book.txt").write_text("1\n2\n")
    if args[0] == "report":
        Tournament.open(settings(), tmp_path / "x.db", resume=False).db.close()
    assert main(["tournament", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
