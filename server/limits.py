"""Limits that keep one client's abuse from costing anyone else (issue 15).

Why a global rate for passphrase checks rather than a per-address one: a brute force from many
addresses (or many connections from one) is stopped just as well, the cost per attempt is a
constant (no per-address history to search), and an attempt beyond the rate is answered at once
instead of being held open, so an attacker can never fill the connection limit with waiting
attempts.  The answer to an unchecked attempt is the official answer to a wrong passphrase, so
the attacker cannot tell a checked attempt from an unchecked one (no oracle).
"""

from __future__ import annotations

import trio


class TokenBucket:
    """At most ``rate`` events a second on average, bursts of up to ``burst`` (trio's clock)."""

    def __init__(self, rate: float, burst: float | None = None) -> None:
        self.rate = rate
        self.burst = max(1.0, burst if burst is not None else rate)  # at least one event fits
        self.tokens = self.burst
        self.updated: float | None = None

    def allow(self) -> bool:
        """Take one token if there is one; False means "over the rate, do not do the work"."""
        if self.rate <= 0:
            return True  # 0 or less: no limit
        now = trio.current_time()
        if self.updated is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False
