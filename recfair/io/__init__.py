"""Input and output: other tools' run files, pandas frames, the command line.

* :mod:`recfair.io.files` -- readers and writers of the run files other tools produce (TREC, ranx,
  LensKit, Microsoft Recommenders, Elliot, RecBole) and :func:`load`, which maps every file
  through one id map; its public names are re-exported here (``recfair.io.load``).
* :mod:`recfair.io.frames` -- pandas adapters (long frames to top-k arrays and back) and table rendering.
* :mod:`recfair.io.cli` -- the ``recfair`` command line (also ``python -m recfair``).
"""

from .files import *  # noqa: F401,F403  (the readers' public names: recfair.io.load, recfair.io.write_run ...)
from .files import __all__
