"""Paper 3's guidelines for choosing a relevance-aware item fairness measure.

The thesis scores each joint measure (and version) on 18 factors: alignment (A), computability
(C), interpretability (I), expressiveness (X), stability (S) and efficiency (E). The table is the
Executive Summary's table of factors to consider when selecting a relevance-aware item fairness
measure (thesis Ch. 1, Scientific Contributions, Paper 3); the copy in Paper 3's own section
Guidelines for Measure Usage has an empty body in the thesis source. The marks are attached to the registry
records (``MeasureSpec.guidelines``) so that docs and the book read them from there;
:func:`guideline_table` renders them.

Marks: ``"yes"`` the factor applies in general, ``"binary"`` it applies for binary relevance
and single-round recommendation, ``"no"`` it does not apply. A-factors are neutral; all others
are desirable. E3 reports the thesis's implementations (recfair computes MME and IFD× far
faster; see the benchmarks).
"""

from __future__ import annotations

import pandas as pd

__all__ = ["FACTORS", "MARKS", "SYMBOLS", "guideline_table"]

FACTORS = (
    ('A1', 'The measure tends to agree with effectiveness measures'),
    ('A2', 'The measure tends to agree with fairness measures or disagree with effectiveness measures'),
    ('C1', 'The measure can be computed even if the full ranking of items (not just the top-k) is unavailable'),
    ('C2', 'The measure can be computed even if item relevance beyond top-k is unknown'),
    ('C3', 'The measure can be computed even if the total # of relevant items per user is unknown'),
    ('C4', 'The measure can be computed even if there is an item that is not relevant to any user'),
    ('C5', 'The measure can be computed for any k'),
    ('I1', 'The measure maps the unfairest and the fairest recommendation to the endpoints of its theoretical range'),
    ('I2', 'The measure distinguishes between an item exposed at k and an unexposed item at k+1'),
    ('X1', 'The measure scores are not compressed in a small interval'),
    ('X2', 'The measure responds to changes in k'),
    ('S1', 'The measure is unaffected by item relevance beyond the top-k'),
    ('S2', 'The measure is stable or becomes fairer if there are more relevant items beyond the top-k'),
    ('S3', 'The measure is unaffected by ties in item relevance'),
    ('S4', 'The measure is unaffected by the number of users with only one relevant item'),
    ('E1', 'The measure can be computed separately per user'),
    ('E2', 'The measure can be computed separately per item'),
    ('E3', 'The measure is efficient to compute (<60 s) for large datasets (e.g., >1K users and >10K items)'),
)

# one mark per factor, in FACTORS order
MARKS = {
    'IAA_ori': ('yes', 'no', 'no', 'no', 'no', 'yes', 'no', 'no', 'no', 'no', 'yes', 'no', 'no', 'yes', 'yes', 'yes', 'no', 'yes'),
    'IAA_our': ('yes', 'no', 'no', 'no', 'no', 'yes', 'yes', 'binary', 'yes', 'yes', 'yes', 'no', 'no', 'yes', 'yes', 'yes', 'no', 'yes'),
    'IFD_div_ori': ('no', 'yes', 'no', 'no', 'no', 'yes', 'yes', 'no', 'yes', 'no', 'no', 'no', 'yes', 'yes', 'no', 'yes', 'no', 'yes'),
    'IFD_div_our': ('no', 'yes', 'no', 'no', 'no', 'yes', 'yes', 'binary', 'yes', 'yes', 'yes', 'no', 'yes', 'yes', 'no', 'yes', 'no', 'yes'),
    'IFD_mul_ori': ('no', 'yes', 'yes', 'yes', 'yes', 'yes', 'yes', 'no', 'yes', 'no', 'yes', 'yes', 'yes', 'yes', 'yes', 'yes', 'no', 'no'),
    'IFD_mul_our': ('no', 'yes', 'yes', 'yes', 'yes', 'yes', 'yes', 'binary', 'yes', 'yes', 'yes', 'yes', 'yes', 'yes', 'yes', 'yes', 'no', 'no'),
    'HD': ('yes', 'no', 'yes', 'no', 'no', 'yes', 'yes', 'no', 'yes', 'yes', 'yes', 'no', 'yes', 'no', 'yes', 'no', 'no', 'yes'),
    'MME': ('no', 'yes', 'yes', 'yes', 'yes', 'yes', 'yes', 'no', 'yes', 'no', 'yes', 'yes', 'yes', 'yes', 'yes', 'no', 'yes', 'no'),
    'IBO_ori': ('no', 'no', 'yes', 'no', 'no', 'no', 'yes', 'no', 'yes', 'yes', 'yes', 'no', 'no', 'yes', 'yes', 'no', 'yes', 'yes'),
    'IWO_ori': ('no', 'no', 'yes', 'no', 'no', 'no', 'yes', 'no', 'yes', 'yes', 'yes', 'no', 'no', 'yes', 'yes', 'no', 'yes', 'yes'),
    'IBO_our': ('no', 'no', 'yes', 'no', 'no', 'yes', 'yes', 'no', 'yes', 'yes', 'yes', 'no', 'no', 'yes', 'yes', 'no', 'yes', 'yes'),
    'IWO_our': ('no', 'no', 'yes', 'no', 'no', 'yes', 'yes', 'no', 'yes', 'yes', 'yes', 'no', 'no', 'yes', 'yes', 'no', 'yes', 'yes'),
    'II-F_ori': ('yes', 'no', 'yes', 'yes', 'no', 'yes', 'yes', 'no', 'yes', 'no', 'yes', 'no', 'no', 'yes', 'yes', 'yes', 'yes', 'yes'),
    'II-F_our': ('yes', 'no', 'yes', 'yes', 'no', 'yes', 'yes', 'binary', 'yes', 'yes', 'yes', 'no', 'no', 'yes', 'yes', 'yes', 'yes', 'yes'),
    'AI-F': ('no', 'yes', 'yes', 'yes', 'no', 'yes', 'yes', 'no', 'yes', 'no', 'yes', 'no', 'no', 'yes', 'yes', 'no', 'yes', 'yes'),
}

SYMBOLS = {"yes": "✓", "binary": "◐", "no": "✗"}


def guideline_table(*, symbols: bool = True) -> pd.DataFrame:
    """Factors x measures: Paper 3's marks (the same marks the registry records carry).

    Examples
    --------
    >>> t = guideline_table(symbols=False)
    >>> t.loc["C5", "IAA_ori"], t.loc["C5", "IAA_our"]
    ('no', 'yes')
    """
    codes = [code for code, _ in FACTORS]
    frame = pd.DataFrame({key: list(marks) for key, marks in MARKS.items()}, index=codes)
    if symbols:
        frame = frame.replace(SYMBOLS)
    frame.insert(0, "factor", [statement for _, statement in FACTORS])
    frame.index.name = "code"
    return frame
