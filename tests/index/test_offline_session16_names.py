"""Session 16's entity rules, on conversations written for these tests and run through the
offline backend: a language or a people's adjective written as a name ("Korean", "Brazilian
Portuguese") is not an entity, nor is a word in capitals of any length ("CONCURRENTLY", a
keyword in code); the names beside them still are."""

from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.index.offline import _LANGUAGES, OfflineIntelligence
from memlane.types import Message

T0 = datetime(2024, 9, 2, 10, 0, tzinfo=UTC)
OFF = OfflineIntelligence()


def _msgs(texts, speakers=("Ines", "Tomasz")):
    return [Message(i + 1, 1, "s", "user", t, T0 + timedelta(minutes=i), i + 1, speaker=speakers[i % 2])
            for i, t in enumerate(texts)]


def _names(texts):
    _, ex = OFF.summarize("s", _msgs(texts))
    return {e.name for e in ex.entities if e.type not in ("date", "reference")}


def test_languages_and_keywords_in_capitals_are_not_entities():
    names = _names([
        "Yesterday I finished the Korean strings for Lumen Quest, today Brazilian Portuguese.",
        "The PDF export from Folio drops the Polish and Arabic glyphs, so we ship DejaVu Sans.",
        "I'll build the index on Postgres with CREATE INDEX CONCURRENTLY so writes keep going.",
    ])
    assert not names & {"Korean", "Brazilian Portuguese", "Polish", "Arabic", "CONCURRENTLY", "CREATE INDEX"}
    assert {"Lumen Quest", "Folio", "DejaVu Sans", "Postgres", "Ines", "Tomasz"} <= names


def test_a_name_holding_a_language_word_is_still_a_name():
    names = _names(["We booked Turkish Airlines to Izmir and a tour with English Heritage.",
                    "Good, and Marta speaks to the hotel."])
    assert {"Turkish Airlines", "English Heritage", "Marta"} <= names


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(sorted(_LANGUAGES)),
       st.sampled_from(["We need the menu in {} by Friday for Castleford.",
                        "Priya says the {} version for Castleford is late.",
                        "Priya asked whether Castleford has a {} speaker on site."]))
def test_no_language_or_people_adjective_is_an_entity(word, sentence):
    names = _names([sentence.format(word), "Fine, Priya."])
    assert word not in names
    assert {"Castleford", "Priya"} <= names


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=6, max_size=14))
def test_no_single_word_in_capitals_is_an_entity(word):
    names = _names([f"Then run {word} on the Harlow replica before the release.", "Ok."])
    assert word not in names
    assert "Harlow" in names
