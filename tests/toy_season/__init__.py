"""A toy season of the XML family (modern dialect, 2025 envelope) added the way a real one is:
its folder and one line in the registry's tuple (ARCHITECTURE.md, "Where new things go").

The game ("Linie"): each team has a token on a line of ten fields, starting at 0; a move goes
``<from x/>`` to ``<to x/>`` one or two fields ahead.  After six moves the farther token wins.
Every part a season has is here, each in the file a real season keeps it in: ``entry.py`` (the
value), ``rules.py``, ``xmlmap.py``, ``plugin.py`` (on :class:`XmlPlugin`), ``view.py``,
``pointing.py``.  tests/packaging/test_toy_season.py serves it, seats a person by pointing,
matches, replays, plays a tournament and a pytest fixture with it.

Why :func:`register` patches the tuple (the smallest honest mechanism): the registry's tuple is
a plain tuple of values, so a test adds the value for its own duration with ``monkeypatch``, as
tests/toy/ adds a family; an entry point or a settings key would be machinery the real seasons do
not use.  A process that the tools start (the reference bot of ``swc match``) cannot see a
monkeypatch, so :func:`register` also points the client layer's XML reference bot
(client/ladder.py ``XML_BOT``) at ``python -m tests.toy_season``, which adds the value the same
way and then runs the reference bot unchanged: the season itself names no client (issue 42).
"""

from __future__ import annotations

FOLDER_FILES = ("__init__.py", "__main__.py", "entry.py", "rules.py", "xmlmap.py", "plugin.py", "view.py", "pointing.py")


def register(monkeypatch) -> list[tuple[str, str]]:
    """Add the toy's value to the registry's tuple for one test (the one line a season adds), and
    start the XML reference bot in processes that know the toy; (module, name) of each patch."""
    from swc_local.client import ladder
    from swc_local.games import registry

    from .entry import ENTRY

    monkeypatch.setattr(registry, "GAMES", (*registry.GAMES, ENTRY))
    monkeypatch.setattr(ladder, "XML_BOT", (ladder.PYTHON, "-m", "tests.toy_season"))
    return [("swc_local.games.registry", "GAMES"), ("swc_local.client.ladder", "XML_BOT")]
