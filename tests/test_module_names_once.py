"""A module-level name is bound once in memlane's source (session 35).

Two helpers' regular expressions took one name twice in a module: sm35b's description screen
``_DESCRIBES`` in ``index/cues.py`` replaced session 27's pattern of the same name for the whole
module, so the patterns-alone summaries changed on 8 development sessions; in
``index/offline.py`` session 20's CI-action ``_ACTION`` had replaced an older ``_ACTION`` since
then (the older one and the ``_CUES`` built from it were unused). Ruff's F811 sees redefined
functions and imports, not assignments, so this test reads every module's top level: a name
assigned, annotated with a value, or defined by ``def``/``class`` more than once fails, unless
the later value is built from the earlier one (``X = X.format(...)``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import memlane

SRC = Path(memlane.__file__).parent
MODULES = sorted(SRC.rglob("*.py"))


def _bound_twice(tree: ast.Module) -> list[str]:
    seen: set[str] = set()
    twice = []
    for node in tree.body:
        names: list[str] = []
        value: ast.AST | None = None
        if isinstance(node, ast.Assign):
            names = [t.id for t in node.targets if isinstance(t, ast.Name)]
            value = node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value:
            names, value = [node.target.id], node.value
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names = [node.name]
        for name in names:
            builds_on = value is not None and any(
                isinstance(n, ast.Name) and n.id == name for n in ast.walk(value))
            if name in seen and not builds_on:
                twice.append(f"{name} (line {node.lineno})")
            seen.add(name)
    return twice


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(SRC)))
def test_no_module_level_name_is_bound_twice(path: Path) -> None:
    assert _bound_twice(ast.parse(path.read_text(encoding="utf-8"))) == []


def test_the_check_finds_a_second_binding() -> None:
    bad = ast.parse("A = 1\nB = A\nA = 2\ndef f(): pass\ndef f(): pass\nC = 'x'\nC = C.upper()\n")
    assert _bound_twice(bad) == ["A (line 3)", "f (line 5)"]
