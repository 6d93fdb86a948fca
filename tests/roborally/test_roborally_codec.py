"""Robo Rally codec: framing, the malformed-input table of spec §2, body validation, encoding."""

import json

import pytest
from hypothesis import given, settings, strategies as st

from swc_local.protocol.roborally import (
    CodecError, FieldError, Incoming, LineDecoder, LineTooLong, Malformed, ServerOnly, encode, parse_body,
)


def line(message_type, body):
    return (json.dumps({"messageType": message_type, "messageBody": body}) + "\n").encode()


def test_lines_with_lf_and_crlf_and_blank_lines():
    decoder = LineDecoder()
    data = line("Alive", {}) + b"\r\n   \n" + line("SetStatus", {"ready": True}).replace(b"\n", b"\r\n")
    events = decoder.feed(data[:7]) + decoder.feed(data[7:])
    assert events == [Incoming("Alive", {}), Incoming("SetStatus", {"ready": True})]


@pytest.mark.parametrize("raw, answer", [
    (b"\xff\xfe{}", Malformed("Malformed JSON")),
    (b"{not json", Malformed("Malformed JSON")),
    (b'{"messageType":"Alive","messageBody":{}} {}', Malformed("Malformed JSON")),
    (b"[1, 2]", Malformed("Malformed message")),
    (b'"Alive"', Malformed("Malformed message")),
    (b'{"messageType": 5, "messageBody": {}}', Malformed("Malformed message")),
    (b'{"messageType": "Alive"}', Malformed("Malformed message")),
    (b'{"messageType": "Alive", "messageBody": []}', Malformed("Malformed message")),
    (b'{"messageType": "Hello", "messageBody": {}}', Malformed("Unknown message type: Hello")),
    (b'{"messageType": "TimerStarted", "messageBody": {}}', ServerOnly("TimerStarted")),
    (b'{"messageType": "Welcome", "messageBody": {"clientID": 3}}', ServerOnly("Welcome")),
    (b'{"messageType": "MapSelected", "messageBody": {"map": "x"}}', Incoming("MapSelected", {"map": "x"})),
])
def test_malformed_input_table(raw, answer):
    assert LineDecoder().feed(raw + b"\n") == [answer]


def test_line_over_the_limit_raises_and_stays_failed():
    decoder = LineDecoder(max_line_bytes=100)
    assert decoder.feed(b"x" * 100) == []
    with pytest.raises(LineTooLong):
        decoder.feed(b"xx")
    with pytest.raises(LineTooLong):
        decoder.feed(b"\n")


def test_line_of_exactly_the_limit_is_read():
    decoder = LineDecoder(max_line_bytes=64)
    body = b'{"messageType":"Alive","messageBody":{}}'
    padded = body + b" " * (64 - len(body))
    assert decoder.feed(padded + b"\r\n") == [Incoming("Alive", {})]


def test_default_limit_is_one_mebibyte():
    decoder = LineDecoder()
    assert decoder.feed(b" " * (1 << 20) + b"\n") == []
    with pytest.raises(LineTooLong):
        LineDecoder().feed(b" " * ((1 << 20) + 2) + b"\n")


@pytest.mark.parametrize("message_type, body, field", [
    ("HelloServer", {"group": 7, "isAI": False, "protocol": "Version 1.0"}, "group"),
    ("HelloServer", {"group": "g", "isAI": "yes", "protocol": "Version 1.0"}, "isAI"),
    ("PlayerValues", {"name": 5, "figure": 1}, "name"),
    ("SetStatus", {"ready": 1}, "ready"),
    ("SendChat", {"message": "hi"}, "to"),
    ("SendChat", {"message": "hi", "to": 1.5}, "to"),
    ("SetStartingPoint", {"x": "1", "y": 2}, "x"),
    ("SetStartingPoint", {"x": 1, "y": True}, "y"),
    ("PlayCard", {"card": None}, "card"),
    ("SelectedDamage", {"cards": "Virus"}, "cards"),
])
def test_field_errors_name_the_field(message_type, body, field):
    with pytest.raises(FieldError) as error:
        parse_body(message_type, body)
    assert error.value.field == field
    assert str(error.value) == f"Invalid field: {field}"


def test_lenient_integers_and_defaults():
    assert parse_body("SetStartingPoint", {"x": 4.0, "y": 2}).x == 4
    hello = parse_body("HelloServer", {"group": "g", "protocol": "Version 1.0"})
    assert hello.isAI is False and hello.clientID is None
    lab_bot = parse_body("HelloServer", {"protocol": "Version 1.0", "isAI": True})  # no group (spec §4.2)
    assert lab_bot.group == "" and lab_bot.isAI is True
    assert parse_body("SelectedCard", {"card": None, "register": 5}).register_ == 5


def test_encode_is_compact_and_validated():
    assert encode("Welcome", {"clientID": 42}) == b'{"messageType":"Welcome","messageBody":{"clientID":42}}\n'
    assert encode("ReceivedChat", {"message": "a\nb", "from": 1, "isPrivate": False}).count(b"\n") == 1
    assert encode("CardSelected", {"clientID": 1, "register": 5, "filled": True}).endswith(b'"register":5,"filled":true}}\n')
    with pytest.raises(CodecError):
        encode("Welcome", {"clientID": 1, "extra": 2})
    with pytest.raises(CodecError):
        encode("ActivePhase", {"phase": 7})
    with pytest.raises(CodecError):
        encode("HelloServer", {})


@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(max_size=60), max_size=8))
def test_decoder_never_raises_anything_but_its_own_error(chunks):
    decoder = LineDecoder(max_line_bytes=40)
    for chunk in chunks:
        try:
            events = decoder.feed(chunk)
        except CodecError:
            return
        for event in events:
            assert isinstance(event, (Incoming, Malformed, ServerOnly))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["HelloServer", "PlayerValues", "SetStatus", "MapSelected", "SendChat", "SetStartingPoint",
                        "SelectedCard", "PlayCard", "SelectedDamage", "RebootDirection", "Alive"]),
       st.dictionaries(st.sampled_from(["group", "isAI", "protocol", "name", "figure", "ready", "map", "message", "to",
                                        "x", "y", "card", "register", "cards", "direction"]), json_values, max_size=4))
def test_body_validation_never_raises_anything_but_its_own_error(message_type, body):
    try:
        parse_body(message_type, body)
    except CodecError:
        pass
    LineDecoder().feed(json.dumps({"messageType": message_type, "messageBody": body}).encode() + b"\n")
