"""The learned facts reader made cheaper (session 50, fct50a): it takes the dense sentence
model's inputs (static vector, cheap feature names) of the sentences that model read instead of
computing them again, reads no small talk, and gives every other sentence the same probability
as before; its ``facts_model`` sentinel is its own, and the pickled backend (the worker's
processes) writes the same facts; the two patterns it shares with the summarizer live in
:mod:`memlane.index.clauses` (a conversation written for these tests)."""

from __future__ import annotations

import pickle
import subprocess
import sys

import numpy as np
import pytest

from memlane.index import clauses, factmodel, offline, sentmodel
from memlane.index.cues import _Turn, read_cues, says_little
from memlane.index.offline import SHIPPED_FACTS_MODEL, SHIPPED_MODEL, OfflineIntelligence
from memlane.testing import turn_messages

ALLOTMENT = (
    ("user", "We took over plot 14 at the allotment in April."),
    ("assistant", "Lovely. What are you growing this year?"),
    ("user", "Mostly beans and squash. The water butt holds 200 litres."),
    ("user", "The site rules say no bonfires after 6pm, and the gate code is changed every month. "
             "My neighbour Priya keeps bees on plot 15. Her hives are painted blue. "
             "She sells the honey at the Saturday market."),
    ("assistant", "Sounds like a good spot. Do you need a watering rota?"),
    ("user", "Thanks!"),
    ("user", "Yes, my brother Tom comes on Tuesdays and I go at weekends."),
)


def _turns() -> list[tuple[str, str, list[str]]]:
    from memlane.index.offline import _sentences

    return [(who, who, _sentences(text)) for who, text in ALLOTMENT]


def test_the_reader_takes_the_dense_models_inputs_and_gives_the_same_probabilities(monkeypatch):
    turns = _turns()
    known: dict = {}
    cues = read_cues(turns, sentmodel.shipped(), known)
    assert known  # the dense model read some sentences and kept their inputs
    head = factmodel.shipped_facts()
    ts = [_Turn(w, r, s) for w, r, s in turns]
    full = dict(head.read(ts, cues.placed))
    embedder = sentmodel.default_embedder()
    embedded: list[str] = []
    real = type(embedder).embed_batch

    def counting(self, texts):
        embedded.extend(texts)
        return real(self, texts)

    monkeypatch.setattr(type(embedder), "embed_batch", counting)
    cheap = dict(head.read(ts, cues.placed, known, says_little))
    said = {(ti, si): ts[ti].sentences[si] for ti, si in full}
    assert not {said[w] for w in known} & set(embedded)  # read once, by the dense model
    assert "Thanks!" not in embedded and all(not says_little(said[w]) for w in cheap)
    assert set(cheap) == {w for w in full if not says_little(said[w])}
    assert all(np.float32(cheap[w]) == np.float32(full[w]) and cheap[w] == full[w] for w in cheap)


def test_the_facts_reader_has_its_own_sentinel_and_pickles():
    backend = OfflineIntelligence(facts_model=True)
    assert backend.facts_model == SHIPPED_FACTS_MODEL and backend.facts_model != SHIPPED_MODEL
    assert OfflineIntelligence().facts_model is None and OfflineIntelligence(None, facts_model=True).facts_model is None
    msgs = turn_messages(f"{who}: {text}" for who, text in ALLOTMENT)
    fresh = pickle.loads(pickle.dumps(backend))
    facts = backend.summarize("plot", msgs)[1].facts
    assert any(f.predicate == "stated" for f in facts)
    assert isinstance(backend.facts_model, factmodel.FactsHead)  # read on first use
    used = pickle.loads(pickle.dumps(backend))  # pickled after its first use
    assert fresh.summarize("plot", msgs)[1].facts == facts == used.summarize("plot", msgs)[1].facts
    assert fresh.facts_model is used.facts_model is backend.facts_model  # one head per process


def test_the_shared_patterns_live_in_clauses_and_the_reader_needs_no_summarizer():
    assert offline._AMOUNT is clauses.AMOUNT and offline._CLAUSE is clauses.CLAUSE
    names = factmodel.fact_names([_Turn("user", "user", ["We run 14 vans, and the depot opens at 6."])],
                                 [(0, 0)], {})
    assert "amount" in names[0] and "nclause=2" in names[0]
    code = ("import sys, memlane.index.factmodel as f; "
            "f.fact_names([], [], {}); print('memlane.index.offline' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_training_runs_cached_model_fills_the_facts_readers_inputs_as_the_shipped_one_does():
    """The cross-validation's cached model (``bench/summaries/dense.py``) takes ``inputs`` as the
    shipped model does, so the summarizer calls every model one way (session 51)."""
    from memlane.bench.summaries.dense import _Cached

    turns = [_Turn(w, r, s) for w, r, s in _turns()]
    model = sentmodel.shipped()
    mine: dict = {}
    theirs: dict = {}
    cached = _Cached(model, {"mode": model.mode}, {})
    got = cached.classify(turns, {}, None, mine)
    assert got == model.classify(turns, {}, None, theirs) and mine and mine.keys() == theirs.keys()
    assert cached.classify(turns, {}) == got  # without inputs: the cached verdicts, the same


@pytest.mark.parametrize("sentence, little", [
    ("Thanks!", True), ("Sounds good, thanks.", True), ("Fine.", True), ("Me too.", True),
    ("My brother Tom comes on Tuesdays.", False), ("The water butt holds 200 litres.", False),
])
def test_says_little_is_small_talk_or_under_two_content_words(sentence, little):
    assert says_little(sentence) is little
