"""A fact reads as a line a person understands, on every surface (session 21).

The pack's "Current facts" printed a fact's stored search text: the demo's pack said
"user cat Miso", and ``memlane facts list`` printed "sister Ana · date · is visiting on
April 20th" (subject · predicate key · object), as did MCP's text and the inspector.
A fact is now phrased from its parts (``pack.phrase.fact_sentence``): "user's cat is
Miso", "sister Ana is visiting on April 20th", "user lives in Lisbon", for every predicate
the offline and LLM backends write: no underscore key, no "·" fragment, the object whole.
"""

from __future__ import annotations

import re
import subprocess
import sys
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.index.normalize import PREDICATE_SYNONYMS, normalize_predicate
from memlane.index.people import KIN_PREDICATES, PET_PREDICATES
from memlane.pack.phrase import fact_sentence, predicate_words
from memlane.testing import example_files, memory

NOW = datetime(2024, 6, 1, tzinfo=UTC)

OFFLINE = ["lives_in", "works_at", "job", "allergic_to", "diet", "likes", "dislikes", "started",
           "acquired", "signed_up_for", "visited", "has", "studied_at", "uses", "from",
           "decided", "did", "date", "scheduled", "starts", "runs_out", "vans", "customers",
           "favorite_food", "favorite_city", "favorite_tv_show", "phone", "email", "name",
           "birthday", "api_key", "город", "最喜欢的城市", "❤️"]
"""Predicates the offline backend writes (its first-person patterns, its dated states and
counts, its decisions) and ones an LLM backend writes."""
PREDICATES = sorted({normalize_predicate(p) for p in
                     [*PREDICATE_SYNONYMS, *PREDICATE_SYNONYMS.values(), *OFFLINE,
                      *KIN_PREDICATES, *PET_PREDICATES]})
SUBJECTS = ["user", "sister Ana", "Mock exams", "James", "user's sister", "Caroline"]
WORD = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Z")),
               min_size=1, max_size=12)


def _readable(subject: str, predicate: str, obj: str, line: str) -> None:
    assert line.endswith(obj), (line, obj)  # the object whole, as said
    rest = line[: len(line) - len(obj)]
    assert subject in rest, (line, subject)
    outside = rest.replace(subject, "")
    assert "_" not in outside, line  # no key like lives_in or signed_up_for
    assert "·" not in outside, line
    # the predicate is said: in words, or by an object that opens with it ("start on the
    # 8th" of ``starts``, "is visiting on ..." of the offline backend's ``date``)
    lead = obj.split()[0].lower()
    said = predicate_words(predicate).lower() in line.lower() or lead.startswith(
        predicate.lower()[:-2] or predicate.lower()) and outside.strip() == ""
    assert said or (predicate == "date" and lead in ("is", "are", "has", "have")), line


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(PREDICATES), st.sampled_from(SUBJECTS),
       st.lists(WORD, min_size=1, max_size=6).map(" ".join))
def test_every_predicate_reads_as_a_line(predicate, subject, obj):
    _readable(subject, predicate, obj, fact_sentence(subject, predicate, obj))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.from_regex(r"[a-z]{1,9}", fullmatch=True), min_size=1, max_size=4).map("_".join),
       st.sampled_from(SUBJECTS), st.lists(WORD, min_size=1, max_size=4).map(" ".join))
def test_any_llm_predicate_reads_as_a_line(predicate, subject, obj):
    """An LLM backend's predicates are free: ``is_allergic_to``, ``owns_pet``, ``plans``."""
    _readable(subject, predicate, obj, fact_sentence(subject, predicate, obj))


@pytest.mark.parametrize(("subject", "predicate", "obj", "line"), [
    ("user", "cat", "Miso", "user's cat is Miso"),
    ("sister Ana", "date", "is visiting on April 20th", "sister Ana is visiting on April 20th"),
    ("user", "lives_in", "Lisbon", "user lives in Lisbon"),
    ("user", "signed_up_for", "EDP Lisbon half marathon", "user signed up for EDP Lisbon half marathon"),
    ("user", "allergic_to", "peanuts", "user is allergic to peanuts"),
    ("Mock exams", "starts", "start on the 8th", "Mock exams start on the 8th"),
    ("user", "vans", "14 delivery vans", "user's vans are 14 delivery vans"),
    ("user", "favorite_food", "sushi", "user's favorite food is sushi"),
    ("user", "decided", "Go with three runs a week", "user decided: Go with three runs a week"),
])
def test_known_facts_read_as_sentences(subject, predicate, obj, line):
    assert fact_sentence(subject, predicate, obj) == line


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    path = tmp_path_factory.mktemp("lines") / "demo.db"
    mem = memory(path)
    for f in example_files():
        mem.import_file(f)
    mem.index(now=NOW)
    for i, predicate in enumerate(PREDICATES):
        mem.add_fact("user", predicate, f"value{i} of {predicate}", scope=f"p{i}", at=NOW)
    yield mem, path
    mem.close()


def test_the_pack_phrases_its_facts(demo):
    mem, _ = demo
    text = mem.pack("what do you know about my cat?", 300, scope="alice-assistant", now=NOW).text
    assert "- user's cat is Miso (confidence" in text and "user cat Miso" not in text
    for i, predicate in enumerate(PREDICATES):
        obj = f"value{i} of {predicate}"
        pack = mem.pack(obj, 200, scope=f"p{i}", now=NOW)
        lines = pack.text.splitlines()
        fact = next(line for line in lines if obj in line)
        assert fact.startswith("- " + fact_sentence("user", predicate, obj) + " (confidence"), fact
        assert pack.used <= 200


def _cli(path, *args):
    done = subprocess.run([sys.executable, "-m", "memlane.serve.cli", "--db", str(path), *args],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_cli_phrases_facts_and_names_their_keys(demo):
    _, path = demo
    out = _cli(path, "facts", "list", "--scope", "alice-assistant")
    assert "user's cat is Miso" in out and "user lives in Lisbon" in out
    assert "subject 'user', predicate 'cat'" in out  # what `facts history` takes
    assert not re.search(r" · \w+ · ", out), out
