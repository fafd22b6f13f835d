"""The modules of engine/play import each other without a cycle (issue 26: the engine stays easy to change).

Every import between two engine/play modules counts, wherever it stands: at the top, inside a function, or under
`if TYPE_CHECKING:` (a cycle of type annotations is a cycle of knowledge all the same). The modules are read with
ast, nothing is imported."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = "engine.play"
ROOT = Path(__file__).resolve().parent.parent / "engine" / "play"


def imports_between(root: Path, package: str) -> dict[str, set[str]]:
    """For each module of `package` (the files of `root`): the modules of the same package it imports."""
    mods = {p.stem for p in root.glob("*.py") if p.stem != "__init__"}
    edges: dict[str, set[str]] = {m: set() for m in mods}
    for m in mods:
        for node in ast.walk(ast.parse((root / f"{m}.py").read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module:
                if node.module == package:
                    names = [a.name for a in node.names]
                elif node.module.startswith(package + "."):
                    names = [node.module[len(package) + 1:]]
            elif isinstance(node, ast.Import):
                names = [a.name[len(package) + 1:] for a in node.names if a.name.startswith(package + ".")]
            for name in names:
                target = name.split(".")[0]
                if target in mods and target != m:
                    edges[m].add(target)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp: list[str] = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_scan_sees_a_cycle() -> None:
    # the checker itself: a function-level import and a TYPE_CHECKING import closing a circle are both found
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(edges) == [["a", "b", "c"]]
    tree = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from engine.play.x import Y\n"
                     "def f():\n    from engine.play import z\n")
    seen = [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and (n.module or "").startswith(PACKAGE)]
    assert len(seen) == 2


def test_engine_play_has_no_import_cycle() -> None:
    edges = imports_between(ROOT, PACKAGE)
    assert len(edges) > 10
    found = cycles(edges)
    assert not found, "engine/play modules import each other in a circle: " + "; ".join(
        " <-> ".join(c) for c in found)
