"""recfair.datasets: registry, readers, preprocessing, splits and statistics.

Real-data tests read the offline copies of ML-100K and HetRec Last.fm through RECFAIR_DATA and
are skipped when those files are not available.
"""

from __future__ import annotations

import collections
import dataclasses
import itertools

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from _data_fixtures import isolated_env, shared_data  # noqa: F401
from hypothesis import given, settings
from hypothesis import strategies as st

from recfair import datasets
from recfair.datasets import (
    Interactions,
    Split,
    drop_duplicates,
    drop_missing_ids,
    filter_ratings,
    filter_split,
    k_core_filter,
    load,
    load_split,
    min_train_interactions,
    part_sizes,
    preprocess,
    split_global,
    split_per_user,
    statistics_table,
)
from recfair.datasets._readers import READERS, detect_layout
from recfair.datasets._registry import RECBOLE_BASE_URL


def make(users, items, ratings=None, timestamps=None, name="toy") -> Interactions:
    data = {"user_id": list(users), "item_id": list(items)}
    if ratings is not None:
        data["rating"] = list(ratings)
    if timestamps is not None:
        data["timestamp"] = list(timestamps)
    return Interactions(pd.DataFrame(data), name=name)


def random_log(seed, n_users=30, n_items=40, n_rows=400, timestamps=True) -> Interactions:
    rng = np.random.default_rng(seed)
    pairs = rng.choice(n_users * n_items, size=n_rows, replace=False)
    frame = pd.DataFrame({"user_id": pairs // n_items + 100, "item_id": pairs % n_items + 1000})
    if timestamps:
        frame["timestamp"] = rng.integers(0, 50, n_rows)  # many ties on purpose
    return Interactions(frame, name=f"random{seed}")


def pairs(frame, users="user", items="item") -> set:
    return set(zip(frame[users].tolist(), frame[items].tolist()))


# --- registry -------------------------------------------------------------------------------

THESIS_DATASETS = ["ml-100k", "ml-1m", "ml-10m", "ml-20m", "lastfm", "book-crossing", "amazon-luxury-beauty",
                   "amazon-digital-music", "amazon-industrial-scientific", "jester"]


@pytest.mark.parametrize("name", THESIS_DATASETS)
def test_registry_entry_is_complete(name):
    info = datasets.dataset_info(name)
    assert info.licence and info.citation and info.homepage
    assert info.default_source in info.archives
    assert set(info.archives) == {"official", "recbole"}
    for archive in info.archives.values():
        assert archive.reader in READERS and archive.markers and archive.cache_folder
        for remote in archive.files:
            assert remote.urls and all(u.startswith(("http://", "https://")) for u in remote.urls)
            assert remote.known_hash is None or remote.known_hash.split(":")[0] in {"sha256", "md5"}
    recbole = info.archives["recbole"].files[0]
    assert recbole.urls[0].startswith(RECBOLE_BASE_URL) and recbole.urls[0].endswith(".zip")


def test_registry_known_hashes_and_urls():
    ml100k = datasets.dataset_info("ml-100k").archive("official").files[0]
    assert ml100k.urls == ("https://files.grouplens.org/datasets/movielens/ml-100k.zip",)
    assert ml100k.known_hash == "sha256:50d2a982c66986937beb9ffb3aa76efe955bf3d5c6b761f4e3a7cd717c6a3229"
    assert datasets.dataset_info("ml-10m").archive("official").files[0].known_hash.startswith("md5:ce571fd5")
    assert datasets.dataset_info("lastfm").archive().files[0].known_hash.startswith("sha256:6738f481")
    amazon = datasets.dataset_info("amazon-is").archive("official").files[0]
    assert amazon.filename == "Industrial_and_Scientific.csv" and len(amazon.urls) >= 2
    assert amazon.known_hash is None
    assert len(datasets.dataset_info("jester").archive("official").files) == 3


def test_dataset_names_and_aliases():
    assert datasets.available_datasets() == THESIS_DATASETS
    assert datasets.dataset_info("Ml-1m").name == "ml-1m"
    assert datasets.dataset_info("Book-x").name == "book-crossing"
    assert datasets.dataset_info("hetrec2011-lastfm-2k").name == "lastfm"
    assert datasets.dataset_info("ml-10M100K").name == "ml-10m"
    with pytest.raises(ValueError, match="Unknown dataset 'netflix'; available: ml-100k"):
        datasets.dataset_info("netflix")
    with pytest.raises(TypeError, match="name must be a dataset name"):
        datasets.dataset_info(3)
    with pytest.raises(ValueError, match="source must be one of"):
        datasets.dataset_info("ml-1m").archive("kaggle")
    official_only = dataclasses.replace(datasets.dataset_info("ml-1m"), archives={
        "official": datasets.dataset_info("ml-1m").archive("official")})
    with pytest.raises(ValueError, match="has no 'recbole' archive; available: \\('official',\\)"):
        official_only.archive("recbole")


def test_thesis_preprocessing_defaults():
    assert datasets.thesis_preprocessing("ml-1m") == {"threshold": 3.0, "k_core": 5}
    assert datasets.thesis_preprocessing("ml-10m")["rating_range"] == (3.0, 5.0)
    assert datasets.thesis_preprocessing("book-x")["threshold"] == 6.0
    assert datasets.thesis_preprocessing("jester")["user_max"] == 80
    assert datasets.thesis_preprocessing("lastfm")["threshold"] is None


# --- real data (offline copies) ---------------------------------------------------------------

def test_ml100k_real_counts_and_rows(shared_data):
    inter = load("ml-100k", download=False)
    assert (inter.n_users, inter.n_items, inter.n_interactions) == (943, 1682, 100_000)
    assert inter.frame.iloc[0][["user_id", "item_id", "rating", "timestamp"]].tolist() == [196, 242, 3.0, 881250949.0]
    assert inter.frame["user_id"].dtype == np.int64 and not inter.implicit and inter.has_timestamps
    assert inter.frame["rating"].between(1, 5).all()
    assert len(inter.users) == 943 and inter.users["gender"].value_counts().to_dict() == {"M": 670, "F": 273}
    assert inter.users.loc[1, "occupation"] == "technician" and inter.users.loc[1, "age"] == 24
    assert len(inter.items) == 1682 and inter.items.loc[1, "title"] == "Toy Story"
    assert "Animation" in inter.items.loc[1, "genres"].split("|")
    archive, root = detect_layout(shared_data / "ml-100k", datasets.dataset_info("ml-100k"))
    assert archive.source == "recbole" and root == shared_data / "ml-100k"


def test_lastfm_real_counts_and_rows(shared_data):
    inter = load("lastfm", download=False)
    assert (inter.n_users, inter.n_items, inter.n_interactions) == (1892, 17_632, 92_834)
    first = inter.frame.iloc[0]
    assert (first["user_id"], first["item_id"], first["weight"]) == (2, 51, 13883.0)
    assert inter.implicit and inter.frame["rating"].isna().all() and not inter.has_timestamps
    assert inter.items.loc[1, "name"] == "MALICE MIZER"
    assert datasets.fetch("lastfm", download=False) == shared_data / "hetrec2011-lastfm-2k"


def test_lastfm_thesis_statistics_after_5_core(shared_data):
    data = preprocess(load("lastfm", download=False), **datasets.thesis_preprocessing("lastfm"))
    assert (data.n_users, data.n_items, data.n_interactions) == (1859, 2823, 71_355)
    assert datasets.statistics(data)["sparsity (%)"] == pytest.approx(98.6403, abs=1e-4)


def test_lastfm_paper1_split_matches_thesis_test_items(shared_data):
    split = load_split("lastfm", protocol="paper1", download=False)
    assert (split.n_users, split.n_items) == (1859, 2823)
    per_user = np.bincount(split.test["user"])
    # Paper 1: 104 users with 1 test item, 220 with 2, 488 with 3, 974 with 4, 73 with 5
    assert np.bincount(per_user).tolist() == [0, 104, 220, 488, 974, 73]


def test_ml100k_protocols_on_real_data(shared_data):
    paper1 = load_split("ml-100k", protocol="paper1", download=False)
    user_attributes = paper1.user_attributes
    assert len(user_attributes) == paper1.n_users and user_attributes.loc[0, "user_id"] == paper1.user_ids[0]
    assert paper1.item_metadata.loc[0, "item_id"] == paper1.item_ids[0]
    for frame in (paper1.train, paper1.valid, paper1.test):
        assert {"user", "item", "rating", "timestamp"} <= set(frame.columns)
    for part in ("valid", "test"):  # per-user temporal: no user's held-out item precedes its training items
        later = getattr(paper1, part).groupby("user")["timestamp"].min()
        assert (paper1.train.groupby("user")["timestamp"].max().loc[later.index] <= later).all()
    paper2 = load_split("ml-100k", protocol="paper2", download=False)
    assert paper2.train["timestamp"].max() <= paper2.valid["timestamp"].min()
    assert paper2.valid["timestamp"].max() <= paper2.test["timestamp"].min()
    assert np.bincount(paper2.train["user"], minlength=paper2.n_users).min() >= 5
    paper6 = load_split("ml-100k", protocol="paper6", download=False)
    train_users, train_items = set(paper6.train["user"]), set(paper6.train["item"])
    assert set(paper6.test["user"]) <= train_users and set(paper6.test["item"]) <= train_items
    table = statistics_table([paper1, paper2, paper6], names=["p1", "p2", "p6"])
    assert table.loc["p1", "#interactions"] == 81_697 and table.loc["p1", "test #users"] == 943


def test_load_from_explicit_path(shared_data, tmp_path):
    inter = load("ml-100k", path=shared_data / "ml-100k")
    assert inter.n_interactions == 100_000
    with pytest.raises(FileNotFoundError, match="holds no recognised files of dataset 'ml-100k'"):
        load("ml-100k", path=tmp_path)


# --- readers on miniature files of each layout ------------------------------------------------

def write(folder, files: dict, encoding="utf-8"):
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_bytes(text.encode(encoding))
    return folder


def test_reader_ml100k_official(tmp_path):
    from _data_fixtures import ML100K_FILES

    write(tmp_path / "ml-100k", {k.split("/")[1]: v for k, v in ML100K_FILES.items()})
    inter = load("ml-100k", path=tmp_path)  # found one level down
    assert inter.frame[["user_id", "item_id", "rating"]].values.tolist()[0] == [1, 10, 5.0]
    assert inter.users.loc[3, "occupation"] == "writer" and inter.items.loc[30, "genres"] == "Drama"


def test_reader_ml1m_double_colon(tmp_path):
    write(tmp_path, {
        "ratings.dat": "1::1193::5::978300760\n2::661::3::978302109\n",
        "users.dat": "1::F::1::10::48067\n2::M::56::16::70072\n",
        "movies.dat": "1193::One Flew Over the Cuckoo's Nest (1975)::Drama\n"
                      "661::Star Wars: Episode IV - A New Hope (1977)::Action|Sci-Fi\n",
    }, encoding="latin-1")
    inter = load("ml-1m", path=tmp_path)
    assert inter.frame[["user_id", "item_id", "rating", "timestamp"]].values.tolist() == [
        [1, 1193, 5.0, 978300760.0], [2, 661, 3.0, 978302109.0]]
    assert inter.users.loc[2].tolist() == [56, "M", 16, "70072"]
    assert inter.items.loc[661, "title"] == "Star Wars: Episode IV - A New Hope (1977)"


def test_reader_ml20m_csv(tmp_path):
    write(tmp_path / "ml-20m", {
        "ratings.csv": "userId,movieId,rating,timestamp\n1,2,3.5,1112486027\n",
        "movies.csv": 'movieId,title,genres\n2,"Jumanji, The (1995)",Adventure\n',
    })
    inter = load("ml-20m", path=tmp_path / "ml-20m")
    assert inter.frame.iloc[0][["user_id", "item_id", "rating"]].tolist() == [1, 2, 3.5]
    assert inter.items.loc[2, "title"] == "Jumanji, The (1995)"


def test_reader_book_crossing(tmp_path):
    write(tmp_path, {
        "BX-Book-Ratings.csv": '"User-ID";"ISBN";"Book-Rating"\n"276725";"034545104X";"0"\n'
                               '"276726";"0155061224";"5"\n',
        "BX-Users.csv": '"User-ID";"Location";"Age"\n"276725";"tyler, texas, usa";NULL\n'
                        '"276726";"seattle, washington, usa";"29"\n',
        "BX-Books.csv": '"ISBN";"Book-Title";"Book-Author";"Year-Of-Publication";"Publisher"\n'
                        '"0155061224";"Rites of Passage";"Judith Rae";"2001";"Heinle"\n',
    }, encoding="latin-1")
    inter = load("book-x", path=tmp_path, source="official")
    assert inter.frame["item_id"].tolist() == ["034545104X", "0155061224"]  # leading zero kept: strings
    assert inter.frame["user_id"].tolist() == [276725, 276726] and inter.frame["rating"].tolist() == [0.0, 5.0]
    assert np.isnan(inter.users.loc[276725, "age"]) and inter.users.loc[276726, "age"] == 29
    assert inter.items.loc["0155061224", "author"] == "Judith Rae"


def test_reader_hetrec_without_header(tmp_path):
    write(tmp_path, {"user_artists.dat": "2\t51\t13883\r\n2\t52\t11690\r\n"})
    inter = load("lastfm", path=tmp_path)
    assert inter.frame[["user_id", "item_id", "weight"]].values.tolist() == [[2, 51, 13883.0], [2, 52, 11690.0]]


def test_reader_recbole_atomic_lastfm(tmp_path):
    write(tmp_path / "lastfm", {
        "lastfm.inter": "user_id:token\tartist_id:token\tweight:float\ttag_value:token_seq\n"
                        "2\t51\t13883\trock pop\n3\t007\t5\t\n",
    })
    inter = load("lastfm", path=tmp_path, source="recbole")
    assert inter.frame["item_id"].tolist() == ["51", "007"]  # "007" is not a plain integer id
    assert inter.frame["weight"].tolist() == [13883.0, 5.0] and inter.implicit
    with pytest.raises(FileNotFoundError):
        load("lastfm", path=tmp_path, source="official")


def test_read_atomic_file_rejects_other_formats(tmp_path):
    path = write(tmp_path, {"x.inter": "user_id\titem_id\n1\t2\n"}) / "x.inter"
    with pytest.raises(ValueError, match="is not 'name:type'"):
        datasets.read_atomic_file(path)


@pytest.mark.parametrize(
    ("header", "match"),
    [("uid:token\titem_id:token", "no 'user_id' field"), ("user_id:token\trating:float", "no item id field")],
)
def test_atomic_inter_needs_user_and_item_fields(tmp_path, header, match):
    write(tmp_path, {"jester.inter": header + "\n1\t2\n"})
    with pytest.raises(ValueError, match=match):
        load("jester", path=tmp_path)


def test_jester_wide_to_long_and_missing_xlrd(tmp_path):
    wide = pd.DataFrame([[3, -9.5, 99, 0.0], [1, 99, 7.25, 99]])
    long = datasets.jester_wide_to_long(wide, first_user=11)
    assert long.values.tolist() == [[11, 1, -9.5], [11, 3, 0.0], [12, 2, 7.25]]
    try:
        import xlrd  # noqa: F401
    except ImportError:
        write(tmp_path, {f"jester-data-{i}.xls": "" for i in (1, 2, 3)})
        with pytest.raises(ImportError, match="xlrd"):
            load("jester", path=tmp_path, source="official")


# --- preprocessing --------------------------------------------------------------------------

def test_interactions_validation():
    with pytest.raises(TypeError, match="frame must be a pandas DataFrame"):
        Interactions([1, 2])
    with pytest.raises(ValueError, match="missing \\['item_id'\\]"):
        Interactions(pd.DataFrame({"user_id": [1]}))
    with pytest.raises(TypeError, match="column 'rating' must be numeric"):
        Interactions(pd.DataFrame({"user_id": [1], "item_id": [1], "rating": ["good"]}))
    with pytest.raises(TypeError, match="users must be a pandas DataFrame"):
        Interactions(pd.DataFrame({"user_id": [1], "item_id": [1]}), users={"a": 1})


def test_drop_missing_ids():
    inter = make(["a", None, "b", "c"], ["x", "y", " ", None])
    assert drop_missing_ids(inter).frame["user_id"].tolist() == ["a"]


def test_duplicates_keep_most_recent_by_timestamp():
    inter = make([1, 1, 1, 2], [5, 5, 5, 5], ratings=[1, 5, 2, 4], timestamps=[30, 10, 30, 1])
    out = drop_duplicates(inter)  # rows 0 and 2 tie on the latest time: the later row wins
    assert out.frame["rating"].tolist() == [2.0, 4.0]
    assert drop_duplicates(inter, keep="first").frame["rating"].tolist() == [5.0, 4.0]
    assert drop_duplicates(inter, keep=None).n_interactions == 4


def test_duplicates_without_timestamps_keep_last_in_file_order():
    inter = make([1, 1, 2, 1], [5, 6, 5, 5], ratings=[1, 2, 3, 4])
    assert drop_duplicates(inter).frame["rating"].tolist() == [2.0, 3.0, 4.0]
    with pytest.raises(ValueError, match="keep must be one of"):
        drop_duplicates(inter, keep="max")


def test_threshold_discards_and_binarises():
    inter = make([1, 1, 2, 2, 3], [1, 2, 1, 2, 1], ratings=[5, 2, 3, 1, 4])
    out = filter_ratings(inter, threshold=3)
    assert out.frame[["user_id", "item_id"]].values.tolist() == [[1, 1], [2, 1], [3, 1]]  # no negatives kept
    assert (out.frame["rating"] == 1.0).all() and out.implicit
    kept = filter_ratings(inter, rating_range=(2, 4), binarize=False)
    assert kept.frame["rating"].tolist() == [2.0, 3.0, 4.0] and not kept.implicit
    assert filter_ratings(inter) is inter


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"threshold": "3"}, TypeError, "threshold must be a real number"),
        ({"threshold": float("nan")}, TypeError, "threshold must be a real number"),
        ({"rating_range": 3}, TypeError, "rating_range must be a pair"),
        ({"rating_range": (5, 1)}, ValueError, "low <= high"),
    ],
)
def test_filter_ratings_validation(kwargs, error, match):
    with pytest.raises(error, match=match):
        filter_ratings(make([1], [1], ratings=[3]), **kwargs)


def test_threshold_on_implicit_data_is_an_error():
    with pytest.raises(ValueError, match="has no ratings"):
        filter_ratings(make([1], [1], name="clicks"), threshold=1)


def test_dedup_happens_before_the_value_filter():
    # the user re-rated item 7 from 5 to 1: the latest rating (1) decides, so the pair is discarded
    inter = make([1, 1, 1], [7, 7, 8], ratings=[5, 1, 4], timestamps=[1, 2, 3])
    out = preprocess(inter, threshold=3, k_core=None)
    assert out.frame["item_id"].tolist() == [8]
    assert len(out.log) == 3 and "duplicate" in out.log[1]


def naive_k_core(frame: pd.DataFrame, k: int) -> pd.DataFrame:
    """Remove one weakest row at a time until stable (a slow, obviously correct fixed point)."""
    frame = frame.copy()
    while len(frame):
        users = frame.groupby("user_id")["item_id"].transform("size")
        items = frame.groupby("item_id")["user_id"].transform("size")
        weak = (users < k) | (items < k)
        if not weak.any():
            break
        frame = frame.drop(index=frame.index[weak.to_numpy()][0])
    return frame


def assert_k_core(frame: pd.DataFrame, k: int):
    if len(frame):
        assert frame.groupby("user_id").size().min() >= k
        assert frame.groupby("item_id").size().min() >= k


@settings(max_examples=60, deadline=None)
@given(
    rows=st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), min_size=0, max_size=40, unique=True),
    k=st.integers(1, 4),
)
def test_k_core_equals_brute_force_fixed_point(rows, k):
    frame = pd.DataFrame(rows, columns=["user_id", "item_id"], dtype="int64")
    out = k_core_filter(Interactions(frame), k=k).frame
    assert_k_core(out, k)
    assert pairs(out, "user_id", "item_id") == pairs(naive_k_core(frame, k), "user_id", "item_id")
    again = k_core_filter(Interactions(out), k=k).frame  # idempotent
    assert pairs(again, "user_id", "item_id") == pairs(out, "user_id", "item_id")


@pytest.mark.parametrize("seed", range(6))
def test_k_core_is_the_largest_qualifying_subset(seed):
    rng = np.random.default_rng(seed)
    cells = rng.choice(16, size=11, replace=False)
    frame = pd.DataFrame({"user_id": cells // 4, "item_id": cells % 4})
    core = pairs(k_core_filter(Interactions(frame), k=2).frame, "user_id", "item_id")
    assert core  # the random frames are dense enough to have a non-empty 2-core
    all_pairs = list(zip(frame["user_id"].tolist(), frame["item_id"].tolist()))
    for size in range(1, len(all_pairs) + 1):
        for subset in itertools.combinations(all_pairs, size):
            users = collections.Counter(u for u, _ in subset)
            items = collections.Counter(i for _, i in subset)
            if min(users.values()) >= 2 and min(items.values()) >= 2:
                assert set(subset) <= core  # every qualifying subset lies inside the k-core


def test_k_core_on_random_log_and_user_max():
    inter = random_log(3)
    out = k_core_filter(inter, k=10)
    assert_k_core(out.frame, 10)
    capped = k_core_filter(inter, k=3, user_max=15)
    counts = capped.frame.groupby("user_id").size()
    assert counts.max() <= 15 and counts.min() >= 3
    original = inter.frame.groupby("user_id").size()
    assert set(counts.index).isdisjoint(original[original > 15].index)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"k": -1}, ValueError, "k must be >= 0"),
        ({"k": 2.5}, TypeError, "k must be an integer"),
        ({"k": True}, TypeError, "k must be an integer"),
        ({"user_max": 0}, ValueError, "user_max must be >= 1"),
        ({"k": 5, "user_max": 3}, ValueError, "user_max \\(3\\) must be >= the user minimum \\(5\\)"),
        ({"k": 5, "item_max": 3}, ValueError, "item_max \\(3\\) must be >= the item minimum"),
    ],
)
def test_k_core_validation(kwargs, error, match):
    with pytest.raises(error, match=match):
        k_core_filter(make([1], [1]), **kwargs)


def test_preprocessing_functions_need_interactions():
    for function in (drop_missing_ids, drop_duplicates, filter_ratings, k_core_filter, preprocess):
        with pytest.raises(TypeError, match="expected an Interactions object"):
            function(pd.DataFrame({"user_id": [1], "item_id": [1]}))
    with pytest.raises(ValueError, match="call drop_missing_ids first"):
        k_core_filter(make([1, None], [1, 2]), k=1)
    with pytest.raises(ValueError, match="k_core must be >= 0"):
        preprocess(make([1], [1]), k_core=-1)


# --- splits ---------------------------------------------------------------------------------

def test_part_sizes_rounding_rule():
    train, valid, test = part_sizes([1, 2, 3, 5, 9, 10, 19, 20, 50], (0.8, 0.1, 0.1))
    assert test.tolist() == [0, 1, 1, 1, 1, 1, 1, 2, 5]
    assert valid.tolist() == [0, 0, 1, 1, 1, 1, 1, 2, 5]
    assert (train + valid + test).tolist() == [1, 2, 3, 5, 9, 10, 19, 20, 50]
    assert [int(x[0]) for x in part_sizes([71_355], (0.6, 0.2, 0.2))] == [42_813, 14_271, 14_271]


def check_partition(split: Split, inter: Interactions):
    """Every interaction is in exactly one part, under the right original ids."""
    seen = [pairs(getattr(split, p)) for p in ("train", "valid", "test")]
    assert not (seen[0] & seen[1]) and not (seen[0] & seen[2]) and not (seen[1] & seen[2])
    restored = {(split.user_ids[u], split.item_ids[i]) for part in seen for u, i in part}
    assert restored == pairs(inter.frame, "user_id", "item_id")
    assert sum(map(len, seen)) == inter.n_interactions


@pytest.mark.parametrize("order", ["random", "temporal"])
def test_per_user_split_invariants(order):
    inter = random_log(1)
    split = split_per_user(inter, order=order, seed=7)
    check_partition(split, inter)
    counts = {p: np.bincount(getattr(split, p)["user"], minlength=split.n_users) for p in ("train", "valid", "test")}
    expected = part_sizes(counts["train"] + counts["valid"] + counts["test"], (0.8, 0.1, 0.1))
    for got, want in zip(counts.values(), expected):
        assert got.tolist() == want.tolist()
    if order == "temporal":
        for earlier, later in (("train", "valid"), ("valid", "test"), ("train", "test")):
            late = getattr(split, later).groupby("user")["timestamp"].min()
            early = getattr(split, earlier).groupby("user")["timestamp"].max()
            common = late.index.intersection(early.index)
            assert (early.loc[common] <= late.loc[common]).all()


def test_per_user_temporal_breaks_ties_by_file_order():
    inter = make([1] * 10, range(10), timestamps=[0] * 10)
    split = split_per_user(inter, order="temporal")
    assert split.test["item"].tolist() == [9] and split.valid["item"].tolist() == [8]


@pytest.mark.parametrize("splitter", [split_per_user, split_global])
def test_random_splits_are_seeded(splitter):
    inter = random_log(2, timestamps=False)
    first, again = splitter(inter, seed=11), splitter(inter, seed=11)
    other = splitter(inter, seed=12)
    for part in ("train", "valid", "test"):
        pd.testing.assert_frame_equal(getattr(first, part), getattr(again, part))
    assert pairs(first.test) != pairs(other.test)
    generator = splitter(inter, seed=np.random.default_rng(11))
    assert pairs(generator.test) == pairs(first.test)


@pytest.mark.parametrize("order", ["random", "temporal"])
def test_global_split_invariants(order):
    inter = random_log(4)
    split = split_global(inter, order=order, seed=3)
    check_partition(split, inter)
    assert [len(split.train), len(split.valid), len(split.test)] == [240, 80, 80]
    if order == "temporal":
        assert split.train["timestamp"].max() <= split.valid["timestamp"].min()
        assert split.valid["timestamp"].max() <= split.test["timestamp"].min()


def test_index_space_and_side_information():
    users = pd.DataFrame({"age": [30, 40, 50]}, index=pd.Index(["u3", "u1", "u2"], name="user_id"))
    items = pd.DataFrame({"title": ["A", "B"]}, index=pd.Index([20, 10], name="item_id"))
    inter = Interactions(pd.DataFrame({"user_id": ["u1", "u2", "u1", "u2"], "item_id": [10, 10, 20, 20]}),
                         users=users, items=items)
    split = split_global(inter, ratios=(0.5, 0.25, 0.25), order="random", seed=0)
    assert split.user_ids.tolist() == ["u1", "u2"] and split.item_ids.tolist() == [10, 20]
    assert split.user_attributes["age"].tolist() == [40, 50]
    assert split.item_metadata["title"].tolist() == ["B", "A"]
    assert split.user_attributes.index.tolist() == [0, 1]


def test_split_matrices_relevant_and_history():
    inter = make([1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3], [1, 2, 3, 4, 5, 1, 2, 3, 4, 6, 1],
                 timestamps=range(11))
    split = split_per_user(inter, order="temporal")
    train = split.matrix("train")
    assert isinstance(train, sp.csr_matrix) and train.dtype == np.float32 and train.shape == (3, 6)
    assert (split.matrix("train+valid") - train - split.matrix("valid")).nnz == 0
    assert split.matrix("all").nnz == 11
    assert split.test_users.tolist() == [0, 1]  # user 3 has one interaction: all in train
    relevant = split.relevant()
    assert relevant.dtype == bool and relevant.shape == (2, 6)
    assert relevant[0].indices.tolist() == [4] and relevant[1].indices.tolist() == [5]
    history = split.history()
    assert history[0].indices.tolist() == [0, 1, 2, 3]
    assert (relevant.multiply(history)).nnz == 0  # no leakage between history and test items
    assert split.relevant([2]).nnz == 0 and split.history([2]).indices.tolist() == [0]
    train[0, 0] = 0  # returned matrices are copies
    assert split.matrix("train")[0, 0] == 1


@pytest.mark.parametrize(
    ("users", "error", "match"),
    [([[0]], ValueError, "1-D"), ([0.5], TypeError, "integer user indices"), ([7], ValueError, "users must be in")],
)
def test_split_user_argument_validation(users, error, match):
    split = split_per_user(make([1, 1, 1], [1, 2, 3]), order="random")
    with pytest.raises(error, match=match):
        split.relevant(users)
    with pytest.raises(ValueError, match="part must be one of"):
        split.matrix("validation")


def test_split_constructor_validation():
    good = pd.DataFrame({"user": np.array([0], dtype=np.int64), "item": np.array([1], dtype=np.int64)})
    base = dict(name="x", train=good, valid=good.iloc[:0], test=good.iloc[:0], n_users=1, n_items=2,
                user_ids=np.array([5]), item_ids=np.array([6, 7]))
    Split(**base)
    bad_cases = [
        (dict(train=good.astype({"user": "int32"})), TypeError, "must be int64"),
        (dict(train=good.rename(columns={"item": "i"})), ValueError, "int64 column 'item'"),
        (dict(n_items=1, item_ids=np.array([6])), ValueError, "outside \\[0, 1\\)"),
        (dict(user_ids=np.array([5, 6])), ValueError, "user_ids must have one entry per index"),
        (dict(valid=[1]), TypeError, "valid must be a pandas DataFrame"),
        (dict(n_users=-1), TypeError, "n_users must be a non-negative integer"),
        (dict(user_attributes=pd.DataFrame({"a": [1, 2]})), ValueError, "user_attributes must be None"),
    ]
    for change, error, match in bad_cases:
        with pytest.raises(error, match=match):
            Split(**{**base, **change})


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"ratios": (0.8, 0.1)}, ValueError, "three entries"),
        ({"ratios": (0.8, 0.3, 0.1)}, ValueError, "must sum to 1"),
        ({"ratios": (0.0, 0.5, 0.5)}, ValueError, "positive train share"),
        ({"ratios": "abc"}, TypeError, "ratios must be three numbers"),
        ({"order": "chronological"}, ValueError, "order must be one of"),
        ({"order": "temporal"}, ValueError, "needs a timestamp on every interaction"),
        ({"seed": "2020"}, TypeError, "seed must be an int"),
    ],
)
def test_split_argument_validation(kwargs, error, match):
    for splitter in (split_per_user, split_global):
        with pytest.raises(error, match=match):
            splitter(make([1, 2], [1, 1]), **kwargs)


def test_splits_refuse_duplicates_and_missing_ids():
    with pytest.raises(ValueError, match="repeated user-item pairs"):
        split_per_user(make([1, 1], [2, 2]))
    with pytest.raises(ValueError, match="missing ids"):
        split_global(make([1, None], [2, 2]))
    with pytest.raises(TypeError, match="expected an Interactions object"):
        split_global(pd.DataFrame({"user_id": [1], "item_id": [1]}))


# --- post-split filters -------------------------------------------------------------------------

def test_min_train_interactions_single_pass():
    inter = random_log(5, n_users=40, n_items=30, n_rows=300, timestamps=False)
    split = split_global(inter, order="random", seed=1)
    train_counts = split.train.groupby("user").size()
    keep_ids = set(split.user_ids[train_counts[train_counts >= 5].index])
    out = min_train_interactions(split, t=5)
    assert set(out.user_ids) == keep_ids and out.n_users == len(keep_ids)
    assert out.train.groupby("user").size().min() >= 5
    # single pass: other parts only lose rows of removed users
    for part in ("valid", "test"):
        before = {(split.user_ids[u], split.item_ids[i]) for u, i in pairs(getattr(split, part))}
        after = {(out.user_ids[u], out.item_ids[i]) for u, i in pairs(getattr(out, part))}
        assert after == {p for p in before if p[0] in keep_ids}
    untouched = filter_split(split, min_user_train=5, reindex=False)
    assert untouched.n_users == split.n_users and untouched.n_items == split.n_items


def test_paper6_filters_items_then_users_then_cold_start():
    inter = random_log(6, n_users=25, n_items=20, n_rows=300)
    split = split_global(inter, order="temporal")
    out = filter_split(split, min_user_train=5, min_item_train=5, drop_cold_start=True)
    assert out.train.groupby("item").size().min() >= 1
    train_users, train_items = set(out.train["user"]), set(out.train["item"])
    for part in ("valid", "test"):
        assert set(getattr(out, part)["user"]) <= train_users
        assert set(getattr(out, part)["item"]) <= train_items
    weak_items = split.train.groupby("item").size()
    weak_ids = set(split.item_ids[weak_items[weak_items < 5].index]) | (
        set(split.item_ids) - set(split.item_ids[split.train["item"].unique()]))
    assert not weak_ids & set(out.item_ids)
    assert min_train_interactions(split, t=5, items=True).n_items == filter_split(
        split, min_user_train=5, min_item_train=5).n_items
    with pytest.raises(TypeError, match="expected a Split"):
        filter_split(inter)
    with pytest.raises(ValueError, match="min_user_train must be >= 0"):
        filter_split(split, min_user_train=-2)


def test_load_split_protocols_on_given_interactions():
    inter = random_log(8, n_users=20, n_items=20, n_rows=250)
    per_user = load_split("ml-1m", protocol="paper1", interactions=inter, preprocessing={"threshold": None})
    assert per_user.n_users == 20 and len(per_user.test) > 0
    assert load_split("ml-1m", protocol="Paper4", interactions=inter, preprocessing={"threshold": None}).train[
        "user"].value_counts().min() >= 5
    with pytest.raises(ValueError, match="protocol must be one of"):
        load_split("ml-1m", protocol="paper7", interactions=inter)
    with pytest.raises(TypeError, match="protocol must be a string"):
        load_split("ml-1m", protocol=1, interactions=inter)
    with pytest.raises(TypeError, match="interactions must be an Interactions"):
        load_split("ml-1m", interactions=inter.frame)


# --- statistics ---------------------------------------------------------------------------------

def test_statistics_table_layout():
    inter = make([1, 1, 1, 1, 1, 2, 2, 2, 2, 2], [1, 2, 3, 4, 5, 1, 2, 3, 4, 5], name="tiny")
    split = split_per_user(inter, order="random")
    table = statistics_table([inter, split], names=["raw", "split"])
    assert table.loc["raw", "#interactions"] == 10 and table.loc["raw", "density (%)"] == 100.0
    assert pd.isna(table.loc["raw", "test #users"]) and table["#users"].dtype == "Int64"
    sizes = table.loc["split", ["train #interactions", "valid #interactions", "test #interactions"]]
    assert sizes.tolist() == [6, 2, 2]
    assert table.loc["split", "relevant mean"] == 1.0 and table.loc["split", "relevant max"] == 1
    assert statistics_table(split).index.tolist() == ["tiny"]
    stats = split.statistics()
    assert stats["#test users"] == 2 and stats.name == "tiny"
    with pytest.raises(ValueError, match="at least one"):
        statistics_table([])
    with pytest.raises(ValueError, match="names has 1 entries for 2 datasets"):
        statistics_table([inter, split], names=["x"])
    with pytest.raises(TypeError, match="takes an Interactions or a Split"):
        datasets.statistics(inter.frame)


def test_reader_hetrec_derives_one_genre_per_artist_from_its_tags(tmp_path, monkeypatch):
    from recfair.datasets import _readers

    monkeypatch.setattr(_readers, "LASTFM_GENRE_TAGS", 2)  # the two most applied tags are the genres
    write(tmp_path, {
        "user_artists.dat": "userID\tartistID\tweight\r\n2\t51\t10\r\n2\t52\t5\r\n3\t53\t1\r\n3\t54\t2\r\n",
        "artists.dat": "id\tname\turl\tpictureURL\n51\tA\tu\tp\n52\tB\tu\tp\n53\tC\tu\tp\n54\tD\tu\tp\n",
        "tags.dat": "tagID\ttagValue\n1\trock\n2\tpop\n3\tseen live\n",
        # rock applied 4 times, pop 3, "seen live" 2: genres are rock and pop
        "user_taggedartists.dat": "userID\tartistID\ttagID\tday\tmonth\tyear\n"
                                  "2\t51\t1\t1\t1\t2008\n3\t51\t1\t1\t1\t2008\n4\t51\t2\t1\t1\t2008\n"
                                  "2\t52\t2\t1\t1\t2008\n3\t52\t3\t1\t1\t2008\n4\t52\t3\t1\t1\t2008\n"
                                  "2\t53\t1\t1\t1\t2008\n3\t53\t2\t1\t1\t2008\n4\t53\t1\t1\t1\t2008\n",
    })
    inter = load("lastfm", path=tmp_path)
    # 51: rock 2 x pop 1; 52: pop (its "seen live" is no genre); 53: rock 2 x pop 1; 54: no tag at all
    assert inter.items["genres"].to_dict() == {51: "rock", 52: "pop", 53: "rock", 54: "untagged"}
    assert inter.items.loc[52, "name"] == "B"


def test_reader_hetrec_without_tag_files_has_no_genres(tmp_path):
    write(tmp_path, {"user_artists.dat": "userID\tartistID\tweight\r\n2\t51\t10\r\n",
                     "artists.dat": "id\tname\turl\tpictureURL\n51\tA\tu\tp\n"})
    assert "genres" not in load("lastfm", path=tmp_path).items.columns
