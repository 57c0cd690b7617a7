"""Docstring fragments shared by the measure modules, and the helper that inserts them."""

from __future__ import annotations

ROUNDS = """rounds : array-like of int, shape (W, n_users, >= k), optional
        Top-k lists of ``W`` recommendation rounds; ``rounds[0]`` must equal ``top_k``.
        Default: the single round ``top_k``."""

ON_UNDEFINED = """on_undefined : {"warn", "nan", "raise"}, default="warn"
        Policy when the measure is undefined (see Notes): NaN with an
        :class:`~recfair.UndefinedMeasureWarning`, NaN silently, or an
        :class:`~recfair.UndefinedMeasureError`."""


def doc_filler(fragments: dict[str, str]):
    """A decorator replacing each ``<<token>>`` of a docstring by its fragment."""

    def fill(func):
        doc = func.__doc__
        for token, text in fragments.items():
            doc = doc.replace(token, text)
        func.__doc__ = doc
        return func

    return fill
