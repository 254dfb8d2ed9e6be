"""Session 54 (oq54), open questions (docs/summary-eval.md, "Session 54: open questions, the fronted
doubt (oq54)"): what someone other than the speakers asked about ("The insurer asked about the
chimney at renewal") is an open question the conversation carries, written as said; what a speaker
asked about, or a pronoun's thing, is none."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]

_OPENING = "Ffion: The allotment open day is on the 14th of June, same field as last year."
_AFTER = "Gareth: Let's put the plant stall by the gate."


@pytest.mark.parametrize("model", _WAYS)
def test_what_a_third_party_asked_about_is_an_open_question(model):
    summary, _ = offline_summary(
        _OPENING,
        "Gareth: The parish insurer asked about the old water tank by plot 9 at renewal.",
        _AFTER,
        model=model)
    assert any("asked about the old water tank" in q for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", _WAYS)
@pytest.mark.parametrize("said", [
    "Gareth: I asked about the old water tank by plot 9 at renewal.",
    "Gareth: The parish insurer asked about it at renewal.",
])
def test_what_a_speaker_asked_about_or_a_pronoun_is_no_open_question(model, said):
    summary, _ = offline_summary(_OPENING, said, _AFTER, model=model)
    assert not any("asked about" in q for q in summary.open_questions), summary.open_questions
