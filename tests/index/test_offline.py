"""The offline intelligence backend on conversations written for these tests."""

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from memlane.index.offline import OfflineIntelligence, keyphrases
from memlane.index.schema import SUMMARY_SCHEMA_VERSION
from memlane.types import Message

T0 = datetime(2024, 3, 4, 9, 0, tzinfo=UTC)


def _msgs(turns):
    return [Message(i + 1, 1, "s", role, text, T0 + timedelta(minutes=i), i + 1)
            for i, (role, text) in enumerate(turns)]


PERSONAL = _msgs([
    ("user", "I just moved to Lisbon last week and I'm still unpacking."),
    ("assistant", "Welcome to Lisbon! How is the new flat?"),
    ("user", "Good, but my cat Miso hides under the sofa. I work at Feedzai near Oriente."),
    ("assistant", "Cats need a week or two. Keep her food in one quiet room."),
    ("user", "My sister Ana is visiting on April 20th. I'm vegetarian, by the way, and I prefer quiet restaurants."),
    ("assistant", "Noted. I'll suggest vegetarian places near Chiado."),
])

CODING = _msgs([
    ("user", "The login test in tests/test_auth.py fails after the upgrade. See issue #482."),
    ("assistant", "The token refresh changed in v2. We could pin the old client or adapt the test."),
    ("user", "Let's go with adapting the test, because pinning blocks the security fix."),
    ("assistant", "Agreed. I'll update tests/test_auth.py on branch fix/auth-refresh."),
    ("user", "Not sure yet whether we also need to bump the SDK in requirements.txt?"),
    ("assistant", "Next step is to run the full suite on CI after the change."),
])

PLANNING = _msgs([
    ("user", "We need to decide on the database for the billing service: Postgres or DynamoDB?"),
    ("assistant", "Postgres fits the relational invoices and the reporting queries."),
    ("user", "We decided to use PostgreSQL 16 with pgbouncer; BILL-142 tracks the migration."),
    ("assistant", "Decision recorded. The open question is sharding by customer or by month."),
])


def test_personal_conversation_fields():
    summary, ex = OfflineIntelligence().summarize("alice", PERSONAL)
    facts = {(f.subject, f.predicate, f.object) for f in ex.facts}
    assert ("user", "lives_in", "Lisbon") in facts
    assert ("user", "works_at", "Feedzai") in facts
    assert ("user", "cat", "Miso") in facts
    assert ("user", "sister", "Ana") in facts
    assert ("user", "diet", "vegetarian") in facts
    assert any(p == "likes" and "quiet restaurants" in o for _, p, o in facts)
    assert all(f.seq is not None and f.source == "stated" for f in ex.facts)
    lives = next(f for f in ex.facts if f.predicate == "lives_in")
    assert lives.seq == 1 and "moved to Lisbon" in lives.text
    ents = {e.name: e.type for e in ex.entities}
    assert ents["Lisbon"] == "place" and ents["Feedzai"] == "organization"
    assert ents["Miso"] == "pet" and ents["Ana"] == "person"
    assert {(r.source, r.relation, r.target) for r in ex.relations} >= {
        ("user", "sister", "Ana"), ("user", "lives_in", "Lisbon")}
    # a name said only with a capital is an entity, not a topic tag (session 22); the topic line keeps it
    assert "lisbon" in summary.topic and "lisbon" not in summary.topic_tags
    assert summary.turn_count == 6 and summary.participants == ("user", "assistant")
    assert summary.time_start == T0 and summary.time_end == T0 + timedelta(minutes=5)
    assert summary.model == "offline" and summary.schema_version == SUMMARY_SCHEMA_VERSION
    assert "Lisbon" in summary.context
    # the assistant offering suggestions commits to nothing beyond this conversation
    assert summary.action_items == () and summary.decisions == ()


def test_coding_conversation_fields():
    summary, _ = OfflineIntelligence().summarize("repo", CODING)
    assert set(summary.references) >= {"tests/test_auth.py", "#482", "fix/auth-refresh", "requirements.txt"}
    assert any("adapting the test" in d for d in summary.decisions)
    assert summary.rationale == ("Pinning blocks the security fix.",)  # split off the decision
    assert any("bump the SDK" in q for q in summary.open_questions)
    assert any("run the full suite" in n for n in summary.next_steps)
    assert any(a.startswith("assistant: ") and "update tests/test_auth.py" in a
               for a in summary.action_items)


def test_planning_conversation_fields():
    summary, ex = OfflineIntelligence().summarize("team", PLANNING)
    assert any("PostgreSQL 16" in d for d in summary.decisions)
    assert "BILL-142" in summary.references
    assert any("sharding" in q for q in summary.open_questions)
    assert {"postgres", "billing"} & {w for t in summary.topic_tags for w in t.split()}
    assert {e.name for e in ex.entities} >= {"PostgreSQL 16", "DynamoDB"}
    # no first-person statement about the user; the decision is a fact
    assert [(f.subject, f.predicate) for f in ex.facts] == [("user", "decided")]
    assert "PostgreSQL 16" in ex.facts[0].object and ex.facts[0].seq == 3
    flat = summary.flattened("team")
    assert flat.startswith("Conversation team · 2024-03-04 · between user, assistant · about ")
    assert "Decisions: " in flat and "References: " in flat


@pytest.mark.parametrize(("text", "expected"), [
    ("My favorite color is green.", ("favorite_color", "green")),
    ("I live in Porto, near the river.", ("lives_in", "Porto")),
    ("I started learning the cello two weeks ago.", ("started", "learning the cello")),
    ("My new job title is senior data engineer.", ("job", "senior data engineer")),
    ("I'm allergic to peanuts.", ("allergic_to", "peanuts")),
    ("I adopted a puppy named Rex yesterday.", ("acquired", "puppy named Rex")),
])
def test_first_person_patterns(text, expected):
    _, ex = OfflineIntelligence().summarize("s", _msgs([("user", text)]))
    assert expected in {(f.predicate, f.object) for f in ex.facts}


def test_assistant_turns_give_no_user_facts():
    _, ex = OfflineIntelligence().summarize("s", _msgs([("assistant", "I live in the cloud and I love tests.")]))
    assert ex.facts == ()


def test_keyphrases_rank_repeated_content_words():
    tags = keyphrases(["The billing service needs a database.", "Billing database choice: Postgres.",
                       "Postgres for billing."])
    assert tags[0] == "billing" and "postgres" in tags


PASSING = _msgs([
    ("user", "I'm putting together a talk on medieval crafts and I was wondering whether "
             "you might help me with the history of the Lewis chessmen. By the way, "
             "I saw them in person today at the British Museum - they were tiny. "
             "Can you give me three sources?"),
    ("assistant", "Of course. I read that the pieces are carved from walrus ivory and lapis."),
    ("user", "Thanks! Also, my weekends have been all about pottery classes lately."),
    ("user", "Do you have any tips on citations? I need some help with that."),
])


def test_observations_are_the_users_statements_not_their_requests():
    _, ex = OfflineIntelligence().summarize("s", PASSING)
    texts = {o.text: o.seq for o in ex.observations}
    # the passing mention, with its lead-in trimmed, from the turn it was said in
    assert texts.get("I saw them in person today at the British Museum - they were tiny.") == 1
    assert texts.get("my weekends have been all about pottery classes lately.") == 3
    # requests, questions and the assistant's words are not observations
    assert not any("wondering" in t or "tips" in t or "sources" in t or "lapis" in t for t in texts)
    assert len(texts) == 2


_TOKEN_PART = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=6)


@st.composite
def _dotted_values(draw):
    """A value whose punctuation is inside it: an email, a domain, a version, a number with
    a decimal point or a thousands comma, a URL."""
    parts = draw(st.lists(_TOKEN_PART, min_size=2, max_size=4))
    form = draw(st.sampled_from(["email", "domain", "version", "decimal", "thousands", "url"]))
    if form == "email":
        return f"{parts[0]}.{parts[1]}@example.com"
    if form == "domain":
        return ".".join(parts) + ".com"
    digits = [str(draw(st.integers(1, 999))) for _ in parts]
    if form == "version":
        return "Python " + ".".join(digits)
    if form == "decimal":
        return f"{digits[0]}.{digits[1]} kg"
    if form == "thousands":
        return f"{digits[0]},{draw(st.integers(100, 999))}"
    return "https://" + ".".join(parts) + ".dev/" + parts[0]


@settings(max_examples=60, deadline=None)
@given(value=_dotted_values(), noun=st.sampled_from(["email", "website", "weight", "salary", "handle"]),
       end=st.sampled_from([".", "!", ", if you need it.", "; noted?", ""]))
@example(value="0.next@example.com", noun="email", end=".")  # a clause word ("next") glued to a dot (session 19)
def test_a_stated_value_keeps_the_punctuation_inside_it(value, noun, end):
    """'my email is sam.patel@example.com' was stored as 'sam': a value ran only to the first
    '.', ',' or ':' wherever it stood (session 18). Punctuation ends a value only before a space
    or the end."""
    _, ex = OfflineIntelligence().summarize("s", _msgs([("user", f"By the way my {noun} is {value}{end}")]))
    assert (noun, value) in {(f.predicate, f.object) for f in ex.facts}


@pytest.mark.parametrize(("text", "expected"), [
    ("I work at Booking.com now.", ("works_at", "Booking.com")),
    ("I moved to St. Albans last year.", ("lives_in", "St. Albans")),
    ("I live in Washington, D.C. since May.", ("lives_in", "Washington")),
    ("I love pizza. Also pasta.", ("likes", "pizza")),
])
def test_a_value_ends_at_a_stop_not_at_a_dot_inside_a_name(text, expected):
    _, ex = OfflineIntelligence().summarize("s", _msgs([("user", text)]))
    assert expected in {(f.predicate, f.object) for f in ex.facts}


@pytest.mark.parametrize(("question", "remark", "answer"), [
    ("do we invite the neighbours from Rosenweg?", "she'd like that but it's a lot of people in our flat",
     "hmm no idea, let's think about it"),
    ("do we want their in-house caterer or bring our own?", "their menu is very meat-heavy",
     "ugh, good point. let's not decide that today"),
    ("Is the 500-item page limit still a thing?", "nobody remembers why we picked it", "no idea honestly"),
])
def test_a_question_mark_ends_a_sentence_before_a_small_letter(question, remark, answer):
    """In chat a sentence after a question often opens in lower case: "do we invite the
    neighbours? she'd like that…" was one sentence, so the question was no open question (and
    was even written as a decision) (session 18)."""
    summary, _ = OfflineIntelligence().summarize("s", _msgs([
        ("user", "ok planning sync for the weekend."), ("user", f"{question} {remark}"), ("user", answer)]))
    assert any(q.lower().startswith(question[:-1].lower()) for q in summary.open_questions), summary
    assert not any(question[:-1].lower() in d.lower() for d in summary.decisions)


def test_a_short_question_before_a_small_letter_runs_on():
    from memlane.index.offline import _sentences

    assert _sentences("The menu? we said tacos last time and nobody complained.") == [
        "The menu? we said tacos last time and nobody complained."]
    assert _sentences("do we invite the neighbours from Rosenweg? she'd like that.") == [
        "do we invite the neighbours from Rosenweg?", "she'd like that."]
