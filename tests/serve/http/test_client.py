"""memlane.Client against a real service: Memory's method names and return types."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import strategies as st

from memlane import Client, ConflictError, Hit, IndexReport, Message, NotFoundError, RemoteError, Session
from memlane import ValidationError


def test_client_mirrors_memory(service) -> None:
    key = service.key("chat-*")
    with Client(service.url, key) as mem:
        m = mem.add_message("chat-42", "user", "I signed up for the Lisbon half marathon in October")
        assert isinstance(m, Message) and isinstance(m.at, datetime) and m.seq == 1
        batch = mem.add_messages([
            {"scope": "chat-42", "role": "assistant", "text": "Great, a 16-week plan starts in June."},
            {"scope": "chat-42", "role": "user", "text": "My shoes are Pegasus 40"}])
        assert [b.seq for b in batch] == [2, 3]
        closed = mem.close_session("chat-42")
        assert isinstance(closed, Session) and closed.status == "closed"
        assert mem.close_session("chat-42") is None
        with Client(service.url, service.key("*")) as admin:
            report = admin.index()
            assert isinstance(report, IndexReport) and report.items_indexed == 3
            assert admin.stats()["messages"] == 3
        hits = mem.search("Lisbon half marathon", scope="chat-42", k=3, kinds=["turn"])
        assert isinstance(hits[0], Hit) and "marathon" in hits[0].item.text
        assert hits[0].item.keywords == tuple(hits[0].item.keywords)
        assert "lexical_ms" in mem.last_timings
        p = mem.pack("Lisbon half marathon", 200, scope="chat-42")
        assert p.used <= 200 and "marathon" in p.text and p.entries[0].slot
        assert mem.replay_pack(p.id)["text"] == p.text
        assert [s.id for s in mem.sessions("chat-42")] == [m.session_id]
        assert [x.text for x in mem.messages(m.session_id)][0].startswith("I signed up")
        item_id = mem.upsert("Prefers aisle seats", kind="preference", scope="chat-42",
                             topics=("travel",))
        assert isinstance(item_id, int)
        service.mem.add_fact("user", "lives_in", "Lisbon", scope="chat-42")
        # the three messages are too small a session for a summary, not for facts
        said = {(f.predicate, f.object) for f in mem.facts("chat-42")}
        assert ("signed_up_for", "Lisbon half marathon") in said
        (fact,) = [f for f in mem.facts("chat-42") if f.predicate == "lives_in"]
        assert fact.object == "Lisbon" and 0 < fact.confidence <= 1
        assert mem.fact_history("user", "lives_in", "chat-42")[0]["object"] == "Lisbon"
        mem.forget_fact(fact.id)
        assert {(f.predicate, f.object) for f in mem.facts("chat-42")} == said - {("lives_in", "Lisbon")}


def test_client_raises_memlanes_errors(service) -> None:
    key = service.key("chat-*")
    ro = service.key("*", read_only=True)
    with Client(service.url, key) as mem:
        mem.add_message("chat-1", "user", "hello", id="m-1")
        with pytest.raises(ConflictError) as e:
            mem.add_message("chat-1", "user", "again", id="m-1")
        assert e.value.field == "id"
        with pytest.raises(ValidationError) as e:
            mem.search("x", k=0, scope="chat-1")
        assert e.value.field == "k"
        with pytest.raises(NotFoundError):
            mem.session(99999)
        with pytest.raises(RemoteError) as e:
            mem.add_message("other", "user", "not mine")
        assert e.value.status == 403 and e.value.field == "scope"
    with Client(service.url, ro) as mem, pytest.raises(RemoteError) as e:
        mem.add_message("chat-1", "user", "read-only")
    assert e.value.status == 403
    with Client(service.url, "ml_bad") as mem, pytest.raises(RemoteError) as e:
        mem.stats()
    assert e.value.status == 401


CLIENT_METHOD = {
    "memory.add": "add_message", "sessions.close": "close_session", "index": "index",
    "memory.search": "search", "memory.pack": "pack", "memory.upsert": "upsert",
    "sessions.list": "sessions", "sessions.show": "session", "facts.list": "facts",
    "facts.history": "fact_history", "facts.forget": "forget_fact",
    "scopes.forget": "forget_scope", "sessions.forget": "forget_session",
    "graph.show": "graph", "packs.show": "replay_pack", "stats": "stats",
}
"""The Client method of every action: a new action needs its method here (and on Client)."""


def test_every_action_has_its_client_method_named_as_memorys() -> None:
    """scopes.forget and sessions.forget (session 18) had no Client method: mem.forget_scope
    on a Client was an AttributeError though the README says Client has Memory's method
    names (found calling the erasure from a remote client)."""
    from memlane import Memory
    from memlane.serve.http.actions import ACTIONS

    assert set(CLIENT_METHOD) == set(ACTIONS)
    for kind, name in CLIENT_METHOD.items():
        assert callable(getattr(Client, name, None)), (kind, name)
        assert callable(getattr(Memory, name, None)), (kind, name)


def test_client_erases_a_session_and_a_scope_as_memory_does(service) -> None:
    from memlane import EraseReport

    key = service.key("chat-*")
    with Client(service.url, key) as mem:
        a = mem.add_message("chat-1", "user", "My passport number is in the blue folder")
        mem.close_session("chat-1")
        mem.add_message("chat-1", "user", "The blue folder is in the top drawer")
        report = mem.forget_session(a.session_id)
        assert isinstance(report, EraseReport) and report.erased
        assert report.scope == "chat-1" and report.session_id == a.session_id
        assert report.counts["messages"] == 1 and "erased session" in report.notice
        with pytest.raises(NotFoundError):
            mem.forget_session(a.session_id)
        whole = mem.forget_scope("chat-1")
        assert whole.session_id is None and whole.counts["messages"] == 1
        assert not mem.forget_scope("chat-1").erased
        with pytest.raises(RemoteError) as e:
            mem.forget_scope("other")
        assert e.value.status == 403
    assert service.mem.stats()["messages"] == 0


@pytest.mark.parametrize("kinds", ["turn", "turn,summary", ["turn"], ("turn", "summary")])
def test_client_search_takes_kinds_as_memory_does(service, kinds) -> None:
    """``kinds`` (and ``lanes``, ``privacy``) as a string, comma-separated or not, as
    ``Memory.search`` takes them: the Client sent ``list("turn")``, the letters t, u, r, n,
    and the service refused them (found passing kinds="turn" to a Client)."""
    mem = service.mem
    mem.add_message("chat-9", "user", "The Lisbon half marathon is in October")
    mem.close_session("chat-9")
    mem.index()
    want = [h.item.id for h in mem.search("marathon", scope="chat-9", kinds=kinds)]
    assert want
    with Client(service.url, service.key("chat-*")) as remote:
        got = remote.search("marathon", scope="chat-9", kinds=kinds, lanes="episodic,semantic",
                            privacy="private")
        assert [h.item.id for h in got] == [
            h.item.id for h in mem.search("marathon", scope="chat-9", kinds=kinds,
                                          lanes="episodic,semantic", privacy="private")]


@pytest.mark.parametrize("call", [
    lambda m: m.add_message("chat-1", "user", "bad \ud800 text"),
    lambda m: m.add_message("chat-\udfff", "user", "hello"),
    lambda m: m.add_messages([{"scope": "chat-1", "role": "user", "text": "x\ud800"}]),
    lambda m: m.search("where \ud800", scope="chat-1"),
    lambda m: m.upsert("a note", scope="chat-1", extra={"k": "\ud800"}),
    lambda m: m.upsert("a note", scope="chat-1", trust=float("nan")),
    lambda m: m.facts("chat-1", subject="user\ud800"),
])
def test_client_refuses_what_memory_refuses_with_a_validation_error(service, call) -> None:
    """A lone surrogate (or a NaN) in any argument is a ValidationError naming the field
    from the Client as from Memory: httpx's JSON encoding raised UnicodeEncodeError (and
    ValueError for NaN) before anything was sent (found passing text with a lone
    surrogate to Client.add_message)."""
    with pytest.raises(ValidationError) as local:
        call(service.mem)
    with Client(service.url, service.key("chat-*")) as remote:
        with pytest.raises(ValidationError) as far:
            call(remote)
    assert far.value.field and local.value.field
    assert far.value.field.split(".")[-1] == local.value.field.split(".")[-1] or \
        far.value.field.startswith(local.value.field.split(".")[0]), (far.value, local.value)
    assert service.mem.stats()["messages"] == 0


def _client_methods() -> list[str]:
    return sorted(n for n, v in vars(Client).items()
                  if not n.startswith("_") and callable(v) and n not in ("close", "action"))


@pytest.mark.parametrize("name", _client_methods())
def test_any_argument_is_refused_by_the_client_as_memory_refuses_it(tmp_path: Path,
                                                                    name: str) -> None:
    """Every ``Client`` method, given arbitrary values (bytes, sets, objects, datetimes
    nested in a dict, NaN, huge ints…): only memlane's errors come out, and a value
    ``Memory`` refuses with ``ValidationError`` the Client refuses with one naming a field.
    ``json.dumps``' ``TypeError`` (bytes, a set, a ``Path``, a ``Decimal``, a datetime in
    ``extra``) and an ``AttributeError`` (``add_messages`` of anything but a list of dicts)
    came out of the client before (session 29)."""
    from memlane.serve.http import create_app
    from memlane.serve.keys import create_key
    from memlane.testing import memory
    from memlane.testing.http import serving
    from tests.fuzz.test_fuzz_api import value

    mem = memory(tmp_path / "m.db")
    try:
        with serving(create_app(mem, worker=False)) as url:
            _client_like_memory(mem, url, create_key(mem.store, "*").key, name, value)
    finally:
        mem.close()


def _client_like_memory(mem: Any, url: str, key: str, name: str, value: Any) -> None:
    """Hypothesis: ``name`` called on ``mem`` and on a Client of it with the same values."""
    import inspect

    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from memlane.errors import MemlaneError

    params = [p for p in inspect.signature(getattr(Client, name)).parameters.values()
              if p.name != "self" and p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)]

    @settings(max_examples=25, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        kwargs = {p.name: data.draw(value, label=p.name) for p in params
                  if p.default is inspect.Parameter.empty or data.draw(st.booleans())}
        try:
            getattr(mem, name)(**kwargs)
            local = None
        except MemlaneError as e:
            local = e
        except TypeError:  # a parameter only the Client has (none today)
            local = None
        # the Client sends None as "not given" and JSON's 1.0 is the number 1, which the
        # service takes for an id: refusals compared without them
        alike = not any(v is None or (isinstance(v, float) and v.is_integer())
                        for v in kwargs.values())
        with Client(url, key) as remote:
            try:
                getattr(remote, name)(**kwargs)
            except ValidationError as e:
                assert e.field, e
            except MemlaneError:
                assert not (alike and isinstance(local, ValidationError)), (kwargs, local)
            else:
                assert not (alike and isinstance(local, ValidationError)), (kwargs, local)

    check()


def test_a_closed_client_says_so() -> None:
    """It raised httpx's ``RuntimeError: Cannot send a request, as the client has been
    closed`` (a ``with`` block's client kept by mistake), where a closed ``Memory`` raises
    memlane's error naming its state."""
    client = Client("http://127.0.0.1:9")
    client.close()
    with pytest.raises(RemoteError) as e:
        client.stats()
    assert e.value.status == 0 and e.value.code == "closed"
    assert "http://127.0.0.1:9: this client was closed" in str(e.value)
    with pytest.raises(RemoteError, match="closed"), client:
        pass
    client.close()  # twice, as Memory


_JSON = st.recursive(st.none() | st.booleans() | st.integers(-2**31, 2**31) | st.text(max_size=8),
                     lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text(max_size=4), inner, max_size=3), max_leaves=8)


def test_a_value_twice_in_extra_is_sent_and_a_cycle_is_refused(tmp_path: Path) -> None:
    """The client's check of what JSON can carry took a list or dict met twice for a cycle:
    ``extra={"a": tags, "b": tags}``, which ``Memory.upsert`` stores, was refused naming
    ``extra.b`` (session 30). Hypothesis: any JSON value placed twice in ``extra`` is
    stored through the client as by ``Memory``; a value inside itself is refused naming
    where."""
    from hypothesis import HealthCheck, given, settings

    from memlane.serve.http import create_app
    from memlane.serve.keys import create_key
    from memlane.testing import memory
    from memlane.testing.http import serving

    mem = memory(tmp_path / "m.db")
    try:
        with serving(create_app(mem, worker=False)) as url, \
                Client(url, create_key(mem.store, "*").key) as remote:

            @settings(max_examples=30, deadline=None, database=None,
                      suppress_health_check=list(HealthCheck))
            @given(shared=st.lists(_JSON, max_size=3) | st.dictionaries(st.text(max_size=4),
                                                                       _JSON, max_size=3))
            def check(shared: Any) -> None:
                extra = {"a": shared, "b": [shared, {"c": shared}]}
                here = mem.upsert("a shared value", scope="s", extra=extra)
                there = remote.upsert("a shared value", scope="s", extra=extra)
                assert mem.store.get_items([there])[there].extra == \
                    mem.store.get_items([here])[here].extra

            check()
            loop: list[Any] = [1]
            loop.append({"back": loop})
            with pytest.raises(ValidationError) as refused:
                remote.upsert("a loop", scope="s", extra={"tags": loop})
            assert refused.value.field == "extra.tags.1.back", refused.value
    finally:
        mem.close()
