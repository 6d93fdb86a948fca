"""The Robo Rally SVG view (issue 25), tested without a browser: whole seeded games on the four
course maps, played in-process by the rules, written as the door's JSON-lines log, followed round
by round as ``swc replay`` prints them (``logview.follow``) and drawn at every round."""

from __future__ import annotations

import io
import json
import random

import pytest

from swc_local.games import views
from swc_local.games.roborally.board import board_from_game_map, load_map
from swc_local.games.roborally import wire
from swc_local.games.roborally.game import Game
from swc_local.games.roborally.logview import RoundView, follow, log_messages, parse_log
from swc_local.games.roborally.plan import best_program
from swc_local.games.roborally.text import render as text_board
from swc_local.games.roborally.view import Picture, beam
from swc_local.tools.roborally_replay import print_log
from tests.view_checks import HOSTILE, all_text, assert_hostile_name_escaped, cells, parse_svg, pieces, with_class

MAPS = ["Dizzy Highway", "Extra Crispy", "Lost Bearings", "Death Trap"]


def play_log(tmp_path, name: str, players: int, seed: int, rounds: int = 12, greedy: bool = False):
    """A game of programs drawn at random (``greedy``: the greedy bot's programs), written as the
    door writes its log; the live game."""
    rng = random.Random(seed)
    ids = list(range(1, players + 1))
    game = Game(load_map(name), ids, random.Random(seed))
    game.start()
    entries = []

    def pump():
        for to, _, kind, body in wire.messages(game.take_outbox()):
            if to == "all":
                entries.append({"t": len(entries) / 100, "dir": "out", "peer": "all", "messageType": kind,
                                "messageBody": body})

    for _ in range(20_000):  # a bound, not a limit a game reaches: it ends by rounds first
        if game.over or game.round > rounds:
            break
        pump()
        wait = game.wait
        if wait.kind == "start":
            free = [p for p in game.board.start_points if game._robot_at(*p) is None]
            assert game.on_set_starting_point(wait.pid, *rng.choice(free)) is None
        elif wait.kind == "programming":
            for pid in game.active_players():
                robot = game.robots[pid]
                cards = rng.sample(robot.hand, min(5, len(robot.hand)))
                if greedy and robot.on_board:
                    target = game.board.checkpoints[robot.checkpoints + 1]
                    cards = best_program(game.board, (robot.x, robot.y, robot.facing), robot.hand, target)
                for register, card in enumerate(cards, 1):
                    if not robot.finished:
                        game.on_selected_card(pid, card, register)
        elif wait.kind == "reboot_grace":
            game.on_reboot_direction(wait.pids[0], rng.choice(["top", "left", "right", "bottom"]))
        if game.wait is wait:  # nobody answered (or the answer ended nothing): the clock runs out
            game.timeout()
    pump()
    path = tmp_path / f"{name.replace(' ', '_')}_{seed}.jsonl"
    header = {"game": "roborally", "map": name, "seed": seed, "players": ids, "winner": game.winner}
    path.write_text("\n".join(json.dumps(line) for line in [header, *entries]) + "\n", encoding="utf-8")
    return path, game


def rounds(path):
    header, entries = parse_log(path.read_text(encoding="utf-8"))
    return list(follow(header["map"], log_messages(entries)))


def drawn_robots(root) -> dict[int, tuple[int, int, str]]:
    return {int(e.get("data-robot")): (*map(int, e.get("data-cell").split(",")), e.get("data-facing"))
            for e in pieces(root, "robot")}


def check(view: RoundView, previous: RoundView | None, picture: str) -> None:
    root = parse_svg(picture)
    board = view.board
    assert drawn_robots(root) == view.robots
    assert len(with_class(root, "checkpoint")) == board.checkpoint_count
    assert len(with_class(root, "laser")) == sum(1 for s in board.squares.values() if s.laser)
    assert len(with_class(root, "beam")) == sum(s.laser[1] for s in board.squares.values() if s.laser)
    assert len(with_class(root, "wall")) == sum(len(s.walls) for s in board.squares.values())
    assert len(with_class(root, "belt")) == sum(1 for s in board.squares.values() if s.belt)
    before = previous.robots if previous is not None else {}
    moved = {pid: [before[pid][:2], here[:2]] for pid, here in view.robots.items()
             if pid in before and before[pid][:2] != here[:2]}
    for kind, end in (("last-from", 0), ("last-to", -1)):
        marked = {int(e.get("data-robot")): tuple(map(int, e.get("data-cell").split(","))) for e in with_class(root, kind)}
        assert marked == {pid: tuple(path[end]) for pid, path in moved.items()}
    assert len(with_class(root, "last-move")) == len(moved)


@pytest.mark.parametrize("name", MAPS)
def test_every_round_of_a_game_log_is_drawn_as_swc_replay_prints_it(tmp_path, name):
    path, _ = play_log(tmp_path, name, players=3, seed=MAPS.index(name) + 1)
    views_ = rounds(path)
    assert len(views_) >= 3
    printed = io.StringIO()
    assert print_log(path, printed) == 0
    assert printed.getvalue().count("\n== ") == len(views_)
    position = 0
    previous = None
    for view in views_:  # the same boards, in the same order
        position = printed.getvalue().index(text_board(view.board, view.robots), position)
        picture = views.render("roborally", view, None, previous)
        assert views.render("roborally", view, None, previous) == picture
        check(view, previous, picture)
        previous = view
    assert views_[0].title == "setup"


def test_the_last_picture_of_a_finished_game_names_the_winner(tmp_path):
    path, game = play_log(tmp_path, "Dizzy Highway", players=2, seed=3, rounds=40, greedy=True)
    assert game.over and game.winner is not None
    *_, previous, last = rounds(path)
    assert last.title.startswith("end in round")
    picture = views.render("roborally", last, None, previous)
    check(last, previous, picture)
    text = all_text(parse_svg(picture))
    assert f"robot {game.winner} wins" in text and f"winner: robot {game.winner}" in text
    assert "checkpoints 1/1" in text


def test_a_live_game_is_drawn_with_its_robots_checkpoints_and_energy(tmp_path):
    _, game = play_log(tmp_path, "Dizzy Highway", players=4, seed=7, rounds=3)
    root = parse_svg(views.render("roborally", game))
    on_board = {pid: (r.x, r.y, r.facing) for pid, r in game.robots.items() if r.on_board}
    assert drawn_robots(root) == on_board
    text = all_text(root)
    for pid, robot in game.robots.items():
        assert f"robot {pid}: checkpoints {robot.checkpoints}/1, energy {robot.energy}" in text
    assert not with_class(root, "last-move")  # a live game has no path unless the viewer passes one
    assert HOSTILE not in all_text(root)
    path = {1: [(1, 4), (2, 4), (3, 4)]}
    root = parse_svg(views.render("roborally", game, path))
    assert cells(root, "last-from") == [(1, 4)] and cells(root, "last-to") == [(3, 4)]


def test_a_map_name_and_a_player_name_are_escaped_and_a_null_square_stops_a_beam():
    game_map = [[[{"type": "Empty", "isOnBoard": "5B"}] for _ in range(4)] for _ in range(5)]
    game_map[0][0] = [{"type": "Antenna", "isOnBoard": "5B", "orientations": ["right"]}]
    game_map[4][3] = [{"type": "Laser", "isOnBoard": "5B", "orientations": ["left"], "count": 2}]
    game_map[2][3] = None
    board = board_from_game_map(HOSTILE, game_map)
    view = RoundView(board, {1: (1, 3, "right")}, "setup", 0)
    named = Picture(board, view.robots, names={1: "</text><script>x</script>"}, players=(1,))
    for state in (view, named):
        picture = views.render("roborally", state)
        assert_hostile_name_escaped(picture)  # the map's name
        root = parse_svg(picture)
        beams = with_class(root, "beam")  # a laser of two beams, stopped by the null (off-board) square
        assert [(b.get("data-from"), b.get("data-to")) for b in beams] == [("4,3", "3,3")] * 2
        assert cells(root, "robot") == [(1, 3)]
    assert "&lt;/text&gt;&lt;script&gt;x&lt;/script&gt;" in views.render("roborally", named)


def test_a_laser_beam_stops_at_the_first_robot_a_wall_or_the_antenna():
    board = load_map("Dizzy Highway")
    for (x, y), square in board.squares.items():
        if square.laser:
            free = beam(board, x, y, square.laser[0], set())
            assert free[0] == (x, y)
            if len(free) > 1:
                blocked = beam(board, x, y, square.laser[0], {free[1]})
                assert blocked == free[:2]
