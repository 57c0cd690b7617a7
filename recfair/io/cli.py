"""The ``recfair`` command line: evaluate run files, list the measures, print achievable bounds.

Run ``recfair --help`` (or ``python -m recfair --help``) for the commands and examples.
"""

from __future__ import annotations

import argparse
import difflib
import json
import inspect
import re
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["main", "build_parser", "parse_options"]

_VERSIONS = ("measure versions: NAME_ori is the measure as published, NAME_our the thesis's corrected version "
             "(attainable range [0, 1], undefined cases fixed); both are computed.")

_EXAMPLES = f"""\
{_VERSIONS}

examples:
  recfair evaluate bpr.trec als.trec --qrels test.qrels --n-items 3706 -m NDCG Gini_our
  recfair evaluate recs.csv --qrels test.inter --history train.inter --items items.txt -m relevance I
  recfair evaluate a.tsv b.tsv --qrels test.tsv --n-items 1682 -m NDCG Jain_our --compare --format latex -o table.tex
  recfair evaluate run.trec --qrels test.qrels --history train.inter -m PUF --option PUF.base=P
  recfair evaluate run.trec --qrels test.qrels --user-attributes users.csv --grouping gender,age -m V
  recfair measures --part I
  recfair measures --needs top_k relevant
  recfair bounds Gini_ori --users 943 --items 1682 -k 10
  recfair bounds IAA_ori --users 943 --items 1682 -k 10 --n-relevant counts.txt
"""

_EVALUATE_EXAMPLES = f"""\
Run files: TREC (.trec/.run/.txt), ranx JSON (.json), long frames (.csv/.tsv/.parquet) with named
columns (LensKit user_id,item_id,rank,score; Microsoft Recommenders userID,itemID,prediction), Elliot's
headerless 'user item score' TSV, RecBole .inter files; any of them gzipped (.gz). Ground truth (--qrels)
and history likewise (TREC qrels, frames, .inter); graded ground truth gives graded measures their
grades, binary measures use grade > 0. Measures: canonical names (recfair measures), a family
(relevance, item_exposure, joint, pareto, users, groups) or a part (Foundations, I, II, III, IV, V).
{_VERSIONS}

How files are read (every report states it): TREC runs are ordered by score as trec_eval orders them
(ties: descending document id); other files by their rank column, else by score with ties in the file's
order (--order chooses). A headerless file whose third column holds whole numbers is refused unless
--columns says whether it is a rank or a score. Files are UTF-8 (a byte-order mark is dropped;
--encoding reads another). Ground-truth users without a list are an error unless --missing-users
says zero or drop. Measures that depend on the catalogue need --items or --n-items.

examples:
  recfair evaluate bpr.trec --qrels test.qrels --n-items 3706 -m HR NDCG Gini_our
  recfair evaluate lenskit.parquet --qrels test.csv --items items.txt -m relevance -k 20 --format markdown
  recfair evaluate a.run b.run c.run --qrels q.txt --n-items 3706 -m NDCG Gini_our --compare --baseline a
  recfair evaluate recs.csv --columns user,item,rank --qrels test.csv -m NDCG --missing-users zero
"""

# library keywords -> the flags that set them (messages from the library name the flag)
_FLAGS = {"missing_users": "--missing-users", "n_items": "--n-items", "items": "--items", "encoding": "--encoding",
          "columns": "--columns", "order": "--order", "history": "--history", "relevant": "--qrels",
          "user_attributes": "--user-attributes", "similarity": "--similarity", "k": "-k",
          "n_resamples": "--resamples", "baseline": "--baseline", "n_relevant": "--n-relevant",
          "attributes": "--grouping", "digits": "--digits", "run_format": "--run-format", "format": "--run-format"}


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``recfair`` command.

    >>> build_parser().parse_args(["bounds", "Jain_ori", "--users", "3", "--items", "4", "-k", "2"]).name
    'Jain_ori'
    """
    from .files import FORMATS, MISSING_USERS, ORDERS

    parser = argparse.ArgumentParser(
        prog="recfair", formatter_class=argparse.RawDescriptionHelpFormatter, epilog=_EXAMPLES,
        description="Offline evaluation measures of fairness in recommender systems: evaluate and compare run "
                    "files, list the measures, print their achievable bounds.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    ev = sub.add_parser("evaluate", help="score run files (and compare them with intervals and tests)",
                        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=_EVALUATE_EXAMPLES,
                        description="Score one or more run files with recfair's measures.")
    ev.add_argument("runs", nargs="+", metavar="RUN", help="run files (format recognised from extension and header)")
    ev.add_argument("--qrels", "--relevant", dest="qrels", metavar="FILE", help="ground truth (relevant items, grades)")
    ev.add_argument("--history", metavar="FILE", help="training/validation interactions (never recommended)")
    cat = ev.add_mutually_exclusive_group()
    cat.add_argument("--items", metavar="FILE", help="the catalogue: one item id per line")
    cat.add_argument("--n-items", type=int, metavar="N", help="the catalogue size")
    ev.add_argument("-m", "--measures", nargs="+", required=True, metavar="MEASURE", help="measures, families or parts")
    ev.add_argument("-k", type=int, default=None, help="cut-off (default: the length of the longest list)")
    ev.add_argument("--option", action="append", default=[], metavar="MEASURE.KEY=VALUE",
                    help="a measure's option, e.g. PUF.base=P, DPFR.rel=NDCG, Ent_ori.log_base=2 (repeatable)")
    ev.add_argument("--similarity", metavar="NAME|FILE",
                    help="users x users similarity of PUF and UF: jaccard, cosine (from --history), or a CSV/TSV "
                         "matrix labelled with user ids (first row and first column)")
    ev.add_argument("--user-attributes", metavar="FILE",
                    help="CSV/TSV with a header: a user id column and the sensitive attributes (Part V)")
    ev.add_argument("--grouping", metavar="ATTR[,ATTR]",
                    help="the attributes whose intersections make Part V's groups, e.g. gender,age")
    ev.add_argument("--columns", metavar="ROLES",
                    help="columns of a headerless file in order, e.g. user,item,rank (roles: user item rank score "
                         "relevance ignore), or role=name pairs for a file with a header, e.g. user=uid,item=movie")
    ev.add_argument("--order", choices=tuple(ORDERS), default="auto",
                    help="how a list is ordered: " + "; ".join(f"{k}: {v}" for k, v in ORDERS.items()))
    ev.add_argument("--encoding", metavar="NAME", help="text encoding of the files (default utf-8), e.g. latin-1")
    ev.add_argument("--missing-users", choices=tuple(MISSING_USERS),
                    help="ground-truth users without a list: " + "; ".join(f"{k}: they {v}"
                                                                          for k, v in MISSING_USERS.items()))
    ev.add_argument("--compare", action="store_true",
                    help="bootstrap intervals and paired randomisation tests between the runs")
    ev.add_argument("--baseline", metavar="NAME", help="with --compare: test every run against this run (default: "
                                                         "all pairs)")
    ev.add_argument("--resamples", type=int, default=1000, help="with --compare: resamples (default 1000)")
    ev.add_argument("--ci", type=float, default=0.95, help="with --compare: interval level (default 0.95)")
    ev.add_argument("--test", choices=("permutation", "t", "wilcoxon"), default="permutation",
                    help="with --compare: t and wilcoxon apply to means of per-user values; other measures use "
                         "the permutation test, and the report says so")
    ev.add_argument("--correction", choices=("holm", "bh", "none"), default="holm")
    ev.add_argument("--seed", type=int, default=None)
    ev.add_argument("--format", choices=("table", "markdown", "latex", "csv", "json"), default="table",
                    help="csv: values, tests and notes in one file, told apart by its kind column")
    ev.add_argument("--digits", type=int, default=3, metavar="N",
                    help="significant digits of each measure's smallest value (default 3)")
    ev.add_argument("-o", "--output", metavar="FILE", help="write here instead of standard output")
    ev.add_argument("--run-format", choices=FORMATS, help="format of every run file (default: recognised)")
    ev.add_argument("--names", nargs="+", metavar="NAME", help="names of the runs (default: file names)")

    ms = sub.add_parser("measures", help="list the registered measures",
                        description="List the measures of the registry, optionally filtered. " + _VERSIONS,
                        epilog="examples:\n  recfair measures --part II\n  recfair measures --needs top_k\n",
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    ms.add_argument("--part", nargs="+", metavar="PART", help="Foundations, I, II, III, IV, V")
    ms.add_argument("--needs", nargs="+", metavar="INPUT",
                    help="only measures computable from these inputs (top_k relevant history user_attributes ...)")
    ms.add_argument("--format", choices=("table", "markdown", "csv", "json"), default="table")

    bd = sub.add_parser("bounds", help="achievable bounds of a measure for a number of users, items and k",
                        description="Print the achievable most unfair and most fair values of a measure.",
                        epilog="examples:\n  recfair bounds Jain_ori --users 943 --items 1682 -k 10\n"
                               "  recfair bounds IAA_ori --users 943 --items 1682 -k 10 --n-relevant counts.txt\n"
                               "  recfair bounds APLT --users 943 --items 1682 -k 10 --input n_tail=1500\n"
                               "  recfair bounds NDKL --users 3 --items 6 -k 2 --input group_sizes=3,3\n",
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    bd.add_argument("name", metavar="NAME")
    bd.add_argument("--users", type=int, metavar="M", help="number of users (default: the users of --n-relevant)")
    bd.add_argument("--items", type=int, required=True, metavar="N", help="number of items")
    bd.add_argument("-k", "--k", type=int, required=True, help="list length")
    bd.add_argument("--n-relevant", metavar="FILE",
                    help="relevant items per user (the joint measures' bounds): one count per line, or a "
                         "ground-truth file (qrels, csv, .inter) whose users are counted")
    bd.add_argument("--input", action="append", default=[], metavar="KEY=VALUE",
                    help="another input the bounds read (Part VI: n_tail=80, group_sizes=50,50, patience=0.8): a "
                         "number, a comma-separated list, or @FILE with one number per line")
    return parser


def main(argv=None) -> int:
    """Entry point of ``recfair`` and ``python -m recfair``; returns the exit status.

    >>> main(["bounds", "Jain_ori", "--users", "3", "--items", "4", "-k", "2"])
    Jain_ori for 3 users, 4 items, k=2 (↑: higher is fairer)
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
        text = _flagged(str(message))
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
    except (ValueError, TypeError, FileNotFoundError, IsADirectoryError, PermissionError, ImportError,
            KeyError) as err:
        message = err.args[0] if isinstance(err, KeyError) and err.args else err
        print(f"recfair: error: {_flagged(str(message))}", file=sys.stderr)
        return 1


def _flagged(text: str) -> str:
    """A library message with its Python keywords replaced by the flags that set them.

    >>> print(_flagged("k=20 exceeds n_items=10; choose missing_users='zero' or columns=['user', 'item', 'rank']."))
    -k 20 exceeds --n-items 10; choose --missing-users zero or --columns user,item,rank.
    """
    text = re.sub(r"np\.(?:int|float|str_|bool_)\w*\(([^()]*)\)", r"\1", text)
    text = re.sub(r"\bcolumns=\[([^\]]*)\]",
                  lambda mt: "--columns " + ",".join(x.strip().strip("'\"") for x in mt.group(1).split(",")), text)

    def flag(mt):
        value = mt.group(2)
        if value is None:
            return _FLAGS[mt.group(1)]
        return f"{_FLAGS[mt.group(1)]} {value.strip(chr(39))}"

    keys = "|".join(sorted(_FLAGS, key=len, reverse=True))
    return re.sub(rf"(?<![\w\-.])({keys})=('[^']*'|[^\s,;).][^\s,;)]*)?", flag, text)


def _write(text: str, output) -> None:
    text = text if text.endswith("\n") else text + "\n"
    if not output:
        sys.stdout.write(text)
        return
    path = Path(output)
    if path.is_dir():
        raise ValueError(f"-o/--output {path} is a folder; give a file name, e.g. {path / 'report.txt'}.")
    if not path.parent.is_dir():
        raise ValueError(f"-o/--output {path}: the folder {path.parent} does not exist.")
    path.write_text(text)


def _run_names(paths, names) -> list[str]:
    from .files import _name_of

    if names:
        if len(names) != len(paths):
            raise ValueError(f"--names gives {len(names)} names for {len(paths)} runs.")
        if len(set(names)) != len(names):
            raise ValueError("--names repeats a name.")
        return list(names)
    out = []
    for p in paths:
        stem = _name_of(p)
        name, j = stem, 2
        while name in out:
            name, j = f"{stem}-{j}", j + 1
        out.append(name)
    return out


def parse_options(pairs, measures) -> dict:
    """``--option MEASURE.KEY=VALUE`` strings as ``{measure: {key: value}}``, checked against the registry.

    Values are read as int, float, true/false/none, else kept as text.

    >>> parse_options(["PUF.base=P", "Ent_ori.log_base=2"], ["PUF", "Ent_ori"])
    {'PUF': {'base': 'P'}, 'Ent_ori': {'log_base': 2}}
    """
    from .._validation import renamed_option_message
    from ..registry import get

    out: dict = {}
    for pair in pairs:
        mt = re.fullmatch(r"([^.=\s]+)\.([A-Za-z_]\w*)=(.*)", pair)
        if mt is None:
            raise ValueError(f"--option {pair!r}: write MEASURE.KEY=VALUE, e.g. --option PUF.base=P.")
        name, key, raw = mt.groups()
        spec = get(name)
        if spec.key not in measures:
            raise ValueError(f"--option {pair}: {spec.key} is not among the measures (-m).")
        if key not in spec.options and renamed_option_message(spec.key, key):
            raise ValueError(f"--option {pair}: {renamed_option_message(spec.key, key)}.")
        if key not in spec.options:
            raise ValueError(f"--option {pair}: {spec.key} has no option {key!r}; its options: "
                             f"{', '.join(spec.options) or 'none'}.")
        out.setdefault(spec.key, {})[key] = _value(raw)
    return out


def _value(raw: str):
    low = raw.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    if low in ("none", "null"):
        return None
    for cast in (int, float):
        try:
            return cast(raw)
        except ValueError:
            pass
    return raw


def _columns(text):
    if text is None:
        return None
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if parts and all("=" in p for p in parts):
        return dict(p.split("=", 1) for p in parts)
    if any("=" in p for p in parts):
        raise ValueError(f"--columns {text}: give roles in order (user,item,rank) or role=name pairs, not both.")
    return parts


def _similarity(value, users):
    """``--similarity``: a name, or a labelled users x users matrix file aligned to the evaluated ``users``."""
    from . import files as rio

    if value in ("jaccard", "cosine"):
        return value
    path = Path(value)
    if not path.exists():
        raise ValueError(f"--similarity {value}: neither jaccard, cosine nor an existing file.")
    text = rio._text(path)
    first = next((line for line in text.splitlines() if line.strip()), "")
    try:
        frame = pd.read_csv(__import__("io").StringIO(text), sep="\t" if "\t" in first else ",", index_col=0,
                            dtype=str)
    except (pd.errors.ParserError, pd.errors.EmptyDataError) as err:
        raise ValueError(f"--similarity {path}: not a matrix labelled with user ids ({err}).") from None
    rows, cols = rio.IdMap(frame.index.to_numpy()), rio.IdMap(frame.columns.to_numpy())
    keys = [str(u) for u in users.ids]
    missing = [u for u in keys if u not in rows or u not in cols]
    if missing:
        raise ValueError(f"--similarity {path}: no row or column for {len(missing)} evaluated user(s), e.g. "
                         f"{missing[:3]}.")
    matrix = frame.to_numpy()[np.ix_(rows.index(keys), cols.index(keys))]
    try:
        return matrix.astype(np.float64)
    except ValueError:
        raise ValueError(f"--similarity {path}: the matrix holds values that are not numbers.") from None


def _evaluate(args) -> int:
    from . import files as rio
    from ..analysis.report import Report, compare, expand_measures
    from ..registry import get

    if args.k is not None and args.k < 1:
        raise ValueError(f"-k must be a positive integer, got {args.k}.")
    if not 1 <= args.digits <= 15:
        raise ValueError(f"--digits must be from 1 to 15, got {args.digits}.")
    measures = expand_measures(args.measures)
    per_measure = parse_options(args.option, measures)
    shared = {}
    if args.similarity is not None:
        takers = [m for m in measures if "similarity" in get(m).options]
        if not takers:
            raise ValueError("--similarity: none of the measures takes a similarity (PUF and UF do).")
        shared["similarity"] = args.similarity
    if args.grouping is not None:
        if args.user_attributes is None:
            raise ValueError("--grouping names attributes of --user-attributes FILE, which is missing.")
        shared["attributes"] = [a.strip() for a in args.grouping.split(",") if a.strip()]
        if not any("attributes" in get(m).options for m in measures):
            raise ValueError("--grouping: none of the measures forms user groups (Part V's measures do).")
    names = _run_names(args.runs, args.names)
    sources = dict(zip(names, args.runs))
    data = rio.load(sources, relevant=args.qrels, history=args.history, items=args.items, n_items=args.n_items,
                    k=args.k, run_format=args.run_format, columns=_columns(args.columns), order=args.order,
                    missing_users=args.missing_users, encoding=args.encoding, user_attributes=args.user_attributes)
    data.check_catalogue(measures)
    if "similarity" in shared:
        shared["similarity"] = _similarity(shared["similarity"], data.users)
    for _, row in data.report.iterrows():
        print(f"recfair: note: {row['source']}: {_flagged(row['issue'])}: {row['count']}"
              + (f" ({row['detail']})" if row["detail"] else ""), file=sys.stderr)
    policy = _flagged(data.policy())
    groups = _groups(data, measures, per_measure, shared)
    if args.compare:
        if data.missing_users == "zero":
            raise ValueError("--missing-users zero gives point values only: the users without a list cannot be "
                             "resampled; with --compare use --missing-users drop.")
        if len(names) < 2 and args.baseline is None:
            print("recfair: note: one run: intervals only (tests need two runs).", file=sys.stderr)
        parts = []
        for keys, graded, options in groups:
            runs = {name: data.run(name, graded=graded) for name in names}
            parts.append(compare(runs, measures=keys, k=data.k, baseline=args.baseline, ci=args.ci,
                                 n_resamples=args.resamples, test=args.test, correction=args.correction,
                                 resampling_seed=args.seed, progress=sys.stderr.isatty(), **options))
        report = _merge(parts, measures, notes=[policy])
    else:
        frames = [data.evaluate(keys, names=names, **options) for keys, _, options in groups]
        values = pd.concat(frames, ignore_index=True)
        values["order"] = values["measure"].map({m: j for j, m in enumerate(measures)})
        values["r"] = values["run"].map({n: j for j, n in enumerate(names)})
        values = values.sort_values(["r", "order"]).drop(columns=["order", "r"]).reset_index(drop=True)
        report = Report.of_values(values, n_users=len(data.users), notes=[policy])
    report.digits = args.digits
    report.reasons = {cell: _flagged(why) for cell, why in report.reasons.items()}
    fmt = args.format
    if fmt == "csv":
        text = report.to_csv()
    elif fmt == "json":
        values = report.values.assign(reason=[report.reasons.get(c, "") for c in
                                              zip(report.values["run"], report.values["measure"])])
        payload = {"n_users": len(data.users), "n_items": data.n_items, "k": data.k, "policy": policy,
                   "values": json.loads(values.to_json(orient="records"))}
        if args.compare:
            payload["tests"] = json.loads(report.tests.to_json(orient="records"))
        text = json.dumps(payload, indent=2, ensure_ascii=False)
    elif fmt == "markdown":
        text = report.to_markdown()
    elif fmt == "latex":
        text = report.to_latex()
    elif args.compare:
        text = _plain(report)
    else:
        text = report.table().to_string() + "\n\n" + report._legend()
    _write(text, args.output)
    return 0


def _groups(data, measures, per_measure, shared):
    """The measures in groups evaluated together: same grades (graded or binary), same options.

    Until every entry point takes ``options={measure: {key: value}}``, a group's options are
    plain keywords, so measures with different values of one key are evaluated apart.
    """
    from ..registry import get

    out = []
    for keys, graded in data.split(measures):
        buckets: dict = {}
        for key in keys:
            spec = get(key)
            options = {o: v for o, v in shared.items() if o in spec.options}
            options.update(per_measure.get(key, {}))
            sig = repr(sorted(options.items(), key=lambda kv: kv[0]))
            buckets.setdefault(sig, ([], graded, options))[0].append(key)
        out += list(buckets.values())
    return out


def _merge(parts, measures, *, notes):
    """One Report from reports of disjoint measure groups over the same runs."""
    from ..analysis.report import Report

    if len(parts) == 1:
        report = parts[0]
        report.notes = list(notes)
        return report
    first = parts[0]
    order = {m: j for j, m in enumerate(measures)}
    values = pd.concat([p.values for p in parts], ignore_index=True)
    values = values.assign(_r=values["run"].map({r: j for j, r in enumerate(first.runs)}),
                           _m=values["measure"].map(order)).sort_values(["_r", "_m"]).drop(columns=["_r", "_m"])
    tests = pd.concat([p.tests for p in parts], ignore_index=True)
    reasons = {cell: why for p in parts for cell, why in p.reasons.items()}
    return Report(values=values.reset_index(drop=True), tests=tests, measures=list(measures), runs=first.runs,
                  baseline=first.baseline, ci=first.ci, interval=first.interval, alpha=first.alpha,
                  n_resamples=first.n_resamples, test=first.test, correction=first.correction,
                  n_users=first.n_users, notes=list(notes), reasons=reasons)


def _plain(report) -> str:
    table = report.table()
    lines = []
    for run, row in table.iterrows():
        lines.append(run)
        lines += [f"  {col:<14} {cell}" for col, cell in row.items()]
    return "\n".join(lines) + "\n\n" + report._legend()


def _needs(spec) -> set:
    """What a measure needs from the command line: its record's inputs, and the history where the
    default similarity (jaccard) is computed from it."""
    needs = set(spec.needs)
    if spec.options.get("similarity") in ("jaccard", "cosine"):
        needs.add("history")
    return needs


def _measures(args) -> int:
    from ..registry import PARTS, get, table

    frame = table()
    if args.part:
        known = set(PARTS.values())
        bad = [p for p in args.part if p not in known]
        if bad:
            raise ValueError(f"unknown part(s) {bad} in --part; parts: {', '.join(PARTS.values())}.")
        frame = frame[frame["part"].isin(args.part)]
    frame = frame.copy()
    frame["needs"] = [", ".join(sorted(_needs(get(key)), key=lambda x: (x != "top_k", x))) for key in frame.index]
    if args.needs:
        from ..run import INPUTS

        bad = [x for x in args.needs if x not in INPUTS]
        if bad:
            raise ValueError(f"unknown input(s) {bad} in --needs; inputs: {', '.join(INPUTS)}.")
        have = set(args.needs) | {"top_k"}
        frame = frame[[_needs(get(key)) <= have for key in frame.index]]
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


def _n_relevant(path) -> np.ndarray:
    from . import files as rio

    path = Path(path)
    text = rio._text(path)
    rows = [line.strip() for line in text.splitlines() if line.strip()]
    if rows and all(re.fullmatch(r"\d+", r) for r in rows):
        return np.array([int(r) for r in rows], dtype=np.int64)
    truth = rio.read_relevant(path)
    return truth[truth["relevance"] > 0].groupby("user").size().to_numpy(np.int64)


def _bounds(args) -> int:
    from ..analysis.report import expand_measures
    from ..registry import get

    spec = get(expand_measures([args.name])[0])
    params = {}
    if args.n_relevant is not None:
        counts = _n_relevant(args.n_relevant)
        if args.users is not None and args.users != counts.size:
            raise ValueError(f"--users {args.users} but --n-relevant {args.n_relevant} has {counts.size} users.")
        args.users = int(counts.size)
        params["n_relevant"] = counts
    if args.users is None:
        raise ValueError("--users M is required (or --n-relevant FILE, whose users are counted).")
    for flag, value in (("--users", args.users), ("--items", args.items), ("-k", args.k)):
        if value < 1:
            raise ValueError(f"{flag} must be a positive integer, got {value}.")
    if args.k > args.items:
        raise ValueError(f"-k {args.k} exceeds --items {args.items}.")
    if spec.achievable is None:
        from ..bounds import achievable

        achievable(spec.key, args.users, args.items, args.k)       # raises, saying why there are none
    for pair in args.input:
        key, sep, raw = pair.partition("=")
        if not sep or not key.strip().isidentifier():
            raise ValueError(f"--input {pair!r}: write KEY=VALUE, e.g. --input group_sizes=50,50.")
        params[key.strip()] = _input_value(raw, flag=f"--input {pair}")
    accepted = inspect.signature(spec.achievable).parameters
    unknown = sorted(set(params) - set(accepted) - {"n_relevant"})
    if unknown:
        takes = [p for p, v in accepted.items() if v.kind is v.KEYWORD_ONLY]
        raise ValueError(f"{spec.key}'s bounds take no input {unknown[0]!r}; they take: {', '.join(takes) or 'none'}.")
    missing = [p for p, v in accepted.items() if v.kind is v.KEYWORD_ONLY and v.default is v.empty and p not in params]
    if missing and missing != ["n_relevant"]:
        raise ValueError(f"{spec.key}'s bounds need more than the sizes: give "
                         + ", ".join(f"--input {p}=VALUE" for p in missing if p != "n_relevant") + ".")
    try:
        bounds = spec.bounds(args.users, args.items, args.k, **params)
    except TypeError as err:
        raise ValueError(f"{spec.key}'s bounds need more than the sizes: {err}") from None
    if bounds is None:
        raise ValueError(f"{spec.key}'s bounds need each user's number of relevant items: give --n-relevant FILE.")
    print(f"{spec.key} for {args.users} users, {args.items} items, k={args.k} ({spec.direction}: "
          f"{'higher' if spec.higher_is_better else 'lower'} is fairer)")
    print(f"  most unfair: {_fmt(bounds.most_unfair)}")
    print(f"  most fair:   {_fmt(bounds.most_fair)}")
    return 0


def _input_value(raw: str, *, flag: str):
    """A bound's input from the command line: a number, a comma-separated list of them, or ``@FILE``
    with one number per line (a vector) or one comma-separated row per line (a matrix, e.g. each
    user's relevant items per item group)."""
    raw = raw.strip()
    if raw.startswith("@"):
        from . import files as rio

        path = raw[1:]
        rows = []
        for number, line in enumerate(rio._text(Path(path)).splitlines(), 1):
            if line.strip():
                rows.append(_numbers(line.split(","), flag=f"{flag}: {path}, line {number}"))
        if not rows:
            raise ValueError(f"{flag}: {path} holds no numbers.")
        if any(len(row) != len(rows[0]) for row in rows):
            raise ValueError(f"{flag}: {path}: every line needs the same number of values.")
        return np.asarray([row[0] for row in rows] if len(rows[0]) == 1 else rows)
    if "," in raw:
        return tuple(_numbers(raw.split(","), flag=flag))
    return _value(raw)


def _numbers(parts, *, flag: str) -> list:
    values = [_value(part.strip()) for part in parts]
    for part, value in zip(parts, values):
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise ValueError(f"{flag}: {part.strip()!r} is not a number.")
    return values


def _fmt(x) -> str:
    x = float(x)
    return "NaN" if np.isnan(x) else f"{x:.6g}"
