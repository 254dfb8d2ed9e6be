"""Session 40's reference classes (docs/summary-eval.md, "Session 40: references (ref40)"): a
lower-case name just before the kind of resource it names, a code a machine shows, a deployed
name, a named call, a rule or guideline by its number. The named resources and rules found in
sentences of their own are in ``test_offline_references_found.py`` (session 41)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memlane.index.offline import _references
from memlane.testing import offline_summary

_PARTS = st.sampled_from(["order", "events", "geo", "tools", "design", "tokens", "game", "assets",
                          "exports", "audit", "job", "runs", "payments", "ledger", "invoices"])
_KINDS = st.sampled_from(["topic", "Kafka topic", "SQS queue", "queue", "bucket", "S3 bucket", "table",
                          "repo", "repository", "label", "index", "stream", "cluster", "namespace"])


@given(_PARTS, _PARTS, st.sampled_from("-_"), _KINDS, st.sampled_from(["the", "a", "our", "in the"]))
def test_a_joined_lower_case_name_before_its_kind_is_a_reference(a, b, joint, kind, before):
    name = f"{a}{joint}{b}"
    text = f"it goes in {before} {name} {kind} for now"
    assert name in set(_references(text)), list(_references(text))


@pytest.mark.parametrize("text", [
    "failed messages go to the dead-letter queue",  # a kind of queue, no name
    "give them a read-only table",
    "ok doing that: session-scoped schema, per-test transaction",
    "keep a long-running stream open",
    "a multi-region bucket costs more",
    "a real-time stream of prices",
    "the third-party label printer",
    "the orders table has 40 million rows",  # a plain word: said of tables in passing as often as named
    "a two-person job at that depth",  # not a resource's kind
    "a self-healing queue and a fast-moving stream",  # "-ing": a compound adjective
])
def test_no_named_resource_in_compound_adjectives_or_plain_words(text):
    assert not [r for r in _references(text) if "-" in r or "_" in r or r == "orders"], list(_references(text))


@pytest.mark.parametrize("model", [None, "shipped"])
def test_a_conversations_named_resources_are_its_references(model):
    summary, _ = offline_summary(
        "Ana: Old clients crash since the deploy; the order-events Kafka topic still holds the bad rows",
        "Ben: Replay them into the orders-replay topic once the consumer is patched, and keep a dead-letter queue",
        "Ana: OK, and I'll note it in the billing-infra repo", model=model)
    refs = set(summary.references)
    assert {"order-events", "orders-replay", "billing-infra"} <= refs, refs
    assert "dead-letter" not in refs, refs


@given(st.sampled_from(["F", "E", "EA", "H", "LE", "P"]), st.integers(10, 9999),
       st.sampled_from(["the boiler's showing {}", "my washer shows {} and won't drain", "error {} on the display",
                        "yes {} flashing again", "it threw error {} again yesterday", "{} fault, no hot water"]))
def test_a_short_code_a_machine_shows_is_a_reference(letters, number, sentence):
    code = f"{letters}{number}"
    text = sentence.format(code)
    assert code in set(_references(text)), list(_references(text))


@pytest.mark.parametrize("text", [
    "the printer is showing A4 paper only",  # a size: one digit
    "it shows 404 for every page",  # digits alone
    "the Tecan Spark in B214 is throwing a lamp error",  # a room, not what is shown
    "showing Ben the A470 route",  # a name after "showing", then a road
])
def test_no_shown_code_without_the_shape_or_the_cue(text):
    assert not [r for r in _references(text) if r in {"A4", "404", "B214", "A470", "Ben"}], list(_references(text))


@pytest.mark.parametrize("model", [None, "shipped"])
def test_a_conversations_shown_code_is_its_reference(model):
    summary, _ = offline_summary(
        "user: hi, my Worcester boiler is showing F28 again and there's no hot water",
        "assistant: F28 is an ignition lockout. Press reset once; if it returns, I'll book an engineer.",
        "user: ok, reset it, now it's EA229 flashing", model=model)
    refs = set(summary.references)
    assert {"F28", "EA229"} <= refs, refs


@given(st.sampled_from(["sessions", "callrec", "acme-invoices", "billing", "customers", "ledger"]),
       st.sampled_from(["prod", "staging", "dev", "eu", "api", "worker", "consumer", "export", "restore", "prod-eu"]),
       st.sampled_from(["the cluster {} is full", "{} lag is at 2 million", "flagged {} as public",
                        "restore it as {}, then dump", "we run {} and pay for it"]))
def test_a_name_telling_where_or_as_what_a_system_runs_is_a_reference(name, part, sentence):
    ref = f"{name}-{part}"
    text = sentence.format(ref)
    assert ref in set(_references(text)), list(_references(text))


@pytest.mark.parametrize("text", [
    "is there a way to stop this every time I re-export?",  # a verb with its prefix
    "So Better BibTeX with the auto-export, and",
    "sarita-dev: Downstream, Airflow pins us",  # a speaker's handle
    "a us-based team and a dev-only flag",  # the part first
])
def test_no_deployed_name_in_prefixed_words_handles_or_leading_parts(text):
    assert not [r for r in _references(text) if "-" in r], list(_references(text))


@pytest.mark.parametrize("model", [None, "shipped"])
def test_a_conversations_deployed_names_are_its_references(model):
    summary, _ = offline_summary(
        "Nnamdi: Found it. The Redis cluster sessions-prod is at maxmemory and evicting keys",
        "Ada: Same pattern as staging-eu last month. I'll raise the limit after the billing-consumer drains",
        model=model)
    refs = set(summary.references)
    assert {"sessions-prod", "staging-eu", "billing-consumer"} <= refs, refs


@given(st.sampled_from(["format", "load", "get", "export", "make", "parse"]),
       st.sampled_from(["Count", "_readings", "_db", "_to_drive", "Session", "_shift"]),
       st.sampled_from(["we do it in {} in the i18n module", "I'll rewrite {} that way", "wrap it in a {} helper"]))
def test_a_named_function_called_with_empty_brackets_is_a_reference(verb, rest, sentence):
    call = f"{verb}{rest}()"
    text = sentence.format(call)
    assert call in set(_references(text)), list(_references(text))


@pytest.mark.parametrize("text", [
    "the code does datetime.now() and formats it",  # a method after a dot
    "we just used round() there",  # a one-word call
    "select on ctx.Done() next to the send",
    "call it (twice) later",
])
def test_no_named_call_for_methods_or_one_word_calls(text):
    assert not [r for r in _references(text) if r.endswith("()")], list(_references(text))


@pytest.mark.parametrize("model", [None, "shipped"])
def test_a_guidelines_number_is_not_a_version_of_its_own(model):
    summary, _ = offline_summary(
        "Kofi: App Review rejected 4.8.0 again. Guideline 3.1.1, they say the upgrade button is a payment",
        "Ama: Then we appeal under guideline 3.1.1 and ship 4.8.1 without the button", model=model)
    refs = {r.lower() for r in summary.references}
    assert "guideline 3.1.1" in refs and "3.1.1" not in refs, refs


@pytest.mark.parametrize("text", [
    "the rule 4 thing again",  # a small "rule" and one number: said in passing (session 38)
    "as a rule 3 of us go",
    "guideline 5 says nothing",  # a guideline's number in one part
])
def test_no_rule_said_in_passing(text):
    assert not [r for r in _references(text) if r.lower().startswith(("rule", "guideline"))], list(_references(text))
