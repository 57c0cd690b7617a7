"""User-side measures (Parts IV and V of the book).

Part V's modules: ``groups`` (between-group, within-group and individual measures of per-user
effectiveness, and the exact Atkinson decomposition), ``groupings`` (intersectional groupings,
Grp(a), the paper's attribute mappings) and ``text`` (matching free-text recommendations to test
titles).
"""

from . import groupings, groups, text  # noqa: F401
