"""Strings a caller stores besides messages are redacted too (session 22): an upsert's
``topics`` (stored as the ``topic:<slug>`` keyword, lower-cased and hyphenated, which hid
the token from a search for its exact bytes), and a summary draft the caller edits before
``store_summary`` confirms it. ``thread`` and ``compact`` look a topic up redacted alike."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.testing import memory

GITHUB = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
STRIPE = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"
OPENAI = "sk-proj-" + "Zx81kQ2vL0pTr7bN4mC9sW3eY6uA5hJ1"


def _bytes_of(db: Path) -> bytes:
    return b"".join(p.read_bytes() for p in db.parent.iterdir() if p.name.startswith(db.name))


def _forms(secret: str) -> list[bytes]:
    """The secret as written and as a topic slug writes it (lower case, runs of other
    characters as one hyphen), its distinctive tail for each."""
    slug = re.sub(r"[^a-z0-9]+", "-", secret.lower()).strip("-")
    return [secret.encode(), slug.encode(), secret[-16:].encode(), secret[-16:].lower().encode()]


@settings(max_examples=8, deadline=None)
@given(secret=st.sampled_from([GITHUB, STRIPE, OPENAI]),
       around=st.sampled_from(["{} rotation", "token {}", "{}"]))
def test_a_secret_in_a_topic_is_not_stored(tmp_path_factory, secret: str, around: str) -> None:
    db = tmp_path_factory.mktemp("t") / "m.db"
    m = memory(db)
    try:
        topic = around.format(secret)
        item = m.upsert("we rotate deploy credentials monthly", kind="note", scope="ops",
                        topics=[topic])
        assert [i.id for i in m.thread(topic, scope="ops") if i.id == item]  # still found
        m.compact(scope="ops", topic=topic)
    finally:
        m.close()
    data = _bytes_of(db).lower()
    for form in _forms(secret):
        assert form.lower() not in data, form


def test_a_secret_in_an_edited_draft_is_not_stored(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    m = memory(db)
    try:
        m.add_message("ops", "user", "we decided to rotate the deploy key monthly",
                      at="2024-05-20T10:00:00Z")
        m.add_message("ops", "assistant", "agreed, monthly rotation it is",
                      at="2024-05-20T10:01:00Z")
        draft = m.summarize_recent("ops", last=2)
        edited = dataclasses.replace(draft, summary=dataclasses.replace(
            draft.summary, context=f"the new key is {GITHUB}",
            decisions=(*draft.summary.decisions, f"use {STRIPE}"),
            topic_tags=(*draft.summary.topic_tags, OPENAI), entities=(OPENAI,)))
        item_id = m.store_summary(edited)
        stored = m.item(item_id)
        assert "[REDACTED:" in stored.text
    finally:
        m.close()
    data = _bytes_of(db)
    for secret in (GITHUB, STRIPE, OPENAI):
        assert secret.encode() not in data and secret[-16:].encode() not in data, secret
