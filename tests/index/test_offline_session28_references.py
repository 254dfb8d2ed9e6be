"""Session 28's reference class, from heldout24's misses: a key hanging from the name of what it
keys ("ELBSecurityPolicy-TLS13-1-2-2021-06") is one reference, the name with it; the key pattern
(capitals, a dash, digits) wrote only its tail ("TLS13-1-2-2021-06"): a miss and a wrong item.
Both ways the offline backend runs."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.run import load_set, messages_of
from memlane.index.offline import OfflineIntelligence
from memlane.testing import offline_summary

WAYS = [None, "shipped"]
_HEADS = ["ELBSecurityPolicy", "SecurityPolicy", "AppConfig", "CloudFrontPolicy", "Runbook"]
_KEYS = ["TLS13-1-2-2021-06", "TLS-1-2-2017-01", "TLS-1-2-EXT2-2018-06", "BILL-142", "INV-2026-1187"]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(head=st.sampled_from(_HEADS), key=st.sampled_from(_KEYS),
       form=st.sampled_from(["ok so, move everything to the {r} policy today",
                             "we're on {r} now.", "can you switch the listener to {r}?"]))
def test_a_key_with_the_name_it_hangs_from_is_one_reference(model, head, key, form):
    summary, _ = offline_summary(f"Sana: {form.format(r=f'{head}-{key}')}", "Ravi: ok, on it", model=model)
    assert f"{head}-{key}" in summary.references, summary.references
    assert key not in summary.references, summary.references


@pytest.mark.parametrize("model", WAYS)
def test_a_key_alone_is_still_a_reference(model):
    summary, _ = offline_summary("Sana: see BILL-142 and INV-2026-1187-R for the details", "Ravi: ok", model=model)
    assert {"BILL-142", "INV-2026-1187-R"} <= set(summary.references), summary.references


@pytest.mark.parametrize("model", WAYS)
def test_heldout24_tls_ciphers_names_the_whole_policy(model):
    conv = next(c for c in load_set("heldout24") if c.id == "h24-load-balancer-tls-ciphers")
    summary = OfflineIntelligence(model).summarize(conv.id, messages_of(conv))[0]
    assert "ELBSecurityPolicy-TLS13-1-2-2021-06" in summary.references, summary.references
