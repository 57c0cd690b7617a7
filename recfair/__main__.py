"""``python -m recfair``: the same command line as ``recfair`` (see :mod:`recfair.cli`)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
