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
    assert "lists ordered by descending score, ties by descending document id (trec_eval)" in table.stdout
    csv = pd.read_csv(pd.io.common.StringIO(_cli(*base, "--format", "csv").stdout))
    tests = csv[csv["kind"] == "test"]
    assert len(tests) == 7 and tests["p_value"].notna().all() and set(tests["versus"]) == {"b"}
    t = _cli(*base, "--test", "t", "--format", "markdown").stdout
    assert "Gini_our: permutation test (P)" in t


def test_catalogue_warning_and_bad_input_exit_non_zero(files, tmp_path):
    tmp, *_ = files
    out = _cli("evaluate", tmp / "a.trec", "--qrels", tmp / "test.qrels", "-m", "NDCG", "-k", 5)
    assert out.returncode == 0 and "catalogue measures refused" in out.stderr     # relevance needs no catalogue
    out = _cli("evaluate", tmp / "a.trec", "--qrels", tmp / "test.qrels", "-m", "NDCG", "Gini_ori", "-k", 5)
    assert out.returncode == 1 and "Gini_ori depend(s) on the catalogue size" in out.stderr
    assert "--items" in out.stderr and "--n-items" in out.stderr and "items=" not in out.stderr
    bad = tmp_path / "bad.trec"
    bad.write_text("u1 Q0 i1 1 0.5 tag\nu1 Q0 i2 oops 0.4 tag\n")
    out = _cli("evaluate", bad, "--qrels", tmp / "test.qrels", "--n-items", 30, "-m", "NDCG", "-k", 1)
    assert out.returncode == 1 and "bad.trec: line 2" in out.stderr and "Traceback" not in out.stderr
    out = _cli("evaluate", tmp / "a.trec", "--qrels", tmp / "missing.qrels", "--n-items", 30, "-m", "NDCG")
    assert out.returncode == 1 and "no such file" in out.stderr
    out = _cli("evaluate", tmp / "a.trec", "--n-items", 30, "-m", "NOPE")
    assert out.returncode == 1 and "unknown measure 'NOPE'" in out.stderr
    out = _cli("evaluate", tmp / "a.trec", "--n-items", 30, "-m", "Gini_orig")
    assert out.returncode == 1 and "did you mean Gini_ori" in out.stderr
    out = _cli("evaluate", tmp / "a.trec", "--n-items", 30, "--items", tmp / "items.txt", "-m", "NDCG")
    assert out.returncode == 2 and "not allowed with" in out.stderr        # argparse: mutually exclusive


def test_measures_and_bounds(files):
    out = _cli("measures", "--part", "I", "--format", "json")
    rows = json.loads(out.stdout)
    assert out.returncode == 0 and [r["measure"] for r in rows] == rf.registry.names("item_exposure")
    out = _cli("measures", "--needs", "top_k")
    assert "Gini_our" in out.stdout and "NDCG" not in out.stdout
    out = _cli("bounds", "Gini_ori", "--users", 943, "--items", 1682, "-k", 10)
    want = rf.REGISTRY["Gini_ori"].bounds(943, 1682, 10)
    assert out.returncode == 0 and f"{want.most_fair:.6g}" in out.stdout
    out = _cli("bounds", "Gini_ori", "--users", 3, "--items", 2, "-k", 5)
    assert out.returncode == 1 and "exceeds" in out.stderr
    assert _cli("measures", "--part", "VII").returncode == 1


def test_part_vi_bounds_take_their_inputs(tmp_path):
    out = _cli("bounds", "NDKL", "--users", 3, "--items", 6, "-k", 2, "--input", "group_sizes=3,3")
    want = rf.REGISTRY["NDKL"].bounds(3, 6, 2, group_sizes=(3, 3))
    assert out.returncode == 0, out.stderr
    assert f"{want.most_fair:.6g}" in out.stdout and f"{want.most_unfair:.6g}" in out.stdout
    out = _cli("bounds", "APLT", "--users", 10, "--items", 100, "-k", 10)
    assert out.returncode == 1 and "--input n_tail=VALUE" in out.stderr
    out = _cli("bounds", "NDKL", "--users", 3, "--items", 6, "-k", 2, "--input", "group_size=3,3")
    assert out.returncode == 1 and "no input 'group_size'" in out.stderr and "group_sizes" in out.stderr
    out = _cli("bounds", "NDKL", "--users", 3, "--items", 6, "-k", 2, "--input", "group_sizes=3,x")
    assert out.returncode == 1 and "'x' is not a number" in out.stderr
    # a matrix from a file: each user's relevant items per item group, one row per line
    (tmp_path / "counts.txt").write_text("1,1\n0,1\n")
    out = _cli("bounds", "REO", "--users", 2, "--items", 4, "-k", 2, "--input", f"relevant_counts=@{tmp_path / 'counts.txt'}")
    want = rf.REGISTRY["REO"].bounds(2, 4, 2, relevant_counts=np.array([[1, 1], [0, 1]]))
    assert out.returncode == 0, out.stderr
    assert f"{want.most_unfair:.6g}" in out.stdout and f"{want.most_fair:.6g}" in out.stdout
    (tmp_path / "bad.txt").write_text("1,1\n0,z\n")
    out = _cli("bounds", "REO", "--users", 2, "--items", 4, "-k", 2, "--input", f"relevant_counts=@{tmp_path / 'bad.txt'}")
    assert out.returncode == 1 and "bad.txt, line 2: 'z' is not a number" in out.stderr
    out = _cli("bounds", "ItemMAD", "--users", 2, "--items", 4, "-k", 2)
    assert out.returncode == 1 and "rated value" in out.stderr


def test_help_has_examples():
    out = _cli("--help")
    assert out.returncode == 0 and "examples:" in out.stdout and "recfair evaluate" in out.stdout
    out = _cli("evaluate", "--help")
    assert "--qrels" in out.stdout and "LensKit" in out.stdout
    assert _cli().returncode == 2


def test_the_doors_from_the_command_line(files, tmp_path):
    tmp, a, b, relevant, n, k = files
    frame = rf.io.read_run(tmp / "a.trec")[["user", "item", "rank"]]
    frame.to_csv(tmp_path / "nohead.csv", index=False, header=False)
    common = ["--qrels", tmp / "test.qrels", "--items", tmp / "items.txt", "-m", "MRR"]
    out = _cli("evaluate", tmp_path / "nohead.csv", *common)
    assert out.returncode == 1 and "--columns user,item,rank" in out.stderr and "columns=" not in out.stderr
    out = _cli("evaluate", tmp_path / "nohead.csv", "--columns", "user,item,rank", *common, "--format", "json")
    assert out.returncode == 0, out.stderr
    js = json.loads(out.stdout)
    want = rf.evaluate(a, n_items=n, measures=["MRR"], relevant=relevant)["MRR"]
    assert js["values"][0]["value"] == pytest.approx(want) and "rank column" in js["policy"]
    (tmp_path / "more.qrels").write_text((tmp / "test.qrels").read_text() + "ghost 0 i1 1\n")
    common[1] = tmp_path / "more.qrels"
    out = _cli("evaluate", tmp / "a.trec", *common)
    assert out.returncode == 1 and "1 of the 26 ground-truth users" in out.stderr and "--missing-users zero" in out.stderr
    out = _cli("evaluate", tmp / "a.trec", *common, "--missing-users", "zero", "--format", "csv")
    assert out.returncode == 0, out.stderr
    got = pd.read_csv(pd.io.common.StringIO(out.stdout))
    assert got.loc[got["kind"] == "value", "value"].iloc[0] == pytest.approx(want * 25 / 26)
    assert "count as 0" in got.loc[got["kind"] == "note", "note"].iloc[0]
    latin = tmp_path / "latin.trec"
    latin.write_bytes((tmp / "a.trec").read_bytes().replace(b"u1 ", b"u\xe91 ", 1))
    out = _cli("evaluate", latin, "--qrels", tmp / "test.qrels", "--items", tmp / "items.txt", "-m", "MRR")
    assert out.returncode == 1 and "latin.trec: line 6: byte" in out.stderr and "--encoding" in out.stderr
    out = _cli("evaluate", tmp / "a.trec", "--qrels", tmp / "test.qrels", "--items", tmp / "items.txt", "-m", "MRR",
               "-k", 20)
    assert out.returncode == 1 and "-k 20 but the longest list in the runs has 5" in out.stderr
    out = _cli("evaluate", tmp, "--qrels", tmp / "test.qrels", "--n-items", 30, "-m", "MRR")
    assert out.returncode == 1 and "is a folder" in out.stderr and "Traceback" not in out.stderr
    out = _cli("evaluate", tmp / "a.trec", "--qrels", tmp / "test.qrels", "--n-items", 30, "-m", "MRR", "-o", tmp_path)
    assert out.returncode == 1 and "-o/--output" in out.stderr and "is a folder" in out.stderr


def test_every_part_is_reachable(files, tmp_path):
    tmp, a, b, relevant, n, k = files
    users = [f"u{j}" for j in range(len(relevant))]
    rng = np.random.default_rng(1)
    attrs = pd.DataFrame({"user_id": users, "gender": rng.choice(["F", "M"], len(users)),
                          "age": rng.choice(["young", "old"], len(users))})
    attrs.to_csv(tmp_path / "users.csv", index=False)
    history = [rng.choice(np.setdiff1d(np.arange(n), np.r_[a[u], relevant[u]]), 3, replace=False)
               for u in range(len(users))]
    rf.io.write_relevant(history, tmp_path / "train.qrels", users=users, items=[f"i{j}" for j in range(n)])
    base = ["evaluate", tmp / "a.trec", "--qrels", tmp / "test.qrels", "--items", tmp / "items.txt",
            "--format", "json"]
    out = _cli(*base, "-m", "SD_group", "PUF", "Ent_our", "Ent_ori", "--user-attributes", tmp_path / "users.csv",
               "--grouping", "gender,age", "--history", tmp_path / "train.qrels", "--option", "PUF.base=P",
               "--option", "Ent_our.log_base=2", "--similarity", "cosine")
    assert out.returncode == 0, out.stderr
    rows = {v["measure"]: v for v in json.loads(out.stdout)["values"]}
    got = {key: v["value"] for key, v in rows.items()}
    assert got["Ent_ori"] is None and "never recommended" in rows["Ent_ori"]["reason"]     # a NaN with its reason
    import scipy.sparse as sp

    hist = sp.csr_matrix((np.ones(3 * len(users)), (np.repeat(np.arange(len(users)), 3), np.concatenate(history))),
                         shape=(len(users), n))
    attrs_lib = attrs.set_index("user_id")
    assert got["SD_group"] == pytest.approx(rf.evaluate(a, n_items=n, measures=["SD_group"], relevant=relevant,
                                                        user_attributes=attrs_lib, attributes=["gender", "age"])[
        "SD_group"])
    assert got["PUF"] == pytest.approx(rf.evaluate(a, n_items=n, measures=["PUF"], relevant=relevant, history=hist,
                                                   base="P", similarity="cosine")["PUF"])
    assert got["Ent_our"] == pytest.approx(rf.evaluate(a, n_items=n, measures=["Ent_our"], log_base=2)["Ent_our"])
    old = _cli(*base, "-m", "Ent_ori", "--option", "Ent_ori.base=2")       # an option's old name names the new one
    assert old.returncode == 1 and "Ent_ori's option 'base' is now called 'log_base'" in old.stderr, old.stderr
    assert got["PUF"] != pytest.approx(rf.evaluate(a, n_items=n, measures=["PUF"], relevant=relevant, history=hist,
                                                   similarity="cosine")["PUF"])     # the option took effect
    # a labelled similarity matrix, written in another user order: aligned by id
    sim = np.clip(rng.random((len(users), len(users))), 0, 1)
    sim = (sim + sim.T) / 2
    np.fill_diagonal(sim, 1.0)
    order = rng.permutation(len(users))
    pd.DataFrame(sim[np.ix_(order, order)], index=np.array(users)[order], columns=np.array(users)[order]).to_csv(
        tmp_path / "sim.csv")
    out = _cli(*base, "-m", "PUF", "--similarity", tmp_path / "sim.csv")
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)["values"][0]["value"]
    assert got == pytest.approx(rf.evaluate(a, n_items=n, measures=["PUF"], relevant=relevant, similarity=sim)["PUF"])
    pd.DataFrame(sim[:-1, :-1], index=users[:-1], columns=users[:-1]).to_csv(tmp_path / "short.csv")
    out = _cli(*base, "-m", "PUF", "--similarity", tmp_path / "short.csv")
    assert out.returncode == 1 and "no row or column for 1 evaluated user" in out.stderr
    out = _cli(*base, "-m", "PUF", "--option", "PUF.bse=P")
    assert out.returncode == 1 and "PUF has no option 'bse'" in out.stderr
    out = _cli(*base, "-m", "DPFR", "--history", tmp_path / "train.qrels", "--option", "DPFR.rel=NDCG")
    assert out.returncode == 0, out.stderr
    (tmp_path / "counts.txt").write_text("\n".join(str(len(r)) for r in relevant) + "\n")
    out = _cli("bounds", "IAA_ori", "--items", n, "-k", k, "--n-relevant", tmp_path / "counts.txt")
    want = rf.REGISTRY["IAA_ori"].bounds(len(relevant), n, k, n_relevant=np.array([len(r) for r in relevant]))
    assert out.returncode == 0 and f"{want.most_unfair:.6g}" in out.stdout, out.stderr
    out = _cli("bounds", "IAA_ori", "--items", n, "-k", k, "--n-relevant", tmp / "test.qrels")
    assert out.returncode == 0 and f"{want.most_unfair:.6g}" in out.stdout, out.stderr


def test_needs_and_help_tell_the_truth():
    out = _cli("measures", "--needs", "top_k", "relevant")
    assert out.returncode == 0 and "NDCG" in out.stdout and "PUF" not in out.stdout and "UF" not in out.stdout.split()
    out = _cli("measures", "--needs", "top_k", "relevant", "history")
    assert "PUF" in out.stdout
    out = _cli("--help")
    assert "_ori is the measure as published, NAME_our the thesis's corrected version" in out.stdout


def test_latex_from_the_command_line_compiles(files, tmp_path):
    import shutil

    tmp, *_ = files
    out = _cli("evaluate", tmp / "a.trec", tmp / "b.csv", "--qrels", tmp / "test.qrels", "--n-items", 30, "-m",
               "NDCG", "Gini_our", "IBO_ori", "--format", "latex", "-o", tmp_path / "t.tex")
    assert out.returncode == 0, out.stderr
    tex = (tmp_path / "t.tex").read_text()
    assert "↑" not in tex and "\\end{table}" in tex
    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex is not installed")
    (tmp_path / "doc.tex").write_text("\\documentclass{article}\\usepackage{booktabs}\\begin{document}\n" + tex
                                      + "\n\\end{document}\n")
    run = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout[-2000:]
