"""``python -m benchmarks [--quick] [--profile [ROOMS]]``: run everything, print one table."""

import sys

from benchmarks.run import main

sys.exit(main())
