"""Every public function and class of recfair has a docstring with an example (run as a doctest)."""

import importlib
import inspect
import pkgutil

import pytest

import recfair


def _public_objects():
    for info in pkgutil.walk_packages(recfair.__path__, "recfair."):
        module = importlib.import_module(info.name)
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if (inspect.isfunction(obj) or inspect.isclass(obj)) and obj.__module__ == module.__name__:
                yield f"{module.__name__}.{name}", obj


PUBLIC = dict(_public_objects())


def test_the_public_api_is_found():
    assert "recfair.engine.evaluate" in PUBLIC and "recfair.item_exposure.measures.jain_index" in PUBLIC
    assert len(PUBLIC) > 150


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_docstring_with_an_example(name):
    doc = inspect.getdoc(PUBLIC[name]) or ""
    assert doc.strip(), f"{name} has no docstring"
    assert ">>>" in doc, f"{name}'s docstring has no example (a doctest)"


# ---------------------------------------------------------------- Parts III-V at Part I's standard

import re  # noqa: E402
from pathlib import Path  # noqa: E402

LATER_PARTS = ("recfair.pareto", "recfair.users", "recfair.groups")


def _later_part_functions():
    out = {}
    for package in LATER_PARTS:
        pkg = importlib.import_module(package)
        modules = [pkg] + [importlib.import_module(f"{package}.{m.name}")
                           for m in pkgutil.iter_modules(pkg.__path__) if not m.name.startswith("_")]
        for module in modules:
            for name in getattr(module, "__all__", []):
                obj = getattr(module, name)
                if inspect.isfunction(obj) and obj.__module__.startswith(package):
                    out[f"{obj.__module__}.{obj.__name__}"] = obj
    return out


@pytest.mark.parametrize("name", sorted(_later_part_functions()))
def test_numpydoc_sections_in_parts_iii_to_v(name):
    """Every public function of Parts III-V: Parameters, Returns and a runnable example (numpydoc)."""
    func = _later_part_functions()[name]
    doc = inspect.getdoc(func) or ""
    sections = ("Parameters\n----------",) if inspect.signature(func).parameters else ()
    for section in sections + ("Returns\n-------", "Examples\n--------"):
        assert section in doc, f"{name} lacks a {section.splitlines()[0]} section"
    assert ">>>" in doc.split("Examples\n--------", 1)[1]


def test_measure_docstrings_state_formula_and_range():
    """Every registry record's function shows its formula and states its range."""
    bad = []
    for spec in recfair.ALL_MEASURES:
        doc = inspect.getdoc(spec.func) or ""
        if ".. math::" not in doc or not re.search(r"\brange\b", doc, re.I):
            bad.append(spec.key)
    assert not bad, f"no formula or range in the docstrings of {bad}"


def test_no_citation_of_files_outside_the_package():
    """Docstrings and comments cite the thesis (paper, section, equation) or the book, never digest files."""
    root = Path(recfair.__file__).parent
    hits = [f"{p.relative_to(root)}:{i}" for p in root.rglob("*.py")
            for i, line in enumerate(p.read_text().splitlines(), 1) if re.search(r"\bp[1-6]\.md\b", line)]
    assert not hits, hits


#: A citation of the thesis's LaTeX source instead of the thesis: a line number (``L1956``,
#: ``lines 650-722``), an internal label (``app:boundsproof``, ``ss:maxmin``, ``tab:bounds``,
#: ``ext_tab:...``, ``Eq. gini-w-max``, ``Tab. bounds``) or a section of a digest (``spec §8.3``).
SOURCE_CITATION = re.compile(
    r"\bL\d{4}\b"
    r"|\blines? \d{3,}"
    r"|(?<![\w:])(?:[A-Za-z]+_)?(?:app|ss|sss|sec|tab|eq|fig|thm|lem|alg):[a-z][\w-]*"
    r"|\bEqs?\. [a-z]+-[a-z]"
    r"|\bTab\. `*[a-z]"
    r"|\bspec §"
)


@pytest.mark.parametrize("text, cited", [
    ("source=\"thesis app:boundsproof, Jain (L1956-1962); Tab. bounds\"", True),
    ("(§``ss:maxmin``, L1754–1797)", True), ("(thesis lines 650-722)", True), ("Paper 3, lines 4208–4447", True),
    ("Executive Summary's `tab:contrib-guideline`", True), ("`ext_tab:consideration-summary`", True),
    ("(Eqs. gini-w-max, gini-w-min)", True), ("(spec §8.3 notes)", True), ("Tab. ``tab:bounds``", True),
    (":class:`~recfair.UndefinedMeasureError`", False), (":func:`inverse` and :math:`e_{\\mathrm{DCG}}`", False),
    ("Paper 1, appendix (mathematical workings for the bounds), Jain; Table 2", False),
    ("Paper 3, appendix, Theorems 1-2", False), ("lines of k = 10 items", False),
    ("the slice ``top_k[:, s:s+width]``", False), (":eq:`label` and :numref:`tab-bounds`", False),
])
def test_the_source_citation_pattern(text, cited):
    assert bool(SOURCE_CITATION.search(text)) is cited, text


def test_no_citation_of_thesis_lines_or_labels():
    """Citations name the thesis's paper, section, equation, table or theorem (or a chapter of the
    book), never a line of its LaTeX source or an internal label."""
    root = Path(recfair.__file__).parent
    files = sorted(root.rglob("*.py")) + sorted(root.rglob("*.md"))
    hits = [f"{p.relative_to(root)}:{i}: {line.strip()[:80]}" for p in files
            for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if SOURCE_CITATION.search(line)]
    assert not hits, "\n".join(hits)
