"""Erasure leaves no trail, whatever ran before it (docs/erasure.md, session 28).

An erase finds what rows of its scope deleted before it left (a summary a late message had
written again, a fact item hygiene evicted) by reading the change log's records of them
(session 27). ``memlane gc`` prunes that log: a pruned record took its texts with it, and
the vectors of those texts stayed in the embedding cache after a later erase of the scope.
A kept session's older change records listed the participants it had: a speaker erased
with their one turn kept their name there. And ``forget_item`` of an item (not a turn) took
the cached vectors of the items no longer stored, not of the facts (a named speaker's fact
is embedded in the user's form, which only the fact's own record can give).

Real SQLite files and real PostgreSQL databases, the offline summariser, the hashing
embedder."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memlane.config import load_config
from memlane.index.embed import text_hash
from memlane.index.normalize import embedded_fact_text
from memlane.memory import Memory
from memlane.serve import live
from memlane.testing import HashingEmbedder
from tests.test_erase import _rows_with
from tests.test_erase_old_records import _history

NOW = datetime(2024, 6, 1, tzinfo=UTC)


def _memory(db: str, **hygiene: object) -> Memory:
    return Memory(db, config=load_config(environ={}, overrides={"hygiene": hygiene}),
                  embedder=HashingEmbedder(dim=64, char_trigrams=True))


@pytest.mark.parametrize("how", ["scope", "session", "turn"])
def test_a_pruned_change_log_leaves_no_cached_vector_of_rows_deleted_before(
        db_url: str, how: str) -> None:
    """A late message had a summarised session summarised again (its first summary's
    items deleted); ``gc`` a week and a day later prunes the change log; then the erase."""
    mem = _memory(db_url)
    try:
        sid, old, _ = _history(mem)
        # the records are written at the clock's time: a week and a day later, all pruned
        assert mem.gc(now=datetime.now(UTC) + timedelta(days=8)).changes_pruned > 0
        if how == "scope":
            mem.forget_scope("A")
            words = ["Zqold", "Zqmid", "Zqbill", "Zqlate"]
        elif how == "session":
            mem.forget_session(sid)
            words = ["Zqold", "Zqmid", "Zqbill", "Zqlate"]
        else:
            turn = [i.id for i in mem.store.session_items(sid, kind="turn") if "Zqmid" in i.text]
            mem.forget_item(turn[0])
            words = ["Zqmid"]
        for w in words:
            assert _rows_with(mem.store, w) == {}, w
        erased = [t for t in old if any(w in t for w in words)]
        assert erased and mem.store.cached_vectors(
            mem.embeddings.model, [text_hash(t) for t in erased]) == {}
        if how != "scope":
            assert _rows_with(mem.store, "Keptco")   # the rest stays
    finally:
        mem.close()


def test_a_speaker_erased_with_their_one_turn_leaves_no_name(db_url: str) -> None:
    """Zqcaro said one turn of a session; ``forget_item`` of it. The session's older change
    records (closed, indexed) listed Zqcaro among its participants."""
    mem = _memory(db_url)
    try:
        start = NOW - timedelta(days=10)
        mem.add_message("A", "user", "I moved to Zqlis last month.", at=start, speaker="Zqcaro")
        mem.add_message("A", "assistant", "How do you like it?", at=start + timedelta(minutes=1))
        mem.add_message("A", "user", "It is fine, Keptco is near.", at=start + timedelta(minutes=2))
        mem.close_session("A")
        mem.index(now=NOW)
        sid = mem.sessions("A")[0].id
        assert "changes" in _rows_with(mem.store, "Zqcaro")
        mem.forget_item(mem.store.session_items(sid, kind="turn")[0].id)
        assert _rows_with(mem.store, "Zqcaro") == {}
        assert "zqcaro" not in repr(live.changes_since(mem.store, "A", 0, limit=10_000)).lower()
        # a client that replays the log ends in the state a snapshot gives
        state = live.snapshot(mem.store, "A")[1]
        assert state["sessions"][str(sid)]["participants"] == ["assistant", "user"]
        assert mem.store.get_session(sid).message_count == 2
        assert _rows_with(mem.store, "Keptco")
    finally:
        mem.close()


def test_an_item_erase_takes_the_cached_vector_of_a_fact_no_longer_stored(db_url: str) -> None:
    """Zqcaro's "I moved to Zqlis" is a fact embedded in the user's form ("user lives in
    Zqlis"); hygiene evicts the fact's item (the profile lane capped at 0), so the fact goes
    with it. ``forget_item`` of the scope's note: the texts of what the scope's rows
    deleted before it left lose their cached vectors, the facts' as a session erase takes
    them (its vector text as each speaker of the scope makes it)."""
    mem = _memory(db_url, lane_caps=["profile=0"])
    try:
        start = NOW - timedelta(days=10)
        mem.add_message("A", "user", "I moved to Zqlis last month.", at=start, speaker="Zqcaro")
        mem.add_message("A", "assistant", "How do you like it?", at=start + timedelta(minutes=1))
        mem.close_session("A")
        mem.index(now=NOW)
        fact = mem.facts(None, include_superseded=True)[0]
        users = embedded_fact_text(fact.subject, fact.predicate, fact.object, "Zqcaro", "user")
        assert users == "user lives in Zqlis"
        model = mem.embeddings.model
        assert mem.store.cached_vectors(model, [text_hash(users)])
        assert mem.gc(now=NOW).evicted.get("profile") == 1
        assert mem.facts(None, include_superseded=True) == []
        note = mem.upsert("Note: Zqlis is the code name.", scope="A", kind="note")
        mem.forget_item(note)
        assert mem.store.cached_vectors(model, [text_hash(users)]) == {}
    finally:
        mem.close()


def test_an_entity_node_of_an_evicted_item_leaves_with_it(db_url: str) -> None:
    """Hygiene evicts the scope's entity items (the semantic lane capped at 0) and prunes
    the change log (a week and a day later); then ``forget_session``. The nodes "Zqmid"
    and "Porto" kept "My sister Zqmid lives in Porto." as their context: the eviction left
    them, and the erase, its records pruned, no longer found their names. Now the eviction
    rebuilds the nodes its entity items named (deleted when none is left)."""
    mem = _memory(db_url, lane_caps=["semantic=0"])
    try:
        start = NOW - timedelta(days=10)
        mem.add_message("A", "user", "My sister Zqmid lives in Porto.", at=start)
        mem.add_message("A", "assistant", "How is she?", at=start + timedelta(minutes=1))
        mem.close_session("A")
        mem.add_message("A", "user", "I work at Keptco as a baker now.", at=NOW - timedelta(days=3))
        mem.close_session("A")
        mem.index(now=NOW)
        assert "Zqmid" in {e.name for e in mem.store.scope_entities("A")}
        report = mem.gc(now=datetime.now(UTC) + timedelta(days=8))
        assert report.evicted.get("semantic") and report.changes_pruned
        assert mem.store.items_of_kind("entity", "A") == []
        assert mem.store.scope_entities("A") == []
        mem.forget_session(min(s.id for s in mem.sessions("A")))
        assert _rows_with(mem.store, "Zqmid") == {}
        assert _rows_with(mem.store, "Keptco")
    finally:
        mem.close()


def _indexed(mem: Memory) -> tuple[int, datetime]:
    """Scope A's session of four turns (Zqold, Zqmid) and a later one, indexed: the first
    session's id and start (a message between its turns joins it: a re-summary)."""
    start = NOW - timedelta(days=10)
    for i, (role, text) in enumerate([
            ("user", "I moved to Zqold last month."), ("assistant", "How do you like it?"),
            ("user", "My sister Zqmid lives in Porto."), ("assistant", "Do you see her?")]):
        mem.add_message("A", role, text, at=start + timedelta(minutes=i))
    mem.close_session("A")
    mem.add_message("A", "user", "I work at Keptco as a baker now.", at=NOW - timedelta(days=3))
    mem.close_session("A")
    mem.index(now=NOW)
    return min(s.id for s in mem.sessions("A")), start


@pytest.mark.parametrize("erase", ["scope", "session"])
@pytest.mark.parametrize("delete", ["resummary", "eviction"])
def test_a_row_embedded_after_the_prune_then_deleted_leaves_no_cached_vector(
        db_url: str, delete: str, erase: str) -> None:
    """A session's summary, facts and entities stored and indexed; ``gc`` a week and a day
    later prunes the change log (their records, and the cached vectors of their texts); then
    ``memlane backfill embeddings`` embeds every item again (their vectors cached again, no
    record written); a re-summary (a late message) or hygiene's eviction (the lanes capped)
    deletes them: no record of their texts is left for an erase to find (session 28, Left)."""
    mem = _memory(db_url)
    try:
        sid, start = _indexed(mem)
        # what the re-summary deletes, or the eviction (the summary's lane is not capped)
        kinds = ("summary", "fact", "entity") if delete == "resummary" else ("fact", "entity")
        ids = [i.id for i in mem.store.session_items(sid) if i.kind in kinds]
        old = {t for t in [*(i.text for i in mem.store.get_items(ids).values()),
                           *mem.store.vector_texts(ids).values()] if "Zq" in t}
        assert len(old) >= 3
        model = mem.embeddings.model
        later = datetime.now(UTC) + timedelta(days=8)
        assert mem.gc(now=later).changes_pruned > 0
        assert mem.backfill_embeddings(missing_only=False) > 0
        assert mem.store.cached_vectors(model, [text_hash(t) for t in old])
        if delete == "resummary":
            mem.add_message("A", "user", "I moved to Zqlate last month.",
                            at=start + timedelta(minutes=1, seconds=30))
            mem.index(now=NOW)
        else:
            mem.close()
            mem = _memory(db_url, lane_caps=["semantic=0", "profile=0"])
            report = mem.gc(now=later)
            assert report.evicted.get("semantic") and report.evicted.get("profile")
        assert not set(ids) & set(mem.store.get_items(ids))
        if erase == "scope":
            mem.forget_scope("A")
        else:
            mem.forget_session(sid)
        assert mem.store.cached_vectors(model, [text_hash(t) for t in old]) == {}
        assert _rows_with(mem.store, "Zqold") == {}
    finally:
        mem.close()


def test_a_resummary_keeps_the_cached_vectors_of_the_texts_it_writes_again(db_url: str) -> None:
    """A late message has a session summarised again: the texts it deletes and writes again
    (the same facts and entities) keep their cached vectors, so the next run embeds them
    from the cache; the texts written no longer lose theirs (only those no item holds)."""
    mem = _memory(db_url)
    try:
        sid, start = _indexed(mem)

        def derived() -> set[str]:
            ids = [i.id for i in mem.store.session_items(sid) if i.kind in ("fact", "entity")]
            return {*(i.text for i in mem.store.get_items(ids).values()),
                    *mem.store.vector_texts(ids).values()}

        before = derived()
        mem.add_message("A", "user", "It was a long trip.", at=start + timedelta(minutes=1, seconds=30))
        mem.index(now=NOW)
        assert mem.store.get_session(sid).message_count == 5
        again = before & derived()
        assert len(again) >= 3
        hashes = {text_hash(t) for t in again}
        assert set(mem.store.cached_vectors(mem.embeddings.model, sorted(hashes))) == hashes
    finally:
        mem.close()


def test_a_prune_keeps_the_cached_vectors_of_what_is_stored(db_url: str) -> None:
    """``gc`` a week and a day later prunes every change record of an indexed scope: the
    stored items' vectors stay cached (session 28 deleted them all, for the rows a later
    re-summary or hygiene would delete without a record; those deletes now take their own)."""
    mem = _memory(db_url)
    try:
        _indexed(mem)
        ids = [i.id for s in mem.sessions("A") for i in mem.store.session_items(s.id)]
        hashes = {text_hash(t) for t in mem.store.vector_texts(ids).values()}
        model = mem.embeddings.model
        assert len(hashes) >= 10 and set(mem.store.cached_vectors(model, sorted(hashes))) == hashes
        assert mem.gc(now=datetime.now(UTC) + timedelta(days=8)).changes_pruned > 0
        assert set(mem.store.cached_vectors(model, sorted(hashes))) == hashes
    finally:
        mem.close()
