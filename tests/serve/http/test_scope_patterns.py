"""A key's scope patterns (and ``memlane mcp --allow``) have two wildcards, ``*`` and
``?``, as the README says; every other character is itself.

Found creating a key for the scope ``user[1]``: the patterns were matched with fnmatch,
which reads ``[...]`` as a set of characters, so that key was refused its own scope
(403) and reached ``user1`` instead; ``[!a]`` and ``[a-z]`` widened keys the same way."""

from __future__ import annotations

import fnmatch

from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.serve.keys import scope_matches
from memlane.serve.mcp import ScopePatterns


def test_a_key_for_a_scope_with_brackets_reaches_that_scope_only(service):
    key = service.key("user[1],team-[!a]*")
    with service.client(key) as c:
        for scope, allowed in (("user[1]", True), ("user1", False), ("team-[!a]-x", True),
                               ("team-b", False), ("team-[!a]", True)):
            r = c.post("/v1/messages", json={"scope": scope, "text": "hello there"})
            assert r.status_code == (200 if allowed else 403), (scope, r.text)
            r = c.get("/v1/sessions", params={"scope": scope})
            assert r.status_code == (200 if allowed else 403), (scope, r.text)


def test_mcp_allow_patterns_read_brackets_as_themselves():
    access = ScopePatterns(("proj[ab]", "x?"))
    assert access.allows("proj[ab]") and not access.allows("proja")
    assert access.allows("x1") and not access.allows("x") and not access.allows("x12")


_chars = st.sampled_from(list("ab[]!-^*?\\.$()+{}|"))


@settings(max_examples=300, deadline=None)
@given(scope=st.text(_chars, max_size=8), pattern=st.text(_chars, max_size=8))
def test_scope_matches_is_fnmatch_with_only_star_and_question_mark(scope, pattern):
    """Property: the match is fnmatch's once every ``[`` is taken literally; a pattern
    without ``*`` or ``?`` matches exactly itself."""
    literal = "".join("[[]" if c == "[" else c for c in pattern)
    assert scope_matches(scope, pattern) == fnmatch.fnmatchcase(scope, literal)
    if "*" not in pattern and "?" not in pattern:
        assert scope_matches(scope, pattern) == (scope == pattern)
    assert scope_matches(pattern, pattern)  # a key made for a scope reaches it
