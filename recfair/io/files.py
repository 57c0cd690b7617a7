"""Read and write the run files other tools produce: TREC, ranx, LensKit, Microsoft Recommenders, Elliot, RecBole.

recfair computes on 0-based integer indices; other tools write arbitrary user and item ids
(strings or integers). This module reads their files into *long frames* of external ids, and
:func:`load` turns runs, ground truth, history and user attributes into recfair's arrays through
**one** id map for users and one for items, shared by all of them.

Formats (recognised from the file's extension and first line, or named with ``format=``):

==============  ==================================================================================
``"trec"``      TREC run ``qid Q0 doc rank score tag`` (``.trec``, ``.run``, ``.txt``); TREC qrels
                ``qid iter doc rel`` (``.qrels``, and ``.txt``/``.trec`` with four fields)
``"json"``      ranx's dict form ``{user: {item: score}}`` (``Run.save("x.json")``, ``Run.to_dict()``)
``"csv"``       a long frame with a header (``.csv``), e.g. LensKit ``user_id,item_id,rank,score`` or
                Microsoft Recommenders ``userID,itemID,prediction``
``"tsv"``       the same with tabs (``.tsv``); without a recognised header, Elliot's ``user item score``
``"inter"``     RecBole's atomic files ``user_id:token item_id:token rating:float ...`` (``.inter``)
``"parquet"``   a long frame in Parquet (needs ``pyarrow``: ``pip install recfair[io]``)
==============  ==================================================================================

Columns are recognised by name (case-insensitive, RecBole's ``:type`` suffix dropped):
users :data:`USER_COLUMNS`, items :data:`ITEM_COLUMNS`, ranks :data:`RANK_COLUMNS`, scores
:data:`SCORE_COLUMNS`, grades :data:`RELEVANCE_COLUMNS`; pass ``columns=`` to name them yourself.

**Reading text.** Files are UTF-8 unless ``encoding=`` says otherwise; a byte-order mark is
dropped, Windows line ends are read, ``.gz`` files are gunzipped, and a byte that is not text in
the encoding (or a control character) is an error naming the file and line. A headerless file
whose third column holds whole numbers could be ranks or scores: it is refused unless
``columns=["user", "item", "rank"]`` (or ``"score"``) says which.

**Order within a list** (``order=``, :data:`ORDERS`). TREC runs are ordered by score as
trec_eval orders them: descending score, ties by descending document id (ir_measures' default
provider, pytrec_eval, does the same; ranx sorts by score with an unstable sort, so its order of
tied documents is unspecified). A rank column that disagrees is reported with the file and
first line; ``order="rank"`` follows it instead. Other files: a rank column is respected (rank 1
first; a repeated rank is an error); a run with scores only is ranked by descending score, ties
in the **file's order** (ranx JSON: the order of the entries); ``order="file"`` takes the rows'
order. A list whose order within the top ``k`` is decided by tied scores is reported.

**Nothing is dropped silently.** Malformed files raise ``ValueError`` naming the file and line.
Unknown item ids, run users without ground truth, users missing from a run and lists shorter
than ``k`` are counted in :attr:`RunSet.report` and announced with one warning each.
Ground-truth users with no list in any run are an error unless ``missing_users=`` chooses
(``"zero"`` or ``"drop"``); without ``items``/``n_items`` the catalogue is unknown and
measures that depend on it refuse to run. Graded ground truth gives graded measures their
grades; binary measures use grade > 0.

>>> import pandas as pd
>>> run = pd.DataFrame({"user_id": ["ann", "ann", "bob", "bob"], "item_id": ["x", "y", "y", "z"],
...                     "score": [0.9, 0.5, 0.7, 0.7]})
>>> truth = pd.DataFrame({"user_id": ["ann", "bob"], "item_id": ["y", "z"]})
>>> data = load({"model": run}, relevant=truth, items=["x", "y", "z", "w"], k=2)
>>> data.top_k["model"].tolist()          # bob's tie (y, z at 0.7): the file's order, y first
[[0, 1], [1, 2]]
>>> data.n_items, data.users.ids.tolist()
(4, ['ann', 'bob'])
"""

from __future__ import annotations

import gzip
import io as _stdio
import json
import warnings
import zlib
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import scipy.sparse as sp

from .._validation import check_positive_int
from ..run import Run

__all__ = ["IdMap", "RunSet", "load", "read_run", "read_relevant", "write_run", "write_relevant",
           "from_ranx", "to_ranx", "detect_format", "USER_COLUMNS", "ITEM_COLUMNS", "RANK_COLUMNS",
           "SCORE_COLUMNS", "RELEVANCE_COLUMNS", "FORMATS", "STYLES", "ORDERS", "MISSING_USERS"]

#: Column names recognised as user ids (LensKit, Microsoft Recommenders, RecBole, ranx, TREC).
USER_COLUMNS = ("user", "user_id", "userid", "uid", "qid", "q_id", "query_id", "query")
#: Column names recognised as item ids.
ITEM_COLUMNS = ("item", "item_id", "itemid", "iid", "doc", "doc_id", "docid", "docno")
#: Column names recognised as 1-based ranks.
RANK_COLUMNS = ("rank", "position")
#: Column names recognised as predicted scores.
SCORE_COLUMNS = ("score", "prediction", "pred", "predicted")
#: Column names recognised as ground-truth grades (rows without one count as relevant, grade 1).
RELEVANCE_COLUMNS = ("relevance", "rel", "grade", "rating", "label")

FORMATS = ("trec", "json", "csv", "tsv", "inter", "parquet")
#: Column layouts :func:`write_run` writes (user, item, rank, score columns; ``None`` = not written).
STYLES = {
    "recfair": ("user", "item", "rank", "score"),
    "lenskit": ("user_id", "item_id", "rank", "score"),
    "recommenders": ("userID", "itemID", None, "prediction"),
    "elliot": ("user", "item", None, "score"),           # headerless TSV
    "recbole": ("user_id:token", "item_id:token", None, "score:float"),
}
#: How each ``order=`` ranks a list (printed in the CLI's help and in every report).
ORDERS = {
    "auto": "TREC runs by score (as trec_eval); other files by their rank column, else by score",
    "score": "descending score; ties: TREC by descending document id (trec_eval's rule), others in file order",
    "rank": "the rank column (1 first)",
    "file": "the order of the rows in the file",
}
#: What ground-truth users without a list in the runs become (``missing_users=``).
MISSING_USERS = {
    "zero": "count as 0 in the per-user relevance means (as trec_eval -c and RecBole do)",
    "drop": "are left out: every measure averages over the users with lists (as ranx's make_comparable)",
}
#: Measure families that do not depend on the catalogue size (the others need ``items``/``n_items``).
_CATALOGUE_FREE = ("relevance", "users", "groups")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_EXTENSIONS = {".trec": "trec", ".run": "trec", ".txt": "trec", ".qrels": "trec", ".json": "json",
               ".csv": "csv", ".tsv": "tsv", ".inter": "inter", ".parquet": "parquet", ".pq": "parquet"}


# --------------------------------------------------------------------------- id maps

class IdMap:
    """External ids ↔ recfair's 0-based indices; index ``j`` is ``ids[j]``.

    Ids are compared as strings (``7`` in a CSV and ``"7"`` in a TREC file are the same id);
    :attr:`ids` gives them back as integers when every id is one.

    Examples
    --------
    >>> m = IdMap(["b", "a", "c"])
    >>> m.index(["c", "a"]).tolist(), len(m)
    ([2, 1], 3)
    >>> IdMap.from_union([[10, 9], ["9", "100"]]).ids.tolist()     # integers sort numerically
    [9, 10, 100]
    """

    def __init__(self, ids):
        keys = pd.Index(_as_str(ids))
        if keys.has_duplicates:
            dup = keys[keys.duplicated()][:5].tolist()
            raise ValueError(f"the id list repeats id(s) {dup}; each id must appear once.")
        self._keys = keys

    @classmethod
    def from_union(cls, collections) -> "IdMap":
        """The sorted union of several id collections (numeric order if every id is an integer)."""
        keys = pd.Index(np.concatenate([_as_str(c) for c in collections] or [np.zeros(0, dtype=object)])).unique()
        return cls(_sort_ids(keys))

    def __len__(self) -> int:
        return len(self._keys)

    def __repr__(self) -> str:
        head = ", ".join(map(str, self.ids[:3].tolist()))
        return f"IdMap({len(self)} ids: {head}{', ...' if len(self) > 3 else ''})"

    @property
    def ids(self) -> np.ndarray:
        """The external ids in index order (integers when all are)."""
        return _restore(self._keys.to_numpy())

    def index(self, ids, *, missing: str = "raise") -> np.ndarray:
        """0-based indices of ``ids``; ``missing="raise"`` (unknown id: error) or ``"mask"`` (-1)."""
        pos = self._keys.get_indexer(_as_str(ids))
        if missing == "raise" and (pos < 0).any():
            bad = np.asarray(_as_str(ids))[pos < 0][:5].tolist()
            raise ValueError(f"unknown id(s) {bad} ({int((pos < 0).sum())} in all).")
        return pos.astype(np.int64)

    def __contains__(self, key) -> bool:
        return str(key) in self._keys


def _py(x):
    """A NumPy scalar as the Python value it holds (``np.int64(1)`` -> ``1``), for messages."""
    return x.item() if isinstance(x, np.generic) else x


def _as_str(ids) -> np.ndarray:
    if isinstance(ids, IdMap):
        return ids._keys.to_numpy()
    arr = np.asarray(list(ids) if not isinstance(ids, (np.ndarray, pd.Series, pd.Index)) else ids)
    if arr.dtype.kind == "f":
        if not np.all(np.isfinite(arr)) or not np.all(arr == np.round(arr)):
            raise ValueError("ids must be strings or integers; found non-integer numbers.")
        arr = arr.astype(np.int64)
    return arr.astype(str).astype(object)


def _all_int(keys) -> bool:
    s = pd.Series(keys, dtype=object)
    return bool(len(s)) and bool(s.str.fullmatch(r"-?\d+").all())


def _sort_ids(keys) -> np.ndarray:
    keys = np.asarray(keys, dtype=object)
    if _all_int(keys):
        return keys[np.argsort(keys.astype(np.int64), kind="stable")]
    return np.sort(keys)


def _restore(keys) -> np.ndarray:
    keys = np.asarray(keys, dtype=object)
    return keys.astype(np.int64) if _all_int(keys) else keys


# --------------------------------------------------------------------------- format detection

def detect_format(path, *, kind: str = "run", encoding: str | None = None) -> str:
    """The format of file ``path`` (one of :data:`FORMATS`), from its extension and first line.

    ``kind`` is ``"run"`` or ``"relevant"`` (TREC runs have six fields, qrels four). A ``.gz``
    file is recognised by the extension before ``.gz``.

    Examples
    --------
    >>> detect_format("model.trec"), detect_format("recs.parquet"), detect_format("test.inter.gz")
    ('trec', 'parquet', 'inter')
    """
    path = Path(path)
    suffix = _suffix(path)
    fmt = _EXTENSIONS.get(suffix)
    first = _first_line(path, encoding) if path.is_file() and fmt != "parquet" else None
    if first is not None:
        fields = first.split()
        if fmt in (None, "trec") and len(fields) in (4, 6) and "," not in first and fields[1].upper() in ("Q0", "0") \
                and _numeric(fields[-1 if len(fields) == 4 else 4]):
            return "trec"
        if fmt == "trec":          # a .txt that is not TREC: a long frame
            fmt = "tsv" if "\t" in first else ("csv" if "," in first else "trec")
        if fmt is None:
            stripped = first.lstrip()
            fmt = "json" if stripped.startswith("{") else ("tsv" if "\t" in first else "csv")
    if fmt is None:
        raise ValueError(f"cannot tell the format of {path} from its extension {suffix!r}; pass one of {FORMATS}.")
    return fmt


def _suffix(path: Path) -> str:
    """The format extension of ``path``: ``.trec`` for ``run.trec`` and ``run.trec.gz``."""
    suffixes = [x.lower() for x in path.suffixes]
    if suffixes and suffixes[-1] == ".gz":
        suffixes = suffixes[:-1]
    return suffixes[-1] if suffixes else ""


def _bytes(path: Path) -> bytes:
    """The file's bytes, gunzipped when they are gzip (a folder or a broken archive: a clear error)."""
    if path.is_dir():
        raise ValueError(f"{path} is a folder, not a file: give the file inside it.")
    if not path.is_file():
        raise FileNotFoundError(f"no such file: {path}")
    data = path.read_bytes()
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as err:
            raise ValueError(f"{path}: not a readable gzip file ({err}).") from None
    return data


def _text(path: Path, encoding: str | None = None) -> str:
    """The file as text: gzip opened, a byte-order mark dropped, bytes outside ``encoding`` refused.

    Control characters (other than tab and line ends) are refused too: no tool writes them, and
    read as part of an id they would silently make a new user or item.
    """
    data = _bytes(path)
    enc = encoding or "utf-8"
    try:
        text = data.decode(enc)
    except LookupError:
        raise ValueError(f"unknown encoding {encoding!r} (encoding=).") from None
    except UnicodeDecodeError as err:
        line = data[:err.start].count(b"\n") + 1
        raise ValueError(f"{path}: line {line}: byte {data[err.start:err.start + 1]!r} is not {enc} text; pass "
                         f"encoding= the file's encoding, e.g. encoding='latin-1'.") from None
    if text.startswith("\ufeff"):
        text = text[1:]
    bad = _CONTROL.search(text)
    if bad is None and "\ufeff" in text:
        bad = re.search("\ufeff", text)
    if bad is not None:
        line = text.count("\n", 0, bad.start()) + 1
        raise ValueError(f"{path}: line {line}: control character {bad.group()!r} in the text; the file is damaged "
                         "or not a text file.")
    return text


def _first_line(path: Path, encoding: str | None = None) -> str | None:
    for line in _text(path, encoding).splitlines():
        if line.strip():
            return line
    return None


def _numeric(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


# --------------------------------------------------------------------------- readers

def read_run(source, *, format: str | None = None, columns=None, encoding: str | None = None) -> pd.DataFrame:
    """Read a run into a long frame ``user, item, rank, score`` of external ids (strings).

    Parameters
    ----------
    source : path, pandas.DataFrame, ranx ``Run`` or dict ``{user: {item: score}}``
        A file in one of :data:`FORMATS`, or an object in memory.
    format : str, optional
        One of :data:`FORMATS`; default: recognised by :func:`detect_format`.
    columns : dict or list of str, optional
        Column names of a long frame, e.g. ``{"user": "uid", "item": "movie", "score": "p"}``, or
        the roles of a headerless file's columns in order, e.g. ``["user", "item", "rank"]``.
    encoding : str, optional
        The text encoding of the file (default UTF-8; a byte-order mark is dropped). Bytes that
        are not text in it are an error naming the file and line. ``.gz`` files are gunzipped.

    Returns
    -------
    pandas.DataFrame
        Columns ``user``, ``item`` (ids as strings), ``rank`` (nullable int, missing if the
        source has none), ``score`` (float, NaN if none) and ``line`` (the row's line in the file,
        for messages). At least one of rank and score is given for every row.

    Examples
    --------
    >>> read_run({"q1": {"d1": 0.5, "d2": 0.9}})[["user", "item", "score"]]
      user item  score
    0   q1   d1    0.5
    1   q1   d2    0.9
    """
    name, frame = _read_any(source, format=format, kind="run", columns=columns, encoding=encoding)
    return _normalise(frame, name, kind="run")


def read_relevant(source, *, format: str | None = None, columns=None, encoding: str | None = None) -> pd.DataFrame:
    """Read ground truth (or history) into a long frame ``user, item, relevance`` of external ids.

    Accepts TREC qrels, ranx ``Qrels`` / dicts ``{user: {item: grade}}``, long frames and RecBole
    ``.inter`` files. A frame without a grade column gives every row grade 1; rows with grade
    ``<= 0`` are judged not relevant (TREC qrels list them). ``format``, ``columns`` and
    ``encoding`` as in :func:`read_run`.

    Examples
    --------
    >>> read_relevant({"q1": {"d1": 1, "d3": 0}})[["user", "item", "relevance"]]
      user item  relevance
    0   q1   d1        1.0
    1   q1   d3        0.0
    """
    name, frame = _read_any(source, format=format, kind="relevant", columns=columns, encoding=encoding)
    return _normalise(frame, name, kind="relevant")


def _read_any(source, *, format, kind, columns, encoding=None):
    """``(name for messages, raw frame with canonical column names and a 'line' column)``."""
    layout = _layout(columns)
    if isinstance(columns, (list, tuple)):
        columns = None
    if isinstance(source, pd.DataFrame):
        frame = _rename(source, "the frame", kind, columns, line_offset=0, row_word="row")
        return "the frame", frame
    if _is_ranx(source):
        return f"the ranx {type(source).__name__}", _from_nested(source.to_dict(), kind)
    if isinstance(source, dict):
        return "the dict", _from_nested(source, kind)
    if not isinstance(source, (str, Path)):
        raise TypeError(f"cannot read a {kind} from a {type(source).__name__}: pass a path, a DataFrame, "
                        "a ranx object or a dict.")
    path = Path(source)
    _bytes(path) if not path.is_file() else None        # a folder or a missing file: its own message
    fmt = format or detect_format(path, kind=kind, encoding=encoding)
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; choose one of {FORMATS}.")
    name = str(path)
    if fmt == "parquet":
        data = _bytes(path)
        try:
            # page checksums, where the writer stored them (recfair does), catch damaged data pages
            frame = pd.read_parquet(_stdio.BytesIO(data), page_checksum_verification=True)
            frame = frame.astype(object)        # strings decoded here, inside the guard
        except ImportError as err:
            raise ImportError(f"reading {path} needs pyarrow: pip install 'recfair[io]' ({err})") from None
        except Exception as err:            # pyarrow's own errors: a damaged or non-parquet file
            raise ValueError(f"{path}: not a readable parquet file ({type(err).__name__}: {err}).") from None
        return name, _rename(frame, name, kind, columns, line_offset=0, row_word="row")
    text = _text(path, encoding)
    if not text.strip():
        raise ValueError(f"{path}: the file is empty.")
    if fmt == "trec":
        return name, _read_trec(text, name, kind)
    if fmt == "json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise ValueError(f"{path}: line {err.lineno}: not valid JSON ({err.msg}).") from None
        if not isinstance(data, dict):
            raise ValueError(f"{path}: expected a JSON object {{user: {{item: score}}}}, got {type(data).__name__}.")
        return name, _from_nested(data, kind, name=name)
    sep = "," if fmt == "csv" else "\t"
    first = next(line for line in text.splitlines() if line.strip())
    header = [_clean(c) for c in first.split(sep)]
    recognised = USER_COLUMNS + ITEM_COLUMNS + RANK_COLUMNS + SCORE_COLUMNS + RELEVANCE_COLUMNS
    if layout is not None:                  # the roles in order: a header line, if any, is skipped
        has_header = any(not _numeric(c) and c not in ("", ) for c, role in zip(first.split(sep), layout)
                         if role in ("rank", "score", "relevance"))
    else:
        has_header = any(c in recognised for c in header) or (columns is not None and
                                                                 any(_clean(v) in header for v in columns.values()))
    try:
        frame = pd.read_csv(_stdio.StringIO(text), sep=sep, header=0 if has_header else None, dtype=str,
                            keep_default_na=False, skip_blank_lines=True, engine="c")
    except pd.errors.ParserError as err:
        raise ValueError(f"{path}: malformed {fmt.upper()} file: {err}") from None
    except pd.errors.EmptyDataError:
        raise ValueError(f"{path}: the file is empty.") from None
    frame = frame.fillna("")                # a row with fewer fields: its missing fields are empty
    if layout is not None:
        if frame.shape[1] != len(layout):
            raise ValueError(f"{path}: columns= names {len(layout)} columns, the file has {frame.shape[1]}.")
        frame.columns = list(layout)
        frame["line"] = np.arange(len(frame)) + (2 if has_header else 1)
        return name, frame
    if not has_header:            # Elliot: user item score[ timestamp]; RecBole without header is not a thing
        if frame.shape[1] < 2:
            raise ValueError(f"{path}: line 1: found {frame.shape[1]} column(s) and no recognised header; "
                             f"a headerless file needs 'user item score' (Elliot) columns.")
        third = "score" if kind == "run" else "relevance"
        if kind == "run" and frame.shape[1] == 2:
            raise ValueError(f"{path}: no header and two columns: user and item, but nothing orders the lists; "
                             "pass columns=['user', 'item'] with order='file' to take the file's order.")
        if kind == "run" and frame[2].str.fullmatch(r"\d+").all():
            raise ValueError(f"{path}: no header, and column 3 holds whole numbers only: it could be a rank "
                             "(user,item,rank: rank 1 first) or a score (Elliot's user item score: highest first); "
                             "name the columns with columns=['user', 'item', 'rank'] or columns=['user', 'item', "
                             "'score'].")
        frame.columns = ["user", "item", third, "timestamp"][: frame.shape[1]] + \
            [f"extra{j}" for j in range(max(0, frame.shape[1] - 4))]
        frame["line"] = np.arange(1, len(frame) + 1)
        return name, frame
    return name, _rename(frame, name, kind, columns, line_offset=2)


def _layout(columns):
    """The roles of a headerless file's columns (``columns=`` given as a list), checked; else None."""
    if columns is None or isinstance(columns, dict):
        return None
    if isinstance(columns, str):
        columns = [c.strip() for c in columns.split(",")]
    if not isinstance(columns, (list, tuple)):
        raise TypeError(f"columns= must be a dict {{role: column name}} or a list of roles, got "
                        f"{type(columns).__name__}.")
    roles = ("user", "item", "rank", "score", "relevance", "ignore")
    bad = [c for c in columns if c not in roles]
    if bad or "user" not in columns or "item" not in columns:
        raise ValueError(f"columns= lists the roles of the file's columns in order, among {', '.join(roles)} "
                         f"(user and item required); got {list(columns)}.")
    return tuple(c if c != "ignore" else f"ignored{j}" for j, c in enumerate(columns))


def _clean(column) -> str:
    return str(column).split(":", 1)[0].strip().lower()


def _rename(frame: pd.DataFrame, name: str, kind: str, columns, *, line_offset: int, row_word="line"):
    out = pd.DataFrame(index=frame.index)
    given = dict(columns or {})
    unknown = set(given) - {"user", "item", "rank", "score", "relevance"}
    if unknown:
        raise ValueError(f"columns= keys must be among user, item, rank, score, relevance; got {sorted(unknown)}.")
    cleaned = {_clean(c): c for c in frame.columns}
    roles = (("user", USER_COLUMNS), ("item", ITEM_COLUMNS), ("rank", RANK_COLUMNS), ("score", SCORE_COLUMNS),
             ("relevance", RELEVANCE_COLUMNS))
    for role, names in roles:
        if role in given:
            if given[role] not in frame.columns:
                raise ValueError(f"{name}: no column {given[role]!r} (columns: {list(frame.columns)}).")
            out[role] = frame[given[role]].to_numpy()
            continue
        hit = next((cleaned[c] for c in names if c in cleaned), None)
        if hit is not None:
            out[role] = frame[hit].to_numpy()
    for role in ("user", "item"):
        if role not in out:
            raise ValueError(f"{name}: no {role} column among {list(frame.columns)}; recognised names: "
                             f"{', '.join((USER_COLUMNS if role == 'user' else ITEM_COLUMNS))} (or pass columns=).")
    out["line"] = np.arange(len(frame)) + (line_offset if row_word == "line" else 0)
    out.attrs["row_word"] = row_word
    return out.reset_index(drop=True)


def _is_ranx(obj) -> bool:
    return type(obj).__module__.startswith("ranx") and hasattr(obj, "to_dict")


def _from_nested(data: dict, kind: str, name: str = "the dict") -> pd.DataFrame:
    users, items, values = [], [], []
    for user, row in data.items():
        if not isinstance(row, dict):
            raise ValueError(f"{name}: user {user!r} maps to a {type(row).__name__}; expected {{item: score}}.")
        users.extend([user] * len(row))
        items.extend(row.keys())
        values.extend(row.values())
    frame = pd.DataFrame({"user": users, "item": items, "score" if kind == "run" else "relevance": values})
    frame["line"] = np.arange(len(frame))
    frame.attrs["row_word"] = "entry"
    return frame


def _read_trec(text: str, name: str, kind: str) -> pd.DataFrame:
    want = 6 if kind == "run" else 4
    users, items, ranks, values, lines = [], [], [], [], []
    for number, line in enumerate(text.splitlines(), start=1):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        if len(fields) != want:
            what = "run line 'qid Q0 doc rank score tag'" if kind == "run" else "qrels line 'qid iter doc rel'"
            raise ValueError(f"{name}: line {number}: expected a TREC {what} ({want} fields), "
                             f"found {len(fields)}: {line.strip()[:80]!r}.")
        users.append(fields[0])
        items.append(fields[2])
        if kind == "run":
            ranks.append(fields[3])
            values.append(fields[4])
        else:
            values.append(fields[3])
        lines.append(number)
    frame = pd.DataFrame({"user": users, "item": items})
    if kind == "run":
        frame["rank"], frame["score"] = ranks, values
    else:
        frame["relevance"] = values
    frame["line"] = lines
    frame.attrs["tool"] = "trec"
    return frame


def _numbers(frame: pd.DataFrame, column: str, name: str, *, integer: bool) -> pd.Series:
    raw = frame[column]
    values = pd.to_numeric(raw, errors="coerce")
    bad = values.isna() & ~(raw.isna() if raw.dtype != object else raw.isin(["", None]))
    if integer:
        bad |= values.notna() & (values != np.round(values))
    if bad.any():
        row = frame.loc[bad.idxmax()]
        word = frame.attrs.get("row_word", "line")
        raise ValueError(f"{name}: {word} {int(row['line'])}: {column} {_py(raw[bad.idxmax()])!r} is not "
                         f"{'an integer' if integer else 'a number'}.")
    return values


def _normalise(frame: pd.DataFrame, name: str, *, kind: str) -> pd.DataFrame:
    word = frame.attrs.get("row_word", "line")
    out = pd.DataFrame({"user": _as_str(frame["user"].to_numpy()), "item": _as_str(frame["item"].to_numpy())})
    empty = (out["user"] == "") | (out["item"] == "")
    if empty.any():
        raise ValueError(f"{name}: {word} {int(frame['line'][empty.idxmax()])}: empty user or item id.")
    if kind == "run":
        rank = _numbers(frame, "rank", name, integer=True) if "rank" in frame else pd.Series(np.nan, index=frame.index)
        score = _numbers(frame, "score", name, integer=False) if "score" in frame else pd.Series(np.nan,
                                                                                                index=frame.index)
        if "rank" not in frame and "score" not in frame:
            out.attrs["unordered"] = True       # only order="file" can rank it (checked by load)
        if (rank < 1).any():
            raise ValueError(f"{name}: {word} {int(frame['line'][(rank < 1).idxmax()])}: ranks are 1-based; "
                             f"found {int(rank[rank < 1].iloc[0])}.")
        if rank.notna().any() and rank.isna().any():
            raise ValueError(f"{name}: {word} {int(frame['line'][rank.isna().idxmax()])}: missing rank.")
        if "rank" not in frame and "score" in frame and score.isna().any():
            raise ValueError(f"{name}: {word} {int(frame['line'][score.isna().idxmax()])}: missing score.")
        out["rank"] = rank.astype("Int64").to_numpy()
        out["score"] = score.astype(np.float64).to_numpy()
    else:
        if "relevance" in frame:
            rel = _numbers(frame, "relevance", name, integer=False)
            if rel.isna().any():
                raise ValueError(f"{name}: {word} {int(frame['line'][rel.isna().idxmax()])}: missing grade "
                                 "(the file has a grade column).")
        else:
            rel = pd.Series(1.0, index=frame.index)
        out["relevance"] = rel.astype(np.float64).to_numpy()
    out["line"] = frame["line"].to_numpy()
    dup = out.duplicated(["user", "item"])
    if dup.any():
        row = out[dup].iloc[0]
        raise ValueError(f"{name}: {word} {int(row['line'])}: item {row['item']!r} appears twice for user "
                         f"{row['user']!r}.")
    out.attrs["source"] = name
    out.attrs["tool"] = frame.attrs.get("tool")
    return out


# --------------------------------------------------------------------------- assembling a run set

@dataclass
class RunSet:
    """Runs, ground truth and history of the same users on one catalogue, as recfair arrays.

    Built by :func:`load`. Rows of every array follow :attr:`users`; item indices follow :attr:`items`.

    Attributes
    ----------
    top_k : dict of str to ndarray (m, k)
        Each run's lists.
    scores : dict of str to ndarray (m, k)
        Each run's scores of the listed items (NaN where the file had none).
    users, items : IdMap
        External ids of the rows and of the item indices. ``len(items)`` can be below
        ``n_items`` when catalogue items without an id were announced through ``n_items``.
    n_items, k : int
    relevant : scipy.sparse.csr_matrix of bool (m, n_items), or None
        Items with a grade above 0.
    relevance : scipy.sparse.csr_matrix of float (m, n_items), or None
        The grades, when some grade differs from 1 (``None`` for binary ground truth).
    history : scipy.sparse.csr_matrix of bool (m, n_items), or None
    user_attributes : pandas.DataFrame, or None
        One row per user of :attr:`users`.
    report : pandas.DataFrame
        What reading found: ``source, issue, count, detail``.
    order : dict of str to str
        How each run's lists were ordered (a key of :data:`ORDERS`).
    catalogue : str
        Where ``n_items`` came from: ``"items"``, ``"n_items"`` or ``"union"`` (the items seen in
        the inputs; measures that depend on the catalogue refuse it).
    missing_users : str or None
        The policy for ground-truth users without a list (a key of :data:`MISSING_USERS`).
    n_missing : int
        How many ground-truth users had no list in any run.
    n_partial : int
        How many ground-truth users were left out for a list shorter than ``k`` (or absent from one run).

    Examples
    --------
    >>> run = pd.DataFrame({"user": ["a", "b"], "item": ["x", "y"], "rank": [1, 1]})
    >>> data = load(run, relevant=pd.DataFrame({"user": ["a", "b"], "item": ["x", "x"]}), n_items=3)
    >>> data
    RunSet(runs=['run'], n_users=2, n_items=3, k=1, relevant=True, history=False, issues=0)
    >>> data.to_frame("run").values.tolist()
    [['a', 'x', 1, 1.0], ['b', 'y', 1, 1.0]]
    """

    top_k: dict
    scores: dict
    users: IdMap
    items: IdMap
    n_items: int
    k: int
    relevant: sp.csr_matrix | None = None
    relevance: sp.csr_matrix | None = None
    history: sp.csr_matrix | None = None
    user_attributes: pd.DataFrame | None = None
    report: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=["source", "issue", "count",
                                                                                  "detail"]))
    order: dict = field(default_factory=dict)
    order_text: dict = field(default_factory=dict, repr=False)
    catalogue: str = "n_items"
    missing_users: str | None = None
    n_missing: int = 0
    n_partial: int = 0

    def __repr__(self) -> str:
        return (f"RunSet(runs={list(self.top_k)}, n_users={len(self.users)}, n_items={self.n_items}, k={self.k}, "
                f"relevant={self.relevant is not None}, history={self.history is not None}, "
                f"issues={len(self.report)})")

    def run(self, name: str, *, graded: bool = False) -> Run:
        """The :class:`recfair.Run` of run ``name``; ``graded=True`` passes the grades (when some
        grade differs from 1), else the binary ground truth (grade > 0)."""
        if name not in self.top_k:
            raise ValueError(f"no run {name!r}; runs: {list(self.top_k)}.")
        grades = graded and self.relevance is not None
        return Run(self.top_k[name], self.n_items, relevant=None if grades else self.relevant,
                   relevance=self.relevance if grades else None, history=self.history,
                   user_attributes=self.user_attributes)

    def split(self, measures) -> list[tuple[list, bool]]:
        """``measures`` in groups ``(keys, graded)``: measures that take grades get them (when the
        ground truth is graded), the others the binary ground truth (grade > 0)."""
        from ..registry import get

        graded = [key for key in measures if self.relevance is not None and get(key).graded]
        binary = [key for key in measures if key not in graded]
        return [(keys, flag) for keys, flag in ((binary, False), (graded, True)) if keys]

    def check_catalogue(self, measures) -> None:
        """Raise ``ValueError`` if a measure depends on the catalogue and none was given."""
        from ..registry import get

        if self.catalogue != "union":
            return
        bound = [key for key in measures if get(key).family not in _CATALOGUE_FREE]
        if bound:
            raise ValueError(f"{', '.join(bound)} depend(s) on the catalogue size, and no catalogue was given: the "
                             f"{self.n_items} distinct items of the files change with which files are read. Give "
                             "the catalogue with items= (a file with one item id per line) or n_items=.")

    def policy(self) -> str:
        """One line on how the files were read: order of the lists, grades, missing users, catalogue."""
        texts = list(dict.fromkeys(self.order_text.get(name, ORDERS[how]) for name, how in self.order.items()))
        parts = [f"lists ordered by {'; '.join(texts)}"]
        if self.relevant is not None:
            parts.append("graded ground truth (binary measures: grade > 0)" if self.relevance is not None
                         else "binary ground truth")
            if self.missing_users is None:
                parts.append("every ground-truth user has a list")
            else:
                if self.n_missing:
                    parts.append(f"{self.n_missing} ground-truth user(s) without a list "
                                 f"{MISSING_USERS[self.missing_users]} (missing_users='{self.missing_users}')")
                if self.n_partial:
                    parts.append(f"{self.n_partial} ground-truth user(s) with a list shorter than k={self.k} (or "
                                 f"none in one run) are left out (missing_users='{self.missing_users}')")
        parts.append({"items": f"catalogue: the item list ({self.n_items} items)",
                      "n_items": f"catalogue: n_items = {self.n_items}",
                      "union": f"no catalogue given ({self.n_items} items seen): catalogue measures refused"}
                     [self.catalogue])
        return "; ".join(parts) + "."

    def evaluate(self, measures, *, names=None, **options) -> pd.DataFrame:
        """Every run on ``measures``: a frame ``run, measure, value, reason`` (``reason`` says why a value is NaN).

        Applies :attr:`missing_users` (``"zero"``: the per-user relevance means count the users
        without a list as 0) and refuses catalogue measures without a catalogue.
        """
        from ..engine import evaluate_run
        from ..registry import get

        self.check_catalogue(measures)
        unused = [o for o in options if not any(o in get(key).options for key in measures)]
        if unused:
            raise ValueError(f"option(s) {unused} are taken by none of the measures {list(measures)}.")
        rows = []
        for name in names or list(self.top_k):
            values = {}
            runs = {}
            for keys, graded in self.split(measures):
                runs.update(dict.fromkeys(keys, self.run(name, graded=graded)))
                taken = {o: v for o, v in options.items() if any(o in get(key).options for key in keys)}
                values.update(evaluate_run(runs[keys[0]], measures=keys, on_undefined="nan", **taken))
            for key in measures:
                value, reason = values[key], ""
                if self.missing_users == "zero" and self.n_missing and get(key).family == "relevance":
                    value = value * len(self.users) / (len(self.users) + self.n_missing)
                if np.isnan(value):
                    reason = _reason(runs[key], key, options)
                rows.append({"run": name, "measure": key, "value": float(value), "reason": reason})
        return pd.DataFrame(rows, columns=["run", "measure", "value", "reason"])

    def to_frame(self, name: str) -> pd.DataFrame:
        """Run ``name`` as a long frame ``user, item, rank, score`` of external ids."""
        top = self.top_k[name]
        m, k = top.shape
        item_ids = self.items.ids
        out = pd.DataFrame({"user": np.repeat(self.users.ids, k), "item": item_ids[top.ravel()],
                            "rank": np.tile(np.arange(1, k + 1), m)})
        scores = self.scores.get(name)
        out["score"] = scores.ravel() if scores is not None and not np.isnan(scores).all() else \
            np.tile(np.arange(k, 0, -1, dtype=np.float64), m)
        return out


def _reason(run, key, options) -> str:
    """Why ``key`` is undefined on ``run``: the library's own warning, else the record's undefined cases."""
    from ..engine import evaluate_run
    from ..registry import get

    taken = {o: v for o, v in options.items() if o in get(key).options}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            evaluate_run(run, measures=[key], on_undefined="warn", **taken)
        except (ValueError, TypeError) as err:
            return str(err)
    text = " ".join(dict.fromkeys(str(w.message) for w in caught))
    return text or f"undefined on this run ({get(key).undefined})"


def load(runs, *, relevant=None, history=None, items=None, n_items: int | None = None, k: int | None = None,
         user_attributes=None, run_format: str | None = None, columns=None, order: str = "auto",
         on_missing: str = "drop", missing_users: str | None = None, encoding: str | None = None) -> RunSet:
    """Read runs, ground truth, history and user attributes into one :class:`RunSet`.

    Parameters
    ----------
    runs : source or dict of name to source
        Each source is anything :func:`read_run` reads (a path, DataFrame, ranx ``Run`` or dict).
        A single source is named after its file (or ``"run"``).
    relevant : source, optional
        Ground truth (TREC qrels, ranx ``Qrels``, a long frame, a RecBole test ``.inter``); grades
        above 0 are relevant, and graded measures get the grades.
    history : source, optional
        Items each user interacted with before (e.g. RecBole's train ``.inter``); they may not
        appear in the lists.
    items : path or sequence, optional
        The catalogue: one item id per line (a file) or a sequence of ids. Fixes ``n_items`` and
        the item indices (in this order). Ids of the other inputs outside it are **unknown**:
        counted, reported and dropped.
    n_items : int, optional
        The catalogue size, when there is no item list: the items seen in the inputs take the
        first indices and the rest are catalogue items never seen. Without ``items`` and
        ``n_items`` the catalogue is unknown: relevance measures work, measures that depend on
        the catalogue refuse to run (:meth:`RunSet.check_catalogue`).
    k : int, optional
        List length; default the longest list. Longer lists are cut at ``k``; users with a
        shorter list in any run are reported and dropped from every run (their lists cannot be
        compared at ``k``).
    user_attributes : pandas.DataFrame or path, optional
        Indexed by user id (or with a user column): one row per user; rows follow :attr:`RunSet.users`.
        A path is read as CSV/TSV with a header.
    run_format : str, optional
        Format of every run file (default: recognised per file).
    columns : dict or list, optional
        Column names for long frames, or the roles of a headerless file's columns (see :func:`read_run`).
    order : {"auto", "score", "rank", "file"}
        How a list is ordered (:data:`ORDERS`). ``"auto"``: TREC runs by score as trec_eval
        does (descending score, ties by descending document id), other files by their rank
        column, else by descending score with ties in the file's order. A rank column that
        disagrees with the order used is reported (file, first line), and so are lists whose
        order within the top ``k`` is decided by tied scores.
    on_missing : {"drop", "raise"}
        Users absent from one of the runs, run users without ground truth, or users with short
        lists: ``"drop"`` them with a warning that counts them (and a row in
        :attr:`RunSet.report`), or raise.
    missing_users : {None, "zero", "drop"}
        Ground-truth users with no list in any run: ``None`` (default) raises a ``ValueError``
        that counts them (and so do ground-truth users whose list is shorter than ``k`` or
        absent from one of the runs: ``"zero"`` and ``"drop"`` leave those out, announced); ``"zero"`` counts them as 0 in the per-user relevance means (as
        ``trec_eval -c`` and RecBole do); ``"drop"`` evaluates the users with lists (as ranx
        with ``make_comparable``). :meth:`RunSet.policy` states the choice.
    encoding : str, optional
        Text encoding of every file (see :func:`read_run`).

    Returns
    -------
    RunSet

    Examples
    --------
    >>> runs = {"m1": {"u1": {"a": 0.9, "b": 0.1}, "u2": {"b": 0.5, "c": 0.4}},
    ...         "m2": {"u1": {"c": 0.3, "a": 0.2}, "u2": {"a": 0.8, "b": 0.8}}}
    >>> data = load(runs, relevant={"u1": {"a": 1}, "u2": {"c": 1}}, items=["a", "b", "c"])
    >>> data.top_k["m1"].tolist(), data.top_k["m2"].tolist()
    ([[0, 1], [1, 2]], [[2, 0], [0, 1]])
    """
    if order not in ORDERS:
        raise ValueError(f"order must be one of {', '.join(map(repr, ORDERS))}; got {order!r}.")
    if on_missing not in ("drop", "raise"):
        raise ValueError(f"on_missing must be 'drop' or 'raise', got {on_missing!r}.")
    if missing_users not in (None, *MISSING_USERS):
        raise ValueError(f"missing_users must be None, 'zero' or 'drop'; got {missing_users!r}.")
    if not isinstance(runs, dict):
        runs = {_name_of(runs): runs}
    if not runs:
        raise ValueError("runs is empty: give at least one run.")
    issues: list[dict] = []

    def issue(source, what, count, detail=""):
        if count:
            issues.append({"source": source, "issue": what, "count": int(count), "detail": detail})

    frames = {name: read_run(src, format=run_format, columns=columns, encoding=encoding) for name, src in runs.items()}
    truth_columns = columns if isinstance(columns, dict) or columns is None else None
    truth = None if relevant is None else read_relevant(relevant, columns=truth_columns, encoding=encoding)
    hist = None if history is None else read_relevant(history, columns=truth_columns, encoding=encoding)

    # ---- the item map: given list, given count, or the union (catalogue measures then refuse)
    seen = [f["item"] for f in frames.values()] + [f["item"] for f in (truth, hist) if f is not None]
    if items is not None:
        item_map = IdMap(_read_items(items, encoding))
        if n_items is not None and int(n_items) != len(item_map):
            raise ValueError(f"n_items={n_items} disagrees with the {len(item_map)} ids of the item list.")
        n_items, catalogue = len(item_map), "items"
    else:
        item_map = IdMap.from_union(seen)
        if n_items is None:
            n_items, catalogue = len(item_map), "union"
            issue("catalogue", "no item list or n_items: catalogue measures refused", n_items,
                  f"{n_items} distinct items seen in the files")
        else:
            n_items, catalogue = check_positive_int(n_items, "n_items"), "n_items"
            if n_items < len(item_map):
                raise ValueError(f"n_items={n_items} is smaller than the {len(item_map)} distinct items of the runs, "
                                 "ground truth and history.")

    def known_items(frame, source):
        pos = item_map.index(frame["item"], missing="mask")
        unknown = pos < 0
        if unknown.any():
            sample = frame["item"][unknown].unique()[:3].tolist()
            first = int(frame["line"][unknown].iloc[0])
            issue(source, "unknown item ids (rows dropped)", unknown.sum(), f"e.g. {sample}, first at line {first}")
            warnings.warn(f"{frame.attrs.get('source', source)}: {int(unknown.sum())} row(s) name items outside the "
                          f"item list (e.g. {sample}, first at line {first}); they are dropped.", UserWarning,
                          stacklevel=3)
        out = frame.loc[~unknown].copy()
        out.attrs = dict(frame.attrs)
        out["i"] = pos[~unknown]
        return out

    frames = {name: known_items(f, f"run {name}") for name, f in frames.items()}
    if truth is not None:
        truth = known_items(truth, "relevant")
    if hist is not None:
        hist = known_items(hist, "history")

    # ---- lists in order
    ordered = {name: _order_lists(f, name, order) for name, f in frames.items()}
    for name, o in ordered.items():
        if o.disagree:
            count, line, used = o.disagree
            source = frames[name].attrs.get("source", name)
            issue(f"run {name}", f"rank column and scores disagree (lists follow the {used})", count,
                  f"first at line {line}")
            warnings.warn(f"{source}: the rank column disagrees with the scores for {count} user(s) (first at line "
                          f"{line}); the lists follow the {used}: {ORDERS[o.how]} (order= chooses: "
                          f"{', '.join(ORDERS)}).", UserWarning, stacklevel=2)
    longest = max(int(o.length.max()) if o.length.size else 0 for o in ordered.values())
    k = longest if k is None else check_positive_int(k, "k")
    if k > n_items:
        raise ValueError(f"k={k} exceeds n_items={n_items}.")
    if k > longest:
        raise ValueError(f"k={k} but the longest list in the runs has {longest} item(s); give k={longest} or less.")

    # ---- ties that decide the order within the top k
    for name, o in ordered.items():
        if o.how != "score":
            continue
        s = o.scores[:, : k + 1]
        tied = int((np.isfinite(s[:, 1:]) & (s[:, 1:] == s[:, :-1])).any(axis=1).sum()) if s.shape[1] > 1 else 0
        if tied:
            rule = "descending document id (trec_eval)" if frames[name].attrs.get("tool") == "trec" else "file order"
            issue(f"run {name}", f"lists with tied scores in the top {k}, ordered by {rule}", tied)
            warnings.warn(f"run {name}: {tied} list(s) have tied scores within the top {k}; the tie-break ({rule}) "
                          "decides their order.", UserWarning, stacklevel=2)

    # ---- the evaluated users: in every run, with a full list, and with ground truth
    keep = None
    for name, o in ordered.items():
        full = pd.Index(o.users[o.length >= k])
        short = int((o.length < k).sum())
        issue(f"run {name}", f"lists shorter than k={k}", short,
              f"shortest has {int(o.length.min())} items" if short else "")
        if short:
            warnings.warn(f"run {name}: {short} user(s) have lists shorter than k={k} (the shortest has "
                          f"{int(o.length.min())} items); they are left out of every run.", UserWarning, stacklevel=2)
        keep = full if keep is None else keep.intersection(full)
        _missing_policy(on_missing, f"run {name}", short, f"user(s) have lists shorter than k={k}")
    all_users = pd.Index(np.concatenate([o.users for o in ordered.values()])).unique()
    for name, o in ordered.items():
        absent = len(all_users.difference(pd.Index(o.users)))
        issue(f"run {name}", "users of other runs missing from this run", absent)
        _missing_policy(on_missing, f"run {name}", absent, "user(s) of other runs are missing from this run")
    n_missing = n_partial = 0
    if truth is not None:
        judged = pd.Index(truth.loc[truth["relevance"] > 0, "user"].unique())
        without = keep.difference(judged)
        issue("relevant", "users without relevant items (dropped)", len(without), f"e.g. {without[:3].tolist()}")
        _missing_policy(on_missing, "relevant", len(without), "run user(s) have no relevant item in the ground truth")
        keep = keep.intersection(judged, sort=False)
        unused = judged.difference(all_users)
        n_missing = len(unused)
        if n_missing and missing_users is None:
            raise ValueError(f"{n_missing} of the {len(judged)} ground-truth users have no list in any run (e.g. "
                             f"{unused[:3].tolist()}); choose missing_users='zero' (count them as 0, as trec_eval -c "
                             "and RecBole do) or missing_users='drop' (evaluate the users with lists, as ranx).")
        issue("relevant", f"ground-truth users without a list (missing_users={missing_users!r})", n_missing,
              f"e.g. {unused[:3].tolist()}")
        partial = judged.intersection(all_users).difference(keep)
        n_partial = len(partial)
        if n_partial and missing_users is None:
            raise ValueError(f"{n_partial} of the {len(judged)} ground-truth users have a list shorter than k={k} in "
                             f"a run, or no list in one of the runs (e.g. {partial[:3].tolist()}); leaving them out "
                             f"changes the mean: give a smaller k=, or missing_users='drop' to leave them out.")
    user_map = IdMap(_sort_ids(keep.to_numpy()))
    m = len(user_map)
    if m == 0:
        raise ValueError("no user has a full list in every run" + (" and ground truth" if truth is not None else "")
                         + f" at k={k}; RunSet.report and the warnings above say why.")
    dropped = len(all_users) - m
    if dropped:
        warnings.warn(f"{dropped} of {len(all_users)} users are left out (missing from a run, lists shorter than "
                      f"k={k}, or no relevant item); {m} remain. RunSet.report counts each reason.", UserWarning,
                      stacklevel=2)

    top_k, scores = {}, {}
    for name, o in ordered.items():
        rows = pd.Index(o.users).get_indexer(user_map._keys)
        top_k[name] = o.lists[rows, :k].copy()
        scores[name] = o.scores[rows, :k].copy()

    def matrix(frame, value=None):
        rows = user_map.index(frame["user"], missing="mask")
        ok = rows >= 0
        data = np.ones(int(ok.sum())) if value is None else frame[value].to_numpy()[ok]
        mat = sp.csr_matrix((data, (rows[ok], frame["i"].to_numpy()[ok])), shape=(m, n_items))
        mat.sort_indices()
        return mat

    relevant_mat = relevance = None
    if truth is not None:
        grades = matrix(truth[truth["relevance"] > 0], "relevance")
        relevant_mat = grades.astype(bool)
        if grades.nnz and not np.all(grades.data == 1.0):
            relevance = grades
    history_mat = None
    if hist is not None:
        history_mat = matrix(hist).astype(bool)
        for name, top in top_k.items():
            hit = history_mat[np.repeat(np.arange(m), k), top.ravel()].A1.reshape(m, k) \
                if history_mat.nnz else np.zeros((m, k), bool)
            if hit.any():
                u = int(np.flatnonzero(hit.any(axis=1))[0])
                raise ValueError(f"run {name}: {int(hit.sum())} recommended item(s) are in the users' history (first: "
                                 f"user {_py(user_map.ids[u])!r}, item {_py(item_map.ids[top[u][hit[u]][0]])!r}); recfair's "
                                 "contract excludes history items — filter them before ranking, or give the "
                                 "history that was excluded.")
    attrs = None
    if user_attributes is not None:
        attrs = _align_attributes(_read_attributes(user_attributes, encoding), user_map)
    report = pd.DataFrame(issues, columns=["source", "issue", "count", "detail"])
    return RunSet(top_k=top_k, scores=scores, users=user_map, items=item_map, n_items=int(n_items), k=k,
                  relevant=relevant_mat, relevance=relevance, history=history_mat, user_attributes=attrs,
                  report=report, order={name: o.how for name, o in ordered.items()}, catalogue=catalogue,
                  order_text={name: _order_text(o.how, frames[name].attrs.get("tool")) for name, o in ordered.items()},
                  missing_users=missing_users if n_missing or n_partial else None, n_missing=n_missing,
                  n_partial=n_partial)


def _missing_policy(on_missing, source, count, what):
    if count and on_missing == "raise":
        raise ValueError(f"{source}: {count} {what} (on_missing='raise').")


def _name_of(source) -> str:
    if isinstance(source, (str, Path)):
        path = Path(source)
        return Path(path.stem).stem if path.suffix.lower() == ".gz" else path.stem
    return getattr(source, "name", None) or "run"


def _read_items(items, encoding=None) -> np.ndarray:
    if isinstance(items, (str, Path)):
        path = Path(items)
        ids = []
        for number, line in enumerate(_text(path, encoding).splitlines(), start=1):
            text = line.strip()
            if not text:
                continue
            if len(text.split()) != 1:
                raise ValueError(f"{path}: line {number}: an item list holds one item id per line, found "
                                 f"{text[:60]!r}.")
            ids.append(text)
        if not ids:
            raise ValueError(f"{path}: the item list is empty.")
        keys = pd.Index(ids)
        if keys.has_duplicates:
            raise ValueError(f"{path}: item id {keys[keys.duplicated()][0]!r} is listed twice.")
        return np.asarray(ids, dtype=object)
    return _as_str(items)


def _read_attributes(attributes, encoding=None) -> pd.DataFrame:
    """User attributes: a DataFrame as given, or a CSV/TSV file with a header (one row per user)."""
    if not isinstance(attributes, (str, Path)):
        return attributes
    path = Path(attributes)
    text = _text(path, encoding)
    first = next((line for line in text.splitlines() if line.strip()), "")
    try:
        return pd.read_csv(_stdio.StringIO(text), sep="\t" if "\t" in first else ",", dtype=str,
                           keep_default_na=False)
    except (pd.errors.ParserError, pd.errors.EmptyDataError) as err:
        raise ValueError(f"{path}: not a user-attribute table with a header ({err}).") from None


def _order_text(how: str, tool) -> str:
    """How a run's lists were ordered, in words (for :meth:`RunSet.policy`)."""
    if how == "score":
        return ("descending score, ties by descending document id (trec_eval)" if tool == "trec"
                else "descending score, ties in the file's order")
    return ORDERS[how]


@dataclass
class _Ordered:
    users: np.ndarray
    lists: np.ndarray
    length: np.ndarray
    scores: np.ndarray
    how: str
    disagree: tuple | None


def _order_lists(frame: pd.DataFrame, name: str, order: str) -> _Ordered:
    """Per user, items in order: lists ``(u, L)`` padded with -1, their lengths and scores."""
    trec = frame.attrs.get("tool") == "trec"
    has_rank = bool(len(frame)) and bool(frame["rank"].notna().all())
    has_score = bool(len(frame)) and bool(frame["score"].notna().all())
    if frame.attrs.get("unordered") and order != "file":
        raise ValueError(f"run {name}: the run has neither a rank nor a score column; order='file' takes the "
                         "order of its rows.")
    how = order if order != "auto" else ("score" if trec and has_score else ("rank" if has_rank else "score"))
    if how == "rank" and not has_rank:
        raise ValueError(f"run {name}: order='rank' but the run has no rank on every row.")
    if how == "score" and not has_score:
        raise ValueError(f"run {name}: order='score' but the run has rows without a score.")
    users, u = np.unique(frame["user"].to_numpy(dtype=object), return_inverse=True)
    items = frame["i"].to_numpy(np.int64)
    score = frame["score"].to_numpy(np.float64)
    line = frame["line"].to_numpy(np.int64)

    def by_score():
        if trec:                        # trec_eval: descending score, then descending document id (strcmp)
            _, doc = np.unique(frame["item"].to_numpy(dtype=object), return_inverse=True)
            return np.lexsort((-doc, -score, u))
        return np.lexsort((line, -score, u))      # ties keep the file's order

    if has_rank:
        rank = frame["rank"].to_numpy(np.int64)
        dup = pd.DataFrame({"u": u, "r": rank}).duplicated()
        if dup.any() and how == "rank":
            row = frame[dup.to_numpy()].iloc[0]
            raise ValueError(f"{frame.attrs.get('source', name)}: line {int(row['line'])}: rank {int(row['rank'])} "
                             f"repeats for user {row['user']!r}; each rank must appear once per user.")
    sorter = {"rank": lambda: np.lexsort((line, rank, u)), "file": lambda: np.lexsort((line, u)),
              "score": by_score}[how]()
    disagree = None
    if has_rank and has_score and how != "rank":
        other = np.lexsort((line, rank, u))
        differs = other != sorter
        if differs.any():
            bad_users = np.unique(u[sorter[differs]])
            first = int(line[sorter[differs]].min())
            disagree = (int(bad_users.size), first, "scores" if how == "score" else "file order")
    elif has_rank and how == "rank" and has_score:
        # following the ranks: a disagreement is a higher score ranked below a lower one (ties are the ranks' call)
        s_u, s_score = u[sorter], score[sorter]
        rises = np.flatnonzero((s_u[1:] == s_u[:-1]) & (s_score[1:] > s_score[:-1])) + 1
        if rises.size:
            disagree = (int(np.unique(s_u[rises]).size), int(line[sorter[rises]].min()), "ranks")
    u_s = u[sorter]
    length = np.bincount(u_s, minlength=users.size)
    start = np.concatenate([[0], np.cumsum(length)[:-1]])
    pos = np.arange(u_s.size) - start[u_s]
    width = int(length.max()) if length.size else 0
    lists = np.full((users.size, width), -1, dtype=np.int64)
    lists[u_s, pos] = items[sorter]
    scores = np.full((users.size, width), np.nan)
    scores[u_s, pos] = score[sorter]
    return _Ordered(users.astype(object), lists, length, scores, how, disagree)


def _align_attributes(attributes, user_map: IdMap) -> pd.DataFrame:
    if not isinstance(attributes, pd.DataFrame):
        raise TypeError(f"user_attributes must be a DataFrame, got {type(attributes).__name__}.")
    frame = attributes
    col = next((c for c in frame.columns if _clean(c) in USER_COLUMNS), None)
    if col is not None:
        frame = frame.set_index(col)
    index = pd.Index(_as_str(frame.index.to_numpy()))
    if index.has_duplicates:
        raise ValueError(f"user_attributes lists user {index[index.duplicated()][0]!r} twice.")
    frame = frame.set_axis(index, axis=0)
    missing = user_map._keys.difference(index)
    if len(missing):
        raise ValueError(f"user_attributes lacks {len(missing)} evaluated user(s), e.g. {missing[:3].tolist()}.")
    out = frame.loc[user_map._keys].copy()
    out.index = pd.Index(user_map.ids, name="user")
    return out


# --------------------------------------------------------------------------- writers

def _long(run, users=None, items=None, scores=None) -> pd.DataFrame:
    """A run (long frame or top-k array + id maps) as ``user, item, rank, score`` with external ids."""
    if isinstance(run, pd.DataFrame):
        frame = run.copy()
        need = {"user", "item"}
        if not need <= set(frame.columns):
            raise ValueError(f"a run frame needs columns user, item and rank or score; it has {list(frame.columns)}.")
        if "rank" not in frame and "score" not in frame:
            raise ValueError("a run frame needs a rank or a score column.")
        if "rank" not in frame:
            frame = frame.sort_values(["user", "score"], ascending=[True, False], kind="stable")
            frame["rank"] = frame.groupby("user").cumcount() + 1
        if "score" not in frame:
            frame["score"] = frame.groupby("user")["rank"].transform("max") - frame["rank"] + 1.0
        return frame[["user", "item", "rank", "score"]].reset_index(drop=True)
    top = np.asarray(run)
    if top.ndim != 2 or not np.issubdtype(top.dtype, np.integer):
        raise TypeError("write a run given as a long DataFrame or an (n_users, k) integer array.")
    m, k = top.shape
    user_ids = np.arange(m) if users is None else (users.ids if isinstance(users, IdMap) else np.asarray(users))
    if len(user_ids) != m:
        raise ValueError(f"users has {len(user_ids)} ids for {m} rows of top_k.")
    item_ids = None if items is None else (items.ids if isinstance(items, IdMap) else np.asarray(items))
    out = pd.DataFrame({"user": np.repeat(user_ids, k),
                        "item": top.ravel() if item_ids is None else item_ids[top.ravel()],
                        "rank": np.tile(np.arange(1, k + 1), m)})
    # without scores, a descending score k..1 makes score-only readers (trec_eval, ranx) rank as we do
    s = np.tile(np.arange(k, 0, -1, dtype=np.float64), m) if scores is None else np.asarray(scores, float).ravel()
    if s.size != m * k:
        raise ValueError(f"scores must have the shape of top_k {top.shape}.")
    out["score"] = s
    return out


def write_run(run, path, *, users=None, items=None, scores=None, format: str | None = None,
              style: str = "recfair", tag: str = "recfair") -> Path:
    """Write a run file that recfair, ranx, trec_eval, LensKit, Elliot or Microsoft Recommenders read.

    Parameters
    ----------
    run : pandas.DataFrame (``user, item`` and ``rank`` and/or ``score``) or ndarray (n_users, k)
        A top-k array is written with ``users``/``items`` ids (default: the indices) and
        ``scores`` (default ``k, k-1, ..., 1``, so that score-only readers rank as recfair does).
    path : str or Path
        The format follows the extension (see :data:`FORMATS`) unless ``format`` is given.
    style : str
        Column layout of csv/tsv/parquet files, one of :data:`STYLES` (``"elliot"`` writes a
        headerless ``user item score`` TSV, ``"recbole"`` an ``.inter`` header).
    tag : str
        The run tag of TREC files.

    Examples
    --------
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "m.trec")
    >>> _ = write_run([[2, 0]], path, users=["u1"], items=["a", "b", "c"])
    >>> print(open(path).read().strip())
    u1 Q0 c 1 2.0 recfair
    u1 Q0 a 2 1.0 recfair
    """
    frame = _long(run, users, items, scores)
    path = Path(path)
    fmt = format or _EXTENSIONS.get(path.suffix.lower())
    if fmt not in FORMATS:
        raise ValueError(f"cannot tell the format of {path} from its extension; pass format= (one of {FORMATS}).")
    if fmt == "trec":
        if any(" " in str(x) for x in np.concatenate([frame["user"].astype(str), frame["item"].astype(str)])):
            raise ValueError("TREC files separate fields by spaces: ids may not contain spaces.")
        lines = (frame["user"].astype(str) + " Q0 " + frame["item"].astype(str) + " " + frame["rank"].astype(str)
                 + " " + frame["score"].map(repr) + f" {tag}")
        path.write_text("\n".join(lines) + "\n")
    elif fmt == "json":
        path.write_text(json.dumps(_nested(frame, "score")))
    else:
        _write_frame(frame, path, fmt, style, value="score")
    return path


def write_relevant(relevant, path, *, users=None, items=None, format: str | None = None,
                   style: str = "recfair") -> Path:
    """Write ground truth: TREC qrels, ranx JSON, or a long frame (csv/tsv/parquet/RecBole ``.inter``).

    ``relevant`` is a long frame ``user, item[, relevance]`` or per-user item lists / a sparse
    matrix with ``users``/``items`` ids (default: the indices).

    Examples
    --------
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "test.qrels")
    >>> _ = write_relevant([[1], [0, 2]], path, users=["u1", "u2"], items=["a", "b", "c"])
    >>> print(open(path).read().strip())
    u1 0 b 1
    u2 0 a 1
    u2 0 c 1
    """
    frame = _long_relevant(relevant, users, items)
    path = Path(path)
    fmt = format or _EXTENSIONS.get(path.suffix.lower())
    if fmt not in FORMATS:
        raise ValueError(f"cannot tell the format of {path} from its extension; pass format= (one of {FORMATS}).")
    if fmt == "trec":
        grade = frame["relevance"].map(lambda g: str(int(g)) if float(g).is_integer() else repr(float(g)))
        path.write_text("\n".join(frame["user"].astype(str) + " 0 " + frame["item"].astype(str) + " " + grade) + "\n")
    elif fmt == "json":
        path.write_text(json.dumps(_nested(frame, "relevance")))
    else:
        _write_frame(frame, path, fmt, style, value="relevance")
    return path


def _long_relevant(relevant, users, items) -> pd.DataFrame:
    if isinstance(relevant, pd.DataFrame):
        frame = relevant.copy()
        if not {"user", "item"} <= set(frame.columns):
            raise ValueError(f"a ground-truth frame needs columns user, item; it has {list(frame.columns)}.")
        if "relevance" not in frame:
            frame["relevance"] = 1.0
        return frame[["user", "item", "relevance"]]
    if sp.issparse(relevant):
        coo = sp.coo_matrix(relevant)
        order = np.lexsort((coo.col, coo.row))
        rows, cols, vals = coo.row[order], coo.col[order], coo.data[order].astype(float)
        n_users = relevant.shape[0]
    else:
        lists = [np.asarray(x, dtype=np.int64) for x in relevant]
        rows = np.repeat(np.arange(len(lists)), [len(x) for x in lists])
        cols = np.concatenate(lists) if lists else np.zeros(0, np.int64)
        vals = np.ones(cols.size)
        n_users = len(lists)
    user_ids = np.arange(n_users) if users is None else (users.ids if isinstance(users, IdMap) else np.asarray(users))
    item_ids = None if items is None else (items.ids if isinstance(items, IdMap) else np.asarray(items))
    return pd.DataFrame({"user": np.asarray(user_ids)[rows], "item": cols if item_ids is None else item_ids[cols],
                         "relevance": vals})


def _nested(frame: pd.DataFrame, value: str) -> dict:
    out: dict = {}
    for user, item, v in zip(frame["user"].astype(str), frame["item"].astype(str), frame[value].astype(float)):
        out.setdefault(user, {})[item] = v
    return out


def _write_frame(frame: pd.DataFrame, path: Path, fmt: str, style: str, *, value: str):
    if style not in STYLES:
        raise ValueError(f"unknown style {style!r}; choose one of {list(STYLES)}.")
    user, item, rank, score = STYLES[style]
    if value == "relevance":
        rank = None
        score = {"recbole": "rating:float", "recommenders": "rating"}.get(style, "relevance")
    names = {"user": user, "item": item}
    if rank is not None:
        names["rank"] = rank
    names[value] = score
    out = frame[list(names)].rename(columns=names)
    if fmt == "parquet":
        try:
            out.to_parquet(path, index=False, write_page_checksum=True)
        except ImportError as err:
            raise ImportError(f"writing {path} needs pyarrow: pip install 'recfair[io]' ({err})") from None
        return
    sep = "," if fmt == "csv" else "\t"
    out.to_csv(path, sep=sep, index=False, header=style != "elliot")


# --------------------------------------------------------------------------- ranx

def to_ranx(run, *, users=None, items=None, scores=None, kind: str = "run", name: str | None = None):
    """A ranx ``Run`` (or ``Qrels`` with ``kind="qrels"``) from a run or ground truth.

    Runs are given as for :func:`write_run` (scores default to ``k..1``), ground truth as for
    :func:`write_relevant` (grades as integers, as ranx wants).

    >>> to_ranx([[1, 0]], users=["q"], items=["a", "b"]).to_dict()      # doctest: +SKIP
    {'q': {'b': 2.0, 'a': 1.0}}
    """
    import ranx

    if kind == "run":
        frame = _long(run, users, items, scores)
        return ranx.Run(_nested(frame, "score"), name=name)
    if kind == "qrels":
        frame = _long_relevant(run, users, items)
        nested = {u: {i: int(round(g)) for i, g in row.items()} for u, row in _nested(frame, "relevance").items()}
        return ranx.Qrels(nested, name=name)
    raise ValueError(f"kind must be 'run' or 'qrels', got {kind!r}.")


def from_ranx(obj) -> pd.DataFrame:
    """A ranx ``Run`` or ``Qrels`` as a long frame (see :func:`read_run` / :func:`read_relevant`).

    >>> import ranx                                                        # doctest: +SKIP
    >>> from_ranx(ranx.Run({"q": {"d": 1.0}}))[["user", "item", "score"]]  # doctest: +SKIP
      user item  score
    0    q    d    1.0
    """
    if not _is_ranx(obj):
        raise TypeError(f"expected a ranx Run or Qrels, got {type(obj).__name__}.")
    if type(obj).__name__ == "Qrels":
        return read_relevant(obj)
    return read_run(obj)
