"""Figures for the book and notebooks. Imports matplotlib/seaborn lazily; the core never imports this."""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["set_book_style", "tau_heatmap"]


def set_book_style() -> None:
    """One seaborn theme, a colour-blind palette and one figure size for every chapter."""
    import matplotlib as mpl
    import seaborn as sns

    sns.set_theme(style="whitegrid", palette="colorblind", context="notebook")
    mpl.rcParams.update({"figure.figsize": (7.0, 4.0), "figure.dpi": 100, "savefig.bbox": "tight"})


def tau_heatmap(tau: pd.DataFrame, significant: pd.DataFrame | None = None, *, ax=None, title=None,
                annot_fmt: str = ".2f", vmin: float = -1.0, vmax: float = 1.0):
    """Heatmap of a Kendall τ matrix (lower triangle); non-significant pairs are marked with ``×``.

    Returns the matplotlib ``Axes``. No ``show``.
    """
    import matplotlib.pyplot as plt
    import seaborn as sns

    if ax is None:
        size = 0.55 * len(tau) + 2
        _, ax = plt.subplots(figsize=(size + 1, size))
    mask = np.triu(np.ones(tau.shape, dtype=bool), k=1)
    labels = tau.map(lambda v: "" if np.isnan(v) else format(v, annot_fmt))
    if significant is not None:
        labels = labels.where(significant.to_numpy() | np.eye(len(tau), dtype=bool), labels + "×")
    sns.heatmap(tau, mask=mask, annot=labels, fmt="", cmap="vlag", vmin=vmin, vmax=vmax,
                square=True, linewidths=0.5, cbar_kws={"label": "Kendall τ-b", "shrink": 0.7},
                annot_kws={"size": 8}, ax=ax)
    ax.set(xlabel="", ylabel="")
    if title:
        ax.set_title(title)
    return ax
