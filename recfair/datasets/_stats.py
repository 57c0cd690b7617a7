"""Dataset statistics in the layout of the thesis's tables.

The thesis reports, per dataset, ``#users``, ``#items``, ``#interactions`` and sparsity
``1 - #interactions / (#users * #items)`` (the dataset tables of Paper 1's and Paper 2's
experimental setups), the
``[users, items, interactions]`` of each split part and the number of relevant (test) items per
test user: mean, min, median, max (Paper 4's appendix, Extended Dataset Statistics).
"""

from __future__ import annotations

import pandas as pd

from ._interactions import Interactions
from ._split import PARTS, Split

__all__ = ["statistics", "statistics_table", "COUNT_COLUMNS"]

#: Columns holding counts (integers; missing where a row has no such part).
COUNT_COLUMNS = (
    "#users", "#items", "#interactions",
    *(f"{part} {what}" for part in PARTS for what in ("#users", "#items", "#interactions")),
    "#test users", "relevant min", "relevant max",
)


def statistics(data) -> pd.Series:
    """Statistics of one :class:`Interactions` or :class:`Split`.

    For interactions: ``#users``, ``#items``, ``#interactions``, ``density (%)``,
    ``sparsity (%)``. A split adds, for each part, ``<part> #users/#items/#interactions``, the
    number of test users and the mean/min/median/max number of relevant (test) items per test
    user. A split's ``#users``/``#items`` are its catalogue sizes ``n_users``/``n_items``.

    Examples
    --------
    >>> import pandas as pd
    >>> from recfair.datasets import Interactions
    >>> stats = statistics(Interactions(pd.DataFrame({"user_id": [1, 2], "item_id": [1, 2]})))
    >>> stats["#users"], stats["sparsity (%)"]
    (2, 50.0)
    """
    if not isinstance(data, (Split, Interactions)):
        raise TypeError(f"statistics() takes an Interactions or a Split, got {type(data).__name__}.")
    return data.statistics()


def statistics_table(datasets, *, names=None) -> pd.DataFrame:
    """One row of :func:`statistics` per dataset or split, in the thesis's table layout.

    Parameters
    ----------
    datasets : sequence of Interactions or Split
    names : sequence of str, optional
        Row labels (default: each object's ``name``; use them to tell two splits of one dataset apart).

    Returns
    -------
    pandas.DataFrame
        Count columns use the nullable ``Int64`` dtype (empty where a row has no split parts).

    Examples
    --------
    >>> import pandas as pd
    >>> from recfair.datasets import Interactions
    >>> a = Interactions(pd.DataFrame({"user_id": [1, 2], "item_id": [1, 1]}), name="a")
    >>> b = Interactions(pd.DataFrame({"user_id": [1, 1, 2], "item_id": [1, 2, 1]}), name="b")
    >>> statistics_table([a, b])[["#users", "#items", "#interactions", "sparsity (%)"]]
       #users  #items  #interactions  sparsity (%)
    a       2       1              2           0.0
    b       2       2              3          25.0
    """
    if isinstance(datasets, (Interactions, Split)):
        datasets = [datasets]
    datasets = list(datasets)
    if not datasets:
        raise ValueError("statistics_table needs at least one Interactions or Split.")
    rows = [statistics(d) for d in datasets]
    if names is not None:
        names = list(names)
        if len(names) != len(rows):
            raise ValueError(f"names has {len(names)} entries for {len(rows)} datasets.")
    index = names if names is not None else [row.name for row in rows]
    table = pd.DataFrame([row.to_dict() for row in rows], index=index)
    for column in table.columns:
        table[column] = table[column].astype("Int64" if column in COUNT_COLUMNS else "float64")
    return table
