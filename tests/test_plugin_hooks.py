"""The optional members of a game plugin and of its games are hooks with defaults
(games/plugin.py PluginHooks, GameHooks), declared by every game the registry serves."""

from __future__ import annotations

import random

from swc_local.games import registry
from swc_local.games.plugin import ENVELOPE_2022, GameHooks, PluginHooks
from swc_local.protocol.element import Element


def test_every_xml_game_declares_the_hooks():
    plugins = registry.all_plugins()
    assert len(plugins) == 7
    for plugin in plugins:
        assert isinstance(plugin, PluginHooks), plugin.game_type
        assert isinstance(plugin.new_game(random.Random(1)), GameHooks), plugin.game_type


def test_the_defaults():
    plugin, game = PluginHooks(), GameHooks()
    assert plugin.envelope == ENVELOPE_2022 and plugin.season is None
    assert plugin.recognizes_state(Element("state")) is None
    assert game.move_text(("a", 1)) == "('a', 1)" and game.early_outcome() is None


def test_a_season_claims_its_own_states_and_a_shared_class_falls_back():
    # several seasons call their state class "state": the plugins that recognize it decide
    for plugin in registry.all_plugins():
        state = plugin.new_game(random.Random(1)).state_element()
        assert registry.plugin_for_state(state) is plugin, plugin.game_type
