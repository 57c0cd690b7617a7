"""recfair.compare: vectorised resampling equals recomputation; calibration; the Report."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import recfair as rf
import importlib

cmp = importlib.import_module("recfair.analysis.report")
from recfair.registry import names


def _gen(rng, m, n, k, power=1.0):
    """m lists of k distinct items drawn with popularity weights i^-power (Gumbel top-k)."""
    w = np.arange(1, n + 1.0) ** -power
    keys = np.log(w / w.sum())[None, :] + rng.gumbel(size=(m, n))
    return np.argpartition(-keys, k, axis=1)[:, :k]


def _binomial_band(trials, p, level=0.999):
    low, high = stats.binom.interval(level, trials, p)
    return low / trials, high / trials


@pytest.fixture(scope="module")
def small():
    rng = np.random.default_rng(5)
    m, n, k = 40, 25, 4
    relevant = [rng.choice(n, rng.integers(1, 6), replace=False) for _ in range(m)]
    runs = {"a": _gen(rng, m, n, k, 0.5), "b": _gen(rng, m, n, k, 1.5), "c": _gen(rng, m, n, k, 1.0)}
    return runs, relevant, n, k


FAST = names("relevance") + names("item_exposure") + ["IAA_ori", "IAA_our", "II-F_our"]


def test_vectorised_resampling_equals_recomputing_each_resample(small, monkeypatch):
    runs, relevant, n, k = small
    kw = dict(relevant=relevant, n_items=n, k=k, n_resamples=30, resampling_seed=11, interval="percentile")
    fast = rf.compare(runs, measures=FAST, **kw)
    monkeypatch.setattr(cmp, "_linear", lambda spec, run, options: None)      # force the generic loop
    slow = rf.compare(runs, measures=FAST, **kw)
    pd.testing.assert_frame_equal(fast.values, slow.values, rtol=1e-9, atol=1e-12)
    pd.testing.assert_frame_equal(fast.tests, slow.tests, rtol=1e-9, atol=1e-12)


def test_point_values_equal_evaluate(small):
    runs, relevant, n, k = small
    report = rf.compare(runs, measures=["NDCG", "Gini_our", "HD"], relevant=relevant, n_items=n, k=k, n_resamples=20, resampling_seed=0)
    for name, top in runs.items():
        want = rf.evaluate(top, n_items=n, measures=["NDCG", "Gini_our", "HD"], relevant=relevant)
        got = report.values[report.values["run"] == name].set_index("measure")["value"].to_dict()
        assert got == pytest.approx(want)


def test_same_generator_runs_are_declared_different_at_the_nominal_rate():
    """200 pairs of runs from one generator: about 5% of the tests reject at alpha = 0.05."""
    rng = np.random.default_rng(2024)
    m, n, k, pairs = 40, 15, 3, 200
    relevant = [rng.choice(n, 2, replace=False) for _ in range(m)]
    rejected = {"Gini_ori": 0, "HR": 0}
    for s in range(pairs):
        runs = {"x": _gen(rng, m, n, k), "y": _gen(rng, m, n, k)}
        report = rf.compare(runs, measures=list(rejected), relevant=relevant, n_items=n, k=k, n_resamples=99, resampling_seed=s,
                            correction="none")
        for _, row in report.tests.iterrows():
            rejected[row["measure"]] += row["p_value"] <= 0.05
    low, high = _binomial_band(pairs, 0.05)
    for key, count in rejected.items():
        assert low <= count / pairs <= high, (key, count)


def test_clearly_different_runs_are_detected():
    rng = np.random.default_rng(7)
    m, n, k = 200, 40, 5
    relevant = [rng.choice(10, 3, replace=False) for _ in range(m)]          # popular items are relevant
    runs = {"popular": _gen(rng, m, n, k, 2.0), "uniform": _gen(rng, m, n, k, 0.0)}
    report = rf.compare(runs, measures=["NDCG", "Gini_our", "Jain_our"], relevant=relevant, n_items=n, k=k,
                        n_resamples=199, resampling_seed=1)
    assert (report.tests["p_adjusted"] < 0.02).all()
    assert report.best().to_dict() == {"NDCG": "popular", "Gini_our": "uniform", "Jain_our": "uniform"}


def test_bootstrap_interval_covers_a_known_mean_at_the_nominal_rate():
    """HR of users who each get a relevant item with probability 0.3: the interval covers 0.3 ~95% of the time."""
    rng = np.random.default_rng(3)
    m, n, k, sims = 100, 20, 3, 200
    covered = 0
    for s in range(sims):
        hit = rng.random(m) < 0.3
        top = np.where(hit[:, None], [0, 1, 2], [3, 4, 5])
        report = rf.compare({"r": top}, measures=["HR"], relevant=[[0]] * m, n_items=n, k=k, n_resamples=200, resampling_seed=s)
        v = report.values.iloc[0]
        covered += v["ci_low"] <= 0.3 <= v["ci_high"]
    low, high = _binomial_band(sims, 0.95)
    assert low - 0.02 <= covered / sims <= high, covered


def test_bootstrap_interval_covers_a_run_level_measure_at_the_nominal_rate():
    """Gini of m users from a generator: the centred interval covers its expectation at m users ~95%;
    the plain percentile interval, shifted by the resampling's bias, does not."""
    rng = np.random.default_rng(0)
    m, n, k, sims = 100, 30, 3, 150
    truth = np.mean([rf.gini_index(_gen(rng, m, n, k), n_items=n) for _ in range(2000)])
    covered = {"centred": 0, "percentile": 0}
    for s in range(sims):
        top = _gen(rng, m, n, k)
        for interval in covered:
            v = rf.compare({"r": top}, measures=["Gini_ori"], n_items=n, k=k, n_resamples=200, resampling_seed=s,
                           interval=interval).values.iloc[0]
            covered[interval] += v["ci_low"] <= truth <= v["ci_high"]
    low, high = _binomial_band(sims, 0.95)
    assert low - 0.02 <= covered["centred"] / sims <= high, covered
    assert covered["percentile"] / sims < low, covered


def test_paired_t_and_wilcoxon_for_means_and_permutation_otherwise(small):
    runs, relevant, n, k = small
    for test, scipy_test in (("t", stats.ttest_rel), ("wilcoxon", stats.wilcoxon)):
        report = rf.compare(runs, measures=["NDCG", "Gini_ori"], relevant=relevant, n_items=n, k=k, n_resamples=50, resampling_seed=0,
                            test=test, baseline="a", correction="none")
        kinds = report.tests.set_index(["run", "measure"])["test"]
        assert kinds[("b", "NDCG")] == test and kinds[("b", "Gini_ori")] == "permutation"
        per = {r: rf.evaluate_per_user(runs[r], n_items=n, measures=["NDCG"], relevant=relevant)["NDCG"]
               for r in ("a", "b")}
        want = scipy_test(per["b"], per["a"]).pvalue
        got = report.tests.set_index(["run", "measure"]).loc[("b", "NDCG"), "p_value"]
        assert got == pytest.approx(want)


def test_holm_and_bh_corrections():
    p = np.array([0.01, 0.04, 0.03, 0.2, np.nan])
    np.testing.assert_allclose(cmp.adjust(p, method="holm"), [0.04, 0.09, 0.09, 0.2, np.nan])
    np.testing.assert_allclose(cmp.adjust(p, method="bh"), rf.analysis.benjamini_hochberg(p)[1])
    np.testing.assert_allclose(cmp.adjust(p, method="none"), p)


def test_report_outputs(small):
    runs, relevant, n, k = small
    report = rf.compare(runs, measures=["NDCG", "Gini_our"], relevant=relevant, n_items=n, k=k, n_resamples=50, resampling_seed=0,
                        baseline="a")
    assert list(report.values.columns) == ["run", "measure", "value", "ci_low", "ci_high"]
    assert {"run", "versus", "measure", "p_value", "p_adjusted"} <= set(report.tests.columns)
    assert set(report.tests["versus"]) == {"a"}
    md = report.to_markdown()
    assert md.startswith("| run | ↑ NDCG | ↓ Gini_our |") and "*" in md and "Holm" in md
    tex = report.to_latex(label="tab:x")
    assert r"\toprule" in tex and r"\textbf{" in tex and r"\label{tab:x}" in tex and "_our" not in tex.replace(r"\_", "")
    html = report._repr_html_()
    assert "<table" in html and "overflow-x:auto" in html
    fig = report.plot()
    assert len([a for a in fig.axes if a.get_visible()]) == 2
    import matplotlib.pyplot as plt

    plt.close(fig)


def test_compare_reads_run_files(tmp_path, small):
    runs, relevant, n, k = small
    items = [f"i{j}" for j in range(n)]
    users = [f"u{j:02d}" for j in range(len(relevant))]
    paths = {name: rf.io.write_run(top, tmp_path / f"{name}.trec", users=users, items=items)
             for name, top in runs.items()}
    qrels = rf.io.write_relevant(relevant, tmp_path / "q.qrels", users=users, items=items)
    from_files = rf.compare(paths, measures=["NDCG", "Gini_our"], relevant=qrels, items=items, k=k, n_resamples=30, resampling_seed=2)
    from_arrays = rf.compare(runs, measures=["NDCG", "Gini_our"], relevant=relevant, n_items=n, k=k, n_resamples=30, resampling_seed=2)
    pd.testing.assert_frame_equal(from_files.values, from_arrays.values)


@pytest.mark.parametrize("kwargs, match", [
    ({"test": "z"}, "test must be one of"), ({"correction": "bonferroni"}, "correction must be one of"),
    ({"ci": 1.5}, "ci must lie in"), ({"n_resamples": 0}, "n_resamples must be a positive integer"),
    ({"baseline": "zzz"}, "baseline 'zzz' is not one of the runs"), ({"interval": "bca"}, "interval must be one of"),
])
def test_bad_arguments(small, kwargs, match):
    runs, relevant, n, k = small
    with pytest.raises(ValueError, match=match):
        rf.compare(runs, measures=["NDCG"], relevant=relevant, n_items=n, k=k, **kwargs)


def test_runs_must_share_users_and_needs_are_checked(small):
    runs, relevant, n, k = small
    with pytest.raises(ValueError, match="runs must cover the same users"):
        rf.compare({"a": runs["a"], "b": runs["b"][:10]}, measures=["Gini_ori"], n_items=n, k=k)
    with pytest.raises(ValueError, match="NDCG needs relevant"):
        rf.compare(runs, measures=["NDCG"], n_items=n, k=k)
    with pytest.raises(ValueError, match="n_items is required"):
        rf.compare(runs, measures=["Gini_ori"], k=k)


def test_generic_measures_resample_too(small):
    runs, relevant, n, k = small
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = rf.compare({"a": runs["a"], "b": runs["b"]}, measures=["HD", "MME"], relevant=relevant, n_items=n, k=k,
                            n_resamples=20, resampling_seed=0)
    assert report.values[["ci_low", "ci_high"]].notna().all().all()
    assert report.tests["p_value"].between(0, 1).all()


def test_expand_measures():
    assert cmp.expand_measures(["I"])[:2] == ["Jain_ori", "Jain_our"]
    with pytest.raises(ValueError, match="unknown measure"):
        cmp.expand_measures(["nope"])


def test_report_csv_has_values_tests_and_notes(small):
    import io as stdio

    runs, relevant, n, k = small
    report = rf.compare(runs, measures=["NDCG", "Gini_our"], relevant=relevant, n_items=n, k=k, n_resamples=30, resampling_seed=0)
    frame = pd.read_csv(stdio.StringIO(report.to_csv()))
    assert set(frame["kind"]) == {"value", "test", "note"}
    values = frame[frame["kind"] == "value"]
    assert values["value"].to_numpy() == pytest.approx(report.values["value"].to_numpy())   # full precision
    tests = frame[frame["kind"] == "test"]
    assert tests["p_value"].to_numpy() == pytest.approx(report.tests["p_value"].to_numpy())
    assert "Holm" in frame.loc[frame["kind"] == "note", "note"].iloc[0]


def test_small_values_keep_significant_digits_and_digits_sets_them():
    values = pd.DataFrame({"run": ["a", "b"], "measure": ["NDCG", "NDCG"], "value": [0.000123456, 0.00045]})
    report = cmp.Report.of_values(values, n_users=100_000)
    cells = report.table()["↑ NDCG"].tolist()
    assert cells[0] == "0.000123" and cells[1].startswith("0.000450")
    assert report.table(digits=2)["↑ NDCG"].iloc[0] == "0.00012"
    with pytest.raises(ValueError, match="digits must be an integer from 1 to 15"):
        report.table(digits=0)


def test_the_test_that_ran_is_shown_beside_the_mark(small):
    runs, relevant, n, k = small
    report = rf.compare(runs, measures=["NDCG", "Gini_our"], relevant=relevant, n_items=n, k=k, n_resamples=200, resampling_seed=0,
                        test="t", significance=0.5)
    used = report.tests.groupby("measure")["test"].agg(set)
    assert used["NDCG"] == {"t"} and used["Gini_our"] == {"permutation"}
    legend = report._legend()
    assert "Gini_our: permutation test (P)" in legend and "NDCG: " not in legend
    marks = report._marks()
    assert all(text.endswith(" P") for (r, key), text in marks.items() if key == "Gini_our")
    assert all(not text.endswith(" P") for (r, key), text in marks.items() if key == "NDCG")


def test_latex_compiles_with_booktabs(small, tmp_path):
    import shutil
    import subprocess

    runs, relevant, n, k = small
    report = rf.compare({"run_é & 50%": runs["a"], "b": runs["b"]}, measures=["NDCG", "Gini_our", "Ent_ori"],
                        relevant=relevant, n_items=n, k=k, n_resamples=30, resampling_seed=0)
    report.reasons[("b", "Ent_ori")] = "an explanation with n_items, 100% & {braces}"
    tex = report.to_latex(label="tab:runs")
    assert "↑" not in tex and "↓" not in tex and "n_items" not in tex.replace(r"n\_items", "")
    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex is not installed (Debian: texlive-latex-base, texlive-latex-recommended)")
    doc = tmp_path / "t.tex"
    doc.write_text("\\documentclass{article}\n\\usepackage{booktabs}\n\\begin{document}\n" + tex
                   + "\n\\end{document}\n")
    out = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", doc.name], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout[-2000:]
    assert (tmp_path / "t.pdf").stat().st_size > 0
