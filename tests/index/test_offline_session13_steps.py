"""Session 13 (next steps), each rule on a small conversation written for these tests
(docs/summary-eval.md, "Session 13: next steps")."""

from memlane.bench.summaries.run import scored_steps
from memlane.testing import offline_summary


def _summary(*turns: str):
    return offline_summary(*turns)[0]


def test_the_need_the_user_opens_with_is_no_step_but_a_later_one_is():
    s = _summary(
        "user: Hi, I need to move my dog's vaccination appointment. It's booked for Tuesday at 9.",
        "assistant: Of course. I have Thursday at 10:15 or Friday at 16:40.",
        "user: Thursday works. I need to book the kennel for the weekend too.",
    )
    assert not any("vaccination appointment" in x for x in scored_steps(s))
    assert any("book the kennel" in x.lower() for x in scored_steps(s))
    plain = _summary(
        "user: I need to pick up some microfiber towels for the car seats.",
        "assistant: Look for a 300 gsm pack; they don't scratch.",
    )
    assert not any("microfiber" in x for x in scored_steps(plain))


def test_the_opening_need_among_people_stays_a_step():
    s = _summary(
        "Maya: I need to send the venue contract to legal by Friday.",
        "Tom: OK, ping me when it's back.",
    )
    assert any("send the venue contract to legal" in x.lower() for x in scored_steps(s))


def test_a_sentence_ends_before_an_at_name_so_both_steps_are_read():
    s = _summary(
        "hollis: Revert #1152 and cut 2.3.1 today?",
        "mbeck: I'll do the revert and the release. @sarita-dev could you open an issue on "
        "Airflow's tracker once it's on PyPI?",
        "sarita-dev: Sure thing.",
    )
    steps = scored_steps(s)
    assert any(x.startswith("mbeck:") and "revert and the release" in x for x in steps)
    assert any(x.startswith("sarita-dev: Open an issue on Airflow's tracker") for x in steps)


def test_let_me_among_people_is_the_speakers_task_but_not_let_me_know():
    s = _summary(
        "Ola: The icons look blurry at small sizes.",
        "Mina: Let me do a proper pass at 16px and in dark mode and bring it to Thursday's crit.",
        "Ola: Great. Let me know if you need the old sprites.",
    )
    steps = scored_steps(s)
    assert any(x.startswith("Mina: Do a proper pass at 16px and in dark mode") for x in steps)
    assert not any("old sprites" in x for x in steps)


def test_let_me_to_the_assistant_is_no_task():
    s = _summary(
        "user: Let me paste the full stack trace from the worker log first.",
        "assistant: Sure, go ahead.",
    )
    assert scored_steps(s) == ()


def test_what_they_will_do_for_the_user_is_a_step_after_another_answer():
    s = _summary(
        "user: Do I need a quote from a garage?",
        "assistant: No, our approved repairer in Leeds will assess it. They'll call you within two working "
        "days to book it in.",
        "user: Brilliant, thank you.",
    )
    assert any("call you within two working days" in x for x in scored_steps(s))


def test_any_work_a_speaker_is_doing_today_is_their_step_but_not_a_feeling():
    s = _summary(
        "Mina: The account deletion screen failed review again.",
        "Mina: I'm rewriting the screen today.",
        "Jon: I'm feeling rough today, might log off early.",
    )
    steps = scored_steps(s)
    assert any(x.startswith("Mina:") and "rewriting the screen today" in x for x in steps)
    assert not any(x.startswith("Jon:") for x in steps)


def test_what_the_user_tells_the_assistant_they_are_doing_today_is_no_step():
    s = _summary(
        "user: I'm baking sourdough today and the dough is very sticky.",
        "assistant: Wet hands help; a bench scraper too.",
    )
    assert not any("baking sourdough" in x for x in scored_steps(s))


def test_someone_has_to_or_one_of_us_should_is_a_step_without_an_owner():
    s = _summary(
        "Kai: The hall booking for the spring fair runs out on Friday.",
        "Lena: Someone has to renew the hall booking with the parish office this week.",
        "Kai: And one of us should email the stallholders about the new layout.",
    )
    assert "Renew the hall booking with the parish office this week." in s.next_steps
    assert "Email the stallholders about the new layout." in s.next_steps


def test_let_me_offering_something_to_the_other_or_getting_ready_is_no_task():
    s = _summary(
        "Greta: That soup looked amazing!",
        "Hugo: Let me send you the recipe later. Let me get dressed, gonna head off soon.",
    )
    assert scored_steps(s) == ()
