"""The ReversiXT frame codec: header checks before payload, size limit, never another exception."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from swc_local.protocol import reversixt as wire


def test_examples_from_the_spec():
    assert wire.encode_group(7).hex() == "010000000107"
    assert wire.encode_request(1000, 1).hex() == "0400000005000003e801"
    assert wire.encode_move(2, 0, 0).hex() == "05000000050002000000"
    assert wire.encode_moved(2, 0, 0, 1).hex() == "0600000006000200000001"
    assert wire.encode_disq(2).hex() == "070000000102"
    assert wire.encode_end_phase1().hex() == "0800000000"
    assert wire.encode_end_game().hex() == "0900000000"


def test_map_length_is_size_mod_65536():
    data = b"x" * 65616
    frame = wire.encode_map(data)
    assert frame[:5].hex() == "0200000050" and frame[5:] == data[:80]


def test_frame_in_pieces_is_one_frame():
    reader = wire.FrameReader()
    data = wire.encode_move(3, 4, 0)
    for piece in (data[:3], data[3:7], data[7:]):
        assert reader.next_frame() is None
        reader.feed(piece)
    frame = reader.next_frame()
    assert frame.type == wire.MOVE and wire.decode_move(frame.payload) == wire.Move(3, 4, 0)


@pytest.mark.parametrize("header", ["0500000006", "057fffffff", "2a00000002", "0100000002", "0200000010"])
def test_bad_header_is_refused_before_any_payload(header):
    reader = wire.FrameReader()
    reader.feed(bytes.fromhex(header))
    with pytest.raises(wire.FrameError) as error:
        reader.next_frame()
    assert "invalid hdr.type or invalid hdr.len" in str(error.value)


def test_wrong_known_type_is_read_whole():
    reader = wire.FrameReader()
    reader.feed(wire.encode_end_game() + wire.encode_group(1))
    assert [f.type for f in reader.frames()] == [wire.END_GAME, wire.GROUP]


def test_negative_coordinate_reads_unsigned():
    assert wire.decode_move(bytes.fromhex("ffff000000")) == wire.Move(65535, 0, 0)


@given(st.lists(st.binary(max_size=40), max_size=20), st.booleans())
def test_reader_never_raises_anything_else(pieces, server_side):
    reader = wire.FrameReader(server_side=server_side, max_payload=16)
    try:
        for piece in pieces:
            reader.feed(piece)
            for frame in reader.frames():
                assert frame.type in wire.NAMES
                if frame.type != wire.MAP:
                    assert len(frame.payload) == wire.FIXED_LENGTH[frame.type]
                else:
                    assert len(frame.payload) <= 16
    except wire.FrameError:
        with pytest.raises(wire.FrameError):
            reader.next_frame()
    assert reader.pending <= sum(map(len, pieces))


@given(st.integers(0, 65535), st.integers(0, 65535), st.integers(0, 255))
def test_move_round_trip(x, y, special):
    reader = wire.FrameReader()
    reader.feed(wire.encode_move(x, y, special))
    assert wire.decode_move(reader.next_frame().payload) == wire.Move(x, y, special)
