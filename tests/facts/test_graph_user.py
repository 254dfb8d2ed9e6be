"""``graph show user``: the user's relations (session 27).

The user is every user fact's subject and the source of the relations read from them
(``user —lives_in→ lisbon``), but has no node of the graph (no entity item names them):
``memlane graph show user`` said "entity 'user' is not in the graph" while the graph held
its relations. Now the relations come back, with no node and no items, for ``user`` and
the other spellings of the user a fact takes ("me", "I"); a name with neither a node nor
a relation is still not found.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from click.testing import CliRunner

from memlane.errors import NotFoundError
from memlane.serve.cli import cli
from memlane.testing import add_sessions, memory

NOW = datetime(2024, 9, 2, tzinfo=UTC)
CHAT = [("user", "I just moved to Lisbon and I work at Feedzai."),
        ("assistant", "Welcome! How is the commute?"),
        ("user", "Fine, my cat Miso likes the new flat."),
        ("assistant", "Glad to hear it.")]


@pytest.mark.parametrize("spelling", ["user", "User", " me ", "I"])
def test_the_users_relations_are_shown(db_url: str, spelling: str) -> None:
    with memory(db_url) as mem:
        add_sessions(mem, [(3, CHAT)], now=NOW)
        g = mem.graph(spelling, "chat")
        assert g["entity"] == [] and g["items"] == []
        assert ("chat", "user", "lives_in", "lisbon") in g["relations"]
        assert all(src == "user" for _, src, _, _ in g["relations"])
        with pytest.raises(NotFoundError, match="not in the graph of scope 'other'"):
            mem.graph(spelling, "other")
        with pytest.raises(NotFoundError, match="'nobody' is not in the graph"):
            mem.graph("nobody")


def test_graph_show_user_prints_them(tmp_path) -> None:
    db = str(tmp_path / "m.db")
    with memory(db) as mem:
        add_sessions(mem, [(3, CHAT)], now=NOW)
    out = CliRunner().invoke(cli, ["--db", db, "graph", "show", "user"])
    assert out.exit_code == 0, out.output
    assert "user —lives_in→ lisbon  [chat]" in out.output
