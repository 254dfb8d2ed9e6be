"""Session 58's rules for topics (docs/summary-eval.md, "Session 58: topics … (top58)"): a
phrase opening on a word for a person ("sister marta", "mum") is no topic, nor a pair opening on
a modifier of size, age, worth or order ("old mill"), nor a part or a side alone ("bottom"); a
pair opening on a colour or a word that makes a kind ("black mould") stays, and so does a pet
("dog"). Small conversations written for these tests, both ways (with the sentence model and the
patterns alone)."""

import pytest

from memlane.testing import offline_summary

PARTY = (
    "Tom: My sister Marta wants a surprise party for her fortieth, in the function room of the cricket club.",
    "Lena: A surprise party at the cricket club sounds lovely. Does my sister Marta suspect anything?",
    "Tom: No. The function room holds sixty, and the club bar can do a buffet.",
    "Lena: Then let's book the function room for the Saturday and ask the club bar about the buffet.",
    "Tom: I'll ring the cricket club tomorrow and get a buffet quote.",
    "Lena: My sister Marta hates speeches, so no speeches.",
    "Tom: Agreed. Her partner Jonas can bring her over at eight without saying why, and the neighbours "
    "can hide in the car park.",
    "Lena: Perfect. I'll order a cake from the bakery on the high street, chocolate with her name on it.",
)

MILL = (
    "Ruth: The old mill by the canal is for sale, and the parish council wants it as a heritage centre.",
    "Sam: The old mill needs a new roof first. The heritage centre idea is good, but the roof comes first.",
    "Ruth: The lottery fund gives grants for heritage roofs. The old mill qualifies, I checked.",
    "Sam: Then we apply to the lottery fund for the roof, and the parish council backs the heritage centre.",
    "Ruth: I'll draft the lottery fund application this week.",
    "Sam: Good. Ask the canal trust too, they own the towpath beside the old mill and might chip in for "
    "the footbridge.",
    "Ruth: Will do. The volunteers from the history society can help with the paperwork and the photos.",
)

MOULD = (
    "Ivy: There's black mould on the bathroom ceiling again, and the dog keeps sniffing at the skirting.",
    "Assistant: Black mould on a bathroom ceiling usually means the steam has nowhere to go. Does the "
    "extractor fan run when you shower?",
    "Ivy: The extractor fan is broken. And the dog sleeps in the bathroom when it's cold, is the black "
    "mould bad for the dog?",
    "Assistant: Mould spores can irritate a dog's airways, so keep the dog out until it's cleaned. Fix the "
    "extractor fan first, then clean the black mould with a fungicidal wash.",
    "Ivy: Right, I'll get the extractor fan repaired and keep the dog in the kitchen for now.",
    "Assistant: Good plan. Wear gloves and a mask for the fungicidal wash, and leave the window open for "
    "an hour after.",
)

FENCE = (
    "Gus: The garden fence is leaning at the bottom, and the gate won't shut.",
    "Assistant: A fence leaning at the bottom usually means a rotten post. Is the post soft at ground level?",
    "Gus: Yes, the post is soft at the bottom, you can push a screwdriver into it.",
    "Assistant: Then replace the post. A concrete spur bolted to the old post is the cheap fix; a new post "
    "set in postcrete is the lasting one.",
    "Gus: I'll go with a new post in postcrete, and rehang the gate after.",
    "Assistant: Good. Prop the fence panel while the postcrete sets, about a day, then rehang the gate on "
    "the new post.",
)


@pytest.mark.parametrize("model", ["shipped", None])
def test_a_phrase_opening_on_a_person_is_no_topic(model):
    # the pair ranked first ("sister marta", said three times) is who, not what
    topics = offline_summary(*PARTY, model=model)[0].topic_tags
    assert topics == ("function room", "club", "surprise party", "buffet")


@pytest.mark.parametrize("model", ["shipped", None])
def test_a_pair_opening_on_a_modifier_of_age_is_no_topic(model):
    topics = offline_summary(*MILL, model=model)[0].topic_tags
    assert topics == ("heritage centre", "lottery fund", "parish council")


@pytest.mark.parametrize("model", ["shipped", None])
def test_a_colour_before_its_noun_and_a_pet_stay(model):
    topics = offline_summary(*MOULD, model=model)[0].topic_tags
    assert topics == ("black mould", "dog", "extractor fan", "bathroom")


@pytest.mark.parametrize("model", ["shipped", None])
def test_a_part_alone_is_no_topic(model):
    # "bottom", said twice, took the third slot
    topics = offline_summary(*FENCE, model=model)[0].topic_tags
    assert topics == ("fence", "gate", "postcrete")
