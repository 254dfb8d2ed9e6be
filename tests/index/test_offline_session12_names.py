"""Session 12's reference and entity rules, each on a small conversation written for these
tests (docs/summary-eval.md, "Session 12"): three-part versions, resource names ending in a
number, compiler error codes, codes with one digit, numbers written in groups, cards by
their number, addresses with any scheme, names with a tag; numbered things, all-capital
phrases, people's adjectives and languages, error classes, prices after a name, tiers, and
names an answer uses once in a chat of short turns."""

from memlane.bench.summaries.run import scored_entities
from memlane.testing import offline_summary as _summary


def _entities(extraction) -> set[str]:
    return set(scored_entities(extraction))


def test_a_three_part_version_is_a_reference_and_a_two_part_one_or_a_date_is_not():
    s, _ = _summary(
        "Oren: The crash started with 7.2.1 of the SDK; v7.1.9 was fine.",
        "Lucia: Then we pin v7.1.9 until 7.2.2 ships. Build 3.5 of the app is unaffected.",
        "Oren: Agreed, I'll note it in the release plan for 14.03.2027.",
    )
    assert {"7.2.1", "v7.1.9", "7.2.2"} <= set(s.references)
    assert "3.5" not in s.references
    assert not any("2027" in r for r in s.references)


def test_a_lower_case_resource_name_ending_in_its_number_is_a_reference():
    s, _ = _summary(
        "Kai: The replica db-east-03 lagged again, and the model churn-gbm-v12 timed out.",
        "Mira: Move the job off db-east-03. Also, is the report utf-8 or not, and is it mid-2026 data?",
    )
    assert {"db-east-03", "churn-gbm-v12"} <= set(s.references)
    assert "utf-8" not in s.references and "mid-2026" not in s.references


def test_a_compiler_error_code_and_a_code_with_one_digit_are_references():
    s, _ = _summary(
        "user: rustc says error E0382, borrow of moved value. Also my booking code is RTZ4QP.",
        "assistant: E0382 means the value was moved into the closure; clone it first.",
    )
    assert "E0382" in s.references and "RTZ4QP" in s.references


def test_a_named_number_written_in_groups_is_one_reference_with_its_kind():
    s, _ = _summary(
        "user: My account 5521 0938 44 was billed twice, and card 7781 2203 9914 is the one on file.",
        "assistant: I can see account 5521 0938 44. I've refunded the second charge.",
    )
    assert "account 5521 0938 44" in s.references
    assert "card 7781 2203 9914" in s.references
    assert "account 5521" not in s.references


def test_a_word_numbering_things_of_a_kind_is_no_name():
    _, x = _summary(
        "Petra: Plot 9 has the leaking butt again, and Option 2 is to move it next to Shed 4.",
        "Rahul: Table 6 at the Lantern is booked for the committee, Petra.",
    )
    names = _entities(x)
    assert {"Plot 9", "Option 2", "Table 6"}.isdisjoint(names)
    assert "Lantern" in names and "Petra" in names


def test_an_all_capital_phrase_of_two_words_or_more_is_no_name():
    _, x = _summary(
        "Ines: Run the migration with CREATE INDEX CONCURRENTLY, never a plain ALTER TABLE on it.",
        "Ines: WE SHIPPED IT! And the numbers look fine in Grafana.",
        "Tomas: Great, I'll tell Wiebke.",
    )
    names = _entities(x)
    assert not any(" " in n and n.isupper() for n in names)
    assert "Grafana" in names and "Wiebke" in names


def test_a_peoples_adjective_or_a_language_is_no_name_but_a_name_in_ian_is():
    _, x = _summary(
        "user: We booked the little Umbrian trattoria by the square, and the menu is in Portuguese.",
        "user: We're meeting Damian and Adrian there, and I gave the booking to Vivian.",
    )
    names = _entities(x)
    assert "Umbrian" not in names and "Portuguese" not in names
    assert {"Damian", "Adrian", "Vivian"} <= names


def test_an_error_class_in_code_is_no_name():
    _, x = _summary(
        "user: My Flask app raises PermissionError when it writes the log, and I catch Exception around it.",
        "assistant: Catch PermissionError alone and let Flask log the rest.",
    )
    names = _entities(x)
    assert "PermissionError" not in names and "Exception" not in names
    assert "Flask" in names


def test_a_price_after_a_name_is_no_version():
    _, x = _summary(
        "Nadia: The quotes are in: Canon 2,150 for the scanner, Epson 1,980 with the stand.",
        "Ravi: I'd take the Epson then, it's cheaper.",
    )
    names = _entities(x)
    assert "Epson 1" not in names and "Canon 2" not in names
    assert {"Canon", "Epson"} <= names


def test_a_name_a_short_answer_uses_once_is_kept_but_not_in_a_long_answer():
    short, xs = _summary(
        "user: Which supermarkets deliver in the evening near me?",
        "assistant: In most postcodes both Ocado and Waitrose deliver until 11pm.",
    )
    assert {"Ocado", "Waitrose"} <= _entities(xs)
    filler = " ".join(f"Point {i} of the plan is to keep the evening slot free." for i in range(30))
    _, xl = _summary(
        "user: Which supermarkets deliver in the evening near me?",
        "assistant: In most postcodes both Ocado and Waitrose deliver until 11pm. " + filler,
    )
    assert "Waitrose" not in _entities(xl)


def test_an_address_with_any_scheme_is_a_reference():
    s, _ = _summary(
        "Ana: The dump is at s3://acme-exports/2027-01-04/ and the replica at postgres://db7:5432/app.",
        "Luis: Thanks, I'll restore it tonight.",
    )
    assert {"s3://acme-exports/2027-01-04/", "postgres://db7:5432/app"} <= set(s.references)


def test_a_name_with_its_tag_is_a_reference_and_a_time_is_not():
    s, _ = _summary(
        "Jonas: Base the image on node:20-alpine instead, it's 300 MB smaller.",
        "Eda: OK. The health check stays on localhost:8080, deploy at 10:30.",
    )
    assert {"node:20-alpine", "localhost:8080"} <= set(s.references)
    assert not any(r.startswith("10:") for r in s.references)


def test_a_tier_before_plan_or_subscription_is_no_name():
    _, x = _summary(
        "user: I moved our workspace on Trellis from the Business plan to the Basic tier last week.",
        "assistant: I can see the change on Trellis; the Basic tier bills from the 1st.",
    )
    names = _entities(x)
    assert "Business" not in names and "Basic" not in names
    assert "Trellis" in names
