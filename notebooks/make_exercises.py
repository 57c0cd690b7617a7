"""Generate the classroom notebooks from the book's own exercises.

One source: every chapter's sphinx-exercise ``exercise`` and ``solution`` blocks become, per part of
``_toc.yml`` (Foundations, Parts I-V),

* ``notebooks/exercises/<part>.ipynb``: the student edition -- the exercises, the chapter code they build
  on, an empty cell to work in and a self-check cell ``recfair.book.exercises.check(label, answer)``;
* ``notebooks/solutions/<part>.ipynb``: the instructor edition -- the same with the worked solutions and
  the checks filled in;
* ``recfair/book/exercise_answers.json``: what the checks need (salted hashes of the normalised answers and
  the chapter's hints), obtained by *executing* copies of the instructor notebooks in which each check cell
  records, through ``recfair.book.exercises._record_answer``, the answer its solution code computed (at
  every precision up to the asked one, and for every variant of a varied exercise), and the seconds each
  solution takes (the notebooks' time estimates).

The chapter code an exercise builds on (toy data, loaded runs, helper functions) is found by a backward
slice over the chapter's code: the top-level statements that define or change a name the solutions use,
and, transitively, what those statements use.

Every solution block says how its answer is checked, with MyST comments (invisible on the page), e.g.::

    % check: number 3
    % ask: the corrected Jain index of the example
    % answer: rf.jain_index_corrected(example, n_items=10)
    % hint: The corrected index maps the most unfair achievable score to 0 and the most fair to 1.

``check`` (required) is one of ``number [decimals]``, ``numbers [decimals]``, ``integer``, ``set``,
``list``, ``choice a | b | c``, ``yes/no``, ``text`` or ``open`` (no automatic check; ``% see: <label>``
names the section that discusses it). ``ask`` says what the student's ``answer`` holds; ``answer`` is a
Python expression evaluated after the solution's code (``LAST`` in it stands for the last expression of
the solution's last code cell, the default); ``hint`` is shown on a wrong answer: it names a method,
never the answer. ``example`` shows the form of the answer (``{"name", "other name"}`` where the
default ``{1, 2, 3}`` would mislead). An open question needs ``% rubric:``: what a complete answer says,
for the teacher (the instructor edition shows it). ``% vary: name = v0 | v1 | ...`` gives a numeric
exercise per-student variants: the solution's code begins with ``name = v0`` (the book's value), the
notebooks set ``name`` with ``recfair.book.exercises.variant``, and the answer of every variant is recorded.

Usage, from the repository root::

    python notebooks/make_exercises.py            # notebooks + answer store; runs the instructor
                                                  # notebooks of the parts whose chapter code changed
    python notebooks/make_exercises.py --all      # record every answer afresh (after a library change)
    python notebooks/make_exercises.py --notebooks-only   # execute nothing
    python notebooks/make_exercises.py --check    # exit 1 when a notebook or an answer is stale
    python notebooks/make_exercises.py --class-pack hand-out --students names.txt
                                                  # per student, notebooks naming no solutions
"""

from __future__ import annotations

import argparse
import ast
import functools
import math
import hashlib
import json
import os
import re
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import yaml

ROOT = Path(__file__).resolve().parents[1]
EXERCISES_DIR = ROOT / "notebooks" / "exercises"
SOLUTIONS_DIR = ROOT / "notebooks" / "solutions"
STORE = ROOT / "recfair" / "book" / "exercise_answers.json"
KINDS = ("number", "numbers", "integer", "set", "list", "choice", "yes/no", "text", "open")
ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6}


# ------------------------------------------------------------------------------------------------
# the book: configuration, table of contents, chapters
# ------------------------------------------------------------------------------------------------
def book_config(root: Path = ROOT) -> dict:
    """Repository, branch and published address of the book, from ``_config.yml``."""
    config = yaml.safe_load((root / "_config.yml").read_text())
    repo = config["repository"]["url"].rstrip("/")
    branch = config["repository"].get("branch", "main")
    owner, name = repo.split("github.com/")[1].split("/")[:2]
    base = (config.get("html") or {}).get("baseurl") or f"https://{owner}.github.io/{name}/"
    return {"repository": repo, "branch": branch, "owner": owner, "name": name,
            "book": base.rstrip("/") + "/", "title": config.get("title", "")}


@dataclass
class Part:
    caption: str
    slug: str          # file stem of its notebooks: "foundations", "part-1" ...
    title: str         # "Foundations", "Part I: ..."
    files: list[str]   # toc entries (no suffix)


def parts(root: Path = ROOT) -> list[Part]:
    """The numbered parts of ``_toc.yml`` (Foundations, Parts I-V), in the book's order."""
    toc = yaml.safe_load((root / "_toc.yml").read_text())
    out = []
    for part in toc["parts"]:
        if not part.get("numbered"):
            continue
        caption = part["caption"]
        match = re.match(r"Part ([IVX]+)\b", caption)
        slug = f"part-{ROMAN[match.group(1)]}" if match else re.sub(r"[^a-z0-9]+", "-", caption.lower()).strip("-")
        out.append(Part(caption, slug, caption, [c["file"] for c in part["chapters"]]))
    return out


@dataclass
class Code:
    source: str
    tags: list[str] = field(default_factory=list)


@dataclass
class Exercise:
    label: str
    number: int                     # 1, 2, 3 within the chapter
    text: str                       # MyST body of the exercise
    solution: list = field(default_factory=list)   # str (MyST) and Code items, in order
    marks: dict = field(default_factory=dict)      # check / answer / hint / see

    @property
    def kind(self) -> str:
        return self.marks.get("check", "open").split()[0] if self.marks.get("check") else "open"


@dataclass
class Chapter:
    file: str                       # toc entry, e.g. "book/item_exposure/jain"
    path: Path
    title: str
    label: str | None
    body: list                      # str (markdown lines) and Code, before the exercises
    exercises: list[Exercise]
    objectives: list[str]


_FENCE_CODE = re.compile(r"^```\{code-cell\}")


def _read_items(path: Path) -> list:
    """A MyST notebook as a list of markdown lines (str) and code cells (Code)."""
    lines = path.read_text().splitlines()
    if lines and lines[0] == "---":
        end = lines.index("---", 1)
        lines = lines[end + 1:]
    items, i = [], 0
    while i < len(lines):
        line = lines[i]
        if _FENCE_CODE.match(line):
            i += 1
            options: dict = {}
            if i < len(lines) and lines[i] == "---":
                end = lines.index("---", i + 1)
                options = yaml.safe_load("\n".join(lines[i + 1:end])) or {}
                i = end + 1
            while i < len(lines) and re.match(r"^:[\w-]+:", lines[i]):
                key, _, value = lines[i][1:].partition(":")
                options[key] = yaml.safe_load(value.strip()) if value.strip() else ""
                i += 1
            body = []
            while lines[i] != "```":
                body.append(lines[i])
                i += 1
            source = "\n".join(body).strip("\n")
            items.append(Code(source, list(options.get("tags", []) or [])))
        elif line == "+++" or line.startswith("+++ {"):
            pass
        else:
            items.append(line)
        i += 1
    return items


def read_chapter(file: str, root: Path = ROOT) -> Chapter:
    path = root / (file + ".md")
    items = _read_items(path)
    title, label, previous = file.rsplit("/", 1)[-1], None, None
    for item in items:
        if isinstance(item, str) and item.startswith("# "):
            title = item[2:].strip()
            if previous and re.match(r"^\((.+)\)=$", previous):
                label = previous[1:-2]
            break
        if isinstance(item, str) and item.strip():
            previous = item
    objectives, in_objectives = [], False
    for item in items:
        if isinstance(item, str):
            if item.startswith("After this chapter you can"):
                in_objectives = True
            elif in_objectives and item.startswith("- "):
                objectives.append(item[2:].strip())
            elif in_objectives and objectives:
                break
    body, exercises, i = [], [], 0
    current: Exercise | None = None
    while i < len(items):
        item = items[i]
        if isinstance(item, str) and item.startswith("```{exercise}"):
            i += 1
            text, ex_label = [], None
            while items[i] != "```":
                match = re.match(r"^:label:\s*(\S+)", items[i]) if isinstance(items[i], str) else None
                if match:
                    ex_label = match.group(1)
                elif isinstance(items[i], str) and not re.match(r"^:[\w-]+:", items[i]):
                    text.append(items[i])
                i += 1
            if ex_label is None:
                raise ValueError(f"{path}: an exercise without a :label:")
            exercises.append(Exercise(ex_label, len(exercises) + 1, "\n".join(text).strip()))
        elif isinstance(item, str) and item.startswith("```{solution-start}"):
            ref = item.split("}", 1)[1].strip()
            current = next((e for e in exercises if e.label == ref), None)
            if current is None:
                raise ValueError(f"{path}: solution of an unknown exercise {ref!r}")
            i += 1
            while items[i] != "```":     # the directive's options (:class: dropdown)
                i += 1
            i += 1
            buffer: list[str] = []
            while not (isinstance(items[i], str) and items[i].startswith("```{solution-end}")):
                piece = items[i]
                if isinstance(piece, Code):
                    current.solution.append("\n".join(buffer).strip())
                    buffer = []
                    current.solution.append(piece)
                else:
                    match = re.match(r"^%\s*(check|ask|answer|hint|see|rubric|example|vary):\s*(.*)$", piece)
                    if match:
                        key, value = match.groups()
                        current.marks[key] = (current.marks[key] + " " + value) if key in ("hint", "rubric") and key in current.marks else value
                    else:
                        buffer.append(piece)
                i += 1
            current.solution.append("\n".join(buffer).strip())
            current.solution = [p for p in current.solution if not (isinstance(p, str) and not p)]
            i += 1
            while i < len(items) and items[i] != "```":
                i += 1
        elif not exercises:
            body.append(item)
        i += 1
    for ex in exercises:
        if "check" not in ex.marks:
            raise ValueError(f"{path}: exercise {ex.label}: its solution needs a `% check:` line "
                             f"(one of {', '.join(KINDS)}; `% check: open` when the answer cannot be checked)")
        kind = ex.kind
        if kind == "open" and ex.marks.get("answer"):
            raise ValueError(f"{path}: exercise {ex.label} is open but has an % answer:")
        if kind not in KINDS:
            raise ValueError(f"{path}: exercise {ex.label}: unknown check kind {kind!r} (one of {KINDS})")
        if kind == "open" and not ex.marks.get("rubric", "").strip():
            raise ValueError(f"{path}: open exercise {ex.label} needs a `% rubric:` line (what a complete answer says)")
        if "vary" in ex.marks:
            vary_values(ex)       # raises on a malformed marker
            if kind not in ("number", "numbers", "integer"):
                raise ValueError(f"{path}: exercise {ex.label}: only numeric answers have variants (% vary:)")
        if kind != "open" and not any(isinstance(p, Code) for p in ex.solution) and "answer" not in ex.marks:
            raise ValueError(f"{path}: exercise {ex.label} is checkable but its solution has no code and no % answer:")
    return Chapter(file, path, title, label, body, exercises, objectives)


# ------------------------------------------------------------------------------------------------
# labels, roles, macros: MyST to Jupyter Markdown
# ------------------------------------------------------------------------------------------------
class Book:
    """Every chapter of the table of contents, their labels, the bibliography and the macros."""

    def __init__(self, root: Path = ROOT):
        self.root = root
        self.config = book_config(root)
        self.parts = parts(root)
        self.chapters: dict[str, Chapter] = {}
        self.labels: dict[str, tuple[str, str, str]] = {}   # label -> (file, anchor, text)
        toc = yaml.safe_load((root / "_toc.yml").read_text())
        files = [toc["root"]] + [c["file"] for p in toc["parts"] for c in p["chapters"]]
        for file in files:
            path = root / (file + ".md")
            if not path.exists():
                continue
            if any(file in p.files for p in self.parts):
                self.chapters[file] = read_chapter(file, root)
            self._collect_labels(file, path)
        config = yaml.safe_load((root / "_config.yml").read_text())
        macros = config["sphinx"]["config"].get("mathjax3_config", {}).get("tex", {}).get("macros", {})
        self.macros = {name: (spec if isinstance(spec, list) else [spec, 0]) for name, spec in macros.items()}
        self.bib = self._read_bib(root / "book" / "references.bib")

    def _collect_labels(self, file: str, path: Path) -> None:
        lines = path.read_text().splitlines()
        title = None
        for i, line in enumerate(lines):
            target = re.match(r"^\((.+)\)=$", line)
            if target:
                heading = next((lines[j] for j in range(i + 1, min(i + 4, len(lines))) if lines[j].startswith("#")), "")
                text = heading.lstrip("#").strip()
                is_title = heading.startswith("# ")
                self.labels[target.group(1)] = (file, "" if is_title else target.group(1), text)
            if line.startswith("# ") and title is None:
                title = line[2:].strip()
            equation = re.match(r"^\$\$\s*\((.+)\)\s*$", line)
            figure = re.match(r"^\s+name:\s*([\w-]+)\s*$", line) or re.match(r"^:name:\s*([\w-]+)", line)
            if figure:
                self.labels.setdefault(figure.group(1), (file, figure.group(1), ""))
            if equation:
                self.labels[equation.group(1)] = (file, f"equation-{equation.group(1)}", "")
            option = re.match(r"^:label:\s*(\S+)", line)
            if option:
                name = ""
                for j in range(i - 1, max(i - 4, -1), -1):
                    directive = re.match(r"^[`:]{3,}\{([\w:-]+)\}\s*(.*)$", lines[j])
                    if directive:
                        name = directive.group(2).strip() or directive.group(1).split(":")[-1]
                        break
                self.labels[option.group(1)] = (file, option.group(1), name)
        self.labels.setdefault(f"__page__{file}", (file, "", title or file))

    @staticmethod
    def _read_bib(path: Path) -> dict[str, str]:
        out = {}
        if not path.exists():
            return out
        for entry in re.split(r"\n(?=@)", path.read_text()):
            key = re.match(r"@\w+\{([^,]+),", entry.strip())
            if not key:
                continue
            author = re.search(r"\bauthor\s*=\s*[{\"](.+?)[}\"],?\s*\n", entry, re.S)
            year = re.search(r"\byear\s*=\s*[{\"]?(\d{4})", entry)
            names = [a.strip() for a in re.sub(r"[{}]", "", author.group(1)).split(" and ")] if author else ["?"]
            last = [n.split(",")[0].strip() if "," in n else n.split()[-1] for n in names]
            who = last[0] if len(last) == 1 else (f"{last[0]} and {last[1]}" if len(last) == 2 else f"{last[0]} et al.")
            out[key.group(1)] = (who, year.group(1) if year else "n.d.")
        return out

    def url(self, file: str, anchor: str = "") -> str:
        return f"{self.config['book']}{file}.html" + (f"#{anchor}" if anchor else "")

    def chapter_title(self, file: str) -> str:
        return self.labels[f"__page__{file}"][2]

    # MyST roles -> Markdown ------------------------------------------------------------------
    def markdown(self, text: str, file: str) -> str:
        here = Path(file).parent

        def link_text(content: str) -> tuple[str | None, str]:
            match = re.match(r"^(.*?)\s*<(.+)>$", content)
            return (match.group(1), match.group(2)) if match else (None, content)

        def role(match: re.Match) -> str:
            name, content = match.group(1), match.group(2)
            text_, target = link_text(content)
            if name == "doc":
                target_file = os.path.normpath(str(here / target)) if not target.startswith("/") else target[1:]
                title = self.chapter_title(target_file) if f"__page__{target_file}" in self.labels else target
                return f"[{text_ or title}]({self.url(target_file)})"
            if name in ("ref", "numref", "prf:ref", "eq"):
                if target not in self.labels:
                    raise ValueError(f"{file}: unknown label {target!r} in {{{name}}}")
                target_file, anchor, label_text = self.labels[target]
                if name == "eq":
                    anchor = f"equation-{target}"
                    label_text = "this equation"
                elif name == "numref":
                    label_text = "this figure" if "fig" in target else "this table"
                shown = text_ or label_text or target
                if target_file != file and name != "ref":
                    shown += f" ({self.chapter_title(target_file)})"
                return f"[{shown}]({self.url(target_file, anchor)})"
            if name in ("cite:p", "cite:t", "cite"):
                refs = [self.bib.get(key.strip(), (key.strip(), "")) for key in content.split(",")]
                if name == "cite:t":
                    return "; ".join(f"{who} ({year})" for who, year in refs)
                return "(" + "; ".join(f"{who}, {year}" for who, year in refs) + ")"
            if name == "glue:text":
                return f"*(the value printed as `{content.split(':')[0]}` above)*"
            if name == "math":
                return f"${content}$"
            return text_ or target     # {term} and anything else: its text

        text = re.sub(r"\{([a-z:]+)\}`([^`]*)`", role, text)
        return self.expand_macros(text)

    def expand_macros(self, text: str) -> str:
        for name, (body, n_args) in self.macros.items():
            pattern = re.compile(r"\\" + name + r"(?![A-Za-z])" + r"\s*\{([^{}]*)\}" * n_args)

            def expand(match: re.Match, body=body, n_args=n_args) -> str:
                out = body
                for k in range(n_args):
                    out = out.replace(f"#{k + 1}", match.group(k + 1))
                return out

            text = pattern.sub(expand, text)
        return text


# ------------------------------------------------------------------------------------------------
# the chapter code an exercise builds on: a backward slice over top-level statements
# ------------------------------------------------------------------------------------------------
_SKIP_MODULES = ("myst_nb",)


@dataclass
class Statement:
    source: str
    defines: set[str]       # names (re)bound: a plain rebinding ends the search for their definition
    changes: set[str]       # names possibly modified in place (d[k] = v, x.append(...), +=)
    uses: set[str]
    rebinds: bool           # an unconditional binding (assignment, import, def) of ``defines``
    imports: set[str]


def _clean_magics(code: str) -> str:
    return "\n".join(("pass  # " + line.strip()) if line.lstrip().startswith(("%", "!")) else line
                     for line in code.splitlines())


class _Names(ast.NodeVisitor):
    """Names bound, changed and read by one top-level statement (nested scopes read only)."""

    def __init__(self, module_names: set[str]):
        self.defines: set[str] = set()
        self.changes: set[str] = set()
        self.uses: set[str] = set()
        self.module_names = module_names
        self.depth = 0

    @staticmethod
    def _base(node) -> str | None:
        while isinstance(node, (ast.Attribute, ast.Subscript)):
            node = node.value
        return node.id if isinstance(node, ast.Name) else None

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load):
            self.uses.add(node.id)
        elif self.depth == 0:
            self.defines.add(node.id)

    def _store_target(self, target):
        if isinstance(target, (ast.Attribute, ast.Subscript)):
            base = self._base(target)
            if base and self.depth == 0:
                self.changes.add(base)
                self.uses.add(base)

    def visit_Assign(self, node):
        for target in node.targets:
            self._store_target(target)
        self.generic_visit(node)

    def visit_AugAssign(self, node):
        self._store_target(node.target)
        if isinstance(node.target, ast.Name) and self.depth == 0:
            self.changes.add(node.target.id)
            self.uses.add(node.target.id)
        self.generic_visit(node)

    def visit_Call(self, node):
        base = self._base(node.func) if isinstance(node.func, ast.Attribute) else None
        if base and base not in self.module_names and self.depth == 0:
            self.changes.add(base)       # x.method(...) may change x
        self.generic_visit(node)

    def _scope(self, node, name: str | None):
        if name and self.depth == 0:
            self.defines.add(name)
        for decorator in getattr(node, "decorator_list", []):
            self.visit(decorator)
        args = getattr(node, "args", None)
        if args is not None and not isinstance(node, ast.ClassDef):
            for default in args.defaults + [d for d in args.kw_defaults if d is not None]:
                self.visit(default)
        if isinstance(node, ast.ClassDef):
            for base in node.bases:
                self.visit(base)
        local = set()
        if args is not None and not isinstance(node, ast.ClassDef):
            local |= {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
            local |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
        body = node.body if isinstance(node.body, list) else [node.body]
        for child in body:
            local |= {n.id for n in ast.walk(child) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
        self._nested(body, local)

    def _nested(self, children, local: set[str]):
        """Visit a nested scope: its own names are not reads of the chapter's names."""
        before = set(self.uses)
        self.depth += 1
        for child in children:
            self.visit(child)
        self.depth -= 1
        self.uses = before | (self.uses - before - local)

    def visit_FunctionDef(self, node):
        self._scope(node, node.name)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        self._scope(node, node.name)

    def visit_Lambda(self, node):
        self._scope(node, None)

    def _comprehension(self, node):
        local = {n.id for g in node.generators for n in ast.walk(g.target) if isinstance(n, ast.Name)}
        self._visit_comprehension(node, local)

    def _visit_comprehension(self, node, local):
        before = set(self.uses)
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1
        self.uses = before | (self.uses - before - local)

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comprehension

    def visit_Import(self, node):
        if self.depth == 0:
            for alias in node.names:
                self.defines.add(alias.asname or alias.name.split(".")[0])

    visit_ImportFrom = visit_Import


def statements(code: str, module_names: set[str]) -> list[Statement]:
    """The top-level statements of a code cell, with the names each defines, changes and uses."""
    clean = _clean_magics(code)
    tree = ast.parse(clean)
    lines = clean.splitlines()
    out = []
    for node in tree.body:
        start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        source = "\n".join(lines[start - 1:node.end_lineno])
        if isinstance(node, ast.Pass) or source.lstrip().startswith("pass  # "):
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            module = node.module if isinstance(node, ast.ImportFrom) else node.names[0].name
            if module and module.split(".")[0] in _SKIP_MODULES:
                continue
        visitor = _Names(module_names)
        visitor.visit(node)
        if isinstance(node, (ast.For, ast.AsyncFor)):   # the loop binds its target before reading it
            visitor.uses -= {n.id for n in ast.walk(node.target) if isinstance(n, ast.Name)}
        imports = set(visitor.defines) if isinstance(node, (ast.Import, ast.ImportFrom)) else set()
        rebinds = isinstance(node, (ast.Assign, ast.AnnAssign, ast.Import, ast.ImportFrom, ast.FunctionDef,
                                    ast.AsyncFunctionDef, ast.ClassDef))
        out.append(Statement(source, visitor.defines, visitor.changes, visitor.uses, rebinds, imports))
    return out


def _module_names(codes: list[str]) -> set[str]:
    names: set[str] = set()
    for code in codes:
        for node in ast.walk(ast.parse(_clean_magics(code))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names |= {alias.asname or alias.name.split(".")[0] for alias in node.names}
    return names


def needed_names(codes: list[str], module_names: set[str]) -> set[str]:
    """Names that a sequence of code cells reads before it binds them."""
    bound: set[str] = set()
    free: set[str] = set()
    for code in codes:
        for st in statements(code, module_names):
            free |= st.uses - bound
            bound |= st.defines
    return free


def chapter_slice(chapter: Chapter, extra_code: list[str], given: set[str] = frozenset()) -> list[str]:
    """The statements of the chapter's body that the code in ``extra_code`` needs, in order (``given``:
    names the notebook sets otherwise, such as a variant parameter)."""
    body = [c.source for c in chapter.body if isinstance(c, Code) and 'find_spec("recfair")' not in c.source]
    module_names = _module_names(body + extra_code)
    stmts = [st for code in body for st in statements(code, module_names)]
    need = needed_names(extra_code, module_names) - set(given)
    keep = [False] * len(stmts)
    for i in range(len(stmts) - 1, -1, -1):
        st = stmts[i]
        if (st.defines | st.changes) & need:
            keep[i] = True
            if st.rebinds:
                need -= st.defines - st.uses
            need |= st.uses
    return [st.source for st, k in zip(stmts, keep) if k]


# ------------------------------------------------------------------------------------------------
# notebooks
# ------------------------------------------------------------------------------------------------
def last_expression(exercise: Exercise) -> str | None:
    codes = [p for p in exercise.solution if isinstance(p, Code)]
    if not codes:
        return None
    tree = ast.parse(_clean_magics(codes[-1].source))
    if not tree.body or not isinstance(tree.body[-1], ast.Expr):
        return None
    return ast.get_source_segment(_clean_magics(codes[-1].source), tree.body[-1].value)


def answer_expression(exercise: Exercise) -> str:
    expression = exercise.marks.get("answer", "LAST").strip()
    if "LAST" in expression:
        last = last_expression(exercise)
        if last is None:
            raise ValueError(f"exercise {exercise.label}: its answer is LAST but its solution ends with no expression")
        expression = expression.replace("LAST", f"({last})") if expression != "LAST" else last
    return expression


def answer_template(exercise: Exercise) -> str:
    """What the student's ``answer`` is, with an example of its form (``% example:`` overrides the
    default one, e.g. names instead of numbers)."""
    spec = exercise.marks.get("check", "").split(None, 1)
    kind, rest = spec[0], (spec[1] if len(spec) > 1 else "")
    example = exercise.marks.get("example", "").strip()
    if kind == "number":
        return f"a number, checked to {rest or 3} decimals (a float, a fraction or an exact sympy number)"
    if kind == "numbers":
        return f"a list of numbers in order, e.g. {example or '[0.25, 1.5]'}, each checked to {rest or 3} decimals"
    if kind == "integer":
        return "a whole number"
    if kind == "set":
        return f"a set, e.g. {example or '{1, 2, 3}'}; order does not matter"
    if kind == "list":
        return f"a list, e.g. {example or '[3, 1, 2]'}; order matters"
    if kind == "choice":
        return "one of " + ", ".join(repr(o.strip()) for o in rest.split("|"))
    if kind == "yes/no":
        return "True or False (yes or no)"
    return "a short text"


@functools.lru_cache(maxsize=1)
def _measured() -> dict[str, float]:
    """Seconds each exercise's solution took to execute when its answer was last recorded."""
    store = json.loads(STORE.read_text()) if STORE.exists() else {}
    return {label: entry["seconds"] for label, entry in store.items() if "seconds" in entry}


def minutes(ex: Exercise) -> int:
    """Estimated minutes for a student, from the solution as measured: reading the question and the
    solution's explanation (60 words a minute: read twice), writing its code (a minute a line), running
    it three times (its execution time, measured when the answers were recorded) and, for an open
    question, writing the explanation (15 words a minute); rounded up to 5 minutes."""
    prose = [p for p in ex.solution if isinstance(p, str)]
    code = [p.source for p in ex.solution if isinstance(p, Code)]
    words = len(ex.text.split()) + sum(len(p.split()) for p in prose)
    lines = sum(1 for c in code for line in c.splitlines() if line.strip() and not line.strip().startswith("#"))
    total = words / 60 + lines + 3 * _measured().get(ex.label, 0.0) / 60
    if ex.kind == "open":
        total += sum(len(p.split()) for p in prose) / 15
    return max(5, 5 * math.ceil(total / 5))


def _cell_id(*parts: str) -> str:
    return hashlib.sha1("\x00".join(parts).encode()).hexdigest()[:12]


class NotebookWriter:
    def __init__(self, book: Book, part: Part, solutions: bool):
        self.book, self.part, self.solutions = book, part, solutions
        self.cells: list = []

    def md(self, text: str) -> None:
        self.cells.append(nbformat.v4.new_markdown_cell(text.strip(), id=_cell_id(self.part.slug, str(len(self.cells)), text)))

    def code(self, text: str, tags: list[str] | None = None) -> None:
        cell = nbformat.v4.new_code_cell(text.strip(), id=_cell_id(self.part.slug, str(len(self.cells)), text))
        if tags:
            cell.metadata["tags"] = tags
        self.cells.append(cell)

    def notebook(self) -> nbformat.NotebookNode:
        nb = nbformat.v4.new_notebook(cells=self.cells)
        nb.metadata = {
            "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        }
        return nb


def install_cell(config: dict, student: str | None = None, *, solutions: bool = False) -> str:
    """The first code cell: install recfair where it is missing, then name the student (their variants)."""
    name = json.dumps(student) if student else "None"
    if solutions:
        who = ["# The instructor edition works on the book's values (a student notebook names its student here)."]
    elif student:
        who = ["# Your name, as your teacher entered it: some exercises come in your own variant, and their",
               "# checks expect the answers of your variant. Run this cell first."]
    else:
        who = ["# >>> TYPE YOUR NAME (or the number your teacher gave you) in quotes in place of None below, then run",
               "# this cell. Some exercises come in your own variant, and their checks expect your variant's answers;",
               "# without a name you work on the book's values, and a teacher's scorecard cannot tell your variant."]
    return "\n".join([
        "# Runs in a bare kernel (Colab, a fresh Binder, a plain local Jupyter): install recfair where it is missing.",
        "import importlib.util",
        "",
        'if importlib.util.find_spec("recfair") is None:',
        f'    %pip install --quiet "recfair[plot,widgets,symbolic,recommenders] @ git+{config["repository"]}@{config["branch"]}"',
        "",
        "import recfair",
        "import recfair.book.exercises",
        "",
        *who,
        "recfair.book.exercises.student(book=True)" if solutions else f"recfair.book.exercises.student({name})",
    ])


def _chapters_with_exercises(book: Book, part: Part) -> list[Chapter]:
    return [book.chapters[f] for f in part.files if f in book.chapters and book.chapters[f].exercises]


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 exercise``, ``2 exercises``; ``many`` for an irregular plural."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def vary_values(ex: Exercise) -> tuple[str, list] | None:
    """An exercise's variant parameter: ``% vary: name = v0 | v1 | ...`` (v0 the book's value, which the
    first line of the solution's code assigns: ``name = v0``)."""
    spec = ex.marks.get("vary", "").strip()
    if not spec:
        return None
    match = re.fullmatch(r"([A-Za-z_]\w*)\s*=\s*(.+)", spec)
    if not match:
        raise ValueError(f"exercise {ex.label}: % vary: takes `name = v0 | v1 | ...`, got {spec!r}")
    name, values = match.group(1), [ast.literal_eval(v.strip()) for v in match.group(2).split("|")]
    if len(values) < 2 or len(set(values)) != len(values):
        raise ValueError(f"exercise {ex.label}: % vary: needs two or more distinct values, got {values}")
    code = next((p for p in ex.solution if isinstance(p, Code)), None)
    first = code.source.splitlines()[0].strip() if code and code.source else ""
    target, _, value = first.partition("=")
    try:
        same = target.strip() == name and ast.literal_eval(value.strip()) == values[0]
    except (ValueError, SyntaxError):
        same = False
    if not same:
        raise ValueError(f"exercise {ex.label}: the solution's code must begin with `{name} = {values[0]!r}` "
                         f"(the book's value of the % vary: parameter), not {first!r}")
    return name, values


def _solution_pieces(ex: Exercise) -> list:
    """The solution's pieces, without the varied parameter's assignment (the notebook's variant cell sets it)."""
    vary = vary_values(ex)
    if not vary:
        return list(ex.solution)
    out, done = [], False
    for piece in ex.solution:
        if isinstance(piece, Code) and not done:
            piece = Code("\n".join(piece.source.splitlines()[1:]).strip("\n"), piece.tags)
            done = True
        out.append(piece)
    return out


GLUE_PRELUDE = [
    "def glue(name, value, display=True):",
    '    """The book shows this value in its text (myst_nb.glue); here it is printed with its name."""',
    '    print(f"{name}: {value}")',
    "",
]


def build_notebook(book: Book, part: Part, solutions: bool, *, name_solutions: bool = True,
                   student: str | None = None, record: str | None = None) -> nbformat.NotebookNode:
    """One part's notebook: the student edition, or (``solutions``) the instructor edition.

    ``name_solutions=False`` leaves out where the instructor edition is (for a class that should not
    look); ``student`` fills in the student's name in the first cell (their variants); ``record`` (the
    generator's recording copy only) replaces each check by :func:`recfair.book.exercises._record_answer`
    writing to that file, runs every variant of a varied exercise, and tags each exercise's cells.
    """
    config = book.config
    w = NotebookWriter(book, part, solutions)
    chapters = _chapters_with_exercises(book, part)
    n_ex = sum(len(c.exercises) for c in chapters)
    n_checked = sum(e.kind != "open" for c in chapters for e in c.exercises)
    n_open = n_ex - n_checked
    edition = "instructor edition, with worked solutions and rubrics" if solutions else "exercises"
    other = ("the student edition without solutions is `notebooks/exercises/" if solutions
             else "the instructor edition with worked solutions is `notebooks/solutions/") + f"{part.slug}.ipynb`"
    launch = launch_links(config, "solutions" if solutions else "exercises", part.slug)
    head = [f"# {part.title} — {edition}", ""]
    checked = ("all of them have an answer that the notebook checks" if n_open == 0 else
               f"{n_checked} of them {'has' if n_checked == 1 else 'have'} an answer that the notebook checks, "
               f"{n_open} {'is an open question' if n_open == 1 else 'are open questions'}")
    head.append(f"This notebook collects the {plural(n_ex, 'exercise')} of **{part.title}** of the book "
                f"*[{config['title']}]({config['book']})*, in the order of its chapters; {checked}. "
                "It is generated from the chapters by `notebooks/make_exercises.py`: do not edit it by hand"
                + (f" ({other})." if name_solutions or solutions else "."))
    head += ["", "**What it covers**", ""]
    for chapter in chapters:
        goals = "; ".join(o.rstrip(";.") for o in chapter.objectives[:2])
        head.append(f"- *{chapter.title}* ({plural(len(chapter.exercises), 'exercise')})" + (f": {goals}." if goals else ""))
    head += ["", "**Read first** (each exercise refers to its chapter):", ""]
    for file in part.files:
        if f"__page__{file}" in book.labels:
            head.append(f"- [{book.chapter_title(file)}]({book.url(file)})")
    if solutions:
        varied = sum(bool(vary_values(e)) for c in chapters for e in c.exercises)
        head += ["", "For the teacher: each open question ends with a **rubric** (what a complete answer says); "
                 "`python -m recfair.book.exercises score FOLDER` grades a folder of submitted student notebooks"
                 + (f". {plural(varied, 'exercise')} (marked **Variants**) come{'s' if varied == 1 else ''} in per-student "
                    "variants chosen from the name in a student notebook's first cell: this edition shows the book's "
                    "values, and each student's check and scorecard expect that student's own answers." if varied else ".")]
    else:
        varied = sum(bool(vary_values(e)) for c in chapters for e in c.exercises)
        head += ["", "**How to work**: in the first code cell, type your name (or the number your teacher gave you) "
                 "in quotes in place of `None` — for example `recfair.book.exercises.student(\"Ada Lovelace\")` — "
                 "and run it"
                 + (f"; {plural(varied, 'exercise')} of this notebook then come{'s' if varied == 1 else ''} in your own "
                    "variant (marked **Your variant**), with answers that differ from a classmate's" if varied else "")
                 + ". Then run each chapter's setup cell before its exercises. "
                 "Write your code in the empty cell under an exercise, put your result into `answer = ...` and run "
                 "the check: it says *right* or *not yet* and, when not yet, gives a hint from the chapter. "
                 "Nothing of the solution is stored in this notebook or in the check."]
    head += ["", f"Open this notebook in [Binder]({launch['Binder']}) or [Colab]({launch['Colab']})."]
    w.md("\n".join(head))
    w.code(install_cell(config, student, solutions=solutions))
    kinds = {}
    for chapter in chapters:
        w.md(f"## {chapter.title}\n\nChapter: [{chapter.title}]({book.url(chapter.file)}). "
             "The next cell runs the chapter code that these exercises build on.")
        extra = [p.source for e in chapter.exercises for p in _solution_pieces(e) if isinstance(p, Code)]
        extra += [answer_expression(e) for e in chapter.exercises if e.kind != "open"]
        varied = {vary_values(e)[0] for e in chapter.exercises if vary_values(e)}
        setup = chapter_slice(chapter, extra, given=varied)
        if setup and isinstance(ast.parse(_clean_magics(setup[-1])).body[-1], ast.Expr):
            setup[-1] += ";"   # no echo of the chapter's last value
        prelude = []
        if any(re.search(r"\bglue\(", s) for s in setup) or any(re.search(r"\bglue\(", c) for c in extra):
            prelude = GLUE_PRELUDE
        w.code("\n".join([f"# Setup from the chapter \"{chapter.title}\" (generated: the chapter code the exercises use)"]
                         + prelude + setup))
        for ex in chapter.exercises:
            self_check = ex.kind != "open"
            vary = vary_values(ex)
            text = f"### Exercise {ex.number} · `{ex.label}` · about {minutes(ex)} min\n\n" + book.markdown(ex.text, chapter.file)
            if vary and solutions:
                text += (f"\n\n**Variants** (for the teacher): in the student notebooks the cell below gives each student "
                         f"their own `{vary[0]}`, one of {', '.join(repr(v) for v in vary[1])}, in place of the "
                         f"book's {vary[1][0]!r}; the answers differ, and the check accepts each student's own. "
                         "This edition shows the book's value.")
            elif vary:
                text += (f"\n\n**Your variant**: the cell below sets `{vary[0]}` to your own value, in place of the "
                         f"book's {vary[1][0]!r} in the question (it comes from the name in the first cell). "
                         f"Work with `{vary[0]}`: the check expects the answer of your variant, so a classmate's "
                         "answer may not be yours.")
            if self_check:
                ask = book.markdown(ex.marks.get("ask", "").strip(), chapter.file)
                text += f"\n\n**Your answer** (`answer`): {ask + ' — ' if ask else ''}{answer_template(ex)}."
            w.md(text)
            start = len(w.cells)
            if vary and record:     # the store that variant() reads is being written: the book's value
                w.code(f"{vary[0]} = {vary[1][0]!r}")
            elif vary:
                w.code(f"{vary[0]} = recfair.book.exercises.variant({json.dumps(ex.label)}, {json.dumps(vary[0])})\n{vary[0]}")
            if solutions:
                pieces = _solution_pieces(ex)
                first = pieces.pop(0) if pieces and isinstance(pieces[0], str) else ""
                w.md("**Solution.** " + book.markdown(first, chapter.file) if first else "**Solution.**")
                for piece in pieces:
                    if isinstance(piece, Code):
                        w.code(piece.source)
                    else:
                        w.md(book.markdown(piece, chapter.file))
                if self_check and record:
                    w.code(_recording_cell(ex, record))
                elif self_check:
                    ask = " ".join(re.sub(r"[$`\\]", "", ex.marks.get("ask", "")).split())
                    w.code((f"# {ask}\n" if ask else "")
                           + f"answer = {answer_expression(ex)}\nrecfair.book.exercises.check({json.dumps(ex.label)}, answer)")
                else:
                    w.md(_open_note(book, chapter, ex, rubric=True))
            else:
                w.code("# your work here\n")
                if self_check:
                    w.code(f"answer = None  # replace None by your answer\nrecfair.book.exercises.check({json.dumps(ex.label)}, answer)")
                else:
                    w.md(_open_note(book, chapter, ex, rubric=False))
            if record:
                for cell in w.cells[start:]:
                    cell.metadata["exercise"] = ex.label
    return w.notebook()


def _recording_cell(ex: Exercise, record: str) -> str:
    """The generator's recording of a solution's answer (every variant's, for a varied exercise)."""
    kind, options = ex.kind, _options(ex)
    call = (f"recfair.book.exercises._record_answer({json.dumps(ex.label)}, answer, kind={kind!r}, options={options!r}, "
            f"path={record!r}")
    vary = vary_values(ex)
    if not vary:
        return f"answer = {answer_expression(ex)}\n{call})"
    name, values = vary
    code = "\n".join(_clean_magics(p.source) for p in _solution_pieces(ex) if isinstance(p, Code))
    return "\n".join([
        f"answer = {answer_expression(ex)}",
        f"{call}, variant=0)",
        f"for _rf_i, {name} in list(enumerate({values!r}))[1:] + [(0, {values[0]!r})]:",
        f"    exec(compile({code!r}, '<solution of {ex.label}>', 'exec'))",
        f"    answer = {answer_expression(ex)}",
        "    if _rf_i:",
        f"        {call}, variant=_rf_i)",
    ])


def _open_note(book: Book, chapter: Chapter, ex: Exercise, *, rubric: bool) -> str:
    see = ex.marks.get("see", "").strip()
    if see and see not in book.labels:
        raise ValueError(f"{chapter.file}: exercise {ex.label}: unknown label {see!r} in % see:")
    if see:
        file, anchor, text = book.labels[see]
        where = f"[{text or book.chapter_title(file)}]({book.url(file, anchor)})"
    else:
        where = f"[{chapter.title}]({book.url(chapter.file)})"
    if rubric:
        return (f"**Rubric** (open question, for the teacher): {book.markdown(ex.marks['rubric'].strip(), chapter.file)} "
                f"The chapter's discussion: {where}.")
    return (f"*Open question: there is no automatic check. Write your answer in a Markdown cell here; "
            f"the chapter's discussion in {where} is where to check your reasoning.*")


def write_notebook(nb: nbformat.NotebookNode) -> str:
    return nbformat.writes(nb, version=4) + "\n"


def render_all(book: Book | None = None) -> dict[Path, str]:
    """Every generated notebook: path -> text."""
    book = book or Book()
    out = {}
    for part in book.parts:
        if not _chapters_with_exercises(book, part):
            continue
        out[EXERCISES_DIR / f"{part.slug}.ipynb"] = write_notebook(build_notebook(book, part, solutions=False))
        out[SOLUTIONS_DIR / f"{part.slug}.ipynb"] = write_notebook(build_notebook(book, part, solutions=True))
    return out


def stale(book: Book | None = None) -> list[Path]:
    """Committed notebooks that differ from what the chapters generate (or are missing, or extra)."""
    rendered = render_all(book)
    bad = [p for p, text in rendered.items() if not p.exists() or p.read_text() != text]
    for folder in (EXERCISES_DIR, SOLUTIONS_DIR):
        bad += [p for p in sorted(folder.glob("*.ipynb")) if p not in rendered]
    return bad


# ------------------------------------------------------------------------------------------------
# the course page (book/start/teaching.md) and the launch links
# ------------------------------------------------------------------------------------------------
def launch_links(config: dict, edition: str, slug: str) -> dict[str, str]:
    """Where a notebook opens: Binder (JupyterLab), Colab and GitHub."""
    path = f"notebooks/{edition}/{slug}.ipynb"
    owner, name, branch = config["owner"], config["name"], config["branch"]
    return {
        "Binder": f"https://mybinder.org/v2/gh/{owner}/{name}/{branch}?urlpath=lab/tree/{path}",
        "Colab": f"https://colab.research.google.com/github/{owner}/{name}/blob/{branch}/{path}",
        "GitHub": f"{config['repository']}/blob/{branch}/{path}",
    }


def reading_minutes(chapter: Chapter) -> int:
    """A chapter's reading and running time: 130 words a minute of prose, a minute per code cell."""
    words = sum(len(item.split()) for item in chapter.body if isinstance(item, str))
    cells = sum(isinstance(item, Code) for item in chapter.body)
    return int(5 * round((words / 130 + cells) / 5)) or 5


def course_parts(book: Book) -> list[dict]:
    """One row per part: its chapters, exercises, estimated times and notebooks."""
    rows = []
    for part in book.parts:
        chapters = [book.chapters[f] for f in part.files if f in book.chapters]
        exercises = [(c, e) for c in chapters for e in c.exercises]
        rows.append({
            "part": part, "chapters": chapters,
            "n_exercises": len(exercises), "n_checked": sum(e.kind != "open" for _, e in exercises),
            "exercise_minutes": sum(minutes(e) for _, e in exercises),
            "reading_minutes": sum(reading_minutes(c) for c in chapters),
            "exercises": [{"label": e.label, "chapter": c.title, "url": book.url(c.file, e.label),
                           "check": "self-check" if e.kind != "open" else "open", "minutes": minutes(e)}
                          for c, e in exercises],
            "has_notebook": bool(exercises),
        })
    return rows


def _partition(costs: list[int], groups: int) -> list[list[int]]:
    """Split indices 0..len-1, in order, into at most ``groups`` runs of balanced total cost."""
    n = len(costs)
    groups = min(groups, n)
    prefix = [0]
    for c in costs:
        prefix.append(prefix[-1] + c)
    inf = float("inf")
    best = [[inf] * (n + 1) for _ in range(groups + 1)]
    cut = [[0] * (n + 1) for _ in range(groups + 1)]
    best[0][0] = 0
    for g in range(1, groups + 1):
        for i in range(1, n + 1):
            for j in range(g - 1, i):
                load = max(best[g - 1][j], prefix[i] - prefix[j])
                if load < best[g][i]:
                    best[g][i], cut[g][i] = load, j
    out, i = [], n
    for g in range(groups, 0, -1):
        j = cut[g][i]
        out.append(list(range(j, i)))
        i = j
    return [run for run in reversed(out) if run]


def course_plan(book: Book, sessions: int) -> list[dict]:
    """Chapters in the book's order split into ``sessions`` sessions of balanced time; each session
    lists its chapters, the exercises to assign, and the part notebooks finished by it."""
    items = [(part, book.chapters[f]) for part in book.parts for f in part.files if f in book.chapters]
    costs = [reading_minutes(c) + sum(minutes(e) for e in c.exercises) for _, c in items]
    plan = []
    for run in _partition(costs, sessions):
        chosen = [items[i] for i in run]
        finished = [part for part in dict.fromkeys(p.slug for p, _ in chosen)
                    if items[run[-1]][0].slug != part or run[-1] + 1 == len(items)
                    or items[run[-1] + 1][0].slug != part]
        plan.append({
            "chapters": [c for _, c in chosen],
            "parts": list(dict.fromkeys(p.slug for p, _ in chosen)),
            "reading_minutes": sum(reading_minutes(c) for _, c in chosen),
            "exercise_minutes": sum(minutes(e) for _, c in chosen for e in c.exercises),
            "labels": [e.label for _, c in chosen for e in c.exercises],
            "notebooks_done": [slug for slug in finished
                               if any(p.slug == slug and book.chapters[f].exercises for p in book.parts
                                      for f in p.files if f in book.chapters)],
        })
    return plan


# ------------------------------------------------------------------------------------------------
# the answer store: execute the instructor notebooks, record each check's answer
# ------------------------------------------------------------------------------------------------
def execute(path: Path, env: dict | None = None, timeout: int = 1800) -> nbformat.NotebookNode:
    """Run a notebook top to bottom in a fresh kernel, in its own folder."""
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    old = {k: os.environ.get(k) for k in (env or {})}
    os.environ.update(env or {})
    try:
        NotebookClient(nb, timeout=timeout, kernel_name="python3",
                       resources={"metadata": {"path": str(path.parent)}}).execute()
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return nb


def _options(ex: Exercise) -> str:
    return (ex.marks["check"].split(None, 1) + [""])[1]


def fingerprint(chapter: Chapter, ex: Exercise) -> str:
    """What an exercise's recorded answer depends on in the chapter: the chapter code the notebook
    runs before it, the solutions up to it, its answer expression, kind and options."""
    solutions = [e for e in chapter.exercises[: chapter.exercises.index(ex) + 1]]
    extra = [p.source for e in chapter.exercises for p in e.solution if isinstance(p, Code)]
    extra += [answer_expression(e) for e in chapter.exercises if e.kind != "open"]
    payload = {
        "setup": chapter_slice(chapter, extra),
        "solutions": [[p.source for p in e.solution if isinstance(p, Code)] for e in solutions],
        "answer": answer_expression(ex), "kind": ex.kind, "options": _options(ex),
        "vary": ex.marks.get("vary", ""), "recording": 2,
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:16]


def store_entry(book: Book, chapter: Chapter, ex: Exercise) -> dict:
    """The public part of an exercise's store entry (everything but the digest)."""
    entry = {"chapter": chapter.title, "url": book.url(chapter.file), "kind": ex.kind}
    if ex.kind == "open":
        see = ex.marks.get("see", "").strip()
        if see:
            file, anchor, _ = book.labels[see]
            entry["url"] = book.url(file, anchor)
        return entry
    hint = ex.marks.get("hint", "").strip()
    entry.update({"options": _options(ex), "hint": book.markdown(hint, chapter.file) if hint else "",
                  "source": fingerprint(chapter, ex)})
    vary = vary_values(ex)
    if vary:
        entry["vary"] = {vary[0]: vary[1]}
    return entry


def stale_answers(book: Book, store: dict) -> list[str]:
    """Checked exercises whose recorded answer is missing or older than their chapter's code."""
    out = []
    for chapter in book.chapters.values():
        for ex in chapter.exercises:
            old = store.get(ex.label, {})
            if ex.kind != "open" and (("digest" not in old and "variants" not in old)
                                      or old.get("source") != fingerprint(chapter, ex)
                                      or old.get("kind") != ex.kind or old.get("options") != _options(ex)):
                out.append(ex.label)
    return out


def _seconds(cell) -> float:
    """A cell's execution time, from the timestamps nbclient records."""
    from datetime import datetime

    timing = cell.get("metadata", {}).get("execution", {})
    try:
        begin = datetime.fromisoformat(timing["iopub.execute_input"].replace("Z", "+00:00"))
        end = datetime.fromisoformat(timing["shell.execute_reply"].replace("Z", "+00:00"))
    except (KeyError, ValueError):
        return 0.0
    return max((end - begin).total_seconds(), 0.0)


def record_answers(book: Book, parts_: list[Part]) -> tuple[dict, dict[str, float]]:
    """Execute recording copies of the parts' instructor notebooks: label -> the normalised answer its
    solution gives (a list, one per variant, for a varied exercise), and label -> seconds its solution's
    cells took. The copies call ``recfair.book.exercises._record_answer`` where the committed notebooks check."""
    recorded: dict = {}
    seconds: dict[str, float] = {e.label: 0.0 for p in parts_ for f in p.files if f in book.chapters
                                 for e in book.chapters[f].exercises}     # a solution without code: 0 s
    with tempfile.TemporaryDirectory() as tmp:
        record = Path(tmp) / "answers.jsonl"
        env = {"PYTHONPATH": os.pathsep.join([str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])}
        for part in parts_:
            copy = SOLUTIONS_DIR / f".recording-{part.slug}.ipynb"     # in its folder: the same working directory
            copy.write_text(write_notebook(build_notebook(book, part, solutions=True, record=str(record))))
            print(f"executing the instructor notebook of {part.slug}", flush=True)
            try:
                nb = execute(copy, env)
            finally:
                copy.unlink()
            for cell in nb.cells:
                label = cell.get("metadata", {}).get("exercise")
                if label and cell.cell_type == "code" and "_record_answer(" not in cell.source:
                    seconds[label] = round(seconds.get(label, 0.0) + _seconds(cell), 2)
        variants: dict = {}
        for line in record.read_text().splitlines() if record.exists() else []:
            item = json.loads(line)
            if item.get("variant") is None:
                recorded[item["label"]] = item["value"]
            else:
                variants.setdefault(item["label"], {})[item["variant"]] = item["value"]
        for label, values in variants.items():
            recorded[label] = [values[i] for i in range(len(values))]
    return recorded, seconds


def build_store(book: Book, old: dict, execute_all: bool = False, run: bool = True) -> tuple[dict, list[str]]:
    """The answer store: public fields from the chapters; digests kept where the chapter code is unchanged,
    recorded afresh (by running the parts' instructor notebooks) where it changed. Returns the store and
    the exercises still stale (when ``run`` is false)."""
    sys.path.insert(0, str(ROOT))
    from recfair.book import exercises as ex_module

    todo = set(stale_answers(book, old)) if not execute_all else {
        e.label for c in book.chapters.values() for e in c.exercises if e.kind != "open"}
    recorded: dict = {}
    seconds: dict = {}
    if todo and run:
        parts_todo = [p for p in book.parts if any(e.label in todo for f in p.files if f in book.chapters
                                                    for e in book.chapters[f].exercises)]
        recorded, seconds = record_answers(book, parts_todo)
    store, left = {}, []
    kept = ("salt", "digest", "coarse", "variants")
    for chapter in book.chapters.values():
        for ex in chapter.exercises:
            entry = store_entry(book, chapter, ex)
            previous = old.get(ex.label, {})
            if ex.label in seconds:
                entry["seconds"] = seconds[ex.label]
            elif "seconds" in previous:
                entry["seconds"] = previous["seconds"]
            if ex.kind != "open":
                if ex.label in recorded:
                    entry.update(ex_module.make_entry(ex.label, ex.kind, _options(ex), recorded[ex.label]))
                elif ex.label not in todo:
                    entry.update({k: previous[k] for k in kept if k in previous})
                elif run:
                    raise RuntimeError(f"exercise {ex.label}: its check recorded no answer")
                else:
                    left.append(ex.label)
                    if "digest" in previous or "variants" in previous:
                        entry.update({k: previous[k] for k in kept if k in previous})
                        entry["source"] = previous.get("source", "")
            store[ex.label] = entry
    return store, left


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if a committed notebook or a recorded answer is older than the chapters")
    parser.add_argument("--notebooks-only", action="store_true",
                        help="write the notebooks and the store's hints, but execute nothing")
    parser.add_argument("--all", action="store_true",
                        help="record every answer afresh (after a change of the library, not of a chapter)")
    parser.add_argument("--class-pack", metavar="FOLDER",
                        help="write student notebooks that do not name the solutions to FOLDER (nothing else)")
    parser.add_argument("--students", metavar="FILE",
                        help="with --class-pack: one name per line; one folder per student, name filled in")
    args = parser.parse_args(argv)
    book = Book()
    old = json.loads(STORE.read_text()) if STORE.exists() else {}
    if args.check:
        bad = [str(p.relative_to(ROOT)) for p in stale(book)] + [f"answer of {label}" for label in stale_answers(book, old)]
        for item in bad:
            print(f"stale: {item}")
        return 1 if bad else 0
    if args.class_pack:
        return write_class_pack(book, Path(args.class_pack), _students(args.students))
    store, left = build_store(book, old, execute_all=args.all, run=not args.notebooks_only)
    text = json.dumps(store, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    if not STORE.exists() or STORE.read_text() != text:
        STORE.write_text(text)
        print(f"wrote {STORE.relative_to(ROOT)} ({sum(e['kind'] != 'open' for e in store.values())} checked exercises)")
    _measured.cache_clear()     # the notebooks show times measured in this run
    rendered = render_all(book)
    for folder in (EXERCISES_DIR, SOLUTIONS_DIR):
        folder.mkdir(parents=True, exist_ok=True)
        for p in folder.glob("*.ipynb"):
            if p not in rendered:
                p.unlink()
    for path, text in rendered.items():
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
            print(f"wrote {path.relative_to(ROOT)}")
    if left:
        print(f"not recorded (run without --notebooks-only): {', '.join(left)}")
        return 1
    return 0


def _students(path: str | None) -> list[str]:
    if not path:
        return []
    names = [line.strip() for line in Path(path).read_text().splitlines() if line.strip() and not line.startswith("#")]
    bad = [n for n in names if not re.fullmatch(r"[\w.@+-]+", n)]
    if bad:
        raise SystemExit(f"{path}: a student name is used as a folder name: letters, digits and . @ + - _ only, not {bad}")
    if len(set(names)) != len(names):
        raise SystemExit(f"{path}: names appear twice")
    return names


def write_class_pack(book: Book, folder: Path, students: list[str]) -> int:
    """Student notebooks for a class, naming no solutions: ``folder/<part>.ipynb``, or with ``students``
    one folder per student, ``folder/<name>/<part>.ipynb``, with the name filled in (their variants);
    ``python -m recfair.book.exercises score folder`` grades the folder when it comes back."""
    targets = [(folder / name, name) for name in students] or [(folder, None)]
    for target, name in targets:
        target.mkdir(parents=True, exist_ok=True)
        for part in book.parts:
            if not _chapters_with_exercises(book, part):
                continue
            nb = build_notebook(book, part, solutions=False, name_solutions=False, student=name)
            (target / f"{part.slug}.ipynb").write_text(write_notebook(nb))
    print(f"wrote the student notebooks of {len(students) or 'one class'}{' students' if students else ''} to {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
