"""Normalization that decides when two facts or entities are "the same"."""

from __future__ import annotations

import re
import unicodedata

__all__ = ["PREDICATE_SYNONYMS", "normalize_name", "normalize_predicate", "normalize_value"]

PREDICATE_SYNONYMS: dict[str, str] = {
    "live_in": "lives_in", "living_in": "lives_in", "home": "lives_in", "city": "lives_in",
    "location": "lives_in", "residence": "lives_in", "address": "lives_in", "based_in": "lives_in",
    "work_at": "works_at", "employer": "works_at", "company": "works_at", "works_for": "works_at",
    "job_title": "job", "occupation": "job", "profession": "job", "role": "job",
    "like": "likes", "love": "likes", "loves": "likes", "enjoys": "likes", "prefers": "likes",
    "favourite": "favorite", "dislike": "dislikes", "hates": "dislikes",
    "api_key": "api_key", "key": "api_key", "apikey": "api_key",
    "phone_number": "phone", "telephone": "phone", "mobile": "phone",
    "email_address": "email", "e_mail": "email", "mail": "email",
    "mom": "mother", "mum": "mother", "dad": "father", "neighbour": "neighbor",
    "grandma": "grandmother", "gran": "grandmother", "granny": "grandmother", "nan": "grandmother",
    "grandpa": "grandfather", "grandad": "grandfather", "granddad": "grandfather",
}


def _slug(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).lower()
    text = text.replace("favourite", "favorite")
    return re.sub(r"[^a-z0-9]+", "_", text).strip("_")


def _word_slug(text: str) -> str:
    """``_slug`` keeping the letters of every script: ``"город"`` → ``город``."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return re.sub(r"[\W_]+", "_", text).strip("_")


def normalize_predicate(predicate: str) -> str:
    """``"Lives In"`` → ``lives_in``; synonyms the extractor emits map to one name.

    A predicate with no Latin letter (``"город"``, ``"עיר"``, ``"最喜欢的城市"``) keeps its
    own letters: the Latin slug made each of them ``""``, so every such fact of a subject
    had one key and each new one superseded the last, whatever it was about. (A Latin one
    keeps its Latin slug, accents dropped, so stored keys still match.)"""
    slug = re.sub(r"^(?:(?:my|the|our|your|user_s|users|his|her|their|current|new)_)+", "", _slug(predicate))
    slug = slug or _slug(predicate)
    if not re.search(r"[a-z]", slug):
        slug = _word_slug(predicate) or slug
    if not slug:  # no letter or digit of any script ("...", "🙂"): its own symbols, so that
        # two such predicates are two keys (each was "", and superseded or reinforced the other)
        slug = "_".join(unicodedata.normalize("NFKC", predicate).casefold().split())
    return PREDICATE_SYNONYMS.get(slug, slug)


def normalize_name(name: str) -> str:
    """Case, whitespace and punctuation folded: ``"  Ana  Silva."`` → ``ana silva``.

    A combining mark is part of its word (a Devanagari or Thai vowel sign, a virama, the dot
    "İ" keeps when case-folded): it was punctuation, a space, so "दिन" and "दान" were one
    value ("द न", a restatement instead of a new value) and "İstanbul" became "i stanbul"
    (session 21)."""
    text = unicodedata.normalize("NFKC", name).casefold()
    if text.isascii():
        text = re.sub(r"[^\w\s]", " ", text)
    else:
        text = text.replace("i\u0307", "i")  # "İ" case-folded: the dot is the i's own
        text = "".join(c if c.isalnum() or c == "_" or c.isspace()
                       or unicodedata.category(c)[0] == "M" else " " for c in text)
    return " ".join(text.split())


def normalize_value(value: str) -> str:
    """An object compared for "same value": like a name, without a leading article."""
    text = normalize_name(value)
    return re.sub(r"^(the|a|an) ", "", text)
