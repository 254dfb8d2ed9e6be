"""complete_json: JSON pulled out of replies, validated, repaired through a real server."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.backends.llm import (
    LLMBadResponse,
    OpenAIChat,
    SchemaViolation,
    complete_json,
    extract_json,
    validate_json,
)
from memlane.index.schema import SUMMARY_SCHEMA
from memlane.testing.llm_server import ChatServer

ASK = [{"role": "system", "content": "Answer in JSON."}, {"role": "user", "content": "go"}]
SCHEMA = {
    "type": "object",
    "required": ["name", "tags"],
    "properties": {
        "name": {"type": "string"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "n": {"type": "integer"},
    },
}


@pytest.fixture
def llm(srv: ChatServer) -> Iterator[OpenAIChat]:
    with OpenAIChat(srv.base_url, "test-model", backoff_base=0.01,
                    api_key_env="MEMLANE_TEST_NO_SUCH_KEY") as client:
        yield client


def test_plain_json_reply(srv: ChatServer, llm: OpenAIChat) -> None:
    srv.script_json({"name": "x", "tags": ["a"], "n": 3})
    assert complete_json(llm, ASK, SCHEMA) == {"name": "x", "tags": ["a"], "n": 3}
    assert srv.chat_requests[-1].body["response_format"] == {"type": "json_object"}
    assert srv.chat_requests[-1].messages == ASK


def test_fenced_json_with_prose_is_accepted(srv: ChatServer, llm: OpenAIChat) -> None:
    srv.script('Sure! Here it is:\n```json\n{"name": "fenced", "tags": []}\n```\nAnything else?')
    assert complete_json(llm, ASK, SCHEMA) == {"name": "fenced", "tags": []}
    assert len(srv.chat_requests) == 1  # no repair needed


def test_malformed_then_valid_sends_a_repair_turn(srv: ChatServer, llm: OpenAIChat) -> None:
    srv.script('{"name": "broken", "tags": [}', '{"name": "fixed", "tags": ["ok"]}')
    assert complete_json(llm, ASK, SCHEMA) == {"name": "fixed", "tags": ["ok"]}
    first, second = srv.chat_requests
    assert first.messages == ASK
    assert second.messages[: len(ASK)] == ASK
    assert second.messages[2] == {"role": "assistant", "content": '{"name": "broken", "tags": [}'}
    repair = second.messages[3]
    assert repair["role"] == "user"
    assert repair["content"].startswith("Your previous answer was not valid JSON: ")
    assert "only the JSON object" in repair["content"]


def test_schema_violation_is_repaired_with_its_path(srv: ChatServer, llm: OpenAIChat) -> None:
    srv.script_json({"name": "x", "tags": ["a", 7]}, {"name": "x", "tags": ["a", "7"]})
    assert complete_json(llm, ASK, SCHEMA) == {"name": "x", "tags": ["a", "7"]}
    assert "$.tags[1]: expected string, got integer" in srv.chat_requests[1].messages[-1]["content"]


def test_always_malformed_raises_bad_response(srv: ChatServer, llm: OpenAIChat) -> None:
    srv.reply = lambda body: "I cannot produce JSON today."
    with pytest.raises(LLMBadResponse) as info:
        complete_json(llm, ASK, SCHEMA, repairs=2)
    assert len(srv.chat_requests) == 3  # the ask and two repairs
    assert "no valid JSON after 3 attempts" in str(info.value)
    assert "no JSON object found" in str(info.value)
    assert info.value.reply == "I cannot produce JSON today."


def test_zero_repairs_makes_one_request(srv: ChatServer, llm: OpenAIChat) -> None:
    srv.script("nope", '{"name": "late", "tags": []}')
    with pytest.raises(LLMBadResponse, match="after 1 attempt:"):
        complete_json(llm, ASK, SCHEMA, repairs=0)
    assert len(srv.chat_requests) == 1 and srv.pending == 1


def test_violation_message_names_the_path() -> None:
    bad: dict[str, Any] = {
        "topic": "t", "context": "c",
        "facts": [{"subject": "user", "predicate": "likes", "object": "tea", "turn": 1},
                  {"subject": "user", "predicate": "likes", "object": "jazz", "turn": [2]}],
    }
    with pytest.raises(SchemaViolation) as info:
        validate_json(bad, SUMMARY_SCHEMA)
    assert info.value.path == "$.facts[1].turn"
    # a turn may be written "2" or null (taken as meant), not as a list
    assert str(info.value) == "$.facts[1].turn: expected integer or string or null, got array ([2])"
    missing = r"^\$\.entities\[0\]: missing required property 'name'$"
    with pytest.raises(SchemaViolation, match=missing):
        validate_json({"topic": "t", "context": "c", "entities": [{"type": "person"}]},
                      SUMMARY_SCHEMA)
    with pytest.raises(SchemaViolation, match=r"^\$: expected object, got array"):
        validate_json([], SUMMARY_SCHEMA)


def test_validator_types() -> None:
    validate_json(3.0, {"type": "integer"})  # an integral number is an integer in JSON Schema
    validate_json(None, {"type": ["string", "null"]})
    validate_json("b", {"enum": ["a", "b"]})
    for value, schema in [
        (True, {"type": "integer"}), (True, {"type": "number"}), (1, {"type": "boolean"}),
        (1.5, {"type": "integer"}), ("1", {"type": "number"}), ("c", {"enum": ["a", "b"]}),
    ]:
        with pytest.raises(SchemaViolation):
            validate_json(value, schema)


def test_extract_json_variants() -> None:
    assert extract_json('{"a": 1}') == {"a": 1}
    assert extract_json('<think>maybe {"a": 0}?</think>\n{"a": 2}') == {"a": 2}
    assert extract_json('Result: {"a": {"b": [1, 2]}} -- done {not json}') == {"a": {"b": [1, 2]}}
    assert extract_json("```\n[1, 2]\n```", want="array") == [1, 2]
    with pytest.raises(ValueError, match="empty"):
        extract_json("   ")
    with pytest.raises(ValueError, match="does not parse"):
        extract_json('{"a": 1,,}')
    # valid JSON that Python refuses (an integer past 4,300 digits) read exc.msg, which only
    # a JSONDecodeError has: an AttributeError instead of a reason (session 18)
    with pytest.raises(ValueError, match="does not parse: .*digits"):
        extract_json('{"turn": ' + "9" * 5000 + "}")


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=10,
)


@settings(max_examples=150, deadline=None)
@given(obj=st.dictionaries(st.text(max_size=6), _json, max_size=4),
       before=st.sampled_from(["", "Here you go: ", "Sure.\n\n", "Answer (JSON):\n"]),
       after=st.sampled_from(["", "\nHope this helps!", " -- end", "\n\nNote: {braces} here"]),
       fence=st.booleans(), indent=st.sampled_from([None, 2]))
def test_extract_json_finds_any_wrapped_object(
    obj: dict[str, Any], before: str, after: str, fence: bool, indent: int | None
) -> None:
    body = json.dumps(obj, indent=indent)
    if fence:
        body = f"```json\n{body}\n```"
    assert extract_json(before + body + after) == obj


def test_a_draft_json_in_the_reasoning_is_never_the_answer(srv: ChatServer, llm: OpenAIChat) -> None:
    # DeepSeek-R1 or qwen3 through vLLM without a reasoning parser: the chat template opens
    # <think> in the prompt, so the answer holds only its end; the draft before it was
    # taken for the answer, and so was a draft in reasoning cut before its end
    lone_end = 'Maybe {"topic": "draft"} fits.\n</think>\n\n{"topic": "final"}'
    assert extract_json(lone_end) == {"topic": "final"}
    with pytest.raises(ValueError, match="only reasoning"):
        extract_json('<think>I could answer {"topic": "draft"} but')
    srv.script('<think>I could answer {"topic": "draft"} but', '{"topic": "final"}')
    assert complete_json(llm, [{"role": "user", "content": "hi"}], {"type": "object"}) == {
        "topic": "final"}
    repair = srv.chat_requests[-1].messages[-1]["content"]
    assert "only reasoning" in repair


@given(st.text(max_size=30), _json)
def test_json_before_a_lone_think_end_is_reasoning(reasoning: str, value: object) -> None:
    answer = {"answer": value}
    text = f'{reasoning} {{"draft": 1}}\n</think>\n{json.dumps(answer)}'
    assert extract_json(text) == answer


def test_the_object_asked_for_in_a_list_of_one_is_the_answer(srv: ChatServer, llm: OpenAIChat) -> None:
    # small local models wrap the object in a list: a repair turn each time, and a model that
    # always does failed every session after three requests
    srv.script_json([{"topic": "Lisbon", "context": "moving"}])
    schema = {"type": "object", "required": ["topic"]}
    assert complete_json(llm, [{"role": "user", "content": "hi"}], schema) == {
        "topic": "Lisbon", "context": "moving"}
    assert len(srv.chat_requests) == 1
    srv.script_json([{"topic": "a"}, {"topic": "b"}], {"topic": "c"})  # two: not meant as one
    assert complete_json(llm, [{"role": "user", "content": "hi"}], schema) == {"topic": "c"}


@pytest.mark.parametrize("reply", ["[" * 100_000, "Here it is: " + '{"a": ' * 50_000,
                                   "```json\n" + "[" * 100_000 + "\n```"])
def test_a_reply_nested_past_any_depth_is_repaired_not_a_crash(
        srv: ChatServer, llm: OpenAIChat, reply: str) -> None:
    # a small model repeating itself ('[[[[…') raised RecursionError out of complete_json,
    # past the repair loop and every caller's LLMError handling
    with pytest.raises(ValueError):
        extract_json(reply)
    srv.script(reply, '{"topic": "ok"}')
    assert complete_json(llm, [{"role": "user", "content": "hi"}], {"type": "object"}) == {
        "topic": "ok"}
    assert len(srv.chat_requests) == 2


def test_json_encoded_twice_is_the_value_it_holds(srv: ChatServer, llm: OpenAIChat) -> None:
    # '"{\"topic\": …}"' (a proxy or model encoding the JSON once more) was a string,
    # 'expected object, got string', and a repair turn each time
    answer = {"topic": "Lisbon", "facts": [{"turn": 2}]}
    srv.script(json.dumps(json.dumps(answer)))
    assert complete_json(llm, [{"role": "user", "content": "hi"}], {"type": "object"}) == answer
    assert len(srv.chat_requests) == 1
    assert extract_json(json.dumps("{not json"), want=None) == "{not json"


@given(_json)
def test_any_json_value_encoded_twice_reads_as_once(value: object) -> None:
    once = extract_json(json.dumps(value), want=None) if isinstance(value, (dict, list)) else None
    if once is not None:
        assert extract_json(json.dumps(json.dumps(value)), want=None) == once


@pytest.mark.parametrize("size", [16_001, 300_000, 3_000_000])
def test_a_repair_turn_sends_back_a_bounded_part_of_a_huge_bad_answer(
        srv: ChatServer, llm: OpenAIChat, size: int) -> None:
    """A repair turn sent the whole malformed answer back: a model that rambled for megabytes
    made a repair request as large (past any context window). It now carries at most
    REPAIR_ECHO_CHARS of it, its start and its end, and says how much it left out."""
    from memlane.backends.llm.base import REPAIR_ECHO_CHARS

    bad = '{"name": "' + "x" * (size - 22) + '", "tags": ['  # an object never closed
    assert len(bad) == size
    srv.script(bad, '{"name": "fixed", "tags": []}')
    assert complete_json(llm, ASK, SCHEMA) == {"name": "fixed", "tags": []}
    echo = srv.chat_requests[1].messages[2]
    assert echo["role"] == "assistant"
    assert len(echo["content"]) <= REPAIR_ECHO_CHARS + 100
    assert echo["content"].startswith('{"name": "xxx') and echo["content"].endswith('xxx", "tags": [')
    assert f"[… {size - REPAIR_ECHO_CHARS:,} characters of this answer left out …]" \
        in echo["content"]
    assert srv.chat_requests[1].messages[3]["content"].startswith(
        "Your previous answer was not valid JSON: ")


def test_a_repair_turn_leaves_out_the_answers_reasoning(srv: ChatServer, llm: OpenAIChat) -> None:
    """A reasoning model's <think> block (often most of its answer) is not sent back."""
    srv.script("<think>" + "hmm " * 10_000 + '</think>{"name": 3}', '{"name": "n", "tags": []}')
    assert complete_json(llm, ASK, SCHEMA) == {"name": "n", "tags": []}
    assert srv.chat_requests[1].messages[2]["content"] == '{"name": 3}'


def test_an_answer_within_the_bound_is_sent_back_whole(srv: ChatServer, llm: OpenAIChat) -> None:
    from memlane.backends.llm.base import REPAIR_ECHO_CHARS

    bad = '{"name": "' + "y" * (REPAIR_ECHO_CHARS - 22) + '", "tags": ['
    srv.script(bad, '{"name": "n", "tags": []}')
    complete_json(llm, ASK, SCHEMA)
    assert srv.chat_requests[1].messages[2]["content"] == bad
