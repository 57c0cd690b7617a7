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


# --- the book's code calls recfair the way recfair is called ----------------------------------
import ast  # noqa: E402
import json  # noqa: E402

_ROOT = Path(__file__).resolve().parents[1]
_CELL = re.compile(r"^```\{code-cell\}[^\n]*\n(.*?)^```", re.S | re.M)


def _code_cells():
    """Every code cell of the chapters and classroom notebooks, as (where, source)."""
    for path in sorted((_ROOT / "book").rglob("*.md")):
        if "_build" in path.parts:
            continue
        for i, match in enumerate(_CELL.finditer(path.read_text(encoding="utf-8"))):
            body = "\n".join(line for line in match.group(1).splitlines() if not line.startswith(":"))
            yield f"{path.relative_to(_ROOT)} cell {i}", body
    for path in sorted((_ROOT / "notebooks").rglob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for i, cell in enumerate(cells):
            if cell["cell_type"] == "code":
                yield f"{path.relative_to(_ROOT)} cell {i}", "".join(cell["source"])


def _resolve(node):
    """The recfair object a call's ``rf.a.b`` names, or None when it does not name one."""
    chain = []
    while isinstance(node, ast.Attribute):
        chain.append(node.attr)
        node = node.value
    if not (isinstance(node, ast.Name) and node.id in {"rf", "recfair"}) or not chain:
        return None
    target = recfair
    for name in reversed(chain):
        try:
            target = getattr(target, name)
        except AttributeError:
            return None
    return target if callable(target) else None


def _bad_calls(source):
    """Calls of recfair's public functions in ``source`` that their signatures refuse."""
    lines = [line for line in source.splitlines() if not line.lstrip().startswith(("%", "!"))]
    try:
        tree = ast.parse("\n".join(lines))
    except SyntaxError:
        return []
    bad = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        target = _resolve(node.func)
        if target is None or isinstance(target, type):
            continue
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            continue
        try:
            signature = inspect.signature(target)
        except (TypeError, ValueError):
            continue
        try:
            signature.bind(*range(len(node.args)), **{k.arg: None for k in node.keywords})
        except TypeError as error:
            bad.append(f"line {node.lineno}: {ast.unparse(node.func)}: {error}")
    return bad


def test_the_book_calls_recfair_by_its_signatures():
    """A chapter that passes measures positionally (or an unknown keyword) fails here, not in the book build."""
    problems = [f"{where}: {issue}" for where, source in _code_cells() for issue in _bad_calls(source)]
    assert not problems, "\n".join(problems)


def test_the_signature_check_catches_a_positional_measure_list():
    assert _bad_calls('rf.evaluate_run(run, ["MME"])')
    assert not _bad_calls('rf.evaluate_run(run, measures=["MME"])')
