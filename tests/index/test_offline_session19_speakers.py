"""Session 19: the facts of named speakers (docs/session-intelligence.md, facts; docs/summary-eval.md,
"Session 19: facts of named speakers"). In a conversation between named people "I", "my" and "my
sister" are the speaker's (``Caroline``, ``Caroline's sister``), so two people's facts are never
one subject's and one never supersedes the other; a chat between the user and the assistant
keeps ``user``. And advice the user only heard is no decision of theirs. Each through a real
SQLite memory where supersession is what is tested."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.index.normalize import normalize_name
from memlane.testing import add_sessions, memory, offline_summary

NOW = datetime(2026, 6, 1, tzinfo=UTC)


def _current(mem, scope: str = "chat") -> set[tuple[str, str, str]]:
    return {(f.subject, f.predicate, f.object) for f in mem.facts(scope, now=NOW)}


def test_two_speakers_contradicting_each_other_keep_both_facts(tmp_path) -> None:
    mem = memory(tmp_path / "m.db")
    add_sessions(mem, [
        (30, [("Caroline", "I live in Boston and I'm a nurse. My sister lives in Austin."),
              ("Melanie", "Lovely! I live in Denver, I'm a teacher. My sister lives in Miami.")]),
        (10, [("Melanie", "How are things?"), ("Caroline", "Busy, the night shifts are long.")]),
    ], now=NOW, speakers=True)
    current = _current(mem)
    assert {("Caroline", "lives_in", "Boston"), ("Melanie", "lives_in", "Denver"),
            ("Caroline", "job", "nurse"), ("Melanie", "job", "teacher"),
            ("Caroline's sister", "lives_in", "Austin"), ("Melanie's sister", "lives_in", "Miami")} <= current
    assert not [f for f in mem.facts("chat", include_superseded=True, now=NOW) if f.status != "current"]
    assert not {s for s, _, _ in current} & {"user", "user's sister"}
    # each shown by its own subject, however it is spelled
    assert [f.object for f in mem.facts("chat", subject="caroline", now=NOW) if f.predicate == "lives_in"] == ["Boston"]
    assert [h["object"] for h in mem.fact_history("MELANIE", "lives_in", scope="chat", now=NOW)] == ["Denver"]
    mem.close()


def test_a_speaker_contradicting_themselves_supersedes_as_before(tmp_path) -> None:
    mem = memory(tmp_path / "m.db")
    add_sessions(mem, [
        (30, [("Caroline", "I live in Boston. My brother lives in Toronto."), ("Melanie", "Nice, I live in Denver.")]),
        # the same person, her name spelled in lower case by another client
        (10, [("caroline", "Big news: I moved to Chicago! My brother moved to Vancouver."),
              ("Melanie", "Wow, congratulations!")]),
    ], now=NOW, speakers=True)
    history = mem.fact_history("Caroline", "lives_in", scope="chat", now=NOW)
    assert [(h["object"], h["status"]) for h in history] == [("Boston", "superseded"), ("Chicago", "current")]
    history = mem.fact_history("Caroline's brother", "lives_in", scope="chat", now=NOW)
    assert [(h["object"], h["status"]) for h in history] == [("Toronto", "superseded"), ("Vancouver", "current")]
    assert ("Melanie", "lives_in", "Denver") in _current(mem)
    mem.close()


def test_a_chat_with_the_assistant_keeps_the_subject_user(tmp_path) -> None:
    mem = memory(tmp_path / "m.db")
    add_sessions(mem, [
        (30, [("user", "I live in Leeds. My sister Ana is a nurse."), ("assistant", "Noted.")]),
        (10, [("user", "I moved to York last month."), ("assistant", "Congratulations!")]),
    ], now=NOW)
    history = mem.fact_history("user", "lives_in", scope="chat", now=NOW)
    assert [(h["object"], h["status"]) for h in history] == [("Leeds", "superseded"), ("York", "current")]
    assert {("user", "sister", "Ana"), ("Ana", "job", "nurse")} <= _current(mem)
    mem.close()


def test_a_speakers_own_facts_are_in_the_profile_lane(tmp_path) -> None:
    mem = memory(tmp_path / "m.db")
    add_sessions(mem, [
        (3, [("Caroline", "I live in Boston. My sister lives in Austin."), ("Melanie", "I live in Denver.")]),
    ], now=NOW, speakers=True)
    lanes = {f.subject: mem.store.get_items([f.item_id])[f.item_id].lane for f in mem.facts("chat", now=NOW)}
    assert lanes == {"Caroline": "profile", "Melanie": "profile", "Caroline's sister": "semantic"}
    mem.close()


def test_a_speakers_own_fact_is_shown_by_name_and_embedded_as_the_users(tmp_path) -> None:
    """"Caroline lives in Boston" is the fact's text (the pack, search results, MCP), but its
    vector is that of "user lives in Boston", as her turns are embedded without her name: the
    name pulled all of a speaker's facts up alike in a chat between its speakers (LoCoMo)."""
    import numpy as np

    mem = memory(tmp_path / "m.db")
    add_sessions(mem, [
        (3, [("Caroline", "I live in Boston. My sister lives in Austin."), ("Melanie", "I live in Denver.")]),
    ], now=NOW, speakers=True)
    facts = {f.subject: f for f in mem.facts("chat", now=NOW)}
    items = mem.store.get_items([f.item_id for f in facts.values()])
    vectors = mem.store.item_vectors(mem.embeddings.model, [f.item_id for f in facts.values()])
    for subject, text, embedded in [("Caroline", "Caroline lives in Boston", "user lives in Boston"),
                                    ("Caroline's sister", "Caroline's sister lives in Austin",
                                     "user's sister lives in Austin"),
                                    ("Melanie", "Melanie lives in Denver", "user lives in Denver")]:
        item_id = facts[subject].item_id
        assert items[item_id].text == text
        np.testing.assert_allclose(vectors[item_id], mem.embedder.embed_batch([embedded])[0], rtol=1e-5, atol=1e-6)
    mem.close()


def test_a_relatives_name_is_the_speakers_own() -> None:
    """Caroline's "my daughter Maya" does not make Melanie's "my daughter" Maya."""
    facts = {(f.subject, f.predicate, f.object) for f in offline_summary(
        "Caroline: My daughter Maya is allergic to bees.",
        "Melanie: Oh no! My daughter is allergic to peanuts.",
        "Caroline: My daughter is 7 now.",
    )[1].facts}
    assert {("Caroline", "daughter", "Maya"), ("Maya", "allergic_to", "bees"),
            ("Melanie's daughter", "allergic_to", "peanuts"), ("Maya", "age", "7")} <= facts
    assert ("Maya", "allergic_to", "peanuts") not in facts


_NAMES = st.one_of(
    st.sampled_from(["Caroline", "Melanie", "Jon", "Mary Ann", "Priya", "José", "Dr Okafor", "Li", "Gina", "Tim"]),
    st.from_regex(r"[A-Z][a-z]{1,8}( [A-Z][a-z]{1,8})?", fullmatch=True),
).filter(lambda n: normalize_name(n) not in ("user", "assistant", "team"))
_PLACES = ["Boston", "Denver", "Leeds", "York", "Lisbon", "Toronto", "Cape Town", "Osaka"]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(names=st.lists(_NAMES, min_size=2, max_size=3, unique_by=normalize_name),
       said=st.lists(st.tuples(st.integers(0, 2), st.sampled_from(_PLACES),
                               st.sampled_from(["I live in {}.", "I moved to {}!", "My sister lives in {}."])),
                     min_size=2, max_size=6),
       data=st.data())
def test_no_fact_of_one_speaker_supersedes_anothers(tmp_path_factory, names, said, data) -> None:
    """Whatever the names and whoever says what in which session, a superseded fact was only ever
    superseded by a fact of the same speaker."""
    mem = memory(tmp_path_factory.mktemp("speakers") / "m.db")
    sessions, days = [], 60
    for who, place, template in said:
        speaker = names[who % len(names)]
        other = next(n for n in names if n != speaker)
        spelled = data.draw(st.sampled_from([speaker, speaker.lower(), speaker.upper()]))
        sessions.append((days, [(spelled, template.format(place)), (other, "Oh nice.")]))
        days -= 5
    add_sessions(mem, sessions, now=NOW, speakers=True)
    facts = {f.id: f for f in mem.facts("chat", include_superseded=True, now=NOW)}

    def owner(subject: str) -> str:
        return normalize_name(subject.split("'s ")[0])

    assert facts and all(owner(f.subject) in {normalize_name(n) for n in names} for f in facts.values())
    for f in facts.values():
        if f.superseded_by is not None:
            assert owner(facts[f.superseded_by].subject) == owner(f.subject)
    mem.close()


# -- decisions: advice the user only heard is no decision of theirs ------------------------------

_ADVICE = ("user: Should I buy new running shoes now or wait for the sale?",
           "assistant: Buy them now so they are broken in before the race.")


def _decisions(*turns: str) -> set[tuple[str, str, str]]:
    return {(f.subject, f.predicate, f.object) for f in offline_summary(*turns)[1].facts
            if f.predicate in ("decided", "suggested")}


def test_advice_the_user_takes_up_is_their_decision() -> None:
    for reply in ("user: Makes sense, I'll buy them today.", "user: Thanks, will do!", "user: Oh, good idea."):
        got = _decisions(*_ADVICE, reply)
        assert ("user", "decided", "Buy new running shoes now") in got, reply
        assert not [d for d in got if d[0] == "assistant"], reply


def test_advice_the_user_only_heard_or_turned_down_is_the_assistants() -> None:
    for reply in ((), ("user: No, I'd rather wait for the sale.",), ("user: Actually the race got cancelled.",),
                  ("user: How long do running shoes usually last?",)):
        assert _decisions(*_ADVICE, *reply) == {("assistant", "suggested", "Buy new running shoes now")}, reply


def test_what_the_assistant_did_on_request_is_the_users_decision() -> None:
    """The user asked for it: done on request, it is no advice, whatever follows."""
    assert _decisions("user: Can you move my delivery to Saturday morning?",
                      "assistant: I have moved your delivery to Saturday between 9 and 12.") == {
        ("user", "decided", "Move your delivery to Saturday between 9 and 12")}
    assert _decisions("user: Please cancel my gym membership, I am moving abroad.", "assistant: Done.",
                      "user: Do I need to return the key card?") == {("user", "decided", "Cancel my gym membership")}


def test_suggestions_accumulate_rather_than_supersede(tmp_path) -> None:
    mem = memory(tmp_path / "m.db")
    add_sessions(mem, [
        (20, [("user", "Should I buy new running shoes now or wait for the sale?"),
              ("assistant", "Buy them now so they are broken in before the race.")]),
        (10, [("user", "Should I take the train or fly to Edinburgh?"),
              ("assistant", "Take the train, it is quicker door to door.")]),
    ], now=NOW)
    said = [f for f in mem.facts("chat", include_superseded=True, now=NOW) if f.subject == "assistant"]
    assert len(said) == 2 and {f.status for f in said} == {"current"}
    assert not [f for f in mem.facts("chat", subject="user", now=NOW) if f.predicate == "decided"]
    mem.close()


_CHAT_FILLERS = ["btw", "tbh", "lol", "haha", "though", "tho", "anyway", "anyways", "too", "as well",
                 "actually", "honestly"]


@settings(max_examples=40, deadline=None)
@given(place=st.sampled_from(_PLACES), filler=st.sampled_from(_CHAT_FILLERS),
       tail=st.sampled_from(["", " so I'm an hour ahead of nobody", ", it's nice", "!"]))
def test_a_chat_filler_after_a_value_is_no_part_of_it(place, filler, tail) -> None:
    """"I live in Leeds btw so…" is Tom lives_in Leeds, not "Leeds btw" (session 19)."""
    facts = {(f.subject, f.predicate, f.object) for f in offline_summary(
        "Maya: Where is everyone based?", f"Tom: I live in {place} {filler}{tail}")[1].facts}
    assert ("Tom", "lives_in", place) in facts
