"""Java first-class (issue 43): what docs/manual/java.md shows a Java/Kotlin student, run as written.

- ``Player.java``: the tests' own small player with the official template's options, standing in
  for a student's player (random legal Piranhas 2026 moves on nothing but the JDK).
- ``SwcLocalTest.java``: the page's JUnit 5 example (``swc serve --port 0``, the port read from
  its log, the reference bot against the player), run with Debian's JDK and JUnit 5 (junit5) and
  the built ``swc`` executable, no Python on the PATH.
- ``swc-local.yml``: the page's GitHub Actions workflow; its ``run`` steps are run in order as
  bash scripts, as the runner does. The two ``uses`` steps are this machine's (the checkout is a
  project folder, setup-java is Debian's JDK), and ``./gradlew`` is :data:`GRADLE_STAND_IN`,
  since no Gradle can be downloaded here: it compiles with javac, runs the JUnit console launcher
  for ``test`` and writes the player's runnable jar for ``shadowJar``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.executable import built_swc

HERE = Path(__file__).resolve().parent
JUNIT = Path("/usr/share/java")
JUNIT_JARS = ("junit-platform-console-standalone.jar", "junit-jupiter-api.jar", "apiguardian-api.jar", "opentest4j.jar")
LAUNCHER = "org.junit.platform.console.ConsoleLauncher"
SYSTEM_PATH = "/usr/bin:/bin"  # Debian's java, javac, jar, curl; not the suite's venv
GRADLE_STAND_IN = f"""#!/usr/bin/env bash
# ./gradlew for the workflow's test: no Gradle download here, the same two tasks with the JDK's tools
set -euo pipefail
CP={':'.join(str(JUNIT / jar) for jar in JUNIT_JARS)}
case "$1" in
  test)
    javac -d build/test -cp "$CP" src/main/java/*.java src/test/java/*.java
    java -Dplayer.main=Player -cp "build/test:$CP" {LAUNCHER} --disable-banner --details=summary \\
        --fail-if-no-tests --select-class SwcLocalTest ;;
  shadowJar)
    javac -d build/main src/main/java/*.java
    jar --create --file "$PLAYER_JAR" --main-class Player -C build/main . ;;
  *) echo "gradlew stand-in: no task $1" >&2; exit 2 ;;
esac
"""


def classpath() -> str:
    missing = [jar for jar in JUNIT_JARS if not (JUNIT / jar).is_file()]
    assert not missing and shutil.which("javac"), f"JUnit 5 or the JDK is missing ({missing}): apt-get install default-jdk-headless junit5"
    return ":".join(str(JUNIT / jar) for jar in JUNIT_JARS)


@pytest.fixture(scope="module")
def swc() -> Path:
    return built_swc()


@pytest.fixture(scope="module")
def classes(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("classes")
    compiled = subprocess.run(["javac", "-d", str(out), "-cp", classpath(), str(HERE / "Player.java"),
                               str(HERE / "SwcLocalTest.java")], capture_output=True, text=True, timeout=300)
    assert compiled.returncode == 0, compiled.stderr
    return out


def test_the_junit_example_plays_the_java_player_against_the_reference_bot_on_the_executable(swc, classes):
    env = {"PATH": SYSTEM_PATH, "HOME": os.environ.get("HOME", "/tmp"), "SWC": str(swc)}
    ran = subprocess.run(["java", "-Dplayer.main=Player", "-cp", f"{classes}:{classpath()}", LAUNCHER, "--disable-banner",
                          "--details=summary", "--fail-if-no-tests", "--select-class", "SwcLocalTest"],
                         env=env, capture_output=True, text=True, timeout=400)
    out = ran.stdout + ran.stderr
    assert ran.returncode == 0, out
    assert "1 tests successful" in out and "0 tests failed" in out, out


def test_the_java_player_takes_the_templates_short_options_in_swc_match(classes):
    player = f"java -cp {classes} Player -h {{host}} -p {{port}} -r {{reservation}}"
    played = subprocess.run([sys.executable, "-m", "swc_local.tools.cli", "match", "piranhas_2026", "--games", "2",
                             "--seed", "4", "--fail-on-irregular", "player1", "--player1", player],
                            capture_output=True, text=True, timeout=400)
    out = played.stdout + played.stderr
    assert played.returncode == 0, out
    games = [line for line in out.splitlines() if re.match(r"\[\d/2\] game", line)]
    assert len(games) == 2 and all(re.search(r"player1 \(\w+\) REGULAR", line) for line in games), out


def test_the_workflow_file_runs_as_a_script(swc, tmp_path):
    workflow = yaml.safe_load((HERE / "swc-local.yml").read_text())
    (job,) = workflow["jobs"].values()
    uses = [step["uses"].split("@")[0] for step in job["steps"] if "uses" in step]
    assert uses == ["actions/checkout", "actions/setup-java"], uses
    project = tmp_path / "project"
    for source, target in (("Player.java", "src/main/java"), ("SwcLocalTest.java", "src/test/java")):
        (project / target).mkdir(parents=True)
        shutil.copy(HERE / source, project / target / source)
    gradlew = project / "gradlew"
    gradlew.write_text(GRADLE_STAND_IN)
    gradlew.chmod(0o755)
    github_path = tmp_path / "github_path"
    github_path.touch()
    env = {"HOME": str(tmp_path / "home"), "GITHUB_PATH": str(github_path), "PATH": SYSTEM_PATH}
    for key, value in job["env"].items():
        env[key] = f"file://{swc}" if key == "SWC_LOCAL_URL" else str(value)
        assert key == "SWC_LOCAL_URL" or "${{" not in env[key], (key, value)
    for step in job["steps"]:
        if "run" not in step:
            continue
        added = [line for line in github_path.read_text().splitlines() if line]
        step_env = {**env, "PATH": ":".join([*reversed(added), SYSTEM_PATH])}
        ran = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]], cwd=project,
                             env=step_env, capture_output=True, text=True, timeout=600)
        out = ran.stdout + ran.stderr
        assert ran.returncode == 0, f"{step['name']}:\n{out}"
        if step["run"].lstrip().startswith("swc --version"):
            assert "every game ended with a result" in out and "4 games" in out, out
    assert (project / env["PLAYER_JAR"]).is_file()
