"""Map files: every load-time error of the reference with its text, accepted oddities, rendering."""

from __future__ import annotations

import re

import pytest

from swc_local.games.reversixt.mapfile import MapError, load_map, parse_map
from swc_local.games.reversixt.rules import State
from tests.reversixt_golden import GOLDEN, MAPS

REJECTED = sorted(p.stem for p in (GOLDEN / "map_rejected").glob("bad_*.txt") if p.stem != "bad_final_no_moves_2p")


@pytest.mark.parametrize("name", REJECTED)
def test_rejected_map_gives_the_reference_reason(name):
    text = (GOLDEN / "map_rejected" / f"{name}.txt").read_text()
    expected = re.search(r'Loading board from file "[^"]*"\.\.\. (.*)\n', text).group(1)
    with pytest.raises(MapError) as error:
        load_map(str(MAPS / f"{name}.map"))
    assert error.value.reason == expected
    assert error.value.line is not None and f"line {error.value.line}, column" in str(error.value)


def test_error_names_line_and_column():
    with pytest.raises(MapError) as error:
        parse_map(b"2\n0\n0 0\n3 3\n1 2 0\n2 1 q\n0 0 0\n")
    assert (error.value.line, error.value.column) == (6, 5)
    assert str(error.value) == "line 6, column 5: invalid square 'q' at (2,1)"


@pytest.mark.parametrize("name", sorted(p.stem for p in (GOLDEN / "map_accepted").glob("*.txt")))
def test_accepted_oddities_load(name):
    load_map(str(MAPS / f"{name}.map"))


def test_counts_are_unsigned_bytes_and_numbers_read_like_strtol():
    negative = load_map(str(MAPS / "load_negative_counts_2p.map"))
    assert (negative.overwrites, negative.bombs, negative.strength) == (255, 255, 255)
    suffix = load_map(str(MAPS / "load_number_suffix_2p.map"))
    assert (suffix.players, suffix.height) == (2, 3)


def test_final_map_has_no_moves_and_no_bombs():
    game_map = load_map(str(MAPS / "bad_final_no_moves_2p.map"))
    state = State.initial(game_map)
    assert not any(state.can_place(p) for p in (1, 2)) and game_map.bombs == 0


def test_crlf_and_lf_maps_are_the_same_map():
    crlf, lf = load_map(str(MAPS / "crlf_2p.map")), load_map(str(MAPS / "tiny_2p.map"))
    assert crlf.squares == lf.squares and crlf.render() == lf.render()


@pytest.mark.parametrize("name", ["duel_2p", "octo_8p", "quad_4p", "trio_3p", "over64k_2p"])
def test_render_is_the_file_for_plain_maps(name):
    data = (MAPS / f"{name}.map").read_bytes()
    assert load_map(str(MAPS / f"{name}.map")).render() == data.decode()


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=300, deadline=None)
@given(st.one_of(
    st.binary(max_size=200),
    st.lists(st.sampled_from(["2", "3", "8", "9", "-1", "0", "1", "3x", "4", "c", "i", "b", "x", "-", "q", "00",
                              "<->", "<=>", "\n", "\r\n", " ", "99999999999999999999"]), max_size=80).map(lambda t: " ".join(t).encode()),
))
def test_parser_raises_only_map_errors(data):
    try:
        game_map = parse_map(data)
    except MapError as error:
        assert error.reason
    else:
        assert len(game_map.squares) == game_map.width * game_map.height
