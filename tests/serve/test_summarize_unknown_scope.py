"""``summarize`` of a scope holding no message is a not-found answer, like an unknown
session's (session 24): the CLI said ``Invalid value for '--scope'`` and exited 2, a usage
error, though the option was well formed and the scope simply held nothing (never used,
or erased). Now: ``NotFoundError`` from ``Memory.summarize_recent`` (a ``LookupError``),
exit 1 naming the scope from the CLI, as ``sessions show 999`` does; MCP's ``summarize``
gives a tool error naming it (tests/serve/test_mcp.py); the HTTP API has no summarize
operation."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from memlane import Memory
from memlane.errors import NotFoundError
from memlane.serve.cli import cli


@pytest.mark.parametrize("scope", ["nobody", "erased"])
@pytest.mark.parametrize("args", [[], ["--yes"], ["--yes", "--json"]])
def test_a_scope_with_nothing_to_summarize_is_not_found(tmp_path: Path, scope: str,
                                                        args: list[str]) -> None:
    db = tmp_path / "m.db"
    with Memory(str(db)) as mem:
        mem.add_message("kept", "user", "the boiler is serviced in March")
        mem.add_message("erased", "user", "my locker code is 4411")
        mem.forget_scope("erased")
        with pytest.raises(NotFoundError, match=f"scope '{scope}' has no messages"):
            mem.summarize_recent(scope, 3)
        before = mem.stats()
    r = CliRunner().invoke(cli, ["--db", str(db), "summarize", "--scope", scope, "--last", "3",
                                 *args])
    assert r.exit_code == 1, (r.exit_code, r.output)
    assert f"scope '{scope}' has no messages" in r.output and "Usage:" not in r.output
    with Memory(str(db)) as mem:
        assert mem.stats() == before  # nothing stored
