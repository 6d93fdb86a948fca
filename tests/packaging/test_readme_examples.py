"""Every Python example of README.md and of the documentation site (docs/**/*.md) runs, so
neither can drift from the code.

The examples are taken from the pages themselves at test time (an example on two pages, the
README's bot and the manual's, is one example).  The bot example (``my_bot.py``)
runs as written, with the ``--port``/``--reservation`` flags ``swc match`` passes it; the admin
example talks to ``localhost:13050`` as a reader would, so the test gives it its own server on a
free port and rewrites ``13050`` to that port.  The fixture example runs in a fresh pytest
project with the README's ``my_bot.py``; the match and replay sections run as written (slow).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from tests.helpers import REPOSITORY

README = REPOSITORY / "README.md"
PAGES = [README, *sorted((REPOSITORY / "docs").rglob("*.md"))]
TEXT = "\n".join(page.read_text() for page in PAGES)
EXAMPLES = list(dict.fromkeys(re.findall(r"```python\n(.*?)```", TEXT, flags=re.S)))

ROOT = README.parent


def _shell_block(needle: str) -> str:
    """The one ``sh`` block of the README and the site that contains ``needle``, comments and
    continuations removed."""
    (block,) = {b for b in re.findall(r"```sh\n(.*?)```", TEXT, flags=re.S) if needle in b}
    return re.sub(r"\s*#[^\n]*", "", block).replace("\\\n", " ")


def _environment() -> dict[str, str]:
    """The commands an example starts (``swc``, ``python``) are this virtual environment's."""
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    return env


def _example(*needles: str) -> str:
    (found,) = [code for code in EXAMPLES if all(needle in code for needle in needles)]
    return found


def _run(code: str, port: int, timeout: float = 60) -> subprocess.CompletedProcess:
    assert "13050" in code
    return subprocess.run(
        [sys.executable, "-c", code.replace("13050", str(port))],
        capture_output=True, text=True, timeout=timeout, env=_environment(),
    )


def test_the_readme_and_the_site_have_four_python_examples_and_each_is_covered():
    """A new Python example on any page needs its test (the README's bot is the manual's; the
    fixture's ladder example is tests/ladder/test_fixture_example.py's)."""
    assert len(EXAMPLES) == 4, [example.splitlines()[0] for example in EXAMPLES]
    covered = {_example("Client.connect"), _example("Admin.connect"), _example("def test_my_bot_plays_a_clean_game"),
               _example("def test_my_bot_beats_greedy")}
    assert covered == set(EXAMPLES)
    readme = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    assert readme == [_example("Client.connect")]  # the thirty-second example


def test_the_readme_is_short_and_links_only_to_pages_that_exist():
    text = README.read_text()
    assert len(text.splitlines()) <= 200
    links = re.findall(r"\]\((docs/[^)#]+)\)", text)
    assert links and all((REPOSITORY / link).is_file() for link in links), links


def test_the_readme_quick_match_as_written(tmp_path):
    """The README's thirty-second ``swc match`` with its ``my_bot.py``; --fail-on-irregular holds."""
    (tmp_path / "my_bot.py").write_text(_example("Client.connect"))
    (match,) = _shell_block("swc match piranhas --games 4 --parallel 2").strip().splitlines()
    done = subprocess.run(match, shell=True, cwd=tmp_path, capture_output=True, text=True, timeout=600, env=_environment())
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == "every game ended with a result"


@pytest.mark.slow
def test_the_readme_rate_as_written(tmp_path):
    """The README's ``swc rate`` with its ``my_bot.py``: two games instead of twenty, against a test
    ladder of Piranhas' random rung (the shipped table calibrates the games whose ladder was run)."""
    (tmp_path / "my_bot.py").write_text(_example("Client.connect"))
    (rate,) = _shell_block("--game piranhas --games 20").strip().splitlines()
    assert "--games 20" in rate
    ladder = tmp_path / "elo.json"
    ladder.write_text(json.dumps({"games": {"swc_2019_piranhas": {
        "rungs": [{"rung": "random", "elo": 0, "low": 0, "high": 0}], "measured": "a test's"}}}))
    command = rate.replace("--games 20", "--games 2") + f" --seed 1 --json --ladder {ladder}"
    done = subprocess.run(command, shell=True, cwd=tmp_path, capture_output=True, text=True, timeout=600, env=_environment())
    assert done.returncode == 0, done.stdout + done.stderr
    found = json.loads(done.stdout)
    assert found["played"] == found["rated"] == 2 and found["irregular"] == []
    assert found["against"][0]["rung"] == "random" and found["game"] == "swc_2019_piranhas"


def test_bot_example(swc_server, tmp_path):
    """``python my_bot.py --port N`` as written (its default is 13050)."""
    bot = _example("Client.connect")
    assert "13050" in bot and "--reservation" in bot
    (tmp_path / "my_bot.py").write_text(bot)
    opponent = subprocess.Popen(
        [sys.executable, "-m", "swc_local.tools.cli", "bot", "piranhas", "--port", str(swc_server.port)],
        env=_environment(), stdout=subprocess.DEVNULL,
    )
    try:
        done = subprocess.run([sys.executable, "my_bot.py", "--port", str(swc_server.port)], cwd=tmp_path,
                              capture_output=True, text=True, timeout=60, env=_environment())
    finally:
        opponent.wait(timeout=30)
    assert done.returncode == 0, done.stderr
    (line,) = done.stdout.splitlines()  # client.outcome: the result in words, not a repr
    assert re.fullmatch(r"(won|lost|draw) as (red|blue): REGULAR \d+/\d+ against REGULAR \d+/\d+ \(Gewinner/∅ Schwarm\).*",
                        line), line


@pytest.mark.slow
def test_match_and_replay_sections_as_written(tmp_path):
    """``swc match ... --player1 "python my_bot.py --port {port} --reservation {reservation}"``, then
    the Replays section's commands, whose glob must match exactly what the match wrote."""
    (tmp_path / "my_bot.py").write_text(_example("Client.connect"))
    (match,) = _shell_block("swc match piranhas --games 8").strip().splitlines()
    done = subprocess.run(match, shell=True, cwd=tmp_path, capture_output=True, text=True, timeout=600, env=_environment())
    assert done.returncode == 0, done.stdout + done.stderr
    assert "player1" in done.stdout and len(list((tmp_path / "replays" / "piranhas").glob("*.xml"))) == 8
    show, check = _shell_block("swc replay replays/piranhas/").strip().splitlines()
    assert len(list(tmp_path.glob(show.split()[2]))) == 1
    shown = subprocess.run(show, shell=True, cwd=tmp_path, capture_output=True, text=True, timeout=120, env=_environment())
    checked = subprocess.run(check, shell=True, cwd=tmp_path, capture_output=True, text=True, timeout=120, env=_environment())
    assert shown.returncode == 0 and checked.returncode == 0 and checked.stdout.startswith("ok"), checked.stdout


def test_every_path_the_readme_names_exists():
    """Maps are named as bundled (so they resolve after a non-editable install, from any folder);
    other paths in commands are made by a command."""
    from swc_local.games.reversixt.mapfile import bundled_maps

    text = TEXT
    assert not re.findall(r"[\w./-]+/[\w.-]+\.map\b", text)  # no path into the source tree
    maps = set(re.findall(r"(?:swc reversixt -m|--reversixt-map|reversixt --map) (\w+)", text))
    maps |= set(re.findall(r'reversixt_server\(map="(\w+)"', text))
    assert maps and maps <= set(bundled_maps()), sorted(maps)
    # each section writes into its own directory and replays from it, so its glob matches only
    # what it wrote
    written = re.findall(r"--replays? (replays/\S+)|--replay-dir (replays/\S+)", text)
    written = [a or b for a, b in written]
    assert len(written) == len(set(written)) >= 3, written
    replayed = {path.rsplit("/", 1)[0] for path in re.findall(r"swc replay (replays/\S+)", text)}
    assert replayed <= set(written), (replayed, written)


def test_admin_example(swc_server):
    assert swc_server.password == "examplepassword"
    done = _run(_example("Admin.connect"), swc_server.port, timeout=90)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line for line in lines if line.startswith("turn ")] == [
        "turn 0, RED to move", "turn 1, BLUE to move", "turn 2, RED to move"
    ]  # one board per step
    assert lines[-1].startswith("[('REGULAR', (") and lines[-1].count("'REGULAR'") == 2


def test_fixture_example(pytester, monkeypatch):
    monkeypatch.setenv("PATH", _environment()["PATH"])
    pytester.makepyfile(my_bot=_example("Client.connect"), test_my_bot=_example("def test_my_bot_plays_a_clean_game"))
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-s", timeout=120)
    result.assert_outcomes(passed=1)
