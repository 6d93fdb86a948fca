"""Limits that keep one client's abuse from costing anyone else (issue 15).

Why a global rate for passphrase checks rather than a per-address one: a brute force from many
addresses (or many connections from one) is stopped just as well, the cost per attempt is a
constant (no per-address history to search), and an attempt beyond the rate is answered at once
instead of being held open, so an attacker can never fill the connection limit with waiting
attempts.  The answer to an unchecked attempt is the official answer to a wrong passphrase, so
the attacker cannot tell a checked attempt from an unchecked one (no oracle).
"""

from __future__ import annotations

import errno
import os
import secrets

import trio


class TokenBucket:
    """At most ``rate`` events a second on average, bursts of up to ``burst`` (trio's clock, or
    ``clock``: the sans-I/O Robo Rally lobby passes ``time.monotonic``)."""

    def __init__(self, rate: float, burst: float | None = None, clock=None) -> None:
        self.clock = clock or trio.current_time
        self.rate = rate
        self.burst = max(1.0, burst if burst is not None else rate)  # at least one event fits
        self.tokens = self.burst
        self.updated: float | None = None

    def allow(self) -> bool:
        """Take one token if there is one; False means "over the rate, do not do the work"."""
        if self.rate <= 0:
            return True  # 0 or less: no limit
        now = self.clock()
        if self.updated is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


PEERS_KEPT = 4096
"""Peer addresses whose passphrase history :class:`PassphraseGate` keeps (the least recently seen
is forgotten first): many addresses cannot grow its memory."""
SUSPECT_SECONDS = 60.0
"""How long after its last wrong passphrase a peer counts against the global ceiling."""


class PassphraseGate:
    """Which passphrase attempts are compared, per peer address, under a global ceiling (issue 34).

    Why not one global rate (issue 15's): an attacker sending more than the rate made every check
    fail, the right passphrase of the admin included, at the viewer and at the XML door alike.
    Now each peer address has its own bucket (``per_peer`` checks a second, a burst of
    ``burst_seconds`` of them), and the global bucket (``rate``) is the ceiling only for peers
    that sent a wrong passphrase in the last ``SUSPECT_SECONDS``: a flood from one or many
    addresses is held to the rate, and an admin at another address who has not just failed is
    always checked, so the right passphrase gets through whatever others send.  (An admin behind
    the attacker's own address shares its limit: the address is all the server can tell apart.)
    Wrong attempts are logged once per burst with the peer (:class:`BurstLog`, per peer).
    ``rate`` 0 or less: no limit at all.
    """

    def __init__(self, rate: float, per_peer: float | None = None, *, burst_seconds: float = 4.0,
                 logger=None, clock=None, peers_kept: int = PEERS_KEPT) -> None:
        self.clock = clock or trio.current_time
        self.rate = rate
        self.per_peer = rate if per_peer is None else per_peer
        self.burst_seconds = burst_seconds
        self.ceiling = TokenBucket(rate, burst=burst_seconds * rate, clock=self._now)
        self.logger = logger
        self.peers_kept = peers_kept
        self.peers: dict[str, _Peer] = {}  # insertion order = least recently seen first
        self.checks = 0  # attempts compared (the rest were over a limit)
        self.unchecked = 0

    def _now(self) -> float:
        return self.clock()

    def _peer(self, peer: str) -> _Peer:
        state = self.peers.pop(peer, None)
        if state is None:
            state = _Peer(TokenBucket(self.per_peer, burst=self.burst_seconds * self.per_peer, clock=self._now),
                          BurstLog(self.logger, clock=self._now) if self.logger is not None else None)
            while len(self.peers) >= self.peers_kept:
                del self.peers[next(iter(self.peers))]
        self.peers[peer] = state  # the most recently seen last
        return state

    def admit(self, peer: str) -> bool:
        """True: compare this attempt now; False: answer it as a wrong one, unchecked."""
        if self.rate <= 0:
            self.checks += 1
            return True
        state = self._peer(peer)
        allowed = state.bucket.allow()
        if allowed and state.failed_at is not None and self._now() - state.failed_at < SUSPECT_SECONDS:
            allowed = self.ceiling.allow()
        if allowed:
            self.checks += 1
        else:
            self.unchecked += 1
        return allowed

    def failed(self, peer: str, what: str = "wrong admin passphrase") -> None:
        """A wrong (or unchecked) attempt of ``peer``: it counts against the ceiling for a while,
        and the log says so once per burst."""
        state = self._peer(peer)
        state.failed_at = self._now()
        if state.log is not None:
            state.log.note("%s from %s", what, peer)

    def succeeded(self, peer: str) -> None:
        self._peer(peer).failed_at = None

    def check(self, peer: str, given: str | None, password: str | None) -> bool | None:
        """True (the right passphrase), False (wrong), None (not compared: over a limit; the
        caller answers it as a wrong one)."""
        if not self.admit(peer):
            self.failed(peer, "admin passphrase not checked (over the rate)")
            return None
        if password is not None and given is not None and secrets.compare_digest(given.encode(), password.encode()):
            self.succeeded(peer)
            return True
        self.failed(peer)
        return False


class _Peer:
    __slots__ = ("bucket", "log", "failed_at")

    def __init__(self, bucket: TokenBucket, log) -> None:
        self.bucket = bucket
        self.log = log
        self.failed_at: float | None = None


def peer_address(peer: str) -> str:
    """The address of a transport's peer name ``host:port`` (what :class:`PassphraseGate` limits by)."""
    return peer.rsplit(":", 1)[0] if ":" in peer else peer


# ---------------------------------------------------------------------- one budget per process

RESERVED_DESCRIPTORS = 64
"""File descriptors kept out of the connection budget: listening sockets, log and replay files
(written one at a time), the interpreter's own files, a DNS lookup."""


class ConnectionBudget:
    """Open connections of every door of one process together, below the file limit (issue 21).

    Why one budget rather than one per door: every connection costs a file descriptor of the one
    process, so three doors of 1,000 each at ``ulimit -n 1024`` all failed at once. A door still
    has its own cap (``maxConnections``) below this budget.
    """

    def __init__(self, total: int) -> None:
        self.total = max(1, total)
        self.used = 0

    def try_acquire(self) -> bool:
        if self.used >= self.total:
            return False
        self.used += 1
        return True

    def force_acquire(self) -> None:
        """Take a slot beyond the total, when another connection was just told to close for it."""
        self.used += 1

    def release(self) -> None:
        self.used = max(0, self.used - 1)

    @property
    def free(self) -> int:
        return max(0, self.total - self.used)


_budget: ConnectionBudget | None = None


def raise_file_limit() -> tuple[int, int]:
    """Raise the soft RLIMIT_NOFILE to the hard limit where the system allows; (before, after).

    Unlimited or unknown limits count as a large number (no budget problem)."""
    try:
        import resource
    except ImportError:  # not on this system (Windows): no limit known
        return 1 << 16, 1 << 16
    infinite = resource.RLIM_INFINITY
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    before = soft
    target = (1 << 20) if hard == infinite else hard  # an unlimited hard limit: a large finite soft one
    if soft != infinite and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):  # not allowed here (a container's own ceiling): keep the soft limit
            pass
    return (1 << 20 if before == infinite else before), (1 << 20 if soft == infinite else soft)


def process_budget() -> ConnectionBudget:
    """The process's budget (made from the current soft file limit on first use; ``swc serve``
    raises that limit first, :func:`start_process_budget`)."""
    global _budget
    if _budget is None:
        _budget = ConnectionBudget(_budget_for(_file_limit()))
    return _budget


def _file_limit() -> int:
    try:
        import resource
    except ImportError:
        return 1 << 16
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return 1 << 20 if soft == resource.RLIM_INFINITY else soft


def _budget_for(file_limit: int) -> int:
    return max(16, file_limit - RESERVED_DESCRIPTORS)


def start_process_budget(logger) -> ConnectionBudget:
    """At start: raise the file limit where allowed, size the budget to it and say so."""
    before, after = raise_file_limit()
    budget = process_budget()
    budget.total = _budget_for(after)
    if after != before:
        logger.info("file limit raised from %d to %d; %d connections at once for all doors", before, after, budget.total)
    else:
        logger.info("file limit %d; %d connections at once for all doors", after, budget.total)
    return budget


class BurstLog:
    """One log line for a burst of like events (refused connections, failed accepts), then at most
    one line every ``interval`` seconds with how many happened meanwhile: a flood of thousands of
    tries costs a few lines, not one each."""

    def __init__(self, logger, interval: float = 10.0, clock=None) -> None:
        self.logger = logger
        self.interval = interval
        self.clock = clock or _monotonic
        self.last: float | None = None
        self.suppressed = 0

    def note(self, message: str, *args) -> None:
        now = self.clock()
        if self.last is not None and now - self.last < self.interval:
            self.suppressed += 1
            return
        if self.suppressed:
            message += " (%d more like it since the last such line)"
            args = args + (self.suppressed,)
        self.logger.warning(message, *args)
        self.last, self.suppressed = now, 0


def _monotonic() -> float:
    import time

    return time.monotonic()


ACCEPT_CAPACITY_ERRNOS = {errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.ENOBUFS}
"""accept() failures that mean "out of resources for now": retry later, as trio.serve_listeners
does, but without its traceback per try."""


async def accept_retrying(listener, trouble: BurstLog, prefix: str = ""):
    """The next connection; an accept that fails for lack of resources (no descriptors) is
    retried every 0.1 s and noted in ``trouble`` (a line per burst, never a traceback)."""
    while True:
        try:
            return await listener.accept()
        except OSError as error:
            if error.errno not in ACCEPT_CAPACITY_ERRNOS:
                raise
            trouble.note("%saccept failed (%s); retrying in 0.1 s", prefix, os.strerror(error.errno))
            await trio.sleep(0.1)
