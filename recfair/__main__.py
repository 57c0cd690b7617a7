"""``python -m recfair``: the same command line as ``recfair`` (see :mod:`recfair.io.cli`)."""

import sys

from .io.cli import main

if __name__ == "__main__":
    sys.exit(main())
