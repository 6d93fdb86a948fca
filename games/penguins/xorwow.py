"""Kotlin's ``Random(seed)`` (``kotlin.random.XorWowRandom``), for the official Penguins boards.

The 23.0.3 server draws a board seed, prints ``Board Seed: N`` and fills the board from
``Random(N)`` (penguins_2023.md §2).  Reproducing its generator bit for bit is what lets a seed
printed by the official server (or logged by this one) give the same board here; the golden
``seeds.txt`` pins every captured pair.

What the Kotlin standard library (1.5) does, restated from its documented algorithm (Marsaglia's
"xorwow", as the library's docs name it):

* ``Random(seed: Int)`` is ``XorWowRandom(seed, seed shr 31)``; the state is
  ``x = seed1, y = seed2, z = 0, w = 0, v = seed1.inv()``, ``addend = (seed1 shl 10) xor
  (seed2 ushr 4)``, then 64 outputs are discarded.
* ``nextInt()``: ``t = x; t ^= t ushr 2; x = y; y = z; z = w; w = v; t = (t xor (t shl 1)) xor
  v xor (v shl 4); v = t; addend += 362437; return t + addend`` (all 32-bit, wrapping).
* ``nextInt(until)`` (``from = 0``): a power of two ``n`` takes the top ``log2 n`` bits of one
  ``nextInt()``; otherwise ``bits = nextInt() ushr 1; v = bits % n`` is retried while
  ``bits - v + (n - 1)`` overflows a signed int (the unbiased rejection loop).
"""

from __future__ import annotations

_MASK = 0xFFFFFFFF


def _signed(value: int) -> int:
    value &= _MASK
    return value - (1 << 32) if value & 0x80000000 else value


class XorWow:
    """``kotlin.random.Random(seed)`` for a 32-bit signed ``seed``."""

    __slots__ = ("_x", "_y", "_z", "_w", "_v", "_addend")

    def __init__(self, seed: int):
        seed1 = seed & _MASK
        seed2 = (_signed(seed) >> 31) & _MASK  # seed shr 31: 0 or -1
        self._x, self._y, self._z, self._w = seed1, seed2, 0, 0
        self._v = ~seed1 & _MASK
        self._addend = ((seed1 << 10) ^ (seed2 >> 4)) & _MASK
        if not (self._x | self._y | self._z | self._w | self._v):
            raise ValueError("initial state must have at least one non-zero element")
        for _ in range(64):
            self.next_int()

    def next_int(self) -> int:
        """The next signed 32-bit ``nextInt()``."""
        t = self._x
        t ^= t >> 2
        self._x, self._y, self._z = self._y, self._z, self._w
        v0 = self._v
        self._w = v0
        t = (t ^ (t << 1) ^ v0 ^ (v0 << 4)) & _MASK
        self._v = t
        self._addend = (self._addend + 362437) & _MASK
        return _signed(t + self._addend)

    def next_below(self, n: int) -> int:
        """``nextInt(n)``: a value in ``0 until n`` (``n > 0``)."""
        if n <= 0:
            raise ValueError(f"bound must be positive, was {n}")
        if n & -n == n:
            bit_count = n.bit_length() - 1
            bits = self.next_int() & _MASK  # drawn even for n = 1 (takeUpperBits(0) is 0)
            return bits >> (32 - bit_count) if bit_count else 0
        while True:
            bits = (self.next_int() & _MASK) >> 1
            value = bits % n
            if _signed(bits - value + (n - 1)) >= 0:
                return value
