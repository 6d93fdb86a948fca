"""The plugin as the server sees it: registry entry, Game contract, names, states, random player."""

from __future__ import annotations

import random
from collections import Counter

from swc_local.games import registry
from swc_local.games.hase_und_igel import movegen
from swc_local.games.hase_und_igel.entry import ENTRY as HASE_UND_IGEL_ENTRY
from swc_local.games.plugin import CLASSIC, RunningGame
from swc_local.protocol.element import parse

PLUGIN = HASE_UND_IGEL_ENTRY.plugin


def test_registry_finds_the_plugin():
    assert registry.get("swc_2018_hase_und_igel") is PLUGIN
    assert registry.resolve("hase_und_igel") == PLUGIN.game_type
    assert PLUGIN.display_name == "Hase und Igel" and PLUGIN.dialect == CLASSIC
    assert (PLUGIN.soft_timeout_ms, PLUGIN.hard_timeout_ms) == (2000, 10000)
    assert {"move", "sc.plugin2018.Move"} <= PLUGIN.move_classes
    assert not PLUGIN.move_classes & PLUGIN.data_classes
    assert [f.name for f in PLUGIN.score_fragments] == ["Gewinner", "∅ Feldnummer", "∅ Karotten"]
    assert [f.aggregation for f in PLUGIN.score_fragments] == ["SUM", "AVERAGE", "AVERAGE"]


def test_game_satisfies_the_contract():
    game = PLUGIN.new_game(random.Random(0))
    assert isinstance(game, RunningGame)
    assert game.turn == 0 and game.current_seat == 0 and game.outcome() is None


def test_display_names_show_in_state_and_winner():
    game = PLUGIN.new_game(random.Random(0))
    game.set_display_names(("alice", "b&'ob"))
    text = game.state_element().render(3)
    assert 'displayName="alice" color="RED"' in text
    assert 'displayName="b&amp;&apos;ob" color="BLUE"' in text
    winner = game.winner_element(1)
    assert list(winner.attrs) == ["class", "displayName", "color", "index", "carrots", "salads"]
    assert winner.attrs["class"] == "player" and winner.attrs["displayName"] == "b&'ob"


def test_initial_state_layout():
    game = PLUGIN.new_game(random.Random(0))
    state = game.state_element()
    assert state.attrs == {"class": "state", "turn": "0", "startPlayer": "RED",
                           "currentPlayer": "RED"}
    assert [c.tag for c in state.children] == ["red", "blue", "board"]
    assert [t.text for t in state.find("red").find("cards").children] == [
        "TAKE_OR_DROP_CARROTS", "EAT_SALAD", "HURRY_AHEAD", "FALL_BACK"]
    assert len(state.find("board").findall("fields")) == 65


def test_game_from_state_round_trips_mid_game():
    rng = random.Random(4)
    game = PLUGIN.new_game(rng)
    for _ in range(17):
        game.apply(game.current_seat, PLUGIN.random_move(game, rng))
    text = game.state_element().render(3)
    again = PLUGIN.game_from_state(parse(text))
    assert again.state_element().render(3) == text
    assert PLUGIN.legal_moves(again) == PLUGIN.legal_moves(game)
    assert again.current_seat == 1


def test_random_move_is_uniform_over_legal_moves():
    game = PLUGIN.new_game(random.Random(0))
    moves = movegen.legal_moves(game.state)
    rng = random.Random(1)
    counts = Counter(PLUGIN.random_move(game, rng) for _ in range(200 * len(moves)))
    assert set(counts) == set(moves)
    assert min(counts.values()) > 100


def test_move_element_is_decodable_by_the_game():
    game = PLUGIN.new_game(random.Random(2))
    for move in PLUGIN.legal_moves(game):
        assert game.decode_move(parse(PLUGIN.move_element(move).render())) == move


def test_describe_marks_both_players():
    game = PLUGIN.new_game(random.Random(0))
    text = PLUGIN.describe(game)
    assert "turn 0, RED to move" in text and " 0SRB" in text
