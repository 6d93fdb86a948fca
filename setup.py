"""Lists the packages of the distribution under their ``swc_local`` names.

pyproject.toml maps each top-level folder into the ``swc_local`` namespace (``package-dir``);
setuptools still needs every package named, and a static list would silently drop a new game
from the wheel. So the folders are searched here and each package is renamed into the namespace.
"""

from setuptools import find_namespace_packages, setup

FOLDERS = ("protocol", "games", "server", "client", "tools", "swc_pytest")

# Namespace packages too: the data folders (games/reversixt/maps, games/roborally/maps,
# server/web/static) are importable folders, and setuptools only installs a folder's files
# reliably when the folder is listed as a package (else it warns "Package would be ignored");
# pyproject.toml's package-data names their files.
setup(packages=[f"swc_local.{name}" for name in find_namespace_packages(
    include=[f"{folder}*" for folder in FOLDERS], exclude=["*__pycache__*"])])
