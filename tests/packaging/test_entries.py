"""Each game's one value loads its parts with one loader (games/entry.py ``load_parts``), keeps
them, and travels between processes without them."""

from __future__ import annotations

import pickle
import subprocess
import sys

import pytest

from swc_local.games import registry

ENTRIES = registry.entries()


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda entry: entry.name)
def test_every_game_loads_its_parts_once_from_its_own_folder(entry):
    parts = entry.parts
    assert entry.parts is parts
    assert (parts.plugin is not None) == (entry.family == registry.XML)
    assert (parts.rules is not None) == (entry.family != registry.XML)
    package = type(entry).__module__.rpartition(".")[0]
    assert parts.view.__name__.startswith(package + ".") and parts.strategy.__name__.startswith(package + ".")
    assert entry.view is parts.view and entry.pointing is parts.pointing and entry.strategy is parts.strategy


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda entry: entry.name)
def test_a_value_with_its_parts_loaded_pickles_and_loads_them_again_on_the_other_side(entry):
    """A record read in a child process carries its game's value (server/xml/read_apart.py)."""
    entry.parts
    copy = pickle.loads(pickle.dumps(entry))
    assert (copy.game_type, copy.name, copy.family) == (entry.game_type, entry.name, entry.family)
    assert copy.view is entry.view


def test_a_process_that_plays_an_xml_season_imports_no_picture_encoder():
    """Why one loader costs a bot little: the views import nothing heavy at module level (games/svg.py)."""
    code = ("import sys\nfrom swc_local.games import registry\n"
            "for entry in registry.entries():\n    entry.plugin\n"
            "print(sorted(m for m in ('base64', 'html', 'struct', 'zlib') if m in sys.modules))")
    xml_only = code.replace("registry.entries():", "registry.of_family(registry.XML):")
    done = subprocess.run([sys.executable, "-c", xml_only], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr
