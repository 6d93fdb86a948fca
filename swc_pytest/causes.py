"""A seat's cause and score parts as a bot's test reads them (the ``swc_server`` fixture).

Apart from swc_pytest/server.py so that the plugin's assertion hook (swc_pytest/plugin.py) can
know a :class:`Cause` without importing the server at pytest's start.
"""

from __future__ import annotations


class Cause(str):
    """A seat's cause (``"CRASHED"``), equal to that text, that knows its reason: a failing
    ``assert game.bot.cause == "REGULAR"`` explains itself with the reason (the plugin's
    :func:`explain_comparison`), and its repr carries it (``'CRASHED' (exited with code 1 before
    it joined; last output: ModuleNotFoundError: ...)``) wherever else it is shown."""

    reason: str | None

    def __new__(cls, cause: str, reason: str | None = None) -> "Cause":
        made = super().__new__(cls, cause)
        made.reason = reason
        return made

    def __repr__(self) -> str:
        text = super().__repr__()
        return f"{text} ({self.reason})" if self.reason else text

    def __reduce__(self):
        return Cause, (str(self), self.reason)


def typed_part(text: str) -> int | float | str:
    """A score part as the number it is (``"2"`` -> 2, ``"3.5"`` -> 3.5); a part that is no
    number stays its text, as the server wrote it."""
    for kind in (int, float):
        try:
            return kind(text)
        except (TypeError, ValueError):
            continue
    return text


def explain_comparison(op: str, left: object, right: object) -> list[str] | None:
    """pytest's explanation of ``cause == "REGULAR"`` when ``cause`` is a :class:`Cause` with a
    reason: the reason on a line of its own, whole (pytest cuts a long repr in the first line)."""
    causes = [side for side in (left, right) if isinstance(side, Cause) and side.reason]
    if op != "==" or not causes:
        return None
    return [f"{str(left)!r} == {str(right)!r}", f"the cause {str(causes[0])}: {causes[0].reason}"]
