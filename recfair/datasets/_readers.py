"""Parsers from unpacked dataset files to :class:`~recfair.datasets.Interactions`.

One reader per file layout, all returning original ids (``int64`` where every id is a plain
decimal integer, otherwise strings), ``rating``/``timestamp`` as float (NaN when absent) and
side information indexed by original id. :func:`detect_layout` finds which layout (official or
RecBole atomic) a directory holds.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import numpy as np
import pandas as pd

from ._interactions import Interactions
from ._registry import Archive, DatasetInfo

__all__ = ["detect_layout", "read_directory", "read_atomic_file", "READERS"]

_INTEGER_ID = re.compile(r"0|[1-9][0-9]{0,17}")

# Genre flags of ML-100K's u.item, in file order (also listed in the archive's u.genre).
_ML100K_GENRES = (
    "unknown", "Action", "Adventure", "Animation", "Children's", "Comedy", "Crime", "Documentary",
    "Drama", "Fantasy", "Film-Noir", "Horror", "Musical", "Mystery", "Romance", "Sci-Fi", "Thriller",
    "War", "Western",
)


# --- layout detection ---------------------------------------------------------------------

def _candidate_dirs(directory: Path, depth: int = 2):
    """``directory`` and its sub-directories down to ``depth`` levels, in a fixed order."""
    yield directory
    if depth == 0:
        return
    try:
        children = sorted(p for p in directory.iterdir() if p.is_dir() and not p.name.startswith(("_", ".")))
    except OSError:
        return
    for child in children:
        yield from _candidate_dirs(child, depth - 1)


def detect_layout(directory, info: DatasetInfo, source: str | None = None) -> tuple[Archive, Path] | None:
    """Find which of ``info``'s layouts ``directory`` (or a sub-folder of it) holds.

    Parameters
    ----------
    directory : path-like
    info : DatasetInfo
    source : {"official", "recbole"} or None
        Only accept that layout; ``None`` accepts either, preferring the dataset's default source.

    Returns
    -------
    (Archive, pathlib.Path) or None
        The matching archive entry and the folder that directly holds its files.

    Examples
    --------
    >>> import tempfile
    >>> from recfair.datasets import dataset_info
    >>> detect_layout(tempfile.mkdtemp(), dataset_info("ml-100k")) is None   # an empty folder holds no layout
    True
    """
    directory = Path(directory)
    if not directory.is_dir():
        return None
    sources = [info.default_source] + [s for s in info.archives if s != info.default_source]
    if source is not None:
        sources = [info.archive(source).source]
    for folder in _candidate_dirs(directory):
        for src in sources:
            archive = info.archives[src]
            if all((folder / marker).is_file() for marker in archive.markers):
                return archive, folder
    return None


def read_directory(root, info: DatasetInfo, archive: Archive) -> Interactions:
    """Parse the files in ``root`` with ``archive``'s reader.

    Examples
    --------
    >>> import os
    >>> from recfair.datasets import dataset_info, locate
    >>> folder = locate("lastfm")                # a local copy (RECFAIR_DATA or the cache), if any
    >>> if folder is not None:
    ...     archive, root = detect_layout(folder, dataset_info("lastfm"))
    ...     print(read_directory(root, dataset_info("lastfm"), archive).n_users > 1000)
    ... else:
    ...     print(True)
    True
    """
    reader = READERS[archive.reader]
    return reader(Path(root), info)


# --- helpers ------------------------------------------------------------------------------

def _normalise_ids(values: pd.Series) -> pd.Series:
    """Integer ids as ``int64`` when every id is a plain decimal integer (no sign, no leading zero).

    Leading zeros matter (ISBNs such as ``0195153448``), so such ids stay strings.
    """
    if pd.api.types.is_integer_dtype(values):
        return values.astype("int64")
    codes, uniques = pd.factorize(values)  # check each distinct id once, not every row
    if (codes < 0).any():
        return values
    text = [str(u) for u in uniques]
    if text and all(_INTEGER_ID.fullmatch(t) for t in text):
        return pd.Series(np.array([int(t) for t in text], dtype=np.int64)[codes], index=values.index)
    return values.astype(str)


def _frame(users, items, ratings=None, timestamps=None, **extra) -> pd.DataFrame:
    n = len(users)
    data = {
        "user_id": _normalise_ids(pd.Series(users).reset_index(drop=True)),
        "item_id": _normalise_ids(pd.Series(items).reset_index(drop=True)),
        "rating": _as_float(ratings, n),
        "timestamp": _as_float(timestamps, n),
    }
    data.update({k: _as_float(v, n) for k, v in extra.items()})
    return pd.DataFrame(data)


def _as_float(values, n) -> np.ndarray:
    if values is None:
        return np.full(n, np.nan)
    return pd.to_numeric(pd.Series(values).reset_index(drop=True), errors="coerce").to_numpy("float64")


def _read_text(path: Path) -> str:
    """File contents as text: UTF-8 if it decodes, otherwise latin-1 (older GroupLens files)."""
    raw = path.read_bytes()
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def _read_double_colon(path: Path, names: list[str]) -> pd.DataFrame:
    """Read a ``::``-separated file of short fields (MovieLens ratings/users).

    Splitting on a single ``:`` with the fast C parser and keeping every other column is much
    faster than the python engine's multi-character separator on 10M-row files.
    """
    frame = pd.read_csv(path, sep=":", header=None, dtype=str, keep_default_na=False,
                        usecols=list(range(0, 2 * len(names), 2)), encoding="latin-1")
    frame.columns = names
    return frame


def _first_line(path: Path) -> str:
    with open(path, "rb") as handle:
        return handle.readline().decode("utf-8", errors="replace").strip()


# --- RecBole atomic files -----------------------------------------------------------------

def read_atomic_file(path) -> pd.DataFrame:
    """Read one RecBole atomic file (tab separated, header ``name:type``).

    ``float`` columns become float64; ``token``/``token_seq``/``float_seq`` columns stay strings
    (column names lose their ``:type`` suffix).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "toy.inter"
    >>> _ = path.write_text("user_id:token\\titem_id:token\\trating:float\\n1\\t7\\t4\\n")
    >>> read_atomic_file(path)
      user_id item_id  rating
    0       1       7     4.0
    """
    path = Path(path)
    header = _first_line(path).split("\t")
    names, types = [], []
    for field in header:
        name, sep, kind = field.partition(":")
        if not sep:
            raise ValueError(
                f"{path.name}: header field {field!r} is not 'name:type'; is this a RecBole atomic file?"
            )
        names.append(name)
        types.append(kind)
    options = dict(sep="\t", header=0, names=names, quoting=csv.QUOTE_NONE, keep_default_na=False,
                   na_values=[""], encoding="utf-8", encoding_errors="replace")
    dtypes = {name: "float64" if kind == "float" else str for name, kind in zip(names, types, strict=True)}
    try:
        return pd.read_csv(path, dtype=dtypes, **options)
    except ValueError:  # a malformed number somewhere: read as text and let it become NaN
        frame = pd.read_csv(path, dtype=str, **options)
        for name, kind in zip(names, types, strict=True):
            if kind == "float":
                frame[name] = pd.to_numeric(frame[name], errors="coerce").astype("float64")
        return frame


def _atomic_id_fields(columns, prefix_user: str = "user_id") -> tuple[str, str]:
    if prefix_user not in columns:
        raise ValueError(f"RecBole .inter file has no 'user_id' field (fields: {list(columns)}).")
    for candidate in ("item_id", "artist_id", "isbn", "book_id"):
        if candidate in columns:
            return prefix_user, candidate
    others = [c for c in columns if c.endswith("_id") and c != prefix_user]
    if not others:
        raise ValueError(f"RecBole .inter file has no item id field (fields: {list(columns)}).")
    return prefix_user, others[0]


def _read_atomic(root: Path, info: DatasetInfo) -> Interactions:
    stem = info.archive("recbole").markers[0][: -len(".inter")]
    inter = read_atomic_file(root / f"{stem}.inter")
    user_field, item_field = _atomic_id_fields(inter.columns)
    extra = {"weight": inter["weight"]} if "weight" in inter.columns else {}
    frame = _frame(inter[user_field], inter[item_field], inter.get("rating"), inter.get("timestamp"), **extra)
    users = items = None
    if (root / f"{stem}.user").is_file():
        users = _side_table(read_atomic_file(root / f"{stem}.user"), user_field, "user_id", frame["user_id"])
    if (root / f"{stem}.item").is_file():
        raw = read_atomic_file(root / f"{stem}.item")
        items = _side_table(raw, item_field if item_field in raw.columns else raw.columns[0], "item_id",
                            frame["item_id"])
        items = items.rename(columns={"movie_title": "title", "release_year": "year", "class": "genres",
                                      "genre": "genres", "artist_name": "name"})
        if "genres" in items.columns:
            items["genres"] = items["genres"].str.replace(" ", "|", regex=False)
    return Interactions(frame, name=info.name, implicit=info.implicit, users=users, items=items)


def _side_table(raw: pd.DataFrame, field: str, index_name: str, like: pd.Series) -> pd.DataFrame:
    ids = _normalise_ids(raw[field])
    if pd.api.types.is_integer_dtype(like) != pd.api.types.is_integer_dtype(ids):
        ids = ids.astype(like.dtype) if pd.api.types.is_integer_dtype(like) else ids.astype(str)
    table = raw.drop(columns=[field])
    for column in ("age", "year", "release_year"):  # tokens in the atomic files, numbers in the official ones
        if column in table.columns:
            table[column] = pd.to_numeric(table[column], errors="coerce")
    table.index = pd.Index(ids, name=index_name)
    return table[~table.index.duplicated(keep="first")]


# --- MovieLens ----------------------------------------------------------------------------

def _read_ml100k(root: Path, info: DatasetInfo) -> Interactions:
    data = pd.read_csv(root / "u.data", sep="\t", header=None, names=["user", "item", "rating", "timestamp"])
    frame = _frame(data["user"], data["item"], data["rating"], data["timestamp"])
    users = items = None
    if (root / "u.user").is_file():
        users = pd.read_csv(root / "u.user", sep="|", header=None, encoding="latin-1",
                            names=["user_id", "age", "gender", "occupation", "zip_code"],
                            dtype={"zip_code": str}).set_index("user_id")
    if (root / "u.item").is_file():
        genres = list(_ML100K_GENRES)
        if (root / "u.genre").is_file():
            listed = [line.split("|")[0] for line in _read_text(root / "u.genre").splitlines() if line.strip()]
            genres = listed if len(listed) == len(genres) else genres
        raw = pd.read_csv(root / "u.item", sep="|", header=None, encoding="latin-1", quoting=csv.QUOTE_NONE,
                          names=["item_id", "title", "release_date", "video_release_date", "imdb_url", *genres])
        flags = raw[genres].to_numpy(dtype=bool)
        items = raw[["item_id", "title", "release_date", "imdb_url"]].set_index("item_id")
        items["genres"] = ["|".join(g for g, on in zip(genres, row, strict=True) if on) for row in flags]
    return Interactions(frame, name=info.name, implicit=False, users=users, items=items)


def _read_movies_dat(path: Path) -> pd.DataFrame:
    rows = [line.split("::") for line in _read_text(path).splitlines() if line.strip()]
    items = pd.DataFrame(rows, columns=["item_id", "title", "genres"])
    items["item_id"] = _normalise_ids(items["item_id"])
    return items.set_index("item_id")


def _read_ml_dat(root: Path, info: DatasetInfo) -> Interactions:
    data = _read_double_colon(root / "ratings.dat", ["user", "item", "rating", "timestamp"])
    frame = _frame(data["user"], data["item"], data["rating"], data["timestamp"])
    users = items = None
    if (root / "users.dat").is_file():
        raw = _read_double_colon(root / "users.dat", ["user_id", "gender", "age", "occupation", "zip_code"])
        raw["user_id"] = _normalise_ids(raw["user_id"])
        raw["age"] = raw["age"].astype("int64")
        raw["occupation"] = raw["occupation"].astype("int64")
        users = raw.set_index("user_id")[["age", "gender", "occupation", "zip_code"]]
    if (root / "movies.dat").is_file():
        items = _read_movies_dat(root / "movies.dat")
    return Interactions(frame, name=info.name, implicit=False, users=users, items=items)


def _read_ml_csv(root: Path, info: DatasetInfo) -> Interactions:
    data = pd.read_csv(root / "ratings.csv")
    frame = _frame(data["userId"], data["movieId"], data["rating"], data["timestamp"])
    items = None
    if (root / "movies.csv").is_file():
        items = pd.read_csv(root / "movies.csv").rename(columns={"movieId": "item_id"}).set_index("item_id")
    return Interactions(frame, name=info.name, implicit=False, items=items)


# --- HetRec Last.fm -----------------------------------------------------------------------

def _read_hetrec_lastfm(root: Path, info: DatasetInfo) -> Interactions:
    path = root / "user_artists.dat"
    # Some copies in the wild dropped the header line; a first field that is a number means data.
    has_header = not _first_line(path).split("\t")[0].strip().isdigit()
    data = pd.read_csv(path, sep="\t", header=0 if has_header else None, names=["user", "item", "weight"])
    frame = _frame(data["user"], data["item"], weight=data["weight"])
    items = None
    if (root / "artists.dat").is_file():
        raw = pd.read_csv(root / "artists.dat", sep="\t", quoting=csv.QUOTE_NONE, dtype=str,
                          keep_default_na=False, encoding="utf-8", encoding_errors="replace")
        raw = raw.rename(columns={"id": "item_id"})
        raw["item_id"] = _normalise_ids(raw["item_id"].str.strip())
        items = raw.set_index("item_id")[[c for c in ("name", "url") if c in raw.columns]]
    genres = _hetrec_artist_genres(root)
    if genres is not None:
        items = genres.to_frame() if items is None else items.join(genres, how="outer")
        items["genres"] = items["genres"].fillna(UNTAGGED)
    return Interactions(frame, name=info.name, implicit=True, items=items)


#: How many of Last.fm's most applied tags count as genres (see :func:`_hetrec_artist_genres`).
LASTFM_GENRE_TAGS = 20
#: The genre of an artist that carries none of the genre tags.
UNTAGGED = "untagged"


def _hetrec_artist_genres(root: Path) -> pd.Series | None:
    """One genre per artist of HetRec Last.fm, from the tags its listeners gave it; None without tag files.

    The genres are the :data:`LASTFM_GENRE_TAGS` tags applied most often in the whole dataset
    (``user_taggedartists.dat``: one row per user, artist and tag); an artist's genre is the one of
    them applied to it most often, ties going to the tag applied more often overall, then to the lower
    tag id. Artists that carry none of them are :data:`UNTAGGED` (the reader fills that in for every
    artist without tags). Needs ``tags.dat`` and ``user_taggedartists.dat`` (or its ``-timestamps``
    variant), both in the official archive.
    """
    tags_path = root / "tags.dat"
    assigned = next((root / f for f in ("user_taggedartists.dat", "user_taggedartists-timestamps.dat")
                     if (root / f).is_file()), None)
    if assigned is None or not tags_path.is_file():
        return None
    names = pd.read_csv(tags_path, sep="\t", quoting=csv.QUOTE_NONE, dtype=str, keep_default_na=False,
                        encoding="utf-8", encoding_errors="replace")
    names = names.set_index(names.columns[0])[names.columns[1]]
    names.index = names.index.astype(np.int64)
    rows = pd.read_csv(assigned, sep="\t", usecols=[1, 2], dtype=np.int64)
    rows.columns = ["item_id", "tag"]
    overall = rows["tag"].value_counts()
    overall = overall.sort_index(kind="stable").sort_values(ascending=False, kind="stable")
    genre_tags = overall.index[:LASTFM_GENRE_TAGS]
    rank = pd.Series(np.arange(len(genre_tags)), index=genre_tags)
    kept = rows[rows["tag"].isin(genre_tags)]
    counts = kept.groupby(["item_id", "tag"]).size().rename("n").reset_index()
    counts["rank"] = rank.loc[counts["tag"]].to_numpy()
    best = counts.sort_values(["item_id", "n", "rank"], ascending=[True, False, True], kind="stable")
    best = best.drop_duplicates("item_id")
    index = pd.Index(best["item_id"].to_numpy(dtype=np.int64), name="item_id")
    return pd.Series(names.reindex(best["tag"]).fillna("").to_numpy(), index=index, name="genres")


# --- Book-Crossing ------------------------------------------------------------------------

def _read_bx_csv(path: Path) -> pd.DataFrame:
    return pd.read_csv(path, sep=";", encoding="latin-1", dtype=str, escapechar="\\", quotechar='"',
                       keep_default_na=False, na_values=["NULL", ""], on_bad_lines="skip")


def _read_book_crossing(root: Path, info: DatasetInfo) -> Interactions:
    data = _read_bx_csv(root / "BX-Book-Ratings.csv")
    frame = _frame(data["User-ID"], data["ISBN"].str.strip(), data["Book-Rating"])
    users = items = None
    if (root / "BX-Users.csv").is_file():
        raw = _read_bx_csv(root / "BX-Users.csv")
        raw["User-ID"] = _normalise_ids(raw["User-ID"])
        raw["Age"] = pd.to_numeric(raw["Age"], errors="coerce")
        users = raw.rename(columns={"User-ID": "user_id", "Location": "location", "Age": "age"}).set_index("user_id")
    if (root / "BX-Books.csv").is_file():
        raw = _read_bx_csv(root / "BX-Books.csv")
        raw = raw.rename(columns={"ISBN": "item_id", "Book-Title": "title", "Book-Author": "author",
                                  "Year-Of-Publication": "year", "Publisher": "publisher"})
        raw["item_id"] = raw["item_id"].str.strip()
        items = raw.set_index("item_id")[[c for c in ("title", "author", "year", "publisher") if c in raw.columns]]
        if pd.api.types.is_integer_dtype(frame["item_id"]):  # only if every ISBN happened to be numeric
            items.index = _normalise_ids(pd.Series(items.index)).to_numpy()
    return Interactions(frame, name=info.name, implicit=False, users=users, items=items)


# --- Amazon 2018 ratings-only CSV -----------------------------------------------------------

def _read_amazon(root: Path, info: DatasetInfo) -> Interactions:
    path = root / info.archive("official").markers[0]
    data = pd.read_csv(path, header=None, names=["item", "user", "rating", "timestamp"],
                       dtype={"item": str, "user": str})
    frame = _frame(data["user"], data["item"], data["rating"], data["timestamp"])
    return Interactions(frame, name=info.name, implicit=False)


# --- Jester dataset 1 ---------------------------------------------------------------------

_JESTER_MISSING = 99.0


def jester_wide_to_long(wide: pd.DataFrame, *, first_user: int = 1) -> pd.DataFrame:
    """Turn one Jester-1 sheet (one row per user) into ``user, item, rating`` rows.

    Column 0 is the number of jokes the user rated; columns 1..100 are jokes 1..100; the value
    99 means "not rated". Users are numbered consecutively from ``first_user``.

    >>> import pandas as pd
    >>> jester_wide_to_long(pd.DataFrame([[2, 1.5, 99, -3.0], [1, 99, 99, 8.25]]))
       user  item  rating
    0     1     1    1.50
    1     1     3   -3.00
    2     2     3    8.25
    """
    values = wide.iloc[:, 1:].to_numpy(dtype="float64")
    rows, cols = np.nonzero(~np.isnan(values) & (values != _JESTER_MISSING))
    return pd.DataFrame({
        "user": (rows + first_user).astype("int64"),
        "item": (cols + 1).astype("int64"),
        "rating": values[rows, cols],
    })


def _read_jester_xls(root: Path, info: DatasetInfo) -> Interactions:
    try:
        import xlrd  # noqa: F401  (pandas needs it for .xls)
    except ImportError:
        raise ImportError(
            "Reading the official Jester .xls workbooks needs the optional package 'xlrd' "
            "(pip install xlrd); alternatively use source='recbole'."
        ) from None
    parts, next_user = [], 1
    for marker in info.archive("official").markers:
        wide = pd.read_excel(root / marker, header=None)
        parts.append(jester_wide_to_long(wide, first_user=next_user))
        next_user += len(wide)
    data = pd.concat(parts, ignore_index=True)
    frame = _frame(data["user"], data["item"], data["rating"])
    return Interactions(frame, name=info.name, implicit=False)


READERS = {
    "atomic": _read_atomic,
    "movielens-100k": _read_ml100k,
    "movielens-dat": _read_ml_dat,
    "movielens-csv": _read_ml_csv,
    "hetrec-lastfm": _read_hetrec_lastfm,
    "book-crossing": _read_book_crossing,
    "amazon-ratings": _read_amazon,
    "jester-xls": _read_jester_xls,
}
