"""Robo Rally rules, card by card and element by element (spec roborally.md §5), on small boards."""

import random

import pytest
from hypothesis import given, settings, strategies as st

from swc_local.games.roborally.board import load_map
from swc_local.games.roborally import wire
from swc_local.games.roborally.game import Game

from tests.roborally_helpers import belt, make_board, messages, place, run, types, wall

MOV = "Movement"


def execute(game, pid, card, register=1, answers=()):
    run(game._execute(game.robots[pid], register, card), answers)
    return messages(game)


# --- priority (§5.4.2) --------------------------------------------------------------------

def test_priority_tie_break_example_dizzy_highway():
    game = place(load_map("Dizzy Highway"), {1: (1, 3, "right"), 2: (1, 5, "right")})
    assert game.priority_order() == [2, 1]


def test_priority_distance_first_then_clockwise_angle_for_each_antenna_facing():
    for facing, expected in (("right", [3, 2, 1]), ("bottom", [2, 1, 3]), ("left", [1, 3, 2]), ("top", [3, 2, 1])):
        board = make_board(antenna=(3, 3, facing))
        game = place(board, {1: (3, 2, "top"), 2: (4, 3, "top"), 3: (3, 4, "top"), 4: (6, 6, "top")})
        order = game.priority_order()
        assert order[-1] == 4
        assert len(order) == 4


def test_priority_clockwise_sweep_right_antenna():
    game = place(make_board(antenna=(0, 3, "right")), {1: (1, 2, "top"), 2: (2, 3, "top"), 3: (1, 4, "top")})
    # d = 2 for all three: straight ahead (0°) first, then below (45°), then above (315°)
    assert game.priority_order() == [2, 3, 1]


# --- programming cards (§5.5) ------------------------------------------------------------

@pytest.mark.parametrize("card, squares", [("MoveI", [(3, 2)]), ("MoveII", [(3, 2), (4, 2)]), ("MoveIII", [(3, 2), (4, 2), (5, 2)])])
def test_move_cards_one_movement_per_square(card, squares):
    game = place(make_board(), {1: (2, 2, "right")})
    out = execute(game, 1, card)
    assert out == [(MOV, {"clientID": 1, "x": x, "y": y}) for x, y in squares]
    assert game.robots[1].pos == squares[-1]


def test_move_blocked_by_wall_on_either_side():
    game = place(make_board({(3, 2): [wall("right")], (5, 3): [wall("left")]}), {1: (2, 2, "right"), 2: (4, 3, "right")})
    assert execute(game, 1, "MoveIII") == [(MOV, {"clientID": 1, "x": 3, "y": 2})]
    assert execute(game, 2, "MoveI") == []
    assert game.robots[2].pos == (4, 3)


def test_back_up_keeps_facing():
    game = place(make_board(), {1: (2, 2, "right")})
    assert execute(game, 1, "BackUp") == [(MOV, {"clientID": 1, "x": 1, "y": 2})]
    assert game.robots[1].facing == "right"


def test_turns_and_u_turn():
    game = place(make_board(), {1: (2, 2, "right")})
    assert execute(game, 1, "TurnLeft") == [("PlayerTurning", {"clientID": 1, "rotation": "counterclockwise"})]
    assert game.robots[1].facing == "top"
    assert execute(game, 1, "TurnRight") == [("PlayerTurning", {"clientID": 1, "rotation": "clockwise"})]
    assert execute(game, 1, "UTurn") == [("PlayerTurning", {"clientID": 1, "rotation": "clockwise"})] * 2
    assert game.robots[1].facing == "left"


def test_power_up():
    game = place(make_board(), {1: (2, 2, "right")})
    assert execute(game, 1, "PowerUp") == [("Energy", {"clientID": 1, "count": 6, "source": "PowerUpCard"})]


def test_again_repeats_previous_register_and_again_after_again():
    game = place(make_board(), {1: (1, 2, "right")})
    robot = game.robots[1]
    robot.programmed = ["MoveI", "Again", "Again", None, None]
    robot.executed = ["MoveI", None, None, None, None]
    assert execute(game, 1, "Again", register=2) == [(MOV, {"clientID": 1, "x": 2, "y": 2})]
    assert execute(game, 1, "Again", register=3) == [(MOV, {"clientID": 1, "x": 3, "y": 2})]


def test_again_in_register_one_does_nothing():
    game = place(make_board(), {1: (1, 2, "right")})
    assert execute(game, 1, "Again", register=1) == []


def test_again_after_damage_draws_and_replaces():
    game = place(make_board(), {1: (1, 2, "right")})
    robot = game.robots[1]
    robot.draw = ["TurnLeft"]
    robot.programmed = ["Spam", "Again", None, None, None]
    robot.registers = ["MoveI", "Again", None, None, None]
    out = execute(game, 1, "Again", register=2)
    assert out == [("ReplaceCard", {"register": 2, "newCard": "TurnLeft", "clientID": 1}),
                   ("PlayerTurning", {"clientID": 1, "rotation": "counterclockwise"})]
    assert robot.registers[1] == "TurnLeft" and robot.aside == ["Again"]


# --- damage cards (§5.5) -----------------------------------------------------------------

def test_spam_goes_back_and_the_top_card_is_played():
    game = place(make_board(), {1: (1, 2, "right")})
    robot = game.robots[1]
    robot.draw = ["MoveI"]
    robot.registers[0] = "Spam"
    game.piles["Spam"] = 10
    out = execute(game, 1, "Spam")
    assert out == [("ReplaceCard", {"register": 1, "newCard": "MoveI", "clientID": 1}), (MOV, {"clientID": 1, "x": 2, "y": 2})]
    assert game.piles["Spam"] == 11 and robot.registers[0] == "MoveI"


def test_drawing_from_an_empty_draw_pile_shuffles_the_discard_pile():
    game = place(make_board(), {1: (1, 2, "right")})
    robot = game.robots[1]
    robot.draw, robot.discard = [], ["TurnRight"]
    robot.registers[0] = "Spam"
    out = execute(game, 1, "Spam")
    assert out[0] == ("ShuffleCoding", {"clientID": 1})
    assert out[1] == ("ReplaceCard", {"register": 1, "newCard": "TurnRight", "clientID": 1})


def test_trojan_gives_two_spam_then_plays_the_top_card():
    game = place(make_board(), {1: (1, 2, "right")})
    robot = game.robots[1]
    robot.draw = ["TurnLeft"]
    robot.registers[0] = "Trojan"
    out = execute(game, 1, "Trojan")
    assert out[0] == ("DrawDamage", {"clientID": 1, "cards": ["Spam", "Spam"]})
    assert out[1][0] == "ReplaceCard" and out[2][0] == "PlayerTurning"
    assert game.piles["Trojan"] == 13 and robot.discard.count("Spam") == 2


def test_virus_hits_other_robots_within_six():
    game = place(make_board(width=13, height=10), {1: (1, 1, "right"), 2: (4, 4, "right"), 3: (12, 9, "left")})
    game.robots[1].draw = ["TurnLeft"]
    game.robots[1].registers[0] = "Virus"
    out = execute(game, 1, "Virus")
    assert out[0] == ("DrawDamage", {"clientID": 2, "cards": ["Spam"]})
    assert [t for t, _ in out] == ["DrawDamage", "ReplaceCard", "PlayerTurning"]


def test_worm_reboots():
    board = make_board(cells={(5, 5): [{"type": "RestartPoint", "orientations": ["right"]}]})
    game = place(board, {1: (2, 2, "right")})
    game.robots[1].registers = ["Worm", "MoveI", "MoveI", "MoveI", "MoveI"]
    out = execute(game, 1, "Worm")
    assert out == [("Reboot", {"clientID": 1}), ("DrawDamage", {"clientID": 1, "cards": ["Spam", "Spam"]}),
                   (MOV, {"clientID": 1, "x": 5, "y": 5})]
    robot = game.robots[1]
    assert robot.rebooted and robot.facing == "top" and robot.registers == [None] * 5
    assert robot.discard.count("MoveI") == 4 and game.piles["Worm"] == 7


# --- pushing, edges, pits, reboot (§5.6, §5.8) -------------------------------------------

def test_push_chain_front_robot_moves_first():
    game = place(make_board(), {1: (1, 2, "right"), 2: (2, 2, "top"), 3: (3, 2, "top")})
    out = execute(game, 1, "MoveI")
    assert out == [(MOV, {"clientID": 3, "x": 4, "y": 2}), (MOV, {"clientID": 2, "x": 3, "y": 2}), (MOV, {"clientID": 1, "x": 2, "y": 2})]
    assert game.robots[2].facing == "top"


def test_push_chain_blocked_by_wall_moves_nobody():
    game = place(make_board({(3, 2): [wall("right")]}), {1: (1, 2, "right"), 2: (2, 2, "top"), 3: (3, 2, "top")})
    assert execute(game, 1, "MoveII") == []


def test_antenna_blocks_movement():
    game = place(make_board(antenna=(3, 2, "right")), {1: (2, 2, "right")})
    assert execute(game, 1, "MoveI") == []


def test_pushed_off_the_edge_falls_without_movement():
    board = make_board(width=4, height=4, cells={(2, 3): [{"type": "RestartPoint", "orientations": ["right"]}]}, antenna=(0, 0, "right"))
    game = place(board, {1: (2, 1, "right"), 2: (3, 1, "right")})
    out = execute(game, 1, "MoveI")
    assert out == [(MOV, {"clientID": 1, "x": 3, "y": 1}), ("Reboot", {"clientID": 2}),
                   ("DrawDamage", {"clientID": 2, "cards": ["Spam", "Spam"]}), (MOV, {"clientID": 2, "x": 2, "y": 3})]


def test_null_cell_is_off_the_board():
    board = make_board(cells={(3, 2): None, (5, 5): [{"type": "RestartPoint", "orientations": ["top"]}]})
    game = place(board, {1: (2, 2, "right")})
    assert types(game) == [] and [t for t, _ in execute(game, 1, "MoveI")] == ["Reboot", "DrawDamage", MOV]


def test_pit_after_movement_and_the_rest_of_the_card_is_cancelled():
    board = make_board({(3, 2): [{"type": "Pit"}], (6, 5): [{"type": "RestartPoint", "orientations": ["left"]}]})
    game = place(board, {1: (2, 2, "right"), 2: (6, 5, "top")})
    out = execute(game, 1, "MoveIII")
    assert out == [(MOV, {"clientID": 1, "x": 3, "y": 2}), ("Reboot", {"clientID": 1}),
                   ("DrawDamage", {"clientID": 1, "cards": ["Spam", "Spam"]}),
                   (MOV, {"clientID": 2, "x": 5, "y": 5}), (MOV, {"clientID": 1, "x": 6, "y": 5})]


def test_reboot_from_the_start_board_goes_to_own_start_point():
    board = make_board({(1, 1): [{"type": "Pit", "isOnBoard": "Start A"}], (6, 5): [{"type": "RestartPoint", "orientations": ["left"]}]},
                       start_points=[(1, 4), (2, 4)])
    game = place(board, {1: (1, 2, "top")})
    game.robots[1].start = (2, 4)
    board.squares[(1, 1)].board = "Start A"
    out = execute(game, 1, "MoveI")
    assert out[-1] == (MOV, {"clientID": 1, "x": 2, "y": 4})


def test_reboot_direction_turns_the_robot():
    game = place(make_board({(7, 5): [{"type": "RestartPoint", "orientations": ["left"]}]}), {1: (2, 2, "top"), 2: (4, 4, "top")})
    assert game.on_reboot_direction(1, "left") == "No reboot pending"
    execute(game, 1, "Worm")
    assert game.on_reboot_direction(1, "up") == "Invalid direction: up"
    assert game.on_reboot_direction(1, 7) == "Invalid direction: 7"
    assert game.on_reboot_direction(1, "left") is None
    assert messages(game) == [("PlayerTurning", {"clientID": 1, "rotation": "counterclockwise"})]
    assert game.on_reboot_direction(1, "right") is None
    assert messages(game) == [("PlayerTurning", {"clientID": 1, "rotation": "clockwise"})] * 2


# --- board elements (§5.7) ---------------------------------------------------------------

def elements(game, register=1, answers=()):
    game.register = register
    game._priority = game.priority_order()
    run(game._board_elements(register), answers)
    return messages(game)


def test_official_order_of_animations():
    cells = {
        (1, 1): [belt(2, "right", "left")], (1, 2): [belt(1, "right", "left")],
        (1, 3): [{"type": "PushPanel", "orientations": ["right"], "registers": [1]}],
        (1, 4): [{"type": "Gear", "orientations": ["clockwise"]}], (5, 5): [{"type": "Laser", "orientations": ["left"], "count": 1}],
        (6, 1): [{"type": "EnergySpace", "count": 1}], (7, 1): [{"type": "CheckPoint", "count": 1}],
    }
    game = place(make_board(cells), {1: (3, 0, "bottom")})
    anims = [b["type"] for t, b in elements(game) if t == "Animation"]
    assert anims == ["BlueConveyorBelt", "GreenConveyorBelt", "PushPanel", "Gear", "WallShooting", "PlayerShooting", "EnergySpace", "CheckPoint"]
    assert [b["type"] for t, b in elements(game, register=2) if t == "Animation"] == [
        "BlueConveyorBelt", "GreenConveyorBelt", "Gear", "WallShooting", "PlayerShooting", "EnergySpace", "CheckPoint"]


def test_blue_belt_moves_two_green_one_and_curves_rotate():
    cells = {(1, 1): [belt(2, "right", "left")], (2, 1): [belt(2, "bottom", "left")], (2, 2): [belt(2, "bottom", "top")],
             (4, 4): [belt(1, "right", "left")]}
    game = place(make_board(cells), {1: (1, 1, "right"), 2: (4, 4, "top")})
    out = [m for m in elements(game) if m[0] != "Animation"]
    assert out == [(MOV, {"clientID": 1, "x": 2, "y": 1}), ("PlayerTurning", {"clientID": 1, "rotation": "clockwise"}),
                   (MOV, {"clientID": 1, "x": 2, "y": 2}), (MOV, {"clientID": 2, "x": 5, "y": 4})]
    assert game.robots[1].facing == "bottom"


def test_belt_conflicts_robots_stay():
    cells = {(1, 1): [belt(1, "right", "left")], (3, 1): [belt(1, "left", "right")], (1, 3): [belt(1, "right", "left")]}
    game = place(make_board(cells), {1: (1, 1, "top"), 2: (3, 1, "top"), 3: (1, 3, "top"), 4: (2, 3, "top")})
    assert [m for m in elements(game) if m[0] == MOV] == []


def test_belt_carries_off_the_board():
    board = make_board({(7, 1): [belt(1, "right", "left")], (3, 3): [{"type": "RestartPoint", "orientations": ["top"]}]})
    game = place(board, {1: (7, 1, "top")})
    assert [t for t, _ in elements(game) if t != "Animation"][:3] == ["Reboot", "DrawDamage", MOV]


def test_push_panel_only_in_its_registers():
    game = place(make_board({(2, 2): [{"type": "PushPanel", "orientations": ["bottom"], "registers": [2, 4]}]}), {1: (2, 2, "top")})
    assert [m for m in elements(game, register=1) if m[0] == MOV] == []
    assert [m for m in elements(game, register=2) if m[0] == MOV] == [(MOV, {"clientID": 1, "x": 2, "y": 3})]


def test_gears():
    game = place(make_board({(2, 2): [{"type": "Gear", "orientations": ["counterclockwise"]}]}), {1: (2, 2, "top")})
    assert ("PlayerTurning", {"clientID": 1, "rotation": "counterclockwise"}) in elements(game)
    assert game.robots[1].facing == "left"


def test_board_laser_hits_first_robot_and_walls_stop_it():
    cells = {(7, 2): [{"type": "Laser", "orientations": ["left"], "count": 1}, wall("right")], (2, 4): [wall("right")],
             (7, 4): [{"type": "Laser", "orientations": ["left"], "count": 2}]}
    game = place(make_board(cells), {1: (3, 2, "top"), 2: (2, 2, "top"), 3: (1, 4, "top")})
    out = elements(game)
    assert ("DrawDamage", {"clientID": 1, "cards": ["Spam"]}) in out
    assert all(b.get("clientID") != 2 and b.get("clientID") != 3 for t, b in out if t == "DrawDamage")


def test_robot_lasers_and_rebooted_robots_do_not_fire():
    game = place(make_board(), {1: (2, 2, "right"), 2: (5, 2, "left"), 3: (5, 4, "left")})
    out = elements(game)
    assert [b for t, b in out if t == "DrawDamage"] == [{"clientID": 1, "cards": ["Spam"]}, {"clientID": 2, "cards": ["Spam"]}]
    game.robots[2].rebooted = True
    out = elements(game)
    assert [b for t, b in out if t == "DrawDamage"] == [{"clientID": 2, "cards": ["Spam"]}]


def test_energy_space_cube_once_and_register_five_bonus():
    game = place(make_board({(2, 2): [{"type": "EnergySpace", "count": 1}]}), {1: (2, 2, "top")})
    assert ("Energy", {"clientID": 1, "count": 6, "source": "EnergySpace"}) in elements(game, register=1)
    assert not [m for m in elements(game, register=2) if m[0] == "Energy"]
    assert ("Energy", {"clientID": 1, "count": 7, "source": "EnergySpace"}) in elements(game, register=5)


def test_checkpoints_in_order_and_the_last_one_wins():
    cells = {(2, 2): [{"type": "CheckPoint", "count": 2}], (4, 4): [{"type": "CheckPoint", "count": 1}]}
    game = place(make_board(cells), {1: (2, 2, "top"), 2: (4, 4, "top")})
    out = elements(game)
    assert [m for m in out if m[0] != "Animation"][0] == ("CheckPointReached", {"clientID": 2, "number": 1})
    game.robots[2].x, game.robots[2].y = 2, 2
    game.robots[1].x, game.robots[1].y = 6, 5
    out = elements(game)
    assert out[-2:] == [("CheckPointReached", {"clientID": 2, "number": 2}), ("GameFinished", {"clientID": 2})]
    assert game.over and game.winner == 2


# --- damage piles (§5.9) -----------------------------------------------------------------

def test_empty_spam_pile_asks_to_pick():
    game = place(make_board(), {1: (2, 2, "top")})
    game.piles["Spam"] = 1
    gen = game._damage(game.robots[1], 3)
    wait = next(gen)
    assert wait.kind == "damage"
    assert messages(game) == [("PickDamage", {"count": 2, "availablePiles": ["Virus", "Trojan", "Worm"]})]
    game.wait = wait
    game._gen = gen
    assert game.on_selected_damage(1, ["Virus"]) == "Invalid damage selection"
    assert game.on_selected_damage(1, ["Worm", "Trojan"]) is None
    assert messages(game) == [("DrawDamage", {"clientID": 1, "cards": ["Spam", "Worm", "Trojan"]})]
    game.over = False  # the driven generator ended; the game itself would go on
    assert game.on_selected_damage(1, ["Worm"]) == "No damage selection pending"


def test_damage_pick_timeout_takes_virus_then_trojan_then_worm():
    game = place(make_board(), {1: (2, 2, "top")})
    game.piles.update(Spam=0, Virus=1, Trojan=0, Worm=5)
    run(game._damage(game.robots[1], 2))
    assert messages(game)[-1] == ("DrawDamage", {"clientID": 1, "cards": ["Virus", "Worm"]})


def test_all_piles_empty_no_message():
    game = place(make_board(), {1: (2, 2, "top")})
    game.piles.update(Spam=0, Virus=0, Trojan=0, Worm=0)
    run(game._damage(game.robots[1], 2))
    assert messages(game) == []


# --- setup and programming (§5.1, §5.3) ---------------------------------------------------

def new_game(n=2, seed=1, name="Dizzy Highway"):
    game = Game(load_map(name), list(range(1, n + 1)), random.Random(seed))
    game.start()
    return game


def test_setup_checks_and_order():
    game = new_game()
    assert messages(game) == [("ActivePhase", {"phase": 0}), ("CurrentPlayer", {"clientID": 1})]
    assert game.on_set_starting_point(2, 1, 4) == "Not your turn"
    assert game.on_set_starting_point(1, 2, 2) == "Not a start point: (2, 2)"
    assert game.on_set_starting_point(1, 1, 4) is None
    assert game.on_set_starting_point(2, 1, 4) == "Start point already taken: (1, 4)"
    game.timeout()  # the optional setup limit: first free start point
    out = messages(game)
    assert out[:3] == [("StartingPointTaken", {"x": 1, "y": 4, "clientID": 1}), ("CurrentPlayer", {"clientID": 2}),
                       ("StartingPointTaken", {"x": 0, "y": 3, "clientID": 2})]
    assert out[3] == ("ActivePhase", {"phase": 2})
    assert [t for t, _ in out[4:8]] == ["YourCards", "NotYourCards", "YourCards", "NotYourCards"]
    assert game.on_set_starting_point(1, 1, 5) == "Not in the setup phase"


def setup_done(game):
    game.timeout()
    game.timeout()
    messages(game)


def test_selected_card_checks():
    game = new_game()
    setup_done(game)
    hand = list(game.robots[1].hand)
    missing = next(c for c in ["MoveI", "MoveII", "MoveIII", "TurnLeft", "TurnRight", "UTurn", "BackUp", "PowerUp", "Again"] if c not in hand)
    assert game.on_selected_card(1, hand[0], 0) == "Invalid register: 0"
    assert game.on_selected_card(1, hand[0], "2") == "Invalid register: 2"
    assert game.on_selected_card(1, "Foo", 1) == "Unknown card: Foo"
    assert game.on_selected_card(1, 5, 1) == "Unknown card: 5"
    assert game.on_selected_card(1, missing, 1) == f"Card not in hand: {missing}"
    game.robots[1].hand[0] = "Again"
    assert game.on_selected_card(1, "Again", 1) == "Again cannot be placed in register 1"
    assert game.on_selected_card(1, None, 3) is None
    assert messages(game) == [("CardSelected", {"clientID": 1, "register": 3, "filled": False})]


def test_programming_finish_timer_and_fill():
    game = new_game()
    setup_done(game)
    robot = game.robots[2]
    for register in range(1, 6):
        card = next(c for c in robot.hand if c != "Again" or register > 1)
        assert game.on_selected_card(2, card, register) is None
    out = messages(game)
    assert out[-3:] == [("CardSelected", {"clientID": 2, "register": 5, "filled": True}), ("SelectionFinished", {"clientID": 2}),
                        ("TimerStarted", {})]
    assert len(robot.hand) == 0 and len(robot.discard) == 4
    assert game.on_selected_card(2, None, 1) == "Selection already finished"
    first = game.robots[1].hand[0] if game.robots[1].hand[0] != "Again" else game.robots[1].hand[1]
    game.on_selected_card(1, first, 1)
    messages(game)
    game.timeout()
    out = messages(game)
    assert out[0] == ("TimerEnded", {"clientIDs": [1]})
    assert out[1][0] == "CardsYouGotNow" and len(out[1][1]["cards"]) == 4
    assert out[2] == ("ActivePhase", {"phase": 3})
    assert game.on_selected_card(1, None, 1) == "Not in the programming phase"


def test_all_finished_ends_timer_with_empty_list():
    game = new_game()
    setup_done(game)
    for pid in (1, 2):
        robot = game.robots[pid]
        for register in range(1, 6):
            game.on_selected_card(pid, next(c for c in robot.hand if c != "Again" or register > 1), register)
    out = messages(game)
    assert ("TimerEnded", {"clientIDs": []}) in out
    assert out[out.index(("TimerEnded", {"clientIDs": []})) + 1] == ("ActivePhase", {"phase": 3})


def test_play_card_wait_wrong_card_and_auto():
    game = new_game()
    setup_done(game)
    game.timeout()  # nobody programmed: timer ends, registers filled
    messages(game)
    assert game.wait.kind == "play_card"
    first = game.wait.pid
    other = 3 - first
    assert game.play_card_error(other) == "Not your turn"
    held = game.robots[first].registers[0]
    wrong = "MoveI" if held != "MoveI" else "TurnLeft"
    assert game.on_play_card(first, wrong) == f"Register 1 holds {held}"
    to, pid, kind, body = wire.messages(game.outbox)[0]
    assert (to, kind, body) == ("others", "CardPlayed", {"clientID": first, "card": held})
    messages(game)
    game.timeout()  # the second player does not answer: played by the server, to all, auto from now on
    sent = wire.messages(game.outbox)
    assert (sent[0][0], sent[0][2]) == ("all", "CardPlayed")
    assert game.robots[other].auto
    assert game.play_card_error(other) == ""


def test_removal_leaves_one_winner():
    game = new_game(n=3)
    setup_done(game)
    game.timeout()
    messages(game)
    game.remove(2)
    assert not game.over
    game.remove(1)
    assert game.over and messages(game)[-1] == ("GameFinished", {"clientID": 3})


# --- the property: random play never breaks the invariants --------------------------------

def random_play(name, n, seed, rounds=20, remove=False):
    rng = random.Random(seed)
    game = Game(load_map(name), list(range(1, n + 1)), random.Random(seed))
    game.start()
    total = None
    while not game.over and game.round <= rounds:
        game.take_outbox()
        if remove and rng.random() < 0.002 and len(game.active_players()) > 2:
            game.remove(rng.choice(game.active_players()))  # its cards leave the game with it
            total = None
            continue
        wait = game.wait
        if total is None and game.phase >= 2:
            total = game.card_totals()
        if wait.kind == "start":
            free = [p for p in game.board.start_points if game._robot_at(*p) is None]
            assert game.on_set_starting_point(wait.pid, *rng.choice(free)) is None
        elif wait.kind == "programming":
            if rng.random() < 0.1:
                game.timeout()
                continue
            pid = rng.choice([p for p in game.active_players() if not game.robots[p].finished])
            robot = game.robots[pid]
            game.on_selected_card(pid, rng.choice(robot.hand + [None]), rng.randint(1, 5))
        elif wait.kind == "play_card":
            if rng.random() < 0.5:
                game.on_play_card(wait.pid, game.robots[wait.pid].registers[game.register - 1])
            else:
                game.timeout()
        elif wait.kind == "damage":
            game.timeout()
        else:
            if rng.random() < 0.5:
                game.on_reboot_direction(wait.pids[0], rng.choice(["top", "left", "right", "bottom"]))
            else:
                game.timeout()
        if total is not None:
            assert game.card_totals() == total
        squares = [r.pos for r in game.robots.values() if r.on_board]
        assert len(squares) == len(set(squares))
    return game


@settings(max_examples=8, deadline=None)
@given(name=st.sampled_from(["Dizzy Highway", "Extra Crispy", "Lost Bearings", "Death Trap"]),
       players=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_random_play_keeps_invariants(name, players, seed):
    random_play(name, players, seed, remove=True)


@pytest.mark.parametrize("name", ["Dizzy Highway", "Extra Crispy", "Lost Bearings", "Death Trap"])
def test_random_play_every_size_on_every_map(name):
    for n in range(2, 7):
        random_play(name, n, seed=n)


def test_same_seed_same_game():
    def transcript(seed):
        game = random_play("Death Trap", 4, seed, rounds=5)
        return [(r.pos, r.facing, r.energy, r.checkpoints, r.reboots, list(r.discard)) for r in game.robots.values()]

    assert transcript(5) == transcript(5)
    assert transcript(5) != transcript(6)


# --- the spec's own examples (§5.12) -------------------------------------------------------

def test_extra_crispy_pit_example():
    game = place(load_map("Extra Crispy"), {42: (7, 2, "left")})
    game.robots[42].start = (1, 4)
    out = execute(game, 42, "MoveI")
    assert out == [(MOV, {"clientID": 42, "x": 6, "y": 2}), ("Reboot", {"clientID": 42}),
                   ("DrawDamage", {"clientID": 42, "cards": ["Spam", "Spam"]}), (MOV, {"clientID": 42, "x": 0, "y": 0})]


def test_extra_crispy_pit_example_with_the_reboot_point_taken():
    game = place(load_map("Extra Crispy"), {42: (7, 2, "left"), 7: (0, 0, "bottom")})
    out = execute(game, 42, "MoveI")
    assert out[-2:] == [(MOV, {"clientID": 7, "x": 1, "y": 0}), (MOV, {"clientID": 42, "x": 0, "y": 0})]
    assert game.robots[7].facing == "bottom"


def test_robots_start_facing_the_antenna_orientation():
    for name, facing in (("Death Trap", "left"), ("Dizzy Highway", "right")):
        game = Game(load_map(name), [1, 2], random.Random(0))
        game.start()
        game.timeout()
        assert game.robots[1].facing == facing


def test_round_end_waits_for_reboot_direction():
    board = make_board({(7, 5): [{"type": "RestartPoint", "orientations": ["left"]}]})
    game = Game(board, [1, 2], random.Random(0))
    for pid, (x, y) in ((1, (2, 2)), (2, (4, 4))):
        robot = game.robots[pid]
        robot.x, robot.y, robot.start = x, y, (x, y)
        robot.auto = True
    # the last 9 cards are the hand; the timer then draws the next 5 into the registers
    game.robots[1].draw[-14:-9] = ["TurnLeft"] * 4 + ["Worm"]  # the Worm lands in register 1
    game.robots[2].draw[-14:-9] = ["TurnLeft"] * 5
    game.piles["Worm"] -= 1
    gen = game._programming()
    game._gen = _chain(game, gen)
    game._advance(None)
    game.timeout()  # the timer: registers filled, activation runs (all auto), then the round-end grace
    assert game.wait.kind == "reboot_grace" and game.wait.pids == (1,)
    messages(game)
    assert game.on_reboot_direction(1, "bottom") is None
    out = messages(game)
    assert out[:2] == [("PlayerTurning", {"clientID": 1, "rotation": "clockwise"})] * 2
    assert ("ActivePhase", {"phase": 2}) in out


def _chain(game, programming):
    yield from programming
    yield from game._activation()
    yield from game._end_of_round()
    yield from game._programming()
