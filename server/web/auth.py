"""Who may see the pages: everyone on loopback; elsewhere only who knows the admin passphrase.

Off loopback every page and API call asks for the passphrase: a page sends the browser to
``/login``, an API call gets 401. The browser keeps a cookie holding an HMAC of the passphrase
under a key made at start-up (the passphrase itself never goes into a cookie); scripts send
``Authorization: Bearer PASSPHRASE``. Checks share the lobby's :class:`PassphraseGate` when
there is a lobby (limits per peer address with a global ceiling for peers that just failed, so
a flood of wrong passphrases never locks out an admin at another address, issue 34); every
wrong attempt is logged once per burst with the peer.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import logging
import secrets

from swc_local.server.limits import PassphraseGate
from swc_local.server.sections import DEFAULT_PASSWORD

COOKIE = "swc_viewer"
CHECKS_PER_SECOND = 5.0
"""Passphrase checks per peer a second when there is no lobby to share its gate (``swc view``)."""

log = logging.getLogger("swc.web")


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class Gate:
    def __init__(self, host: str, password: str | None, limiter: PassphraseGate | None = None) -> None:
        self.open = is_loopback(host)
        self.password = password
        self.limiter = limiter if limiter is not None else PassphraseGate(CHECKS_PER_SECOND, logger=log)
        self._key = secrets.token_bytes(32)

    @property
    def prepares_freely(self) -> bool:
        """Whether an admin action of the pages ("play from here") needs no passphrase: only on
        loopback, and only when the server has no passphrase of its own (none, or the public
        default ``examplepassword``, which anyone on this machine can read in the manual). A
        server whose admin set a passphrase keeps asking for it, on loopback too."""
        return self.open and self.password in (None, DEFAULT_PASSWORD)

    def check(self, passphrase: str | None, peer: str = "?") -> bool:
        """The admin passphrase of ``peer`` (an address), compared in constant time within the
        gate's limits (False when none is configured, or over a limit)."""
        if self.password is None or passphrase is None:
            return False
        return bool(self.limiter.check(peer, passphrase, self.password))

    def token(self) -> str:
        assert self.password is not None
        return hmac.new(self._key, self.password.encode(), hashlib.sha256).hexdigest()

    def allowed(self, headers: dict[str, str], cookies: dict[str, str], peer: str = "?") -> bool:
        if self.open:
            return True
        if self.password is None:
            return False
        cookie = cookies.get(COOKIE)
        if cookie is not None and secrets.compare_digest(cookie, self.token()):
            return True
        bearer = headers.get("authorization", "")
        return bearer.startswith("Bearer ") and self.check(bearer[len("Bearer "):], peer)
