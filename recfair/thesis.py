"""Numbers published in the thesis, for side-by-side comparison with what recfair computes.

These are the thesis's numbers, transcribed with the line numbers of the thesis's LaTeX
source where they appear. Chapters show them *labelled as the thesis's*, next to values that
recfair computes; nothing here is ever used as a result.
"""

from __future__ import annotations

import pandas as pd

__all__ = ["dataset_statistics"]

_COLUMNS = ["dataset", "stage", "users", "items", "interactions"]

# Paper 1 (Ch. 2), Tab. `tab:dataset`, thesis lines 1578-1602 (RecBole versions).
_PAPER1 = [
    ("Lastfm", "original", 1_892, 17_632, 92_834),
    ("Ml-1m", "original", 6_040, 3_706, 1_000_209),
    ("Book-x", "original", 105_283, 340_556, 1_149_780),
    ("Amazon-lb", "original", 416_174, 12_120, 574_628),
    ("Amazon-dm", "original", 840_372, 456_992, 1_584_082),
    ("Amazon-is", "original", 1_246_131, 165_764, 1_758_333),
    ("Lastfm", "preprocessed", 1_859, 2_823, 71_355),
    ("Ml-1m", "preprocessed", 6_038, 3_307, 835_789),
    ("Book-x", "preprocessed", 5_639, 7_455, 91_385),
    ("Amazon-lb", "preprocessed", 1_644, 791, 16_765),
    ("Amazon-dm", "preprocessed", 11_750, 9_462, 116_681),
    ("Amazon-is", "preprocessed", 6_574, 3_569, 45_762),
]

# Papers 2-5 (Ch. 3-6), Tab. 2 of Ch. 3 (lines 2746-2769) and Tab. 5.1 of Ch. 5 (lines 4672-4699).
_PAPER2 = [
    ("Lastfm", "preprocessed", 1_859, 2_823, 71_355),
    ("Amazon-lb", "preprocessed", 1_054, 791, 12_397),
    ("QK-video", "preprocessed", 4_656, 6_423, 51_777),
    ("Jester", "preprocessed", 63_724, 100, 2_150_060),
    ("ML-10M", "preprocessed", 49_378, 9_821, 5_362_685),
    ("ML-20M", "preprocessed", 89_917, 16_404, 10_588_141),
]

_SOURCES = {
    1: ("Ch. 2, Tab. tab:dataset (thesis lines 1578-1602)", _PAPER1),
    2: ("Ch. 3 Tab. 2 and Ch. 5 Tab. 5.1 (thesis lines 2746-2769, 4672-4699)", _PAPER2),
}


def dataset_statistics(paper: int = 1) -> pd.DataFrame:
    """The thesis's dataset statistics table for ``paper`` (1, or 2 for Papers 2-5).

    Sparsity is ``1 - interactions / (users * items)`` in percent, as the thesis defines it.

    Examples
    --------
    >>> int(dataset_statistics(1).loc[("Lastfm", "preprocessed"), "users"])
    1859
    """
    if paper not in _SOURCES:
        raise ValueError(f"paper must be one of {sorted(_SOURCES)}, got {paper!r}.")
    source, rows = _SOURCES[paper]
    frame = pd.DataFrame(rows, columns=_COLUMNS)
    frame["sparsity (%)"] = 100 * (1 - frame["interactions"] / (frame["users"] * frame["items"]))
    frame.attrs["source"] = f"Thesis, {source}"
    return frame.set_index(["dataset", "stage"])
