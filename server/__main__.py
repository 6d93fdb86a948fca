"""``python -m server`` does what ``swc serve`` does."""

import sys

from server.cli import main

sys.exit(main(["serve", *sys.argv[1:]]))
