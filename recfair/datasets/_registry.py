"""Where each dataset of the thesis comes from, how it is packed and how it is parsed.

Every dataset has one :class:`DatasetInfo` with up to two :class:`Archive` entries:

``"official"``
    The archive as its maintainers publish it (GroupLens, HetRec, McAuley lab, eigentaste,
    Ziegler's Book-Crossing page), parsed with a dataset-specific reader.
``"recbole"``
    RecBole's processed "atomic files" (``<stem>.inter`` / ``.user`` / ``.item``, tab separated,
    header ``name:type``), which is where the thesis took every dataset from.

Checksums are recorded where a public, cross-checked value is known (``"sha256:..."`` or
``"md5:..."``). Where none is known the entry holds ``None``: the first download is then accepted,
its SHA-256 is reported in an :class:`~recfair.datasets.UnverifiedDownloadWarning` so that it
can be pinned with ``fetch(..., hashes={filename: "sha256:..."})``. A *known* hash is never
bypassed silently.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType

__all__ = [
    "RECBOLE_BASE_URL",
    "RemoteFile",
    "Archive",
    "DatasetInfo",
    "REGISTRY",
    "available_datasets",
    "dataset_info",
]

#: Base URL of RecBole's processed datasets (from RecBole's ``properties/dataset/url.yaml``).
RECBOLE_BASE_URL = "https://recbole.s3-accelerate.amazonaws.com/ProcessedDatasets/"
GROUPLENS_BASE_URL = "https://files.grouplens.org/datasets/"
# The McAuley lab's Amazon 2018 files have moved host more than once; try each in turn.
AMAZON_2018_BASE_URLS = (
    "https://mcauleylab.ucsd.edu/public_datasets/data/amazon_v2/categoryFilesSmall/",
    "https://datarepo.eng.ucsd.edu/mcauley_group/data/amazon_v2/categoryFilesSmall/",
    "http://deepyeti.ucsd.edu/jianmo/amazon/categoryFilesSmall/",
)
EIGENTASTE_BASE_URL = "https://eigentaste.berkeley.edu/dataset/"
BOOK_CROSSING_URL = "http://www2.informatik.uni-freiburg.de/~cziegler/BX/BX-CSV-Dump.zip"

SOURCES = ("official", "recbole")


@dataclass(frozen=True)
class RemoteFile:
    """One downloadable file.

    Attributes
    ----------
    filename : str
        Name of the file once downloaded (also the name looked up on a mirror).
    urls : tuple of str
        Candidate URLs, tried in order.
    known_hash : str or None
        ``"sha256:<hex>"`` or ``"md5:<hex>"``; ``None`` if no trustworthy value is known.

    Examples
    --------
    >>> f = RemoteFile("u.data", ("https://example.org/u.data",))
    >>> f.filename, f.known_hash is None
    ('u.data', True)
    """

    filename: str
    urls: tuple[str, ...]
    known_hash: str | None = None

    @property
    def is_zip(self) -> bool:
        return self.filename.lower().endswith(".zip")


@dataclass(frozen=True)
class Archive:
    """One way of obtaining a dataset: its files, how to recognise them and which reader parses them.

    Attributes
    ----------
    source : {"official", "recbole"}
    files : tuple of RemoteFile
    reader : str
        Key of the parser in :mod:`recfair.datasets._readers`.
    markers : tuple of str
        File names whose presence identifies this layout inside a directory (all must exist).
    cache_folder : str
        Folder under the cache directory that holds the unpacked files.

    Examples
    --------
    >>> from recfair.datasets import dataset_info
    >>> archive = dataset_info("ml-100k").archives["recbole"]
    >>> archive.reader
    'atomic'
    """

    source: str
    files: tuple[RemoteFile, ...]
    reader: str
    markers: tuple[str, ...]
    cache_folder: str


@dataclass(frozen=True)
class DatasetInfo:
    """Everything recfair knows about one dataset.

    Attributes
    ----------
    name : str
        Canonical registry key, e.g. ``"ml-1m"``.
    title : str
        Human-readable name.
    thesis_name : str
        How the thesis writes it (``"Ml-1m"``, ``"Amazon-lb"``, ...).
    aliases : tuple of str
        Other accepted spellings (matching is case-insensitive).
    folders : tuple of str
        Sub-folder names accepted inside a local data directory (``RECFAIR_DATA``); the first is
        the name the official archive unpacks to.
    archives : mapping of str to Archive
        ``"official"`` and/or ``"recbole"``.
    default_source : str
        Which archive :func:`~recfair.datasets.fetch` downloads when none is asked for.
    implicit : bool
        True when the raw data has no ratings (Last.fm listening counts).
    licence, citation : str
    homepage : str
    preprocessing : mapping
        Keyword arguments of :func:`~recfair.datasets.preprocess` used by the thesis.
    notes : str

    Examples
    --------
    >>> from recfair.datasets import dataset_info
    >>> info = dataset_info("lastfm")
    >>> isinstance(info, DatasetInfo), info.name
    (True, 'lastfm')
    """

    name: str
    title: str
    thesis_name: str
    aliases: tuple[str, ...]
    folders: tuple[str, ...]
    archives: MappingProxyType
    default_source: str
    implicit: bool
    licence: str
    citation: str
    homepage: str
    preprocessing: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    notes: str = ""

    def archive(self, source: str | None = None) -> Archive:
        """The :class:`Archive` for ``source`` (default: :attr:`default_source`)."""
        source = self.default_source if source is None else source
        if source not in SOURCES:
            raise ValueError(f"source must be one of {SOURCES} or None, got {source!r}.")
        if source not in self.archives:
            raise ValueError(
                f"Dataset {self.name!r} has no {source!r} archive; available: {tuple(self.archives)}."
            )
        return self.archives[source]


# --- licences and citations --------------------------------------------------------------

_MOVIELENS_LICENCE = (
    "GroupLens research licence: use for research only, no commercial use, no redistribution "
    "without separate permission from GroupLens; acknowledge the data in publications."
)
_MOVIELENS_CITATION = (
    "F. Maxwell Harper and Joseph A. Konstan. 2015. The MovieLens Datasets: History and Context. "
    "ACM Transactions on Interactive Intelligent Systems 5(4), 19:1-19:19. doi:10.1145/2827872"
)
_RECBOLE_CITATION = (
    "Processed files: Wayne Xin Zhao et al. 2021. RecBole: Towards a Unified, Comprehensive and "
    "Efficient Framework for Recommendation Algorithms. CIKM 2021."
)
_AMAZON_LICENCE = (
    "Amazon Review Data (2018), McAuley lab, UCSD: for research use; no formal licence is "
    "published (check the lab's page before redistributing)."
)
_AMAZON_CITATION = (
    "Jianmo Ni, Jiacheng Li and Julian McAuley. 2019. Justifying Recommendations using "
    "Distantly-Labeled Reviews and Fine-Grained Aspects. EMNLP-IJCNLP 2019."
)

# --- thesis preprocessing (Paper 1 Sec. 7.1, Paper 2 Sec. 5.2, Paper 4 Sec. 8.2) ----------

_RATED_1_5 = {"threshold": 3.0, "k_core": 5}
_IMPLICIT = {"threshold": None, "k_core": 5}


def _mapping(**kwargs) -> MappingProxyType:
    return MappingProxyType(dict(kwargs))


def _grouplens(path: str, known_hash: str | None) -> RemoteFile:
    filename = path.rsplit("/", 1)[-1]
    return RemoteFile(filename, (GROUPLENS_BASE_URL + path,), known_hash)


def _recbole(path: str, stem: str) -> Archive:
    filename = path.rsplit("/", 1)[-1]
    return Archive(
        source="recbole",
        files=(RemoteFile(filename, (RECBOLE_BASE_URL + path,), None),),
        reader="atomic",
        markers=(f"{stem}.inter",),
        cache_folder=f"recbole/{stem}",
    )


def _movielens(name, title, thesis_name, folders, official_file, markers, reader, known_hash,
               aliases=(), rating_range=None, notes=""):
    preprocessing = dict(_RATED_1_5)
    if rating_range is not None:
        preprocessing["rating_range"] = rating_range
    return DatasetInfo(
        name=name,
        title=title,
        thesis_name=thesis_name,
        aliases=aliases,
        folders=folders,
        archives=_mapping(
            official=Archive("official", (_grouplens(official_file, known_hash),), reader, markers,
                             folders[0]),
            recbole=_recbole(f"MovieLens/{name}.zip", name),
        ),
        default_source="official",
        implicit=False,
        licence=_MOVIELENS_LICENCE,
        citation=_MOVIELENS_CITATION,
        homepage="https://grouplens.org/datasets/movielens/",
        preprocessing=_mapping(**preprocessing),
        notes=notes,
    )


def _amazon(name, category, thesis_name, aliases):
    stem = f"Amazon_{category}"
    official = Archive(
        source="official",
        files=(RemoteFile(f"{category}.csv", tuple(base + f"{category}.csv" for base in AMAZON_2018_BASE_URLS)),),
        reader="amazon-ratings",
        markers=(f"{category}.csv",),
        cache_folder=stem,
    )
    return DatasetInfo(
        name=name,
        title=f"Amazon Review Data 2018, {category.replace('_', ' ')} (ratings only)",
        thesis_name=thesis_name,
        aliases=aliases,
        folders=(stem, name, category),
        archives=_mapping(official=official, recbole=_recbole(f"Amazon_ratings/Amazon2018/{stem}.zip", stem)),
        default_source="official",
        implicit=False,
        licence=_AMAZON_LICENCE,
        citation=_AMAZON_CITATION,
        homepage="https://cseweb.ucsd.edu/~jmcauley/datasets/amazon_v2/",
        preprocessing=_mapping(**_RATED_1_5),
        notes=(
            "The official file is a bare CSV without header: item,user,rating,timestamp (ratings 1-5, "
            "Unix seconds). The thesis used RecBole's conversion of the same file."
        ),
    )


def _build_registry() -> dict[str, DatasetInfo]:
    entries = [
        _movielens(
            "ml-100k", "MovieLens 100K", "ML-100K", ("ml-100k",), "movielens/ml-100k.zip", ("u.data",),
            "movielens-100k",
            "sha256:50d2a982c66986937beb9ffb3aa76efe955bf3d5c6b761f4e3a7cd717c6a3229",
            aliases=("ml100k", "movielens-100k"),
            notes="Official layout: u.data (tab separated, no header), u.user and u.item ('|' separated, "
                  "latin-1). Also published MD5 0e33842e24a9c977be4e0107933c0723. 943 users, 1,682 items, "
                  "100,000 ratings 1-5 with timestamps; user age, gender, occupation, zip code.",
        ),
        _movielens(
            "ml-1m", "MovieLens 1M", "Ml-1m", ("ml-1m",), "movielens/ml-1m.zip", ("ratings.dat",),
            "movielens-dat",
            "sha256:a6898adb50b9ca05aa231689da44c217cb524e7ebd39d264c56e2832f2c54e20",
            aliases=("ml1m", "movielens-1m"),
            notes="Official layout: ratings.dat, users.dat, movies.dat, '::' separated. Published MD5 "
                  "c4d9eecfca2ab87c1945afe126590906. Age and occupation are the README's integer codes.",
        ),
        _movielens(
            "ml-10m", "MovieLens 10M", "ML-10M", ("ml-10M100K", "ml-10m"), "movielens/ml-10m.zip",
            ("ratings.dat", "movies.dat"), "movielens-dat",
            "md5:ce571fd55effeba0271552578f2648bd",
            aliases=("ml10m", "movielens-10m"), rating_range=(3.0, 5.0),
            notes="The archive unpacks to ml-10M100K/. Ratings 0.5-5 in half stars; no user attributes.",
        ),
        _movielens(
            "ml-20m", "MovieLens 20M", "ML-20M", ("ml-20m",), "movielens/ml-20m.zip", ("ratings.csv",),
            "movielens-csv",
            "md5:cd245b17a1ae2cc31bb14903e1204af3",
            aliases=("ml20m", "movielens-20m"), rating_range=(3.0, 5.0),
            notes="Official layout: ratings.csv (userId,movieId,rating,timestamp with header), movies.csv.",
        ),
        DatasetInfo(
            name="lastfm",
            title="HetRec 2011 Last.fm 2K",
            thesis_name="Lastfm",
            aliases=("hetrec2011-lastfm-2k", "lastfm-2k", "hetrec-lastfm", "last.fm"),
            folders=("hetrec2011-lastfm-2k", "lastfm"),
            archives=_mapping(
                official=Archive(
                    "official",
                    (_grouplens("hetrec2011/hetrec2011-lastfm-2k.zip",
                                "sha256:6738f48195667ff03caaab4d32ca9a3133d8cc026b7c3cdaf6ce1010e913c59c"),),
                    "hetrec-lastfm", ("user_artists.dat",), "hetrec2011-lastfm-2k",
                ),
                recbole=_recbole("LastFM/lastfm.zip", "lastfm"),
            ),
            default_source="official",
            implicit=True,
            licence=(
                "HetRec 2011 release: made available for non-commercial use; Last.fm's terms of "
                "service apply; acknowledge the data and the workshop in publications."
            ),
            citation=(
                "Ivan Cantador, Peter Brusilovsky and Tsvi Kuflik. 2011. 2nd Workshop on Information "
                "Heterogeneity and Fusion in Recommender Systems (HetRec 2011). RecSys 2011."
            ),
            homepage="https://grouplens.org/datasets/hetrec-2011/",
            preprocessing=_mapping(**_IMPLICIT),
            notes=(
                "Official layout: user_artists.dat (userID, artistID, weight = listening count; tab "
                "separated, header line, CRLF), artists.dat, tags.dat, user_friends.dat. No timestamps. "
                "1,892 users, 17,632 artists, 92,834 user-artist pairs. RecBole's lastfm.inter holds the "
                "same pairs with the item field named artist_id."
            ),
        ),
        DatasetInfo(
            name="book-crossing",
            title="Book-Crossing",
            thesis_name="Book-x",
            aliases=("book-x", "bookx", "bx", "bookcrossing"),
            folders=("BX-CSV-Dump", "book-crossing"),
            archives=_mapping(
                official=Archive(
                    "official",
                    (RemoteFile("BX-CSV-Dump.zip", (BOOK_CROSSING_URL,), None),),
                    "book-crossing", ("BX-Book-Ratings.csv",), "BX-CSV-Dump",
                ),
                recbole=_recbole("Book-Crossing/book-crossing.zip", "book-crossing"),
            ),
            # The original Freiburg page has been offline for years; RecBole's copy is what the thesis used.
            default_source="recbole",
            implicit=False,
            licence="Freely available for research use when acknowledged (C.-N. Ziegler, DBIS Freiburg).",
            citation=(
                "Cai-Nicolas Ziegler, Sean M. McNee, Joseph A. Konstan and Georg Lausen. 2005. Improving "
                "Recommendation Lists Through Topic Diversification. WWW 2005."
            ),
            homepage="http://www2.informatik.uni-freiburg.de/~cziegler/BX/",
            preprocessing=_mapping(threshold=6.0, k_core=5),
            notes=(
                "Official layout: BX-Book-Ratings.csv, BX-Users.csv, BX-Books.csv; ';' separated, quoted, "
                "latin-1. Ratings 1-10 explicit, 0 implicit; no timestamps."
            ),
        ),
        _amazon("amazon-luxury-beauty", "Luxury_Beauty", "Amazon-lb", ("amazon-lb", "luxury-beauty")),
        _amazon("amazon-digital-music", "Digital_Music", "Amazon-dm", ("amazon-dm", "digital-music")),
        _amazon("amazon-industrial-scientific", "Industrial_and_Scientific", "Amazon-is",
                ("amazon-is", "industrial-and-scientific", "industrial-scientific")),
        DatasetInfo(
            name="jester",
            title="Jester (dataset 1)",
            thesis_name="Jester",
            aliases=("jester-1",),
            folders=("jester", "jester_dataset_1"),
            archives=_mapping(
                official=Archive(
                    "official",
                    tuple(RemoteFile(f"jester_dataset_1_{i}.zip", (EIGENTASTE_BASE_URL + f"jester_dataset_1_{i}.zip",))
                          for i in (1, 2, 3)),
                    "jester-xls", ("jester-data-1.xls", "jester-data-2.xls", "jester-data-3.xls"),
                    "jester_dataset_1",
                ),
                recbole=_recbole("Jester/jester.zip", "jester"),
            ),
            # The official files are Excel workbooks (reading them needs the optional xlrd package).
            default_source="recbole",
            implicit=False,
            licence="Jester data (Ken Goldberg, UC Berkeley): free for research use with acknowledgement.",
            citation=(
                "Ken Goldberg, Theresa Roeder, Dhruv Gupta and Chris Perkins. 2001. Eigentaste: A Constant "
                "Time Collaborative Filtering Algorithm. Information Retrieval 4(2), 133-151."
            ),
            homepage="https://eigentaste.berkeley.edu/dataset/",
            preprocessing=_mapping(threshold=0.0, rating_range=(0.0, 10.0), k_core=5, user_max=80),
            notes=(
                "Dataset 1: 73,421 users, 100 jokes, ratings -10..10 (99 = not rated), one row per user in "
                "three .xls workbooks; user ids here are row numbers across the three files (1-based). "
                "No timestamps."
            ),
        ),
    ]
    return {info.name: info for info in entries}


REGISTRY: MappingProxyType = MappingProxyType(_build_registry())

_ALIASES = {}
for _info in REGISTRY.values():
    for _alias in (_info.name, _info.thesis_name, *_info.aliases, *_info.folders):
        _ALIASES.setdefault(_alias.lower(), _info.name)


def available_datasets() -> list[str]:
    """Canonical names of every registered dataset.

    >>> available_datasets()[:4]
    ['ml-100k', 'ml-1m', 'ml-10m', 'ml-20m']
    """
    return list(REGISTRY)


def dataset_info(name: str) -> DatasetInfo:
    """Registry entry of a dataset, found by canonical name, thesis name or alias (any case).

    >>> dataset_info("Amazon-lb").name
    'amazon-luxury-beauty'
    >>> dataset_info("lastfm").archive("official").files[0].filename
    'hetrec2011-lastfm-2k.zip'
    """
    if isinstance(name, DatasetInfo):
        return name
    if not isinstance(name, str):
        raise TypeError(f"name must be a dataset name (str), got {type(name).__name__} {name!r}.")
    key = _ALIASES.get(name.strip().lower())
    if key is None:
        raise ValueError(f"Unknown dataset {name!r}; available: {', '.join(REGISTRY)}.")
    return REGISTRY[key]
