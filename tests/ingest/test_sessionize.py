from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memlane.errors import ValidationError
from memlane.serve.cli_export import export_lines
from memlane.testing import memory

T0 = datetime(2024, 5, 1, 10, 0, tzinfo=UTC)


def test_gap_opens_a_new_session_per_scope(mem):
    a1 = mem.add_message("a", "user", "one", T0)
    b1 = mem.add_message("b", "user", "other scope", T0 + timedelta(minutes=45))
    a2 = mem.add_message("a", "assistant", "two", T0 + timedelta(minutes=29))
    a3 = mem.add_message("a", "user", "three", T0 + timedelta(minutes=29 + 31))
    assert a1.session_id == a2.session_id != a3.session_id
    assert b1.session_id not in (a1.session_id, a3.session_id)
    assert (a1.seq, a2.seq, a3.seq) == (1, 2, 1)
    first = mem.session(a1.session_id)
    assert (first.status, first.closed_reason, first.message_count) == ("closed", "gap", 2)
    assert mem.session(a3.session_id).status == "open"
    c = mem.stats()["counters"]
    assert (c["sessions_opened"], c["sessions_closed_gap"]) == (3, 1)


def test_gap_is_configurable(tmp_path):
    m = memory(tmp_path / "g.db", ingest={"session_gap_minutes": 5})
    a = m.add_message("s", "user", "x", T0)
    b = m.add_message("s", "user", "y", T0 + timedelta(minutes=6))
    assert a.session_id != b.session_id
    m.close()


def test_close_session_and_idle_sweep(mem):
    m1 = mem.add_message("a", "user", "hello", T0)
    mem.add_message("b", "user", "hello", T0 + timedelta(minutes=50))
    closed = mem.close_session("a")
    assert closed.id == m1.session_id and closed.closed_reason == "explicit"
    assert mem.close_session("a") is None
    assert mem.close_idle(now=T0 + timedelta(minutes=70)) == []  # b is 20 min idle
    ids = mem.close_idle(now=T0 + timedelta(minutes=90))
    assert len(ids) == 1 and mem.session(ids[0]).closed_reason == "idle"


def test_secrets_are_redacted_before_storage(mem):
    m = mem.add_message("a", "user", "my key is sk-abcdefghijklmnopqrstuvwxyz123", T0)
    stored = mem.messages(m.session_id)[0]
    assert "sk-abc" not in stored.text and "[REDACTED:api_key#" in stored.text
    assert stored.redactions == 1
    row = mem.store.db.execute("SELECT group_concat(text) FROM messages").fetchone()[0]
    assert "sk-abc" not in row


@pytest.mark.parametrize(("kwargs", "field"), [
    ({"scope": "", "role": "user", "text": "x"}, "scope"),
    ({"scope": "s", "role": "robot", "text": "x"}, "role"),
    ({"scope": "s", "role": "user", "text": "   "}, "text"),
    ({"scope": "s", "role": "user", "text": 5}, "text"),
    ({"scope": "s", "role": "user", "text": "x", "at": "yesterday"}, "at"),
    ({"scope": "s", "role": "user", "text": "x" * 100_001}, "text"),
])
def test_bad_input_names_the_field_and_stores_nothing(mem, kwargs, field):
    with pytest.raises(ValidationError) as e:
        mem.add_message(**kwargs)
    assert e.value.field == field and str(e.value).startswith(field)
    assert mem.stats()["messages"] == 0


def test_duplicate_message_id_is_refused(mem):
    mem.add_message("s", "user", "x", T0, id="m1")
    with pytest.raises(ValidationError, match="already exists"):
        mem.add_message("s", "user", "y", T0, id="m1")
    assert mem.stats()["messages"] == 1


def test_times_are_utc_and_naive_means_utc(mem):
    m = mem.add_message("s", "user", "x", "2024-05-01T12:00:00+02:00")
    n = mem.add_message("s", "user", "y", datetime(2024, 5, 1, 10, 1))
    assert m.at == T0 and n.at == T0 + timedelta(minutes=1)


def test_agent_and_project_are_redacted_as_speaker_and_id_are(tmp_path):
    """A message's agent and project labels were stored (and exported, and copied to its
    turn's item) as given, secret and all; a search filtering by them still finds it."""
    key = "sk-proj-Zk8Qm3Lp9Vx2Rt7Yn4Bc6HdPwQ1aB2cD3eF4"
    project = "deploy ghp_4kT9vQ2mZx7LpW3nR8sY5bJ1cH6dF0gA2eU9"
    path = tmp_path / "m.db"
    mem = memory(path)
    try:
        msg = mem.add_message("s", "user", "the deploy of the billing service failed",
                              datetime(2024, 1, 1, tzinfo=UTC), agent=key, project=project)
        assert key not in msg.agent and "ghp_" not in msg.project and msg.redactions == 2
        mem.upsert("a note on billing", scope="s", agent=key, project=project)
        mem.close_session("s")
        mem.index(now=datetime(2024, 2, 1, tzinfo=UTC))
        assert key not in str(list(export_lines(mem)))
        hits = mem.search("billing", scope="s", agent=key, project=project)
        assert {h.item.kind for h in hits} >= {"turn", "note"}
        raw = b"".join(p.read_bytes() for p in (path, Path(f"{path}-wal")) if p.exists())
    finally:
        mem.close()
    assert key.encode() not in raw and b"ghp_4kT9" not in raw
