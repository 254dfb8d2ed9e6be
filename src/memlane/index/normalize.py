"""Normalization that decides when two facts or entities are "the same"."""

from __future__ import annotations

import re
import unicodedata

from memlane.index import letterclasses

__all__ = ["CAPITAL", "CAPITAL_CATEGORIES", "NAME_WORD", "PREDICATE_SYNONYMS", "SELF_NAMES", "SMALL", "SMALL_CATEGORIES",
           "embedded_fact_text", "fact_text", "letter_class", "name_key",
           "normalize_name", "normalize_predicate", "normalize_value", "speakers_subject",
           "subject_key", "user_subject", "users_own", "value_of_key"]

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
    """``_slug`` keeping the letters of every script, and their combining marks:
    ``"город"`` → ``город``, ``"पिता"`` → ``पिता``. Marks (Devanagari vowel signs, Thai
    tones, Hebrew points) were separators, so ``पिता`` (father) and ``पीता`` (drinks) were
    both ``प_त``: one key."""
    text = unicodedata.normalize("NFKC", text).casefold()
    kept: list[str] = []
    for c in text:
        # a mark belongs to the letter before it; one after a symbol (the emoji selector
        # of "❤️") or a space goes with it
        word = c.isalnum() or (unicodedata.category(c).startswith("M")
                               and bool(kept) and kept[-1] != " ")
        kept.append(c if word else " ")
    return "_".join("".join(kept).split())


def _symbol_slug(text: str) -> str:
    """A predicate of no letter or digit (``"❤️"``, ``"???"``, ``"★★"``, ``"—"``) keeps its
    visible characters, spaces as ``_``: every letter-based slug of it is ``""``, and facts
    were stored with an empty predicate, every such fact of a subject one key."""
    text = unicodedata.normalize("NFKC", text).casefold()
    kept = "".join(c for c in text if unicodedata.category(c) not in ("Cc", "Cf"))
    return "_".join(kept.split()) or text.strip() or text


def _foreign(text: str) -> bool:
    """Whether ``text`` holds a letter of a script other than Latin."""
    return any(c.isalpha() and not unicodedata.name(c, "LATIN").startswith("LATIN")
               for c in text)


_PREFIXES = re.compile(r"^(?:(?:my|the|our|your|user_s|users|his|her|their|current|new)_)+")


def normalize_predicate(predicate: str) -> str:
    """``"Lives In"`` → ``lives_in``; synonyms the extractor emits map to one name.

    A predicate with a letter of another script (``"город"``, ``"עיר"``, ``"最喜欢的城市"``,
    ``"favorite 食べ物"``) keeps all its letters and their marks: the Latin slug made the
    first three ``""`` and the last ``favorite``, so such facts of a subject shared one key
    and each new one superseded the last, whatever it was about. A predicate of symbols
    alone (``"❤️"``, ``"???"``) keeps them. The key is never empty for a predicate with
    something in it. (A Latin one keeps its Latin slug, accents dropped, so stored keys
    still match.)"""
    slug = _PREFIXES.sub("", _slug(predicate)) or _slug(predicate)
    if not re.search(r"[a-z]", slug) or _foreign(predicate):
        words = _word_slug(predicate)
        slug = (_PREFIXES.sub("", words) or words) or slug
    slug = slug or _symbol_slug(predicate)
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


CAPITAL_CATEGORIES = ("Lu", "Lt")
"""The Unicode categories of :data:`CAPITAL`."""
SMALL_CATEGORIES = ("Ll", "Mn")
"""The Unicode categories of :data:`SMALL`."""


def letter_class(categories: tuple[str, ...]) -> str:
    """A regular expression's character class of the characters of the Basic Multilingual
    Plane whose Unicode category is one of ``categories``, as ranges (``[A-ZÀ-ÖØ-Þ…]``).
    Walking the plane takes 16-17 ms: :data:`CAPITAL` and :data:`SMALL` are read from
    ``letterclasses`` (written by ``tools/letter_classes.py``) when it was generated for
    this Python's Unicode version, and walked only otherwise (session 28)."""
    spans: list[str] = []
    start = -1
    for cp in range(0x10001):
        inside = cp < 0x10000 and unicodedata.category(chr(cp)) in categories
        if inside and start < 0:
            start = cp
        elif not inside and start >= 0:
            spans.append(chr(start) if cp - 1 == start else f"{chr(start)}-{chr(cp - 1)}")
            start = -1
    return "[" + "".join(spans) + "]"


# CAPITAL: an uppercase (or title-case) letter of any script, for ``re`` patterns: ``[A-Z]``
# for names (``re`` has no ``\p{Lu}``). SMALL: a lowercase letter of any script or a
# combining mark (an accent typed apart, "José"): ``[a-z]`` for names.
if letterclasses.UNIDATA == unicodedata.unidata_version:
    CAPITAL, SMALL = letterclasses.CAPITAL, letterclasses.SMALL
else:  # another Unicode version than the one the module was generated for
    CAPITAL, SMALL = letter_class(CAPITAL_CATEGORIES), letter_class(SMALL_CATEGORIES)
NAME_WORD = CAPITAL + SMALL + "+"
"""A capitalised word of any script: "Zoe", "Zoë", "Łukasz", "Émile", "Москва"; the name
patterns of facts and entities read it where they read ``[A-Z][a-z]+`` before session 27
(an accented name gave no fact: "My sister Zoë lives in Lisbon")."""


def name_key(name: str) -> str:
    """Who a name is: the key of a fact's subject, an entity and a relation's ends; a
    value's key (:func:`normalize_value`) is this one without a leading article.

    Case, spacing, NFC/NFD, the accents of Latin letters (NFKD, a combining mark after an
    ASCII letter left out, composed again, case-folded), zero-width and format characters
    and punctuation that only decorates (brackets, quotes, a final full stop: "team (EU)" is
    "team EU") are folded (:func:`_value_text`): "José", "JOSE", "José" typed with a
    combining accent are ``jose``; "Zoë" and "Zoe" are ``zoe``; "Ærøskøbing" is
    ``ærøskøbing`` (no mark to drop) and "Müller" stays ``muller``, not "Mueller"'s
    ``mueller``: a transliteration is another spelling, not an accent. A mark of another
    script is part of its letter and kept ("दिन" and "दान", "Й" and "И" stay two), as the
    lexical search folds words (SQLite's ``remove_diacritics``, PostgreSQL's
    ``memlane_fts_text``). Before session 27 "José" and "Jose" were two people.

    A symbol is part of a name (session 31): "C++", "C#" and "C", "F#" and "F", "A+" and
    "A", "AT&T" and "AT T" are each a name of their own (:func:`normalize_name` made every
    symbol a space: "C++" and "C#" were one graph node, the subject "C# team" took over
    "C++ team"'s facts). A name of decoration alone ("...") keeps its visible characters:
    no name with a visible character has the key ``""``."""
    return _fold_accents(_value_text(unicodedata.normalize("NFKC", name).casefold())) or _symbol_slug(name)


def _fold_accents(text: str) -> str:
    """``text`` without the accents of its Latin letters (NFKD, a combining mark after an
    ASCII letter left out, composed again, case-folded): :func:`name_key`'s folding."""
    if text.isascii():
        return text
    kept: list[str] = []
    latin = False  # the last base character is an ASCII letter: its marks are accents
    for c in unicodedata.normalize("NFKD", text):
        if unicodedata.combining(c):
            if not latin:
                kept.append(c)
            continue
        latin = c.isascii() and c.isalpha()
        kept.append(c)
    return unicodedata.normalize("NFC", "".join(kept)).casefold()


def subject_key(subject: str) -> str:
    """The key of a fact's subject: ``user`` for the user however written (:data:`SELF_NAMES`
    after :func:`name_key`, so "The User." too, and a stored key again; "+I" is a name of its
    own), any other name by :func:`name_key`."""
    key = name_key(subject)
    return "user" if key in SELF_NAMES else key


SELF_NAMES = frozenset({"user", "the user", "i", "me", "my", "myself", "mine"})
"""How a caller or a model writes the user as a fact's subject."""


def user_subject(subject: str) -> str:
    """``user`` for the user however a subject writes them ("The user", "I", " me "); any
    other subject as it is. ``add_fact("The user", …)`` was a subject of its own, its value
    current beside the user's (session 26)."""
    return "user" if " ".join(subject.split()).casefold() in SELF_NAMES else subject


def speakers_subject(speaker: str | None, role: str | None) -> str:
    """Who "I" and "my" are in a message: the speaker's name when a user's message carries
    one ("Caroline" in a conversation among named people, a team chat), else ``user``."""
    who = " ".join((speaker or "").split())
    return who if who and role == "user" and who.casefold() not in ("user", "assistant") else "user"


def fact_text(subject: str, predicate: str, obj: str) -> str:
    """A fact as a sentence for search: ``user lives in Lisbon``."""
    return f"{subject} {predicate.replace('_', ' ')} {obj}"


def users_own(subject: str, who: str) -> str | None:
    """A named speaker's (``who``'s) own fact's subject as the same fact of the user's reads
    ("Caroline" -> ``user``, "Caroline's sister" -> ``user's sister``), None when the fact
    is not the speaker's own, or ``who`` is the user (session 19)."""
    if who == "user":
        return None
    if name_key(subject) == name_key(who):
        return "user"
    if subject.startswith(who + "'s "):
        return "user" + subject[len(who):]
    return None


def embedded_fact_text(subject: str, predicate: str, obj: str, speaker: str | None,
                       role: str | None) -> str:
    """The text a fact's vector is made from: its item's text, except a named speaker's own
    fact, embedded as the user's ("user visited Paris" for Caroline's "Caroline visited
    Paris", as her turns are embedded without her name; session 19). ``speaker`` and
    ``role``: of the message it was read from. The indexer, ``backfill_embeddings`` and the
    erasure of the embedding cache's vectors all use this one rule (session 27: backfill
    embedded the item's text, and an erase left the cached vector of the user's form)."""
    own = users_own(subject, speakers_subject(speaker, role))
    return fact_text(subject if own is None else own, predicate, obj)


VALUE_PUNCTUATION = frozenset("#%&@‰‱§¶†‡′″‴⁗")
"""Punctuation that is part of a value, kept in its key like a symbol: "C#", "#1", "50%",
"R&B", "@home", "5′" (session 30). Every other punctuation mark only decorates a value."""


def _value_text(text: str) -> str:
    """``text`` (NFKC, case-folded) with what only decorates a value made a space or dropped:
    format and control characters (zero-width spaces and joiners, the soft hyphen, a
    direction mark) and variation selectors (the emoji presentation of "❤️") dropped;
    punctuation other than :data:`VALUE_PUNCTUATION` and the backtick made a space, except a
    dash before a digit that follows no letter or digit (a sign: "-5"), a hyphen-minus ending
    a word ("A-") and a full stop or
    comma before a digit that follows no letter (a number's point: "3.5", ".5"). Letters,
    digits, marks, ``_`` and every symbol (a sign, ``+``, a currency or unit sign, an emoji,
    an unassigned or private character) are kept; the minus sign U+2212 is a number's sign as
    "-" is ("−5" is "-5") and before anything else a symbol of its own ("−c" is not "c")."""
    text = "".join(c for c in text if c.isspace() or not (
        unicodedata.category(c) in ("Cf", "Cc") or "\ufe00" <= c <= "\ufe0f" or "\U000e0100" <= c <= "\U000e01ef"))
    out: list[str] = []
    for i, c in enumerate(text):
        cat = unicodedata.category(c)
        before = text[i - 1] if i else " "
        digit_next = text[i + 1: i + 2].isdigit()
        if c.isspace():
            out.append(" ")
        elif c in "-\u2212" and digit_next and not before.isalnum():
            out.append("-")  # a sign: "-5", "(-5)", the minus sign's "−5"
        elif (c.isalnum() or c == "_" or cat[0] in "MSC" or c in VALUE_PUNCTUATION) and c != "`":
            out.append(c)
        elif cat == "Pd" and digit_next and not before.isalnum():  # another dash as a sign
            out.append("-")  # a sign: "-5", "(-5)"
        elif c == "-" and before.isalnum() and not text[i + 1: i + 2].isalnum():
            out.append("-")  # a minus after a word: "A-", "B-" (a blood type, a grade)
        elif c in ".," and digit_next and not before.isalpha():
            out.append(c)
        else:
            out.append(" ")
    text = " ".join("".join(out).split())
    # a space between a number and its unit or currency sign decorates: "5 °C" is "5°C",
    # "50 %" "50%", "$ 5" "$5" (session 31)
    return "".join(c for i, c in enumerate(text) if c != " " or not (
        (text[i - 1].isdigit() and _unit_sign(text[i + 1]))
        or (unicodedata.category(text[i - 1]) == "Sc" and text[i + 1:].lstrip("-")[:1].isdigit())))


def _unit_sign(c: str) -> bool:
    """A sign written after a number: a currency or other symbol ("°", "€", an emoji), a
    percent, per-mille or prime sign. Not a mathematical sign ("5 + 3") nor a letter
    ("5 kg": letters after a number are a word as often as a unit)."""
    return unicodedata.category(c) in ("Sc", "So") or c in "%‰‱′″‴⁗"


def normalize_value(value: str) -> str:
    """An object compared for "same value" (a fact's ``norm_object``): case, spacing,
    accents of Latin letters (as :func:`name_key` folds them), NFC/NFD, zero-width and
    format characters and punctuation that only decorates (a final full stop, quotes,
    brackets, a hyphen between words) folded, without a leading article. So "São Paulo",
    "Sao Paulo", "SÃO PAULO", "São Paulo" typed with a combining accent, "Sao  Paulo." are
    one value: restated, not a contradiction, and one current fact of a multi-valued
    predicate. Before session 28 the accents were kept (:func:`normalize_name`): two values,
    the older superseded by the newer, or both current.

    A symbol is part of the value (session 30, :func:`_value_text`): "C++" and "C#", "A+" and
    "A", "-5 °C" and "5 °C", "$5" and "5", "🍕" and "🍣" are each two values (session 28 made
    the key :func:`name_key`, which drops every symbol: each pair was one value, the second
    statement a restatement of the first and lost, and every emoji the key ``""``). A value
    of decoration alone ("...", "?") keeps its visible characters: no value but ``""`` has
    the key ``""`` (an ending's "any value"). The fact keeps its value as written."""
    return value_of_key(name_key(value))


def value_of_key(key: str) -> str:
    """A name's key (:func:`name_key`) as a value is compared (:func:`normalize_value`):
    without a leading article. A relation keeps its target's name key ("The Hague" is
    ``the hague``), and restates a fact when this is the fact's value's key (``hague``, as
    "Hague" said again reinforces it; session 32: compared by name key, ``memlane gc``
    deleted a relation whose fact held, and ``forget_fact`` left one of the forgotten
    value)."""
    return re.sub(r"^(the|a|an) (?=\w)", "", key)
