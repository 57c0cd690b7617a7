"""Scale: runs fed in blocks of users, runs larger than memory, Dask clusters.

* :mod:`recfair.scale.blocks` -- :class:`~recfair.Accumulator`: the linear measures fed in blocks
  of users, mergeable; ``costs()`` tabulates what each measure keeps between blocks.
* :mod:`recfair.scale.streaming` -- long runs from parquet or Dask DataFrames, streamed in user ranges.
* :mod:`recfair.scale.cluster` -- ``client=`` (a Dask cluster) for :func:`recfair.evaluate` and its siblings.
* :mod:`recfair.scale._distributed` -- the Dask plumbing (client check, blocks mapped to tasks),
  which knows no measure; Part IV's pairwise kernels use it.

Nothing is imported here: :func:`recfair.evaluate` reaches this package only when a call asks for it.
"""
