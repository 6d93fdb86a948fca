"""XStream's readers of primitive attributes, shared by every XML game's wire mapping.

The official servers decode a move's numeric attributes with XStream's ``IntConverter``,
which calls Java's ``Integer.decode`` and accepts what it accepts: a sign, then decimal,
``0x``/``0X``/``#`` hexadecimal or a leading ``0`` for octal (so ``08`` is an error); values up to ``0xFFFFFFFF``
wrap to negative ints as Java's unsigned parse does.  The reader lives in the codec layer
because it is a fact of the wire, not of any game; each game turns the ``ValueError`` into
its own malformed-move error.
"""

from __future__ import annotations

import re

_JAVA_INT = re.compile(r"([+-]?)(?:(0[xX]|#)([0-9a-fA-F]+)|(0)([0-7]+)|(0|[1-9][0-9]*))\Z")


def java_int(text: str) -> int:
    """``text`` as XStream's int converter reads it; ValueError where Java would throw."""
    match = _JAVA_INT.match(text)
    if match is None:
        raise ValueError(f"not an integer: {text!r}")
    sign, _, hex_digits, _, oct_digits, dec_digits = match.groups()
    if hex_digits is not None:
        value = int(hex_digits, 16)
    elif oct_digits is not None:
        value = int(oct_digits, 8)
    else:
        value = int(dec_digits)
    if sign == "-":
        value = -value
    if not -(2**31) <= value <= 0xFFFFFFFF:
        raise ValueError(f"integer out of range: {text!r}")
    return value - 2**32 if value >= 2**31 else value
