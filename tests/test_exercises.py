"""The classroom pack: notebooks generated from the chapters, and self-checks that reveal nothing.

* the committed notebooks equal what ``notebooks/make_exercises.py`` generates from the chapters now;
* the answer store covers every exercise of the book and holds no answer in clear;
* ``recfair.book.exercises.check``: right / not yet, tolerance of one unit in the last decimal, hints;
* the instructor notebooks run top to bottom with every check right, and the student notebooks run
  with the answers left blank, every check saying "not yet" (real data from ``RECFAIR_DATA``).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import sys
from pathlib import Path

import pytest

from recfair.book import exercises as ex

ROOT = Path(__file__).resolve().parents[1]


def _generator():
    spec = importlib.util.spec_from_file_location("make_exercises", ROOT / "notebooks" / "make_exercises.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_exercises"] = module
    spec.loader.exec_module(module)
    return module


gen = _generator()


@pytest.fixture(scope="module")
def book():
    return gen.Book(ROOT)


@pytest.fixture(scope="module")
def store():
    return json.loads((ROOT / "recfair" / "book" / "exercise_answers.json").read_text())


# ---------------------------------------------------------------------------------------------
# generation
# ---------------------------------------------------------------------------------------------
def test_committed_notebooks_are_generated_from_the_chapters(book):
    bad = [str(p.relative_to(ROOT)) for p in gen.stale(book)]
    assert not bad, f"stale classroom notebooks {bad}: run `python notebooks/make_exercises.py`"


def test_recorded_answers_are_as_new_as_the_chapters_code(book, store):
    """A changed solution, answer marker or chapter code the notebook runs makes its answer stale."""
    stale = gen.stale_answers(book, store)
    assert not stale, f"answers recorded from older chapter code {stale}: run `python notebooks/make_exercises.py`"
    chapter = book.chapters["book/item_exposure/jain"]
    exercise = chapter.exercises[0]
    code = next(p for p in exercise.solution if isinstance(p, gen.Code))
    original = code.source
    code.source = original.replace("m, n = 6, 15", "m, n = 6, 16")
    try:
        changed = gen.stale_answers(book, store)   # this one, and the later ones of its chapter
        assert exercise.label in changed and set(changed) <= {e.label for e in chapter.exercises}
    finally:
        code.source = original


def test_one_notebook_per_part_in_each_edition(book):
    slugs = [p.slug for p in book.parts]
    assert slugs == ["foundations", "part-1", "part-2", "part-3", "part-4", "part-5", "part-6"]
    for folder in ("exercises", "solutions"):
        assert sorted(p.stem for p in (ROOT / "notebooks" / folder).glob("*.ipynb")) == sorted(slugs)


def test_every_exercise_of_the_book_is_in_its_part_notebook(book):
    for part in book.parts:
        labels = [e.label for f in part.files if f in book.chapters for e in book.chapters[f].exercises]
        for folder in ("exercises", "solutions"):
            text = (ROOT / "notebooks" / folder / f"{part.slug}.ipynb").read_text()
            for label in labels:
                assert f"`{label}`" in text, (folder, part.slug, label)


def test_student_notebooks_hold_no_solution(book):
    for part in book.parts:
        nb = json.loads((ROOT / "notebooks" / "exercises" / f"{part.slug}.ipynb").read_text())
        text = "\n".join("".join(c["source"]) for c in nb["cells"])
        assert "**Solution.**" not in text
        for f in part.files:
            for e in book.chapters.get(f, gen.Chapter(f, ROOT, "", None, [], [], [])).exercises:
                for piece in e.solution:
                    if isinstance(piece, gen.Code) and len(piece.source) > 40:
                        assert piece.source not in text, e.label
                if len(e.marks.get("answer", "")) > 20:
                    assert e.marks["answer"] not in text, e.label


def test_notebooks_open_with_the_install_cell_and_the_chapters_to_read(book):
    repository = gen.book_config(ROOT)["repository"]
    nb = json.loads((ROOT / "notebooks" / "exercises" / "part-3.ipynb").read_text())
    intro, install = "".join(nb["cells"][0]["source"]), "".join(nb["cells"][1]["source"])
    assert "What it covers" in intro and "Read first" in intro
    for f in next(p for p in book.parts if p.slug == "part-3").files:
        assert book.url(f) in intro
    assert f"git+{repository}@" in install and 'find_spec("recfair")' in install


def test_launch_links_in_readme_and_how_to_use_match_the_configuration(book):
    """Binder and Colab links of every student notebook, from _config.yml's repository."""
    readme = (ROOT / "README.md").read_text()
    how_to = (ROOT / "book" / "start" / "how-to-use.md").read_text()
    for part in book.parts:
        links = gen.launch_links(book.config, "exercises", part.slug)
        for name in ("Binder", "Colab"):
            assert f"]({links[name]})" in readme, (part.slug, name)
            assert f"]({links[name]})" in how_to, (part.slug, name)
    toc = (ROOT / "_toc.yml").read_text()
    assert "file: book/start/teaching" in toc


def test_a_changed_exercise_changes_the_notebook(tmp_path, book):
    """One source: editing an exercise's text in a chapter changes the generated notebook."""
    chapter = book.chapters["book/item_exposure/jain"]
    part = next(p for p in book.parts if chapter.file in p.files)
    before = gen.write_notebook(gen.build_notebook(book, part, solutions=False))
    chapter.exercises[0].text += " A sentence added in the chapter."
    try:
        after = gen.write_notebook(gen.build_notebook(book, part, solutions=False))
    finally:
        chapter.exercises[0].text = chapter.exercises[0].text.replace(" A sentence added in the chapter.", "")
    assert before != after and "A sentence added in the chapter." in after


def test_the_slice_keeps_what_the_solutions_need_and_drops_the_rest():
    chapter = gen.Chapter("x", ROOT, "x", None, [
        gen.Code("import numpy as np\nfrom myst_nb import glue"),
        gen.Code("rng = np.random.default_rng(0)\nnoise = rng.random(3)\nx = rng.random(5)"),
        gen.Code("plot = np.sum(x)\nglue('a', plot)\ny = [v for v in x]\ny.append(1)"),
        gen.Code("for k in range(3):\n    print(k)"),
    ], [], [])
    kept = gen.chapter_slice(chapter, ["print(len(y), [k for k in range(2)])"])
    text = "\n".join(kept)
    assert "noise = rng.random(3)" in text           # it advances rng, which x needs
    assert "y.append(1)" in text and "y = [v for v in x]" in text
    assert "glue" not in text and "plot" not in text and "for k" not in text


# ---------------------------------------------------------------------------------------------
# the answer store and the check
# ---------------------------------------------------------------------------------------------
def test_store_covers_every_exercise_and_holds_no_answer_in_clear(book, store):
    labels = {e.label for c in book.chapters.values() for e in c.exercises}
    assert set(store) == labels
    for label, entry in store.items():
        assert set(entry) <= {"chapter", "url", "kind", "options", "salt", "digest", "coarse", "variants", "vary",
                              "hint", "source", "seconds"}
        if entry["kind"] != "open":
            digests = [entry] if "digest" in entry else entry["variants"]
            for d in digests:
                assert re.fullmatch(r"[0-9a-f]{64}", d["digest"]) and entry["hint"], label
                assert all(re.fullmatch(r"[0-9a-f]{64}", c) for c in d.get("coarse", {}).values()), label
            if entry["kind"] in ("number", "numbers"):
                assert all("coarse" in d for d in digests), label
    assert sum(e["kind"] != "open" for e in store.values()) >= 40


def test_store_agrees_with_the_chapters_markers(book, store):
    """Kind, options and hint of every check come from the chapter as it is now (the digest is
    checked by running the instructor notebooks below)."""
    for chapter in book.chapters.values():
        for e in chapter.exercises:
            entry = store[e.label]
            assert entry["kind"] == e.kind, e.label
            assert entry["chapter"] == chapter.title, e.label
            if e.kind != "open":
                options = (e.marks["check"].split(None, 1) + [""])[1]
                assert entry["options"] == options, e.label
                assert entry["hint"] == book.markdown(e.marks.get("hint", "").strip(), chapter.file), e.label


def test_every_checkable_exercise_has_a_computed_answer(book):
    for chapter in book.chapters.values():
        for e in chapter.exercises:
            if e.kind != "open":
                assert gen.answer_expression(e), e.label


@pytest.fixture
def fake_store(monkeypatch):
    entries = {
        "n-1": {"kind": "number", "options": "3", **ex.make_entry("n-1", "number", "3", ex.normalise("number", "3", 0.1234)),
                "hint": "look at the counts", "chapter": "C", "url": "https://x/c.html"},
        "s-1": {"kind": "set", "options": "", **ex.make_entry("s-1", "set", "", ex.normalise("set", "", {2, 5})),
                "hint": "h", "chapter": "C", "url": "u"},
        "c-1": {"kind": "choice", "options": "first | second",
                **ex.make_entry("c-1", "choice", "first | second", "second"), "hint": "h", "chapter": "C", "url": "u"},
        "y-1": {"kind": "yes/no", "options": "", **ex.make_entry("y-1", "yes/no", "", "false"), "hint": "h",
                "chapter": "C", "url": "u"},
        "o-1": {"kind": "open", "chapter": "C", "url": "https://x/c.html#d"},
    }
    monkeypatch.setattr(ex, "_store", lambda: entries)
    return entries


def test_check_says_right_within_one_unit_of_the_last_decimal(fake_store):
    import numpy as np

    for value in (0.1234, 0.123, 0.1226, np.float64(0.1244), 0.122):
        assert ex.check("n-1", value), value
    for value in (0.1254, 0.1204, 1.123, -0.123):
        assert not ex.check("n-1", value), value


def test_check_not_yet_gives_the_hint_and_no_answer(fake_store):
    result = ex.check("n-1", 0.5)
    assert not result and "not yet" in repr(result) and "look at the counts" in repr(result)
    assert "0.123" not in repr(result) and "https://x/c.html" in repr(result)
    blank = ex.check("n-1", None)
    assert not blank and "not yet" in repr(blank)
    wrong_type = ex.check("n-1", {1, 2})
    assert not wrong_type and "expected a number" in repr(wrong_type)


def test_check_sets_choices_and_yes_no(fake_store):
    import numpy as np

    assert ex.check("s-1", [5, 2]) and ex.check("s-1", np.array([2, 5])) and not ex.check("s-1", {2})
    assert ex.check("c-1", " Second") and not ex.check("c-1", "first")
    assert "expected one of" in repr(ex.check("c-1", "third"))
    assert ex.check("y-1", False) and ex.check("y-1", "no") and not ex.check("y-1", np.bool_(True))
    open_ = ex.check("o-1", 3)
    assert not open_ and "open question" in repr(open_) and "https://x/c.html#d" in repr(open_)


def test_check_rejects_bad_labels(fake_store):
    with pytest.raises(ValueError, match="unknown exercise 'nope'"):
        ex.check("nope", 1)
    with pytest.raises(TypeError, match="label must be a str"):
        ex.check(3, 1)


def test_shipped_store_is_package_data():
    assert ex._store.__wrapped__()  # read through importlib.resources, as an installed package does
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '"recfair.book" = ["exercise_answers.json"]' in pyproject


# ---------------------------------------------------------------------------------------------
# the notebooks run: instructor edition all right, student edition all "not yet"
# ---------------------------------------------------------------------------------------------
def _run(path: Path):
    pytest.importorskip("nbclient")
    if not os.environ.get("RECFAIR_DATA") and any(s in path.read_text() for s in ("load_split", "produce_run")):
        pytest.skip("needs the real datasets (set RECFAIR_DATA)")
    env = {"PYTHONPATH": os.pathsep.join([str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]),
           "MPLBACKEND": "Agg"}
    return gen.execute(path, env=env)


def _check_outputs(nb) -> list[str]:
    out = []
    for cell in nb.cells:
        if cell.cell_type == "code" and "recfair.book.exercises.check(" in cell.source:
            texts = [o.get("data", {}).get("text/plain", "") for o in cell.get("outputs", []) if o.output_type == "execute_result"]
            out.append(" ".join(texts))
    return out


PARTS = ["foundations", "part-1", "part-2", "part-3", "part-4", "part-5", "part-6"]


@pytest.mark.parametrize("slug", PARTS)
def test_instructor_notebook_runs_with_every_check_right(slug):
    nb = _run(ROOT / "notebooks" / "solutions" / f"{slug}.ipynb")
    results = _check_outputs(nb)
    assert results, "no check ran"
    wrong = [r for r in results if ": right." not in r]
    assert not wrong, wrong


@pytest.mark.parametrize("slug", PARTS)
def test_student_notebook_runs_blank_with_every_check_not_yet(slug):
    nb = _run(ROOT / "notebooks" / "exercises" / f"{slug}.ipynb")
    results = _check_outputs(nb)
    assert results and all("not yet" in r for r in results), results


# ---------------------------------------------------------------------------------------------
# a fair checker: any form that means the asked value; order; digits; types; no recording switch
# ---------------------------------------------------------------------------------------------
@pytest.fixture
def fair_store(monkeypatch):
    from fractions import Fraction

    def numeric(label, kind, options, value, **extra):
        d = int(options or 3)
        recorded = {str(k): ex.normalise(kind, options, value, decimals=k) for k in range(d + 1)}
        return {"kind": kind, "options": options, **ex.make_entry(label, kind, options, recorded),
                "hint": "the conceptual hint", "chapter": "C", "url": "u", **extra}

    entries = {
        "p-1": numeric("p-1", "numbers", "4", [0.2 + 0.4 * 3 ** 0.5, 0.6]),
        "j-1": numeric("j-1", "number", "3", 0.2941),
        "f-1": numeric("f-1", "number", "4", Fraction(1, 3)),
        "l-1": {"kind": "list", "options": "", **ex.make_entry("l-1", "list", "", ex.normalise("list", "", [1, 2, 29, 30])),
                "hint": "h", "chapter": "C", "url": "u"},
        "i-1": {"kind": "integer", "options": "", **ex.make_entry("i-1", "integer", "", "7"), "hint": "h",
                "chapter": "C", "url": "u"},
        "n-set": {"kind": "set", "options": "", **ex.make_entry("n-set", "set", "", ex.normalise("set", "", {"VoCD"})),
                  "hint": "h", "chapter": "C", "url": "u"},
    }
    values = [0.27, 0.53, 0.76]
    entries["v-1"] = {"kind": "number", "options": "2", "hint": "h", "chapter": "C", "url": "u",
                      "vary": {"x": [1, 2, 3]},
                      **ex.make_entry("v-1", "number", "2", [{str(k): ex.normalise("number", "2", v, decimals=k)
                                                               for k in range(3)} for v in values])}
    monkeypatch.setattr(ex, "_store", lambda: entries)
    ex.student(None)
    yield entries
    ex.student(None)


def test_exact_sympy_numbers_fractions_strings_and_one_element_containers_are_numbers(fair_store):
    import numpy as np
    import pandas as pd
    import sympy as sp
    from fractions import Fraction

    exact = [sp.Rational(1, 5) + 2 * sp.sqrt(3) / 5, sp.Rational(3, 5)]
    assert ex.check("p-1", exact) and ex.check("p-1", sp.Matrix(exact)) and ex.check("p-1", tuple(exact))
    assert ex.check("p-1", [0.8928, "0.6"]) and ex.check("p-1", np.array([0.8928, 0.6]))
    for value in (0.294, [0.294], (0.294,), pd.Series([0.294]), pd.DataFrame({"x": [0.294]}), "0.294",
                  np.float32(0.294), sp.Float(0.294)):
        assert ex.check("j-1", value), repr(value)
    assert ex.check("f-1", Fraction(1, 3)) and ex.check("f-1", sp.Rational(1, 3)) and ex.check("f-1", "1/3")
    assert ex.check("i-1", 7.0) and ex.check("i-1", "7") and ex.check("i-1", sp.Integer(7)) and ex.check("i-1", [7])
    assert ex.check("n-set", "VoCD") and ex.check("n-set", ["vocd"]) and ex.check("n-set", pd.Index(["VoCD"]))
    symbolic = ex.check("j-1", sp.Symbol("x") / 3)
    assert not symbolic and "sympy expression in x" in repr(symbolic)


def test_order_matters_for_a_list(fair_store):
    assert ex.check("l-1", [1, 2, 29, 30]) and ex.check("l-1", (1, 2, 29, 30))
    as_set = ex.check("l-1", {1, 2, 29, 30})
    assert not as_set and "a set has no order" in repr(as_set) and "Hint" not in repr(as_set)
    assert not ex.check("l-1", [2, 1, 29, 30])


def test_too_few_digits_get_a_precision_message_not_the_hint(fair_store):
    short = ex.check("j-1", 0.29)
    assert not short and "right to 2 decimals — give 3" in repr(short) and "conceptual hint" not in repr(short)
    assert "right to 2 decimals — give 4" in repr(ex.check("p-1", [0.89, 0.6]))
    assert "right to 1 decimal — give 3" in repr(ex.check("j-1", "0.3"))
    wrong = ex.check("j-1", 0.41)          # short and wrong: the hint
    assert not wrong and "conceptual hint" in repr(wrong)
    assert "conceptual hint" in repr(ex.check("j-1", 0.3124))   # enough digits, wrong


def test_a_wrong_type_says_what_is_expected(fair_store):
    assert "expected a number, got a set" in repr(ex.check("j-1", {0.1, 0.2}))
    assert "expected a list in order" in repr(ex.check("p-1", 0.6))
    assert "expected a whole number" in repr(ex.check("i-1", "seven"))
    assert "expected a set, got a dict" in repr(ex.check("n-set", {"VoCD": 1}))


def test_no_environment_variable_turns_the_check_into_a_recorder(fair_store, monkeypatch, tmp_path):
    monkeypatch.setenv("RECFAIR_EXERCISES_RECORD", str(tmp_path / "x.jsonl"))
    monkeypatch.setenv("RECFAIR_EXERCISES_KINDS", str(tmp_path / "k.json"))
    assert not ex.check("j-1", 12345) and not ex.check("l-1", [0])
    assert not (tmp_path / "x.jsonl").exists()
    text = (ROOT / "recfair" / "book" / "exercises.py").read_text()
    assert "os.environ" not in text and "getenv" not in text


def test_variants_follow_the_student(fair_store):
    values = [0.27, 0.53, 0.76]
    assert ex.variant("v-1", "x") == 1 and ex.check("v-1", 0.27) and not ex.check("v-1", 0.53)
    seen = {}
    for name in ("ada", "bob", "eve", "kim", "lea", "max", "ola", "sam"):
        ex.student(name)
        i = ex.variant("v-1", "x") - 1
        seen[name] = i
        assert ex.check("v-1", values[i]) and not ex.check("v-1", values[(i + 1) % 3])
        assert "right to 1 decimal — give 2" in repr(ex.check("v-1", round(values[i], 1)))
    assert len(set(seen.values())) > 1, "every student got the same variant"
    with pytest.raises(ValueError, match="no variant parameter 'y'"):
        ex.variant("v-1", "y")
    with pytest.raises(TypeError, match="non-empty str"):
        ex.student(3)


def test_the_shipped_variant_exercise_has_the_answer_of_each_variant(store):
    """puf-ex-1 varies m; the most unfair PUF of each m, computed here, is what the store records."""
    from recfair.users import generators

    m_values = store["puf-ex-1"]["vary"]["m_odd"]
    assert len(store["puf-ex-1"]["variants"]) == len(m_values) >= 3
    try:
        for name in ("ada", "bob", "eve", "kim", "lea"):
            ex.student(name)
            m = ex.variant("puf-ex-1", "m_odd")
            scores, sim = generators.puf_extreme_cases(m)["most_unfair"]
            value = ex._plain(__import__("recfair").puf(scores, similarity=sim))
            assert ex.check("puf-ex-1", value), (name, m)
            other = next(v for v in m_values if v != m)
            scores, sim = generators.puf_extreme_cases(other)["most_unfair"]
            wrong = ex._plain(__import__("recfair").puf(scores, similarity=sim))
            assert round(wrong, 4) == round(value, 4) or not ex.check("puf-ex-1", wrong)
    finally:
        ex.student(None)


# ---------------------------------------------------------------------------------------------
# per-student variants of the numeric exercises
# ---------------------------------------------------------------------------------------------
#: numeric exercises kept the same for every student, and why
FIXED = {
    "fairness-ex-patience": "the item most exposed at γ = 0.5 is the one most often ranked first in the chapter's "
                            "toy lists, the same item for any γ below 1: a varied γ gives every student one answer",
    "data-ex-1": "computed on a stored real-data run (Last.fm, EASE) whose cutoff k = 10 the stored runs fix",
    "data-ex-2": "computed on a stored real-data run (MovieLens-100K, Pop): no parameter of the exercise",
    "jain-ex-3": "the thesis's own worked example (counts 3, 2, 1, 1, 1, 1), placed between the thesis's bounds",
    "fsat-ex-1": "the sizes are Book-x's (the thesis's dataset table): the question is about that dataset",
    "vocd-ex-1": "the four β values probe the definition's thresholds on a fixed two-user case, and the question "
                 "asks why the last two values agree",
    "p1-experiments-ex-1": "counted from the significance tests of the stored Last.fm runs (real data, no parameter)",
    "ifd-ex-3": "the corrected IFD÷ of a user with one relevant item is 0 for every n and k (a property of the "
                "correction), so a variant would not change the answer",
    "hd-ex-1": "HD of this one-user case is the same for every catalogue size n, so no variant changes the answer",
    "hd-ex-2": "the smallest R follows from the theorem and is the same for every k",
    "mme-ibo-iwo-ex-1": "the question reads off which item envies which in the three-item case, with MME as a "
                        "multiple of 1/18 there",
    "iif-aif-ex-2": "AI-F of rotating lists whose relevant items are the lists is 0 for every m, n and k "
                    "(the point of the exercise)",
    "iif-aif-ex-3": "a prediction from the theorem: the third relevant item lies beyond k, and every rank beyond k "
                    "gives the same II-F_our",
    "p23-experiments-ex-2": "read from the thesis's published table of Paper 2 (thesis.paper2_results)",
    "pareto-dpfr-ex-2": "an exact sympy point at α = 1/3 from the chapter's closed form: the answer is an "
                        "expression with surds, checked exactly, and the chapter derives it at that α",
    "pareto-generation-ex-1": "a property of the chapter's deterministic six-user walk (which user gets item 6, and why)",
    "ui-ex-1": "the chapter's toy run computed by hand and compared with its printed ME_user",
    "groups-ex-3": "GCE with two zero groups depends only on the smoothing constant, not on data",
    "groups-dec-ex-3": "the 5000 users are the chapter's check sample built in its setup; the question is the limit "
                       "of one user per group",
    "groups-exp-ex-3": "the chapter's free-text example of the paper's NDCG variant: two fixed users",
}
NUMERIC = ("number", "numbers", "integer")


def _numeric(book):
    return {e.label: (c, e) for c in book.chapters.values() for e in c.exercises if e.kind in NUMERIC}


def test_every_numeric_exercise_varies_or_is_fixed_with_a_reason(book, store):
    numeric = _numeric(book)
    varied = {label for label, (_, e) in numeric.items() if gen.vary_values(e)}
    assert not set(FIXED) - set(numeric), f"FIXED names exercises that are not numeric: {set(FIXED) - set(numeric)}"
    assert not varied & set(FIXED), f"varied and FIXED at once: {varied & set(FIXED)}"
    missing = set(numeric) - varied - set(FIXED)
    assert not missing, f"numeric exercises neither varied (% vary:) nor in FIXED with a reason: {sorted(missing)}"
    assert all(len(reason.split()) >= 8 for reason in FIXED.values())
    assert len(varied) >= 10
    for label in varied:
        name, values = gen.vary_values(numeric[label][1])
        entry = store[label]
        assert entry["vary"] == {name: [list(v) if isinstance(v, tuple) else v for v in values]}, label
        digests = [v["digest"] for v in entry["variants"]]
        assert len(digests) == len(values) and len(set(digests)) == len(digests), \
            f"{label}: two variants have the same answer"


def _solution_code(book, label):
    """The code a student runs for a varied exercise: the chapter's setup, then (after the parameter is
    set) the solution, and the answer's expression."""
    chapter, exercise = _numeric(book)[label]
    name, values = gen.vary_values(exercise)
    solution = "\n".join(gen._clean_magics(p.source) for p in gen._solution_pieces(exercise) if isinstance(p, gen.Code))
    expression = gen.answer_expression(exercise)
    setup = gen.chapter_slice(chapter, [solution, expression], given={name})
    return "\n".join(gen.GLUE_PRELUDE + [gen._clean_magics(s) for s in setup]), name, values, solution, expression


def _solve(book, label, value):
    setup, name, _, solution, expression = _solution_code(book, label)
    namespace = {"__name__": "__solution__"}
    exec(compile(setup, f"<setup of {label}>", "exec"), namespace)
    namespace[name] = value
    exec(compile(solution, f"<solution of {label}>", "exec"), namespace)
    return eval(expression, namespace)


def _two_students(label, n_variants):
    """Two names that get different variants of the exercise."""
    names = [f"student-{i}" for i in range(50)]
    index = {}
    for name in names:
        ex.student(name)
        index[name] = ex._variant_index(label, n_variants)
    first = names[0]
    second = next(n for n in names if index[n] != index[first])
    return (first, index[first]), (second, index[second])


VARIED_CHEAP = ["iid-aid-ex-3", "groups-ex-2", "qf-ex-3", "field-pop-ex-1", "groups-dec-ex-1"]


@pytest.mark.parametrize("label", VARIED_CHEAP)
def test_each_student_is_right_with_their_own_variant_only(book, store, label):
    """The answers are computed here by running the solution with each student's parameter."""
    _, name, values, _, _ = _solution_code(book, label)
    try:
        (ada, i), (bob, j) = _two_students(label, len(values))
        ex.student(ada)
        assert ex.variant(label, name) == values[i]
        answer_ada = _solve(book, label, values[i])
        answer_bob = _solve(book, label, values[j])
        assert ex.normalise(store[label]["kind"], store[label]["options"], answer_ada) != \
            ex.normalise(store[label]["kind"], store[label]["options"], answer_bob)
        assert ex.check(label, answer_ada) and not ex.check(label, answer_bob)
        ex.student(bob)
        assert ex.variant(label, name) == values[j]
        assert ex.check(label, answer_bob) and not ex.check(label, answer_ada)
    finally:
        ex.student(None)


def test_without_a_name_the_check_says_so(book, store):
    label = "iid-aid-ex-3"
    try:
        shown = ex.student(None)
        assert not shown and "No name set" in repr(shown) and "student(" in repr(shown)
        book_answer = _solve(book, label, gen.vary_values(_numeric(book)[label][1])[1][0])
        unnamed = ex.check(label, book_answer)
        assert unnamed and "no name is set" in repr(unnamed) and "first cell" in repr(unnamed)
        assert "no name is set" in repr(ex.check(label, [0.0, 0.0]))
        fixed = next(iter(FIXED))
        assert "no name is set" not in repr(ex.check(fixed, None))     # a fixed exercise needs no name
        ex.student(book=True)                                             # the instructor edition
        assert ex.check(label, book_answer) and "no name" not in repr(ex.check(label, book_answer))
        assert "Working as **ada**" in repr(ex.student("ada"))
        assert "no name" not in repr(ex.check(label, book_answer))
        with pytest.raises(ValueError, match="not both"):
            ex.student("ada", book=True)
    finally:
        ex.student(None)


def test_student_notebooks_ask_for_the_name_and_the_instructor_edition_says_answers_vary(book):
    for part in book.parts:
        student_nb = json.loads((ROOT / "notebooks" / "exercises" / f"{part.slug}.ipynb").read_text())
        teacher_nb = json.loads((ROOT / "notebooks" / "solutions" / f"{part.slug}.ipynb").read_text())
        first = "".join(student_nb["cells"][1]["source"])
        assert "TYPE YOUR NAME" in first and first.rstrip().endswith("recfair.book.exercises.student(None)")
        assert "type your name" in "".join(student_nb["cells"][0]["source"])
        assert "".join(teacher_nb["cells"][1]["source"]).rstrip().endswith("recfair.book.exercises.student(book=True)")
        varied = [e.label for f in part.files if f in book.chapters for e in book.chapters[f].exercises
                  if gen.vary_values(e)]
        student_text = "\n".join("".join(c["source"]) for c in student_nb["cells"])
        teacher_text = "\n".join("".join(c["source"]) for c in teacher_nb["cells"])
        assert student_text.count("**Your variant**: ") == len(varied), part.slug
        assert teacher_text.count("**Variants** (for the teacher)") == len(varied), part.slug
        for label in varied:
            assert f'recfair.book.exercises.variant("{label}"' in student_text
            assert f'recfair.book.exercises.variant("{label}"' in teacher_text


def test_scorecard_grades_each_student_on_their_own_variant(tmp_path, book, store):
    pytest.importorskip("nbclient")
    label = "iid-aid-ex-3"
    setup, name, values, solution, expression = _solution_code(book, label)
    try:
        (ada, i), (bob, j) = _two_students(label, len(values))
        copier = next(f"copier-{k}" for k in range(100)
                      if ex.student(f"copier-{k}") and ex._variant_index(label, len(values)) != i)
    finally:
        ex.student(None)
    own = [setup, f"{name} = recfair.book.exercises.variant({label!r}, {name!r})", solution,
           f"answer = {expression}\nrecfair.book.exercises.check({label!r}, answer)"]
    _submission(tmp_path / "ada.ipynb", own, student=ada)
    _submission(tmp_path / "bob.ipynb", own, student=bob)
    shared = [float(v) for v in _solve(book, label, values[i])]        # ada's answer, typed in by a classmate
    _submission(tmp_path / "copier.ipynb", [f"answer = {shared!r}\nrecfair.book.exercises.check({label!r}, answer)"],
                student=copier)
    _submission(tmp_path / "noname.ipynb", own)
    table = ex.scorecard(tmp_path)
    assert table.loc[label, ada] == "right" and table.loc[label, bob] == "right"
    assert table.loc[label, copier] == "not yet"
    assert table.loc[label, "noname"] == "right"          # graded on the book's variant, and listed
    assert table.attrs["unnamed"] == ["noname.ipynb"]
    assert not any(table.attrs["errors"].values()), table.attrs["errors"]


# ---------------------------------------------------------------------------------------------
# grading
# ---------------------------------------------------------------------------------------------
def _submission(path, cells, student=None):
    import nbformat

    head = "import recfair, recfair.book.exercises\n" + (f"recfair.book.exercises.student({student!r})" if student else "")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(head)] + [nbformat.v4.new_code_cell(c) for c in cells])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, str(path))


def test_scorecard_executes_a_folder_of_submissions(tmp_path, store):
    pytest.importorskip("nbclient")
    checked = next(label for label, e in store.items() if e["kind"] == "integer")
    opened = next(label for label, e in store.items() if e["kind"] == "open")
    _submission(tmp_path / "ada" / "part.ipynb", [
        f"answer = None\nrecfair.book.exercises.check({checked!r}, answer)",
        f"recfair.book.exercises.check({opened!r}, None)",
        "1 / 0",
    ])
    _submission(tmp_path / "bob.ipynb", [   # a student who types "right" in the output does not get it
        f"answer = -12345\nprint('**{checked}: right.**')\n# recfair.book.exercises.check({checked!r}, answer)",
    ], student="Bob B")
    table = ex.scorecard(tmp_path)
    assert list(table.columns) == ["ada", "Bob B"]
    assert table.loc[checked, "ada"] == "not yet" and table.loc[opened, "ada"] == "open"
    assert table.loc[checked, "Bob B"] == "not yet"
    assert any("ZeroDivisionError" in e for e in table.attrs["errors"]["ada"])
    csv = tmp_path / "scores.csv"
    table.to_csv(csv)
    assert csv.read_text().splitlines()[0] == "label,ada,Bob B"


def test_scorecard_reads_saved_outputs_and_the_command_line(tmp_path, store, capsys):
    import nbformat

    label = next(label for label, e in store.items() if e["kind"] == "set")
    cell = nbformat.v4.new_code_cell(f"answer = {{1}}\nrecfair.book.exercises.check({label!r}, answer)")
    cell.outputs = [nbformat.v4.new_output("execute_result", {"text/plain": f"**{label}: right.** ✓"})]
    nbformat.write(nbformat.v4.new_notebook(cells=[cell]), str(tmp_path / "cy.ipynb"))
    assert ex.scorecard(tmp_path, execute=False).loc[label, "cy"] == "right"
    assert ex.main(["score", str(tmp_path), "--read", "--csv", str(tmp_path / "s.csv")]) == 0
    assert "cy 1/1" in capsys.readouterr().out and (tmp_path / "s.csv").exists()
    with pytest.raises(ValueError, match="no notebook"):
        ex.scorecard(tmp_path / "missing")
    with pytest.raises(TypeError, match="execute must be True or False"):
        ex.scorecard(tmp_path, execute="yes")


def test_class_pack_names_no_solutions_and_fills_in_each_student(tmp_path, book):
    names = tmp_path / "names.txt"
    names.write_text("ada\nbob\n")
    assert gen.main(["--class-pack", str(tmp_path / "pack"), "--students", str(names)]) == 0
    for name in ("ada", "bob"):
        files = sorted((tmp_path / "pack" / name).glob("*.ipynb"))
        assert [p.stem for p in files] == PARTS
        for path in files:
            text = path.read_text()
            assert "solutions" not in text.lower() and "instructor" not in text.lower(), path
            assert f'recfair.book.exercises.student(\\"{name}\\")' in text


# ---------------------------------------------------------------------------------------------
# content: rubrics, formats, times, no placeholders
# ---------------------------------------------------------------------------------------------
def test_open_questions_have_a_rubric_in_the_instructor_edition_only(book):
    for part in book.parts:
        solutions = (ROOT / "notebooks" / "solutions" / f"{part.slug}.ipynb").read_text()
        exercises = (ROOT / "notebooks" / "exercises" / f"{part.slug}.ipynb").read_text()
        for f in part.files:
            for e in book.chapters[f].exercises if f in book.chapters else []:
                if e.kind == "open":
                    assert len(e.marks["rubric"].split()) >= 12, e.label
                    assert e.marks["rubric"].split()[0] in solutions, e.label
        assert "**Rubric**" not in exercises and ("**Rubric**" in solutions) == any(
            e.kind == "open" for f in part.files if f in book.chapters for e in book.chapters[f].exercises)


def test_generated_text_has_no_placeholder_or_plural_slip():
    for path in sorted((ROOT / "notebooks").glob("*/*.ipynb")):
        text = path.read_text()
        assert "that the code above computes" not in text, path
        assert not re.search(r"\b1 (exercises|are open)", text), path
        assert not re.search(r"\b([02-9]|\d\d+) exercise\b", text), path


def test_answer_examples_match_the_kind_of_answer(book):
    """A set of names is not shown as {1, 2, 3}; a list's example is a list."""
    for chapter in book.chapters.values():
        for e in chapter.exercises:
            if e.kind in ("set", "list") and "example" not in e.marks:
                ask = e.marks.get("ask", "")
                assert not re.search(r"\b(measure|run|name)s?\b", ask), (e.label, ask)
            if "example" in e.marks:
                opener = {"set": "{", "list": "[", "numbers": "["}[e.kind]
                assert e.marks["example"].startswith(opener), e.label


def test_times_come_from_the_measured_solutions(book, store):
    jain = book.chapters["book/item_exposure/jain"]
    assert all("seconds" in store[e.label] for c in book.chapters.values() for e in c.exercises)
    minutes = {e.label: gen.minutes(e) for c in book.chapters.values() for e in c.exercises}
    assert len(set(minutes.values())) >= 3 and all(m % 5 == 0 and m >= 5 for m in minutes.values())
    exercise = jain.exercises[0]
    before = gen.minutes(exercise)
    exercise.text += " word" * 600             # ten more minutes of reading
    try:
        assert gen.minutes(exercise) >= before + 10
    finally:
        exercise.text = exercise.text.replace(" word" * 600, "")


# ---------------------------------------------------------------------------------------------
# Binder: the Python the pins need, a slim environment that runs every student notebook
# ---------------------------------------------------------------------------------------------
def _requirements(path: Path) -> dict[str, str]:
    out = {}
    for line in path.read_text().splitlines():
        line = line.split("#")[0].strip()
        if line and not line.startswith("-"):
            name, _, version = line.partition("==")
            out[re.sub(r"[-_.]+", "-", name.split("[")[0].lower())] = version
    return out


def test_binder_runtime_satisfies_requires_python():
    from packaging.specifiers import SpecifierSet

    runtime = (ROOT / "binder" / "runtime.txt").read_text().strip()
    match = re.fullmatch(r"python-(3\.\d+)", runtime)
    assert match, f"binder/runtime.txt must read python-3.X, not {runtime!r}"
    requires = re.search(r'requires-python\s*=\s*"([^"]+)"', (ROOT / "pyproject.toml").read_text()).group(1)
    assert match.group(1) + ".0" in SpecifierSet(requires), (runtime, requires)
    assert match.group(1) in ("3.11", "3.12")


def test_binder_environment_is_slim_and_pinned_like_the_book():
    binder = _requirements(ROOT / "binder" / "requirements.txt")
    full = _requirements(ROOT / "requirements.txt")
    assert not {"selenium", "pytest", "hypothesis", "jupyter-book", "dask", "ranx", "ir-measures"} & set(binder)
    assert "jupyterlab" in binder and "ipykernel" in binder
    for name, version in binder.items():
        if name in full:
            assert version == full[name], f"binder pins {name}=={version}, requirements.txt {full[name]}"
    text = (ROOT / "binder" / "requirements.txt").read_text()
    assert "-r ../requirements.txt" not in text
    post = (ROOT / "binder" / "postBuild").read_text()
    assert 'pip install --no-cache-dir -e ".[plot,widgets,symbolic,recommenders]"' in post
    # recfair's own dependencies and the extras postBuild installs are pinned in the slim set
    import tomllib

    from packaging.requirements import Requirement

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    specs = project["dependencies"] + [d for extra in ("plot", "widgets", "symbolic", "recommenders")
                                       for d in project["optional-dependencies"][extra]]
    missing = {re.sub(r"[-_.]+", "-", Requirement(d).name.lower()) for d in specs} - set(binder)
    assert not missing, f"binder/requirements.txt lacks {missing}"


def test_binder_set_covers_every_import_of_the_student_notebooks():
    """Each module a student notebook imports comes from a distribution of the slim set or its
    dependencies (CI then executes the notebooks in a venv made from binder/ alone)."""
    from importlib import metadata

    from packaging.requirements import Requirement

    slim = set(_requirements(ROOT / "binder" / "requirements.txt"))
    closure, todo = set(), list(slim)
    while todo:
        name = todo.pop()
        if name in closure:
            continue
        closure.add(name)
        try:
            requires = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue
        for spec in requires:
            req = Requirement(spec)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(re.sub(r"[-_.]+", "-", req.name.lower()))
    providers = metadata.packages_distributions()
    modules = set()
    for path in sorted((ROOT / "notebooks" / "exercises").glob("*.ipynb")):
        for cell in json.loads(path.read_text())["cells"]:
            if cell["cell_type"] == "code":
                modules |= {m.split(".")[0] for m in re.findall(r"^\s*(?:from|import)\s+([\w.]+)",
                                                                  "".join(cell["source"]), re.M)}
    assert "recfair" in modules and len(modules) > 5
    for module in sorted(modules - {"recfair"} - set(sys.stdlib_module_names)):
        dists = {re.sub(r"[-_.]+", "-", d.lower()) for d in providers.get(module, [])}
        assert dists & closure, f"{module} (from {dists or 'nothing installed'}) is not in the Binder set"
