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
CORE = {"recfair._validation", "recfair._docs", "recfair.spec", "recfair.run", "recfair.ranking",
        "recfair.examination", "recfair.relevance", "recfair.frames", "recfair.symbolic", "recfair.synthetic"}
COLLECTORS = {"recfair.registry", "recfair.evaluate", "recfair.bounds"}
#: The parts in the book's order; a part may import the public package of an earlier one.
PART_ORDER = ("recfair.item_exposure", "recfair.joint", "recfair.pareto", "recfair.users")
SERVICES = {"recfair.datasets", "recfair.recommenders", "recfair.rerank", "recfair.analysis", "recfair.plotting",
            "recfair.widgets", "recfair._interactive", "recfair.thesis", "recfair.guide"}
SERVICES |= {"recfair.exercises"}  # the classroom notebooks' self-checks


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
