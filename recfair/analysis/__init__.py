"""Analysis of several runs: comparing them, and how measures agree across them.

* :mod:`recfair.analysis.report` -- :func:`~recfair.compare`: bootstrap intervals, paired tests,
  multiple-testing correction and the :class:`~recfair.Report`;
* :mod:`recfair.analysis.correlation` -- Kendall's τ-b between measures over runs, Benjamini–Hochberg.

Their public names are re-exported here (``recfair.analysis.kendall_matrix``, ``recfair.analysis.compare``).
"""

from .correlation import Finding, benjamini_hochberg, findings_table, kendall_matrix, orient
from .report import CORRECTIONS, INTERVALS, TESTS, Report, adjust, compare, expand_measures

__all__ = ["orient", "kendall_matrix", "benjamini_hochberg", "Finding", "findings_table",
           "compare", "adjust", "Report", "TESTS", "INTERVALS", "CORRECTIONS", "expand_measures"]
