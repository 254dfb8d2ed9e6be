"""LLMIntelligence end to end against a real loopback chat server."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from memlane.backends.llm import LLMBadResponse, OpenAIChat
from memlane.backends.llm.factory import make_intelligence
from memlane.config import Config, LLMServiceConfig
from memlane.errors import ConfigError
from memlane.index.llm_intel import LLMIntelligence, format_transcript, summarize_prompt
from memlane.index.offline import OfflineIntelligence
from memlane.index.schema import Entity, Fact, Relation
from memlane.testing.llm_server import ChatServer
from memlane.types import Message

T0 = datetime(2024, 3, 4, 9, 15, tzinfo=UTC)
TURNS = [
    ("user", "Ana", 0, "Hi! I just moved to Lisbon last month and I need a quiet coworking space."),
    ("assistant", None, 1, "Welcome to Lisbon! Any neighbourhood you prefer?"),
    ("user", "Ana", 3,
     "Near Alfama. My sister Marta lives there. I'm allergic to cats, so no office pets."),
    ("assistant", None, 5, "Noted. Heden Alfama and Second Home are options; see https://heden.pt/alfama."),
    ("user", "Ana", 9, "Let's go with Heden if it's under 200 EUR a month. I'll visit on Friday."),
]


def conversation(turns: list[tuple[str, str | None, int, str]] = TURNS) -> list[Message]:
    return [
        Message(id=100 + i, session_id=7, scope="user:ana", role=role, text=text,
                at=T0 + timedelta(minutes=minute), seq=i + 1, speaker=speaker)
        for i, (role, speaker, minute, text) in enumerate(turns)
    ]


ANSWER = {
    "topic": "Finding a coworking space in Lisbon",
    "context": "Ana moved to Lisbon and looked for a quiet coworking space near Alfama.",
    "decisions": ["Go with Heden if it costs under 200 EUR a month", "  "],
    "rationale": ["Near her sister in Alfama"],
    "open_questions": [],
    "next_steps": ["Visit Heden on Friday", "Visit Heden on Friday"],
    "action_items": ["Ana: visit Heden on Friday"],
    "references": ["https://heden.pt/alfama"],
    "topic_tags": ["Coworking", "lisbon"],
    "entities": [
        {"name": "Lisbon", "type": "Place", "context": "where Ana moved"},
        {"name": "Marta", "type": "person", "context": "Ana's sister"},
        {"name": "lisbon", "type": "place"},
        {"name": "Heden Alfama"},
    ],
    "facts": [
        {"subject": "I", "predicate": "Lives In", "object": "Lisbon", "source": "stated",
         "turn": 1},
        {"subject": "user", "predicate": "sister", "object": "Marta", "turn": 3},
        {"subject": "The user", "predicate": "allergic to", "object": "cats", "source": "stated",
         "turn": 3},
        {"subject": "Marta", "predicate": "living_in", "object": "Alfama", "source": "guessed",
         "turn": 99},
        {"subject": "user", "predicate": "lives_in", "object": "lisbon", "turn": 1},
        {"subject": "user", "predicate": "likes", "object": " ", "turn": 1},
    ],
    "relations": [
        {"from": "User", "relation": "Sister", "to": "Marta"},
        {"from": "Marta", "relation": "lives in", "to": "Alfama"},
    ],
    # fields the model must not decide: ignored
    "time_start": "1999-01-01T00:00:00", "turn_count": 99, "participants": ["Bob"],
}


@pytest.fixture
def intel(srv: ChatServer) -> Iterator[LLMIntelligence]:
    llm = OpenAIChat(srv.base_url, "test-model", backoff_base=0.01,
                     api_key_env="MEMLANE_TEST_NO_SUCH_KEY")
    backend = LLMIntelligence(llm)
    yield backend
    backend.close()


def test_summarize_end_to_end(srv: ChatServer, intel: LLMIntelligence) -> None:
    srv.script_json(ANSWER)
    messages = conversation()
    summary, extraction = intel.summarize("user:ana", messages)

    assert intel.name == "llm:openai:test-model"
    assert summary.topic == "Finding a coworking space in Lisbon"
    assert summary.context.startswith("Ana moved to Lisbon")
    assert summary.decisions == ("Go with Heden if it costs under 200 EUR a month",)
    assert summary.rationale == ("Near her sister in Alfama",)
    assert summary.open_questions == ()
    assert summary.next_steps == ("Visit Heden on Friday",)
    assert summary.action_items == ("Ana: visit Heden on Friday",)
    assert summary.references == ("https://heden.pt/alfama",)
    assert summary.topic_tags == ("coworking", "lisbon")
    assert summary.entities == ("Lisbon", "Marta", "Heden Alfama")
    # from the messages, not the model
    assert summary.time_start == T0 and summary.time_end == T0 + timedelta(minutes=9)
    assert summary.participants == ("Ana", "assistant")
    assert summary.turn_count == 5
    assert summary.model == "test-model"

    assert extraction.entities == (
        Entity("Lisbon", "place", "where Ana moved"),
        Entity("Marta", "person", "Ana's sister"),
        Entity("Heden Alfama", "thing", ""),
    )
    # the user's turns carry Ana's name: "I", "user" and "The user" are Ana (session 19)
    assert extraction.facts == (
        Fact("Ana", "lives_in", "Lisbon", "stated", 1,
             "I just moved to Lisbon last month and I need a quiet coworking space."),
        Fact("Ana", "sister", "Marta", "stated", 3, "My sister Marta lives there."),
        Fact("Ana", "allergic_to", "cats", "stated", 3,
             "I'm allergic to cats, so no office pets."),
        Fact("Marta", "lives_in", "Alfama", "inferred", None, ""),
    )
    assert extraction.relations == (
        Relation("Ana", "sister", "Marta", 3),
        Relation("Marta", "lives_in", "Alfama", None),
    )
    assert extraction.extra == {"backend": "llm:openai:test-model"}


def test_prompt_sent_to_the_model(srv: ChatServer, intel: LLMIntelligence) -> None:
    srv.script_json({"topic": "t", "context": "c"})
    intel.summarize("user:ana", conversation())
    req = srv.chat_requests[-1]
    system, user = req.messages
    assert system == {"role": "system", "content": summarize_prompt()}
    assert "subject" in system["content"] and '"user"' in system["content"]
    assert req.body["response_format"] == {"type": "json_object"}
    content = user["content"]
    assert "Conversation scope: user:ana" in content
    assert "Session: Mon 2024-03-04 09:15 UTC to Mon 2024-03-04 09:24 UTC" in content
    assert "Participants: Ana, assistant" in content
    assert "[1] user (Ana): Hi! I just moved to Lisbon" in content
    assert "[2] assistant: Welcome to Lisbon!" in content
    assert content.rstrip().endswith("[5] user (Ana): Let's go with Heden if it's under 200 EUR a "
                                     "month. I'll visit on Friday.")


def test_minimal_answer_gives_empty_fields(srv: ChatServer, intel: LLMIntelligence) -> None:
    srv.script_json({"topic": "t", "context": "c"})
    summary, extraction = intel.summarize("s", conversation())
    assert (summary.topic, summary.context) == ("t", "c")
    assert summary.decisions == () and summary.entities == () and summary.topic_tags == ()
    assert extraction.facts == () and extraction.relations == () and extraction.entities == ()


def test_malformed_answers_are_repaired_then_given_up(
    srv: ChatServer, intel: LLMIntelligence
) -> None:
    srv.script("Here is the summary: topic is coworking.",
               '```json\n{"topic": "t", "context": "c"}\n```')
    summary, _ = intel.summarize("s", conversation())
    assert summary.topic == "t" and len(srv.chat_requests) == 2
    srv.reply = lambda body: '{"topic": 3, "context": "c"}'
    with pytest.raises(LLMBadResponse, match=r"\$\.topic: expected string"):
        intel.summarize("s", conversation())


def test_secrets_in_the_session_never_reach_the_model(
    srv: ChatServer, intel: LLMIntelligence
) -> None:
    srv.script_json({"topic": "t", "context": "c"})
    turns = [*TURNS[:2], ("user", "Ana", 4, "my token is ghp_abcdefghijklmnopqrstuvwxyz0123456789")]
    intel.summarize("s", conversation(turns))
    raw = srv.chat_requests[-1].raw.decode()
    assert "ghp_abcdef" not in raw and "[REDACTED:api_key#" in raw


def test_long_session_is_cut_keeping_first_and_last_turns(srv: ChatServer) -> None:
    turns = [("user" if i % 2 == 0 else "assistant", None, i, f"message number {i} " + "x" * 100)
             for i in range(200)]
    srv.script_json({"topic": "t", "context": "c",
                     "facts": [{"subject": "user", "predicate": "p", "object": "o", "turn": 200}]})
    with OpenAIChat(srv.base_url, "m", api_key_env="MEMLANE_TEST_NO_SUCH_KEY") as llm:
        summary, extraction = LLMIntelligence(llm, max_input_tokens=1000).summarize(
            "s", conversation(turns))
    content = srv.chat_requests[-1].messages[1]["content"]
    transcript = content.split("Transcript:\n", 1)[1]
    assert len(transcript) <= 1000 * 4
    assert transcript.startswith("[1] user: message number 0 ")
    assert transcript.rstrip().endswith("[200] assistant: message number 199 " + "x" * 100)
    assert "[100] " not in transcript
    omitted = extraction.extra["turns_omitted"]
    assert 150 < omitted < 199
    assert f"[… {omitted} turns omitted here (turns 2-{omitted + 1})" in transcript
    assert f"Turns: 200 ({omitted} left out of this transcript for length)" in content
    assert summary.turn_count == 200  # the whole session, not what was sent
    assert extraction.facts[0].seq == 200


def test_format_transcript_clips_a_single_huge_turn() -> None:
    msgs = conversation([("user", None, 0, "word " * 5000)])
    text, omitted = format_transcript(msgs, 1000)
    assert omitted == 0 and len(text) <= 1000 and text.startswith("[1] user: word")
    assert text.endswith("[…]")


def test_format_transcript_marks_a_new_day() -> None:
    turns = [("user", None, 0, "evening"), ("assistant", None, 60 * 20, "next morning")]
    text, _ = format_transcript(conversation(turns), 10_000)
    assert text == "[1] user: evening\n--- 2024-03-05 ---\n[2] assistant: next morning"


def test_empty_session_is_refused(intel: LLMIntelligence) -> None:
    with pytest.raises(ValueError, match="at least one message"):
        intel.summarize("s", [])


def test_factory_offline_and_llm(srv: ChatServer) -> None:
    assert isinstance(make_intelligence(Config()), OfflineIntelligence)
    config = Config().replace(
        indexing={"backend": "llm", "service": "local", "model": "override-model",
                  "max_input_tokens": 2000},
        llm_services={"local": LLMServiceConfig(base_url=srv.base_url, model="svc-model",
                                                api_key_env="MEMLANE_TEST_NO_SUCH_KEY")},
    )
    backend = make_intelligence(config)
    try:
        assert isinstance(backend, LLMIntelligence)
        assert backend.name == "llm:openai:override-model"
        assert backend.max_input_tokens == 2000
        srv.script_json({"topic": "t", "context": "c"})
        summary, _ = backend.summarize("s", conversation())
        assert summary.model == "override-model"
        assert srv.chat_requests[-1].body["model"] == "override-model"
    finally:
        backend.close()


def test_factory_unknown_service_is_a_config_error() -> None:
    config = Config().replace(indexing={"backend": "llm", "service": "missing"})
    with pytest.raises(ConfigError, match="llm.services.missing"):
        make_intelligence(config)


def test_a_cjk_session_is_cut_to_max_input_tokens_as_the_model_counts_them(
    intel: LLMIntelligence,
) -> None:
    """Session 26 (review): the transcript was cut at 4 characters a token, which holds for
    English only: a Japanese session's "1000 tokens" were 4000 characters, over 3000 tokens
    in cl100k_base, so a model's context could be overrun. It is cut by the counter packs
    use (``pack.tokens.counter_for``) now."""
    from memlane.pack.tokens import counter_for

    turns = [("user" if i % 2 == 0 else "assistant", None, i,
              f"{i}番目のメッセージです。東京の天気は晴れで、明日は京都へ行きます。") for i in range(400)]
    intel.max_input_tokens = 1000
    chat, omitted = intel.prompt("s", conversation(turns))
    transcript = chat[1]["content"].split("Transcript:\n", 1)[1]
    assert counter_for(intel.model).count(transcript) <= 1000
    assert transcript.startswith("[1] user: 0番目") and "[400] assistant: 399番目" in transcript
    assert 0 < omitted < 399
    english = [("user", None, i, f"message number {i} about the weather") for i in range(60)]
    assert intel.prompt("s", conversation(english))[1] == 0  # what fitted still fits


def test_what_is_clipped_never_ends_inside_a_character(srv: ChatServer,
                                                       intel: LLMIntelligence) -> None:
    """Session 26 (review): ``memlane.clip`` cut everywhere else at whole graphemes; the
    LLM backend's own cut (a turn of the transcript, a field of the model's answer) still
    cut at a code point, leaving half a flag (a lone regional indicator) before ``[…]``."""
    flags = "a" + "🇵🇹" * 150  # odd: a cut at an even width falls inside a flag
    text, _ = format_transcript(conversation([("user", None, 0, flags)]), 211)
    srv.script_json({"topic": flags, "context": "c", "decisions": [flags + "🇵🇹" * 200]})
    summary, _ = intel.summarize("s", conversation())
    for cut in (text.removeprefix("[1] user: "), summary.topic, summary.decisions[0]):
        head = cut.removesuffix(" […]")
        assert head != cut and head.startswith("a🇵🇹") and head[1:].replace("🇵🇹", "") == "", cut

