"""Session 12's second round (next steps), each rule on a small conversation written for
these tests (docs/summary-eval.md, "Session 12, second round: next steps"): the assistant's
"Please …" for any verb the user does, a participant's "Can you …?" taken by whoever
answers, a request addressed as the speaker signs, "I can <verb> …" among people, the work
in hand, what the last short answer tells the user to do, and someone the service sends."""

from memlane.bench.summaries.run import scored_steps
from memlane.testing import offline_summary


def _summary(*turns: str):
    return offline_summary(*turns)[0]


def test_please_with_any_verb_the_user_does_is_their_step_up_to_the_reason():
    s = _summary(
        "user: My suitcase didn't arrive in Lisbon. File number LIS-22841.",
        "assistant: Sorry about that. Please keep every receipt; we refund essentials up to 150 euros.",
    )
    assert "user: Keep every receipt." in s.action_items


def test_please_asking_for_patience_or_details_is_no_step():
    s = _summary(
        "user: My order 40917 still hasn't shipped.",
        "assistant: Please bear with us, the warehouse is behind. Please provide your postcode.",
    )
    assert scored_steps(s) == ()


def test_can_you_is_the_task_of_whoever_answers():
    s = _summary(
        "Nadia: We'll decide on the hire at Thursday's leads meeting.",
        "Nadia: Can you pull the support tickets tagged dashboard from last quarter before then?",
        "Kwame: Sure thing.",
    )
    assert any(a.startswith("Kwame: Pull the support tickets tagged dashboard from last quarter")
               for a in s.action_items)


def test_can_you_turned_down_or_between_options_is_no_task():
    declined = _summary(
        "Nadia: Can you pull the support tickets from last quarter?",
        "Kwame: No, I'm out until Monday.",
    )
    assert not any(a.startswith("Kwame:") for a in declined.action_items)
    options = _summary(
        "Bea: Can you do the flowers on the cake, or does our florist supply them?",
        "Ines: Let me check.",
    )
    assert not any(a.startswith("Ines:") for a in options.action_items)


def test_a_request_addressed_as_the_speaker_signs_is_their_task():
    s = _summary(
        "Beatrix: The water figure in Tuesday's story was wrong.",
        "Siew Ling: I saw, the correction is drafted.",
        "Beatrix: Siew Ling, can you check whether we quoted the figure in the newsletter too?",
    )
    assert "Siew Ling: Check whether we quoted the figure in the newsletter." in s.action_items


def test_a_directive_after_and_to_someone_named_is_their_task():
    s = _summary(
        "Helen: The calendar is final once Priya's note to parents is out.",
        "Omar: Good, the term dates are all in.",
        "Helen: And Priya, send the final calendar to the printer once the note is out.",
    )
    assert "Priya: Send the final calendar to the printer once the note is out." in s.action_items


def test_i_can_among_people_is_a_task_but_not_availability_or_to_the_assistant():
    s = _summary(
        "Maya: The Sunday runs start in the dark from next week.",
        "Grace: I can bring a few head torches for the Sunday runs.",
        "Mia: I can do the school run, I finish at 2 on Thursdays.",
    )
    assert "Grace: Bring a few head torches for the Sunday runs." in s.action_items
    assert not any(a.startswith("Mia:") for a in s.action_items)
    alone = _summary(
        "user: I can bring a few head torches for the Sunday runs.",
        "assistant: That will help the group a lot.",
    )
    assert scored_steps(alone) == ()


def test_work_in_hand_among_people_is_a_step():
    s = _summary(
        "Lorenzo: Stand-up. Anything blocking?",
        "Nizhoni: I'm on the Android crash from Crashlytics, the one on Samsung A14s.",
        "Rosa: I'm on foot, the car's in the garage.",
    )
    assert any(a.startswith("Nizhoni: I'm on the Android crash") for a in s.action_items)
    assert not any("on foot" in a for a in scored_steps(s))


def test_what_the_last_short_answer_tells_the_user_is_their_step():
    s = _summary(
        "user: I started the Justin Guitar barre chord lesson. My F chord still buzzes.",
        "assistant: That's normal for the first weeks. Give it four weeks before judging.",
        "user: OK, thanks!",
    )
    assert "user: Give it four weeks before judging." in s.action_items


def test_an_earlier_or_long_answer_gives_no_step_and_what_was_agreed_stays_a_decision():
    earlier = _summary(
        "user: The test suite takes 20 minutes on my laptop.",
        "assistant: Run the tests in parallel with pytest-xdist.",
        "user: Our tests share one database, so that won't work.",
        "assistant: Then the slowest tests are worth profiling one by one.",
    )
    assert not any("pytest-xdist" in a for a in scored_steps(earlier))
    agreed = _summary(
        "user: The nightly diff of the two exports shows every row as changed.",
        "assistant: Sort both files by customer_id before diffing.",
        "user: Makes sense.",
    )
    assert any("Sort both files" in d for d in agreed.decisions)
    assert not any("Sort both files" in a for a in scored_steps(agreed))


def test_someone_the_service_sends_is_a_step_unless_the_sentence_reports_an_outcome():
    s = _summary(
        "user: Water came through the kitchen ceiling last night. Policy HX-5521.",
        "assistant: I've opened the claim. A loss adjuster will call you within two working days.",
    )
    assert "assistant: A loss adjuster will call you within two working days." in s.action_items
    done = _summary(
        "user: Can I move the delivery to Saturday?",
        "assistant: I've moved the delivery to Saturday between 9 and 12; the driver will call ahead.",
    )
    assert not any("driver" in a for a in scored_steps(done))


# Narrowed after reading benchmark sessions (LongMemEval chats, LoCoMo's two friends)


def test_please_asking_for_the_conversation_itself_or_encouraging_is_no_step():
    s = _summary(
        "user: What will the population of Larisa be in five years?",
        "assistant: Please specify which Larisa you mean. Please keep in mind that "
        "projections change every year.",
    )
    assert scored_steps(s) == ()


def test_encouragement_slogans_and_quotes_in_the_last_answer_are_no_step():
    s = _summary(
        "user: Write me a meta description for the article on construction delays.",
        'assistant: "Learn how to handle weather delays in NSW. Read now!"',
        "user: Thanks. I keep losing at the boss fight.",
        "assistant: Keep practicing and trying new strategies. Try again later!",
    )
    assert scored_steps(s) == ()


def test_a_request_for_more_talk_or_a_perception_among_friends_is_no_task():
    s = _summary(
        "Lena: I painted the lake at sunrise last week.",
        "Rosa: Can you tell me more about why it means so much to you?",
        "Lena: Sure, it's where we went as kids.",
        "Rosa: I can tell by the colours how much you love it.",
        "Lena: I'm still on the lookout for a bigger canvas.",
    )
    assert scored_steps(s) == ()
