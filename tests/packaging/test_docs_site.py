"""The documentation site builds with ``mkdocs build --strict`` (as .ci/run builds it), and a new
game's page ``docs/games/<name>.md`` appears in the navigation without an edit of mkdocs.yml."""

from __future__ import annotations

import shutil
import subprocess
import sys

from tests.helpers import REPOSITORY


def test_the_site_builds_strictly_and_lists_a_new_game_page_by_itself(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    shutil.copytree(REPOSITORY / "docs", project / "docs")
    # docs/architecture.md includes ARCHITECTURE.md; docs/manual/java.md the files tests/java/ runs
    for name in ("mkdocs.yml", "ARCHITECTURE.md", "tests/java/SwcLocalTest.java", "tests/java/swc-local.yml"):
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPOSITORY / name, project / name)
    (project / "docs" / "games" / "a_new_game.md").write_text("# A new game\n\nIts page, [the differences](../differences.md).\n")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                          cwd=project, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "site" / "games" / "a_new_game" / "index.html").is_file()
    home = (tmp_path / "site" / "index.html").read_text()
    assert "A new game" in home and "Blokus 2027" in home  # in the navigation of every page


def test_a_broken_link_fails_the_strict_build(tmp_path):
    project = tmp_path / "project"
    (project / "docs").mkdir(parents=True)
    shutil.copy(REPOSITORY / "mkdocs.yml", project / "mkdocs.yml")
    (project / "docs" / "index.md").write_text("# Home\n\n[gone](no_such_page.md)\n")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                          cwd=project, capture_output=True, text=True, timeout=300)
    assert done.returncode != 0 and "no_such_page.md" in done.stderr
