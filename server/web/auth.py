"""Who may see the pages: everyone on loopback; elsewhere only who knows the admin passphrase.

Off loopback every page and API call asks for the passphrase: a page sends the browser to
``/login``, an API call gets 401. The browser keeps a cookie holding an HMAC of the passphrase
under a key made at start-up (the passphrase itself never goes into a cookie); scripts send
``Authorization: Bearer PASSPHRASE``. Checks share the lobby's rate limit when there is a lobby.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets

COOKIE = "swc_viewer"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class Gate:
    def __init__(self, host: str, password: str | None, limiter=None) -> None:
        self.open = is_loopback(host)
        self.password = password
        self.limiter = limiter  # an object with allow() -> bool (the lobby's passphrase gate)
        self._key = secrets.token_bytes(32)

    def check(self, passphrase: str | None) -> bool:
        """The admin passphrase, compared in constant time (False when none is configured)."""
        if self.password is None or passphrase is None:
            return False
        if self.limiter is not None and not self.limiter.allow():
            return False
        return secrets.compare_digest(passphrase.encode(), self.password.encode())

    def token(self) -> str:
        assert self.password is not None
        return hmac.new(self._key, self.password.encode(), hashlib.sha256).hexdigest()

    def allowed(self, headers: dict[str, str], cookies: dict[str, str]) -> bool:
        if self.open:
            return True
        if self.password is None:
            return False
        cookie = cookies.get(COOKIE)
        if cookie is not None and secrets.compare_digest(cookie, self.token()):
            return True
        bearer = headers.get("authorization", "")
        return bearer.startswith("Bearer ") and self.check(bearer[len("Bearer "):])
