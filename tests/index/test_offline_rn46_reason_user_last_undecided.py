"""Session 46 (rn46): with the assistant and no decision written, nothing of the user's last turn is
a rationale (``_Reader.reason_user_last_undecided``): the user closes on a remark or on what they
will do, and the reasons a labeller keeps were said before it. A reason said as one ("…, so the
steam railway runs that day") stays. Run with the shipped sentence model: it is the reader that
places such remarks as reasons (the patterns alone place none of these)."""

from memlane.testing import offline_summary


def test_a_remark_closing_the_users_side_is_no_reason():
    summary, _ = offline_summary(
        "user: My dad keeps forgetting his blood pressure tablets in the morning.",
        "assistant: A weekly pill organiser with AM and PM slots helps, and a phone alarm at the same time each "
        "day. Some pharmacies also do blister packs sorted by day.",
        "user: He does have a phone but never looks at it.",
        "assistant: Then a talking alarm clock by the kettle might work better, since he goes there every morning.",
        "user: My sister thinks we're making a fuss about nothing.",
        "assistant: It's worth raising with his GP anyway; missed doses matter with that medication.")
    assert not summary.decisions
    assert "My sister thinks we're making a fuss about nothing." not in summary.rationale, summary.rationale


def test_what_the_user_did_or_found_last_is_no_reason():
    weekend, _ = offline_summary(
        "user: I'm thinking of learning the ukulele. Is it hard for an adult?",
        "assistant: It's one of the easiest instruments to start: four nylon strings, small frets, and you can "
        "play hundreds of songs with four chords. A concert size is comfortable for most adult hands.",
        "user: How long until I can play something?",
        "assistant: Most adults strum a simple song within two weeks of ten minutes a day.",
        "user: Spent the weekend at my cousin's and heard her play, it sounded lovely.",
        "assistant: Enjoy it!")
    shop, _ = offline_summary(
        "user: Which camera bag fits a small mirrorless body and two lenses?",
        "assistant: A sling bag around 6 litres does it, for instance the Peak Design Everyday Sling 6L, or the "
        "cheaper Lowepro Adventura.",
        "user: Is the Peak Design worth double?",
        "assistant: The zips and the dividers are better, and it lasts; for occasional use the Lowepro is fine.",
        "user: A shop in town has the Lowepro for £35 on the shelf, going for that.",
        "assistant: Good choice for the price.")
    assert not weekend.rationale, weekend.rationale
    assert not shop.rationale, shop.rationale


def test_a_reason_said_with_so_in_the_last_turn_stays():
    summary, _ = offline_summary(
        "user: My grandad turns 80 in June and I want to take him somewhere.",
        "assistant: A heritage railway day out is popular, or a boat trip if he likes the water.",
        "user: It's his 80th on a Sunday, so the steam railway runs that day.",
        "assistant: Book early, the birthday carriages sell out.")
    assert summary.rationale == ("It's his 80th on a Sunday, so the steam railway runs that day.",)
