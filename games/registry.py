"""Which games this server can host.

Adding a game means adding a package under ``games/`` and one line here; the server looks games
up only through :func:`get` and :func:`all_plugins`.
"""

from __future__ import annotations

import importlib

from swc_local.games.plugin import GamePlugin
from swc_local.protocol.element import Element

_PLUGINS: dict[str, str] = {
    "swc_2019_piranhas": "swc_local.games.piranhas.plugin",
    "swc_2018_hase_und_igel": "swc_local.games.hase_und_igel.plugin",
    "swc_2022_ostseeschach": "swc_local.games.ostseeschach.plugin",
    "swc_2026_piranhas": "swc_local.games.piranhas_2026.plugin",
    "swc_2025_hase_und_igel": "swc_local.games.hase_und_igel_2025.plugin",
    "swc_2027_blokus": "swc_local.games.blokus.plugin",
}

_SHORT_NAMES: dict[str, str] = {
    "piranhas": "swc_2019_piranhas",
    "hase_und_igel": "swc_2018_hase_und_igel",
    "ostseeschach": "swc_2022_ostseeschach",
    "piranhas_2026": "swc_2026_piranhas",
    "hase_und_igel_2025": "swc_2025_hase_und_igel",
    "blokus": "swc_2027_blokus",
}


def game_types() -> list[str]:
    return list(_PLUGINS)


def resolve(name: str) -> str:
    """Accept a full game type or a short name (``piranhas``) and return the game type."""
    return _SHORT_NAMES.get(name, name)


def get(game_type: str) -> GamePlugin | None:
    """The plugin for ``game_type``, or None when no such game is known."""
    module_name = _PLUGINS.get(game_type)
    if module_name is None:
        return None
    return importlib.import_module(module_name).PLUGIN


def all_plugins() -> list[GamePlugin]:
    return [plugin for name in _PLUGINS if (plugin := get(name)) is not None]


def plugin_for_state(state: Element) -> GamePlugin | None:
    """The plugin whose XML names this memento ``<state>``'s class, if any.

    Several years call their state class ``state`` (Hase und Igel 2018, Ostseeschach 2022), so a
    plugin may define ``recognizes_state(state) -> bool`` to claim its own states; a plugin with
    that method is asked first, the first plugin without one that names the class is the fallback.
    """
    fallback = None
    for game_type in _PLUGINS:
        try:
            plugin = get(game_type)
        except Exception:  # a game package that does not import must not hide the others
            continue
        if plugin is None or state.get("class") not in plugin.data_classes:
            continue
        recognizes = getattr(plugin, "recognizes_state", None)
        if recognizes is None:
            fallback = fallback or plugin
        elif recognizes(state):
            return plugin
    return fallback
