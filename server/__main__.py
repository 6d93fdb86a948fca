"""``python -m swc_local.server`` does what ``swc serve`` does."""

import sys

from swc_local.server.cli import main

sys.exit(main(["serve", *sys.argv[1:]]))
