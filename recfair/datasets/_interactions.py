"""The :class:`Interactions` container: one dataset's user-item log plus side information."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

__all__ = ["Interactions", "ID_COLUMNS", "VALUE_COLUMNS"]

ID_COLUMNS = ("user_id", "item_id")
VALUE_COLUMNS = ("rating", "timestamp")


@dataclass
class Interactions:
    """A user-item interaction log with original ids, before any split.

    Parameters
    ----------
    frame : pandas.DataFrame
        One row per interaction with columns ``user_id`` and ``item_id`` (original ids, ``int64``
        or strings), ``rating`` (float, NaN when the data has none) and ``timestamp`` (float Unix
        seconds, NaN when the data has none); any extra column (e.g. Last.fm's ``weight``) is kept.
        Missing ``rating``/``timestamp`` columns are added as NaN.
    name : str
        Dataset name, used in tables.
    implicit : bool
        True when every row is a positive interaction (no rating scale): Last.fm, or after
        :func:`~recfair.datasets.preprocess` binarised the ratings.
    users : pandas.DataFrame or None
        User attributes indexed by original user id (ML-100K/ML-1M: age, gender, occupation, ...).
    items : pandas.DataFrame or None
        Item metadata indexed by original item id (titles, genres, artist names, ...).
    log : tuple of str
        What was done to the data so far (filled by the preprocessing functions).

    Examples
    --------
    >>> import pandas as pd
    >>> inter = Interactions(pd.DataFrame({"user_id": [1, 1, 2], "item_id": [10, 11, 10]}), name="toy")
    >>> inter.n_users, inter.n_items, inter.n_interactions
    (2, 2, 3)
    >>> list(inter.frame.columns)
    ['user_id', 'item_id', 'rating', 'timestamp']
    """

    frame: pd.DataFrame
    name: str = "custom"
    implicit: bool = False
    users: pd.DataFrame | None = None
    items: pd.DataFrame | None = None
    log: tuple[str, ...] = field(default=())

    def __post_init__(self):
        if not isinstance(self.frame, pd.DataFrame):
            raise TypeError(f"frame must be a pandas DataFrame, got {type(self.frame).__name__}.")
        missing = [c for c in ID_COLUMNS if c not in self.frame.columns]
        if missing:
            raise ValueError(
                f"frame must have columns 'user_id' and 'item_id'; missing {missing} "
                f"(columns present: {list(self.frame.columns)})."
            )
        for name in ("users", "items"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, pd.DataFrame):
                raise TypeError(f"{name} must be a pandas DataFrame or None, got {type(value).__name__}.")
        frame = self.frame
        added = {c: np.nan for c in VALUE_COLUMNS if c not in frame.columns}
        if added:
            frame = frame.assign(**added)
        for column in VALUE_COLUMNS:
            if not pd.api.types.is_float_dtype(frame[column]):
                try:
                    frame = frame.assign(**{column: frame[column].astype("float64")})
                except (TypeError, ValueError) as exc:
                    raise TypeError(f"column {column!r} must be numeric: {exc}") from None
        ordered = [*ID_COLUMNS, *VALUE_COLUMNS]
        self.frame = frame[ordered + [c for c in frame.columns if c not in ordered]]
        self.log = tuple(self.log)

    # -- sizes -------------------------------------------------------------------------------
    @property
    def n_users(self) -> int:
        """Number of distinct users with at least one interaction."""
        return int(self.frame["user_id"].nunique())

    @property
    def n_items(self) -> int:
        """Number of distinct items with at least one interaction."""
        return int(self.frame["item_id"].nunique())

    @property
    def n_interactions(self) -> int:
        return int(len(self.frame))

    @property
    def has_ratings(self) -> bool:
        """True when every row has a rating."""
        return bool(len(self.frame)) and not self.frame["rating"].isna().any()

    @property
    def has_timestamps(self) -> bool:
        """True when every row has a timestamp (so temporal splits are possible)."""
        return bool(len(self.frame)) and not self.frame["timestamp"].isna().any()

    def statistics(self) -> pd.Series:
        """``#users``, ``#items``, ``#interactions``, density and sparsity (%).

        >>> import pandas as pd
        >>> Interactions(pd.DataFrame({"user_id": [1, 1, 2], "item_id": [10, 11, 10]})).statistics()["density (%)"]
        75.0
        """
        return pd.Series(_core_stats(self.n_users, self.n_items, self.n_interactions), name=self.name, dtype=object)

    def with_frame(self, frame: pd.DataFrame, *, step: str | None = None, implicit: bool | None = None):
        """A copy holding ``frame`` instead (metadata shared), with ``step`` appended to :attr:`log`."""
        return replace(
            self,
            frame=frame.reset_index(drop=True),
            implicit=self.implicit if implicit is None else implicit,
            log=self.log + ((step,) if step else ()),
        )

    def __repr__(self) -> str:
        kind = "implicit" if self.implicit else "rated"
        extras = [n for n in ("users", "items") if getattr(self, n) is not None]
        side = f", side info: {'+'.join(extras)}" if extras else ""
        return (
            f"Interactions({self.name!r}: {self.n_users:,} users, {self.n_items:,} items, "
            f"{self.n_interactions:,} interactions, {kind}{side})"
        )


# --- statistics (the layout of the thesis's tables; recfair.datasets.statistics) ----------

def _density(n_inter: int, n_users: int, n_items: int) -> float:
    cells = n_users * n_items
    return 100.0 * n_inter / cells if cells else float("nan")


def _core_stats(n_users: int, n_items: int, n_inter: int) -> dict:
    density = _density(n_inter, n_users, n_items)
    return {"#users": n_users, "#items": n_items, "#interactions": n_inter,
            "density (%)": density, "sparsity (%)": 100.0 - density}
