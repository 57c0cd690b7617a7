"""The ``recfair`` command line, run as a subprocess (``python -m recfair``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import recfair as rf

ROOT = Path(__file__).parents[1]


def _cli(*args, cwd=None):
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, "-m", "recfair", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=300)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("cli")
    rng = np.random.default_rng(0)
    m, n, k = 25, 30, 5
    users, items = [f"u{j}" for j in range(m)], [f"i{j}" for j in range(n)]
    relevant = [rng.choice(n, 3, replace=False) for _ in range(m)]
    a = np.array([rng.choice(n, k, replace=False) for _ in range(m)])
    b = np.array([np.r_[r, rng.choice(np.setdiff1d(np.arange(n), r), k - 3, replace=False)] for r in relevant])
    rf.io.write_run(a, tmp / "a.trec", users=users, items=items)
    rf.io.write_run(b, tmp / "b.csv", users=users, items=items, style="lenskit")
    rf.io.write_relevant(relevant, tmp / "test.qrels", users=users, items=items)
    (tmp / "items.txt").write_text("\n".join(items) + "\n")
    return tmp, a, b, relevant, n, k


def test_evaluate_equals_the_library(files):
    tmp, a, b, relevant, n, k = files
    out = _cli("evaluate", tmp / "a.trec", tmp / "b.csv", "--qrels", tmp / "test.qrels", "--items", tmp / "items.txt",
               "-m", "NDCG", "Gini_our", "-k", k, "--format", "csv")
    assert out.returncode == 0, out.stderr
    frame = pd.read_csv(pd.io.common.StringIO(out.stdout))
    for name, top in (("a", a), ("b", b)):
        want = rf.evaluate(top, n_items=n, measures=["NDCG", "Gini_our"], relevant=relevant)
        got = frame[frame["run"] == name].set_index("measure")["value"].to_dict()
        assert got == pytest.approx(want)


def test_compare_markdown_latex_json_and_output_file(files):
    tmp, *_ = files
    base = ["evaluate", tmp / "a.trec", tmp / "b.csv", "--qrels", tmp / "test.qrels", "--n-items", 30, "-m",
            "relevance", "Gini_our", "-k", 5, "--compare", "--resamples", 50, "--seed", 1]
    md = _cli(*base, "--format", "markdown")
    assert md.returncode == 0, md.stderr
    assert md.stdout.startswith("| run | ↑ HR |") and "<sup>1</sup>" in md.stdout
    tex = _cli(*base, "--format", "latex", "-o", tmp / "t.tex")
    assert tex.returncode == 0 and r"\begin{tabular}" in (tmp / "t.tex").read_text()
    js = json.loads(_cli(*base, "--format", "json").stdout)
    assert {"values", "tests"} <= set(js) and js["n_items"] == 30
    table = _cli(*base)
    assert "1. a" in table.stdout and "bootstrap" in table.stdout


def test_catalogue_warning_and_bad_input_exit_non_zero(files, tmp_path):
    tmp, *_ = files
    out = _cli("evaluate", tmp / "a.trec", "--qrels", tmp / "test.qrels", "-m", "NDCG", "-k", 5)
    assert out.returncode == 0 and "warning: no item list or n_items given" in out.stderr
    bad = tmp_path / "bad.trec"
    bad.write_text("u1 Q0 i1 1 0.5 tag\nu1 Q0 i2 oops 0.4 tag\n")
    out = _cli("evaluate", bad, "--qrels", tmp / "test.qrels", "--n-items", 30, "-m", "NDCG", "-k", 1)
    assert out.returncode == 1 and "bad.trec: line 2" in out.stderr and "Traceback" not in out.stderr
    out = _cli("evaluate", tmp / "a.trec", "--qrels", tmp / "missing.qrels", "--n-items", 30, "-m", "NDCG")
    assert out.returncode == 1 and "no such file" in out.stderr
    out = _cli("evaluate", tmp / "a.trec", "--n-items", 30, "-m", "NOPE")
    assert out.returncode == 1 and "unknown measure 'NOPE'" in out.stderr
    out = _cli("evaluate", tmp / "a.trec", "--n-items", 30, "--items", tmp / "items.txt", "-m", "NDCG")
    assert out.returncode == 2 and "not allowed with" in out.stderr        # argparse: mutually exclusive


def test_measures_and_bounds(files):
    out = _cli("measures", "--part", "I", "--format", "json")
    rows = json.loads(out.stdout)
    assert out.returncode == 0 and [r["measure"] for r in rows] == rf.registry.names("item_exposure")
    out = _cli("measures", "--needs", "top_k")
    assert "Gini_our" in out.stdout and "NDCG" not in out.stdout
    out = _cli("bounds", "Gini_ori", "-m", 943, "-n", 1682, "-k", 10)
    want = rf.REGISTRY["Gini_ori"].bounds(943, 1682, 10)
    assert out.returncode == 0 and f"{want.most_fair:.6g}" in out.stdout
    out = _cli("bounds", "Gini_ori", "-m", 3, "-n", 2, "-k", 5)
    assert out.returncode == 1 and "exceeds" in out.stderr
    assert _cli("measures", "--part", "VII").returncode == 1


def test_help_has_examples():
    out = _cli("--help")
    assert out.returncode == 0 and "examples:" in out.stdout and "recfair evaluate" in out.stdout
    out = _cli("evaluate", "--help")
    assert "--qrels" in out.stdout and "LensKit" in out.stdout
    assert _cli().returncode == 2


def test_per_measure_options_on_the_command_line(files):
    tmp, a, b, relevant, n, k = files
    out = _cli("evaluate", tmp / "a.trec", "--qrels", tmp / "test.qrels", "--items", tmp / "items.txt",
               "-m", "Ent_ori", "SD_ind", "II-D", "-k", k, "--format", "csv", "--option", "SD_ind:base=P",
               "--option", "Ent_ori:base=2", "--option", "gamma=0.5")
    assert out.returncode == 0, out.stderr
    got = pd.read_csv(pd.io.common.StringIO(out.stdout)).set_index("measure")["value"].to_dict()
    want = rf.evaluate(a, n_items=n, measures=["Ent_ori", "SD_ind", "II-D"], relevant=relevant, gamma=0.5,
                       options={"SD_ind": {"base": "P"}, "Ent_ori": {"base": 2}}, on_undefined="nan")
    assert got == pytest.approx(want, nan_ok=True)
    assert got["SD_ind"] != rf.evaluate(a, n_items=n, measures="SD_ind", relevant=relevant)["SD_ind"]
    clash = _cli("evaluate", tmp / "a.trec", "--qrels", tmp / "test.qrels", "--items", tmp / "items.txt",
                 "-m", "Ent_ori", "SD_ind", "-k", k, "--option", "base=2")
    assert clash.returncode == 1 and "means two things" in clash.stderr
