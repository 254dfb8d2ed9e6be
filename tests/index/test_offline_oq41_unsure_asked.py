"""Session 41: an open question kept in the words of a doubt that opens its sentence ("not sure
it's even worth fixing") is written as the question it leaves, with what its "it" or "one"
stands for named from the sentence before (``cues._UNSURE_THAT``, ``_Reader.unsure_asked``,
``_Reader.named_thing``), both ways the offline backend runs. A doubt after what the sentence
says first keeps its sentence."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]


def _asked(model, *turns):
    summary, _ = offline_summary("Wyn: The lifeguard rota for October is done, Aled has the weekends.",
                                 *turns, "Wyn: ok", model=model)
    return summary.open_questions


@pytest.mark.parametrize("model", WAYS)
def test_it_is_named_from_what_the_sentence_before_is_about(model):
    asked = _asked(model, "Elin: while we're here, the spare paddleboard has a split in the fin box",
                   "Wyn: not sure it's even worth mending.")
    # written without the speaker's "even" since session 50 (oq50, ``_Reader.plain_questions``),
    # and as a question, its auxiliary first, since session 53 (oq53, ``_Reader.whether_asked``)
    assert "Is the spare paddleboard worth mending?" in asked, asked


@pytest.mark.parametrize("model", WAYS)
def test_one_is_named_from_the_sentence_before(model):
    asked = _asked(model, "Elin: The booking page doesn't have a waitlist.",
                   "Wyn: I'm not sure the web designer will add one for free.")
    # its auxiliary first since session 53 (oq53, ``_Reader.whether_asked``)
    assert any(q.startswith("Will the web designer add a waitlist") for q in asked), asked
    assert not any("not sure" in q.lower() for q in asked), asked


@pytest.mark.parametrize("model", WAYS)
def test_a_doubt_after_what_the_sentence_says_keeps_it(model):
    asked = _asked(model, "Elin: The cadets offered to help on the beach.",
                   "Wyn: Some cadets are 18, but I'm not sure it's allowed for lifeguard cover.")
    assert any(q.startswith("Some cadets are 18") for q in asked), asked
