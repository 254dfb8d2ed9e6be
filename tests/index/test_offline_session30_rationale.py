"""Session 30's rationale class, from heldout26's wrong items: the sentence model's rationale
never comes from the user's opening turn to the assistant (the problem brought: "Half our app
users got kicked out overnight.", "Dropped my Pixel 7 and the screen's cracked…"), as its
decisions never have since session 18 (``_Reader.learned``). The model's verdicts are no property
one can state over generated text, so the test reads heldout26's conversations."""

import pytest

from memlane.bench.summaries.run import load_set, messages_of
from memlane.index.offline import OfflineIntelligence
from memlane.testing import offline_summary


@pytest.mark.parametrize(("conv_id", "words"), [("h26-jwt-clock-skew", "kicked out"),
                                                ("h26-phone-screen-repair", "dropped my pixel"),
                                                ("h26-ring-resizing", "got tight")])
def test_heldout26_gives_no_reason_from_the_users_opening(conv_id, words):
    conv = next(c for c in load_set("heldout26") if c.id == conv_id)
    rationale = OfflineIntelligence("shipped").summarize(conv.id, messages_of(conv))[0].rationale
    assert not any(words in r.lower() for r in rationale), rationale


@pytest.mark.parametrize("model", [None, "shipped"])
def test_a_reason_given_later_is_still_rationale(model):
    summary, _ = offline_summary(
        "user: I dropped my phone and the screen's cracked. is it covered?",
        "assistant: Your plan covers accidental damage with a £39 excess. Walk-in repair is same day, "
        "mail-in takes a week.",
        "user: same day please, I can't be without a phone for a week with work",
        "assistant: Done, I've booked you in at the Arndale branch for tomorrow at 10:30.",
        model=model)
    assert any("without a phone" in r for r in summary.rationale), summary.rationale
