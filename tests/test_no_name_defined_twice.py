"""No class body and no module of memlane binds a name twice: the second binding silently
replaces the first (session 55: a new pattern named ``_OFFERED`` replaced ``_Reader._OFFERED``
and moved decisions on two labelled sets; another named ``_TELLS`` turned reasons into
decisions). ``make lint`` holds the same (ruff's PIE794 for class fields); this test holds it in
every test run."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import memlane

SRC = Path(memlane.__file__).parent


def _bound(body: list[ast.stmt]) -> Counter[str]:
    """The names a block binds by assignment or by an undecorated ``def`` / ``class``
    (a property's setter or an overload rebinds its name on purpose, and so does an assignment
    made from the name's own value: ``_SQL = _SQL.format(...)``)."""
    names: Counter[str] = Counter()
    for node in body:
        if isinstance(node, ast.Assign):
            read = {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)}
            names.update(t.id for t in node.targets if isinstance(t, ast.Name) and t.id not in read)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) \
                and node.value is not None:
            names[node.target.id] += 1
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) \
                and not node.decorator_list:
            names[node.name] += 1
    return names


def test_no_class_field_or_module_name_is_bound_twice() -> None:
    twice = []
    files = sorted(SRC.rglob("*.py"))
    assert len(files) > 50
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        blocks = [("module", tree.body)] + [
            (node.name, node.body) for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
        for where, body in blocks:
            twice += [f"{path.relative_to(SRC)}: {where}.{name}"
                      for name, n in _bound(body).items() if n > 1]
    assert not twice, twice
