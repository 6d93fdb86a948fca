"""Lists the packages of the distribution under their ``swc_local`` names.

pyproject.toml maps each top-level folder into the ``swc_local`` namespace (``package-dir``);
setuptools still needs every package named, and a static list would silently drop a new game
from the wheel. So the folders are searched here and each package is renamed into the namespace.
"""

from setuptools import find_packages, setup

FOLDERS = ("protocol", "games", "server", "client", "tools", "swc_pytest")

setup(packages=[f"swc_local.{name}" for name in find_packages(include=[f"{folder}*" for folder in FOLDERS])])
