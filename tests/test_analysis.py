import numpy as np
import pandas as pd
import pytest
from scipy import stats

import recfair as rf
from recfair.analysis import benjamini_hochberg, kendall_matrix, orient


def test_bh_against_definition():
    rng = np.random.default_rng(1)
    p = rng.uniform(size=30) ** 3
    reject, adj = benjamini_hochberg(p, alpha=0.1)
    # definition: largest i with p_(i) <= i*alpha/m; reject all p_(j), j <= i
    order = np.sort(p)
    ok = np.nonzero(order <= np.arange(1, 31) * 0.1 / 30)[0]
    threshold = order[ok.max()] if ok.size else -1
    assert np.array_equal(reject, p <= threshold)
    assert np.all(adj >= p) and np.all(adj <= 1)
    assert np.allclose(adj, stats.false_discovery_control(p, method="bh"))


def test_bh_nan_and_errors():
    reject, adj = benjamini_hochberg([0.01, np.nan])
    assert reject.tolist() == [True, False] and np.isnan(adj[1])
    with pytest.raises(ValueError, match="alpha"):
        benjamini_hochberg([0.1], alpha=1.5)
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        benjamini_hochberg([1.2])


def test_kendall_orients_lower_is_better_and_matches_scipy():
    results = pd.DataFrame({"NDCG": [0.1, 0.3, 0.2, 0.4], "P": [0.05, 0.2, 0.1, 0.3], "x": [4.0, 1.0, 3.0, 2.0]})
    tau, p, sig = kendall_matrix(results, lower_is_better=["x"])
    assert tau.loc["NDCG", "P"] == pytest.approx(1.0)
    expected = stats.kendalltau(results["NDCG"], -results["x"])
    assert tau.loc["NDCG", "x"] == pytest.approx(expected.statistic)
    assert p.loc["NDCG", "x"] == pytest.approx(expected.pvalue)
    assert tau.equals(tau.T) and sig.equals(sig.T)


def test_kendall_errors_and_constant():
    with pytest.raises(ValueError, match="not registry measures"):
        orient(pd.DataFrame({"foo": [1.0, 2.0]}))
    with pytest.raises(ValueError, match="at least 2 runs"):
        kendall_matrix(pd.DataFrame({"P": [0.1]}))
    with pytest.raises(ValueError, match="NaN"):
        kendall_matrix(pd.DataFrame({"P": [0.1, np.nan], "R": [0.1, 0.2]}))
    with pytest.warns(rf.UndefinedMeasureWarning, match="constant"):
        tau, _, _ = kendall_matrix(pd.DataFrame({"P": [0.1, 0.2, 0.3], "R": [0.5, 0.5, 0.5]}))
    assert np.isnan(tau.loc["P", "R"])


def test_heatmap_draws():
    import matplotlib
    matplotlib.use("Agg")
    from recfair.book.plotting import tau_heatmap
    results = pd.DataFrame({"NDCG": [0.1, 0.3, 0.2, 0.4], "P": [0.05, 0.2, 0.1, 0.3], "MRR": [0.3, 0.1, 0.2, 0.4]})
    tau, _, sig = kendall_matrix(results)
    ax = tau_heatmap(tau, sig)
    texts = [t.get_text() for t in ax.texts]
    assert "1" in texts and not any(t.startswith("0.") for t in texts)
    hatched = [p for p in ax.patches if p.get_hatch()]
    assert len(hatched) == int((~sig.to_numpy()[np.tril_indices(3, -1)]).sum())


def test_findings_verdict_comes_from_the_test():
    from recfair.analysis import Finding, findings_table

    values = [0.3, 0.2]
    found = Finding("falls", "second below first", values[1] < values[0], f"{values}")
    missed = Finding("rises", "second above first", values[1] > values[0])
    table = findings_table([found, missed])
    assert table["verdict"].tolist() == ["re-observed", "not re-observed"]
    with pytest.raises(TypeError, match="holds must be a bool"):
        Finding("x", "y", "yes")
    with pytest.raises(ValueError, match="at least one"):
        findings_table([])
    with pytest.raises(TypeError, match="Finding objects"):
        findings_table(["a claim"])
