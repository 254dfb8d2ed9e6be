"""Session 19's entity and reference rules, on conversations written for these tests and run
through the offline backend, with the patterns alone and with the shipped sentence model: a
pull request named with its number ("PR #2284") is one reference with its kind."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.index.software_words import SOFTWARE_WORDS
from memlane.testing import offline_names, offline_summary

MODELS = ("shipped", None)


_names = offline_names


@pytest.mark.parametrize("model", MODELS)
def test_a_pull_request_with_its_number_is_one_reference(model):
    summary, _ = offline_summary(
        "Kenji: Reviewing PR #2284 now, the migration adds a column.",
        "Ama: Thanks. And issue #1187 is the one it closes.",
        model=model,
    )
    assert "PR #2284" in summary.references
    assert "#2284" not in summary.references  # the number is that reference's part
    assert "#1187" in summary.references  # an issue keeps its number alone, as before


@settings(max_examples=50, deadline=None)
@given(st.integers(min_value=100, max_value=999_999))
def test_any_pull_request_number_after_pr_and_a_hash_is_named_with_its_kind(number):
    summary, _ = offline_summary(f"Kenji: I left comments on PR #{number} this morning.", "Ama: Great.",
                                 model=None)
    assert f"PR #{number}" in summary.references
    assert f"#{number}" not in summary.references


@pytest.mark.parametrize("model", MODELS)
def test_names_given_as_examples_of_a_library_are_entities(model):
    names = _names(
        "Ines: The shift parser breaks on the clock change. Do we write our own?",
        "Tomasz: No, use a library like pendulum or arrow, or a plugin such as hatch-cython for the build.",
        model=model,
    )
    assert {"pendulum", "arrow", "hatch-cython", "Ines", "Tomasz"} <= names


@pytest.mark.parametrize("model", MODELS)
def test_a_word_that_is_no_example_of_a_library_is_no_entity(model):
    names = _names(
        "Ines: I'd like arrow keys on the form, and a tool like this one would do.",
        "Tomasz: Tools like that are fine, the pendulum clock in the hall too.",
        model=model,
    )
    assert not names & {"arrow", "pendulum", "this", "that", "one"}


@settings(max_examples=40, deadline=None)
@given(st.lists(st.from_regex(r"[a-z]{4,9}(?:-[a-z]{3,6})?", fullmatch=True), min_size=1, max_size=3, unique=True),
       st.sampled_from(["a library like", "packages such as", "a tool like", "a crate like"]))
def test_every_name_listed_after_a_library_like_is_an_entity(listed, cue):
    """Every name listed is an entity, except one with a part that tells where or as what a system
    runs ("retry-stg", "queue-svc"): session 40 made such a name a deployed system's reference, and
    it is one here too (hypothesis found "aaaa-stg" in session 46)."""
    from memlane.bench.summaries.run import _NOT_ENTITIES
    from memlane.index.offline import _DEPLOYED, _FILLER
    from memlane.retrieve.text import STOPWORDS

    words = [w for w in listed if w not in STOPWORDS and w not in _FILLER]
    said = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1] if words else ""
    if not said:
        return
    summary, ex = offline_summary(f"Priya: For the retries we could use {cue} {said}, Castleford does.",
                                  "Omar: Good.", model=None)
    names = {e.name for e in ex.entities if e.type not in _NOT_ENTITIES}
    deployed = {w for w in words if _DEPLOYED.fullmatch(w)}
    assert set(words) - deployed <= names
    assert deployed <= set(summary.references)


def test_a_deployed_name_listed_after_a_library_like_is_a_reference_not_an_entity():
    said = ("Priya: For the retries we could use a library like aaaa-stg, Castleford does.", "Omar: Good.")
    summary, _ = offline_summary(*said, model=None)
    assert "aaaa-stg" in summary.references
    assert "aaaa-stg" not in _names(*said, model=None)


@pytest.mark.parametrize("model", MODELS)
def test_a_product_named_with_its_model_is_an_entity_and_its_model_no_reference(model):
    summary, ex = offline_summary(
        "user: hi, my Nimbus AX3000 router arrived with a cracked antenna.",
        "assistant: Sorry about that. Is it the same antenna as on the Fujifilm X100VI case you sent back?",
        "user: no, and I'd swap it for a Roland FP-10 if I could.",
        model=model,
    )
    names = {e.name for e in ex.entities if e.type not in ("date", "reference")}
    assert {"Nimbus AX3000", "Roland FP-10"} <= names
    assert not {"AX3000", "FP-10", "X100VI"} & set(summary.references)


@pytest.mark.parametrize("model", MODELS)
def test_a_key_after_its_kind_stays_a_reference(model):
    summary, ex = offline_summary(
        "user: My booking is Flight KL1841 and the refund is Order EV-55812.",
        "assistant: Thanks. The compiler said Error E0597 as well? And your Member ID FL-20931?",
        model=model,
    )
    names = {e.name for e in ex.entities if e.type not in ("date", "reference")}
    assert {"KL1841", "EV-55812", "E0597", "FL-20931"} <= {r.split()[-1] for r in summary.references}
    assert not {"Flight KL1841", "Order EV-55812", "Member ID FL-20931"} & names


@settings(max_examples=50, deadline=None)
@given(st.sampled_from(["Nimbus", "Fujifilm", "Roland", "Kestrel", "Brompton"]),
       st.from_regex(r"[A-Z]{1,3}-?[0-9]{3,5}[A-Z]{0,2}", fullmatch=True))
def test_any_maker_and_model_code_is_one_entity(maker, code):
    summary, ex = offline_summary(f"user: the {maker} {code} I bought last week stopped working.", "assistant: Sorry.",
                                  model=None)
    names = {e.name for e in ex.entities if e.type not in ("date", "reference")}
    assert f"{maker} {code}" in names
    assert code not in summary.references


@pytest.mark.parametrize("model", MODELS)
def test_an_address_with_its_flat_and_a_rise_is_one_reference(model):
    summary, ex = offline_summary(
        "Chloe: Hi Femi, the boiler at Flat 3, 27 Ashgrove Road has stopped again.",
        "Femi: Sorry, I'll send someone. And the new tenant's address is 9 Lark Rise, Bristol BS5 7QT?",
        model=model,
    )
    assert {"Flat 3, 27 Ashgrove Road", "9 Lark Rise, Bristol BS5 7QT"} <= set(summary.references)
    assert "27 Ashgrove Road" not in summary.references
    assert not {"Lark Rise", "Bristol BS5"} & {e.name for e in ex.entities if e.type not in ("date", "reference")}


@settings(max_examples=50, deadline=None)
@given(st.integers(min_value=1, max_value=99), st.integers(min_value=1, max_value=250),
       st.sampled_from(["Ashgrove", "Lark", "Mill", "Harbour"]),
       st.sampled_from(["Road", "Street", "Rise", "Hill", "Walk", "Parade", "Quay", "Wharf"]))
def test_any_flat_and_house_number_on_a_street_is_one_reference(flat, house, street, ending):
    summary, _ = offline_summary(f"Chloe: the leak is at Flat {flat}, {house} {street} {ending} since Sunday.",
                                 "Femi: On my way.", model=None)
    assert f"Flat {flat}, {house} {street} {ending}" in summary.references


@pytest.mark.parametrize("model", MODELS)
def test_a_package_an_english_word_spells_is_an_entity_in_a_conversation_about_software(model):
    names = _names(
        "Ines: My pandas script that builds the report runs out of memory in the worker.",
        "Tomasz: Then we move the export to celery and retry it with tenacity, same as the email queue.",
        "Ines: Fine, I'll update requirements.txt today.",
        model=model,
    )
    assert {"pandas", "celery", "tenacity", "Ines", "Tomasz"} <= names


@pytest.mark.parametrize("model", MODELS)
def test_a_package_an_english_word_spells_is_the_word_elsewhere(model):
    names = _names(
        "Ines: The school holidays start Friday, so pack a torch and the celery sticks.",
        "Tomasz: And the pandas at the zoo, the kids keep asking.",
        model=model,
    )
    assert not names & {"holidays", "torch", "celery", "pandas"}
    assert {"Ines", "Tomasz"} <= names


@pytest.mark.parametrize("model", MODELS)
def test_code_words_are_no_package_names_even_about_software(model):
    # "build", "retry", "requests", "six", "schema": PyPI packages an English word spells, which the
    # standard library's code uses too: the words, not the packages
    names = _names(
        "Ines: The build fails, six requests time out and the retry never runs.",
        "Tomasz: Check the schema in the python script, then pip install again.",
        model=model,
    )
    assert not names & {"build", "six", "requests", "retry", "schema"}


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(SOFTWARE_WORDS)), st.booleans())
def test_every_listed_package_word_is_a_name_only_in_talk_of_software(name, software):
    said = "pip install" if software else "we talked about"
    summary, ex = offline_summary(f"Priya: Last week {said} {name} again, Castleford was happy.", "Omar: Good.",
                                  model=None)
    names = {e.name for e in ex.entities if e.type not in ("date", "reference")}
    assert (name in names) == software
    assert {"Castleford", "Priya"} <= names


@pytest.mark.parametrize("model", MODELS)
def test_a_name_keeps_a_number_with_its_letter_and_a_model_after_it(model):
    names = _names(
        "Aoife: Christmas rota for Ward 7B is up, and the new laptops have the Ryzen 7 7840U in them.",
        "Dara: Thanks. We take Giffgaff 5GB for the on-call phone. Migrating 2M rows waits until January.",
        model=model,
    )
    assert {"Ward 7B", "Ryzen 7 7840U"} <= names
    assert not {"Ward", "Ryzen 7", "Giffgaff 5GB", "Migrating 2M"} & names
    assert "Giffgaff" in names


@settings(max_examples=50, deadline=None)
@given(st.sampled_from(["Ward", "Wing", "Hangar", "Pier"]), st.integers(min_value=1, max_value=99),
       st.sampled_from("BCDEFHJN"))  # not a unit: A, V, W, K, M, G, T, P
def test_any_name_with_a_number_and_its_letter_is_one_name(word, number, letter):
    names = _names(f"Aoife: The leak is on {word} {number}{letter} since Monday.", "Dara: On it.", model=None)
    assert f"{word} {number}{letter}" in names
    assert word not in names


@pytest.mark.parametrize("model", MODELS)
def test_a_word_opening_a_sentence_paired_with_a_name_is_a_name(model):
    names = _names(
        "user: We're moving to Ghent in March. Which internet providers should I compare?",
        "assistant: Telenet and Proximus both offer fibre in most of the city. Wednesday and Thursday are "
        "the usual install days.",
        model=model,
    )
    assert {"Telenet", "Proximus"} <= names
    assert not {"Wednesday", "Thursday"} & names


@pytest.mark.parametrize("model", MODELS)
def test_a_name_after_a_word_opening_a_sentence_that_names_nothing_is_a_name(model):
    names = _names(
        "user: My landlord kept the whole deposit.",
        "assistant: In England your deposit has to be protected in a scheme. Which Python are you on, by the way?",
        "user: Is Ciaran back from leave by then? Did Apple change the format?",
        model=model,
    )
    assert {"England", "Python", "Ciaran", "Apple"} <= names
    assert not {"In England", "Which Python", "Is Ciaran", "Did Apple"} & names


@pytest.mark.parametrize("model", MODELS)
def test_an_article_opening_a_sentence_keeps_its_own_rule(model):
    # "The …" opening a sentence is session 13's: the article goes, and a one-word name after it
    # does not open the sentence ("The Corn Exchange" is the name, "The Bee" in a title stays as before)
    names = _names("Aoife: The Corn Exchange is booked for the whole of next week. In Galway we stay two nights.", "Dara: Great.", model=model)
    assert {"Corn Exchange", "Galway"} <= names


@pytest.mark.parametrize("model", MODELS)
def test_a_time_zone_is_one_name(model):
    summary, ex = offline_summary(
        "user: The invoice job builds datetimes with a fixed UTC+1 offset in Lisbon.",
        "assistant: Use zoneinfo with Europe/Paris instead, or America/Argentina/Salta for the other office.",
        model=model,
    )
    names = {e.name for e in ex.entities if e.type not in ("date", "reference")}
    assert {"Europe/Paris", "America/Argentina/Salta", "Lisbon"} <= names
    assert not {"Europe", "Paris", "America", "Argentina", "Salta"} & names


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["Europe", "America", "Asia", "Australia", "Pacific", "Africa"]),
       st.from_regex(r"[A-Z][a-z]{3,9}(?:_[A-Z][a-z]{3,7})?", fullmatch=True))
def test_any_area_and_city_is_one_time_zone(area, city):
    names = _names(f"Priya: Set the cron's zone to {area}/{city} before Friday, Castleford agreed.", "Omar: Done.",
                   model=None)
    assert f"{area}/{city}" in names
    assert area not in names and city not in names


@pytest.mark.parametrize("model", MODELS)
def test_a_product_with_its_number_after_a_possessive_is_a_name_of_its_own(model):
    names = _names(
        "user: torn between the ThinkPad X1 Carbon and the Framework Laptop 13 for Rust compiles.",
        "assistant: For heavy compiles, the Framework's Ryzen 7 7840U usually beats the X1's Core Ultra 5. "
        "Brennan's Bakery and Alzheimer's Society keep their names.",
        model=model,
    )
    assert {"Ryzen 7 7840U", "Core Ultra 5", "Brennan's Bakery", "Alzheimer's Society"} <= names
    assert not {"Framework's Ryzen 7 7840U", "X1's Core Ultra 5"} & names


@pytest.mark.parametrize("model", MODELS)
def test_a_department_named_by_its_work_is_no_entity(model):
    names = _names(
        "Nadine: The bucket is public. We need Legal and the DPO in this today.",
        "Marco: Agreed, and Sales will want a line for the customers at Brightwell Legal Services.",
        model=model,
    )
    assert not {"Legal", "Sales"} & names
    assert {"Nadine", "Marco", "Brightwell Legal Services"} <= names


@pytest.mark.parametrize("model", MODELS)
def test_new_good_and_headings_are_not_cut_into_names(model):
    # "New" and "Good" open names ("New Zealand", "Good Omens"): no "Zealand" or "Omens" of them; and a
    # heading of two capitalised words joined by "and" ("Stress and Back Pain", "Pros and Cons of…")
    # pairs no names
    names = _names(
        "user: we fly out for three weeks in March. New Zealand first, and I'll be reading Good Omens on the plane.",
        "assistant: Stress and Back Pain. Pros and Cons of a working holiday visa are below.",
        model=model,
    )
    assert not {"Zealand", "Omens", "Stress", "Pros"} & names


@pytest.mark.parametrize("model", MODELS)
def test_a_library_a_package_or_a_module_in_everyday_talk_makes_no_package_words(model):
    # "library", "packages", "module", "install": words of everyday life too; only code's words
    # ("pip", "import", "python", a .py file…) make a conversation one about software
    names = _names(
        "Ines: The library had a pillow fort for the kids and the packages came with twine around them.",
        "Tomasz: The course module on weather says a tornado can form fast. I'll install the shelves.",
        "Ines: And security tools such as virtual private networks, a tool like pendulum for the clock.",
        model=model,
    )
    assert not names & {"pillow", "twine", "tornado", "virtual"}
    assert "pendulum" in names  # given as an example of a tool, it is named wherever it is said
