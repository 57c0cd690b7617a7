"""Numbers published in the thesis, for side-by-side comparison with what recfair computes.

These are the thesis's numbers, transcribed with the line numbers of the thesis's LaTeX
source where they appear. Chapters show them *labelled as the thesis's*, next to values that
recfair computes; nothing here is ever used as a result.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["dataset_statistics", "paper1_results", "paper1_kendall_ranges", "paper1_sliding_ranges",
           "paper1_insertion_claims", "paper2_results", "paper2_insertion"]

_COLUMNS = ["dataset", "stage", "users", "items", "interactions"]

# Paper 1 (Ch. 2), Experimental Setup, the table of dataset statistics (RecBole versions).
_PAPER1 = [
    ("Lastfm", "original", 1_892, 17_632, 92_834),
    ("Ml-1m", "original", 6_040, 3_706, 1_000_209),
    ("Book-x", "original", 105_283, 340_556, 1_149_780),
    ("Amazon-lb", "original", 416_174, 12_120, 574_628),
    ("Amazon-dm", "original", 840_372, 456_992, 1_584_082),
    ("Amazon-is", "original", 1_246_131, 165_764, 1_758_333),
    ("Lastfm", "preprocessed", 1_859, 2_823, 71_355),
    ("Ml-1m", "preprocessed", 6_038, 3_307, 835_789),
    ("Book-x", "preprocessed", 5_639, 7_455, 91_385),
    ("Amazon-lb", "preprocessed", 1_644, 791, 16_765),
    ("Amazon-dm", "preprocessed", 11_750, 9_462, 116_681),
    ("Amazon-is", "preprocessed", 6_574, 3_569, 45_762),
]

# Papers 2-5 (Ch. 3-6), the dataset statistics tables of Paper 2's and Paper 4's Experimental Setup.
_PAPER2 = [
    ("Lastfm", "preprocessed", 1_859, 2_823, 71_355),
    ("Amazon-lb", "preprocessed", 1_054, 791, 12_397),
    ("QK-video", "preprocessed", 4_656, 6_423, 51_777),
    ("Jester", "preprocessed", 63_724, 100, 2_150_060),
    ("ML-10M", "preprocessed", 49_378, 9_821, 5_362_685),
    ("ML-20M", "preprocessed", 89_917, 16_404, 10_588_141),
]

_SOURCES = {
    1: ("Ch. 2 (Paper 1), Experimental Setup, table of dataset statistics", _PAPER1),
    2: ("Ch. 3 (Paper 2) and Ch. 5 (Paper 4), Experimental Setup, tables of dataset statistics", _PAPER2),
}


def dataset_statistics(paper: int = 1) -> pd.DataFrame:
    """The thesis's dataset statistics table for ``paper`` (1, or 2 for Papers 2-5).

    Sparsity is ``1 - interactions / (users * items)`` in percent, as the thesis defines it.

    Examples
    --------
    >>> int(dataset_statistics(1).loc[("Lastfm", "preprocessed"), "users"])
    1859
    """
    if paper not in _SOURCES:
        raise ValueError(f"paper must be one of {sorted(_SOURCES)}, got {paper!r}.")
    source, rows = _SOURCES[paper]
    frame = pd.DataFrame(rows, columns=_COLUMNS)
    frame["sparsity (%)"] = 100 * (1 - frame["interactions"] / (frame["users"] * frame["items"]))
    frame.attrs["source"] = f"Thesis, {source}"
    return frame.set_index(["dataset", "stage"])


# Paper 1 (Ch. 2), Analysis of Relevance and Fairness, the table of scores on Lastfm and Ml-1m:
# every measure @10 per model.
# 'nan' is what the thesis prints for Ent_ori. Pop's fairness scores are not exactly 0/1
# because history items are excluded from its lists (the table's footnote).
_PAPER1_RESULTS = {
    'Lastfm': (['Pop', 'ItemKNN', 'SLIM', 'BPR', 'NGCF', 'NeuMF', 'MultiVAE'], [
        ('HR', [0.236686, 0.563206, 0.520710, 0.603012, 0.598171, 0.571813, 0.597633]),
        ('MRR', [0.102296, 0.320710, 0.290459, 0.336577, 0.327790, 0.301449, 0.326032]),
        ('P', [0.029855, 0.082948, 0.075901, 0.091286, 0.090479, 0.082679, 0.091070]),
        ('MAP', [0.033572, 0.129943, 0.112303, 0.140626, 0.136694, 0.120650, 0.136794]),
        ('R', [0.078205, 0.240326, 0.210221, 0.262193, 0.260140, 0.238121, 0.261565]),
        ('NDCG', [0.063259, 0.207209, 0.183180, 0.223416, 0.219215, 0.198248, 0.219408]),
        ('Jain_ori', [0.005350, 0.050544, 0.029023, 0.080549, 0.086601, 0.096789, 0.134035]),
        ('Jain_our', [0.001824, 0.047434, 0.025715, 0.077714, 0.083822, 0.094103, 0.131692]),
        ('QF_ori', [0.009564, 0.432519, 0.145590, 0.428268, 0.399221, 0.462983, 0.683316]),
        ('QF_our', [0.006043, 0.430501, 0.142552, 0.426235, 0.397085, 0.461074, 0.682190]),
        ('Ent_ori', [float("nan"), float("nan"), float("nan"), float("nan"), float("nan"), float("nan"), float("nan")]),
        ('Ent_our', [0.096360, 0.595274, 0.439907, 0.656154, 0.660951, 0.686602, 0.763463]),
        ('FSat_ori', [0.009564, 0.136734, 0.071909, 0.171803, 0.178888, 0.195537, 0.230960]),
        ('FSat_our', [0.006043, 0.133665, 0.068610, 0.168859, 0.175969, 0.192677, 0.228226]),
        ('Gini_ori', [0.995080, 0.908416, 0.968311, 0.884752, 0.885149, 0.864875, 0.780612]),
        ('Gini_our', [0.998564, 0.908251, 0.970668, 0.883591, 0.884004, 0.862877, 0.775067]),
        ('Gini-w_ori', [0.995984, 0.915773, 0.972331, 0.895154, 0.896870, 0.879730, 0.793962]),
        ('Gini-w_our', [0.998747, 0.918313, 0.975028, 0.897637, 0.899358, 0.882170, 0.796164]),
        ('VoCD', [0.669135, 0.609061, 0.704415, 0.640846, 0.656609, 0.641465, 0.598510]),
        ('II-D', [0.000970, 0.000970, 0.000970, 0.000970, 0.000970, 0.000970, 0.000970]),
        ('AI-D', [0.000668, 0.000061, 0.000114, 0.000037, 0.000034, 0.000032, 0.000019]),
    ]),
    'Ml-1m': (['Pop', 'ItemKNN', 'SLIM', 'BPR', 'NGCF', 'NeuMF', 'MultiVAE'], [
        ('HR', [0.273435, 0.336204, 0.343326, 0.348791, 0.337198, 0.324114, 0.331070]),
        ('MRR', [0.112995, 0.136303, 0.139593, 0.142428, 0.140765, 0.133319, 0.130503]),
        ('P', [0.045661, 0.054190, 0.053445, 0.055167, 0.055018, 0.052302, 0.051308]),
        ('MAP', [0.025940, 0.036132, 0.036830, 0.038389, 0.037460, 0.033568, 0.035284]),
        ('R', [0.040195, 0.064935, 0.071923, 0.073647, 0.067244, 0.060861, 0.068755]),
        ('NDCG', [0.056219, 0.073897, 0.075873, 0.078110, 0.076032, 0.070162, 0.072263]),
        ('Jain_ori', [0.006867, 0.023143, 0.045463, 0.068296, 0.057974, 0.059396, 0.065298]),
        ('Jain_our', [0.003857, 0.020192, 0.042593, 0.065508, 0.055148, 0.056576, 0.062499]),
        ('QF_ori', [0.040822, 0.188388, 0.236166, 0.444209, 0.306018, 0.384336, 0.485939]),
        ('QF_our', [0.037913, 0.185927, 0.233849, 0.442524, 0.303913, 0.382469, 0.484380]),
        ('Ent_ori', [float("nan"), float("nan"), float("nan"), float("nan"), float("nan"), float("nan"), float("nan")]),
        ('Ent_our', [0.187196, 0.435739, 0.552900, 0.650556, 0.606893, 0.623249, 0.652672]),
        ('FSat_ori', [0.020865, 0.069549, 0.114605, 0.164500, 0.147263, 0.153311, 0.167523]),
        ('FSat_our', [0.017895, 0.066727, 0.111920, 0.161965, 0.144677, 0.150743, 0.164998]),
        ('Gini_ori', [0.993229, 0.970583, 0.942655, 0.893080, 0.919816, 0.908995, 0.888977]),
        ('Gini_our', [0.996201, 0.973246, 0.944935, 0.894681, 0.921783, 0.910813, 0.890521]),
        ('Gini-w_ori', [0.994377, 0.973088, 0.948836, 0.902403, 0.927651, 0.918188, 0.894798]),
        ('Gini-w_our', [0.996731, 0.975391, 0.951082, 0.904539, 0.929846, 0.920361, 0.896916]),
        ('VoCD', [0.789888, 0.733042, 0.737530, 0.705762, 0.724919, 0.712774, 0.699980]),
        ('II-D', [0.000828, 0.000828, 0.000828, 0.000828, 0.000828, 0.000828, 0.000828]),
        ('AI-D', [0.000381, 0.000096, 0.000049, 0.000032, 0.000038, 0.000038, 0.000030]),
    ]),
}


def paper1_results(dataset: str = "Lastfm") -> pd.DataFrame:
    """The thesis's Paper 1 main table for ``dataset`` ("Lastfm" or "Ml-1m"): measures x models.

    Examples
    --------
    >>> float(paper1_results("Lastfm").loc["NDCG", "BPR"])
    0.223416
    """
    if dataset not in _PAPER1_RESULTS:
        raise ValueError(f"dataset must be one of {sorted(_PAPER1_RESULTS)}, got {dataset!r}.")
    models, rows = _PAPER1_RESULTS[dataset]
    frame = pd.DataFrame({name: values for name, values in rows}, index=models).T
    frame.index.name = "measure"
    frame.attrs["source"] = f"Thesis, Ch. 2 (Paper 1), Analysis of Relevance and Fairness, table of scores, {dataset}"
    return frame


# Paper 1 (Ch. 2), Correlation between Measures: ranges of Kendall's τ quoted in the text; the
# correlation figures for Lastfm and Ml-1m are empty in the source. Each row: dataset, pair type,
# lowest τ, highest τ. For Ml-1m the text gives one range
# for every pair of fairness measures, VoCD included; for Lastfm it quotes VoCD separately.
_PAPER1_TAU_RANGES = [
    ("Lastfm", "relevance vs relevance", 0.81, 1.0),
    ("Ml-1m", "relevance vs relevance", 0.52, 1.0),
    ("Lastfm", "fairness vs fairness (without VoCD)", 0.71, 1.0),
    ("Lastfm", "VoCD vs other fairness", 0.43, 0.71),
    ("Ml-1m", "fairness vs fairness (all)", 0.81, 1.0),
    ("Lastfm", "relevance vs fairness", 0.33, 0.62),
    ("Ml-1m", "relevance vs fairness", 0.14, 0.52),
    ("Lastfm", "original vs corrected", 1.0, 1.0),
    ("Ml-1m", "original vs corrected", 1.0, 1.0),
]


def paper1_kendall_ranges() -> pd.DataFrame:
    """Ranges of Kendall's τ between kinds of measures that Paper 1 quotes (Exp. 2).

    Over the thesis's seven models per dataset, with lower-is-fairer measures negated; the
    thesis leaves out Ent_ori (NaN) and II-D (constant). Indexed by (dataset, pair type), with
    columns ``low`` and ``high``.

    Examples
    --------
    >>> paper1_kendall_ranges().loc[("Lastfm", "relevance vs fairness"), ["low", "high"]].tolist()
    [0.33, 0.62]
    """
    frame = pd.DataFrame(_PAPER1_TAU_RANGES, columns=["dataset", "pairs", "low", "high"])
    frame.attrs["source"] = "Thesis, Ch. 2 (Paper 1), Correlation between Measures"
    return frame.set_index(["dataset", "pairs"])


# Paper 1 (Ch. 2), Sliding Window: ranges quoted in the text for the BPR runs, from the first
# window (ranks 1-5) to the last (ranks 5-9) (the sliding-window figure is empty in the source).
# Each row: dataset, group of measures, first window low/high, last window low/high.
_PAPER1_SLIDING = [
    ("Lastfm", "relevance", 0.12, 0.48, 0.04, 0.25),
    ("Ml-1m", "relevance", 0.04, 0.23, 0.03, 0.20),
    ("Lastfm", "higher-is-fairer", 0.06, 0.65, 0.10, 0.71),
    ("Ml-1m", "higher-is-fairer", 0.05, 0.65, 0.08, 0.71),
    ("Lastfm", "Gini and Gini-w", 0.91, 0.92, 0.87, 0.88),
    ("Ml-1m", "Gini and Gini-w", 0.91, 0.92, 0.88, 0.89),
    ("Lastfm", "VoCD", 0.61, 0.61, 0.60, 0.60),
    ("Ml-1m", "VoCD", 0.68, 0.68, 0.67, 0.67),
]


def paper1_sliding_ranges() -> pd.DataFrame:
    """Score ranges of Paper 1's sliding-window experiment (Exp. 4), as quoted in the text.

    For BPR's top-10 lists, the lowest and highest score over a group of measures in the first
    window (ranks 1-5) and in the last (ranks 5-9), rounded to two decimals as printed. Indexed
    by (dataset, group); columns ``first_low``, ``first_high``, ``last_low``, ``last_high``.

    Examples
    --------
    >>> float(paper1_sliding_ranges().loc[("Lastfm", "relevance"), "first_high"])
    0.48
    """
    cols = ["dataset", "group", "first_low", "first_high", "last_low", "last_high"]
    frame = pd.DataFrame(_PAPER1_SLIDING, columns=cols)
    frame.attrs["source"] = "Thesis, Ch. 2 (Paper 1), Sliding Window, BPR"
    return frame.set_index(["dataset", "group"])


# Paper 1 (Ch. 2), Artificial Insertion of Items: the numbers the text states for the insertion
# of least-exposed relevant items with m = 1000, n = 10000, k = 10 (the insertion figure is
# empty in the source). The text says its observations hold for the original and the corrected versions.
_PAPER1_INSERTION = [
    ("Jain", 0.9, 0.0, "still close to 0, which translates to unfair"),
    ("QF", 0.9, 0.9, "0.9, which is close to the fairest score of 1"),
    ("Ent", 0.9, 0.9, "0.9, which is close to the fairest score of 1"),
    ("FSat", 0.9, 0.9, "0.9, which is close to the fairest score of 1"),
]


def paper1_insertion_claims() -> pd.DataFrame:
    """The scores Paper 1's text gives for the artificial insertion experiment (Exp. 5).

    Least-exposed relevant items inserted into m = 1000 lists of k = 10 over n = 10000 items;
    at the fraction ``P`` of inserted positions the measure is said to be about ``value``.
    Columns ``measure`` (without ori/our), ``P``, ``value``, ``wording``.

    Examples
    --------
    >>> float(paper1_insertion_claims().set_index("measure").loc["QF", "value"])
    0.9
    """
    frame = pd.DataFrame(_PAPER1_INSERTION, columns=["measure", "P", "value", "wording"])
    frame.attrs["source"] = "Thesis, Ch. 2 (Paper 1), Artificial Insertion of Items, m = 1000, n = 10000, k = 10"
    return frame


# Paper 2 (Ch. 3), Evaluation Results of All Measures, the table of scores without and with
# re-ranking, Lastfm block: k = 10,
# without ("-") and with COMBMNZ re-ranking of the top 25 ("-CM"). Relevance and (corrected)
# exposure-fairness rows as printed (3 d.p.). The printed joint rows round most scores to 0.000,
# so the joint rows are also kept at full precision from the authors' published result file
# (`experiments/combined_base/csv_combined_result_2023-12-22_163126.csv`, the author's published results);
# rounded to 3 d.p. they equal the printed table. Row names are recfair's canonical names: the
# thesis's Fair columns are the corrected (`_our`) versions, its IBO/IWO the corrected ones, and
# its IAA, IFD, II-F the originals.
_PAPER2_MODELS = ["ItemKNN", "ItemKNN-CM", "BPR", "BPR-CM", "MultiVAE", "MultiVAE-CM", "NCL", "NCL-CM"]
_PAPER2_LASTFM_PRINTED = [
    ("HR", [0.765, 0.581, 0.773, 0.587, 0.778, 0.523, 0.793, 0.571]),
    ("MRR", [0.484, 0.270, 0.492, 0.280, 0.476, 0.232, 0.503, 0.260]),
    ("P", [0.172, 0.089, 0.178, 0.092, 0.176, 0.076, 0.184, 0.087]),
    ("MAP", [0.137, 0.053, 0.141, 0.058, 0.138, 0.045, 0.148, 0.050]),
    ("R", [0.218, 0.114, 0.224, 0.119, 0.224, 0.098, 0.234, 0.110]),
    ("NDCG", [0.245, 0.119, 0.252, 0.126, 0.247, 0.102, 0.261, 0.115]),
    ("Jain_our", [0.042, 0.094, 0.058, 0.140, 0.097, 0.222, 0.082, 0.215]),
    ("QF_our", [0.474, 0.679, 0.362, 0.528, 0.517, 0.678, 0.453, 0.657]),
    ("Ent_our", [0.589, 0.735, 0.610, 0.740, 0.707, 0.826, 0.671, 0.810]),
    ("FSat_our", [0.129, 0.216, 0.147, 0.228, 0.202, 0.321, 0.178, 0.286]),
    ("Gini_our", [0.904, 0.790, 0.910, 0.818, 0.839, 0.696, 0.872, 0.728]),
    ("IBO_our", [0.209, 0.256, 0.208, 0.253, 0.261, 0.278, 0.242, 0.292]),
    ("IWO_our", [0.791, 0.744, 0.792, 0.747, 0.739, 0.722, 0.758, 0.708]),
    ("IAA_ori", [0.004, 0.004, 0.004, 0.004, 0.004, 0.004, 0.004, 0.004]),
    ("IFD_div_ori", [0.074, 0.053, 0.075, 0.054, 0.073, 0.049, 0.076, 0.052]),
    ("IFD_mul_ori", [0.000, 0.000, 0.000, 0.000, 0.000, 0.000, 0.000, 0.000]),
    ("HD", [0.099, 0.177, 0.104, 0.174, 0.095, 0.203, 0.092, 0.177]),
    ("MME", [0.001, 0.001, 0.001, 0.001, 0.001, 0.001, 0.001, 0.001]),
    ("II-F_ori", [0.001, 0.002, 0.001, 0.002, 0.001, 0.002, 0.001, 0.002]),
    ("AI-F", [0.000, 0.000, 0.000, 0.000, 0.000, 0.000, 0.000, 0.000]),
]
_PAPER2_LASTFM_FULL = [
    ("IBO_our", [0.209208, 0.256462, 0.207593, 0.252827, 0.260501, 0.277868, 0.241519, 0.292003]),
    ("IWO_our", [0.790792, 0.743538, 0.792407, 0.747173, 0.739499, 0.722132, 0.758481, 0.707997]),
    ("IAA_ori", [0.003741, 0.004153, 0.003717, 0.004137, 0.003738, 0.004210, 0.003691, 0.004177]),
    ("IFD_div_ori", [0.073708, 0.053181, 0.074809, 0.054357, 0.073352, 0.049048, 0.075941, 0.052405]),
    ("IFD_mul_ori", [0.0004466, 0.0002043, 0.000458, 0.0002156, 0.0004424, 0.000172, 0.0004703, 0.0001973]),
    ("HD", [0.099092, 0.177299, 0.103574, 0.173594, 0.094738, 0.202867, 0.091756, 0.177351]),
    ("MME", [0.0007521, 0.0006065, 0.0007107, 0.0005363, 0.0005837, 0.0005386, 0.0006584, 0.0005119]),
    ("II-F_ori", [0.001356, 0.001538, 0.001345, 0.001529, 0.001354, 0.001563, 0.001333, 0.001547]),
    ("AI-F", [4.406e-05, 1.927e-05, 2.794e-05, 1.245e-05, 1.066e-05, 9.781e-06, 1.68e-05, 9.408e-06]),
]


def paper2_results(dataset: str = "Lastfm", *, full_precision: bool = True) -> pd.DataFrame:
    """The thesis's Paper 2 main table (Ch. 3 Tab. 3) for ``dataset``: measures x runs.

    Only ``"Lastfm"`` is transcribed. Columns are the eight runs
    ``ItemKNN, ItemKNN-CM, BPR, BPR-CM, MultiVAE, MultiVAE-CM, NCL, NCL-CM`` (``-CM``: COMBMNZ
    re-ranking of the top 25), rows recfair's canonical measure names. Relevance and fairness
    rows are the printed 3-d.p. values. With ``full_precision=True`` (default) the joint rows
    come from the authors' published result file, whose values round to the printed ones; with
    ``False`` they are the printed values (most of them 0.000 or 0.001).

    Examples
    --------
    >>> float(paper2_results("Lastfm").loc["HD", "BPR"])
    0.103574
    >>> float(paper2_results("Lastfm", full_precision=False).loc["MME", "NCL-CM"])
    0.001
    """
    if dataset != "Lastfm":
        raise ValueError(f"dataset must be 'Lastfm' (the only one transcribed), got {dataset!r}.")
    rows = dict(_PAPER2_LASTFM_PRINTED)
    if full_precision:
        rows.update(dict(_PAPER2_LASTFM_FULL))
    frame = pd.DataFrame(rows, index=_PAPER2_MODELS).T
    frame.index.name = "measure"
    source = "Thesis, Ch. 3 (Paper 2), Evaluation Results of All Measures, table of scores, Lastfm"
    if full_precision:
        source += "; joint rows at full precision from the authors' published results"
    frame.attrs["source"] = source
    return frame


_PAPER2_INSERTION = [
    ("HR", [0.001, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]),
    ("MRR", [0.001, 0.1009, 0.112, 0.125875, 0.143714, 0.1675, 0.2008, 0.25075, 0.334, 0.5005, 1]),
    ("P", [0.001, 0.1009, 0.2008, 0.3007, 0.4006, 0.5005, 0.6004, 0.7003, 0.8002, 0.9001, 1]),
    ("MAP", [0.001, 0.01099, 0.03208, 0.0656575, 0.113506, 0.178005, 0.262484, 0.371938, 0.514692, 0.707396, 1]),
    ("R", [0.001, 0.1009, 0.2008, 0.3007, 0.4006, 0.5005, 0.6004, 0.7003, 0.8002, 0.9001, 1]),
    ("NDCG", [0.001, 0.0645572, 0.130745, 0.200107, 0.273397, 0.351717, 0.436775, 0.531469, 0.641405, 0.780128, 1]),
    ("Jain_our", [0, 0.000111099, 0.000249938, 0.000428388, 0.000666223, 0.000999001, 0.00149775, 0.0023279,
                  0.00398406, 0.00891972, 1]),
    ("QF_our", [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]),
    ("Ent_our", [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]),
    ("FSat_our", [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]),
    ("Gini_our", [1, 0.99, 0.96, 0.91, 0.84, 0.75, 0.64, 0.51, 0.36, 0.19, 0]),
    ("IBO_our", [0.001, 0.1009, 0.2008, 0.3007, 0.4006, 0.5005, 0.6004, 0.7003, 0.8002, 0.9001, 1]),
    ("IWO_our", [0.999, 0.8991, 0.7992, 0.6993, 0.5994, 0.4995, 0.3996, 0.2997, 0.1998, 0.0999, 0]),
    ("IAA_ori", [0.001499, 0.001499, 0.0014768, 0.0014324, 0.0013658, 0.001277, 0.001166, 0.0010328, 0.0008774,
                 0.0006998, 0.0005]),
    ("IFD_div_ori", [0.000100878, 0.0193237, 0.0353506, 0.0481646, 0.057786, 0.0643076, 0.0679713, 0.0693495,
                     0.0698593, 0.0736546, 0.0995307]),
    ("IFD_mul_ori", [4.98617e-07, 1.71936e-05, 3.52958e-05, 5.51721e-05, 7.736e-05, 0.000102694, 0.00013257,
                     0.000169595, 0.000219497, 0.000298959, 0.000498617]),
    ("HD", [0.700357, 0.270473, 0.240304, 0.200951, 0.216656, 0.246078, 0.255877, 0.215888, 0.184063, 0.243554,
            0.271782]),
    ("MME", [0.000999707, 0.000989717, 0.000978617, 0.00096613, 0.000951858, 0.000935208, 0.000915228,
             0.000890253, 0.000856953, 0.000807003, 0.000707103]),
    ("II-F_ori", [0.000473372, 0.000461403, 0.000446443, 0.000427742, 0.000404365, 0.000375145, 0.00033862,
                  0.000292963, 0.000235892, 0.000164553, 7.538e-05]),
    ("AI-F", [0.000274376, 0.000272576, 0.000269764, 0.000265371, 0.000258506, 0.000247779, 0.000231019,
              0.00020483, 0.000163911, 9.99754e-05, 7.538e-08]),
]


def paper2_insertion() -> pd.DataFrame:
    """The published scores of Paper 2's artificial-insertion study (thesis Ch. 3 §4.4): steps x measures.

    ``m = 1000``, ``n = 10000``, ``k = 10``; the index is the fraction of inserted items
    (0.0, 0.1, ..., 1.0). The thesis shows these only as a figure. The authors print the table
    behind it (notebook ``03b_artificial_insertion_plot.ipynb`` of their public repository) to
    6 decimal places. The values stored here are an independent recomputation of the same
    study, written at 6 significant digits, that equals the authors' printed table to all of
    its 6 decimals; for values below 0.1 they therefore carry digits beyond the 6th decimal,
    and those extra digits come from the recomputation, not from the authors' table (compare
    at 6 decimals: ``frame.round(6)``). The exposure measures are the corrected (``_our``)
    versions, IBO/IWO the form over the items relevant to someone, and HD was computed with
    numpy 1.23's unstable default sort.

    Examples
    --------
    >>> float(paper2_insertion().loc[0.1, "HD"])
    0.270473
    """
    frame = pd.DataFrame(dict(_PAPER2_INSERTION), index=pd.Index(np.round(np.arange(11) / 10, 1), name="P"))
    frame.attrs["source"] = ("Paper 2 artificial insertion (Section 4.4, Fig. 4): an independent "
                             "recomputation at 6 significant digits, equal to the authors' printed "
                             "table (6 decimal places) to all of its decimals")
    return frame


# ---------------------------------------------------------------------------------------------
# Paper 4 (Ch. 5, DPFR). Appended as one block; the Paper 1-2 parts above are edited separately.
# ---------------------------------------------------------------------------------------------

__all__ += ["paper4_teaser", "paper4_gradients", "paper4_disagreement", "paper4_efficiency"]

_P4_DATASETS = ["Lastfm", "Amazon-lb", "QK-video", "Jester", "ML-10M", "ML-20M"]

# Ch. 5 (Paper 4), the teaser figure: the three models, their distance to the
# frontier's midpoint as printed, and their simple average as printed.
_P4_TEASER = [("A", 0.2, 0.9, 0.582, 0.55), ("B", 0.65, 0.2, 0.578, 0.425), ("C", 0.5, 0.5, 0.376, 0.5)]

# Ch. 5 (Paper 4), appendix table of the frontier gradients: slope between the two ends of
# Oracle2Fair's sequence per (Rel, Fair) pair and dataset; None where the thesis prints "-".
_P4_GRADIENTS = [
    ("HR-Ent", -97.57, -1.86, -0.31, None, -14.74, -6.95),
    ("HR-FSat", -1439.17, -19.92, 0.00, None, -30.48, -18.97),
    ("HR-Gini", 561.63, 6.23, 3.71, None, 117.19, 43.44),
    ("HR-Jain", -979.86, -18.77, -5.80, None, -157.73, -78.22),
    ("HR-QF", 0.00, 0.00, 0.00, None, -30.48, -18.97),
    ("MAP-Ent", -0.17, -0.17, -0.03, -0.07, -0.14, -0.18),
    ("MAP-FSat", -2.46, -1.81, 0.00, -44.47, -0.29, -0.48),
    ("MAP-Gini", 0.96, 0.56, 0.34, 1.42, 1.12, 1.10),
    ("MAP-Jain", -1.68, -1.70, -0.54, -0.37, -1.51, -1.98),
    ("MAP-QF", 0.00, 0.00, 0.00, 0.0, -0.29, -0.48),
    ("MRR-Ent", -97.57, -1.86, -0.31, None, -14.74, -6.95),
    ("MRR-FSat", -1439.17, -19.92, 0.00, None, -30.48, -18.97),
    ("MRR-Gini", 561.63, 6.23, 3.71, None, 117.19, 43.44),
    ("MRR-Jain", -979.86, -18.77, -5.80, None, -157.73, -78.22),
    ("MRR-QF", 0.00, 0.00, 0.00, None, -30.48, -18.97),
    ("NDCG-Ent", -0.24, -0.22, -0.04, -0.1, -0.20, -0.25),
    ("NDCG-FSat", -3.50, -2.32, 0.00, -68.56, -0.42, -0.68),
    ("NDCG-Gini", 1.37, 0.73, 0.47, 2.2, 1.62, 1.55),
    ("NDCG-Jain", -2.38, -2.19, -0.73, -0.57, -2.18, -2.79),
    ("NDCG-QF", 0.00, 0.00, 0.00, 0.0, -0.42, -0.68),
    ("P-Ent", -0.20, -0.33, -0.07, -0.08, -0.16, -0.20),
    ("P-FSat", -2.95, -3.53, 0.00, -51.41, -0.33, -0.55),
    ("P-Gini", 1.15, 1.10, 0.89, 1.65, 1.26, 1.26),
    ("P-Jain", -2.01, -3.33, -1.40, -0.43, -1.70, -2.27),
    ("P-QF", 0.00, 0.00, 0.00, 0.0, -0.33, -0.55),
    ("R-Ent", -0.17, -0.17, -0.03, -0.07, -0.26, -0.30),
    ("R-FSat", -2.57, -1.83, 0.00, -48.04, -0.53, -0.82),
    ("R-Gini", 1.00, 0.57, 0.34, 1.54, 2.04, 1.88),
    ("R-Jain", -1.75, -1.73, -0.54, -0.4, -2.75, -3.39),
    ("R-QF", 0.00, 0.00, 0.00, 0.0, -0.53, -0.82),
]

# Ch. 5 (Paper 4), Agreement between Measures, the table of the best-model disagreement between the
# average and DPFR, in percent of the measure pairs: set-based Rel (P, R), rank-based (MAP, NDCG), all.
_P4_DISAGREEMENT = [
    ("Lastfm", 50.00, 66.67, 58.33), ("Amazon-lb", 0.00, 0.00, 0.00), ("QK-video", 16.67, 0.00, 8.33),
    ("Jester", 16.67, 83.33, 50.00), ("ML-10M", 0.00, 66.67, 33.33), ("ML-20M", 0.00, 50.00, 25.00),
    ("All datasets", 13.89, 44.44, 29.17),
]

# Ch. 5 (Paper 4), Efficient DPFR, the table of the estimated frontier's efficiency: points of the full
# frontier, minutes to compute it and the estimated ones, minimum Kendall tau over the 12 pairs,
# and the mean distance between the full and the estimated midpoints.
_P4_EFFICIENCY = [
    ("points", "PF", 4882, 847, 499, 16202, 2781, 3783),
    ("minutes", "PF", 19.18, 0.56, 10.49, 847.42, 28.99, 75.77),
    ("minutes", "Est. PF (12 pts)", 2.02, 0.19, 4.23, 552.16, 1.90, 2.60),
    ("minutes", "Est. PF (6 pts)", 2.00, 0.19, 4.12, 551.72, 1.84, 2.54),
    ("minutes", "Est. PF (3 pts)", 2.01, 0.19, 4.07, 552.26, 1.82, 2.52),
    ("min tau", "Est. PF (12 pts)", 0.95, 1.00, 1.00, 0.98, 0.98, 0.97),
    ("min tau", "Est. PF (6 pts)", 0.90, 0.97, 1.00, 0.98, 0.95, 0.92),
    ("min tau", "Est. PF (3 pts)", 0.78, 0.98, 1.00, 1.00, 0.97, 0.75),
    ("dist", "Est. PF (12 pts)", 0.01, 0.02, 0.00, 0.00, 0.01, 0.01),
    ("dist", "Est. PF (6 pts)", 0.03, 0.05, 0.00, 0.00, 0.02, 0.02),
    ("dist", "Est. PF (3 pts)", 0.03, 0.05, 0.00, 0.00, 0.03, 0.05),
    # the same table's time of the slowest joint measure, MME, averaged over the 16 runs
    ("minutes", "MME (per run)", 2.04, 0.03, 19.51, 0.09, 15.25, 89.13),
]


def paper4_teaser() -> pd.DataFrame:
    """The teaser of Paper 4 as printed: models A, B, C with (Rel, Fair), distance to the midpoint, average.

    The printed distances are to the midpoint rounded to (0.766, 0.766).

    Examples
    --------
    >>> float(paper4_teaser().loc["C", "DPFR"])
    0.376
    """
    frame = pd.DataFrame(_P4_TEASER, columns=["model", "Rel", "Fair", "DPFR", "average"]).set_index("model")
    frame.attrs["source"] = "thesis Ch. 5, teaser Fig. 5.1"
    return frame


def paper4_gradients() -> pd.DataFrame:
    """Paper 4's frontier gradients as printed: (Rel, Fair) pairs x the six datasets (NaN: printed "-").

    Examples
    --------
    >>> float(paper4_gradients().loc[("NDCG", "Gini"), "Lastfm"])
    1.37
    """
    rows = [(*pair.split("-"), *values) for pair, *values in _P4_GRADIENTS]
    frame = pd.DataFrame(rows, columns=["Rel", "Fair", *_P4_DATASETS]).set_index(["Rel", "Fair"])
    frame = frame.astype(float)
    frame.attrs["source"] = "thesis Ch. 5, appendix table of the frontier gradients"
    return frame


def paper4_disagreement() -> pd.DataFrame:
    """Paper 4's best-model disagreement (%) between the average of Rel and Fair and DPFR, as printed.

    Examples
    --------
    >>> float(paper4_disagreement().loc["Lastfm", "all"])
    58.33
    """
    frame = pd.DataFrame(_P4_DISAGREEMENT, columns=["dataset", "set-based", "rank-based", "all"]).set_index("dataset")
    frame.attrs["source"] = "thesis Ch. 5, table of the best-model disagreement (with the errata's reading)"
    return frame


def paper4_efficiency() -> pd.DataFrame:
    """Paper 4's efficiency table of the estimated frontier, as printed (quantity, frontier) x dataset.

    Examples
    --------
    >>> float(paper4_efficiency().loc[("min tau", "Est. PF (6 pts)"), "Lastfm"])
    0.9
    >>> float(paper4_efficiency().loc[("minutes", "MME (per run)"), "ML-20M"])
    89.13
    """
    frame = pd.DataFrame(_P4_EFFICIENCY, columns=["quantity", "frontier", *_P4_DATASETS])
    frame = frame.set_index(["quantity", "frontier"]).astype(float)
    frame.attrs["source"] = "thesis Ch. 5, table of the efficiency of the estimated frontier"
    return frame


# Ch. 5, appendix table of the range of Kendall tau between DPFR from the estimated and from the
# full frontier over the 12 pairs, for 3-12 points: the lower ends
# (every upper end is 1.00).
_P4_ESTIMATED_TAU_MIN = [
    (3, 0.78, 0.98, 1.00, 1.00, 0.97, 0.75),
    (4, 0.88, 0.98, 0.98, 0.98, 0.98, 0.93),
    (5, 0.78, 0.98, 1.00, 1.00, 0.97, 0.92),
    (6, 0.90, 0.97, 1.00, 0.98, 0.95, 0.92),
    (7, 0.88, 1.00, 1.00, 1.00, 0.98, 0.93),
    (8, 0.90, 0.98, 1.00, 0.98, 1.00, 0.95),
    (9, 0.98, 1.00, 1.00, 1.00, 0.97, 0.98),
    (10, 0.88, 1.00, 1.00, 0.98, 1.00, 0.95),
    (11, 0.92, 1.00, 1.00, 1.00, 0.98, 0.97),
    (12, 0.95, 1.00, 1.00, 0.98, 0.98, 0.97),
]

__all__ += ["paper4_estimated_tau"]


def paper4_estimated_tau() -> pd.DataFrame:
    """Paper 4's smallest Kendall τ between DPFR from the estimated and the full frontier, as printed.

    One row per number of points ``p`` (3-12), one column per dataset: the lower end of the
    printed range over the 12 pairs (the upper end is 1.00 everywhere).

    Examples
    --------
    >>> table = paper4_estimated_tau()
    >>> float(table.loc[6, "Lastfm"]), table.loc[table["Lastfm"] < 0.9].index.tolist()
    (0.9, [3, 4, 5, 7, 10])
    """
    frame = pd.DataFrame(_P4_ESTIMATED_TAU_MIN, columns=["p", *_P4_DATASETS]).set_index("p").astype(float)
    frame.attrs["source"] = "thesis Ch. 5, appendix table of the agreement of the estimated frontier"
    return frame


# ---------------------------------------------------------------------------------------------
# Paper 5 (Ch. 6): individual user fairness (PUF and its baselines)
# ---------------------------------------------------------------------------------------------

__all__ += ["paper5_results", "paper5_times"]

_P5_MODELS = ["U-KNN", "I-KNN", "BPR", "NMF", "MVAE", "NGCF", "NCL"]

# Ch. 6 (Paper 5), appendix table of the groundwork runs (Extended Empirical Analysis), Lastfm block, k = 10.
# Rows as printed; the thesis's "ME" and "MME" rows are labelled as printed (see paper5_results).
_P5_LASTFM = [
    ("HR", 0.7102, 0.7647, 0.7729, 0.7424, 0.7783, 0.7707, 0.7930),
    ("MRR", 0.4386, 0.4835, 0.4916, 0.4641, 0.4764, 0.4954, 0.5026),
    ("P", 0.1532, 0.1721, 0.1782, 0.1649, 0.1758, 0.1779, 0.1840),
    ("MAP", 0.1190, 0.1369, 0.1414, 0.1291, 0.1377, 0.1418, 0.1478),
    ("R", 0.1899, 0.2180, 0.2238, 0.2069, 0.2241, 0.2236, 0.2342),
    ("NDCG", 0.2167, 0.2450, 0.2520, 0.2334, 0.2473, 0.2530, 0.2611),
    ("SD-P", 0.1485, 0.1529, 0.1538, 0.1505, 0.1518, 0.1527, 0.1552),
    ("SD-NDCG", 0.2040, 0.2091, 0.2092, 0.2072, 0.2084, 0.2085, 0.2124),
    ("Gini-P", 0.5146, 0.4768, 0.4668, 0.4889, 0.4654, 0.4642, 0.4554),
    ("Gini-NDCG", 0.5213, 0.4789, 0.4678, 0.4953, 0.4735, 0.4646, 0.4581),
    ("ME", 0.0897, 0.0827, 0.0904, 0.0983, 0.0973, 0.0897, 0.0886),
    ("MME", 0.0025, 0.0017, 0.0020, 0.0025, 0.0020, 0.0021, 0.0019),
    ("PEU", 0.6525, 0.6176, 0.6318, 0.6765, 0.6531, 0.6275, 0.6193),
    ("UF", 0.6615, 0.6616, 0.6660, 0.6667, 0.6685, 0.6675, 0.6681),
    ("PUF-Prec-Cos", 0.0097, 0.0100, 0.0100, 0.0096, 0.0098, 0.0099, 0.0100),
    ("PUF-Prec-Jacc", 0.0073, 0.0075, 0.0075, 0.0073, 0.0074, 0.0075, 0.0076),
    ("PUF-NDCG-Cos", 0.0134, 0.0137, 0.0136, 0.0132, 0.0135, 0.0135, 0.0136),
    ("PUF-NDCG-Jacc", 0.0101, 0.0103, 0.0102, 0.0099, 0.0101, 0.0101, 0.0102),
]

# Ch. 6 (Paper 5), Comparison of All Evaluation Measures, the table of the mean computation time per
# model in seconds;
# None where the thesis prints "<0.01".
_P5_TIMES = [
    ("SD-P", None, 0.01, None, None), ("SD-NDCG", None, 0.02, 0.01, None),
    ("Gini-P", None, 0.01, None, None), ("Gini-NDCG", None, 0.03, 0.02, None),
    ("ME", 233.88, 1867.81, 871.17, 2020.60), ("MME", 233.91, 1867.88, 871.20, 2020.70),
    ("PEU", 233.91, 1867.88, 871.20, 2020.70), ("UF", 1297.78, 873.52, 1020.16, 1358.52),
    ("PUF-Prec-Cos", 5.30, 20.68, 4.00, 8.25), ("PUF-Prec-Jacc", 9.79, 35.63, 7.22, 15.65),
    ("PUF-NDCG-Cos", 4.32, 16.01, 3.38, 6.72), ("PUF-NDCG-Jacc", 9.56, 35.10, 7.40, 15.19),
]


def paper5_results(dataset: str = "Lastfm") -> pd.DataFrame:
    """Paper 5's groundwork table as printed for one dataset: measures x the seven models (k = 10).

    Only the Lastfm block is transcribed (the other datasets are not used in the book). The
    printed "ME" row is about 40x the printed "MME" row and cannot be the mean of the printed
    max-envy; recomputed on Lastfm, the printed ME matches recfair's ``MME_user`` and the printed
    MME matches ``ME_user`` (the labels appear swapped).

    Examples
    --------
    >>> float(paper5_results().loc["PUF-NDCG-Jacc", "NMF"])
    0.0099
    """
    if dataset != "Lastfm":
        raise ValueError(f"only the Lastfm block of Paper 5's table is transcribed; got {dataset!r}.")
    frame = pd.DataFrame(_P5_LASTFM, columns=["measure", *_P5_MODELS]).set_index("measure")
    frame.attrs["source"] = "thesis Ch. 6, appendix table of the groundwork runs (Lastfm)"
    return frame


def paper5_times() -> pd.DataFrame:
    """Paper 5's mean computation time per model (s) as printed: measure x dataset (NaN: printed "<0.01").

    Examples
    --------
    >>> float(paper5_times().loc["PUF-NDCG-Cos", "Lastfm"])
    4.32
    """
    frame = pd.DataFrame(_P5_TIMES, columns=["measure", "Lastfm", "QK-video", "ML-10M", "ML-20M"])
    frame = frame.set_index("measure").astype(float)
    frame.attrs["source"] = "thesis Ch. 6, table of the computation times (AMD EPYC 75F3)"
    return frame


# ============================================================================ Paper 6 (Ch. 7): user groups vs individuals

__all__ += ["paper6_teaser", "paper6_results", "paper6_ml1m_groups"]

_P6_RUNS = ["GLM NS", "GLM S", "Llama NS", "Llama S", "Ministral NS", "Ministral S", "Qwen NS", "Qwen S"]

# Ch. 7, teaser in the thesis's introduction: two hand-picked groups and all users, NDCG and Gini.
_P6_TEASER = [
    ("Group 1", 11, 0.546, 0.037),
    ("Group 2", 901, 0.471, 0.037),
    ("Individual", 912, 0.472, 0.446),
]

# Ch. 7, the table of all LLM runs on ML-1M (intersectional groups of the 3 attributes; k = 10).
# One row per (level, measure); "Eff" rows are effectiveness, "Grp" between groups, "Ind" individual.
_P6_ML1M = {
    "NDCG": """
Eff HR 0.377 0.358 0.260 0.269 0.342 0.340 0.363 0.371
Eff MRR 0.189 0.174 0.101 0.113 0.159 0.173 0.165 0.180
Eff NDCG 0.231 0.215 0.140 0.148 0.200 0.208 0.207 0.221
Grp Min 0.166 0.137 0.086 0.108 0.059 0.107 0.068 0.091
Grp Range 0.188 0.208 0.356 0.376 0.290 0.500 0.328 0.274
Grp SD 0.055 0.061 0.088 0.088 0.085 0.125 0.093 0.077
Grp MAD 0.067 0.076 0.091 0.087 0.099 0.142 0.112 0.090
Grp Gini 0.130 0.161 0.255 0.226 0.248 0.275 0.255 0.195
Grp Atk 0.015 0.020 0.036 0.025 0.033 0.049 0.053 0.039
Grp CV 0.233 0.285 0.540 0.502 0.465 0.525 0.460 0.365
Grp FStat 0.468 0.714 0.841 0.654 0.767 1.278 1.645 1.220
Grp KL 1.121 1.138 1.674 1.640 0.866 1.671 1.198 1.063
Grp GCE 0.028 0.050 0.112 0.104 659.844 659.741 0.239 0.198
Ind SD 0.330 0.320 0.262 0.272 0.309 0.322 0.308 0.324
Ind Gini 0.705 0.721 0.799 0.793 0.736 0.736 0.721 0.715
Ind Atk 0.636 0.655 0.751 0.742 0.672 0.673 0.652 0.644
""",
    "P": """
Eff HR 0.377 0.358 0.260 0.269 0.342 0.340 0.363 0.371
Eff MRR 0.189 0.174 0.101 0.113 0.159 0.173 0.165 0.180
Eff P 0.082 0.074 0.046 0.051 0.067 0.067 0.074 0.080
Grp Min 0.036 0.049 0.030 0.034 0.022 0.040 0.024 0.035
Grp Range 0.075 0.088 0.075 0.088 0.089 0.125 0.175 0.125
Grp SD 0.024 0.023 0.019 0.020 0.027 0.028 0.044 0.033
Grp MAD 0.028 0.028 0.022 0.023 0.031 0.031 0.051 0.040
Grp Gini 0.169 0.166 0.201 0.188 0.229 0.196 0.301 0.228
Grp Atk 0.018 0.019 0.031 0.021 0.032 0.037 0.057 0.041
Grp CV 0.323 0.299 0.388 0.358 0.444 0.391 0.577 0.416
Grp FStat 0.504 0.450 0.472 0.369 0.625 0.580 1.586 0.973
Grp KL 0.836 1.211 1.328 1.349 0.793 1.292 1.380 1.150
Grp GCE 0.106 0.051 0.068 0.140 659.834 659.704 0.387 0.273
Ind SD 0.141 0.129 0.096 0.109 0.124 0.123 0.136 0.141
Ind Gini 0.752 0.760 0.818 0.819 0.777 0.774 0.764 0.761
Ind Atk 0.658 0.674 0.760 0.755 0.693 0.692 0.675 0.667
""",
}

# Ch. 7, the same table on JobRec (36 intersectional groups) and LFM-1B (29 groups).
_P6_JOBREC = {
    "NDCG": """
Eff HR 0.054 0.033 0.044 0.021 0.057 0.044 0.065 0.057
Eff MRR 0.037 0.023 0.017 0.009 0.048 0.033 0.046 0.045
Eff NDCG 0.041 0.025 0.024 0.012 0.050 0.036 0.050 0.048
Grp Min 0.000 0.000 0.000 0.000 0.000 0.000 0.000 0.000
Grp Range 0.500 0.085 0.500 0.500 0.333 0.170 0.333 0.333
Grp SD 0.093 0.024 0.086 0.082 0.074 0.042 0.072 0.071
Grp MAD 0.066 0.019 0.053 0.035 0.065 0.035 0.065 0.056
Grp Gini 0.828 0.836 0.857 0.939 0.757 0.789 0.740 0.808
Grp Atk 0.545 0.525 0.676 0.833 0.520 0.498 0.472 0.499
Grp CV 2.392 2.114 2.883 4.549 1.758 1.923 1.706 2.102
Grp FStat 1.034 0.562 1.612 2.136 1.003 0.611 0.909 0.928
Grp KL 3.208 1.445 3.969 5.855 1.873 1.747 2.060 2.279
Grp GCE 1685.925 1979.103 1685.992 2052.498 1612.573 1759.176 1539.277 1759.185
Ind SD 0.183 0.147 0.121 0.090 0.211 0.174 0.204 0.203
Ind Gini 0.956 0.974 0.966 0.985 0.949 0.963 0.947 0.951
Ind Atk 0.948 0.969 0.958 0.980 0.944 0.957 0.937 0.944
""",
    "P": """
Eff HR 0.054 0.033 0.044 0.021 0.057 0.044 0.065 0.057
Eff MRR 0.037 0.023 0.017 0.009 0.048 0.033 0.046 0.045
Eff P 0.006 0.003 0.005 0.002 0.006 0.004 0.007 0.007
Grp Min 0.000 0.000 0.000 0.000 0.000 0.000 0.000 0.000
Grp Range 0.050 0.010 0.050 0.050 0.033 0.021 0.033 0.033
Grp SD 0.010 0.003 0.010 0.008 0.008 0.005 0.009 0.008
Grp MAD 0.008 0.003 0.008 0.004 0.007 0.005 0.009 0.007
Grp Gini 0.800 0.800 0.827 0.911 0.742 0.791 0.725 0.769
Grp Atk 0.509 0.480 0.641 0.758 0.498 0.508 0.466 0.455
Grp CV 2.079 1.875 2.262 3.634 1.629 1.850 1.508 1.770
Grp FStat 0.848 0.447 1.193 1.007 0.871 0.696 0.927 0.642
Grp KL 2.706 1.330 3.195 4.677 1.716 1.818 2.004 1.926
Grp GCE 1685.893 1979.080 1685.948 2052.428 1612.569 1759.183 1539.280 1759.168
Ind SD 0.024 0.018 0.022 0.014 0.026 0.021 0.028 0.028
Ind Gini 0.948 0.967 0.958 0.979 0.946 0.956 0.940 0.948
Ind Atk 0.947 0.967 0.956 0.979 0.943 0.956 0.936 0.944
""",
}

_P6_LFM1B = {
    "NDCG": """
Eff HR 0.658 0.661 0.609 0.618 0.451 0.317 0.375 0.317
Eff MRR 0.409 0.408 0.347 0.357 0.266 0.174 0.199 0.160
Eff NDCG 0.462 0.463 0.406 0.415 0.310 0.208 0.241 0.198
Grp Min 0.232 0.262 0.254 0.252 0.109 0.060 0.090 0.043
Grp Range 0.604 0.604 0.884 0.931 0.993 1.000 0.525 0.378
Grp SD 0.149 0.131 0.161 0.144 0.178 0.177 0.119 0.095
Grp MAD 0.141 0.126 0.163 0.137 0.168 0.156 0.128 0.107
Grp Gini 0.167 0.146 0.191 0.171 0.284 0.357 0.268 0.306
Grp Atk 0.003 0.002 0.004 0.004 0.006 0.014 0.008 0.019
Grp CV 0.366 0.315 0.393 0.372 0.624 0.841 0.516 0.561
Grp FStat 2.348 2.019 3.224 4.067 2.874 3.638 2.601 4.788
Grp KL 2.608 2.740 3.447 3.139 3.001 3.489 2.885 2.354
Grp GCE 338.843 225.901 112.993 112.988 451.823 451.872 451.824 564.768
Ind SD 0.380 0.378 0.370 0.371 0.377 0.334 0.342 0.320
Ind Gini 0.462 0.461 0.510 0.502 0.638 0.750 0.703 0.753
Ind Atk 0.361 0.358 0.409 0.400 0.563 0.694 0.638 0.695
""",
    "P": """
Eff HR 0.658 0.661 0.609 0.618 0.451 0.317 0.375 0.317
Eff MRR 0.409 0.408 0.347 0.357 0.266 0.174 0.199 0.160
Eff P 0.203 0.206 0.172 0.181 0.118 0.080 0.106 0.085
Grp Min 0.093 0.098 0.097 0.092 0.037 0.019 0.038 0.018
Grp Range 0.313 0.300 0.500 0.600 0.600 0.200 0.200 0.136
Grp SD 0.076 0.068 0.089 0.095 0.102 0.042 0.048 0.040
Grp MAD 0.081 0.075 0.082 0.081 0.079 0.045 0.051 0.046
Grp Gini 0.212 0.197 0.229 0.234 0.339 0.316 0.251 0.313
Grp Atk 0.004 0.004 0.005 0.006 0.008 0.016 0.008 0.023
Grp CV 0.414 0.372 0.513 0.566 0.903 0.600 0.484 0.564
Grp FStat 3.344 3.108 3.679 4.152 2.887 3.444 1.895 4.933
Grp KL 2.735 2.716 3.501 3.235 3.513 2.729 2.734 2.194
Grp GCE 338.856 225.920 113.018 113.024 451.857 451.864 451.815 564.777
Ind SD 0.226 0.228 0.204 0.210 0.183 0.157 0.187 0.170
Ind Gini 0.586 0.583 0.610 0.603 0.718 0.803 0.769 0.807
Ind Atk 0.415 0.411 0.454 0.445 0.599 0.719 0.669 0.722
""",
}

_P6_TABLES = {"ML-1M": _P6_ML1M, "JobRec": _P6_JOBREC, "LFM-1B": _P6_LFM1B}
# Ch. 7, dataset statistics table: the number of intersectional groups N' of each dataset's test users.
_P6_N_GROUPS = {"ML-1M": 12, "JobRec": 36, "LFM-1B": 29}

# Ch. 7, appendix table of ML-1M's intersectional groups (test users): (gender, age, occupation) -> users.
_P6_ML1M_GROUPS = [
    ("M", "18-24", "non-working", 44), ("M", "18-24", "working", 37),
    ("M", "25-49", "non-working", 41), ("M", "25-49", "working", 279),
    ("M", "50+", "non-working", 8), ("M", "50+", "working", 48),
    ("F", "18-24", "non-working", 21), ("F", "18-24", "working", 8),
    ("F", "25-49", "non-working", 26), ("F", "25-49", "working", 91),
    ("F", "50+", "non-working", 2), ("F", "50+", "working", 15),
]


def paper6_teaser() -> pd.DataFrame:
    """Paper 6's teaser as printed: two groups and all users, their size, mean NDCG and Gini.

    The Gini of the two groups is the between-group Gini of their two means (printed once).

    Examples
    --------
    >>> float(paper6_teaser().loc["Individual", "Gini"])
    0.446
    """
    frame = pd.DataFrame(_P6_TEASER, columns=["who", "users", "NDCG", "Gini"]).set_index("who")
    frame.attrs["source"] = "thesis introduction, teaser of Paper 6"
    return frame


def paper6_results(base: str = "NDCG", *, dataset: str = "ML-1M") -> pd.DataFrame:
    """Paper 6's scores of the eight LLM runs on one dataset, as printed: (level, measure) x run.

    Parameters
    ----------
    base : {"NDCG", "P"}
        The per-user effectiveness the fairness scores are computed from.
    dataset : {"ML-1M", "JobRec", "LFM-1B"}, default="ML-1M"
        The dataset of the table (the thesis prints one table per dataset and base).

    Examples
    --------
    >>> float(paper6_results().loc[("Grp", "Atk"), "GLM NS"])
    0.015
    >>> float(paper6_results("P").loc[("Ind", "Gini"), "Qwen S"])
    0.761
    >>> table = paper6_results(dataset="LFM-1B")
    >>> float(table.loc[("Grp", "GCE"), "Qwen S"]), table.attrs["n_groups"]
    (564.768, 29)
    """
    if dataset not in _P6_TABLES:
        raise ValueError(f"dataset must be one of {list(_P6_TABLES)}, got {dataset!r}.")
    tables = _P6_TABLES[dataset]
    if base not in tables:
        raise ValueError(f"base must be one of {sorted(tables)}, got {base!r}.")
    rows = [line.split() for line in tables[base].strip().splitlines()]
    frame = pd.DataFrame([r[2:] for r in rows], index=pd.MultiIndex.from_tuples([(r[0], r[1]) for r in rows],
                                                                                   names=["level", "measure"]),
                         columns=_P6_RUNS).astype(float)
    frame.attrs["source"] = f"thesis Ch. 7, table of the LLM runs on {dataset} ({base} as base score)"
    frame.attrs["n_groups"] = _P6_N_GROUPS[dataset]
    return frame


def paper6_ml1m_groups() -> pd.DataFrame:
    """ML-1M's intersectional groups of test users in Paper 6, as printed (12 groups, 620 users).

    Examples
    --------
    >>> groups = paper6_ml1m_groups()
    >>> len(groups), int(groups["users"].sum())
    (12, 620)
    """
    frame = pd.DataFrame(_P6_ML1M_GROUPS, columns=["gender", "age", "occupation", "users"])
    frame.attrs["source"] = "thesis Ch. 7, appendix table of ML-1M's intersectional groups"
    return frame
