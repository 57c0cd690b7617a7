"""Matrix-factorisation recommenders backed by the ``implicit`` library: BPR and ALS.

``implicit`` (>= 0.7) is an optional dependency (``pip install recfair[recommenders]``); it
is imported only when a model is fitted. Both wrappers fit on the binarised user x item CSR
matrix (implicit 0.7 expects user x item, not item x user) and score with dot products of
the learned factors, computed in float64.
"""

from __future__ import annotations

import numpy as np

from .._validation import check_positive_int
from .._validation import check_real
from ._base import Recommender, check_bool, check_model_seed

__all__ = ["BPR", "ALS"]


def _import_implicit():
    try:
        import implicit  # noqa: F401
        import threadpoolctl
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            "BPR and ALS need the optional packages 'implicit' and 'threadpoolctl': "
            "pip install 'recfair[recommenders]'."
        ) from exc
    return threadpoolctl


def implicit_version() -> str:
    """Version of the installed ``implicit`` (part of the run-cache key of BPR and ALS)."""
    import implicit

    return implicit.__version__


class _Factorization(Recommender):
    """Shared scoring: ``score(u, i) = user_factors_[u] . item_factors_[i]``."""

    def _score(self, users):
        return self.user_factors_[users] @ self.item_factors_.T

    def _store_factors(self, model):
        # implicit returns float32 factors; float64 products make scores independent of batching
        self.user_factors_ = np.asarray(model.user_factors, dtype=np.float64)
        self.item_factors_ = np.asarray(model.item_factors, dtype=np.float64)

    @staticmethod
    def _implicit_input(X):
        return X.astype(np.float32)

    def cache_extra(self) -> dict:
        """Extra cache-key material: results depend on the ``implicit`` version."""
        return {"implicit": implicit_version()}


class BPR(_Factorization):
    """Bayesian Personalised Ranking matrix factorisation (Rendle et al., 2009).

    Learns user and item factors by stochastic gradient ascent on the pairwise log-sigmoid
    of ``score(u, i) - score(u, j)`` for sampled (user, positive ``i``, negative ``j``)
    triples, with L2 regularisation. Implemented by
    ``implicit.cpu.bpr.BayesianPersonalizedRanking`` (which also learns an item bias, held in
    the last factor column: the user side of that column is fixed to 1).

    Parameters
    ----------
    factors : int, default 64
        Latent dimensions.
    learning_rate : float, default 0.01
        SGD step size.
    regularization : float, default 0.01
        L2 penalty on the factors.
    iterations : int, default 100
        Training epochs (each samples as many triples as there are interactions).
    verify_negative_samples : bool, default True
        Re-draw sampled negatives that the user actually interacted with.
    num_threads : int, default 1
        Threads for the SGD. With more than one thread updates race (Hogwild!), so the result
        is **not reproducible** from the seed; the default of 1 keeps runs reproducible and is
        fast enough at ML-100K/Last.fm scale.
    seed : int or None, default 2020
        Seed of the factor initialisation and of the triple sampling.
    progress : bool, default False
        Show implicit's progress bar over epochs.

    References
    ----------
    S. Rendle, C. Freudenthaler, Z. Gantner and L. Schmidt-Thieme. BPR: Bayesian personalized
    ranking from implicit feedback. UAI, 2009.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> train = sp.csr_matrix([[1, 1, 0, 0], [0, 1, 1, 0], [1, 0, 1, 1]])
    >>> model = BPR(factors=4, iterations=5).fit(train)
    >>> model.score([0]).shape
    (1, 4)
    """

    def __init__(self, *, factors=64, learning_rate=0.01, regularization=0.01, iterations=100,
                 verify_negative_samples=True, num_threads=1, seed=2020, progress=False):
        self.factors = check_positive_int(factors, "factors")
        self.learning_rate = check_real(learning_rate, "learning_rate", low=0.0, strict=True)
        self.regularization = check_real(regularization, "regularization", low=0.0)
        self.iterations = check_positive_int(iterations, "iterations")
        self.verify_negative_samples = check_bool(verify_negative_samples, "verify_negative_samples")
        self.num_threads = check_positive_int(num_threads, "num_threads", minimum=0)
        self.seed = check_model_seed(seed)
        self.progress = check_bool(progress, "progress")

    def _fit(self, X):
        threadpoolctl = _import_implicit()
        from implicit.cpu.bpr import BayesianPersonalizedRanking

        with threadpoolctl.threadpool_limits(1, "blas"):
            model = BayesianPersonalizedRanking(
                factors=self.factors, learning_rate=self.learning_rate,
                regularization=self.regularization, iterations=self.iterations,
                verify_negative_samples=self.verify_negative_samples,
                num_threads=self.num_threads, random_state=self.seed,
            )
            model.fit(self._implicit_input(X), show_progress=self.progress)
        self._store_factors(model)


class ALS(_Factorization):
    """Implicit-feedback alternating least squares (Hu, Koren & Volinsky, 2008).

    Minimises ``sum_{u,i} c_ui (p_ui - x_u . y_i)^2 + reg (|x_u|^2 + |y_i|^2)`` over all
    user-item pairs, where ``p_ui`` is 1 for an interaction and 0 otherwise, and the
    confidence is ``c_ui = alpha`` for interactions (binarised data) and 1 otherwise.
    Implemented by ``implicit.cpu.als.AlternatingLeastSquares`` with its conjugate-gradient
    solver (Takács et al., 2011). Each user (item) is solved independently, so the result
    does not depend on the number of threads; BLAS is limited to one thread during fitting,
    as implicit recommends.

    Parameters
    ----------
    factors : int, default 64
        Latent dimensions.
    regularization : float, default 0.05
        L2 penalty ``reg``.
    iterations : int, default 15
        Alternating sweeps over users and items.
    alpha : float, default 1.0
        Confidence of an observed interaction relative to an unobserved pair (1.0 weighs
        them equally).
    num_threads : int, default 0
        Solver threads; 0 uses every core. Results are identical for any thread count
        (checked in the tests), so it is not part of run-cache keys.
    seed : int or None, default 2020
        Seed of the factor initialisation.
    progress : bool, default False
        Show implicit's progress bar over iterations.

    References
    ----------
    Y. Hu, Y. Koren and C. Volinsky. Collaborative filtering for implicit feedback datasets.
    ICDM, 2008. G. Takács, I. Pilászy and D. Tikk. Applications of the conjugate gradient
    method for implicit feedback collaborative filtering. RecSys, 2011.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> train = sp.csr_matrix([[1, 1, 0, 0], [0, 1, 1, 0], [1, 0, 1, 1]])
    >>> model = ALS(factors=4, iterations=3).fit(train)
    >>> model.score([0, 1]).shape
    (2, 4)
    """

    # each user's (item's) solve is independent of the others, so threads cannot change the result
    non_result_params = Recommender.non_result_params | {"num_threads"}

    def __init__(self, *, factors=64, regularization=0.05, iterations=15, alpha=1.0,
                 num_threads=0, seed=2020, progress=False):
        self.factors = check_positive_int(factors, "factors")
        self.regularization = check_real(regularization, "regularization", low=0.0)
        self.iterations = check_positive_int(iterations, "iterations")
        self.alpha = check_real(alpha, "alpha", low=0.0, strict=True)
        self.num_threads = check_positive_int(num_threads, "num_threads", minimum=0)
        self.seed = check_model_seed(seed)
        self.progress = check_bool(progress, "progress")

    def _fit(self, X):
        threadpoolctl = _import_implicit()
        from implicit.cpu.als import AlternatingLeastSquares

        with threadpoolctl.threadpool_limits(1, "blas"):
            model = AlternatingLeastSquares(
                factors=self.factors, regularization=self.regularization,
                iterations=self.iterations, alpha=self.alpha,
                num_threads=self.num_threads, random_state=self.seed,
            )
            model.fit(self._implicit_input(X), show_progress=self.progress)
        self._store_factors(model)
