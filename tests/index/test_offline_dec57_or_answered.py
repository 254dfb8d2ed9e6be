"""Session 57 (dec57), decisions (docs/summary-eval.md, "Session 57: decisions, the option not
taken (dec57)"): an option named in answer to a question of two options (`_Reader.or_answered`)
is written with the option not taken when it is short ("Curry, not a barbecue."); a long option
is written alone; an answer may end "this time" or "obviously", and may name a pronoun that the
option itself holds ("us against them")."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]


@pytest.mark.parametrize("model", _WAYS)
def test_a_short_option_chosen_is_written_with_the_one_not_taken(model):
    summary, _ = offline_summary(
        "Maya: The club night is on the 14th, we need to sort the food.",
        "Tom: For the club night, curry or a barbecue?",
        "Maya: Curry. It rained on the last barbecue and everyone ate in the car park.",
        model=model)
    assert summary.decisions == ("Curry, not a barbecue.",), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_an_answer_ending_this_time_or_naming_the_options_pronoun_is_read(model):
    # without the rule, "this time" and the answer's "us" kept the choice out
    summary, _ = offline_summary(
        "Priya: The pub quiz is back on Thursday and they've asked us to bring a team.",
        "Dan: For the quiz, mixed tables or us against them?",
        "Priya: Us against them, obviously. They beat us by two points last year.",
        model=model)
    assert summary.decisions == ("Us against them, not mixed tables.",), summary.decisions
    summary, _ = offline_summary(
        "Ana: The sports day entry form is due on Friday.",
        "Ben: Relay races or the sack race?",
        "Ana: The sack race this time. The relay needs eight of us and we're six.",
        model=model)
    assert summary.decisions == ("The sack race, not Relay races.",), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_a_long_option_is_written_alone(model):
    summary, _ = offline_summary(
        "Ana: The garden party is on the 2nd and the forecast says showers.",
        "Ben: Should we get the big white marquee from Dawson's or just the gazebo?",
        "Ana: The big white marquee from Dawson's. Forty people won't fit under the gazebo.",
        model=model)
    assert summary.decisions == ("Get the big white marquee from Dawson's.",), summary.decisions
