"""Session 21's entity and reference rules, on conversations written for these tests and run
through the offline backend, with the patterns alone and with the shipped sentence model: a place
said as one stays beside a longer name opening with it; numbered parts of a document are
references, one per spelling; words an English word derives or a slip misspells, and a greeting
alone, opening a sentence are no names."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.testing import offline_names, offline_summary

MODELS = ("shipped", None)

_names = offline_names


@pytest.mark.parametrize("model", MODELS)
def test_a_place_said_as_one_stays_beside_a_longer_name_opening_with_it(model):
    names = _names(
        "user: Moving from a 2-bed flat in Leeds to Bristol on 28 February. Got three quotes.",
        "assistant: Please register with Bristol City Council once you have the keys, and tell Leeds "
        "City Council the date you leave.",
        model=model,
    )
    assert {"Leeds", "Bristol", "Bristol City Council", "Leeds City Council"} <= names


@pytest.mark.parametrize("model", MODELS)
def test_a_name_not_said_as_a_place_is_still_one_with_its_longer_name(model):
    names = _names(
        "Ana: Grafana is what we use now. Grafana Cloud would cost us 300 a month.",
        "Ben: And Windows 11 on the build box. Windows is fine for that.",
        model=model,
    )
    assert "Grafana Cloud" in names and "Grafana" not in names
    assert "Windows 11" in names and "Windows" not in names


@pytest.mark.parametrize("model", MODELS)
def test_numbered_parts_of_a_document_are_references(model):
    summary, _ = offline_summary(
        "Chiara: The NDA from Veltra Bio. Clause 7 has a ten-year confidentiality term.",
        "Arjun: I need three plates for Figure 4B. And it goes on Schedule C, section 9.3 says so.",
        "Chiara: Article 231 too, and article 231 again.",
        model=model,
    )
    refs = set(summary.references)
    assert {"Clause 7", "Figure 4B", "Schedule C", "section 9.3", "Article 231"} <= refs
    assert "article 231" not in refs  # one reference per spelling folded


@pytest.mark.parametrize("model", MODELS)
def test_a_section_said_in_passing_or_a_part_with_more_after_it_is_no_reference(model):
    summary, _ = offline_summary(
        "Agnieszka: Can you check the league handbook? section 9 I think.",
        "Tom: It matches the 'opportunity to object' in Article 28(2) GDPR, and Figure 3.2 of the report.",
        model=model,
    )
    assert not {r for r in summary.references if r.lower().startswith(("section", "article", "figure"))}


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["Clause", "clause", "Article", "Figure", "Schedule"]),
       st.integers(min_value=1, max_value=999), st.sampled_from(["", "A", "B"]))
def test_any_numbered_clause_article_figure_or_schedule_is_one_reference(kind, number, letter):
    part = f"{kind} {number}{letter}"
    summary, _ = offline_summary(f"Dana: We still disagree on {part} of the contract.", "Eli: Right.", model=None)
    assert part in summary.references


@pytest.mark.parametrize("model", MODELS)
def test_words_derived_or_misspelled_and_greetings_alone_opening_a_sentence_are_no_names(model):
    names = _names(
        "user: Inclusionary housing policies work. Telepresence needs fast feedback. Customizable "
        "alerts would help. Millennials rent longer.",
        "user: Anaylze the poem below. Explaination of the second verse please.",
        "user: Bonjour! Yoohoo!",
        model=model,
    )
    assert not names & {"Inclusionary", "Telepresence", "Customizable", "Millennials", "Anaylze", "Explaination",
                        "Bonjour", "Yoohoo"}


@pytest.mark.parametrize("model", MODELS)
def test_names_opening_a_sentence_that_no_word_derives_are_still_names(model):
    names = _names(
        "Anil: Lingofy quoted £28 a month for the whole team.",
        "Mei: Shiftly is cheaper. Aceh is where the printer is.",
        model=model,
    )
    assert {"Lingofy", "Shiftly", "Aceh"} <= names


_STEMS = ["inclusion", "custom", "modern", "person", "nation", "region", "season"]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["tele", "nano", "cyber", "bio", "micro"]), st.sampled_from(_STEMS),
       st.sampled_from(["", "s"]))
def test_any_learned_prefix_before_an_english_word_opening_a_sentence_is_no_name(prefix, stem, plural):
    word = (prefix + stem + plural).capitalize()
    names = _names(f"Dana: {word} was the thing we talked about at lunch.", "Eli: Right.", model=None)
    assert word not in names


@pytest.mark.parametrize("model", MODELS)
def test_a_purchase_order_and_an_order_number_of_two_then_more_digits_are_references(model):
    summary, _ = offline_summary(
        "Nadia: £48,600 for October consulting, PO 4500-1187, and the invoice hasn't arrived.",
        "user: I ordered a 3-pack of pillowcases (order 58-33019) and only 2 arrived. I'll order 10-12 more.",
        model=model,
    )
    refs = set(summary.references)
    assert {"PO 4500-1187", "order 58-33019"} <= refs
    assert not any("10-12" in r for r in refs)  # a range, not an order's number


@pytest.mark.parametrize("model", MODELS)
def test_a_source_file_with_its_line_is_the_file_and_an_image_tag_stays(model):
    summary, _ = offline_summary(
        "user: 170k goroutines sit at internal/upstream/client.go:88, the send in a goroutine.",
        "user: The image is python:3.12-slim and the app listens on localhost:8080.",
        model=model,
    )
    refs = set(summary.references)
    assert "internal/upstream/client.go" in refs and "internal/upstream/client.go:88" not in refs
    assert {"python:3.12-slim", "localhost:8080"} <= refs


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["main.py", "src/app.ts", "cmd/server/main.go", "lib/x.rb"]), st.integers(min_value=1, max_value=9999))
def test_any_source_file_and_line_is_the_file(path, line):
    summary, _ = offline_summary(f"Dana: it panics at {path}:{line} every time.", "Eli: Right.", model=None)
    assert path in summary.references and f"{path}:{line}" not in summary.references


@pytest.mark.parametrize("model", MODELS)
def test_a_keyed_document_version_an_issue_elsewhere_a_query_and_a_directory_asked_about_are_references(model):
    summary, _ = offline_summary(
        "Chiara: I'll do the markup tonight. It's in the DMS as HOL-2291-NDA v3.",
        "Kemal: The upstream fix is already merged, pypa/cibuildwheel#2105, just not released.",
        "assistant: Can you grab /debug/pprof/goroutine?debug=2 and see where they are parked?",
        "user: Should we do the same for the other tests in src/components/SearchBar/?",
        model=model,
    )
    refs = set(summary.references)
    assert {"HOL-2291-NDA v3", "pypa/cibuildwheel#2105", "/debug/pprof/goroutine?debug=2",
            "src/components/SearchBar/"} <= refs
    assert not {"HOL-2291-NDA", "/debug/pprof/goroutine"} & refs  # the longer one's parts


@pytest.mark.parametrize("model", MODELS)
def test_a_short_code_of_capitals_and_a_number_is_no_entity(model):
    names = _names(
        "user: I want the DELE B2 for work. I'm around B1 now, and the rubric fits on one A4 sheet.",
        "Kofi: The minus 80 in room B214 alarmed again. The F1 of the new model is 0.71.",
        "Ana: The U12s train on Thursdays with Ms Okafor.",
        model=model,
    )
    assert not names & {"B1", "A4", "B214", "F1", "U12s"}
    assert {"Kofi", "Ana"} <= names


@settings(max_examples=40, deadline=None)
@given(st.text(alphabet="ABCDEFGHKMRSTUX", min_size=1, max_size=2), st.integers(min_value=1, max_value=999))
def test_any_one_or_two_capitals_and_a_number_alone_is_no_entity(letters, number):
    code = f"{letters}{number}"
    names = _names(f"Dana: We looked at {code} again this morning with Eli.", "Eli: Right.", model=None)
    assert code not in names and "Eli" in names


@pytest.mark.parametrize("model", MODELS)
def test_a_one_word_name_ending_a_longer_one_is_that_one_named_short(model):
    names = _names(
        "user: I'm choosing between a used Toyota Prius and a Tesla Model 3.",
        "assistant: The Prius is cheaper to buy and very reliable.",
        "user: And Hélène Marchand for the cover? Marchand sells copies.",
        model=model,
    )
    assert {"Toyota Prius", "Hélène Marchand"} <= names
    assert not {"Prius", "Marchand"} & names


@pytest.mark.parametrize("model", MODELS)
def test_a_place_ending_a_region_or_a_name_after_of_is_still_its_own(model):
    names = _names(
        "user: We flew from South Africa to Kenya. Africa is huge.",
        "user: The Kingdom of Poland lasted a while. Poland today is different.",
        model=model,
    )
    assert {"South Africa", "Africa", "Kingdom of Poland", "Poland"} <= names


@pytest.mark.parametrize("model", MODELS)
def test_a_number_opening_a_range_after_a_name_is_no_version(model):
    names = _names(
        "assistant: Book a tutor on iTalki 3–4 times a week, or shop at Lidl 2–3 times.",
        "user: And the iPhone 15 I have is fine.",
        model=model,
    )
    assert {"iTalki", "iPhone 15"} <= names
    assert not {"iTalki 3", "Lidl 2"} & names
