"""A fact (subject, predicate, object) as a line a person reads: ``user lives in Lisbon``,
``user's cat is Miso``, ``sister Ana is visiting on April 20th``.

The stored fact keeps its keys (``lives_in``, ``cat``, ``date``): they are what search and
supersession compare. What a person or a model reads (a pack's "Current facts", ``memlane
facts list``, MCP's text, the inspector) is phrased here, for every predicate an extractor
writes: a verb (``lives_in``, ``works_at``, ``likes``, ``visited``, ``signed_up_for``) reads
after the subject, an adjective with its preposition (``allergic_to``) after "is", a noun
(``cat``, ``sister``, ``job``, ``favorite_food``, ``vans``) as the subject's with "is" or
"are", and an object that is already a clause ("is visiting on April 20th", "start on the
8th") follows the subject alone. The object is never altered.
"""

from __future__ import annotations


__all__ = ["fact_sentence", "predicate_words"]

_PREPOSITIONS = frozenset(
    "in at for to from with on of by about into onto as under near over since".split())
_AUX = frozenset(
    "is are was were am be been being has have had will would shall can could may might must "
    "does do did isn't aren't wasn't weren't hasn't haven't won't can't".split())
_VERBS = frozenset(
    "likes dislikes loves hates enjoys prefers uses owns has lives works speaks plays drives "
    "wants needs knows studies teaches runs reads writes eats drinks wears keeps visits "
    "attends follows supports watches makes takes goes does says thinks feels "
    "decided did started acquired visited scheduled graduated moved met bought got joined "
    "left married adopted chose picked agreed began took made went saw won lost sold "
    "signed registered enrolled switched".split())
"""First words read as a verb: the rest of the predicate follows the subject as written."""
_PHRASES = {"from": "is from", "born_in": "was born in", "born_on": "was born on",
            "born": "was born", "scheduled": "has scheduled:", "api_key": "API key", "decided": "decided:", "did": "did:"}
"""Predicates a rule would phrase badly."""
_SINGULAR_S = ("ss", "us", "is", "ys")


def predicate_words(predicate: str) -> str:
    """``signed_up_for`` → ``signed up for``: the key's words as written."""
    return " ".join(predicate.replace("_", " ").split()) or predicate


def _possessive(subject: str) -> str:
    return subject + ("'" if subject.endswith(("s", "S")) and not subject.endswith("'s") else "'s")


def _is_verb(first: str) -> bool:
    low = first.lower()
    return low in _VERBS or low in _AUX or (len(low) > 3 and low.endswith("ed"))


def _stems(word: str) -> set[str]:
    """``starts`` → {starts, start, star}: the forms of a verb its object may open with."""
    return {word, word[:-1], word[:-2]} if word else set()


def fact_sentence(subject: str, predicate: str, obj: str) -> str:
    """The fact as one readable line; ``obj`` appears in it unchanged, at its end."""
    subject = " ".join(subject.split()) or "(someone)"
    words = predicate_words(predicate)
    parts = words.split()
    first = parts[0].lower() if parts else ""
    lead = obj.lstrip().split(" ", 1)[0].lower() if obj.strip() else ""
    key = "_".join(p.lower() for p in parts)
    if key in _PHRASES:
        phrase = _PHRASES[key]
        if phrase.endswith(":") or " " in phrase and phrase.split()[0] in ("is", "was"):
            return f"{subject} {phrase} {obj}"
        return f"{_possessive(subject)} {phrase} is {obj}"
    # the object is already a clause: "is visiting on April 20th" (the offline backend's
    # date of a named thing), "start on the 8th" (starts), "runs out on Friday" (runs_out)
    if (key == "date" and lead in _AUX) or (len(lead) > 2 and lead in _stems(first)):
        return f"{subject} {obj}"
    if not parts:
        return f"{subject}: {obj}"
    if _is_verb(first) or (len(parts) > 1 and first.endswith("s") and parts[-1].lower() in _PREPOSITIONS):
        return f"{subject} {words} {obj}"
    if parts[-1].lower() in _PREPOSITIONS:  # "allergic to", "married to", "interested in"
        return f"{subject} is {words} {obj}"
    last = parts[-1].lower()
    plural = last.endswith("s") and not last.endswith(_SINGULAR_S) and last.isascii()
    return f"{_possessive(subject)} {words} {'are' if plural else 'is'} {obj}"


