"""The library's layers and import rules (``recfair/README.md``), checked on the source.

Every ``.py`` file under ``recfair/`` is parsed; every import statement counts, at module level
and inside functions alike, relative imports resolved. Modules are classified by layer, from the
bottom up (a layer is what a module may import, a folder is the role a reader looks for):

* **core** (:data:`CORE`): imports only core modules. Two core modules live in the folder of
  their role: ``io/frames.py`` (the pandas adapters of the run contract) and ``scale/_distributed.py``
  (the Dask plumbing, which knows no measure; Part IV's pairwise kernels use it);
* **symbolic** (:data:`SYMBOLIC`: ``book/symbolic.py``, the sympy toolkit): imports only the core,
  and below the services only the parts' ``derivations`` modules import it;
* **parts**: every subpackage that is not a layer of its own (``recfair.item_exposure``, ``recfair.joint``,
  ``recfair.pareto`` ...): the core, modules of the same part, and the public package (its
  ``__init__``, never a submodule) of an *earlier* part of the book (:data:`PART_ORDER`): Part III's
  frontier is built from Part I's measures;
* **engine** (:data:`ENGINE`: the registry, ``engine``, ``bounds`` and the ``scale`` package):
  the core, the parts and each other. They are the only modules that know every part;
* **services** (:data:`SERVICES`: ``io``, ``analysis``, ``datasets``, ``recommenders``, ``book``):
  anything but the top-level package;
* the top-level package ``recfair`` itself may import anything.

A new top-level module must be added to one of the sets; a new subpackage is a part.
No import cycle is allowed anywhere.
"""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).parents[1] / "recfair"
CORE = {"recfair._validation", "recfair._docs", "recfair.spec", "recfair.run", "recfair.ranking", "recfair.inequality",
        "recfair.examination", "recfair.relevance", "recfair.synthetic",
        "recfair.io.frames", "recfair.scale._distributed"}
#: The sympy toolkit: a service module that the parts' ``derivations`` modules (and only they, below the services) import.
SYMBOLIC = {"recfair.book.symbolic"}
#: Modules and packages of the engine layer: they know every part.
ENGINE = {"recfair.registry", "recfair.engine", "recfair.bounds", "recfair.scale"}
#: The parts in the book's order; a part may import the public package of an earlier one.
PART_ORDER = ("recfair.item_exposure", "recfair.joint", "recfair.pareto", "recfair.users", "recfair.groups",
              "recfair.field")
#: Packages (and modules) of the services: input/output, analysis of runs, data, recommenders, the book's services.
SERVICES = {"recfair.io", "recfair.analysis", "recfair.datasets", "recfair.recommenders", "recfair.book",
            "recfair.__main__"}
#: At most this many modules directly under ``recfair/`` (``__init__`` and ``__main__`` included).
MAX_TOP_LEVEL = 16


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def discover() -> dict[str, Path]:
    """Every module of recfair: dotted name -> file."""
    return {_module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(module: str, path: Path, known: set[str]) -> set[str]:
    """The recfair modules that ``module`` imports (anywhere in its body)."""
    out = set()
    tree = ast.parse(path.read_text(), filename=str(path))
    is_package = path.name == "__init__.py"
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, is_package, node)
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:      # "recfair.x.func" -> "recfair.x"
                target = target.rpartition(".")[0]
            if target.startswith("recfair") and target != module:
                out.add(target)
    return out


def graph() -> dict[str, set[str]]:
    modules = discover()
    known = set(modules)
    return {name: imports_of(name, path, known) for name, path in modules.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one node (Tarjan, iterative)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for start in edges:
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def classify(module: str) -> str:
    """The layer of a module: root, core, symbolic, engine, service or ``part:<package>``."""
    if module == "recfair":
        return "root"
    top = ".".join(module.split(".")[:2])
    if module in CORE:
        return "core"
    if module in SYMBOLIC:
        return "symbolic"
    if module in ENGINE or top in ENGINE:
        return "engine"
    if module in SERVICES or top in SERVICES:
        return "service"
    if (ROOT / top.split(".")[1]).is_dir():
        return f"part:{top}"
    return "unclassified"


def test_cycle_finder_detects_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set()}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_function_level_and_relative_imports():
    edges = graph()
    assert "recfair.registry" in edges["recfair.engine"]
    assert "recfair.item_exposure.measures" in edges["recfair.item_exposure.records"]
    assert "recfair._validation" in edges["recfair.item_exposure.measures"]


def test_no_import_cycle():
    found = cycles(graph())
    assert not found, "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


def test_every_module_is_classified():
    unclassified = [m for m in discover() if classify(m) == "unclassified"]
    assert not unclassified, (f"classify {unclassified} in tests/test_architecture.py (CORE, ENGINE or "
                              "SERVICES) and in recfair/README.md")


def layer_problems(module: str, kind: str, target: str, target_kind: str) -> list[str]:
    """What is wrong with ``module`` (of layer ``kind``) importing ``target`` (of layer ``target_kind``)."""
    if kind == "core" and target_kind != "core":
        return [f"{target} ({target_kind}): core modules import only core modules"]
    if kind == "symbolic" and target_kind != "core":
        return [f"{target} ({target_kind}): the sympy toolkit imports only the core"]
    if target_kind == "symbolic" and kind.startswith("part:"):
        if module.rpartition(".")[2] != "derivations":
            return [f"{target}: of a part, only its `derivations` module imports the sympy toolkit"]
        return []
    if kind.startswith("part:") and target_kind not in ("core", kind) and not _earlier_part_api(kind, target):
        return [f"{target} ({target_kind}): a part imports only the core, its own modules and the "
                "public package of an earlier part"]
    if kind == "engine" and target_kind not in ("core", "engine") and not target_kind.startswith("part:"):
        return [f"{target} ({target_kind}): the engine imports only the core, the parts and the engine"]
    if kind == "service" and target_kind == "root":
        return [f"{target}: services do not import the top-level package"]
    return []


@pytest.mark.parametrize("module", sorted(discover()))
def test_layering(module):
    kind = classify(module)
    bad = [problem for target in sorted(graph_cache()[module])
           for problem in layer_problems(module, kind, target, classify(target))]
    assert not bad, f"{module} ({kind}) imports " + "; ".join(bad)


def test_the_layer_rules_catch_violations():
    assert classify("recfair.io.frames") == "core" and classify("recfair.io.files") == "service"
    assert classify("recfair.scale._distributed") == "core" and classify("recfair.scale.blocks") == "engine"
    assert classify("recfair.book.symbolic") == "symbolic" and classify("recfair.book.plotting") == "service"
    assert classify("recfair.engine") == "engine" and classify("recfair.joint.measures") == "part:recfair.joint"
    assert layer_problems("recfair.run", "core", "recfair.registry", "engine")
    assert not layer_problems("recfair.joint.derivations", "part:recfair.joint", "recfair.book.symbolic", "symbolic")
    assert layer_problems("recfair.joint.measures", "part:recfair.joint", "recfair.book.symbolic", "symbolic")
    assert layer_problems("recfair.joint.measures", "part:recfair.joint", "recfair.book.plotting", "service")
    assert layer_problems("recfair.book.symbolic", "symbolic", "recfair.registry", "engine")
    assert layer_problems("recfair.engine", "engine", "recfair.io.files", "service")
    assert not layer_problems("recfair.engine", "engine", "recfair.scale.cluster", "engine")
    assert layer_problems("recfair.book.guide", "service", "recfair", "root")


def test_at_most_16_modules_at_the_top():
    """The folder listing shows the roles: the core and the engine at the top, everything else in a subpackage."""
    top = sorted(p.name for p in ROOT.glob("*.py"))
    assert len(top) <= MAX_TOP_LEVEL, f"{len(top)} modules directly under recfair/ (at most {MAX_TOP_LEVEL}): {top}"
    for name in ("io", "scale", "book", "analysis"):
        assert (ROOT / name / "__init__.py").exists(), name
    kinds = {classify(_module_name(p)) for p in ROOT.glob("*.py")}
    assert kinds <= {"root", "core", "engine", "service"}, kinds     # __main__ is the one service at the top


def test_no_module_is_named_like_what_it_exports():
    """``import recfair.x.y`` gives a module, never a function: no module defines a function or class of its own
    name, and no package binds a submodule's name to anything but that submodule."""
    import sys

    bad = []
    for name in sorted(discover()):
        parent, _, leaf = name.rpartition(".")
        if not parent or leaf.startswith("_"):
            continue
        module = importlib.import_module(name)
        own = vars(module).get(leaf)
        if (inspect.isfunction(own) or inspect.isclass(own)):
            bad.append(f"{name} defines {leaf}")
        if getattr(sys.modules[parent], leaf) is not module:
            bad.append(f"{parent}.{leaf} is not the module {name}")
    assert not bad, "\n".join(bad)
    import recfair
    assert inspect.isfunction(recfair.evaluate) and inspect.isfunction(recfair.compare)


def test_every_documented_attribute_of_the_package_resolves():
    """``recfair.X`` for every name in ``__all__``, every subpackage and module at the top, and the services'
    short names (``rf.plotting``, ``rf.widgets``, ``rf.guide``, ``rf.exercises``, ``rf.cli`` ...)."""
    import recfair

    names = set(recfair.__all__) | set(recfair._ALIASES) | set(recfair._LAZY)
    names |= {p.stem for p in ROOT.glob("*.py") if not p.stem.startswith("_")}
    names |= {p.name for p in ROOT.iterdir() if (p / "__init__.py").exists()}
    missing = [n for n in sorted(names) if getattr(recfair, n, None) is None]
    assert not missing, missing
    for short, target in recfair._ALIASES.items():
        assert getattr(recfair, short) is importlib.import_module(f"recfair.{target}"), short
    with pytest.raises(AttributeError):
        recfair.no_such_attribute


def _earlier_part_api(kind: str, target: str) -> bool:
    """Is ``target`` the public package (not a submodule) of a part before the importing ``kind``?"""
    own = kind.removeprefix("part:")
    if own not in PART_ORDER or target not in PART_ORDER:
        return False
    return PART_ORDER.index(target) < PART_ORDER.index(own)


def test_parts_are_in_the_book_order():
    parts = {classify(m).removeprefix("part:") for m in discover() if classify(m).startswith("part:")}
    assert parts <= set(PART_ORDER), f"add {sorted(parts - set(PART_ORDER))} to PART_ORDER (the book's order)"
    assert _earlier_part_api("part:recfair.pareto", "recfair.item_exposure")
    assert not _earlier_part_api("part:recfair.pareto", "recfair.item_exposure.measures")
    assert not _earlier_part_api("part:recfair.item_exposure", "recfair.pareto")


_GRAPH: dict[str, set[str]] = {}


def graph_cache() -> dict[str, set[str]]:
    if not _GRAPH:
        _GRAPH.update(graph())
    return _GRAPH


# ============================================================================ the public API: one dialect

import importlib  # noqa: E402
import inspect  # noqa: E402

#: Parameter names for data: a function that takes one of these is an array function (rule 3).
DATA = {"top_k", "relevant", "relevance", "history", "effectiveness", "rounds", "ranking", "lists", "values",
        "rel_by_rank", "positions", "distributions", "item_features", "blocks", "popularity", "exposure_counts",
        "rel_score", "fair_score", "frontier", "exposure", "scores"}
#: Parameters that are never positional in an array function (recfair/README.md, "One dialect").
KEYWORD_ONLY = {"n_items", "k", "seed", "groups", "similarity", "on_undefined", "n_users"}
#: The size-only functions (bound formulas, extreme-run generators): (m, n, k) positional in that order.
SIZES = (("m", "n", "k"), ("n_users", "n_items", "k"), ("n_users", "n_items"))
#: The measure-function packages: every registry record's function lives in one of them.
PARTS_API = ("recfair.relevance", "recfair.item_exposure", "recfair.joint", "recfair.pareto", "recfair.users",
             "recfair.groups")


def public_functions():
    """Every public function of the package and its subpackages' public modules: (qualified name, function)."""
    import recfair

    seen, out = set(), []
    for name in sorted(discover()):
        if any(part.startswith("_") for part in name.split(".")[1:]):
            continue
        if name.startswith(("recfair.datasets", "recfair.recommenders")) and name.count(".") > 1:
            continue
        module = importlib.import_module(name)
        names = getattr(module, "__all__", None) or [n for n in vars(module) if not n.startswith("_")]
        for attr in names:
            obj = getattr(module, attr, None)
            if not inspect.isfunction(obj) or not obj.__module__.startswith("recfair"):
                continue
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            out.append((f"{obj.__module__}.{obj.__qualname__}", obj))
    assert recfair.evaluate_effectiveness in [f for _, f in out]
    return out


def _signature_problems(qualname, func):
    params = list(inspect.signature(func).parameters.values())
    positional = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    problems = []
    if any(positional[i:i + len(size)] == list(size) for size in SIZES for i in range(len(positional))):
        return problems                                              # a size-only function: (m, n, k) positional
    takes_data = any(p.name in DATA for p in params)
    if takes_data:
        bad = [name for name in positional[1:] if name in KEYWORD_ONLY]     # the first is the data itself
        if bad:
            problems.append(f"{qualname}: {bad} must be keyword-only (data positional, everything else keyword)")
    for p in params:
        if p.name == "kind" and "similar" in (func.__doc__ or "").split("\n")[0].lower():
            problems.append(f"{qualname}: a similarity is named `similarity`, not `kind`")
    if "scores" in {p.name for p in params}:
        doc = inspect.getdoc(func) or ""
        section = doc.split("scores :", 1)[1].split("\n\n")[0] if "scores :" in doc else ""
        if "per user" in section and "n_items" not in section:
            problems.append(f"{qualname}: one value per user is `effectiveness`; `scores` are users x items")
    return problems


def test_every_public_function_follows_the_calling_rules():
    problems = [p for qualname, func in public_functions() for p in _signature_problems(qualname, func)]
    assert not problems, "\n".join(problems)


def test_the_api_check_catches_violations():
    def puf_like(effectiveness, similarity, *, on_undefined="warn"):
        """PUF-like: effectiveness gaps weighed by similarity."""

    def bound(m, n, k, *, base=None):
        """A bound formula."""

    def sim(history, kind="jaccard"):
        """The similarity of the users' history."""

    def sd_like(scores, *, on_undefined="warn"):
        """SD.

        Parameters
        ----------
        scores : array-like
            One value per user.
        """

    assert _signature_problems("puf_like", puf_like)
    assert not _signature_problems("bound", bound)
    assert _signature_problems("sim", sim)
    assert _signature_problems("sd_like", sd_like)


def test_every_measure_is_called_alike():
    """Every registry record's function: data positional, the rest keyword-only, and ``on_undefined``."""
    from recfair.registry import ALL_MEASURES

    bad = []
    for spec in ALL_MEASURES:
        params = list(inspect.signature(spec.func).parameters.values())
        positional = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        if not positional or not set(positional) <= DATA:
            bad.append(f"{spec.key}: positional {positional} must be data only")
        if "on_undefined" not in {p.name for p in params}:
            bad.append(f"{spec.key}: no on_undefined")
    assert not bad, "\n".join(bad)


def test_every_record_is_reachable_from_its_part_and_the_top_level():
    """``recfair.<part>.<function>`` for every record, and every part's measures at the top level (Parts I-V)."""
    import recfair
    from recfair.registry import ALL_MEASURES

    for spec in ALL_MEASURES:
        part = importlib.import_module(f"recfair.{spec.family}")
        name = spec.func.__name__
        assert getattr(part, name, None) is spec.func, f"recfair.{spec.family}.{name} ({spec.key})"
        assert getattr(recfair, name, None) is spec.func, f"recfair.{name} ({spec.key})"
        assert name in recfair.__all__


def test_the_package_layout_matches_the_book():
    """One subpackage per part of the book (Parts I-V), each with the same kinds of modules."""
    parts = [p.name for p in sorted(ROOT.iterdir()) if p.is_dir() and (p / "__init__.py").exists()
             and classify(f"recfair.{p.name}").startswith("part:")]
    assert sorted(f"recfair.{p}" for p in parts) == sorted(PART_ORDER)
    for part in PART_ORDER:
        folder = ROOT / part.split(".")[1]
        assert (folder / "measures.py").exists() and (folder / "records.py").exists(), part
    assert not (ROOT / "users" / "groups.py").exists()     # Part V lives in recfair.groups
    from recfair.registry import ALL_MEASURES, PARTS
    for spec in ALL_MEASURES:
        assert spec.family in PARTS
        module = spec.func.__module__
        assert module == f"recfair.{spec.family}" or module.startswith(f"recfair.{spec.family}."), spec.key


def test_one_vocabulary():
    """``scores`` only users x items; per-user values are ``effectiveness``; no ``evaluate_scores``/``kind``."""
    import recfair

    assert not hasattr(recfair, "evaluate_scores") and not hasattr(recfair, "evaluate_groups")
    import recfair.groups
    assert not hasattr(recfair.groups, "evaluate_groups")
    per_user = {"puf", "sd_ind", "gini_ind", "atk_ind", "min_group", "atk_group", "group_means"}
    for qualname, func in public_functions():
        params = inspect.signature(func).parameters
        if func.__name__ in per_user:
            assert next(iter(params)) == "effectiveness", qualname
        if "similarity" in params and params["similarity"].kind is not inspect.Parameter.KEYWORD_ONLY:
            assert next(iter(params)) == "similarity", f"{qualname}: similarity keyword-only unless it is the data"
        assert "kind" not in params or "similarity" not in func.__name__, qualname


# ============================================================================ signatures: data positional, options keyword-only

import dataclasses  # noqa: E402

#: Sizes: a function whose positional parameters are all sizes takes them positionally, defaults included
#: (the bound formulas, the extreme-run generators, ``atkinson_identity(n_groups=3)``, ``rows_with_legends(nrows, ncols)``).
SIZE_NAMES = {"m", "n", "k", "n_users", "n_items", "R", "n_groups", "nrows", "ncols"}
#: Optional data: may stay positional with a default (``full_ranking(scores, history=None)``, ``split.relevant(users)``).
OPTIONAL_DATA = DATA | {"significant", "narrow", "users"}
#: The explicit exceptions: qualified name -> why a parameter with a default stays positional.
SIGNATURE_EXCEPTIONS = {
    "recfair.registry.names": "the family is what is looked up: names('joint')",
    "recfair.registry.table": "the family is what is looked up: table('joint')",
    "recfair.book.thesis.dataset_statistics": "the paper is what is looked up: its published table",
    "recfair.book.thesis.paper1_results": "the dataset is what is looked up: Paper 1's table for it",
    "recfair.book.thesis.paper2_results": "the dataset is what is looked up: Paper 2's table for it",
    "recfair.book.thesis.paper5_results": "the dataset is what is looked up: Paper 5's table for it",
    "recfair.book.thesis.paper6_results": "the relevance measure is what is looked up: Paper 6's table for it",
    "recfair.book.exercises.student": "the student's name is what is set: student('ada'); the instructor edition "
                                      "omits it (student(book=True) works on the book's values)",
    "recfair.io.cli.main": "argv is the data: the command line, as every console entry point takes it",
    "recfair.book.plotting.legend_below": "fig and ax are the subject: the figure and axes the legend goes under",
    "recfair.run.Run": "n_items is a run's data: a run is its lists and its catalogue size (the contract)",
    "recfair.users.similarity.UserSimilarity": "built by from_history / from_matrix; the constructor's `kind` records "
                                               "the source ('jaccard', 'cosine' or 'matrix'), not a similarity",
    "recfair.datasets._split.Split.matrix": "the part is what is looked up: split.matrix('train')",
    "recfair.datasets._registry.DatasetInfo.archive": "the source is what is looked up: info.archive('grouplens')",
    "recfair.scale.cluster.wants": "engine plumbing, rewritten with the plan/evaluate engine (branch i24-engine)",
    "recfair.scale.cluster.partitions": "engine plumbing, rewritten with the plan/evaluate engine (branch i24-engine)",
}


def public_callables():
    """Every public function and class of the package and its public modules: (qualified name, object)."""
    seen, out = set(), []
    for name in sorted(discover()):
        if any(part.startswith("_") for part in name.split(".")[1:]):
            continue
        module = importlib.import_module(name)
        names = getattr(module, "__all__", None) or [n for n in vars(module) if not n.startswith("_")]
        for attr in names:
            obj = getattr(module, attr, None)
            if not (inspect.isfunction(obj) or inspect.isclass(obj)) or id(obj) in seen:
                continue
            if not getattr(obj, "__module__", "").startswith("recfair") or issubclass_safe(obj, BaseException):
                continue
            seen.add(id(obj))
            out.append((f"{obj.__module__}.{obj.__qualname__}", obj))
    return out


def issubclass_safe(obj, cls) -> bool:
    return inspect.isclass(obj) and issubclass(obj, cls)


def option_problems(qualname: str, obj) -> list[str]:
    """Data positional, everything else keyword-only: after the required (data) parameters, no positional
    parameter with a default unless it is optional data, the function takes sizes alone, or it is a listed exception.
    A record's constructor (a dataclass or named tuple) lists its fields and is exempt: a record is data."""
    if qualname in SIGNATURE_EXCEPTIONS or _is_record(obj):
        return []
    try:
        params = list(inspect.signature(obj).parameters.values())
    except (TypeError, ValueError):
        return []
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
                  and p.name not in ("self", "cls")]
    if positional and all(p.name in SIZE_NAMES for p in positional):
        return []
    bad = [p.name for p in positional if p.default is not p.empty and p.name not in OPTIONAL_DATA]
    return [f"{qualname}{inspect.signature(obj)}: make {bad} keyword-only (data positional, options keyword-only)"] \
        if bad else []


def _is_record(obj) -> bool:
    return dataclasses.is_dataclass(obj) or hasattr(obj, "_fields")


def test_every_public_function_and_class_takes_options_by_keyword():
    problems = [p for qualname, obj in public_callables() for p in option_problems(qualname, obj)]
    # the classes also follow the vocabulary rules of the functions (n_items, k, seed ... keyword-only), but a
    # record's fields and a Run's catalogue size are its data
    problems += [p for qualname, obj in public_callables() if inspect.isclass(obj) and not _is_record(obj)
                 and qualname not in SIGNATURE_EXCEPTIONS for p in _signature_problems(qualname, obj)]
    problems += [p for qualname, method in public_methods() for p in option_problems(qualname, method)]
    assert not problems, "\n".join(problems)
    known = {q for q, _ in public_callables()} | {q for q, _ in public_methods()}
    stale = {q for q, why in SIGNATURE_EXCEPTIONS.items() if "i24-engine" not in why} - known
    assert not stale, f"exceptions that name nothing public: {sorted(stale)}"


def public_methods():
    """The public methods of the public classes, class and static methods included: (qualified name, function)."""
    out = []
    for qualname, cls in public_callables():
        if not inspect.isclass(cls):
            continue
        for name, member in vars(cls).items():
            func = member.__func__ if isinstance(member, (classmethod, staticmethod)) else member
            if not name.startswith("_") and inspect.isfunction(func):
                out.append((f"{qualname}.{name}", func))
    return out


def test_the_option_check_catches_violations():
    def bound(n, k, R, gamma=0.8):
        """An option after the sizes."""

    def sizes(m, n, k=3):
        """Sizes alone."""

    def lookup(run, base="NDCG"):
        """An option after the data."""

    def optional_data(scores, history=None, *, k=None):
        """Optional data."""

    class Model:
        def __init__(self, corpus, n=3):
            self.n = n

    @dataclasses.dataclass
    class Record:
        name: str
        info: str = ""

    assert option_problems("bound", bound) and option_problems("lookup", lookup)
    assert option_problems("Model", Model)
    assert not option_problems("sizes", sizes) and not option_problems("optional_data", optional_data)
    assert not option_problems("Record", Record)


def test_the_run_takes_what_defines_it_positionally():
    """``Run(top_k, n_items, *, ...)``: a run *is* its lists and its catalogue size (the contract), so both are
    its data; everything a run may carry besides is keyword-only."""
    import recfair

    params = inspect.signature(recfair.Run).parameters
    positional = [p for p in params.values() if p.kind is p.POSITIONAL_OR_KEYWORD]
    assert [p.name for p in positional] == ["top_k", "n_items"]
    assert all(p.default is p.empty for p in positional)


# ============================================================================ one name each

#: One name each (recfair/README.md, "One meaning per name"): the argument naming a measure is ``measure``, the
#: number of a user's relevant items ``n_relevant``, the users' sensitive attributes ``user_attributes``.
RENAMED = {"R": "n_relevant", "attributes": "user_attributes", "key": "measure"}
#: Modules where a ``name`` argument would name a measure (elsewhere it names a dataset, a model, a run ...).
MEASURE_MODULES = ("recfair.registry", "recfair.bounds", "recfair.relevance", "recfair.item_exposure", "recfair.joint",
                   "recfair.pareto", "recfair.users", "recfair.groups", "recfair.book.plotting", "recfair.book.guide",
                   "recfair.book.widgets")
#: Listed exceptions: qualified name -> why it keeps its argument's name for now.
NAME_EXCEPTIONS = {
    "recfair.registry.get": "rewritten with the one plan (unknown names get suggestions, branch i24-engine)",
    "recfair.item_exposure.measures.from_count_summary": "the one engine's per-item-sums path replaces it",
    "recfair.item_exposure.measures.from_rank_counts": "the one engine's per-item-sums path replaces it",
    "recfair.item_exposure.resample.linear_form": "compare's resampling form, replaced by the records' computation shapes",
    "recfair.spec.MeasureSpec": "a record: its field ``key`` is the canonical name (the records' names stay)",
    "recfair.book.symbolic.Derivation": "a record: ``key`` is the derivation's identifier, ``measure`` its measure",
}


def name_problems(qualname: str, obj) -> list[str]:
    if qualname in NAME_EXCEPTIONS:
        return []
    try:
        params = inspect.signature(obj).parameters
    except (TypeError, ValueError):
        return []
    out = [f"{qualname}: `{old}` is called `{new}`" for old, new in RENAMED.items() if old in params]
    if qualname.startswith(MEASURE_MODULES) and "name" in params:
        out.append(f"{qualname}: the argument naming a measure is `measure`, not `name`")
    return out


def test_one_name_for_the_measure_the_relevant_count_and_the_sensitive_attributes():
    problems = [p for qualname, obj in public_callables() for p in name_problems(qualname, obj)]
    assert not problems, "\n".join(problems)
    assert name_problems("recfair.bounds.achievable_like", lambda name, m, n, k: None)
    assert name_problems("recfair.joint.bounds.f", lambda n, k, R: None)
    assert not name_problems("recfair.datasets.load", lambda name: None)


# --------------------------------------------------------------------------- one engine, measures in records

#: Modules that run measures without knowing any: the engine layer and the analysis of runs.
MEASURE_BLIND = ("recfair.engine", "recfair.registry", "recfair.bounds", "recfair.scale", "recfair.analysis")
#: Canonical names that are also other words: ``"P"`` is the permutation test's letter and a relevance base value.
NAME_ALSO_A_WORD = {"P"}


def _docstring_nodes(tree) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def measure_literals(source: str, names) -> list[tuple[int, str]]:
    """``(line, name)`` of every string literal (docstrings aside) that is a canonical measure name."""
    tree = ast.parse(source)
    docs = _docstring_nodes(tree)
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names
            and node.value not in NAME_ALSO_A_WORD and id(node) not in docs]


def test_the_measure_literal_check_catches_names():
    source = '"""Gini_our in a docstring is fine."""\nSPECIAL = {"Gini_our": 1}\nif key == "HD":\n    pass\nx = "P"\n'
    assert measure_literals(source, {"Gini_our", "HD", "P"}) == [(2, "Gini_our"), (3, "HD")]


def test_no_engine_module_names_a_measure():
    from recfair.registry import REGISTRY

    problems = [f"{module} line {line}: {name!r}" for module, path in discover().items()
                if module.startswith(MEASURE_BLIND) for line, name in measure_literals(path.read_text(), set(REGISTRY))]
    assert not problems, ("the engine names measures (move the fact into the measure's record): "
                          + "; ".join(problems))


def _random_run(seed):
    import pandas as pd

    rng = np.random.default_rng(seed)
    m, n, k = int(rng.integers(20, 70)), int(rng.integers(12, 40)), int(rng.integers(2, 6))
    scores = rng.random((m, n))
    scores[:, :2] += rng.random()                           # popular items: unequal exposure
    history = [rng.choice(n, int(rng.integers(0, 4)), replace=False) for _ in range(m)]
    for u, h in enumerate(history):
        scores[u, h] = -np.inf
    relevant = [rng.choice(n, int(rng.integers(1, 6)), replace=False) for _ in range(m)]   # every user defined
    attrs = pd.DataFrame({"gender": rng.choice(["f", "m"], m)})
    return dict(top_k=np.argsort(-scores, axis=1, kind="stable")[:, :k], scores=scores, history=history,
                relevant=relevant, user_attributes=attrs, n_items=n, k=k, m=m)


def _same(a: float, b: float, *, rel: float = 0.0) -> bool:
    return (np.isnan(a) and np.isnan(b)) or a == b or abs(a - b) <= rel * max(abs(a), abs(b))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_evaluate_the_accumulator_and_compare_resampling_agree_on_every_blockwise_measure(seed):
    """For every measure computed in blocks: evaluate (one block) == the Accumulator (one block, exactly;
    several blocks, within 1e-12) == compare's resampling form with every user weighted 1 (within 1e-12)."""
    import warnings

    import recfair as rf
    from recfair.analysis import report as _report
    from recfair.registry import ALL_MEASURES
    from recfair.run import Run

    data = _random_run(seed)
    names = [s.key for s in ALL_MEASURES if s.computation.blockwise]
    inputs = {key: data[key] for key in ("relevant", "scores", "history", "user_attributes")}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = rf.evaluate(data["top_k"], n_items=data["n_items"], measures=names, on_undefined="nan", **inputs)
        for bounds, rel in (([0, data["m"]], 0.0), ([0, 7, data["m"] // 2, data["m"]], 1e-12)):
            acc = rf.Accumulator(measures=names, n_items=data["n_items"], k=data["k"], on_undefined="nan")
            for a, b in zip(bounds[:-1], bounds[1:]):
                acc.update(data["top_k"][a:b], relevant=data["relevant"][a:b], scores=data["scores"][a:b],
                           history=data["history"][a:b], user_attributes=data["user_attributes"].iloc[a:b])
            got = acc.result()
            wrong = [key for key in names if not _same(expected[key], got[key], rel=rel)]
            assert not wrong, f"Accumulator over {bounds} differs from evaluate on {wrong}"
        run = Run(data["top_k"], data["n_items"], **inputs)
        ones = np.ones((1, data["m"]))
        checked = 0
        for key in names:
            form = _report._linear(rf.REGISTRY[key], run, {})
            if form is None:
                continue
            checked += 1
            totals = _report._statistics([form], _report._totals(ones, _report._bases(run, [form])), run.k,
                                         run.n_items)
            value = float(np.asarray(form.finish(totals[form.statistic]))[0])
            assert _same(expected[key], value, rel=1e-12), (key, expected[key], value)
    assert checked >= 20                     # the relevance means, Part I's forms, Part II's per-user means
