"""The library's import rules (``recfair/README.md``), checked on the source.

Every ``.py`` file under ``recfair/`` is parsed; every import statement counts, at module level
and inside functions alike, relative imports resolved. Modules are classified:

* **core** (:data:`CORE`): imports only core modules;
* **collectors** (:data:`COLLECTORS`: the registry, ``evaluate``, ``bounds``): core, parts, collectors;
* **parts**: every subpackage that is not a service (``recfair.item_exposure``, ``recfair.joint``,
  ``recfair.pareto`` ...): the core, modules of the same part, and the public package (its
  ``__init__``, never a submodule) of an *earlier* part of the book (:data:`PART_ORDER`): Part III's
  frontier is built from Part I's measures;
* **services** (:data:`SERVICES`): anything but the top-level package;
* the top-level package ``recfair`` itself may import anything.

A new top-level module must be added to one of the sets; a new subpackage is a part.
No import cycle is allowed anywhere.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1] / "recfair"
CORE = {"recfair._validation", "recfair._docs", "recfair.spec", "recfair.run", "recfair.ranking", "recfair.inequality",
        "recfair.examination", "recfair.relevance", "recfair.frames", "recfair.symbolic", "recfair.synthetic",
        "recfair._distributed"}
COLLECTORS = {"recfair.registry", "recfair.evaluate", "recfair.bounds", "recfair.accumulate", "recfair.streaming",
              "recfair.scale"}
#: The parts in the book's order; a part may import the public package of an earlier one.
PART_ORDER = ("recfair.item_exposure", "recfair.joint", "recfair.pareto", "recfair.users", "recfair.groups",
              "recfair.field")
SERVICES = {"recfair.datasets", "recfair.recommenders", "recfair.rerank", "recfair.analysis", "recfair.plotting",
            "recfair.widgets", "recfair._interactive", "recfair.thesis", "recfair.guide"}
# reading other tools' run files, comparing runs, the command line; the classroom notebooks' self-checks
SERVICES |= {"recfair.io", "recfair.compare", "recfair.cli", "recfair.__main__", "recfair.exercises"}


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
    if module == "recfair":
        return "root"
    top = ".".join(module.split(".")[:2])
    if top in SERVICES:
        return "service"
    if module in CORE:
        return "core"
    if module in COLLECTORS:
        return "collector"
    if (ROOT / top.split(".")[1]).is_dir():
        return f"part:{top}"
    return "unclassified"


def test_cycle_finder_detects_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set()}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_function_level_and_relative_imports():
    edges = graph()
    assert "recfair.registry" in edges["recfair.evaluate"]
    assert "recfair.item_exposure.measures" in edges["recfair.item_exposure.records"]
    assert "recfair._validation" in edges["recfair.item_exposure.measures"]


def test_no_import_cycle():
    found = cycles(graph())
    assert not found, "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


def test_every_module_is_classified():
    unclassified = [m for m in discover() if classify(m) == "unclassified"]
    assert not unclassified, (f"classify {unclassified} in tests/test_architecture.py (CORE, COLLECTORS or "
                              "SERVICES) and in recfair/README.md")


@pytest.mark.parametrize("module", sorted(discover()))
def test_layering(module):
    kind = classify(module)
    bad = []
    for target in sorted(graph_cache()[module]):
        target_kind = classify(target)
        if kind == "core" and target_kind != "core":
            bad.append(f"{target} ({target_kind}): core modules import only core modules")
        elif kind.startswith("part:") and target_kind not in ("core", kind) and not _earlier_part_api(kind, target):
            bad.append(f"{target} ({target_kind}): a part imports only the core, its own modules and the "
                       "public package of an earlier part")
        elif kind == "collector" and target_kind not in ("core", "collector") and not target_kind.startswith("part:"):
            bad.append(f"{target} ({target_kind}): collectors import only the core, the parts and collectors")
        elif kind == "service" and target_kind == "root":
            bad.append(f"{target}: services do not import the top-level package")
    assert not bad, f"{module} ({kind}) imports " + "; ".join(bad)


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
             and f"recfair.{p.name}" not in SERVICES]
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
