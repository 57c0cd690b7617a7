"""The ``recfair`` command line: evaluate run files, list the measures, print achievable bounds.

Run ``recfair --help`` (or ``python -m recfair --help``) for the commands and examples.
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["main", "build_parser"]

_EXAMPLES = """\
examples:
  recfair evaluate bpr.trec als.trec --qrels test.qrels --n-items 3706 -m NDCG Gini_our
  recfair evaluate recs.csv --qrels test.inter --history train.inter --items items.txt -m relevance I
  recfair evaluate a.tsv b.tsv --qrels test.tsv --n-items 1682 -m NDCG Jain_our --compare --format latex -o table.tex
  recfair measures --part I
  recfair measures --needs top_k relevant
  recfair bounds Gini_ori -m 943 -n 1682 -k 10
"""

_EVALUATE_EXAMPLES = """\
Run files: TREC (.trec/.run/.txt), ranx JSON (.json), long frames (.csv/.tsv/.parquet) with named
columns (LensKit user_id,item_id,rank,score; Microsoft Recommenders userID,itemID,prediction), Elliot's
headerless 'user item score' TSV, RecBole .inter files. Ground truth (--qrels) and history likewise
(TREC qrels, frames, .inter). Measures: canonical names (recfair measures), a family (relevance,
item_exposure, joint, pareto, users, groups) or a part (Foundations, I, II, III, IV, V).

examples:
  recfair evaluate bpr.trec --qrels test.qrels --n-items 3706 -m HR NDCG Gini_our
  recfair evaluate lenskit.parquet --qrels test.csv --items items.txt -m relevance -k 20 --format markdown
  recfair evaluate a.run b.run c.run --qrels q.txt --n-items 3706 -m NDCG Gini_our --compare --baseline a
"""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``recfair`` command.

    >>> build_parser().parse_args(["bounds", "Jain_ori", "-m", "3", "-n", "4", "-k", "2"]).name
    'Jain_ori'
    """
    from .files import FORMATS

    parser = argparse.ArgumentParser(
        prog="recfair", formatter_class=argparse.RawDescriptionHelpFormatter, epilog=_EXAMPLES,
        description="Offline evaluation measures of fairness in recommender systems: evaluate and compare run "
                    "files, list the measures, print their achievable bounds.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    ev = sub.add_parser("evaluate", help="score run files (and compare them with intervals and tests)",
                        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=_EVALUATE_EXAMPLES,
                        description="Score one or more run files with recfair's measures.")
    ev.add_argument("runs", nargs="+", metavar="RUN", help="run files (format recognised from extension and header)")
    ev.add_argument("--qrels", "--relevant", dest="qrels", metavar="FILE", help="ground truth (relevant items)")
    ev.add_argument("--history", metavar="FILE", help="training/validation interactions (never recommended)")
    cat = ev.add_mutually_exclusive_group()
    cat.add_argument("--items", metavar="FILE", help="the catalogue: one item id per line")
    cat.add_argument("--n-items", type=int, metavar="N", help="the catalogue size")
    ev.add_argument("-m", "--measures", nargs="+", required=True, metavar="MEASURE", help="measures, families or parts")
    ev.add_argument("-k", type=int, default=10, help="cut-off (default 10)")
    ev.add_argument("--compare", action="store_true",
                    help="bootstrap intervals and paired randomisation tests between the runs")
    ev.add_argument("--baseline", metavar="NAME", help="with --compare: test every run against this run (default: "
                                                         "all pairs)")
    ev.add_argument("--resamples", type=int, default=1000, help="with --compare: resamples (default 1000)")
    ev.add_argument("--ci", type=float, default=0.95, help="with --compare: interval level (default 0.95)")
    ev.add_argument("--test", choices=("permutation", "t", "wilcoxon"), default="permutation")
    ev.add_argument("--correction", choices=("holm", "bh", "none"), default="holm")
    ev.add_argument("--seed", type=int, default=None)
    ev.add_argument("--format", choices=("table", "markdown", "latex", "csv", "json"), default="table")
    ev.add_argument("-o", "--output", metavar="FILE", help="write here instead of standard output")
    ev.add_argument("--run-format", choices=FORMATS, help="format of every run file (default: recognised)")
    ev.add_argument("--names", nargs="+", metavar="NAME", help="names of the runs (default: file names)")

    ms = sub.add_parser("measures", help="list the registered measures",
                        description="List the measures of the registry, optionally filtered.",
                        epilog="examples:\n  recfair measures --part II\n  recfair measures --needs top_k\n",
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    ms.add_argument("--part", nargs="+", metavar="PART", help="Foundations, I, II, III, IV, V")
    ms.add_argument("--needs", nargs="+", metavar="INPUT",
                    help="only measures computable from these inputs (top_k relevant history scores ...)")
    ms.add_argument("--format", choices=("table", "markdown", "csv", "json"), default="table")

    bd = sub.add_parser("bounds", help="achievable bounds of a measure at (m, n, k)",
                        description="Print the achievable most unfair and most fair values of a measure.",
                        epilog="example:\n  recfair bounds Jain_ori -m 943 -n 1682 -k 10\n",
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    bd.add_argument("name", metavar="NAME")
    bd.add_argument("-m", type=int, required=True, help="number of users")
    bd.add_argument("-n", type=int, required=True, help="number of items")
    bd.add_argument("-k", type=int, required=True, help="list length")
    return parser


def main(argv=None) -> int:
    """Entry point of ``recfair`` and ``python -m recfair``; returns the exit status.

    >>> main(["bounds", "Jain_ori", "-m", "3", "-n", "4", "-k", "2"])
    Jain_ori at m=3, n=4, k=2 (↑: higher is fairer)
      most unfair: 0.5
      most fair:   0.9
    0
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    shown = []

    def show(message, category, filename, lineno, file=None, line=None):
        text = str(message)
        if text not in shown:
            shown.append(text)
            print(f"recfair: warning: {text}", file=sys.stderr)

    try:
        with warnings.catch_warnings():
            warnings.showwarning = show
            warnings.simplefilter("always")
            if args.command == "evaluate":
                return _evaluate(args)
            if args.command == "measures":
                return _measures(args)
            return _bounds(args)
    except (ValueError, TypeError, FileNotFoundError, ImportError, KeyError) as err:
        message = err.args[0] if isinstance(err, KeyError) and err.args else err
        print(f"recfair: error: {message}", file=sys.stderr)
        return 1


def _write(text: str, output) -> None:
    if output:
        Path(output).write_text(text if text.endswith("\n") else text + "\n")
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")


def _run_names(paths, names) -> list[str]:
    if names:
        if len(names) != len(paths):
            raise ValueError(f"--names gives {len(names)} names for {len(paths)} runs.")
        if len(set(names)) != len(names):
            raise ValueError("--names repeats a name.")
        return list(names)
    out = []
    for p in paths:
        stem = Path(p).stem
        name, j = stem, 2
        while name in out:
            name, j = f"{stem}-{j}", j + 1
        out.append(name)
    return out


def _evaluate(args) -> int:
    from . import files as rio
    from ..analysis.report import compare, expand_measures
    from ..engine import evaluate_run

    if args.k < 1:
        raise ValueError(f"-k must be a positive integer, got {args.k}.")
    measures = expand_measures(args.measures)
    names = _run_names(args.runs, args.names)
    sources = dict(zip(names, args.runs))
    data = rio.load(sources, relevant=args.qrels, history=args.history, items=args.items, n_items=args.n_items,
                    k=args.k, run_format=args.run_format)
    for _, row in data.report.iterrows():
        print(f"recfair: note: {row['source']}: {row['issue']}: {row['count']}"
              + (f" ({row['detail']})" if row["detail"] else ""), file=sys.stderr)
    runs = {name: data.run(name) for name in names}
    if args.compare:
        if len(runs) < 2 and args.baseline is None:
            print("recfair: note: one run: intervals only (tests need two runs).", file=sys.stderr)
        report = compare(runs, measures, k=args.k, baseline=args.baseline, ci=args.ci, n_resamples=args.resamples,
                         test=args.test, correction=args.correction, seed=args.seed, progress=sys.stderr.isatty())
        values, tests = report.values, report.tests
    else:
        rows = [{"run": name, "measure": key, "value": value}
                for name, run in runs.items() for key, value in evaluate_run(run, measures, on_undefined="nan").items()]
        values, tests, report = pd.DataFrame(rows), None, None
    fmt = args.format
    if fmt == "csv":
        text = values.to_csv(index=False)
    elif fmt == "json":
        payload = {"n_users": len(data.users), "n_items": data.n_items, "k": data.k,
                   "values": json.loads(values.to_json(orient="records"))}
        if tests is not None:
            payload["tests"] = json.loads(tests.to_json(orient="records"))
        text = json.dumps(payload, indent=2, ensure_ascii=False)
    elif report is not None:
        text = {"markdown": report.to_markdown, "latex": report.to_latex}.get(fmt, lambda: _plain(report))()
    else:
        table = values.pivot(index="run", columns="measure", values="value").loc[names, measures]
        from ..registry import get

        table.columns = [f"{get(k).direction} {k}" for k in table.columns]
        if fmt == "markdown":
            from .frames import markdown_table

            text = markdown_table(table.map(_num))
        elif fmt == "latex":
            text = table.map(_num).to_latex(escape=True)
        else:
            text = table.map(_num).to_string()
        text += f"\n\n{len(data.users)} users, n_items = {data.n_items}, k = {data.k}"
    _write(text, args.output)
    return 0


def _num(x) -> str:
    return "NaN" if pd.isna(x) else f"{x:.4f}"


def _plain(report) -> str:
    table = report.table()
    lines = []
    for run, row in table.iterrows():
        lines.append(run)
        lines += [f"  {col:<14} {cell}" for col, cell in row.items()]
    return "\n".join(lines) + "\n\n" + report._legend()


def _measures(args) -> int:
    from ..registry import PARTS, table

    frame = table()
    if args.part:
        known = set(PARTS.values())
        bad = [p for p in args.part if p not in known]
        if bad:
            raise ValueError(f"unknown part(s) {bad}; parts: {', '.join(PARTS.values())}.")
        frame = frame[frame["part"].isin(args.part)]
    if args.needs:
        from ..run import INPUTS

        bad = [x for x in args.needs if x not in INPUTS]
        if bad:
            raise ValueError(f"unknown input(s) {bad}; inputs: {', '.join(INPUTS)}.")
        have = set(args.needs) | {"top_k"}
        frame = frame[[set(n.split(", ")) <= have for n in frame["needs"]]]
    cols = ["part", "direction", "range", "needs", "label"]
    out = frame[cols]
    if args.format == "csv":
        text = out.to_csv()
    elif args.format == "json":
        text = out.reset_index().to_json(orient="records", force_ascii=False, indent=2)
    elif args.format == "markdown":
        from .frames import markdown_table

        text = markdown_table(out)
    else:
        text = out.to_string()
    _write(text, None)
    return 0


def _bounds(args) -> int:
    from ..registry import get

    spec = get(args.name)
    for flag, value in (("-m", args.m), ("-n", args.n), ("-k", args.k)):
        if value < 1:
            raise ValueError(f"{flag} must be a positive integer, got {value}.")
    if args.k > args.n:
        raise ValueError(f"-k {args.k} exceeds -n {args.n}.")
    if spec.achievable is None:
        raise ValueError(f"{spec.key} has no closed-form achievable bounds in recfair.")
    try:
        bounds = spec.bounds(args.m, args.n, args.k)
    except TypeError as err:
        raise ValueError(f"{spec.key}'s bounds need more than (m, n, k): {err}") from None
    print(f"{spec.key} at m={args.m}, n={args.n}, k={args.k} ({spec.direction}: "
          f"{'higher' if spec.higher_is_better else 'lower'} is fairer)")
    print(f"  most unfair: {_fmt(bounds.most_unfair)}")
    print(f"  most fair:   {_fmt(bounds.most_fair)}")
    return 0


def _fmt(x) -> str:
    x = float(x)
    return "NaN" if np.isnan(x) else f"{x:.6g}"
