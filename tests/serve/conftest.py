"""Fixtures of the MCP tests (tests/serve/test_mcp*.py): the seeded example database and
``memlane serve``'s app over it on a real uvicorn on a free loopback port. A test file that
defines its own ``db`` (the CLI tests) uses its own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from memlane.testing import example_files, memory


@pytest.fixture
def db(tmp_path: Path) -> str:
    """The two example conversations, indexed: sessions 1-3 in alice-assistant (facts
    1-6 about the user), 4-5 in team-backend."""
    path = tmp_path / "mcp.db"
    with memory(path) as mem:
        for f in example_files():
            mem.import_file(f)
        mem.index("2024-06-01T00:00:00Z")
    return str(path)


@pytest.fixture
def service(db: str) -> Iterator[tuple[str, Any, Any]]:
    """``memlane serve``'s app on a real uvicorn on a free loopback port, over ``db``:
    ``(url, key(scopes, **kw) -> secret, memory)``."""
    from memlane.serve.http import create_app
    from memlane.serve.keys import create_key
    from memlane.testing.http import serving

    mem = memory(db)
    try:
        with serving(create_app(mem, worker=False)) as url:
            yield url, lambda scopes, **kw: create_key(mem.store, scopes, **kw).key, mem
    finally:
        mem.close()
