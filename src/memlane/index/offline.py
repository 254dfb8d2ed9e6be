"""The offline intelligence backend: summaries and facts from the text itself.

No LLM and no network. It writes the same structured summary an LLM would — salient
sentences as context, keyphrases as topics, decisions, open questions, next steps,
action items, references, named entities — and reads first-person facts and preferences
("my X is Y", "I moved to", "I prefer", "I started", "my sister Ana") with plain,
documented patterns; by default a small sentence model shipped in the package
(:mod:`memlane.index.sentmodel`, numpy only) adds the decisions, next steps and rationale
it is sure of. It is extractive: every field quotes or trims what was said.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from functools import lru_cache
from itertools import repeat
from typing import Any

from memlane.clip import clip
from memlane.index.clauses import AMOUNT, CLAUSE
from memlane.index.cues import (
    _ASKS,
    _CAN_YOU,
    _I_WILL,
    _STEP_VERBS,
    Cues,
    _said_again,
    _Turn,
    agrees,
    is_courtesy,
    read_cues,
    says_little,
    says_nothing,
)
from memlane.index.ending import with_endings
from memlane.index.morefacts import NUMBER_WORDS, with_more_facts
from memlane.index.normalize import CAPITAL, NAME_WORD, normalize_predicate
from memlane.index.people import (
    CHAT_FILLERS,
    KIN_PREDICATES,
    KIN_WORDS,
    PEOPLE_WORDS,
    PET_PREDICATES,
    asserted,
    kin_names,
    may_state,
    people_facts,
    speaker_subject,
)
from memlane.index.englishwords import is_english_word
from memlane.index.propernames import PROPER_NAMES
from memlane.index.software import SOFTWARE
from memlane.index.software_words import SERVICES, SOFTWARE_WORDS, TOOLS
from memlane.index.schema import (
    MAX_OBSERVATIONS,
    Entity,
    Extraction,
    Fact,
    Observation,
    Relation,
    SessionSummary,
)
from memlane.ingest.redact import PLACEHOLDER
from memlane.retrieve.text import STOPWORDS
from memlane.types import Message

__all__ = ["OfflineIntelligence"]

_SENT = re.compile(r"[.!?\n](?:(?<=[.!?])\s+(?=[\"'(\[]?(?:[0-9]|" + CAPITAL + r")|@\w)|(?<=[?.])\s+(?=[a-z])|(?<=\n)\n*)")
"""A sentence break: end punctuation, blanks and a capital of any script or a digit (optionally
after a quote or bracket; "Great. Łukasz will…" breaks as "Great. Lukasz will…" does, session 28)
or an "@name" (session 13), or a run of newlines; before a small letter
:func:`_sentences` decides (a question since session 18, a stop since session 19; an
exclamation mark never ends one there: "Yahtzee! dice to see which one…"). It opens on one of
four characters, so the engine skips straight to them instead of trying a lookbehind at
every character (3x faster); the punctuation stays with its sentence."""
_TITLE = re.compile(r"\b(?:Dr|Mr|Mrs|Ms|St|Prof|Mt|Rev)\.$")
"""A sentence's end: not the stop of a title before a name ("Dr. Okafor", session 10; "Rev. Moore",
session 37)."""
_WORD = re.compile(r"[^\W\d_](?:[^\W_]|['+-])*[^\W_]|[^\W\d_]")
"""A word: a letter of any script, then letters, digits, "'", "+" or "-", ending on a letter or
digit ("Nações", "café", "Zürich", "c++" no: "c"). Until session 27 the letters were ASCII's,
so "Parque das Nações" was read as "parque das na es" and "café culture" as "caf culture"."""
_WORD_LOW = re.compile(r"[a-z][a-z0-9]*+(?:['+-]++[a-z0-9]++)*+")
""":data:`_WORD` on lower-cased ASCII text, which holds no capital: the same words, a fifth
cheaper (one branch, not a second try of every letter) (session 21). Written as runs of letters
and digits joined by runs of "'", "+" and "-", each taken whole (possessive), it ends on its last
letter or digit without giving characters back as ``[a-z](?:[a-z0-9'+-]*[a-z0-9])?`` did: the
same words, 150 -> 124 ms over the 500 LongMemEval sessions' 53,117 sentences (session 33, the
cost; ``tests/index/test_offline_session33_cost.py``)."""
_FILLER = STOPWORDS | {
    "yes", "yeah", "ok", "okay", "sure", "thanks", "thank", "please", "hi", "hello", "hey",
    "great", "good", "really", "much", "well", "one", "like", "would", "could", "might",
    "maybe", "also", "lot", "thing", "things", "something", "anything", "way", "sounds",
    "help", "want", "need", "let", "make", "know", "see", "use", "going", "go", "get",
    "new", "time", "day", "today", "now", "still", "even", "back", "right", "able",
    "near", "last", "next", "week", "weeks", "month", "months", "year", "years", "ago",
    "every", "yesterday", "tomorrow", "tonight", "morning", "evening", "quick", "question",
    "name", "noted", "got", "idea", "ideas", "tips", "suggest", "recommend", "recommended",
}
_PETS = ("cat", "dog", "puppy", "kitten", "pet")

_EXTS = (r"(?:py|js|ts|tsx|md|txt|json|toml|ya?ml|sql|go|rs|java|kt|c|h|cpp|rb|sh|cfg|ini|lock|csv|mod|env|tf|"
         r"ipynb|pdf|docx?|xlsx?|pptx?|png|jpe?g|svg|html?|css|conf|log|xml|"
         r"bib|db|sqlite3?|xhtml|ncx|gradle|kts|ods|odt|odp|esp|esm|timer|service|socket|zip|tar|gz|tgz|"
         r"mp3|mp4|mov|wav|flac|epub|mobi|pem|crt|jar|apk|aab|ipa|dmg|exe|msi|bak|parquet|heic|tiff?|gif|"
         r"webp|psd|ics|vcf|eml|srt|lua|php|swift|vue|svelte|scss|dart|scala|proto|graphql|tex|rst|ps1|"
         r"bat|plist|whl|deb|rpm|iso|mjs|cjs|jsx|mdx|pkl|onnx|gpx|kml|stl|gcode|dwg|dxf)\b")
"""A file's extensions: code, documents, data, archives, media, keys and units; from "bib" on session
42's ("refs.bib", "app.db", "settings.gradle", "seedlog_2025.ods", "logrotate.timer", "toc.ncx")."""
_STREETS = r"(?:Road|Street|Lane|Close|Grove|Court|Row|Avenue|Drive|Way|Place|Crescent|Terrace|Gardens|Square|Mews|Rise|Hill|Walk|View|Parade|Green|Vale|Wharf|Quay|Yard|Boulevard|Embankment)"
"""What a street's name ends in: with a house number before it, an address ("Rise" to "Embankment":
session 19, "9 Lark Rise, Bristol BS5 7QT"); a flat's number before the house's is the address's
("Flat 3, 27 Ashgrove Road", session 19), as one after it is ("22 Elm Grove, Flat 3")."""
_TLDS = r"(?:com|org|net|io|dev|app|ai|co|edu|gov|ms|uk|de|fr|me|ly|gg|tv|is|nl|ie|eu|ca|au|es|se|ch|pt|it|be|at|dk|no|fi|pl|cz|nz|jp|in|br|mx|za|sg|hk|example|internal|local|lan)"
"""What a domain's name ends in (the country endings "pt" to "hk" since session 20: "cp.pt",
"ethnosuoni.it"). Until session 18 the cheap test before the domain pattern knew only the first
ten, so "aka.ms/setup" or "umferdin.is" alone in a message was never read; ".example" is the name
the standard reserves for examples ("help.canvasly.example")."""
_WORK_WORD = r"(?!I(?:'m|'d|'ve|'ll)?\b)(?![A-Z]+\b)(?![A-Z][a-z]+[A-Z])[A-Z][\w'’]*+(?!-)"


def _title(least: int) -> str:
    """A title of a work: ``least + 1`` to six capitalised words, small words between them
    ("Klara and the Sun"); not an acronym ("TV"), a name with a capital inside ("YouTube")
    or a hyphenated one."""
    return (r"((?:The |A |An )?" + _WORK_WORD + r"(?:(?: of| the| in| a| an| and the|, and)* (?:"
            + _WORK_WORD + r"|\d+\b)){" + str(least) + ",5})")


_WORK = _title(0)
_WORK_BY = _title(1)
"""A title before "by <author>": two words or more (a headline's "Tried and Tested by…" is no title)."""
_REFS = [
    # any scheme: https://, s3://, postgres://; a redacted secret inside stays inside
    # ("postgres://app:[REDACTED:password#5cce]@db:5432/app": one reference, not its half)
    re.compile(r"\b[a-z][a-z0-9+.-]*://(?:\[REDACTED:[a-z_]+(?:#[0-9a-f]{4})?\]|[^\s)>\]])+"),
    # paths with an extension; a long one of letters too ("networking/terraform.tfstate", session 25)
    re.compile(r"(?<![\w/])(?:[\w.-]+/)+[\w.-]+\.(?:[A-Za-z0-9]{1,6}|[A-Za-z]{7,10})\b"),
    # bare file names, with one part before the extension ("gunicorn.conf.py", session 29) or two
    # ("sentry.client.config.ts", session 42); not initials with their dots ("i.c." engines, "a.c." power:
    # a letter, a dot, a letter, a dot, session 45)
    re.compile(r"(?<![\w/.-])(?![A-Za-z]\.[A-Za-z]\.)[\w-]+(?:\.[A-Za-z][\w-]*){0,2}\." + _EXTS),
    re.compile(r"\b(?:feat|fix|feature|bugfix|hotfix|release|chore)/[\w./-]+"),  # branches
    # keys: BILL-142, INV-2026-1187-R; one letter before four digits or more: a quote's "Q-55810"
    # with the name it hangs from ("ELBSecurityPolicy-TLS13-1-2-2021-06" whole, not its tail, session 28)
    re.compile(r"\b(?:[A-Z][A-Za-z0-9]{1,30}-(?=[A-Z]))?"
               r"(?:[A-Z][A-Z0-9]{1,9}(?:-[A-Z0-9]+)*-\d{1,10}(?:-[A-Z0-9]{1,4})?|[A-Z]-\d{4,10}(?:-\d{1,10})*(?![\w-]))\b"),
    re.compile(r"(?<![\w&])#(?:\d{1,6}\b|[0-9A-Fa-f]{6}\b|[a-z][a-z0-9]*(?:-[a-z0-9]+)+)"),  # issues, colours, channels
    re.compile(r"(?<![\w/.@-])(?:[\w-]+\.)+" + _TLDS + r"\b"
               r"(?![.@]\w)(?:/[\w-]+(?:\.[\w-]+)*)*"),  # domains, with a path
    re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"),  # e-mail addresses
    re.compile(r"(?<![\w/.-])(?:[\w.-]+/)+(?:Dockerfile|Makefile|Procfile|Jenkinsfile|README|LICENSE)\b"),
    re.compile(r"(?<![\w/:.-])[\w.-]+/(?:[\w.-]+/)+(?=[\s,;)]|[.?!]?$|[.?!]\s)"),  # directories: app/models/, "in src/x/?"
    re.compile(r"\b(?:(?:[Oo]rder|[Ii]nvoice|[Bb]ooking|[Cc]onfirmation)\s+(?:number\s+|no\.?\s+|#)?"
               r"(?:(?:\d{3,}(?:-\d{3,})+|\d{2}-\d{4,})(?![\w-])|\d{4,}(?!-))|"
               r"(?:[Aa]ccount|[Cc]ase|[Cc]laim|[Tt]icket|[Pp]olicy|[Rr]eference|[Mm]ember(?:ship)?|[Cc]ustomer|"
               r"[Ee]mployee ID|[Cc]ard|[Rr]eceipt|PR|PO)\s+(?:number\s+|no\.?\s+|(?<=PR )#)?\d[\d-]{1,}\d(?:(?: \d{2,4}){2,3})?)\b"),  # numbered
    re.compile(r"\b(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z][A-Z0-9]*[A-Z])(?:(?=[A-Z0-9]*\d[A-Z0-9]*\d)|"
               r"(?=[A-Z0-9]*[A-Z][A-Z0-9]*[A-Z][A-Z0-9]*[A-Z]))[A-Z0-9]{6,}\b"),  # codes: KL1841, QX7LMP
    re.compile(r"\b(?:card|account) ending (?:in )?\d{4}\b"),  # a card by its last digits
    re.compile(r"\b(?:[Ff]orm|[Dd]iscussion|[Cc]lient number|[Mm]embership number|[Mm]ember ID|[Cc]ard number)"
               r"\s+#?(?=[A-Z0-9-]*\d)[A-Z0-9][A-Z0-9-]+[A-Z0-9]\b"),  # a key with the kind of paper it keys: "form IC-2"
    re.compile(r"(?:\bFlat\s+\d{1,3}[A-Z]?,\s+)?\b\d{1,3}[A-Z]?\s+(?:[A-Z][a-z]+\s+){1,2}" + _STREETS + r"\b(?:,\s+Flat\s+\d+[A-Z]?\b|"
               r",\s+(?:[A-Z][a-z]+\s+)?[A-Z]{1,2}\d{1,2}[A-Z]?\s+\d[A-Z]{2}\b|"  # a postcode: "14 Harrow Road, NG8 1FL"
               r",\s+[A-Z][a-z]+(?:\s+[A-Z]{1,2}\d{1,2}[A-Z]?\s+\d[A-Z]{2}\b)?)?"),  # addresses: "4B Quay Street, Galway"
    re.compile(r"\b(?:watch(?:ing)?|[Ww]atched|[Rr]ewatch(?:ed|ing)?|[Rr]e-?read(?:ing)?|read(?:ing)?|Reading|copies of|"
               r"[Ff]inish(?:ed|ing)|[Ss]ang|[Ss]inging|"  # session 17: a book finished, a song sung
               r"(?:the|a|our|my|his|her|their|your) (?:book|novel|film|movie|album|song|play|musical|documentary|"
               r"podcast|series|show))\s+"
               + _WORK),  # a work by what is done with it: "watched Past Lives", "12 copies of Intermezzo", "her book Yokes" (session 25)
    re.compile(_WORK_BY + r"\s+by\s+[A-Z][a-z]+\s+(?:[A-Z]\w*\.?\s+)*[A-Z][a-z]+"),  # "Night Ferry by Ruth St. James Oduya"
]
def _guard(g: str | tuple[str, ...] | re.Pattern[str] | Callable[[str], bool]) -> Callable[[str], bool]:
    if callable(g):  # a test of its own
        return g
    if isinstance(g, str):
        return lambda text: g in text
    if isinstance(g, tuple):
        return lambda text: any(x in text for x in g)
    return lambda text: g.search(text) is not None


_DOT_LOWER = re.compile(r"\.[a-z]")
"""A stop before a small letter, which every match of the extension's and the domain's tests below
holds (each extension and each domain's ending opens on a small letter): most messages' stops end
sentences, and a message without one is not searched with the two tests' long lists (session 48,
perf48)."""
_EXT_GUARD = re.compile(r"\." + _EXTS)
_TLD_GUARD = re.compile(r"\." + _TLDS + r"\b")
_NEW_WORDS = tuple(frozenset(cues.split()) for cues in (
    "form Form discussion Discussion number ID",
    " ".join(w + p for w in _STREETS[3:-1].split("|") for p in ("", ",", ".")),
    "watch watched Watched watching rewatched Rewatched read reading Reading reread Reread re-read "
    "finished Finished finishing Finishing sang Sang singing Singing "
    "copies book novel film movie album song play musical documentary podcast series show",
    "by",
))
_NEW_ANY = frozenset().union(*_NEW_WORDS)
"""Every word one of session 11's kinds needs (:data:`_NEW_WORDS`, one set for each): a turn
holding none is not split into a set for the four tests (session 48, perf48)."""
_REF_GUARDS = [_guard(g) for g in (
    "://", "/", lambda text: _DOT_LOWER.search(text) is not None and _EXT_GUARD.search(text) is not None,
    "/", re.compile(r"-\d"), "#",
    lambda text: _DOT_LOWER.search(text) is not None and _TLD_GUARD.search(text) is not None, "@",
    ("Dockerfile", "Makefile", "Procfile", "Jenkinsfile", "README", "LICENSE"), "/",
    "", "", " ending ",
)] + [(lambda words, cues=cues: not cues.isdisjoint(words)) for cues in _NEW_WORDS]
"""A cheap test per reference pattern: most messages hold none, and the full patterns,
which try every word, are then skipped (a third of the offline summary's time)."""
_REF_TOKENS = ("/", "/", ".", "/", "-", "#", ".", "@", "/", "/", None, None, None, None, None, None, None)
"""A character every match of each reference pattern holds. No match spans a blank, so a
pattern finds the same references in the message's blank-separated words that hold its
character, joined by spaces, as in the whole message, at a fraction of the cost (the
path patterns cost ~150 ns a character); None: the whole message ("order 12345" spans a
blank; codes are searched in every word)."""


_NUMBER = re.compile(r"(?<![\w-])\d[\d-]{1,}\d(?:(?: \d{2,4}){2,3})?\b(?!-)")
"""A number, or one written in groups ("8830 4412 97": three groups or more, session 12)."""
_NUMBER_GUARD = re.compile(r"\d[\d-]+\d")
"""What every :data:`_NUMBER` match holds, found without its look-behind at every character: a
message without it is not searched for numbered references (session 21, the cost)."""
_NAMED_BEFORE = re.compile(
    r"\b(?:(?P<old>(?:[Oo]rder|[Ii]nvoice|[Bb]ooking|[Cc]onfirmation)\s+(?:number\s+|no\.?\s+|#)?)|"
    r"(?:[Aa]ccount|[Cc]ase|[Cc]laim|[Tt]icket|[Pp]olicy|[Rr]eference|[Mm]ember(?:ship)?|[Cc]ustomer|"
    r"[Ee]mployee ID|[Cc]ard|[Rr]eceipt|PR|PO)\s+(?:number\s+|no\.?\s+|(?<=PR )#)?)$")
"""What names the number just after it ("Order 40917", "Account 7730-1182", "PR #2284": a pull request
keeps its kind and its hash, session 19): the numbered-
reference pattern read from the number back, which is ten times cheaper than trying every
word of a message (session 10)."""
_NUMBERED, _CODES, _NEW, _BY = 10, 11, 13, 16
"""The indexes in :data:`_REFS` of the numbered-reference and the code patterns, of the
first pattern searched in a conversation's turns only (session 11's kinds), and of the title
before its author's name."""
_BY_NAME = re.compile(r"by\s+[A-Z][a-z]+\s")
""""by", blanks, a capitalised word and a blank, which every match of the title before its author
(:data:`_REFS`' last) holds: a turn with the word "by" but no name after it ("by Friday", "by the
way") is not searched with it, whose title is tried at every word (session 48, perf48)."""
_NAME_REFS = _REFS[: _NEW + 1]
"""The reference patterns a capitalised phrase can match (a key named by its kind, "Form
I-129", the last): an address opens with its number, and a title is found by the words
around it, which no phrase holds — their patterns, tried on every new phrase, cost a tenth
of the offline summary's time for nothing."""
_NAME_REF_TOKENS = tuple(zip(_NAME_REFS, _REF_TOKENS[: _NEW + 1], strict=True))
""":data:`_NAME_REFS` with the character each one's every match holds (:data:`_REF_TOKENS`):
a phrase without it is not searched with that pattern (session 21, the cost)."""
_REF_CHAR = re.compile(r"[\d/.#@]")
"""What every match of :data:`_NAME_REFS` holds: a digit (the keys, numbers and codes), a "/" (addresses
with their scheme, paths, branches, directories), a "." (file and domain names), "#" (issues, channels)
or "@" (e-mail addresses). A capitalised phrase without one (most new phrases: 12,979 of 13,787 in 2,000
LongMemEval sessions) is a name, not searched with the 14 patterns (session 48, perf48b)."""
_REF_SHORT = 800
"""Messages up to this many characters (a conversation's turns; a sixth of LongMemEval's
text) are searched for every numbered reference and every code of six characters or more;
longer ones (an assistant's long answers) only for session 9's kinds — numbered orders,
invoices, bookings and confirmations, codes of ten characters or more — whose patterns cost
a fraction (the offline backend's ≥ 300 sessions/s)."""
_OLD_NOUNS = ("rder ", "nvoice ", "ooking ", "onfirmation ")
_OLD_NUMBERED = re.compile(r"\b(?=[OoIiBbCc])(?:[Oo]rder|[Ii]nvoice|[Bb]ooking|[Cc]onfirmation)\s+(?:number\s+|no\.?\s+|#)?"
                           r"(?:(?:\d{3,}(?:-\d{3,})+|\d{2}-\d{4,})(?![\w-])|\d{4,}\b)")
_DASHED = re.compile(r"\d{3,}(?:-\d{3,})+|\d{2}-\d{4,}")
"""An order's, an invoice's, a booking's number in dashed groups of three digits or more ("order
7731-4408", "order 558-2091147"; not "order 10-12", nor a date "2025-03-14") (session 16)."""
_OLD_CODE_GUARD = re.compile(r"\d[A-Z0-9]{8}")
_CODE_CHARS = bytes(65 if 48 <= b <= 57 or 65 <= b <= 90 else 32 for b in range(256))
"""A byte table writing "A" for a digit or a capital and a blank for anything else."""


def _may_hold_old_code(text: str) -> bool:
    """Whether :data:`_OLD_CODE_GUARD` finds a digit and eight digits or capitals after it in
    ``text``. Plain ASCII text (where ``\\d`` is ``[0-9]``) without nine such characters in a
    row, found by a byte translation and ``in``, is not searched with the pattern, which costs
    three times as much on an assistant's long answers (session 23, the cost)."""
    if text.isascii() and b"AAAAAAAAA" not in text.encode("ascii").translate(_CODE_CHARS):
        return False
    return _OLD_CODE_GUARD.search(text) is not None


def _may_hold_code(text: str) -> bool:
    """Whether ``text`` may hold a code (:data:`_WORD_CAPS` and the codes pattern: six digits
    or capitals in a row, a digit among them). Plain ASCII text without six in a row, found by
    a byte translation and ``in`` (most turns), is not searched with :data:`_WORD_CAPS`, whose
    every character's ``\\b`` costs a fifth of the references' time on the turns (session 35,
    the cost)."""
    return not text.isascii() or b"AAAAAA" in text.encode("ascii").translate(_CODE_CHARS)


_DIGIT_DASH = bytes(68 if 48 <= b <= 57 else 45 if b == 45 else 32 for b in range(256))
"""A byte table writing "D" for a digit, "-" for a dash and a blank for anything else."""


def _may_number(text: str) -> bool:
    """Whether :data:`_NUMBER_GUARD` may find a number in ``text``: in plain ASCII text (where
    ``\\d`` is ``[0-9]``) each match opens with a digit and a digit or a dash after it, found
    by a byte translation and ``in`` at a fifth of the pattern's cost (session 35)."""
    if not text.isascii():
        return True
    digits = text.encode("ascii").translate(_DIGIT_DASH)
    return b"DD" in digits or b"D-" in digits


def _has_digit(text: str) -> bool:
    """Whether ``text`` holds a digit (``\\d``, as :data:`_DIGIT` finds one): plain ASCII text
    by ``in`` for each of the ten (a quarter of the pattern's cost on a whole message)."""
    if text.isascii():
        return any(map(text.__contains__, "0123456789"))
    return _DIGIT.search(text) is not None


_DIGIT_CHARS = bytes(68 if 48 <= b <= 57 else 32 for b in range(256))
"""A byte table writing "D" for a digit and a blank for anything else."""


_SHAPE = bytes(68 if 48 <= b <= 57 else 97 if 97 <= b <= 122 else 65 if 65 <= b <= 90 else b if b in (45, 46) else 32
               for b in range(256))
"""A byte table writing a text's shape: "D" for a digit, "a" for a small letter, "A" for a capital, "-" and
"." as they are, a blank for anything else. In plain ASCII text (where ``\\d`` is ``[0-9]``) each of session
12's kinds below holds a shape of its own, found by ``in`` on the translation, and a turn without it is not
searched with that kind's pattern, whose look-behind runs at every character (session 48, perf48b):
:data:`_SEMVER` and :data:`_IPV4` a digit, a stop, one to three digits, a stop and a digit
(:data:`_DOTTED_SHAPES`); :data:`_SLUG` a letter or a digit, a dash and a digit, or a small letter before a
digit (:data:`_SLUG_SHAPES`); :data:`_NUMBERED_NAME` two small letters, a dash and a digit;
:data:`_ERROR_CODE` a capital and four digits; :data:`_DIGIT_KEY` two digits, a dash and two capitals."""
_DOTTED_SHAPES = (b"D.D.D", b"D.DD.D", b"D.DDD.D")
_SLUG_SHAPES = (b"a-D", b"D-D", b"aD")


def _old_numbered(text: str) -> list[str]:
    """:data:`_OLD_NUMBERED`'s matches in ``text``. Each holds two digits in a row; plain ASCII
    text without them (found by a byte translation and ``in``: most long answers that say "in
    order to") is not searched with the pattern (session 23, the cost)."""
    if text.isascii() and b"DD" not in text.encode("ascii").translate(_DIGIT_CHARS):
        return []
    return _OLD_NUMBERED.findall(text)
_OLD_CODE = re.compile(r"\b(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{10,}\b")
_SEMVER = re.compile(r"(?<![\w.])v?\d{1,3}\.\d{1,3}\.\d{1,3}(?!\.?\w)")
"""A version of three parts ("4.12.0", "v1.8.3"): a release one looks up (session 12). Two
parts ("3.8") are left: they are also prices, times and sizes."""
_IPV4 = re.compile(r"(?<![\w.@])(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?!\.?\w|\.\d)")
"""A machine's address ("192.168.1.40"), four numbers of 0-255; not inside a longer dotted number
(session 18)."""
_WIKI_PATH = re.compile(r"(?:(?<=\bunder )|^)[A-Z][a-z][\w-]+(?:/[A-Z][a-z][\w-]+)+(?![\w/])")
"""A page's place in a wiki or a workspace, after "under" ("in the wiki under On-call/Setup", "in
Notion under People/Onboarding"): capitalised parts joined by "/" (session 18)."""
_SLUG = re.compile(r"(?<![\w/.@-])(?:[a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)+-\d+|"
                   r"[a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)*-[a-z]+\d+)(?![\w/@-]|\.\w)")
"""A resource's lower-case name ending in its number ("pg-main-02", "tickets-v14"): three parts
or more before a bare number, or a last part of letters then digits — not "utf-8", "mid-2021",
"over-65s" (session 12)."""
_NUMBERED_NAME = re.compile(r"(?<![\w/.@#-])[a-z]{2,}-\d{1,6}(?![\w/@-]|\.\w|[.,]\d)")
"""A thing's lower-case name and its number, in two parts ("sched-1", "worker-7", "ws-20931"): one
instance of many, named as the system names it (session 23); :data:`_SLUG` reads three parts or more."""
_NOT_NUMBERED_NAME = frozenset("mid over under utf iso cp win windows covid sha md top up pre post x ages age aged".split())
"""What opens a word and its number that name no thing: a time ("mid-2021"), an age ("over-65", "under-18"),
an encoding or a hash ("utf-8", "cp-1252", "sha-256"), a ranking ("top-10")."""
_YEAR_END = re.compile(r"-(?:19|20)\d\d$")
_IMAGE_TAG = re.compile(r"(?<![\w/:.-])(?![\w./-]*\.(?:py|js|ts|tsx|go|rs|rb|kt|java|c|h|cpp|sh|sql):\d+(?![\w.-]))"
                        r"[a-z][a-z0-9._/-]*:(?=[\w.-]*\d)\w[\w.-]*\w")
"""A name and its tag ("python:3.12-slim", "localhost:8080"): the tag holds a digit (session 12); not a
source file and its line ("internal/upstream/client.go:88": the file is the reference, session 21)."""
_ROOTED_PATH = re.compile(r"(?:(?<=[\s\"'`(])|^)(?:~|~?/\.?[a-z0-9][\w.-]*|/[A-Z][\w.-]*(?=/[\w{]))"
                          r"(?:/(?:[\w.*-]+|\{\w+\}))*/?(?<=[\w/*}-])"
                          r"(?:\?[\w.-]+=[\w.%-]*(?:&[\w.-]+=[\w.%-]*)*)?(?=[\s,.;:!?)\]'\"`]|$)", re.ASCII)
"""A path from the root or the home directory ("/healthz", "/volume1/backup", "~/.config/restic/pass",
"~/Photos"), after a blank, a quote or a bracket and before one or a stop: what the path patterns
before it miss (they need a directory name before the first slash, or an extension) (session 13);
with its query when it has one ("/debug/pprof/goroutine?debug=2", session 21); from a capitalised
folder when another part follows ("/Episodes/047/rough_v1.wav"), with a part in braces
("/api/v2/invoices/{id}") (session 22); from a hidden folder ("/.well-known/acme-challenge/", session 25).
One part needs three characters or a closing slash ("/v2/"): not "and /or"."""


_DOTFILE = re.compile(r"(?:(?<=[\s\"'`(])|^)\.[a-z][a-z0-9_-]{3,}[a-z0-9](?=[\s,;:!?)\"'`]|\.(?:\s|$)|$)"
                      r"(?!\s+(?:files?|format|extension)\b)")
"""A dotfile named alone, after a blank, a quote or a bracket ("set a store-dir in .npmrc",
".pgpass", ".gitattributes"): five characters or more after the dot, so not an attribute or
an extension (".raw", ".csv", ".docx"), nor one followed by "file" or "format" (session 22)."""
_DOTFILE_CHARS = bytes(97 if 97 <= b <= 122 else 46 if b == 46 else 32 if (chr(b).isspace() or chr(b) in "\"'`(")
                       else 35 for b in range(128)) + bytes(35 for _ in range(128))
"""A byte table writing "a" for a small letter, "." for itself, a blank for a blank (any ``\\s``), a
quote or an opening bracket, and "#" for anything else."""


_DOTFILE_MORE = re.compile(r"(?:(?<=[\s\"'`(])|^)\.(?:env(?!\s+files?\b)|[a-z][a-z0-9_]*(?:-[a-z0-9_]+)+"
                           r"|[a-z][a-z0-9_-]+\.[a-z]{2,5})(?=[\s,;:!?)\"'`]|\.(?:\s|$)|$)")
"""The dotfiles :data:`_DOTFILE` leaves: ".env" (three letters, as an extension's), one with a dot of
its own (".tmux.conf"), and one whose name holds a hyphen before "file" (".git-blame-ignore-revs
file"), which no extension has; ".env file(s)", a kind of file, left (session 47; on every development
set 4 labelled of 4 such dotfiles, on 4 sets)."""
_FOLDER = re.compile(r"(?:(?<=[\s\"'(])|^)[a-z][a-z0-9_.-]{2,}/(?=[\s,.;:!?)\"']|$)(?!\s+branch)")
"""A folder named alone with its closing slash, in small letters, after a blank, a quote or a bracket
("the runbook goes under runbooks/", "a couple of .bat scripts in tools/", "start with billing/"): the
slash says a place in the repository, not a word; not a prefix of branches' names ("release/
branches"), nor a path's first part ("src/app.py", read by the path kinds) (session 47; on every
development set 4 labelled of 6 such folders, on 4 sets; the 2 not, "backend/", "build/", are
folders as well)."""


def _folders(text: str) -> Iterator[str]:
    """:data:`_FOLDER`'s matches outside code quoted in backticks, where a slash parts a program's
    words ("`sed -i 's/const enum/enum/'`"), no folder."""
    for m in _FOLDER.finditer(text):
        if text.count("`", 0, m.start()) % 2 == 0:
            yield m.group(0)


_FOLDER_ENDS = ("/ ", "/,", "/.", "/;", "/:", "/)", "/!", "/?", "/'", '/"')
"""What follows the slash of every :data:`_FOLDER` match but at the text's end (a cheap test first)."""


def _may_hold_dotfile(text: str) -> bool:
    """Whether :data:`_DOTFILE` may find a dotfile in ``text``: plain ASCII text where no dot
    and a small letter follow a blank, a quote, a bracket or the start (found by a byte
    translation and ``in``; "Sure. the…" does not count) is not searched with the pattern, whose
    look-behind runs at every character (session 23, the cost)."""
    if not text.isascii():
        return True
    seen = text.encode("ascii").translate(_DOTFILE_CHARS)
    return b" .a" in seen or seen.startswith(b".a")


_GLOB_FILE = re.compile(r"(?<=\*/)[\w-]+\." + _EXTS + r"\b")
"""A file named by a glob ("hashFiles('**/pnpm-lock.yaml')"): the file (session 22)."""


def _rooted(path: str) -> bool:
    """Whether a ``_ROOTED_PATH`` match is long enough to be a path (not "/or", "/7")."""
    return len(path) > 3 or path.count("/") > 1 or (len(path) > 2 and path[0] == "~")


_MENU_WORD = r"(?!(?:rather|and|or|then|than|to|in|on|for|the|a|an|is|was|but|if|so|with|at|of|by|from)\b)[\w'-]+"
_MENU = re.compile(r"(?<![\w>›])(?<![>›] )(?!(?:Open|Go|Tap|Click|Select|Choose|Press|Hit|Navigate|Head|Try|Check|"
                   r"Find|Use|Visit|Under|See|Then|And|Or)\s)[A-Z][\w'-]*(?:\s" + _MENU_WORD
                   + r")?(?:\s[>›]\s[A-Z][\w'-]*(?:\s" + _MENU_WORD + r")?)+")
"""A path through an app's menus or settings ("Settings > Members", "Council tax > Discounts",
"Settings > Device > Wi-Fi"): capitalised items of one or two words joined by " > ", not
opened by the verb that leads there ("Open Settings > …", "Tap Account > …") (session 16)."""
_CHANNEL = re.compile(r"(?:(?<=\bin )|(?<=\bto )|(?<=\bon )|(?<=\binto ))#[a-z][a-z0-9_]+\b(?![(-])")
"""A chat channel of one word where something is posted ("I'll post it in #release", "tell them
in #partners"); a hyphenated one ("#platform-oncall") is :data:`_REFS`' own; not "if
#available(…)", code (session 16)."""
_QUOTED = re.compile(r"(?:(?<=[\s(:])|^)['\"‘“]([A-Z](?:[^'\"‘’“”\n]|['’]s\b){1,60}?)['\"’”](?=[\s.,;:!?)]|$)")
"""A quotation opening with a capital, in quotes of its own (after a blank, a bracket or a
colon; before one or a stop); a possessive "'s" inside does not close it ("'The Anarchist's Tool
Chest'", session 53)."""
_OF_QUOTED = re.compile(r"(?<=\bof )['\"‘“]([A-Z][a-z]{2,30})['\"’”](?=[\s.,;:!?)]|$)")
"""A work of one capitalised word in quotes after "of" ("the last stanza of 'Tidewrack'", "the
chorus of 'Edelweiss'"), which :func:`_quoted_title` wants of two words (session 53; on every
development set both such names are labelled references; a one-word quotation elsewhere is a
column, a setting or a word said, 14 of 15)."""
_FAILED_WITH = re.compile(
    r"\b(?:fail(?:s|ed|ing)?|died|dies|breaks|broke|crash(?:es|ed)?|errored)(?:\s+on\s+\w+)?\s+with\s+"
    r"['\"‘“]((?:[^'\"‘’“”\n]|(?<=\w)['’](?=\w)){3,120}?)['\"’”](?=[\s.,;:!?)]|$)", re.IGNORECASE)
"""The message a run failed with, in quotes ("pip install just died with 'ResolutionImpossible'", "CI is
failing on clone with 'This repository is over its data quota'"): the error text a reader searches
for (session 55; on every development set 4 such messages of 5 are labelled references, none read
before; a message after "says" or "said" is mostly a status or words said, 3 of 41)."""
_QUOTE_CAPITAL = re.compile(r"['\"‘“][A-Z]")
"""An opening quote before a capital, which every :data:`_QUOTED` match holds: most turns'
quotes are apostrophes ("I'm"), and such a turn is not searched with it (session 21, the cost)."""
_TITLE_SMALL = frozenset("of the and in a an on to for at by with from or vs".split())


def _quoted_title(inner: str) -> bool:
    """Whether a quotation is a title ("'The Salt Orchard'", "'Low Tide Hymns'", "'Icons v2'"):
    two words or more, each capitalised, a small word between them or holding a digit; not a
    quoted sentence or message ("'Error acquiring the state lock'"), nor one word ("'Month'")
    (session 17); "&" joins words as a small word does ("'Water & Society'", session 53)."""
    words = inner.split()
    return (len(words) > 1 and words[-1] not in _TITLE_SMALL
            and all(w[0].isupper() or w in _TITLE_SMALL or w == "&" or any(c.isdigit() for c in w)
                    for w in words))


_ERROR_CODE = re.compile(r"\b[A-Z]\d{4}\b")
"""A letter and four digits, as compilers number their errors ("E0597") (session 12)."""
_CODE_AFTER = re.compile(r"(?<=\b[Cc]ode )(?:0x[0-9A-Fa-f]+\b|[A-Z]{1,3} \d{2,4}\b(?![-.]\d)|(?=[A-Za-z0-9-]*\d)"
                         r"(?=[A-Za-z0-9-]*[A-Za-z]|\d{4})[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\b(?![-.]\d))")
"""A code named as one, after "code" ("fault code EA 227", "grant code R-2231-BIO", "code 0x2F",
"code 97140"): a letter in it, or four digits or more; not "code 404" (session 20)."""
_SHOWN_CODE = re.compile(
    r"(?:(?<=[Ee]rror )|(?<=[Ff]ault )|(?<=showing )|(?<=shows )|(?<=showed )|(?<=displaying )|(?<=displays )"
    r"|(?<=flashing )|(?<=throwing )|(?<=threw ))[A-Z]{1,3}-?\d{2,4}[A-Z]?(?![\w/.-])"
    r"|(?<![\w/.-])[A-Z]{1,3}-?\d{2,4}[A-Z]?(?= (?:error|fault|code|flashing)\b)")
"""A short code a machine shows, after "error", "fault", "showing", "flashing", "threw" or before
"error", "fault", "code", "flashing" ("boiler's showing F28", "error F28 on the display", "F28
flashing again", "threw error E-207"): one to three capitals and a number of two to four digits
(not "showing A4"), which the key and code patterns read only longer (session 40; on every development set each such
code is a labelled reference, 6 of 6, none read before)."""
_SHOWN_WORDS = ("rror", "ault", "show", "display", "flashing", "throwing", "threw", "code")
_DIGIT_KEY = re.compile(r"(?<![\w/.-])\d{2,10}-[A-Z]{2,}(?:-[A-Z0-9]+)*(?![\w-])")
"""A key opening with its number ("2211-KX-907", "1099-INT", "70112-TR"): the key pattern of
:data:`_REFS` takes only its tail (session 20)."""
_SPACED_KEY = re.compile(r"(?<![\w/.-])(?!(?:GBP|EUR|USD|CHF|SEK|NOK|DKK|PLN|CZK|AUD|CAD|NZD|JPY) )"
                         r"[A-Z]{2,4}(?: \d{2,4})+ \d{1,4}(?![\w/-]|[.,]\d)")
"""A key of two to four capitals and groups of digits parted by blanks ("VOD 583 219", "PEX 4410 7729 3",
"GB 402 7719 05"), as a ticket, a code or a tax number is printed: two groups or more, which no other
pattern reads; not an amount after its currency ("EUR 12 500") (session 53; on every development set
each such key, 4 of 4, is a labelled reference; of the keys with one group that no pattern read, 6 of
14 are: "NHS 111", "PIN 7719", "ISO 400" are not)."""
_ACTION = re.compile(r"(?<![\w/.-])(?:actions/[a-z][\w.-]*[a-z0-9](?:@v?\d+(?:\.\d+)*)?|"
                     r"[a-z][\w-]*/[a-z][\w.-]*@v?\d+(?:\.\d+)*)(?![\w/-])")
"""A CI workflow's action: GitHub's own, under "actions/" ("actions/cache", "actions/setup-python"),
or any with its version ("docker/build-push-action@v5") (session 20)."""
_PAGES = re.compile(_WORK + r"(?:'s| is| was| runs(?: to)?| has)(?: (?:about|over|under|only|nearly|almost|just|around))?"
                    r" [\d,]+ pages\b|\b\d[\d,]*-page " + _WORK)
"""A work by its length in pages ("Demon Copperhead is 550 pages", "the 900-page Middlemarch"): what
has pages is a book (session 20); not a pronoun ("It is 40 pages")."""
_PART = re.compile(r"\b(?=[AaCcFfGgRrSsTt])(?:(?:[Cc]lause|[Aa]rticle|[Ff]igure|[Ss]chedule|[Aa]ppendix|[Aa]nnex) (?:\d{1,3}[A-Z]?|[A-Z])\b"
                   r"|[Tt]able [A-Z]\d{1,3}\b|(?:[Ss]ection|[Rr]ule) \d{1,2}\.\d{1,2}(?:\.\d{1,2})?\b"
                   r"|Rule \d{1,3}\b|[Gg]uideline \d{1,2}(?:\.\d{1,2}){1,3}\b)"
                   r"(?:,? (?:para(?:graph)?|clause) \d{1,3}\b)?(?![.,(/-]?\w)")
"""A numbered part of a document a reader turns to: a clause, an article, a figure, a schedule ("Clause
7", "Article 231", "Figure 4B", "Schedule C"), a section numbered in parts ("section 9.3"; "section 9"
alone is mostly a place in a book said in passing) (session 21); not one with more after it ("Article
28(2) GDPR"). Also an appendix or an annex ("Appendix B"), a rule numbered in parts ("rule 4.2"), a
supplementary table, its number behind a capital ("Table S4"; "table 12" is where a restaurant seats
people), and the paragraph named after the part ("Schedule 3, para 2") (session 38). A rule by its
number alone, named with a capital as a rule book heads it ("Rule 9 says £20 for a lost fob"; "the rule 4
thing" is said in passing, session 38), and a guideline numbered in parts ("guideline 5.1.1", App Review's)
(session 40; on every development set 3 of 3, none read before)."""
_KIND_NUMBER = re.compile(
    r"\b(?!(?:order|invoice|booking|confirmation|account|case|claim|ticket|policy|reference|member|membership|"
    r"customer|card|receipt|client|the|a|an|at|by|to|of|in|on|my|our|your|his|her|their|phone|telephone|mobile)\s)"
    r"[A-Za-z]{3,} number (?:is )?(\d[\d-]{2,}\d(?: \d{2,4}){0,3})(?![\w-]|[.,]\d| \d)", re.IGNORECASE)
"""A number a thing of some kind is known by ("employee number 40672", "juror number 4471-208"), a
kind the numbered-reference pattern does not name: the number (session 26); not a telephone's.
Also said with "is" and written in groups ("licence number is 3417 8852 06", session 29)."""
_NUMBER_GIVEN = re.compile(r"\b(?!(?:the|a|an|my|our|your|his|her|their|this|that|same|total|phone|telephone|mobile)\s)"
                           r"[A-Za-z]{3,} number"
                           r"(?:'s|’s| is) (\d[\d-]{2,}\d(?: \d{2,4}){0,3})(?![\w-]|[.,]\d| \d)", re.IGNORECASE)
"""A number given as what a thing's number is ("your account number's 3309-118-42", "account number is
70031845"): the number, as the labels write it, for every kind, those :data:`_KIND_NUMBER` leaves to the
numbered-reference pattern too (which reads them only straight after the kind) (session 42); not a
telephone's, which is read as one (session 25)."""
_KEY_VERSION = re.compile(r"[A-Z](?<!\w.)[A-Z0-9]*(?:-[A-Z0-9]+)*-\d+(?:-[A-Z0-9]+)* v\d{1,3}\b(?![.-]\d)")
"""A document's key with its version ("HOL-2291-NDA v3"): the version is part of what one looks up
(session 21)."""
_REPO_ISSUE = re.compile(r"(?<![\w/.-])[\w.-]+/[\w.-]+#\d{1,6}\b")
"""An issue or a pull request in another repository ("pypa/cibuildwheel#2105") (session 21)."""
_REF_CODE = re.compile(r"\b[Rr]ef(?:erence)?\.?:?\s+(?:no\.?\s+|number\s+)?"
                       r"((?:[A-Z]{2,5} (?=\d))?(?=[A-Z0-9/-]*\d)[A-Z0-9]+(?:[/-][A-Z0-9]+)+)(?![\w/-])")
"""A code named as a reference, in parts joined by "/" or "-" ("ref LBC/24/0613", "crime reference
41/88213/24", "reference FLAT2B-RENT"): the code; the key pattern of :data:`_REFS` reads neither a
slash nor a letter after the first dash (session 25); with a word of capitals before it and a
blank ("reference HEF 00412-77", session 29)."""
_PHONE = re.compile(r"(?<![\w+.,/-])(?:\+\d{1,3} (?:\(0\) ?)?\d{1,5}|\(?0\d{2,4}\)?) \d{3,4}(?:[ -]?\d{3,4})?"
                    r"(?![\w-]|[.,/]\d)")
"""A telephone number in groups, from its leading 0 or its country code ("01706 902 573", "07700
900461", "065 682 8127", "+44 20 7946 0958"): what a reader rings; a card's or an account's
number after its noun stays the numbered kind (session 25)."""


def _may_hold_phone(text: str) -> bool:
    """Whether :data:`_PHONE` may match ``text``: plain ASCII text where no two digits are
    followed by one other character and a digit (found by a byte translation and ``in``) is not
    searched with the pattern, whose look-behind runs at every character (session 25, the cost)."""
    if "0" not in text and "+" not in text:
        return False  # (every match holds its leading 0 or its country code's "+")
    return not text.isascii() or b"DD D" in text.encode("ascii").translate(_DIGIT_CHARS)


_SLASHED = re.compile(r"(?<![\w/:.@#~-])[a-z][\w.-]*(?:/[\w.-]*[\w-])+(?![\w/@#]|\.\w)")
"""Lower-case names joined by "/" without a trailing slash or an extension: a path, a branch or a
secret's name ("prisma/migrations/20250611_orders_cursor_idx", "ci/pin-poetry", "prod/billing-api")
when :func:`_slashed` says so (session 25)."""
_BRANCH_BEFORE = re.compile(r"\bbranch(?:,| called| named|:)? $")
_DASH_DOT = re.compile(r"[-.]")


def _slashed(text: str) -> Iterator[str]:
    """:data:`_SLASHED`'s matches that name something: every part two characters or more and
    one four or more (not "km/h", "n/a", "mg/kg"); three parts, or two not both plain words (not
    "mac/linux"); and a word between its slashes, dashes and dots that is no plain English word (it
    holds a digit or an underscore, or no dictionary spells it: "src", "ci", "api"); or the name of
    a branch ("in a branch, infra/networking"). Not "and/or", "hour/stop/weather", "go/no-go"."""
    for m in _SLASHED.finditer(text):
        parts = m.group(0).split("/")
        if min(map(len, parts)) < 2 or max(map(len, parts)) < 4:
            continue
        if _BRANCH_BEFORE.search(text, max(0, m.start() - 16), m.start()) or (
                (len(parts) > 2 or not all(map(str.isalpha, parts)))
                and any(not w.isalpha() or not is_english_word(w.lower()) for p in parts for w in _DASH_DOT.split(p) if w)):
            yield m.group(0)


_KIND_THEN_NAME = re.compile(
    r"\b(?:table|view|DAG|dag|model|flag|role|slot|index|bucket|topic|queue|job|test|metric|alert|task|schema|"
    r"database|secret|setting)s?,? (?:is |called |named )?`?([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b(?![(=-])")
"""A name joined by underscores just after the kind of thing it names ("the Airflow DAG
nightly_snowflake_sync", "the feature flag rate_limiter_v2", "an inactive slot debezium_old", "the
dbt model fct_subscriptions"): :data:`_NAMED_RESOURCE` read backwards; not a column's, a key's or a
parameter's name, which the labels leave (session 42; every development set 5 right, 3 wrong)."""
_KIND_THEN_NAME_WORDS = ("table", "view", "DAG", "dag", "model", "flag", "role", "slot", "index", "bucket",
                         "topic", "queue", "job", "test", "metric", "alert", "task", "schema", "database",
                         "secret", "setting")
_RESOURCE_KINDS = ("topic", "queue", "bucket", "table", "repo", "repository", "label", "index", "stream",
                   "cluster", "namespace", "database", "schema", "collection", "exchange")
_NAMED_RESOURCE = re.compile(
    r"(?<![\w#/:.@$'-])(?![a-z]+-(?:only|time|party|wide|level|based|side|letter|free|safe|facing|term|scale)\b)"
    r"(?!(?:multi|cross|per|non|pre|post|self|auto|read|write|real|long|short|high|low|dead|third|first|one|two|"
    r"single|double|full|half|semi|sub|co|in|out|on|off|end|all|well|re)[-_])"
    r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+(?<!ed)(?<!ing)(?![\w/.@-])"
    r"(?=\s+(?:(?:Kafka|SQS|SNS|S3|GCS|Redis|RabbitMQ|NATS|Postgres|MySQL|BigQuery|Snowflake|DynamoDB|GitHub|GitLab|git|Git)\s+)?"
    r"(?:" + "|".join(_RESOURCE_KINDS) + r")s?\b)")
"""A lower-case name joined by hyphens or underscores, just before the kind of resource it names
("the order-events Kafka topic", "the geo-tools repo", "a job_runs table", "the needs-repro
label"): what a reader looks up in the system (session 40; on every development set 7 of the 9
such names are labelled references, none read before). Not a compound adjective before the kind
("a read-only table", "the dead-letter queue", "a session-scoped schema", "long-running branch"),
nor a name after a "#", a "/" or a scheme, which other patterns read whole."""
_DEPLOY_PARTS = ("prod", "production", "staging", "stg", "dev", "qa", "uat", "eu", "us", "uk", "api", "svc", "worker",
                 "consumer", "export", "exports", "backup", "restore")
_DEPLOY_HYPHENED = tuple("-" + part for part in _DEPLOY_PARTS)
"""What every match of :data:`_DEPLOYED` holds: a part after its hyphen ("-prod", "-eu"). The
parts alone ("us", "dev", "api", "export") are in most long texts, which the pattern then
scanned for nothing: 774 texts of 1,000 LongMemEval sessions, none a match (session 47, perf47)."""
_DEPLOYED = re.compile(
    r"(?<![\w/.@#:$'-])(?!(?:multi|cross|per|non|pre|post|self|auto|re|co|sub)-)"
    r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*-(?:" + "|".join(_DEPLOY_PARTS) + r")(?:-[a-z0-9]+)*(?![\w/.@:-])")
"""A lower-case name joined by hyphens with a part that tells where or as what a system runs: its
environment ("sessions-prod", "staging-eu"), its region ("callrec-prod-eu") or its role
("payments-api", "billing-consumer", "acme-invoices-export", "customers-restore"): the name of a
deployed service, cluster or bucket, which a reader looks up (session 40; on every development set
10 of the 14 such names are labelled references, one read before). Not a verb or an adjective with
a prefix ("re-export", "auto-export"), nor a speaker's handle ("sarita-dev:") or a part of a path.
A service by its short suffix ("pricing-svc", "inventory-svc") too (session 45; on every development set
both such names are labelled references, both on heldout40)."""
_OWN_CALL = re.compile(r"(?<![\w.$])(?=[a-z]\w*(?:_|[a-z][A-Z]))[a-z]\w*\(\)")
"""A function of the code being talked about, called by name with empty brackets: a name joined by
underscores or in camel case ("formatCount()", "get_db()", "rtw_suspend()"); not a method after a
dot ("datetime.now()", "ctx.Done()") nor a one-word call ("now()", "round()") (session 40; on every
development set 7 of 15 such names are labelled references)."""
_CONSTANT = re.compile(r"(?<![\w./:$-])[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?![\w-])")
"""A name in capitals joined by underscores: an environment variable or a setting
("X_ROBOTS_NOINDEX", "GIT_LFS_SKIP_SMUDGE", "DATABASE_URL"), which a reader looks up in the
configuration (session 37; on every development set 10 of the 11 such names are labelled
references). Lower-case names joined by underscores are not: a column, a function or an option
said in passing ("created_at", "drop_duplicates") as often as a labelled one."""
_FORM_KEY = re.compile(r"(?<![\w/.-])[A-Z]{1,4}\d{1,4}[A-Z]?(?= (?:[a-z]+ ){0,3}form\b)|(?<=\b[Ff]orm is )[A-Z]{1,4}\d{1,4}[A-Z]?\b(?![\w/-])")
"""A form known by a key of capitals and digits, said before "form" ("the TA6 property information
form", "the GMS1 form", "the EC1 form") or as what the form is ("the form is EC1"): the key; on every
development set each such key is a labelled reference (session 38). "form SA303" is the numbered
kind's, whole, as before."""
_KNOWN_FORM = re.compile(r"(?<![\w/.-])(?:V5C(?:/[23])?|SA100|SA302|SA303|CN22|CN23|P45|P60|P85|P87|P11D|CON29|D798|"
                         r"EU261|EC261|W-[249])(?![\w-]|/\d)")
"""A government's form or a regulation known by its code alone, without "form" ("do the V5C change
online", "my P60 from April", "the CN22 on the parcel", "claim under EU261"): the document a reader
fills in or looks up, as :data:`_FORM_KEY`'s keys are; its code is no English word and names no model
(not "D1", "T2", "MOT": a level, a product, a test). On every development set the codes listed are a
labelled reference in 12 of their 15 mentions, on 11 sets (session 46)."""
_ACT = re.compile(r"(?<![\w-])((?:[A-Z][a-z]+\s+){1,5}(?:etc\.\s+)?Act\s+(?:of\s+)?\d{4})\b(?![.,/-]?\d)")
"""A law by its name and year ("the Treasure Act 1996", "the Party Wall etc. Act 1996"): the name
from its first word that is no stopword (not "Under the …") (session 38; on every development set
both such names are labelled references)."""


_SLASHED_KEY = re.compile(r"(?<![\w/.:@#~-])(?=[A-Z0-9/-]*\d{3})(?=[A-Z0-9/-]*[A-Z])[A-Z0-9]+(?:-[A-Z0-9]+)*"
                          r"(?:/[A-Z0-9]+(?:-[A-Z0-9]+)*)+(?![\w/-]|\.\w)")
"""A key of capitals and digits in parts joined by "/" ("24/01873/TEL", "STC/0193", "TPO/2009/031",
"EP/X014522/1"): a planning application's, a licence's, an order's or a grant's reference, with a
capital and three digits in a row somewhere in it; not a date, a fraction or a reading ("12/03/2024",
"80/12", "145/92", all digits), nor "TCP/IP", "A4/A3" (session 39; on every development set each
such key is a labelled reference, 5 of 5)."""


_HEX_ID = re.compile(r"(?<![\w/.:#@$~-])(?=[0-9a-f]*[a-f][0-9a-f]*[a-f])(?=[0-9a-f]*\d[0-9a-f]*\d)[0-9a-f]{6,40}"
                     r"(?![\w/@-]|\.\w)")
"""A short hexadecimal name, two letters and two digits in it at least ("4f1c9e2", "3f9a2c1",
"9f3c2a"): a commit, a submission or a lock named by its hash, which a reader looks up (session 39;
on every development set each such name is a labelled reference, 4 of 4); not a colour ("#ff5733")
nor a part of a longer name ("0x1f2e3d", "a3f-9c21")."""
_HEX_CHARS = bytes(104 if 48 <= b <= 57 or 97 <= b <= 102 else 32 for b in range(256))
"""A byte table writing "h" for ``[0-9a-f]`` and a blank for anything else."""


def _may_hold_hex(text: str) -> bool:
    """Whether :data:`_HEX_ID` may match ``text``: plain ASCII text without six of ``[0-9a-f]``
    in a row (found by a byte translation and ``in``: almost every turn) is not searched with the
    pattern, whose look-behind and look-aheads run at every character (session 41, the cost)."""
    return not text.isascii() or b"hhhhhh" in text.encode("ascii").translate(_HEX_CHARS)


_GIT_REMOTE = re.compile(r"(?<![\w.+-])git@[\w-]+(?:\.[\w-]+)+:[\w-][\w.-]*(?:/[\w.-]*[\w-])+")
"""A git repository's SSH address ("git@github.com:acme/shared-schemas.git", "git@gitlab.com:team/app"):
the whole address, not the e-mail address and the path its parts read as (session 39)."""


_UNC_PATH = re.compile(r"(?<![\w\\])\\\\[\w.$-]+(?:\\[\w.$-]*[\w$-])+")
"""A path on a Windows network share ("\\\\fileserver\\stock\\counts", "\\\\nas01\\scans\\2024.pdf"): the
share, its folders and its file, which a reader opens (session 39)."""


_HIDDEN_PATH = re.compile(r"(?<![\w/.~-])\.[a-z][\w-]*(?:/[\w.-]*[\w-])+")
"""A path under a hidden directory, with or without an extension (".git/config", ".git/lfs",
".github/workflows/ci.yml"): on every development set each such path is a labelled reference, 8 of 8
(session 39)."""


_STANDARD = re.compile(r"\b(?:BS EN ISO|BS EN|BS ISO|BS AU|BS|DIN EN|DIN|EN ISO|EN|ISO/IEC|ISO|IEC) "
                       r"(\d{3,5})(?:-\d{1,3})*(?::\d{4})?(?![\w/-]|[.,]\d)")
"""A standard by the body that wrote it and its number ("ISO 17100", "EN 60335", "BS AU 159", "BS EN
1176-1", "ISO 9001:2015"): a document a reader looks up (session 39; on every development set each such
standard is a labelled reference, 3 of 3). Not a camera's sensitivity ("ISO 800", "ISO 3200"), which
:func:`_standards` leaves: "ISO" and a number of the sensitivity scale (:data:`_CAMERA_ISO`)."""
_STANDARD_BODIES = ("BS ", "EN ", "ISO", "IEC ", "DIN ")
_CRITERION = re.compile(r"\bWCAG \d\.\d{1,2}\.\d{1,2}\b(?![\w/-]|[.,]\d)")
"""A success criterion of the web accessibility guidelines by its three-part number ("WCAG 2.1.4",
"WCAG 2.2.1"): the clause a reader looks up, the reference with its body's name as the labels write
it, where the version alone ("WCAG 2.1 AA") names no clause (session 52, ns52)."""
_CAMERA_ISO = frozenset(
    "100 125 160 200 250 320 400 500 640 800 1000 1250 1600 2000 2500 3200 4000 5000 6400 8000 10000 "
    "12800 16000 20000 25600 32000 40000 51200 64000".split())
"""A camera's sensitivity scale in thirds of a stop, the numbers "ISO" is said with on a camera."""


def _standards(text: str) -> Iterator[str]:
    """:data:`_STANDARD`'s matches but "ISO" and a number of a camera's sensitivity scale alone."""
    for m in _STANDARD.finditer(text):
        if not (m.group(0) == "ISO " + m.group(1) and m.group(1) in _CAMERA_ISO):
            yield m.group(0)


_MEMBER = re.compile(r"(?<![\w./-])[A-Z][a-z]\w*\.[a-z]+[A-Z][A-Za-z0-9]*(?![\w(-]|\.\w)")
"""A type's member named in camel case ("Recipe.cookTime", "CheckoutFragment.onResume"): a field or a
method a reader finds in the code (session 39; on every development set 2 of 3 such names are labelled
references); not a call with its brackets, nor a longer dotted name."""
_MEMBER_GUARD = re.compile(r"\.[a-z]+[A-Z]")
"""A dot, small letters and a capital, which every :data:`_MEMBER` match holds: a turn without
them is not searched with it, whose look-behind runs at every character (session 41, the cost)."""


_DOTTED_COLUMN = re.compile(r"(?<![\w./@(-])([a-z][a-z0-9]{2,})\.[a-z][a-z0-9]*_[a-z0-9_]*[a-z0-9](?![\w./(-]|\.\w)")
"""A table's column or a setting's key, a lower-case name dotted to a name joined by underscores
("customers.national_id", "orders.shipped_at", "gateway.rate_limit_per_key"), outside code's
brackets, when :func:`_dotted_columns` says so (session 45)."""


def _dotted_columns(text: str) -> Iterator[str]:
    """:data:`_DOTTED_COLUMN`'s matches whose first part is no library's name nor a short alias:
    "pandas.read_csv", "pl.scan_parquet", "op.add_column" are functions a library offers, not
    what a reader looks up in the system (on every development set 4 such names are labelled
    references, 4 are not; without the libraries and the aliases 4 and none)."""
    for m in _DOTTED_COLUMN.finditer(text):
        if m.group(1) not in SOFTWARE and m.group(1) not in SOFTWARE_WORDS:
            yield m.group(0)


_COMMAND = re.compile(r"(?<!`)`([a-z][a-z0-9-]*[a-z0-9] [^`\n]+)`(?!`)")
"""A program and what it is given, quoted as code ("`tmux new -s migrate`", "`python manage.py check`",
"`lsof -i :5432`"): the command a reader runs again, when :func:`_commands` says so (session 45)."""
_COMMAND_ARG = re.compile(r"^(?:--?[A-Za-z][\w-]*|[\w.~-]*/[\w./~-]*|[\w-]+\.[a-z0-9]{1,4})$")
"""A flag ("-s", "--strict"), a path ("~/bin", "src/") or a file ("migrate.log") given to a program."""
_NOT_COMMAND = (" = ", "==", "|", "$(", "{", "<-", ";", "&&")
"""What code that is no single command holds: an assignment, a comparison, a pipe, a substitution,
a block, a channel's send, a chain."""
_CODE_WORDS = frozenset("const let var enum def int string return import export select from if for while type "
                        "class struct func fn".split())
"""A language's keywords, which open a declaration or a statement, not a program's name."""


def _commands(text: str) -> Iterator[str]:
    """:data:`_COMMAND`'s matches that are one command: no assignment, pipe or chain in it, its
    first word no keyword nor a label ("error: …"), and given a flag, a path or a file, or named by
    a word no dictionary spells ("deployctl completion"); not "poetry lock", "brew services stop
    postgresql@14", which read as words (on every development set 11 such commands are labelled
    references, 7 are not, on three sets whose writers left commands out)."""
    for m in _COMMAND.finditer(text):
        command = m.group(1).strip()
        words = command.split()
        if (any(x in command for x in _NOT_COMMAND) or words[0].endswith(":") or words[0] in _CODE_WORDS
                or words[1][:1] in "=:("):
            continue
        if any(_COMMAND_ARG.match(w) for w in words[1:]) or not is_english_word(words[0]):
            yield command


_NAMED_WORK = re.compile(r"(?:\b(?i:article|page|wiki|docs?|document|post|guide|paper|talk|deck|sheet|thread|chapter|essay)"
                         r"|\b[A-Z]{2,}-\d+),\s+['\"‘“]([A-Z][^'\"‘’“”\n]{2,80}?)[,.;:!?]?['\"’”](?=[\s.,;:!?)]|$)")
"""A written work named in quotes after its kind or its key and a comma ("I'll write a help article,
'Re-pairing your Stride after 3.2.0'", "a page to the lab wiki, 'Gene lists and Excel'", "in Google
Docs, 'NC500 draft 3'", "RFC-021, 'Rewriting the PDF renderer in Rust'"): its title, in words of
either case, which :func:`_quoted_title` wants capitalised (session 39; on every development set 4
of 4 such titles are labelled references)."""
_NAMED_WORK_GUARD = re.compile(r",\s+['\"‘“]")
"""A comma, blanks and an opening quote, which every :data:`_NAMED_WORK` match holds: a turn
without them is not searched with it, whose case-blind kinds are tried at every character (a
seventh of the references' time on LongMemEval's sessions; session 41, the cost)."""


def _acts(text: str) -> Iterator[str]:
    """:data:`_ACT`'s matches, each from its first word that is no stopword."""
    for m in _ACT.finditer(text):
        words = m.group(1).split()
        while words and words[0].lower() in STOPWORDS:
            words.pop(0)
        if len(words) > 2:  # a name before "Act" and its year
            yield " ".join(words)


_NAMED_FILE = re.compile(r"(?<![\w/.-])((?:(?:[A-Z][\w&'-]*|\d+) ){1,5})[A-Z0-9][\w-]*\." + _EXTS)
"""A file whose name is words in capitals and numbers with blanks between them ("Ceilidh 2024
Helpers.xlsx", "Summer Camp 2025 RA.docx"): the whole name, when none of its words is a stopword
("In Budget.xlsx" is "Budget.xlsx") (session 25)."""
_FILE_EXT = re.compile(r"\." + _EXTS)


def _named_files(text: str) -> Iterator[str]:
    """:data:`_NAMED_FILE`'s matches whose words before the last are no stopwords."""
    for m in _NAMED_FILE.finditer(text):
        if not any(w.lower() in STOPWORDS for w in m.group(1).split()):
            yield m.group(0)


_PART_WORDS = ("lause ", "rticle ", "igure ", "chedule ", "ection ", "ppendix ", "nnex ", "Table ", "table ", "Rule ", "rule ",
               "uideline ")
"""A piece of text every :data:`_PART` match holds: its kind's word with the blank after it ("table" and
"rule" whole, not "able " and "ule ", which "available" and "schedule" hold: session 48, perf48)."""
_ITEM = _WORK.replace("|, and)", ")")
"""A title as an item of a list: :data:`_WORK` without the ", and" some titles hold."""
_ITEM_FULL = re.compile(_ITEM)
_TITLE_LIST = re.compile(r"(?<![\w'’])" + _ITEM + r"(?:(?:,| and| or|, and|, or) " + _ITEM + r"){2,5}")
"""Three to six titles listed ("Piranesi, The Remains of the Day and Demon Copperhead")."""
_ASIDE = re.compile(r" \([^()]{1,30}\)|\b(?:the )?\d[\d,]*-page ")
"""What a list's items carry beside their titles: who put them forward ("Middlemarch (Farid)"), a
length ("the 900-page Middlemarch")."""
_OF_WORK = re.compile(r"\b(?:[Cc]hapters? \d{1,3}(?: (?:to|and|-|–) \d{1,3})?|[Aa]uthor|[Ww]riter) of "
                      + _WORK.replace("|, and)", "|, and| and)"))
"""A work named by a part of it or by who wrote it ("chapter 7 of Discovering Statistics", "the author of
Salt and Circuit"): a title, whose words may be joined by a bare "and" here (session 23)."""
_WORK_KINDS = "book|novel|film|movie|album|song|play|musical|documentary|podcast|series|show|newsletter|poem|memoir|sitcom"
_KIND_WORK = re.compile(r"\b(?:" + _WORK_KINDS + r")(?:,| called| titled| named) " + _WORK
                        + r"|\b(?:[Ss]eason|[Ss]eries) \d{1,2} of " + _WORK)
"""A work named right after its kind and a comma or "called" ("the Ozu film, Tokyo Story", "a cosy
mystery novel, The Vicar of Nettlecombe", "a newsletter called Small Wet Things"), or by a season of it
("season 4 of Slow Horses"): the title, which the cue pattern of :data:`_REFS` reads only straight after
"the film" (session 42)."""
_KIND_WORK_WORDS = (*(f"{kind}, " for kind in _WORK_KINDS.split("|")), " called ", " titled ", " named ", "eason ", "eries ")
"""A piece of text every :data:`_KIND_WORK` match holds: the kind with its comma, not the comma
alone, which most turns hold (session 45, perf45)."""
_WORD_CAPS = re.compile(r"\b[A-Z0-9]{6,}\b")
"""A code's candidates, checked for two letters and two digits after (much cheaper than the
code pattern's look-aheads at every word)."""


def _listed_titles(texts: Sequence[str], titles: set[str]) -> set[str]:
    """The titles listed beside a title found by its cue (:data:`_TITLE_LIST`): "Shortlist was
    Piranesi, The Remains of the Day and Demon Copperhead", where "Demon Copperhead is 550 pages"
    is said (session 20); ``titles``: the found ones, lower-cased."""
    out: set[str] = set()
    for text in texts:
        if len(text) > _REF_SHORT or not any(t in text.lower() for t in titles):
            continue
        for listed in _TITLE_LIST.finditer(_ASIDE.sub("", text)):
            items = [m.group(1) for m in re.finditer(_ITEM, listed.group(0))]
            if any(i.lower() in titles for i in items):
                out.update(i for i in items if i.lower() not in STOPWORDS)
    return out


def _may_name_form(text: str) -> bool:
    """Whether ``text`` may hold a :data:`_KNOWN_FORM` code: a capital the codes open on before a digit
    (a cheap test before the pattern)."""
    return any(c in text for c in ("V5", "SA", "CN", "P4", "P6", "P8", "P1", "CON", "D7", "EU2", "EC2", "W-"))


def _references(text: str) -> Iterator[str]:
    """Every reference pattern's matches in ``text``, in pattern order."""
    words: dict[str, str] = {}
    split: frozenset[str] | None = None
    tokens: list[str] | None = None  # the message split at blanks, once for every character
    for i, (guard, pattern, char) in enumerate(zip(_REF_GUARDS, _REFS, _REF_TOKENS, strict=True)):
        if i >= _NEW:
            # session 11's kinds (named keys, addresses, titles): a conversation's turns only,
            # and only those holding one of the words each needs (one split for all four)
            if len(text) > _REF_SHORT:
                break
            if split is None:
                if _NEW_ANY.isdisjoint(blank_split := text.split()):
                    break  # none of the four kinds' words (session 48, perf48)
                split = frozenset(blank_split)
            if guard(split) and (i != _BY or _BY_NAME.search(text) is not None):
                yield from pattern.findall(text)
            continue
        if (char is not None and char not in text) or not guard(text):
            continue
        if i in (_NUMBERED, _CODES) and len(text) > _REF_SHORT:
            if i == _NUMBERED and any(map(text.__contains__, _OLD_NOUNS)):
                yield from _old_numbered(text)
            elif i == _CODES and _may_hold_old_code(text):
                yield from _OLD_CODE.findall(text)
            continue
        if i == _NUMBERED:
            for m in _NUMBER.finditer(text) if _may_number(text) and _NUMBER_GUARD.search(text) else ():
                named = _NAMED_BEFORE.search(text, max(0, m.start() - 32), m.start())
                # session 9's kinds take four digits or more, as their pattern does (not "I'll order 200 of…")
                if named and (named.group("old") is None or (m.group(0).isdigit() and len(m.group(0)) > 3)
                              or _DASHED.fullmatch(m.group(0))):
                    yield text[named.start(): m.end()]
            continue
        if i == _CODES:
            if _may_hold_code(text):
                yield from (w for w in _WORD_CAPS.findall(text) if pattern.fullmatch(w))
            continue
        if char is None:
            yield from pattern.findall(text)
            continue
        if char not in words:
            if tokens is None:
                tokens = text.split()
            words[char] = " ".join(w for w in tokens if char in w)
        yield from pattern.findall(words[char])
    if len(text) > _REF_SHORT:  # the kinds below: a conversation's turns only
        return
    if _has_digit(text):  # session 12's kinds: turns only; each holds a digit
        shape = text.encode("ascii").translate(_SHAPE) if text.isascii() else None
        if "." in text and (shape is None or any(map(shape.__contains__, _DOTTED_SHAPES))):
            yield from _SEMVER.findall(text)
            yield from _IPV4.findall(text)
        if "-" in text:
            if shape is None or any(map(shape.__contains__, _SLUG_SHAPES)):
                yield from _SLUG.findall(text)
            if shape is None or b"aa-D" in shape:
                yield from (n for n in _NUMBERED_NAME.findall(text) if n.split("-", 1)[0] not in _NOT_NUMBERED_NAME
                            and not _YEAR_END.search(n))
        if shape is None or b"ADDDD" in shape:
            yield from _ERROR_CODE.findall(text)
        if "ode " in text:
            yield from _CODE_AFTER.findall(text)
        if any(map(text.__contains__, _SHOWN_WORDS)):  # session 40's kind
            yield from _SHOWN_CODE.findall(text)
        if "-" in text and (shape is None or b"DD-AA" in shape):
            yield from _DIGIT_KEY.findall(text)
        if shape is None or b"AA DD" in shape:  # session 53's kind
            yield from _SPACED_KEY.findall(text)
        if ":" in text:
            yield from _IMAGE_TAG.findall(text)
        if _may_hold_phone(text):
            yield from _PHONE.findall(text)
        if "/" in text:  # session 39's kind
            yield from _SLASHED_KEY.findall(text)
        if _may_hold_hex(text):  # session 39's kind
            yield from _HEX_ID.findall(text)
        if any(map(text.__contains__, _STANDARD_BODIES)):  # session 39's kind
            yield from _standards(text)
        if "WCAG " in text:  # session 52's kind
            yield from _CRITERION.findall(text)
    if "." in text and _MEMBER_GUARD.search(text):  # session 39's kind: turns only
        yield from _MEMBER.findall(text)
    if "git@" in text:  # session 39's kinds: turns only
        yield from _GIT_REMOTE.findall(text)
    if "\\\\" in text:
        yield from _UNC_PATH.findall(text)
    if "/" in text and "." in text:
        yield from _HIDDEN_PATH.findall(text)
    if "under " in text and "/" in text:  # session 18's kind: turns only
        yield from _WIKI_PATH.findall(text)
    if "page" in text:  # session 20's kinds: turns only
        yield from (w for pair in _PAGES.findall(text) for w in pair if w and w.lower() not in STOPWORDS)
    if any(map(text.__contains__, _KIND_WORK_WORDS)):  # session 42's kind: turns only
        yield from (m[0] or m[1] for m in _KIND_WORK.findall(text))
    if " of " in text and ("hapter" in text or "uthor" in text or "riter" in text):
        yield from _OF_WORK.findall(text)  # session 23's kind: turns only
    if any(map(text.__contains__, _PART_WORDS)):  # session 21's kinds: turns only
        yield from _PART.findall(text)
    if (("ef " in text or "ef." in text or "ef:" in text or "erence" in text)
            and ("/" in text or "-" in text)):  # session 25's kind: turns only
        yield from _REF_CODE.findall(text)
    if " number " in text:  # session 26's kind: turns only
        yield from _KIND_NUMBER.findall(text)
    if "number's" in text or "number is" in text or "number’s" in text:  # session 42's kind: turns only
        yield from _NUMBER_GIVEN.findall(text)
    if " v" in text and "-" in text:
        yield from _KEY_VERSION.findall(text)
    if "#" in text and "/" in text:
        yield from _REPO_ISSUE.findall(text)
    if "actions/" in text or "@v" in text:  # session 20's kind: turns only
        yield from _ACTION.findall(text)
    if "/" in text:  # session 13's kind: turns only
        yield from filter(_rooted, _ROOTED_PATH.findall(text))
        yield from _slashed(text)  # session 25's kind
    if "_" in text:  # session 37's kind: turns only
        yield from _CONSTANT.findall(text)
        if any(map(text.__contains__, _KIND_THEN_NAME_WORDS)):  # session 42's kind
            yield from _KIND_THEN_NAME.findall(text)
    if ("-" in text or "_" in text) and any(map(text.__contains__, _RESOURCE_KINDS)):  # session 40's kind
        yield from _NAMED_RESOURCE.findall(text)
    if "()" in text:  # session 40's kind
        yield from _OWN_CALL.findall(text)
    if "`" in text:  # session 45's kind: turns only
        yield from _commands(text)
    if "." in text and "_" in text:  # session 45's kind: turns only
        yield from _dotted_columns(text)
    if "-" in text and any(map(text.__contains__, _DEPLOY_HYPHENED)):  # session 40's kind
        yield from _DEPLOYED.findall(text)
    if "form" in text and _has_digit(text):  # session 38's kind: turns only
        yield from _FORM_KEY.findall(text)
    if _has_digit(text) and _may_name_form(text):  # session 46's kind: turns only
        yield from _KNOWN_FORM.findall(text)
    if "Act " in text:  # session 38's kind: turns only
        yield from _acts(text)
    if " " in text and _FILE_EXT.search(text):  # session 25's kind: turns only
        yield from _named_files(text)
    if "." in text:  # session 22's kind: turns only
        if _may_hold_dotfile(text):
            yield from _DOTFILE.findall(text)
            yield from _DOTFILE_MORE.findall(text)  # session 47's kind
        if "*/" in text:
            yield from _GLOB_FILE.findall(text)
    if "/" in text and (text.endswith("/") or any(map(text.__contains__, _FOLDER_ENDS))):  # session 47's kind
        yield from _folders(text)
    if " > " in text or " › " in text:  # session 16's kinds: turns only
        yield from _MENU.findall(text)
    if " #" in text:
        yield from _CHANNEL.findall(text)
    if "'" in text or '"' in text or "‘" in text or "“" in text:  # session 17's kind
        if ", " in text and _NAMED_WORK_GUARD.search(text):  # session 39's kind
            yield from _NAMED_WORK.findall(text)
        if " with " in text:  # session 55's kind
            yield from _FAILED_WITH.findall(text)
        if _QUOTE_CAPITAL.search(text):
            yield from (q.rstrip(",.;:!?") for q in _QUOTED.findall(text) if _quoted_title(q))
            if "of " in text:  # session 53's kind
                yield from _OF_QUOTED.findall(text)
_LABEL = re.compile(r"\*\*[^*]{1,80}\*\*:?|^\s*#+\s.*$|^\s*(?:\d+[.)]|[-*•])\s*[^:.!?]{1,60}:(?=\s)"
                    r"|^\s*[^:.!?\s]+(?:\s+[^:.!?\s]+){0,2}:(?=\s)")
"""Markdown headings, bold labels and "Label:" list heads in an answer."""
_NAMED_HEAD = re.compile(r"\s*([A-Z][A-Za-z]*[a-z][A-Za-z]*(?:\s+(?:&|[A-Z][A-Za-z]*))?(?:\s+[A-Z][A-Za-z]*)?):")
"""A "Label:" head of capitalised words ("Northwind Freight: senior analyst, £58k")."""


def _may_label(sentence: str) -> bool:
    """Whether :data:`_LABEL` may find a label in ``sentence``: a bold one holds "**"; a heading opens
    the sentence, blanks apart, on "#"; a list's or a line's head ends on the sentence's first ":"
    (none of its characters before is one) with a blank after it. A cheap test before the pattern,
    which is tried at every character (session 48, perf48)."""
    if "**" in sentence or sentence.lstrip().startswith("#"):
        return True
    colon = sentence.find(":")
    return colon >= 0 and sentence[colon + 1: colon + 2].isspace()


def _unlabelled(match: re.Match[str]) -> str:
    """A heading or a label blanked, but a plain "Label:" head that is a name, one of its
    words spelt by no dictionary ("Northwind Freight:", "Calder Health:" listing two offers;
    not "Proposal:", "Options:", "Didn't:"), kept: it names what the sentence is about
    (session 22)."""
    head = _NAMED_HEAD.fullmatch(match.group(0))
    if head and any(len(w) > 2 and w.isalpha() and not is_english_word(w) for w in head.group(1).split()):
        return match.group(0)
    return " "
_DATE = re.compile(
    r"\b(?:\d{4}-\d{2}-\d{2}|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?"
    r"\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?|\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:Jan|Feb|Mar|"
    r"Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*(?:,?\s+\d{4})?)\b"
)
_DATE_WORDS = ("-", "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
"""A piece of text every :data:`_DATE` match holds: a month written short, or the dash of a date
written in numbers ("2025-03-14"): a sentence with a digit but none of them is not searched with it
(session 48, perf48)."""
_DIGIT = re.compile(r"\d")
_SHORT_MONTH_AFTER = re.compile(r"\d(?:st|nd|rd|th)?\s+(?:of\s+)?$")
"""A number just before a month written short ("14 Feb", "3rd of Mar") (session 13)."""
_NAMED_PAIR = re.compile(r"\s+(?:(?:or|vs\.?|versus)\s+[A-Z][a-z]|and\s+[A-Z][a-z]+(?:'s)?\s+(?!of\b)[a-z])")
"""A capitalised first word offered against another name ("Crete or Sardinia?") or paired with one
("Funda and Pararius list most rentals", session 19): a name."""
_TIER_AFTER = re.compile(r"\s+(?:plan|tier|subscription)s?\b")
"""After a one-word name, what makes it a product's tier ("the Team plan") (session 12)."""
_CONTROL_AFTER = re.compile(r"\s+(?:header|button|toggle|checkbox|field|feat|fare|tab)s?\b")
"""After a one-word name, what makes an English word an app's or a protocol's label ("the Pay
button", "a Deprecation header", "the Grappler feat") (session 23)."""
_TIER = re.compile(r"(?<![A-Za-z]\s)(?<![A-Za-z],\s)\b(?!The\b)([A-Z][a-z]+)\s+(?:plan|tier)s?\b|"
                   r"\b(?:[Tt]he|[Aa]|[Mm]y|[Oo]ur|[Yy]our)\s+([A-Z][a-z]+)\s+(?:plan|tier)s?\b")
"""A one-word name before "plan" or "tier", alone or after an article or a possessive ("the
Business plan", "Pro tier"; not "Scottish Widows plan", a company's plan, nor "my Netflix
subscription", a product's): a product's tier wherever the conversation names it (session 13)."""
_ADJECTIVE_BEFORE = re.compile(r"\b(?:[Tt]he|[Aa]n?|in|learn|learning|speak|speaks|speaking)\s+(?:[a-z]+\s+)?$")
"""Before a word in -ian, -ese or -ish that is a people's adjective or a language, not a name
("the little Sicilian place", "a Norwegian court", "in German") (session 12); not "to", "for"
or "by", which names follow ("to Jillian")."""
_SUBJECT_VERB_AFTER = re.compile(r"\s+(?:have|has|had|is|are|was|were|will|would|said|says|wrote|sent)\b")
"""A verb a phrase's subject takes: "Post Office Ltd have written", "Book Club is full" (session 40).
The phrase that it follows names who does it; its first word is no imperative to cut."""
_CONTROL_VERB_BEFORE = re.compile(r"\b(?=[copstu])(?:tap|taps|tapping|tapped|click|clicks|clicking|clicked|press|pressing|tick|ticking|"
                                  r"""untick|select|selecting|toggle|open|opening)\s+(?:on\s+)?['"‘“]?$""")
"""A step's verb of touching a control or opening a screen, right before a word (session 40)."""
_SCREENS = frozenset(("Settings", "Preferences"))
"""Every app's and system's screen of settings, named by the common word (session 40)."""
_SCREEN_BEFORE = re.compile(r"\b(?:app|menu|tab|screen|page)\s+under\s+$|\bunder\s+[A-Z]\w+,?\s+then\s+$")
"""An app's screen or a menu's entry before a word: "in the app under Extras", "under Profile, then
Documents" (session 40)."""
_PARTICLES = "del|della|di|du|der|den|van|von|y|ar|na"
"""A name's lower-case particle between two capitalised words in other languages ("Plaça del Sol",
"Lago di Braies", "Van der Berg Removals", "Pen y Fan", "Pont ar Daf", "Bealach na Bà"): the
name is one, not its two halves (session 48, oqr48)."""
_CAPS = re.compile(r"(" + CAPITAL + r"(?<=\b.)[\w&'.-]*(?:\s+(?:of|de|da|das|do|the|&|" + _PARTICLES + r")?\s*" + CAPITAL + r"[\w&'.-]*)*"
                   r"(?:\s+\d{1,4}(?:(?!(?:[KMGTP]B?|[WVA]|KW|MW|GW|MP|PM|AM)\b)[A-Z]{1,2}\b|(?:\.\d+)?\b(?![.,:/–-]\d)"
                   r"(?!\s*%|\s+(?:at\s+[£$€]?\d|each\b|apiece\b|per\b)|,\s+(?:and\s+)?" + CAPITAL + r"[\w&'.-]*\s+\d))"
                   r"(?:\s+\d{3,5}[A-Z]{1,2}\b)?)?)")
"""A capitalised phrase: a capital (of any script, "Émile", "Łukasz": session 27) at a word's start (the boundary checked behind it, so
that the engine jumps from capital to capital), more capitalised words, a number ("Ward 7B" with its
letter, "Ryzen 7 7840U" with a model after it; not a unit, "5GB", "2M": session 19; not a range's first
number, "Lidl 2–3 times", session 21; not an amount, "Amex 900 at 29.9%", "Annelise 124 each",
nor a score in a list of them, "Abdi 4, Rhiannon 2", session 22)."""
_GENERIC = frozenset(
    "API APIs URL URLs PR PRs TLS SSL GB MB KB TB CSV PDF JSON HTML CSS SQL HTTP HTTPS ID IDs UI UX "
    "CI CD OK ETA FAQ AM PM TV DIY USB CPU GPU RAM SSD OS IT I".split()
)
"""Acronyms that name a kind of thing, not a thing ("the API", "a PDF"): not entities."""
_BUILD_FILES = frozenset("Dockerfile Containerfile Makefile Jenkinsfile Procfile Gemfile Vagrantfile Brewfile Justfile "
                         "Rakefile Pipfile CODEOWNERS".split())
"""Files known by their conventional name ("the Dockerfile", "a Makefile target"): a file every
project of its kind has, no name of the conversation's; on every development set none of the 5
written is a labelled entity (one "Makefile" is a labelled reference, read as before) (session 46)."""
_SCHEME_KINDS = frozenset("Tax Assessment Wage Pension ISA ISAs Regulations Certificate Notice Reference Aid Benefit "
                          "Credit Relief Duty Return".split())
"""The last word of a public scheme's, a tax's or a document's kind, written in capitals after words a
dictionary spells ("Self Assessment", "Council Tax", "National Living Wage", "Lifetime ISA", "State
Pension", "Lawful Development Certificate", "Temporary Event Notice", "Unique Taxpayer Reference",
"Gift Aid"): a kind of thing everyone has or files, not a name; on every development set none of the
19 written on 11 sets is labelled (session 46). Not "Allowance" ("Attendance Allowance", labelled 3 times in 3)
nor "Insurance" ("Orbit Insurance", a firm)."""
_TAXES = frozenset({"National Insurance"})
"""A tax named by words a firm's name could hold ("National Insurance"; written 4 times on 3 sets, labelled
never) (session 46)."""
_STANDARDS = frozenset("Unicode Cyrillic Wi-Fi WiFi Bluetooth Ethernet USB-C IPv4 IPv6 OAuth Markdown XPath".split())
"""Standards named by a word, an encoding, an alphabet, a connection, a protocol or a format ("the whole
of Unicode", "'admin' in Cyrillic", "no Wi-Fi in the hall", "a mix of CSS classes and XPath"): a kind
of thing as :data:`_GENERIC`'s acronyms are ("JSON", "USB", "HTTP"), no thing of the conversation's;
no labelled set names one an entity (every development set: 15 written on 13 sets, none labelled; "GraphQL",
labelled once in two, left) (session 46)."""
_UNITS = frozenset("KB MB GB TB KiB MiB GiB TiB Hz kHz MHz GHz".split())
"""Units of a size in bytes and of a frequency ("256 MiB of memory", "a 2.4 GHz chip", "MB of RAM"): a
measure, no name, alone or opening a capitalised phrase ("MB of RAM", "MB POST"); on every development
set 6 written on 5 sets (dev, heldout11, 18, 34, 42), none labelled (dev's "GB 402" is a VAT number's
start, no name either); "Archery GB" ends on one and stays (session 47)."""
_HEADER = re.compile(r"X(?:-[A-Z][a-z]*){2,}|(?:Cache|Content|Retry|Set|If|Last|User|Accept|Access|Strict|Transfer|Keep"
                     r"|Referrer|Proxy|WWW)(?:-[A-Z][a-z]*)+")
"""An HTTP header's name ("Cache-Control", "Retry-After", "X-Robots-Tag", "Access-Control-Allow"): a
field every response may carry, no name of the conversation's; on every development set 6 written as
entities on 6 sets (heldout12, 14, 22, 27, 32, 42), none labelled one (heldout12's "X-Geo-Country" is a
labelled reference). "X-" takes two parts after it: "X-Trail" is a car (session 47)."""
_LETTER_NOUN = re.compile(r"[A-Z]-[a-z]{3,}")
"""A common noun named by a capital letter and a word ("T-shirts", "X-ray", "O-rings", "B-tree",
"F-clamps"): the letter gives a shape or a kind, the word is lower case: no name; on every development
set 11 written as entities on 10 sets, none labelled. A band's "A-ha" (labelled on heldout11) keeps its
short word (session 47, oq47b)."""
_KINDS_AFTER = frozenset("SIM SDK URI URIs URL URLs CLI APK SKU API APIs UI PR PRs".split())
"""Acronyms of a thing a product or a person has, ending a capitalised phrase after the name
("Giffgaff SIM", "Flagsmith's SDK", "Femi's PR", "GraphQL API"): no part of the name (session 13);
not "TV", "OS" or "ID", which end products' names ("Apple TV", "Chrome OS", "Merlin Bird ID")."""
_ABOUT = frozenset("around another nearly almost roughly approximately about over under maybe perhaps "
                   "probably only just like up till until since by at from every each".split())
"""Words that open a sentence before an amount ("Around 3 million rows", "Another 20 minutes"): the
phrase is an amount, not a name with its version (session 13)."""
_HOLIDAYS = frozenset({"Christmas", "Easter", "Thanksgiving", "Halloween", "New Year", "Hanukkah",
                       "Ramadan", "Diwali"})
"""Holidays are dates, not names."""
_GREETINGS = frozenset("Cheers Thanks Sorry Hi Hey Hello Dear Happy Otherwise Coach Oma Opa Gran Grandma Grandpa Nana Nan".split())
"""Words before a name that are no part of it (session 11); not "Aunt" or "Uncle", which the
labelled sets keep ("Aunt Ruth")."""
_LANGUAGES = frozenset(
    "English French German Spanish Italian Portuguese Dutch Flemish Danish Swedish Norwegian Finnish Icelandic "
    "Estonian Latvian Lithuanian Polish Czech Slovak Slovenian Hungarian Romanian Bulgarian Croatian Serbian "
    "Bosnian Albanian Macedonian Greek Turkish Russian Ukrainian Belarusian Georgian Armenian Azerbaijani Kazakh "
    "Uzbek Welsh Irish Scottish Gaelic Breton Catalan Basque Galician Maltese Latin Yiddish Hebrew Arabic Persian "
    "Farsi Kurdish Pashto Urdu Hindi Bengali Punjabi Gujarati Marathi Tamil Telugu Kannada Malayalam Sinhala "
    "Nepali Chinese Mandarin Cantonese Japanese Korean Mongolian Tibetan Thai Lao Khmer Burmese Vietnamese "
    "Indonesian Malay Filipino Tagalog Swahili Amharic Somali Yoruba Igbo Hausa Zulu Xhosa Afrikaans "
    "American British Canadian Mexican Brazilian Argentinian Chilean Colombian Peruvian Cuban Australian "
    "European African Asian Indian Pakistani Egyptian Moroccan Nigerian Kenyan Ethiopian Israeli Iranian Iraqi "
    "Syrian Lebanese Saudi Emirati Afghan Taiwanese Singaporean Malaysian Austrian Swiss Belgian "
    "Scandinavian Nordic Balkan Slavic Sicilian Venetian Tuscan Neapolitan Bavarian Parisian Andalusian".split())
"""Languages and the adjectives of peoples ("Korean", "Brazilian Portuguese", "Canadian"), one
word or a phrase of them only: what a thing is in or from, not a name (session 16; "English
Heritage" and "Turkish Airlines" are names)."""
_ORG_ACRONYMS = frozenset(
    # public bodies (UK, Ireland, US, Canada, Australia, EU and international)
    "HMRC DVLA DVSA DWP HSE CQC ONS FCA ICO CMA HMCTS HMPO ACAS UCAS OFSTED RNLI RSPCA RSPB NSPCC YHA "
    "BBC ITV RTE ESB NCT IRS FDA CDC FBI CIA NASA FEMA USPS DMV SSA EPA FTC FAA TSA NIH NSF NOAA DOJ "
    "CRA CBC ATO ECB EIB EUIPO WIPO OECD IMF NATO UNICEF UNESCO UNHCR CERN ESA EFSA EMA "
    # companies, carriers, banks, broadcasters, sports and charities known by their letters
    "IKEA ASOS HSBC TSB RBS NAB ANZ ING AIB UBS BNP KPMG IBM AMD AWS SAP BMW KLM SNCF RATP DHL DPD UPS TNT GLS "
    "EE BT CNN NPR NBC HBO ESPN FIFA UEFA NFL NBA MLB NHL RFU PGA ATP WTA WWF MSF YMCA AARP AQA ABRSM RHS RIBA RICS "
    "CIPD ACCA "
    # session 39: more public bodies, regulators, research councils and universities
    "NHS DEFRA DHSC FCDO UKHSA FSA MHRA GMC NMC HCPC BSI UKAS EHRC OFGEM OFWAT ORR CAA HMLR UKVI DESNZ DCMS "
    "MHCLG APHA JNCC SEPA NRW GLA UKRI AHRC EPSRC ESRC BBSRC NERC STFC NIHR HESA QAA NCSC TPR FSCS "
    "MIT UCL LSE KCL NYU UCLA EPFL CMU "
    "WTO ILO IAEA ICAO IATA UNDP UNEP FAO OPEC IOC ERC EPO EBA ESMA ECHA EASA ECMWF "
    "FCC NHTSA OSHA NTSB USGS USDA USCIS ACLU NAACP PBS CBS "
    # bodies of trades, sports, arts and charities; carriers and firms known by their letters
    "BMA RCN NFU RYA LTA WRU IRFU EFL WWT RNIB RNID PDSA BHF CAMRA IET ICAEW CIMA FIDE PADI "
    "BSAC ISTD LAMDA PPL MCPS BFI BAFTA OWASP IETF ICANN IANA CNCF FSF EFF IEEE NIST "
    "RIPE GWR LNER RAC EDF JCB TSMC ASML".split())
"""Organisations known by their letters ("HMRC", "IKEA", "DHL"), written out once from what is
widely known, not from the labelled sets; every other word in capitals stays no name (the
guide's "not acronyms": keywords, shouting, "API", "GP") (session 18). Session 39 added public
bodies, research councils, universities, international bodies, trade, sports and arts bodies
and firms, again from what is widely known; letters that are also a common word or a generic
term ("WHO", "NICE", "ISO", "SSE", "BP", "AA", "LOT", "TUI", "ETH": a coin) left out, and so are small bodies
whose letters the session read only in the development sets' misses ("BBKA", "HETAS", "CCLI")."""
_SHORT_CODE = re.compile(r"[A-Z]{1,2}\d{1,3}[A-Z]?s?")
"""A short code of one or two capitals and a number, alone ("B2", "A4", "F1", "U12s", "B214", "CN22", "TC52s"):
mostly a level, a paper size, a score, a room, a form or a model, which the labels name no entity (the
guide's "not acronyms, generic terms"); a product known by one ("MG4", "A100", "S3") is lost with them
(session 21)."""
_COMPASS = frozenset("north south east west central northern southern eastern western latin new".split())
"""What opens a region's or a country's name after which the name's last word is another place ("South
Africa" and "Africa", "New Mexico" and "Mexico") (session 21)."""
_DECIMAL = re.compile(r"\d+\.\d+")
_NUMBERED_KINDS = frozenset(
    "Section Clause Article Chapter Page Plot Flat Room Table Item Option Level Grade Sprint "
    "Space Platform Gate Unit Bay Bed Episode Season Step Phase Figure Seat Row Lot Volume Suite "
    "Number Part Class Zone Block Card Year".split())
"""Words that number things of a kind ("Plot 12", "Page 58", "Option 1"): with the number, a
place in a list or a plan, not a name (session 12)."""
_NUMBERED_MORE = frozenset("Act Stage Division Plan".split())
"""More words that number things of a kind, as :data:`_NUMBERED_KINDS` ("Act 2" of a play, "Stage 4"
of swimming lessons, "Division 1" of a league, "Plan 2" of a student loan) (session 47, oq47b)."""
_NUMBERED_ANY = _NUMBERED_KINDS | _NUMBERED_MORE
"""Every word that numbers things of a kind, joined once (not for each phrase :func:`_name_of` reads)."""
_NUMERAL = re.compile(r"[IVX]+|One|Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten|Eleven|Twelve")
"""A number in Roman numerals or in words after a numbered kind ("Grade II", "Part Two"): as a number
in digits, a place in a list, not a name (session 47, oq47b)."""
_NUMBER_WORD = re.compile(r"\d+[A-Za-z]?")
_MONTHS = {"January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December", "Monday", "Tuesday", "Wednesday", "Thursday",
           "Friday", "Saturday", "Sunday"}
_WEEKDAYS = frozenset("Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split())
_BRAND_DOMAIN = re.compile(r"[A-Z][a-z]+(?:[A-Z][a-z]+)?\." + _TLDS)
"""A domain written with a capital and nothing after it ("Booking.com", "Frame.io"): a company named
by its site, which the labels keep as an entity; a page on it ("Booking.com/help") or the site
written as an address ("booking.com") stays a reference (session 42)."""
_TIME_WORDS = frozenset(_MONTHS | {"Today", "Tomorrow", "Tonight", "Yesterday"})
"""A month, a weekday or a day said by its word: alone, never a reference (session 42)."""
_DAY_NAMES = frozenset("Black Good Cyber Easter Ash Holy Maundy Super Palm Whit Shrove Plough Giving".split())
"""What opens a day's own name ("Black Friday", "Easter Monday", "Cyber Monday")."""
_CODE_TYPE = re.compile(
    r"(?<=[a-zA-Z0-9])(?:Adapter|Issuer|Handler|Manager|Factory|Builder|Provider|Listener|Controller|Delegate|"
    r"Result|Response|Request|Session|Cache|Frame|Config|Context|Options|Settings|Props|State|Interrupt|Timeout|"
    r"Transport|Client|Component|Router|Middleware|Serializer|Validator|Parser|Reader|Writer|Stream|Buffer|"
    r"Iterator|Generator|Interface|Struct|Enum|Trait|Mutex|Guard|Table|List|Card|Page|Bar|Button|Modal|Dialog|"
    r"Widget|View|Fragment|Activity|Size|Percentage|Count|Id|Url)$")
"""A word whose capital inside it opens a word that names a kind of object in code ("HTTPAdapter",
"ClusterIssuer", "StreamingResponse", "GlyphCache", "ProductCard", "MaxRecvMsgSize"): a class, a
component or a setting, not a thing a person names (session 18)."""
_MODEL_CODE = re.compile(r"[A-Z]{1,3}-?\d{1,5}[A-Z]{0,3}")
"""A product's model after its maker's or its range's name ("X100VI", "AX3000", "FP-10"): letters,
digits and at most three letters after them (session 19)."""
_KEY_KINDS = frozenset(
    "Order Invoice Booking Confirmation Account Case Claim Ticket Policy Reference Member Membership Customer "
    "Employee Card Receipt Form Discussion Client Flight Error Code Permit Licence License Agreement Notice "
    "Application Ride Certificate Number Quote Serial Tracking Parcel Passport Voucher Coupon Job "
    "Incident Issue Request Batch Room Seat Gate Platform Bus Route Train".split())
"""Words naming the kind of paper or thing a key keys ("Order EV-55812", "Flight KL1841", "Error
E0597"): before a code they make it a reference, not a product's model (session 19)."""


def _model(words: Sequence[str]) -> bool:
    """Whether a name's words end in a product's model after its maker's or its range's name
    ("Fujifilm X100VI", "Nimbus AX3000", "Roland FP-10"); not a key after its kind ("Order EV-55812",
    "Error E0597", "Member ID FL-20931") (session 19)."""
    return (len(words) > 1 and _MODEL_CODE.fullmatch(words[-1]) is not None and words[-2] not in _KEY_KINDS
            and words[-2][:1].isupper() and not words[-2].isupper() and not _DIGIT.search(words[-2]))


_DETERMINERS = ("The ", "My ", "Our ", "Your ", "His ", "Her ", "Their ")
_SHORT_DAYS = frozenset("Mon Tue Tues Wed Thu Thur Thurs Fri Sat Sun".split())
_SHORT_MONTHS = frozenset("Jan Feb Mar Apr Jun Jul Aug Sep Sept Oct Nov Dec".split())
"""Days and months written short: a day alone ("Thu") or a month beside a number ("Feb 14",
"14 Feb") is a date, not a name (session 13)."""
_SHORT_DATES = _SHORT_DAYS | _SHORT_MONTHS
_SHORT_MONTHS_ALONE = _SHORT_MONTHS - {"Jan", "Jun", "Dec"}
"""Months written short that are a date with no number beside them ("back in Feb", "the Nov deploy",
"Sep and Mar dates"): on every development set none of their 11 mentions alone is a labelled entity;
not "Jan" and "Jun", people's names the sets label ("Jun", twice), nor "Dec" (Declan's) (session 46)."""


def _headline(sentence: str) -> bool:
    """Whether a sentence is written in title case, as headlines and titles of works are
    ("The Quiet Art of Repairing Old Clocks: A Guide"): most of its words capitalised."""
    words = sentence.split()
    return len(words) >= 4 and 2 * sum(1 for w in words if w[:1].isupper()) > len(words)


_LOWER_LEAD = re.compile(r"(?<![\w./:@#-])(?!(?:on|use|get|set|for|is|has|to|add|new|put|del|run|can)[A-Z])"
                         r"(?:[a-z]{1,3}[A-Z][a-z]{2,}[A-Za-z]*|(?:i|mac|tv|watch|iPad|vision)OS)\b(?![.(/:-]\w)"
                         r"(?: \d{1,2}\b(?![.,:/–-]\d))?")
"""A name opening with a short lower-case prefix before a capitalised word ("iPhone", "eBay",
"bioRxiv"): a product or a site, not a word the capitalised-phrase scan can see; not code named
by what it does ("onClick", "useState", "getUser", "forEach") (session 13); its version is a number not
opening a range ("iPhone 15", not "iTalki 3–4 times", session 21)."""
_LOWER_UPPER = re.compile(r"[a-z][A-Z]")
"""A lower-case letter just before a capital, which every :data:`_LOWER_LEAD` match holds
("iP" of "iPhone", "iO" of "iOS"): a sentence without one is not searched with it (session 21,
the cost)."""
_SOFTWARE_WORD = re.compile(r"[a-z](?<![\w./@#:$%=~-][a-z])[a-z0-9]*(?:[-_][a-z0-9]+)*(?![\w/@(-]|\.\w)")
"""A lower-case word standing alone, not in a path, a flag, an address or a call: a
candidate for :data:`memlane.index.software.SOFTWARE` (session 17). The look-behind follows the
first letter, so that the engine jumps from letter to letter (a fifth cheaper than before it).
Its parts may be joined by "_" too ("pg_dump", :data:`memlane.index.software_words.TOOLS`; session 40)."""
_LOWER_RUNS = re.compile(r"[a-z][a-z0-9_-]*")
"""Every run a :data:`_SOFTWARE_WORD` match can be (what may stand before or after one is
none of these characters), so a sentence none of whose runs is a listed name is not searched
with it: most sentences, at half the cost."""
_SOFTWARE_ANY = SOFTWARE | SOFTWARE_WORDS | TOOLS | SERVICES
"""The lists of package, tool and service names, so that a sentence's runs are looked up in one set
(session 21; the services, session 41)."""
_SOFTWARE_ANY_BYTES = frozenset(w.encode("utf-8") for w in _SOFTWARE_ANY)
_RUN_CHARS = bytes(b if 97 <= b <= 122 or 48 <= b <= 57 or b in (45, 95) else 32 for b in range(256))
"""A byte table keeping ``[a-z0-9_-]`` and writing a blank for anything else."""
_CASE_CHARS = bytes(97 if 97 <= b <= 122 else 65 if 65 <= b <= 90 else 32 for b in range(256))
"""A byte table writing "a" for a small letter, "A" for a capital and a blank for anything else."""


def _may_name_software(sentence: str) -> bool:
    """Whether one of ``sentence``'s :data:`_LOWER_RUNS` is a listed package's name. In plain
    ASCII text each run is a blank-separated piece of the sentence with only ``[a-z0-9_-]`` kept,
    without the digits, dashes and underscores before its first letter: a byte translation and a split, a
    fifth cheaper than the pattern's list of runs (session 35, the cost)."""
    if sentence.isascii():
        runs = sentence.encode("ascii").translate(_RUN_CHARS).split()
        return not _SOFTWARE_ANY_BYTES.isdisjoint(map(bytes.lstrip, runs, repeat(b"0123456789-_")))
    return not _SOFTWARE_ANY.isdisjoint(_LOWER_RUNS.findall(sentence))


_ARTICLE_BEFORE = re.compile(r"(?:^|\s)(?:the|an?) $")
_CLAUSE_END = re.compile(r"\s*(?:[.,;:!?)]|$)")


def _common_noun(sentence: str, start: int, end: int) -> bool:
    """Whether a service's name at ``start:end`` is said as a common noun: after an article, with
    the clause ending after it ("waiting for the uber.", "might just do the parkrun"), a ride or a
    run, not the service; "the giffgaff SIM", "on italki" keep the name (session 41)."""
    return (_ARTICLE_BEFORE.search(sentence, max(0, start - 5), start) is not None
            and _CLAUSE_END.match(sentence, end) is not None)


def _lower_upper(sentence: str) -> bool:
    """Whether :data:`_LOWER_UPPER` finds a small letter before a capital in ``sentence`` (in
    plain ASCII text by a byte translation and ``in``, half the pattern's cost; session 35)."""
    if sentence.isascii():
        return b"aA" in sentence.encode("ascii").translate(_CASE_CHARS)
    return _LOWER_UPPER.search(sentence) is not None
_PACKAGE_NAME = r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*(?![\w/@(-]|\.\w)"
_LIKE_PACKAGE = re.compile(r"\b(?:librar(?:y|ies)|packages?|crates?|modules?|plugins?|tools?|frameworks?)\s+(?:like|such as)\s+"
                           r"(" + _PACKAGE_NAME + r"(?:(?:,\s+|,?\s+(?:or|and)\s+)" + _PACKAGE_NAME + r")*)"
                           r"(?=[,.;:!?)]|$|\s+(?:or|and|which|that|instead|if|but|so|for|to|in|with|is|are|will|would|can)\b)")
"""Lower-case names given as examples of a library, a package or a tool ("a library like pendulum or
arrow", "a plugin like hatch-cython"): packages, English words ("arrow") too (session 19)."""
_PACKAGE_WORD = "package?"
"""The type :meth:`OfflineIntelligence._entities` gives a name of
:data:`memlane.index.software_words.SOFTWARE_WORDS` ("pandas", "tenacity"): a name in a
conversation about software (:data:`_SOFTWARE_TALK`), the English word elsewhere (session 19)."""
_SOFTWARE_TALK = re.compile(r"\b(?=[dinprv])(?:pip|npm|import|dependenc(?:y|ies)|python|requirements\.txt|pyproject|repo|virtualenv|"
                            r"venv)\b|\.py\b", re.IGNORECASE)
"""What makes a conversation one about software, beside a listed package's name (session 19). (The
look-ahead on the words' first letters, as :data:`_NOT_STATED`'s, halves a search: session 57, spd57.)"""
_ZONE_AREAS = ("Africa/", "America/", "Antarctica/", "Asia/", "Atlantic/", "Australia/", "Europe/", "Indian/",
               "Pacific/")
_LIKE_KINDS = ("librar", "package", "crate", "module", "plugin", "tool", "framework")
"""What :data:`_ZONE_AREAS`' and :data:`_LIKE_PACKAGE`'s matches hold: looked for before the patterns
run (" like " is in one sentence of ten)."""
_TIME_ZONE = re.compile(r"(?<![\w/])(?:Africa|America|Antarctica|Asia|Atlantic|Australia|Europe|Indian|Pacific)"
                        r"(?:/[A-Z][A-Za-z_-]+)+(?![\w/])")
"""A time zone by its name in the time zone database ("Europe/Paris", "America/Argentina/Salta"): one
name, not a continent and a city (session 19)."""
_GLUED = re.compile(r"(?:(?:^|[\s`'\"(])-{1,2}|\w:|::)$")
"""Before a capitalised word, what makes it a flag or a name in code: a dash opening the word
("-Xmx1g", "--Foo"; not "ex-Google", a word's own hyphen), or a colon glued to a word
("-XX:MaxRAMPercentage", "tokio::sync::Mutex"; not "Note: Tom") (session 17)."""
_KEY = re.compile(r"[A-Z][A-Z0-9]*-[A-Z0-9-]*[0-9][A-Z0-9-]*")
"""A ticket's, an order's or an invoice's key: capitals, a dash, digits ("INC-2291",
"INV-2026-1187", "FL-20931")."""
_MODIFIER = re.compile(r"-(?:only|style|based|friendly|free|compatible|powered|like|specific|native|ready|certified|"
                       r"approved|related|sized|shaped|wide|facing|[a-z]{2,}ed)$")
"""An adjective's ending joined to a name ("Samsung-only", "VPN-only", "Crash-free", "OOM-killed") (session 23)."""
_PEOPLES_ENDINGS = ("an", "ese", "ish", "ic", "i")
"""How a people's adjective ends ("Moroccan", "Japanese", "Polish", "Nordic", "Israeli")."""
_DECLARED = re.compile(r"\b(?:struct|enum|trait|impl|derive|interface|typedef|class) $")
"""What declares or derives a type in code just before its name ("struct Renderer", "derive Clone") (session 23)."""
_INNER_CAPITAL = re.compile(r"[a-z][A-Z]")
"""A capital after a small letter inside a word ("PagerDuty", "KubeCon"): a name's spelling, not a word's."""
_KIN_NAMES = frozenset("Mum Dad Mom Mummy Daddy Gran Granny Grandma Grandad Grandpa Nan Nana".split())
"""Family words written as names ("Dad's appointment"): the person is named elsewhere or not."""
_OPENERS = frozenset(
    "in on at for from to into with by via as of about near around across behind past outside inside towards toward "
    "within without between among beside is are was were did does do has have had can could will "
    "would should shall may might must which what where when why how who whose if and but so or yes ok okay hey hi "
    "hello thanks here then also just once after before since until while older newer poor".split())
"""Words opening a sentence before a name that name nothing and are no part of it: prepositions,
the verbs and words of a question, greetings ("In England your deposit…", "Is Ciaran back?", "Which
Python are you on?", "Hey Mel!"); not "New" ("New Zealand"), "Good" ("Good Omens"), an article or a
determiner ("The Corn Exchange", "This External…": session 13's rule) (session 19). Nor a comparative
of age or a word of pity ("Older Android phones…", "Poor Terry has…"), which no name opens on; not
"Old" ("Old Roads", "Old Trafford") (session 46)."""
_INTERJECTION = re.compile(
    r"(?:(?:ha|he|hi|ja)h?){2,}|l+o+l+|l+m+f?a+o+|o+m+g+|a+h+|o+h+|u+g+h+|h+m+|a+w+|y+a+y+|o+o+h+|e+e+k+"
    r"|thank(?:you|s?x)|.*(.)\1\1.*", re.IGNORECASE)
"""Laughter, exclamations and words drawn out ("Haha", "Lol", "Ahh", "Noooo", "Thankyou"): no
dictionary spells them and they name nothing (session 20)."""
_CHAT = frozenset("btw idk ttyl tbh imo imho fyi lmk brb omw nvm pls plz thx woah whoa psh pfft meh "
                  "dont cant wont isnt didnt doesnt wasnt werent arent couldnt wouldnt shouldnt ive youre".split())
"""Chat's shorthand and contractions written without their apostrophe ("Btw", "Ttyl", "Dont"): no
dictionary spells them and they name nothing (session 20)."""
_LOWER_WORD = re.compile(r"\b[a-z]{3,}\b")


_SUFFIXES = ("able", "ible", "ary", "ant", "ism", "ity", "ize", "ise", "ify", "ive", "ment", "ness", "ous", "ial")
_PREFIXES = ("cyber", "nano", "bio", "tele", "thermo", "opto", "micro", "neuro", "eco", "geo", "hydro", "electro",
             "photo", "multi", "hyper", "meta", "macro", "pharma", "proto", "vaso")


def _derived(low: str) -> bool:
    """Whether a word no dictionary lists is an English word's plural or derivation: a suffix after
    a listed stem ("inclusionary", "perseverant", "customizable", "gamify") or a learned prefix before
    one ("telepresence", "optotransducers", "nanobiosensors", "cybersecurity"), plural or not (session 21)."""
    word = low.removesuffix("s")
    if word != low and is_english_word(word):
        return True  # "millennials"
    for suffix in _SUFFIXES:
        stem = word.removesuffix(suffix)
        if stem != word and len(stem) > 3 and (is_english_word(stem) or is_english_word(stem + "e")
                                               or (stem[-1] == "i" and is_english_word(stem[:-1] + "y"))):
            return True
    for prefix in _PREFIXES:
        rest = word.removeprefix(prefix)
        if rest != word and len(rest) > 3 and (is_english_word(rest) or _derived(rest)):
            return True
    return False


def _slip(low: str) -> bool:
    """Whether a word no dictionary lists is a listed one mistyped: two letters next to each other
    swapped in a word of six letters or more ("anaylze"; not "aceh"), or, in a long word, one letter too many ("explaination"); a name is rarely
    either (not "shiftly", "amira": a letter dropped from a word makes names too) (session 21)."""
    for i in range(len(low) - 1):
        if len(low) > 5 and low[i] != low[i + 1] and is_english_word(low[:i] + low[i + 1] + low[i] + low[i + 2:]):
            return True
    return len(low) >= 9 and any(is_english_word(low[:i] + low[i + 1:]) for i in range(len(low)))


def _unknown_word(word: str, sentence: str, end: int) -> bool:
    """Whether a capitalised word opening ``sentence`` (ending at ``end``) is one no English word
    spells, nor two joined, plural or not ("Zendesk", "Lingofy", "Kitlocker"… but "Frontend",
    "Storytime", "Webhooks", "Signups" are two words; "Haha", "Btw" :data:`_INTERJECTION`,
    :data:`_CHAT`; "Isn't" a word cut at its apostrophe): it is then read as a name there too
    (:func:`memlane.index.englishwords.is_english_word`), unless the sentence is not in English, as
    its other words tell ("Inoltre, la…", "Então você…") (session 20)."""
    if (len(word) < 3 or not word.isalpha() or _INTERJECTION.fullmatch(word) or word.lower() in _CHAT
            or sentence[end: end + 1] in ("'", "’") or is_english_word(word)):
        return False
    low = word.lower()
    for base in {low, low.removesuffix("s"), low.removesuffix("es")}:
        for i in range(3, len(base) - 2):
            if is_english_word(base[:i]) and is_english_word(base[i:]):
                return False
    if _derived(low) or _slip(low):
        return False
    if sentence[end: end + 1] == "!" and not sentence[end + 1:].strip():
        return False  # "Bonjour!", "Excelente!", "Yoohoo!": a greeting or a call, alone (session 21)
    others = _LOWER_WORD.findall(sentence, end)[:12]
    return not others or 2 * sum(map(is_english_word, others)) >= len(others)


_DAY_SHORT = r"(?:Mon|Tue|Tues|Wed|Thu|Thur|Thurs|Fri|Sat|Sun)"
_DATE_NAME = re.compile(
    r"(?:Christmas|Boxing|New Year's|Labou?r|Memorial|Independence|Valentine's|Mother's|Father's|Easter|Thanksgiving|"
    r"Remembrance|Armistice|Anzac|Canada|Australia|Veterans|Presidents'?|St\.? Patrick's) (?:Day|Eve)|"
    r"Easter (?:Sunday|Monday)|Good Friday|Shrove Tuesday|Ash Wednesday|Palm Sunday|Maundy Thursday|Holy Week|"
    r"(?:Lunar|Chinese) New Year|Black Friday|Cyber Monday|"
    + _DAY_SHORT + r"(?:[-–]| )" + _DAY_SHORT + r"(?: " + _DAY_SHORT + r")*")
"""A day by its name: a holiday ("Christmas Day", "Boxing Day", "Good Friday"), or days written
short in a range or a run ("Mon-Wed", "Thu-Sun", "Mon Tue Wed"): a date, not an entity (session
20). So are the days of the church's and the lunar calendar and the sales' days ("Palm Sunday", "Holy
Week", "Lunar New Year", "Black Friday": every development set labels one of their 8 mentions, a
"Black Friday", session 46)."""
_DEPARTMENTS = frozenset("Legal Sales Finance Marketing Engineering Security Support Procurement Facilities Payroll "
                         "Compliance Accounts Accounting Reception Admin Operations Ops".split())
"""A firm's departments named by their work ("Legal signed off", "Sales will scream"): a part of the
team, not a name (the guide's generic terms) (session 19)."""
_KIN = ("sister", "brother", "wife", "husband", "partner", "girlfriend", "boyfriend", "friend",
        "boss", "manager", "colleague", "coworker", "mom", "mother", "dad", "father", "son",
        "daughter", "cousin", "aunt", "uncle", "grandma", "grandmother", "grandpa",
        "grandfather", "roommate", "neighbor", "neighbour", "cat", "dog", "puppy", "kitten",
        "pet", "niece", "nephew", "fiance", "fiancee", "therapist", "doctor", "teacher")
# A value runs to a stop (punctuation before a space or the end, a clause word); punctuation
# inside a token ("sam.patel@example.com", "Python 3.12", "Booking.com", "72,000",
# "https://sam.dev") and the abbreviations of names ("St. Albans") do not end it.
_VAL = (
    r"((?:\b(?:St|Mt|Ft|Dr|Mr|Mrs|Ms)\.\s|[^.!?;,:\n]|[.!?;,:](?=[\w/@%#~+-])){1,80}?)(?=\s*(?:[.!?;,:](?![\w/@%#~+-])|\n|(?<=\s)(?:and|but|so|which|because|since|near|last|"
    r"this|next|yesterday|today|recently|ago|two|three|a few|every|now|with|for|when|while|"
    r"though|too|as well|" + CHAT_FILLERS + r"|"
    r"after|before|until|on|in (?:January|February|March|April|May|June|July|August|September|"
    r"October|November|December|\d{4}))\b|$))"
)

# (pattern, subject, predicate or None to take it from group 1); the value is the last group.
_FIRST_PERSON: list[tuple[re.Pattern[str], str, str | None]] = [
    (re.compile(r"\b(?i:my)\s+(" + "|".join(_KIN) + r")(?:'s name is|\s+is called|\s+is named|\s+named|,)?\s+(" + NAME_WORD + r")\b"), "user", None),
    (re.compile(r"\bmy favou?rite\s+([a-z]+(?:\s[a-z]+)?)\s+(?:is|are)\s+" + _VAL, re.IGNORECASE), "user", "favorite_{0}"),
    (re.compile(r"\b[Mm]y\s+(?:new\s+|current\s+)?((?:[a-z]+|[A-Z]{2,})(?:\s(?:[a-z]+|[A-Z]{2,})){0,2})"
                r"\s+(?:is|are|was)\s+(?:now\s+)?" + _VAL), "user", "{0}"),
    (re.compile(r"\bi\s+(?:just\s+|recently\s+)?(?:moved|relocated)\s+(?:back\s+)?to\s+" + _VAL, re.IGNORECASE), "user", "lives_in"),
    (re.compile(r"\bi\s+(?:currently\s+)?live\s+in\s+" + _VAL, re.IGNORECASE), "user", "lives_in"),
    (re.compile(r"\bi\s+(?:currently\s+)?work\s+(?:at|for)\s+" + _VAL, re.IGNORECASE), "user", "works_at"),
    (re.compile(r"\bi(?:'m| am)\s+(?:now\s+)?(?:working\s+)?as\s+an?\s+" + _VAL, re.IGNORECASE), "user", "job"),
    (re.compile(r"\bi(?:'m| am)\s+allergic\s+to\s+" + _VAL, re.IGNORECASE), "user", "allergic_to"),
    (re.compile(r"\bi(?:'m| am)\s+(?:a\s+)?(vegetarian|vegan|pescatarian)\b", re.IGNORECASE), "user", "diet"),
    (re.compile(r"\bi\s+(?:really\s+)?(?:prefer|like|love|enjoy)\s+" + _VAL, re.IGNORECASE), "user", "likes"),
    (re.compile(r"\bi\s+(?:don't|do not|never)\s+(?:like|enjoy)\s+" + _VAL, re.IGNORECASE), "user", "dislikes"),
    (re.compile(r"\bi\s+(?:just\s+|recently\s+)?(?:started|began|took up)\s+" + _VAL, re.IGNORECASE), "user", "started"),
    (re.compile(r"\bi\s+(?:just\s+|recently\s+)?(?:bought|got|purchased|adopted)\s+" + _VAL, re.IGNORECASE), "user", "acquired"),
    (re.compile(r"\bi\s+(?:signed up|registered|enrolled)\s+(?:for|in)\s+" + _VAL, re.IGNORECASE), "user", "signed_up_for"),
    (re.compile(r"\bi\s+(?:visited|went to|traveled to|travelled to)\s+" + _VAL, re.IGNORECASE), "user", "visited"),
    (re.compile(r"\bi\s+(?:have|own)\s+an?\s+" + _VAL, re.IGNORECASE), "user", "has"),
    (re.compile(r"\bi\s+(?:graduated|studied)\s+(?:from|at)\s+" + _VAL, re.IGNORECASE), "user", "studied_at"),
    (re.compile(r"\bi\s+(?:use|switched to)\s+" + _VAL, re.IGNORECASE), "user", "uses"),
]
_FACT_GUARDS: list[tuple[str, ...]] = [
    ("my ",), ("favo",), ("my ",), ("moved", "relocated"), ("live in",), ("work ",), (" as a",),
    ("allergic",), ("vegetarian", "vegan", "pescatarian"), ("prefer", "like", "love", "enjoy"),
    ("don't", "do not", "never"), ("started", "began", "took up"),
    ("bought", "got", "purchased", "adopted"), ("signed up", "registered", "enrolled"),
    ("visited", "went to", "traveled", "travelled"), ("have", "own"), ("graduated", "studied"),
    ("use", "switched"),
]
"""Words each first-person pattern needs, looked for in the lower-cased sentence before the
pattern runs: most sentences need only a few of the eighteen scans."""
_FACT_WORDS = tuple(dict.fromkeys(w for guard in _FACT_GUARDS for w in guard))
"""Each guard word once: looked for once per sentence, not once per pattern."""
_FIRST_PERSON_CUE = re.compile(r"\b(?:i|my|i'm)\b", re.IGNORECASE)
_WORD_BYTES = bytes(b + 32 if 65 <= b <= 90 else b if 97 <= b <= 122 or 48 <= b <= 57 or b == 95 else 32
                    for b in range(256))
"""A byte table keeping ``\\w``'s ASCII characters, capitals lower-cased, and writing a blank for anything else."""


def _first_person(sentence: str) -> bool:
    """Whether :data:`_FIRST_PERSON_CUE` finds "i", "my" or "i'm" in ``sentence``. In plain ASCII
    text its words, lower-cased by a byte translation, are looked at for "i" or "my" ("i'm" holds
    "i" as a word), cheaper than the case-blind pattern's ``\\b`` tried at every character
    (session 41, the cost)."""
    if sentence.isascii():
        words = b" " + sentence.encode("ascii").translate(_WORD_BYTES) + b" "
        return b" i " in words or b" my " in words
    return _FIRST_PERSON_CUE.search(sentence) is not None


_ORG_BEFORE = re.compile(r"\b(work at|works at|working at|work for|works for|joined)\s*$")
_PLACE_BEFORE = re.compile(r"\b(in|to|from|at|near|visit|visited|moved to)\s+(?:the\s+)?$")
_PET_BEFORE = re.compile(r"\b(" + "|".join(_PETS) + r")\s*$")
_KIN_BEFORE = re.compile(r"\b(" + "|".join(_KIN) + r")\s*$")
_KIND_BEFORE = re.compile("|".join(p.pattern for p in (_ORG_BEFORE, _PLACE_BEFORE, _PET_BEFORE, _KIN_BEFORE)))
"""What any of the four patterns above finds, in one search: the words before most names are none
of them, and are not searched four times (session 48, perf48)."""
_LEAD = 3
"""Sentences of an assistant message that count towards topics and entities."""
_SELF = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|my|me|we|we've|our)\b", re.IGNORECASE)
_REQUEST = re.compile(
    r"\b(?:can|could|would|will)\s+you\b|\bdo\s+you\b|\bplease\b|\bhelp\s+me\b|\bany\s+(?:suggestions|"
    r"recommendations|tips|ideas|advice)\b|\bi(?:'m|\s+am)\s+(?:looking\s+for|trying\s+to\s+(?:find|"
    r"decide|figure)|wondering)\b|\bi\s+(?:was|am)\s+wondering\b|\bi\s+(?:need|want|would\s+like)\s+(?:some|"
    r"to\s+know|help|advice|you)\b|\b(?:tell|give|show)\s+me\b",
    re.IGNORECASE,
)
_DISCLOSURE = re.compile(
    r"\b(?:i|we)\s+(?:just\s+|recently\s+|finally\s+|already\s+|also\s+|actually\s+)?"
    r"(?:[a-z]+ed|got|saw|went|bought|made|took|had|did|ran|began|won|lost|met|left|sold|gave|"
    r"found|wrote|read|heard|spent|paid|built|drove|flew|ate|brought|caught|kept|felt|taught|"
    r"thought|chose|became|came|sent|set|put|hit|quit|cut|rode|swam|sang|grew|threw|wore|broke|"
    r"forgot|fell|have|am|usually|always|often|never|love|like|prefer|enjoy|hate|own|live|work|"
    r"use)\b"
    r"|\b(?:i|we)'(?:ve|d)\b|\bmy\s+[a-z]+(?:\s+[a-z]+)?\s+(?:is|are|was|were|has|have|had)\b"
    r"|\b(?:today|yesterday|last\s+(?:week|weekend|month|year|night|time)|ago|lately|recently)\b",
    re.IGNORECASE,
)
_LEAD_IN = re.compile(
    r"^(?:(?:by the way|btw|oh|also|and|anyway|incidentally|actually|plus|so|well|"
    r"speaking of [^,]{1,60}|on (?:a|another) (?:side )?note)[,:;!.\s-]+)+",
    re.IGNORECASE,
)
_SELF_LOW, _DISCLOSURE_LOW, _REQUEST_LOW = (re.compile(p.pattern) for p in (_SELF, _DISCLOSURE, _REQUEST))
"""The same patterns without IGNORECASE, for lower-cased ASCII text (where they find the
same; case folding beyond ASCII differs from lower-casing, so other text keeps the originals)."""
_NOT_A_FACT = {"name", "question", "problem", "point", "guess", "bad", "pleasure", "turn", "goal is to"}
_THING_ING = frozenset("morning evening wedding building ceiling spring string sibling pudding something nothing "
                       "anything everything thing king ring swing wing sling offering painting setting".split())
_PASSING_OPEN = re.compile(r"(?:still|too|a bit|a little|pretty|really|quite|all|almost|always|kinda|kind of|sort of|"
                           r"totally|super|like|just|we|i|i['’](?:m|ve|d|ll)|you|he|she|they|it|what|when|where|how|why|there|here|"
                           r"in (?:there|here))(?=\s|$|[,;!?])", re.IGNORECASE)
_PASSING_WORDS = frozenset(
    "amazing awesome great good fine okay ok bad terrible awful horrible cold hot warm freezing full empty long "
    "sore tired exhausted destroyed hopeless useless invalid safe important enough possible perfect nice lovely "
    "beautiful wonderful fantastic incredible brilliant rubbish fun hard tough easy busy crazy insane stressful "
    "boring weird strange huge tiny messy slow loud quiet".split())
"""What "my X is Y" says of a passing state or an opinion, not a fact to keep (session 21): a value
opening with a verb's -ing ("getting a bit worn out", "still drying", "starting to pile up"), a degree
or a time ("still sore", "quite high", "pretty basic", "like my second family"), a pronoun or a
question word (a clause, not a value: "what went through it", "we split it into", "in there"), or a
word of weather, mood or praise alone or with its complement ("cold", "destroyed", "amazing",
"important to me", "full of inspiring quotes")."""
_NOT_ACQUIRED = re.compile(
    r"(?:from|at|back|out|in|into|to|up|off|on|over|through|when|while|during|about|yesterday|last|for|with|"
    r"around|since|there|here|home|away|down|rid|together|along|used to|lost|stuck|married|engaged|sick|ill|"
    r"hurt|injured|caught|paid|taken|given|stolen|beaten|bitten|broken|chosen|driven|eaten|forgotten|frozen|"
    r"hidden|shaken|spoken|thrown|woken|written|(?!(?:speed|breed|tweed|greed)\b)[a-z]{3,}ed)\b", re.IGNORECASE)
"""What follows "I got / bought…" when nothing was acquired (session 21): a particle or a place ("got
back from Europe", "got out of a yoga session", "the blouse I bought at Sephora", "which I purchased
last spring"), "got to" ("got to teach"), a passive ("got charged a fee", "got paged", "got
promoted"). "bought used" is how it was bought, and stays (:func:`_acquired`)."""
_BACK_FROM = re.compile(r"back from\s+(?:(?:a|an|the|my|our)\s+)?", re.IGNORECASE)
""""I got back from <somewhere>": where the speaker has been, a visit (session 21)."""
_RECEIVED = frozenset("email e-mail message text call letter notice reply response answer ticket fine fare fee "
                      "bill charge quote warning error notification alert reminder invoice rejection idea tip "
                      "feedback advice chance opportunity news impression feeling sense question".split())
"""What one "gets" that is no possession: a message, a penalty, an answer ("got an overdue notice",
"got a penalty fare", "got two quotes", "got some tips")."""


def _acquired(verb_and_value: str, raw: str) -> bool:
    """Whether "I <verb> <raw>" says something was acquired (:data:`_NOT_ACQUIRED`,
    :data:`_RECEIVED`) (session 21)."""
    value = raw.strip(" \"'`,:-")
    got = re.search(r"\bgot\s*$", verb_and_value, re.IGNORECASE) is not None
    if _NOT_ACQUIRED.match(value) is not None and (got or not value.lower().startswith("used")):
        return False
    if got:
        head = re.split(r"\s+(?:from|for|in|at|on|to|of|with|about|when|now)\b", value, maxsplit=1)[0].lower().split()
        if head and (head[-1] in _RECEIVED or head[-1].removesuffix("s") in _RECEIVED):
            return False
    return True


_REACTION = re.compile(
    r"(?:the\s+|your\s+|these\s+|those\s+|this\s+|that\s+)?(?:idea|ideas|thought|thoughts|concept|sound|look|way|"
    r"suggestion|suggestions|option|options|tip|tips|advice|recommendation|recommendations|list|plan|answer)\b|"
    r"(?:how|what|that|this|these|those|it|them|you|your|yours)\b|"
    r"the\s+(?:first|second|third|fourth|fifth|last|other|latter|former|revised|updated)\b", re.IGNORECASE)
"""What "I like / love …" says of what was just said or shown, a reaction and no preference of the
user's (session 21): "I like the idea of a walnut frame", "I like those tips", "I love how it's
organized", "I like the last option", "I love your turtles"."""
_CLAUSE_WORDS = frozenset("and or but which that who it when what you thought if while".split())


def _names_nothing(decision: str) -> bool:
    """Whether a decision names no thing it is about: a verb alone or with a pronoun ("Move it",
    "Take that", "Order it, done", "Send", "Vote"), the issue's "decisions as facts where they have
    a subject" (session 21)."""
    words = [w.lower() for w in re.findall(r"[A-Za-z0-9£$€%'’-]+", decision)]
    if not words or words[0] not in _STEP_VERBS:
        return False
    return all(w in STOPWORDS or w in ("done", "it's", "that's") for w in words[1:])


_SAYS_WHO = re.compile(r"^(?:i|we|he|she|they|let'?s)\b", re.IGNORECASE)
"""Who decides, opening a sentence: "We decided to…", "I'll take…", "They'll lend…", "Let's…"."""


def _read_from(decision: str, sentences: Sequence[str]) -> str:
    """The sentence of its turn a decision was read from: the one sharing most of its words."""
    own = set(_words(decision)) - STOPWORDS
    return max(sentences, key=lambda s: len(own.intersection(_words(s))), default="")


_PLANS = re.compile(r"^(?:let['’]?s|(?:i|we)(?:['’]ll|['’]d|\s+(?:will|would|could|should|can|might|may|need|want|"
                    r"think|suggest|propose|was\s+thinking|reckon)))\b", re.IGNORECASE)
"""A plan, a proposal or a wish, opening a sentence: "Let's go with…", "I'll take…", "We could…",
"I think we…"."""
_CONCLUDES = re.compile(r"^(?:(?:so|and|ok|okay|then|right|yes|yeah|fine|but)\b[,.:]?\s*)+(?:we|i)\b", re.IGNORECASE)
"""A decision just taken, said after a word that concludes a discussion: "Then we sign with…",
"OK, we remove the CAPTCHA…", "So we go to three drops a week"."""


_AN_OPTION = re.compile(r"^(?:go\s+(?:with|for)|opt\s+for|choose|sign\s+with|move\s+to|switch\s+to|stick\s+with|get)\b",
                        re.IGNORECASE)
"""A decision that is the choice of an option ("Go with the Prius", "Sign with Verbatim Partners",
"Get the Fujifilm"): a fact about its subject however it is said."""


_CLAUSE_BEFORE = re.compile(r"(?:[,;:]|\band|\bbut)\s*$", re.IGNORECASE)
"""The end of a clause before a decision read from a later one of its sentence."""


def _planned(decision: str, sentences: Sequence[str]) -> bool:
    """Whether the sentence a decision was read from plans it rather than states it, the
    issue's "decisions as facts where they have a subject" read as facts about someone or
    something (session 56): a proposal or a plan ("Let's…", "I'll…", "We could…", "I think we
    should…", :data:`_PLANS`) or a decision just concluded ("Then we…", :data:`_CONCLUDES`) unless
    it chooses an option (:data:`_AN_OPTION`: "I'll go with the Prius", "Then we sign with…"), or a
    question. Over every development set through heldout51 (the default way) the facts it takes
    out were right 8 times in 375; of the choices it keeps, 7 in 40; with a named thing's state
    ("Payments restart on 1 February"), another's ("They'll lend the Pawnee…") and what we or I
    have or did ("We've got £310 in the kit fund"), the decided facts of participants' turns that
    stay are right 52 times in 291. A decision read from a later clause of its sentence is judged
    by its own words (a preference after "Let's…, and"; the lead's merge)."""
    source = _read_from(decision, sentences).strip()
    if source.endswith("?"):
        return True
    at = source.lower().find(decision.rstrip(".").lower()[:24])
    if at > 0 and _CLAUSE_BEFORE.search(source[:at]):
        source = decision  # a later clause says for itself ("Let's go with three runs, and I prefer…")
    return not _AN_OPTION.match(decision) and bool(_CONCLUDES.match(source)
                                                   or _PLANS.match(_SUBJECT_LEAD.sub("", source)))


def _agreed_to(turn: int, turns: Sequence[tuple[str, str, list[str]]]) -> bool:
    """Whether the next turn is another person's agreement and nothing else ("Agreed.", "Sounds
    good.", "Let's do that."): the proposal it answers is the team's decision, which the issue
    asks for as a fact ("I'd propose RabbitMQ…" — "Agreed."), though its sentence plans it."""
    if turn + 1 >= len(turns) or turns[turn + 1][0] == turns[turn][0]:
        return False
    said = turns[turn + 1][2]
    return (bool(said) and all(is_courtesy(x) for x in said)
            and any(agrees(x) for x in said))


def _said_by_someone(decision: str, sentences: Sequence[str]) -> bool:
    """Whether the sentence of its turn a decision was read from (the one sharing most of its
    words) says who or what it is about before its verb, the issue's "decisions as facts where
    they have a subject" (session 52): a person ("We decided to use PostgreSQL…", "Let's go with
    Penpot", "They'll lend the Pawnee…") or a named thing with a verb of state (:data:`_STATE`:
    "Payments restart on 1 February"), after a lead word ("So, …"). A directive ("Switch to
    structlog", "Buy them now") or a choice said without a verb ("Chilli and dal this Sunday",
    "Guitar") is the decision alone, which the summary holds: over every development set (the default
    way) 89 of the 1,584 such facts were right (6 %). Not asked of a decision read from the
    assistant's turn, whose subject the user's request or uptake gives (session 19)."""
    said = _SUBJECT_LEAD.sub("", _read_from(decision, sentences).strip())
    return bool(_SAYS_WHO.match(said) or _STATE.match(said) or _STATE_IS.match(said))


def _passing(said: str, raw: str) -> bool:
    """Whether "my <said> is <raw>" is no fact (:data:`_PASSING_OPEN`, :data:`_PASSING_WORDS`): a
    passing state or an opinion, or a "said" running past a clause ("my day and was wondering…"),
    or one standing for another ("my current one is…") (session 21)."""
    words = said.lower().split()
    if words[-1] in ("one", "ones") or not _CLAUSE_WORDS.isdisjoint(words):
        return True
    value = raw.strip(" \"'`,:-")
    first = value.split(None, 1)[0].lower() if value else ""
    if (first.endswith(("ing", "in'", "in’")) and len(first) > 5 and first not in _THING_ING) or (
            _PASSING_OPEN.match(value) is not None):
        return True
    rest = value.lower().split()
    return bool(rest) and rest[0] in _PASSING_WORDS and (len(rest) == 1 or rest[1] in ("to", "of", "for", "with"))

# Session 14: facts a person would write about the state of things, read from one clause of a
# participant's statement (docs/summary-eval.md, "Session 14: facts"): the date of a named thing
# ("Mock exams start on the 8th": Mock exams, starts, "start on the 8th"), the speaker's own dated
# arrangement ("I've got rent going out on the 1st") and the speaker's count of something ("We run
# 14 delivery vans": user, vans, "14 delivery vans").
_AMOUNT = AMOUNT
"""A number said as a quantity or a day (:data:`memlane.index.clauses.AMOUNT`)."""
_CLAUSE = CLAUSE
"""Where a clause ends (:data:`memlane.index.clauses.CLAUSE`)."""
_NOT_STATED = re.compile(
    r"\b(?=[acefghilmnprstw])(?:i'll|we'll|i will|we will|let's|lets|can you|could you|can we|could we|please|shall|"
    r"should|i'd|we'd|would|could|maybe|might|if|whether|hope|hoping|need to|needs to|"
    r"going to|gonna|want to|wants to|wanna|how|what|why|when|who|where|which|think|thinking|guess|"
    r"feels?|seems?|sounds?|looks?|looking|planning|plan to|aiming|trying|hoping|excited|glad|surprised|"
    r"curious|certain|concerned|worried|willing|remember|wondering|mission|goal|talking)\b", re.IGNORECASE)
"""A plan, a request, a wish, a hedge, a feeling, an opinion or a question: no state of things.
(The look-ahead on the words' first letters, as :data:`_AMOUNT_WORD`'s, halves the time of a search:
session 56, spd56.)"""
_STATE_VERB = (r"(?:is|are|was|were|has|have|costs?|quoted|takes?|runs?(?: out)?|starts?|opens?|closes?|ends?|"
               r"lasts|meets?|holds?|sleeps?|covers?|allows?|includes?|earns?|pays?|charges?|weighs?|"
               r"renews?|expires?|raised|made|took|tops out|goes (?:up|down)|came in|comes in|got|gave|gives|dropped|rose|fell|went (?:up|down))")
# ("was", "were", "quoted": session 53; a past price or date keeps its verb as its predicate, not "amount"
# or "date", so it does not supersede what "is" says; "got", "gave", "dropped", "rose", "fell", "went up":
# session 54, "The appeal got £300", "The Lions gave us £300", "Bookings dropped to 31%")
_STATE = re.compile(r"^(?:the |our |my |your |his |her |their )?(?!(?:i|we|it|they|he|she|this|that|there|"
                    r"these|those|you|who|someone|everyone|nobody|everything|something|anyone|what|"
                    r"last|next|every|each)\b)"
                    r"([A-Za-z][\w&/.+'’-]*(?:\s+(?!(?:is|are|has|have|will|would|can|could|may|must|i|we|you|"
                    r"they|he|she|it|to|who|that|which|when|if)\b)[\w&/.+'’-]+){0,4}?)"
                    r"(\s+" + _STATE_VERB + r"\b)", re.IGNORECASE)
"""A named subject (up to five words, not a pronoun) and a verb of state: "The current contract runs"."""
_STATE_IS = re.compile(_STATE.pattern.replace("{0,4}?", "{0,1}?").replace(r"(\s+" + _STATE_VERB + r"\b)", r"(['’]s\b)"),
                       re.IGNORECASE)
"""The same with the verb contracted, after a subject of one or two words: "The boiler's"."""
_STATE_SAYS = re.compile(_STATE.pattern.replace(r"(\s+" + _STATE_VERB + r"\b)", r"(\s+(?:says|said)\b)"), re.IGNORECASE)
"""A named thing or person saying an amount or a date: "The lease says 14 days' notice", "The physio
said three weeks" (session 54); the fact's object is what is said."""


def _named_state(head: str) -> re.Match[str] | None:
    """A named thing and its verb of state opening ``head``, the words before a number: "The kit fund
    is", "The boiler's", "The lease says" (:meth:`OfflineIntelligence._states`)."""
    return _STATE.match(head) or _STATE_IS.match(head) or _STATE_SAYS.match(head)


_YOURS = re.compile(r"your\s", re.IGNORECASE)
"""The assistant's clause about the user's own thing: "Your policy covers bicycles up to £1,000",
"Your contract runs for 12 months" (session 54); the assistant's other clauses state no fact of
the user's."""
_FIRST_STATE = re.compile(r"^(i|we)(?:['’]m| am|['’]ve got| have got| have| earn| make| pay| spend| owe|"
                          r" weigh| work| run| do| use| go through|['’]re| are)\b", re.IGNORECASE)
"""The speaker's own state: "I've got", "We run"."""
_HELD_IN = re.compile(r"\s+(?:in|left|saved|sitting|from)\b", re.IGNORECASE)
"""After a bare number the speaker has or has got, where it is held: "We've got 1,150 in the kitty",
"we've got 340 saved" (session 56, fct56b); not what it counts ("We've got 14 vans")."""
_DATE_AFTER = re.compile(r"(?:st|nd|rd|th)\b(?!\s+(?!(?:of|at|in|on|and|or|to|for|from|until|till|so|but|when|"
                         r"this|next|is|was|the|a|an|with|by)\b)[a-z])|\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|"
                         r"oct|nov|dec)", re.IGNORECASE)
"""After a number, what makes it a day: "the 8th", "14 January"; not "the 6th race"."""
_DAY_BEFORE = re.compile(r"(?:\b(?:the|on|by|from|until|till|before|after|since|of)|[A-Z][a-z]+day|"
                         r"\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*)\s+$")
"""Before an ordinal, what makes it a day: "on the 8th", "Friday 12th"; not "ranked 3rd", "my 18th"."""
_DIGIT_WORDS = "|".join(NUMBER_WORDS.split("|")[:9])
"""one … nine: a tens word's second part ("forty-five")."""
_AMOUNT_WORD = re.compile(
    r"\b(?=[tfsenaTFSENA])(?<![\w'’-])(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ](?:" + _DIGIT_WORDS + r"))?|"
    r"(?:" + NUMBER_WORDS.removeprefix("one|") + r")(?:\s+(?:hundred|thousand))?|a (?:dozen|hundred|thousand))(?![\w'’-])",
    re.IGNORECASE)
"""A number said in words as a quantity ("eight club helmets", "forty-five minutes"); not "one"
("one of them", "the one we…") (session 54). (The look-ahead on the first letters takes a third or more off the time of
a search that finds nothing, as most do.)"""
_MONEY_AFTER = re.compile(r"\s*(?:k\b|m\b|bn\b|%|pounds?|euros?|dollars?|quid|kroner|grand)", re.IGNORECASE)
_NOT_COUNTED = frozenset("left more less each now only total ago later late early old higher lower cheaper "
                         "extra instead off apart over odd times".split())
"""Words after a number that count nothing ("13,000 left", "two days late")."""
_SUBJECT_LEAD = re.compile(r"^(?:(?:so|and|but|also|oh|ok|okay|well|plus|now|yes|yeah|no|then|actually|"
                           r"anyway|still|right|hm+|ah|heads up|good news|bad news|fyi|update)\b[,!.:]?\s*)+",
                           re.IGNORECASE)
_COUNTED = re.compile(r"\s*(?:(?:million|thousand|k|bn|billion)\b\s*)?([a-z]{3,}|[KMGT]B|km|kg|cm|mm|ml)\b(?:[\s-]+([a-z]{3,})\b)?")
"""What a number counts (:func:`_counted`): a word of three letters or more, or a unit of two ("16 GB",
"900km", "2ml": session 54)."""


_FRAGMENT_WORDS = 6
"""A clause opening with its number is a fact of the speaker's when it is this short: "Twelve mowers
entered so far", "About 40 square metres" (session 55, :meth:`OfflineIntelligence._states`)."""
_FRAGMENT_VERB = re.compile(r"\b(?:is|are|was|were|will|would|can)\b|n['’]t\b|['’]s\b", re.IGNORECASE)
"""In such a clause, a sum or a judgement, no count ("Five new at £800 is £4,000", "Six weeks is fine",
"Four people doesn't pay the teacher")."""
_THERE = re.compile(r"there(?:['’]s| is| are| was| were)\s+", re.IGNORECASE)
"""Before such a clause's number, what leaves it a fragment: "There are 14 commits on the branch"."""
_IT_AGED = re.compile(r"^(?:it|this)(?:['’]s| is| was)(?=\s)", re.IGNORECASE)
"""Before a number and its "years old", the thing said before (session 57, fct57): "it's 19 years
old", "It's only 2 years old"; not "that's", which sums ("that's ten years in the shed")."""
_YEARS_OLD = re.compile(r"\s+(?:years?|months?|weeks?)\s+old\b", re.IGNORECASE)
"""After such a number, what makes it an age: "14 months old"."""
_FRAGMENT_CHOICE = re.compile(r"\b(?:or|then|yes|yeah|ok|okay|sure|fine|not|no)\b", re.IGNORECASE)
"""In its sentence, a choice, a yes or a no ("Two weekends, yes", "£99 then", "Eight pizzas, not
twenty"): what is agreed or weighed, not a state of things."""


def _fragment(clause: str, head: str, said: str) -> str | None:
    """The fragment ``clause`` is when it opens with its number (``head``: the words before it, at
    most two of :data:`_IS_AMOUNT`, after "there are" if it says so) and is short, no sum, no
    judgement and no choice (``said``: its whole sentence); None when it is not one (session 55)."""
    there = _THERE.match(head)
    start = there.end() if there is not None else 0
    if _IS_AMOUNT.fullmatch(head[start:]) is None:
        return None
    frag = clause[start:]
    if (len(frag.split()) > _FRAGMENT_WORDS or _FRAGMENT_VERB.search(frag) is not None
            or _FRAGMENT_CHOICE.search(said) is not None
            or "so " + clause.lower() in said.lower()):  # a sum: "Four courts, so £480"
        return None
    return frag


_PASTED = 600
"""A message longer than this is a pasted text (an article, a prompt, a report: its amounts are not
the speaker's state of things), for a named thing's amount (session 21); the labelled sets' own
turns are all shorter than 300 characters."""
_DAY_NAMED = re.compile(r"\b(?:(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)days?|January|February|March|April|May|June|"
                        r"July|August|September|October|November|December|tomorrow|tonight)\b")
"""A day said by its name (session 21: a named thing's day without a number, :meth:`_named_day`)."""
_DAY_WORDS = ("day", "uary", "March", "April", "May", "June", "July", "August", "ber", "tomorrow", "tonight")
"""A piece of text every :data:`_DAY_NAMED` match holds, one for each of its alternatives ("ber"
for September to December): a sentence holding none is not searched with it."""
_DEICTIC = frozenset(("today", "tomorrow", "tonight", "yesterday", "current month", "this month", "this week",
                      "next week", "date", "day", "current date", "people"))
"""Subjects that name no thing ("today is Wednesday", "the current month is March")."""
_INSTRUCTION = frozenset("describe assume write imagine list explain give make create suppose consider let "
                         "calculate compute find show tell use pretend".split())
"""A clause opening an instruction ("Assume the down payment is 50%"): no state of things."""
_IS_AMOUNT = re.compile(r"\s*(?:(?:about|around|roughly|nearly|almost|only|just|now|at|up|down|over|under|"
                        r"more like|like|still|already)\s+){0,2}", re.IGNORECASE)
"""Between "'s" and a number, what keeps it an "is" ("The boiler's about 17 years old"), not a
possessive ("Yesterday's outage lasted 47 minutes") (session 21)."""


def _dated_state(state: re.Match[str], clause: str) -> tuple[str, str, str]:
    """Subject, object and predicate of a thing's state said with a date or day ("The
    launch starts on 3 May": ``launch``, "starts on 3 May", ``starts``; "The party's on
    Friday": ``date``, "is on Friday"); ``state`` is ``_STATE`` or ``_STATE_IS`` matched at
    the clause's head."""
    subject, obj = state.group(1), clause[state.start(2):].lstrip()
    verb = state.group(2).strip().lower()
    if verb in ("'s", "’s"):
        verb, obj = "is", "is " + obj[2:].lstrip()
    head_verb, _, rest = verb.partition(" ")
    if not head_verb.endswith(("s", "ed")) and head_verb not in ("took", "made", "came", "were", "got", "gave",
                                                                 "rose", "fell", "went"):
        head_verb += "es" if head_verb.endswith(("sh", "ch", "x")) else "s"  # "start" -> "starts"
    pred = "date" if verb in ("is", "are", "has", "have") else f"{head_verb} {rest}".strip()
    return subject, obj, pred


def _counted(after: str) -> str:
    """The noun a number counts, after at most one modifier: "14 delivery vans" -> vans, "19
    artists signed up" -> artists, "312 open tickets" -> tickets; "" when no word follows."""
    m = _COUNTED.match(after)
    if m is None:
        return ""
    first, second = m.group(1).lower(), (m.group(2) or "").lower()
    if (first.endswith("s") or not second or second in STOPWORDS
            or second.endswith(("ed", "ing", "ly"))):
        return first
    return second


def _counts(after: str) -> str:
    """What a number counts, as a fact can name it (:func:`_counted`); "" when nothing follows or
    the word names nothing counted (a stopword, "left", "more", "each": :data:`_NOT_COUNTED`)."""
    pred = _counted(after)
    return "" if pred in STOPWORDS or pred in _NOT_COUNTED else pred


_ABBREV = re.compile(r"(?:\b(?:e\.g|i\.e|etc|vs|approx|incl|esp|cf|ca|fig|pp|vol|co|inc|ltd|corp|bros|dept|jr|sr|[a-z])|\.\.)$",
                     re.IGNORECASE)
"""What a stop ends that is no sentence's end before a small letter: an abbreviation ("e.g. the
blue one", "approx. ten", "Acme Tea Co. to check…"), a single letter ("a. m.", "U.S. and"),
an ellipsis ("any objections? ... no?")."""


def _ends_low(text: str, pos: int, start: int) -> bool:
    """Whether the stop at ``start`` ends the sentence opened at ``pos`` though a small letter
    follows ("…this weekend. not sure yet whether…", "quartz it is. flooring though, …?"): in
    chat a sentence often opens in lower case (session 19). Not after fewer than four words
    ("ok. me: I'm on…", "but fine. i'll…" run on) or an abbreviation (:data:`_ABBREV`)."""
    # (the abbreviation is looked for in the last eight characters only: the longest is seven)
    return text.count(" ", pos, start) >= 3 and _ABBREV.search(text, max(pos, start - 8), start) is None


def _sentences(text: str) -> list[str]:
    pieces, pos = [], 0
    for m in _SENT.finditer(text):
        start, end = m.span()
        mark = text[start]
        if mark == ".":
            if text[start - 1: start] in "rstfv" and _TITLE.search(text, max(0, start - 5), start + 1):
                continue  # "Dr. Okafor": a title's stop ends no sentence
            if text[end: end + 1].islower() and not _ends_low(text, pos, start):
                continue  # "e.g. the blue one", "ok. me: …": no sentence's end (session 19)
        elif mark == "?" and text[end: end + 1].islower() and text.count(" ", pos, start) < 4:
            continue  # "The menu? we said…": a short question before a small letter runs on
        pieces.append(text[pos:start] if mark == "\n" else text[pos : start + 1])
        pos = end
    pieces.append(text[pos:])
    return [kept for s in pieces if s and len(kept := s.strip()) > 2]


_MODEL_PLURAL = re.compile(r"(?:^|\s)[A-Z][A-Za-z-]*\d+s$")
"""A name's last word a model with its number and a plural "s" ("Zyxel VMG3625s", "Samsung A14s", "64
H100s"): several of the model, which is named in the singular (session 39)."""
_COUNTED_BEFORE = re.compile(r"(?:(?<![\d:.,£$€])\b[1-9]\d{0,2}|\b(?:[Tt]wo|[Tt]hree|[Ff]our|[Ff]ive|[Ss]ix|[Ss]even|"
                             r"[Ee]ight|[Nn]ine|[Tt]en|[Tt]welve|[Ss]everal))\s+$")
"""A count right before a name ("30 Chromebooks", "the two Vajdas"; not a time's or an amount's
digits, "11:30 Lismore Stores", "£50 Waterstones"): the name that follows is a plural (session 39)."""
_COUNT_OPENERS = frozenset("two three four five six seven eight nine ten eleven twelve".split())
"""Counts that open a sentence before a name ("Two Bicycle decks", "Two Cornilleaus"): no part of the
name, the capital only the sentence's; :data:`_COUNTED_BEFORE`'s words, capitalised ("one" left:
"One Direction", "One Medical" are names) (session 46)."""
_NO_PLURAL = ("ss", "us", "is", "'s", "’s", "ys", "os")
"""Endings of a name's last word whose "s" is no plural ("Jonas", "Fergus", "Paris", "Hollis")."""


_PLACE_NOUN_AFTER = re.compile(
    r" ((?:village |community |retail |car )?(?:lab|club|centre|center|hall|school|field|railway|racecourse"
    r"|crematorium|park))\b(?!['’-])")
"""After a name, the kind of place it names, written small ("the Hartmann lab", "Riverside community
centre", "Cefn field"): part of the place's name (session 39); not "group", which the labels
split on ("the Facebook group", "the Friends group"), nor "library", a program's as often as a
building's ("the JavaScript library", "the Crossword Compiler library")."""


_VERSIONED = re.compile(r"(.+) (\d{1,3})")
_NAMED_TYPES = ("name", "place", "organization")


def _versions_compared(kept: list[Entity]) -> list[Entity]:
    """A product said with two or more numbers ("NumPy 1" and "NumPy 2", "StoreKit 1" and
    "StoreKit 2") is the product whose versions are compared: one entity, its name alone, where its
    first numbered one stood (session 39). Not letters and a number ("ADM 188", "ADM 196": a
    series' pieces), nor an English word and its numbers ("Ward 7" and "Ward 12", "Terminal 2" and
    "Terminal 5": two places; "Windows 10" and "Windows 11")."""
    bases: dict[str, set[str]] = {}
    for e in kept:
        if (e.type in _NAMED_TYPES and (m := _VERSIONED.fullmatch(e.name)) is not None and not m.group(1).isupper()
                and (" " in m.group(1) or not is_english_word(m.group(1)))):
            bases.setdefault(m.group(1), set()).add(m.group(2))
    several = {b for b, numbers in bases.items() if len(numbers) > 1}
    if not several:
        return kept
    out: list[Entity] = []
    done: set[str] = {e.name for e in kept if e.name in several}
    for e in kept:
        m = _VERSIONED.fullmatch(e.name) if e.type in _NAMED_TYPES else None
        if m is None or m.group(1) not in several:
            out.append(e)
        elif m.group(1) not in done:
            done.add(m.group(1))
            out.append(replace(e, name=m.group(1)))
    return out


def _possessed(phrase: str) -> tuple[str, str] | None:
    """A capitalised phrase ``X's Y`` that is two names, not one, as ``(owner, owned)``: the owned
    thing one word that no English word spells, a name of its own ("Isla's Dexcom", "Bitwarden's
    Linux", "Imran's Sharan"; not "Marshall's Garage", "Runner's World", "Carer's Allowance",
    a firm or a work named by the possessive), or anything a relative owns ("Dad's Jersey", the
    relative no name: owner ""); a name and a number after its "'s" ("Freya's 12", "Finn's 9")
    is the name, the "'s" an "is" or a count, no version (owned ""). None for any other phrase
    (session 39)."""
    owner, _, owned = phrase.partition("'s ")
    owned = owned.strip(" .'-")
    if not owner or "'s " in owned or owner.startswith(("St ", "St. ")):
        return None  # "St Mary's Cheadle": a church or a school by its saint, one name
    if owned.isdigit():
        return owner, ""
    if owner in _KIN_NAMES:
        return "", owned
    if " " in owned or not owned[:1].isupper() or is_english_word(owned) or owned.isupper():
        return None
    return owner, owned


def _adverb(low: str) -> bool:
    """Whether ``low``, a lower-case word in -ly, is an adverb made of an English word: "mainly"
    ("main"), "apparently", "happily" ("happy"), "probably" (session 40); not "butterfly"."""
    return is_english_word(low) and (is_english_word(low[:-2]) or low.endswith("bly")
                                     or (low.endswith("ily") and is_english_word(low[:-3] + "y")))


def _opens(sentence: str, at: int) -> bool:
    """Whether position ``at`` opens ``sentence`` (after quotes, brackets, list marks)."""
    return at == 0 or sentence[:at].strip(" *_>-") in ("", '"', "'", "(")


def _opens_quote(sentence: str, at: int) -> bool:
    """Whether position ``at`` opens a quotation inside ``sentence`` ("rewrite it to 'Used to show
    nearby points'", "and 'Built campaign attribution'"): a sentence of its own, whose first word
    is capitalised as any sentence's is (session 22)."""
    return at > 1 and sentence[at - 1] in "'\"‘“" and sentence[at - 2] in " (["


def _words(text: str) -> list[str]:
    if text.isascii():  # lower-casing first finds the same words (not so for "İ", "K")
        return _WORD_LOW.findall(text.lower())
    return [w.lower() for w in _WORD.findall(text)]


_STEP_REMARK = re.compile(r";\s+(?:maybe\s+|probably\s+)?(?:it|it's|they|they'll|they're|they'd|he|he's|she|she's|the|"
                          r"there|there's|that|that's|this|i've|i'd|i'm)\b(?![^;]*(?:\?|\b(?:i|we)'?ll\b|\blet'?s\b))"
                          r"[^;]*$", re.IGNORECASE)
"""A step's remark after a semicolon ("Look at the rota; maybe the education team can learn it.",
"Let's ask the twins; they'll have opinions."): what the speaker adds about it, no step of its own
(no "I'll / we'll / let's", no question) (rn49)."""


def _step_alone(item: str) -> str:
    """A step without the remark after its semicolon (:data:`_STEP_REMARK`); the step as it is when
    none follows."""
    found = _STEP_REMARK.search(item) if ";" in item else None
    if found is None:
        return item
    head = item[: found.start()].rstrip(" ,")
    return head if head[-1:] in ".!" else head + "."


def _said(items: Iterable[str], *, owned: bool = False) -> tuple[str, ...]:
    """The items, each once, without those that say nothing. The cues sweep the sentences
    they place, but a clause split off one afterwards can be empty talk of its own ("I'm
    stretched as it is." leaves "It is." as a reason). ``owned``: ``Owner: text`` items."""
    return tuple(dict.fromkeys(
        x for x in items if not says_nothing(x.partition(": ")[2] or x if owned else x)))


def _steps_once(steps: Sequence[str], items: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The next steps and the action items (``Owner: text``) without a step that says again what
    one read before it said: content words (:func:`_content`) in Dice overlap of 0.6 or more
    (``_said_again``). Read first the action items that are their speaker's own "I'll …", then the
    other action items (both name who acts), then the next steps, and last, of these, whichever asks
    (``_ASKS``, ``_CAN_YOU``, a question: "Can someone collect the prizes …" beside "Collect the prizes
    … on Friday."); each list keeps its order. Two
    readers write the same act from two sentences ("Can you remind me on Friday …" and the answer
    "I'll remind you on Friday …"; the assistant's "Please upload a photo …" and the user's "I'll
    upload the photo tonight"), or one sentence twice in two spans ("… while you're here now" and
    "… while you're here."): the labels hold it once. Over every development set through heldout52,
    by default, next steps right −1, wrong −15 (−13 patterns alone), owner accuracy up (issue #17,
    ns57). Read after the sentence model, on what the cues wrote, so its training rows do not move."""
    def first(step: tuple[str, str, bool]) -> int:
        _, text, owned = step
        if owned and _I_WILL.search(text):
            return 0
        return 3 if _ASKS.match(text) or _CAN_YOU.match(text) or text.endswith("?") else 1 if owned else 2

    said: list[tuple[set[str], set[str]]] = []  # each step's words, and its owner's
    kept: set[str] = set()
    read = [(x, x.partition(": ")[2] or x, True) for x in items] + [(x, x, False) for x in steps]
    for item, text, owned in sorted(read, key=first):
        words = _content(text)
        # an unowned step done for an owner it names is the others' act ("Send Ana your passport
        # numbers" beside "Ana: I'll buy them tonight and you all send me your passport numbers")
        if not _said_again(words, [w for w, owner in said if owned or not owner or not owner <= words],
                           least=0.6):
            said.append((words, _content(item.partition(": ")[0]) if owned else set()))
            kept.add(item)
    return tuple(x for x in steps if x in kept), tuple(x for x in items if x in kept)


def _trim(text: str, limit: int = 220) -> str:
    return clip(" ".join(text.split()), limit, words=True)


def _clean_value(value: str) -> str:
    value = value.strip(" \"'`,:-")
    value = re.sub(r"^(?:the|a|an|my|our)\s+", "", value, flags=re.IGNORECASE) if len(value.split()) > 1 else value
    return value


def keyphrases(texts: Sequence[str], limit: int = 8) -> list[str]:
    """Content-word phrases ranked by frequency × length (RAKE-like)."""
    return _keyphrases([_words(s) for t in texts for s in _sentences(t)], limit)


_VERBISH = frozenset(
    "must should shall can cannot will would could might may need needs needed want wants wanted "
    "take takes took make makes made use uses used run runs ran get gets got say says said think "
    "thinks thought try tries tried keep keeps kept give gives gave ask asks asked tell tells told "
    "work works worked look looks looked find finds found start starts started add adds added set "
    "sets put puts come comes came seem seems seemed feel feels felt leave leaves left call calls "
    "called show shows showed shown mean means meant become becomes became believe consider "
    "depends depend happen happens happened stay stays stayed turn turns turned include includes "
    "included decide decided agreed agree pick picked choose chose chosen wait waits waiting "
    "does doing done has having had is are was were been being am let lets sure already ever "
    "never always often usually though anyway instead rather pretty quite sounds since because "
    "about yet knows know whether".split()
)
"""Verbs and adverbs that end a topic phrase: topics are noun phrases ("release freeze"),
not word pairs across a verb ("rows must")."""


_NOT_TOPIC = _FILLER | _VERBISH
_TOPICAL: dict[str, bool] = {}
"""word -> whether it can be part of a topic phrase, learnt as words are seen (cleared past
65,536 words): one look-up instead of four tests per word."""


def _ranked_phrases(sentence_words: Sequence[list[str]], limit: int) -> list[str]:
    """Content words and adjacent pairs of them ranked by frequency (pairs count double),
    runs cut at stopwords, verbs and adverbs, so that a pair is a noun phrase ("release
    freeze"), not a pair across a verb ("rows must")."""
    seq: list[str] = []  # each word once and each pair twice, counted in one pass at the end
    topical = _TOPICAL
    if len(topical) > 65536:
        topical.clear()
    for words in sentence_words:
        phrase: list[str] = []
        for w in [*words, ""]:
            is_topic = topical.get(w)
            if is_topic is None:
                is_topic = topical[w] = bool(w and w not in _NOT_TOPIC and len(w) > 2
                                             and not w.isdigit() and not w.endswith("ly"))
            if is_topic:
                phrase.append(w)
                continue
            if phrase:
                seq.extend(phrase)
                for i in range(len(phrase) - 1):
                    pair = f"{phrase[i]} {phrase[i + 1]}"
                    seq.extend((pair, pair))
            phrase = []
    counts = Counter(seq)
    return [p for p, c in counts.most_common(limit * 3) if c > 1 or len(counts) < limit * 2]


def _keyphrases(sentence_words: Sequence[list[str]], limit: int) -> list[str]:
    """The first ``limit`` of :func:`_ranked_phrases`, none inside another."""
    return _distinct(_ranked_phrases(sentence_words, limit), limit)


def _distinct(ranked: Sequence[str], limit: int) -> list[str]:
    """Ranked phrases without those inside a phrase ranked before them (or holding one)."""
    out: list[str] = []
    for p in ranked:
        if not any(p in q or q in p for q in out):
            out.append(p)
        if len(out) == limit:
            break
    return out


_HOW_MANY_OR_WHEN = frozenset(
    "two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty "
    "fifty sixty hundred thousand half minutes hours days weekend monday tuesday wednesday "
    "thursday friday saturday sunday".split()
)
"""Words of a count or a day ("forty minutes", "six patients", "thursday"): when or how
much, not what a conversation is about (session 13)."""
_MEASURES = frozenset("second seconds minute hour metres meters miles mile kilometres pounds euros dollars quid pence "
                       "grams kilos litres night nights times percent".split())
"""Units of length, time, money and weight, and "night" ("metres", "pounds", "nights"): alone, a
measure of something the topic would name, no topic of one word; in a pair they stay ("night
shift", "run times") (session 54)."""
_PARTS = frozenset("side sides bottom front top back end middle edge corner".split())
"""Words for a part or a side of something ("side", "bottom", "front", "corner"): alone, where on
a thing the topic would name, no topic of one word; in a pair they stay ("front door", "back
garden") (session 58)."""
_NAMES_NOTHING = frozenset("anyone everyone someone nobody nothing everything people per first".split())
"""Words that name no one and nothing in particular ("anyone else", "people away", "per"):
no topic (session 13)."""
_PLACE_OR_MANNER = frozenset(
    "along behind without around across inside outside towards toward ahead else wise lots "
    "isnt dont cant wont didnt doesnt wasnt arent im ive youre thats theres whats".split()
)
"""Words of where or how, and contractions written without their apostrophe ("leylandii
along", "straight behind", "cost wise", "january isnt"): no part of a noun phrase, so no
topic holds one (session 22)."""
_BARE_MODIFIERS = frozenset(
    "old new big small large little long short high low whole full empty free fine open closed "
    "late early good bad great best better worse main extra second next last same other real "
    "ready dead green red blue brown black white ones".split()
)
"""Words that say which or what kind, never what ("old", "open", "second", "green"): alone, a
modifier without its noun, so no topic of one word (session 53)."""
_NO_NOUN_AFTER = (_BARE_MODIFIERS - frozenset("green red blue brown black white".split())) | frozenset(
    "twice once enough alone away till again ago still already instead together anyway later soon".split())
"""Words a noun phrase does not end on: the modifiers but the colours, which are nouns after a
modifier ("flat white", "dark green"), and adverbs of time, count and place ("twice", "till",
"away"): a pair ending on one ("charged twice", "door open") is a clause's end, no topic, and an
adverb alone is none either (session 54)."""
_EPITHETS = _BARE_MODIFIERS - frozenset(
    "green red blue brown black white open closed free low long short real empty high".split())
"""The modifiers that say how big, how old, how good or which of several ("old mill", "whole team",
"bad news", "second batch"), not what kind: a pair opening on one is a thing described, no topic
(session 58). The colours and the words of state or degree that make a kind of their own ("black
mould", "open night", "free plan", "low light") are left out."""
_WORDS_PER_TOPIC = 35
"""A topic for every 35 words said, two at least and eight at most: a person lists two or
three for a short exchange (session 13)."""


_OPENING_LIFT = 2.5
"""How far a phrase of the conversation's first message moves up the ranking: past the two
phrases ranked just above it (the opening says what a conversation is about; session 13)."""
_MOST_TOPICS = 4
"""At most four topics for a conversation as short as the labelled ones: the labelling guide's
"two to four noun phrases" (session 22; session 13's length cap, one for every 35 words, still
gives a short exchange two or three)."""
_LABELLED_WORDS = 350
"""About the longest labelled conversation, in words: past it one more topic for every 35 words,
up to session 13's eight (a long session's topics are also its keys for search; nothing labelled
says how many a person lists for it; session 22)."""
_SETTLED_LIFT = 4.0
"""How far a phrase whose words are all in a decision moves up the ranking: past the four
phrases ranked just above it (what was settled is what the conversation was about; session 22)."""


def _said_in_lower_case(word: str, text: str) -> bool:
    """Whether ``word`` (lower case) is said in ``text`` in lower case, as a whole word."""
    at = text.find(word)
    end = len(word)
    while at >= 0:
        before = text[at - 1] if at else " "
        after = text[at + end] if at + end < len(text) else " "
        if not (before.isalnum() or before == "'") and not after.isalnum():
            return True
        at = text.find(word, at + 1)
    return False


def _topic_order(ranked: Sequence[str], messages: Sequence[Message],
                 settled: Sequence[str] = ()) -> list[str]:
    """The ranked phrases reordered for topics (session 22): a phrase whose words are all in
    a decision (``settled``) moves up past the four ranked above it, and a phrase all of
    whose words are said only with a capital ("lydgate park", "northwind", "mireille costa":
    a name, which the labels list as an entity and rarely as a topic) goes to the end."""
    if not ranked:
        return []
    text = "\n".join(m.text for m in messages)
    lower: dict[str, bool] = {}
    decided = {w for d in settled for w in _words(d)}

    def named(phrase: str) -> bool:
        for w in phrase.split():
            if w not in lower:
                lower[w] = _said_in_lower_case(w, text)
            if lower[w]:
                return False
        return True

    keys = []
    for k, p in enumerate(ranked):
        words = p.split()
        key = k - (_SETTLED_LIFT if decided and decided.issuperset(words) else 0.0)
        keys.append((named(p), key, k))
    return [ranked[k] for _, _, k in sorted(keys)]


def _not_a_noun_phrase(words: Sequence[str], text: str) -> bool:
    """Whether a candidate phrase is a modifier or a verb alone ("old", "open", "send", "book")
    or a verb and its object ("sell cheese", "bring wine"); a pair whose first word ``text``
    also says as a noun ("the book club", "a test suite") is one: what a person lists as a topic
    is a noun phrase (issue #17; session 53). Nor is a pair ending on a modifier or an adverb
    ("charged twice", "door open"), an adverb alone, or a unit alone ("metres") (session 54). Nor is
    a phrase opening on a word for a person ("mum", "partner jonas", "kids loved": who, not what),
    a pair opening on a modifier of size, age, worth or order (:data:`_EPITHETS`: "old mill",
    "bad news"), or a part or a side alone (:data:`_PARTS`: "bottom", "front") (session 58)."""
    if words[0] in PEOPLE_WORDS:
        return True
    if len(words) == 1:
        return (words[0] in _STEP_VERBS or words[0] in _BARE_MODIFIERS or words[0] in _NO_NOUN_AFTER
                or words[0] in _MEASURES or words[0] in _PARTS)
    if words[-1] in _NO_NOUN_AFTER or (len(words) == 2 and words[0] in _EPITHETS):
        return True
    return words[0] in _STEP_VERBS and not re.search(
        r"\b(?:the|a|an|my|your|our|this|that|their|his|her)\s+" + words[0] + r"\b", text, re.IGNORECASE)


def _topics(ranked: Sequence[str], messages: Sequence[Message],
            opening: Sequence[list[str]] = (), settled: Sequence[str] = (),
            counted: Sequence[list[str]] = ()) -> tuple[str, ...]:
    """The topics a person would list, from the ranked phrases: a phrase of the opening
    (``opening``: the words of its sentences) moved up, none naming a speaker, a count, a
    day or no one in particular, none sharing a word with a topic ranked before it ("key
    visuals" after "spring campaign" is kept, "three key" and "campaign" are not), and only
    as many as the conversation's length supports. ``counted``: the words of the sentences the
    ranking counted; a pair said once among them, not in the opening, is dropped
    (:func:`_said_once_later`)."""
    said_first: set[str] = set()
    if opening:
        said_first = {w for words in opening for w in words}
        said_first.update(f"{a} {b}" for words in opening for a, b in zip(words, words[1:]))
        lifted = sorted(range(len(ranked)), key=lambda k: k - _OPENING_LIFT * (ranked[k] in said_first))
        ranked = [ranked[k] for k in lifted]
    ranked = _topic_order(ranked, messages, settled)
    said = sum(m.text.count(" ") + 1 for m in messages)
    cap = max(2, min(8, round(said / _WORDS_PER_TOPIC),
                     _MOST_TOPICS + max(0, round((said - _LABELLED_WORDS) / _WORDS_PER_TOPIC))))
    names = {w for m in messages if m.speaker for w in m.speaker.lower().split()}
    text = "\n".join(m.text for m in messages)
    out: list[str] = []
    used: set[str] = set()
    for p in ranked:
        words = p.split()
        if (used.intersection(words) or names.intersection(words) or _HOW_MANY_OR_WHEN.intersection(words)
                or _NAMES_NOTHING.intersection(words) or _PLACE_OR_MANNER.intersection(words)
                or _not_a_noun_phrase(words, text)):
            continue
        out.append(p)
        used.update(words)
        if len(out) == cap:
            break
    return _said_once_later(out, counted, said_first)


def _said_once_later(topics: list[str], counted: Sequence[list[str]], said_first: set[str]) -> tuple[str, ...]:
    """``topics`` without the pairs said once in ``counted`` (the sentences the ranking counted)
    and not in the opening (``said_first``), unless fewer than two topics would be left: a pair
    counts double in the ranking, so one said once ties a word said twice and takes a slot
    ("overflowed onto"), but a pair said once after the opening is a
    label about one time in seven, under half as often as the topics written beside it (issue
    #17; session 56). The first of them are kept, in their place, to make two."""
    pairs = {p for p in topics if " " in p and p not in said_first}
    if not pairs or not counted:
        return tuple(topics)
    firsts = {p.partition(" ")[0] for p in pairs}
    # (a sentence holding no pair's first word is passed over whole: most are; session 57, spd57)
    times = Counter(pair for words in counted if not firsts.isdisjoint(words) for a, b in zip(words, words[1:])
                    if a in firsts and (pair := f"{a} {b}") in pairs)
    once = [p for p in topics if p in pairs and times[p] < 2]
    keep = set(once[:max(0, 2 - (len(topics) - len(once)))])
    return tuple(p for p in topics if p not in once or p in keep)


_ACTED_ON = re.compile(r"^(?!(?:go|stick|pick|choose|settle|opt)\b)[A-Za-z]+\s+(?:(?:the|an?)\s+[a-z]|"
                       r"(?:near|in|at|on|by)\s+[A-Z])", re.IGNORECASE)
"""A verb and its object or place ("Take the train", "Stay near Chania"); not a choice
among options ("Go with the Prius"), which needs what was being chosen."""


_SHOP_BEFORE = r"(?:\b(?:[Aa]t|[Tt]o|[Ff]rom|[Ww]ith|[Uu]sing|[Rr]ing|[Rr]ang|[Cc]all|[Cc]alled|[Pp]hone|[Tt]ry|[Vv]ia|[Bb]y) )"
_SHOP_AFTER = (r"['’]s(?=[ \t]*(?:[.,;:!?)\n]|$|(?:on|in|at|from|for|this|next|last|today|tomorrow|instead|again|and|or|"
               r"but|so|then|too|yesterday|tonight|earlier|later|before|after|was|were|is|are|have|had|will|would|said|"
               r"quoted|sold|want|wanted)\b))")
_SHOP_OPENS = r"(?:^|\n|[.!?] )"
_SHOP_THEY = r"['’]s (?=(?:want|are|were|have|say|reckon|quote|charge|do|don't|can't|won't)\b)"
"""What a shop or a firm named by its owner's possessive has around it ("at Sainsbury's,", "ring
Pryce's?", "with Hendry's this afternoon"): a verb or a preposition
of going, buying or calling before it, and no noun the possessive owns after it (session 23); or
"by" before it ("quoted by Riley's"), a line's end or a verb after it ("from Hayward's was £780")
(session 40). ``_SHOP_OPENS`` + name + ``_SHOP_THEY``: the firm opening a sentence with a verb
said of a plural, "Harvey's want £1,295", which no person's possessive is followed by (session 40)."""


def _said_owned(name: str, text: str) -> tuple[int, int]:
    """How often ``name`` (letters only) stands alone in ``text`` and how often with its "'s":
    the counts of ``(?<![\\w'’])name(?![\\w-])`` and ``(?<![\\w'’])name['’]s\\b``, found with
    ``str.find`` (the patterns open with a look-behind, which leaves ``re`` no first character
    to skip to: it tried them at every character of the conversation; session 24, the cost).
    A word character is what ``\\w`` takes: ``isalnum()`` or "_"."""
    said = owned = 0
    end = len(name)
    i = text.find(name)
    while i >= 0:
        before = text[i - 1] if i else ""
        if not before or not (before.isalnum() or before in "_'’"):
            after = text[i + end: i + end + 1]
            if not after or not (after.isalnum() or after in "_-"):
                said += 1
                if after and after in "'’" and text[i + end + 1: i + end + 2] == "s":
                    nxt = text[i + end + 2: i + end + 3]
                    owned += not nxt or not (nxt.isalnum() or nxt == "_")
        i = text.find(name, i + 1)
    return said, owned


_SHOP_BEFORE_ENDS = re.compile(_SHOP_BEFORE + r"\Z")
_SHOP_AFTER_AT = re.compile(_SHOP_AFTER)
_SHOP_OPENS_ENDS = re.compile(_SHOP_OPENS + r"\Z")
_SHOP_THEY_AT = re.compile(_SHOP_THEY)


def _shop_said(name: str, text: str) -> bool:
    """Whether ``re.search(_SHOP_BEFORE + re.escape(name) + _SHOP_AFTER, text)`` or the same of
    :data:`_SHOP_OPENS` and :data:`_SHOP_THEY` finds the name: each place ``name`` is said, what
    follows read there and what comes before read up to there (seven characters at most), with
    patterns compiled once. The searches they replace compiled a pattern for every name and tried
    it at every character of the conversation, about 5 ms a name (session 45, perf45)."""
    i = text.find(name)
    while i >= 0:
        end = i + len(name)
        if ((_SHOP_AFTER_AT.match(text, end) and _SHOP_BEFORE_ENDS.search(text, max(0, i - 8), i))
                or (_SHOP_THEY_AT.match(text, end) and _SHOP_OPENS_ENDS.search(text, max(0, i - 2), i))):
            return True
        i = text.find(name, i + 1)
    return False


def _shops(kept: list[Entity], split: Sequence[tuple[Message, str]]) -> list[Entity]:
    """A one-word name said only with its possessive "'s", once after :data:`_SHOP_BEFORE` and
    before what :data:`_SHOP_AFTER` allows, is a shop's or a firm's name with its "'s"
    ("Sainsbury's", "Kittow's", "Graham's" of the port lodge); not a person of the conversation
    (a speaker, "at Tom's" beside "Tom said"), a relative ("at Grandma's") or a day ("at
    Thursday's meeting") (session 23)."""
    names = [e for e in kept if e.type in ("name", "organization", "place") and e.name.isalpha()
             and e.name[:1].isupper() and e.name not in _WEEKDAYS and e.name.lower() not in KIN_WORDS
             and e.name not in _GREETINGS]
    if not names:
        return kept
    text = "\n".join(s for _, s in split)
    if "'s" not in text and "’s" not in text:
        return kept
    speakers = {(m.speaker or "").lower() for m, _ in split}
    renamed: dict[str, str] = {}
    for e in names:
        if e.name.lower() in speakers or (e.name + "'s" not in text and e.name + "’s" not in text):
            continue
        said, owned = _said_owned(e.name, text)
        if said == owned and _shop_said(e.name, text):
            renamed[e.name] = e.name + "'s"
    if not renamed:
        return kept
    return [replace(e, name=renamed[e.name]) if e.name in renamed else e for e in kept]


def _in_context(decision: str, opening: str) -> str:
    """A terse decision ("PostgreSQL.", "Go with the checklist.") followed by the first
    clause the conversation opened with, in its words: "PostgreSQL — We need to pick the
    database for the billing service this week." A decision that says more is left as is."""
    if " — " in decision:
        return decision  # already written with what it settles
    words = [w for w in _words(decision) if w not in _FILLER and w not in _VERBISH]
    if len(words) > 1 or not opening or set(words) >= set(_words(opening)) - _FILLER:
        return decision
    if _ACTED_ON.match(decision):
        return decision  # "Take the train": a whole action, the opening would only blur it
    if len(decision.split()) >= 2 and re.search(r"\d", decision):
        return decision  # "Keep students at £5", "Cap at 500": the amount says what (session 19)
    clause = re.split(r"[,:;]\s", _LEAD_IN.sub("", opening), maxsplit=1)[0]
    return f"{decision.rstrip('.')} — {_trim(clause, 100)}"


_ASKS_SOMEONE = re.compile(r"(?:[A-Z][a-z]+,?\s+(?i:can|could|would|will|are|were|did|do|have)\s+you|"
                           r"(?i:were|did|have)\s+(?i:you|they|anyone))\b")
"""A question put to someone: "you" after a first word, most often their name ("Rhodri can you…",
"Ibrahim, are you…"), or about what they did ("Were you at…", "Did anyone…")."""

_NAME_RUN = re.compile(r"(?<![\w'’-])[A-Z0-9][\w’'-]*(?:\s+[A-Z0-9][\w’'-]*)*")
"""A run of capitalised words (or codes) in a decision: a name as the decision writes it."""


def _named_in_full(decision: str, names: Sequence[str]) -> str | None:
    """The decision with a name it writes short in full, when the conversation names one thing
    so: "Brompton" taken up from "the Ribble or the Brompton Electric" is "Brompton Electric",
    "Keep the Sportage" is "Keep the Kia Sportage". The advice a person takes up in a word names
    the option in full elsewhere; the full name says what was chosen better than the opening
    would. None when nothing is written short, or when the short name is part of several names,
    or the longer one only adds a number ("Zigbee 20") or stands in quotes ("'Valley Wake-Up'").
    A terse choice the cues wrote with the sentence that posed it ("Brompton — It's between the
    Ribble Hybrid AL e and the Brompton Electric") is the full name alone."""
    choice, posed, _ = decision.partition(" — ")
    if posed:
        full = _named_in_full(choice, names) if len(choice.split()) <= 3 else None
        return full and full.rstrip(".") + "."
    for run in _NAME_RUN.finditer(decision):
        start, short = run.start(), run.group().rstrip("'’")
        if decision[start - 1:start] in ("'", "‘", '"', "“"):
            continue
        if start == 0:  # the first word is capitalised as any: "Keep Halvorsen", "Museum."
            first, _, rest = short.partition(" ")
            if is_english_word(first.lower()):
                if not rest:
                    continue  # "Museum", "Regression" opening a sentence: a word, not a name
                start, short = start + len(first) + 1, rest
        if re.fullmatch(r"[A-Z]+(?: [A-Z]+)*", short) or not re.search(r"[A-Za-z]", short):
            continue  # "ISO UK": letters of an abbreviation, which many names hold; "2", a number
        fuller = {n for n in names if n != short and _holds_name(n, short) and n not in decision}
        if len(fuller) != 1:
            continue
        full = fuller.pop()
        if not re.search(r"[A-Za-z]{2}", full.replace(short, " ")):
            continue
        start, end = _spelled_out(decision, start, start + len(short), full)
        then = re.match(r"\s+([a-z]+)\b", decision[end:])
        if then and then.group(1) not in STOPWORDS:
            continue  # "an Instagram post", "the Toton line": the name qualifies a thing, it is
            # not the thing chosen ("Instagram Stories" would be another)
        return decision[:start] + full + decision[end:]
    return None


def _spelled_out(decision: str, start: int, end: int, full: str) -> tuple[int, int]:
    """Where ``full`` goes in ``decision`` for its words from ``start`` to ``end``, taking in
    the words of ``full`` already beside them ("Methodist hall" -> "Kirkgate Methodist Hall",
    not "Kirkgate Methodist Hall hall")."""
    at = full.index(decision[start:end])
    before, after = full[:at], full[at + end - start:]
    if before and decision[:start].lower().endswith(before.lower()):
        start -= len(before)
    if after and decision[end:].lower().startswith(after.lower()):
        end += len(after)
    return start, end


def _holds_name(full: str, short: str) -> bool:
    """Whether the longer name ``full`` holds ``short`` as whole words. The pattern, built for
    each pair, is compiled only when ``full`` holds ``short`` at all: most pairs do not, and the
    compilation costs more than the search (session 45, perf45)."""
    return short in full and re.search(rf"(?<![\w-]){re.escape(short)}(?![\w-])", full) is not None


@lru_cache(maxsize=16384)
def _name_of(phrase: str) -> tuple[str, str | None, bool]:
    """What a capitalised phrase names, whatever the sentence around it: ``(name, kind,
    gerund)`` with kind None (not a name: "API", "Q3", "March", a filler word), "date" (a
    holiday), "reference" (a file or an issue key) or "name", and whether its first word
    ends in -ing. Names repeat across a conversation's sentences, so this is cached."""
    name = phrase.strip(" .'-")
    if name.endswith("'s") and not name.startswith(("St ", "St. ")):
        name = name[:-2]  # "St Anne's" keeps it: the school or church, not Anne's (session 11)
    if " I " in f" {name} ":
        name = f" {name} ".split(" I ", 1)[0].strip()  # "First I need…"
    if "I'" in name:
        name = re.split(r"\s+I'(?:m|d|ll|ve)\b", name, maxsplit=1)[0]  # "Honestly I'd…", "Friday I'm…"
    words = name.split()
    if len(words) == 2 and words[0] in _GREETINGS:
        words = words[1:]  # "Cheers Theo", "Oma Ruth": a greeting or a grandparent's word, then the name
    if len(words) > 1 and words[-1] in _KINDS_AFTER:
        words = words[:-1]  # "Giffgaff SIM", "Flagsmith's SDK", "Femi's PR": the name, not the kind (session 13)
        if words[-1].endswith(("'s", "’s")):
            words[-1] = words[-1][:-2]
    if len(words) == 2 and _DECIMAL.fullmatch(words[1]):
        words = words[:1]  # "MySQL 5.7", "Pydantic 1.10": the product, its version is a reference
    if len(words) == 2 and _NUMBER_WORD.fullmatch(words[1]) and (
            words[0].lower() in _ABOUT or words[0].endswith("ly")):
        return name, None, False  # "Around 3 million rows", "Usually 5 to 7 days": an amount (session 13)
    if len(words) == 2 and words[0] in _NUMBERED_KINDS and _NUMBER_WORD.fullmatch(words[1]):
        return name, None, False  # "Plot 12", "Option 1": numbered, not named
    if len(words) == 2 and (words[0] in _NUMBERED_MORE and _NUMBER_WORD.fullmatch(words[1]) or (
            words[0] in _NUMBERED_ANY and _NUMERAL.fullmatch(words[1]))):
        return name, None, False  # "Division 2", "Grade II", "Part Two": numbered too (session 47)
    while len(words) > 2 and (words[-1] in _MONTHS or words[-1][:-1] in _MONTHS):
        words.pop()  # "Dr. Patel's Monday": the day is no part of the name ("Black Friday" is one)
    if (len(words) == 2 and (words[-1] in _WEEKDAYS or words[-1][:-1] in _WEEKDAYS)
            and words[0] not in _DAY_NAMES):
        words.pop()  # "Oakridge Mondays", "Rehearsal Wednesday", "Spent Saturday": a name, a word or a
        # verb before a day, which is no part of it ("Black Friday", "Boxing Day" are read whole) (session 18)
    if len(words) > 1 and words[0] in _MONTHS:
        return name, None, False  # "Saturday 12": a date
    if name in _SHORT_DAYS or name in _SHORT_MONTHS_ALONE or (len(words) > 1 and words[0] in _SHORT_DATES
                                                             and _NUMBER_WORD.fullmatch(words[1])):
        return name, None, False  # "Thu", "Feb 14": a date written short (session 13); "since Feb" (session 46)
    name = " ".join(words)
    if name in _KIN_NAMES:
        return name, None, False  # "Dad", "Mum": who, not a name
    if name in _DEPARTMENTS:
        return name, None, False  # "Needs to go through Legal", "Sales will scream": a team by its work (session 19)
    if name in _GENERIC or name in _STANDARDS or name in _BUILD_FILES or (name[:1] == "Q" and name[1:] in ("1", "2", "3", "4")):
        return name, None, False
    if words and words[0] in _UNITS:
        return name, None, False  # "MiB", "GHz", "MB of RAM": a unit of measure (session 47)
    if _HEADER.fullmatch(name):
        return name, None, False  # "Cache-Control", "X-Robots-Tag": an HTTP header's name (session 47)
    if _LETTER_NOUN.fullmatch(name):
        return name, None, False  # "T-shirts", "X-ray": a common noun after a letter (session 47)
    if len(words) > 1 and (name in _TAXES or (words[-1] in _SCHEME_KINDS and all(
            is_english_word(w.lower()) for w in words[:-1]))):
        return name, None, False  # "Self Assessment", "Council Tax", "Lawful Development Certificate": a kind
        # of tax, scheme or document, named in capitals (session 46)
    if _SHORT_CODE.fullmatch(name):
        return name, None, False  # "B2", "A4", "F1", "B214", "TC52s": a level, a size, a room, a code (session 21)
    if name.isdigit() or name in ("True", "False", "None"):
        return name, None, False  # "Keep 200 to match Flask" once the verb is cut; a literal in code,
        # "returns True", "default=None" (session 17)
    if name in _HOLIDAYS:
        return name, "date", False
    first = name.split()[0] if name else ""
    if not name or len(name) < 2 or name in _MONTHS or first.lower() in _FILLER:
        return name, None, False
    if name[-1] == "s" and name[:-1] in _MONTHS:
        return name, None, False  # "Fridays": a day of the week, not a name
    if name in _ORG_ACRONYMS:
        return name, "name", False  # "HMRC", "DHL": an organisation known by its letters (session 18)
    if name.isalpha() and name.isupper():
        return name, None, False  # an acronym ("SRE", "VPN"): the labelling guide's "not acronyms";
        # six letters or more, a keyword in code or shouting ("CONCURRENTLY", "SELECT") (session 16)
    if all(w in _LANGUAGES for w in words):
        return name, None, False  # "Korean", "Brazilian Portuguese": a language or a people's adjective (session 16)
    if 2 < len(name) <= 6 and name[-1] == "s" and name[:-1].isalpha() and name[:-1].isupper():
        return name, None, False  # an acronym's plural ("EVs", "PDFs", "IOUs") (session 15)
    if "_" in name:
        return name, None, False  # a name in code ("ROUND_HALF_UP", "MAX_RETRIES"), not a thing's (session 15)
    if " " in name and name.isupper() and name.replace(" ", "").isalpha():
        return name, None, False  # "ORDER BY", "GUESS WHO": a keyword or shouting (session 12)
    if " " not in name and _CODE_TYPE.search(name):
        return name, None, False  # "HTTPAdapter", "StreamingResponse", "GlyphCache": a type in code (session 18)
    if " " not in name and name.endswith(("Error", "Exception")):
        return name, None, False  # "ValidationError", "Exception": a class of errors in code (session 12)
    if _model(words):
        return name, "name", False  # "Fujifilm X100VI", "Nimbus AX3000", "Roland FP-10": a product by its
        # maker's name and its model, which the model's code makes no reference (session 19)
    kind = "reference" if _REF_CHAR.search(name) is not None and any(  # "Order SO-2023": its code
        (c is None or c in name) and p.search(name) for p, c in _NAME_REF_TOKENS) else "name"
    return name, kind, first.endswith("ing")


def _turn_messages(messages: Sequence[Message]) -> list[Message]:
    """The message each turn of the cue reader comes from, in order (a message listed twice
    in a row is one turn)."""
    firsts: list[Message] = []
    for m in messages:
        if not firsts or firsts[-1] is not m:
            firsts.append(m)
    return firsts


def _several(messages: Sequence[Message]) -> bool:
    """Whether several people talk (then "we" and a decision are the team's, else the
    user's)."""
    return len({m.speaker or m.role for m in messages if m.role == "user"}) > 1


_TAKEN_UP = re.compile(
    r"^\W*(?:(?:oh|ah|aw+|wow)\b[\s,!.]*)?(?:ok(?:ay)?|yes|yeah|yep|yup|sure|great|perfect|brilliant|lovely|excellent|fine|good|nice|cool|"
    r"amazing|awesome|wonderful|fantastic|"
    r"thanks?|thank\s+you|cheers|ta|appreciated|makes\s+sense|sounds\s+(?:good|great|right|fine|like)|will\s+do|"
    r"done|deal|agreed|right|got\s+it|that\s+works|let['’]?s|i['’]ll|i\s+will|i['’]m\s+going|"
    r"that['’]s\s+(?:so\s+|really\s+)?(?:kind|great|perfect|helpful|brilliant|good|fine|it|nice|lovely|"
    r"amazing|a\s+relief)|"
    r"that\s+(?:did|fixed|worked|helps)|it\s+works|it\s+worked|works|worked)\b", re.IGNORECASE)
"""The opening of a turn that takes up what the assistant just said: an agreement, an
acceptance, thanks, the user's own plan to do it, a report that it worked."""
_TURNED_DOWN = re.compile(r"^\W*(?:no\b|nope|nah|not\b|actually|but\b|hmm+|i['’]d\s+rather|i\s+don['’]?t|"
                          r"i\s+can['’]?t|that\s+won['’]?t|i\s+already)", re.IGNORECASE)
"""The opening of a turn that turns down or passes over what the assistant said."""
_ASKED = re.compile(r"\b(?:can|could|would|will)\s+you\b|\bplease\b|\bi['’]?d\s+like\b|\bi\s+would\s+like\b|"
                    r"\bi\s+want\s+(?:to|you)\b", re.IGNORECASE)
"""A request to the assistant ("Can you move it to Saturday?", "Please cancel my membership")."""
_REPORTED = re.compile(r"^\W*done\b|\b(?:i|we)(?:['’]ve|\s+have)\s+(?:just\s+|now\s+|already\s+)?[a-z]+(?:ed|t|n)\b|"
                       r"\b(?:is|are)\s+now\b|\ball\s+set\b", re.IGNORECASE)
"""The assistant reporting what it did ("Done.", "I've moved…", "Your booking is now…")."""


def _done_on_request(asked: Message | None, answer: Message) -> bool:
    """Whether the assistant's ``answer`` reports doing what the user's turn before it
    (``asked``) requested: "Can you move the delivery to Saturday?" — "Done, it's now
    Saturday 9-12." The user chose it; it is no advice."""
    return (asked is not None and _ASKED.search(asked.text) is not None
            and _REPORTED.search(answer.text) is not None)


def _taken_up(said: str, reply: Message | None) -> bool:
    """Whether the user's ``reply`` (their next turn, None when none follows) takes up what
    the assistant said (``said``): it opens with an agreement, thanks or a plan of the user's
    own ("Makes sense", "Will do", "OK, I'll repot it…"), or names the choice again in a
    statement ("Remake please", "Madeira sounds right"), and does not open by turning it down
    ("No, …", "Actually, …"). Advice the user only heard is no decision of theirs (session 19)."""
    if reply is None:
        return False
    text = reply.text.strip()
    if _TURNED_DOWN.match(text):
        return False
    if _TAKEN_UP.match(text):
        return True
    first = _sentences(text)[:1]
    if not first or first[0].endswith("?"):
        return False  # "How long do running shoes last?": asked about, not taken up
    return bool(_content(first[0]) & _content(said))


def _content(text: str) -> set[str]:
    """A text's content words, a possessive's owner as the word ("Madeira's" is "madeira")."""
    return {w.lower().removesuffix("'s") for w in _words(text)} - _FILLER


SHIPPED_MODEL = "shipped"
"""``OfflineIntelligence(model=...)``: the sentence model whose weights ship in the package."""
SHIPPED_MEANING_MODEL = "shipped-meaning"
"""``OfflineIntelligence(model=...)``: the shipped sentence model reading the meaning tier's
vectors (``summary.sentence_vectors = "meaning"``; needs the ``meaning`` extra)."""
_SHIPPED_NAMES = {SHIPPED_MODEL: "static", SHIPPED_MEANING_MODEL: "meaning"}
SHIPPED_FACTS_MODEL = "shipped-facts"
"""``OfflineIntelligence.facts_model`` until its first use: the learned facts reader whose
weights ship in the package (:data:`memlane.index.factmodel.SHIPPED`), read then (its own
sentinel, never :data:`SHIPPED_MODEL`, session 50)."""


class OfflineIntelligence:
    """Summaries and extraction with no LLM: the embedded default."""

    name = "offline"

    def __init__(self, model: Any = SHIPPED_MODEL, facts_model: bool = False) -> None:
        """``model``: a learned sentence model (:mod:`memlane.index.sentmodel`, the dense
        one, or :mod:`memlane.index.sentclass`) whose confident verdicts join the cue
        patterns' as its mode says; :data:`SHIPPED_MODEL` (the default): the dense model
        whose weights ship in the package (read once per process), which beat the patterns
        alone in session 14's cross-validation at the cost the target allows
        (docs/summary-eval.md, session 14); ``None``: the cue patterns alone
        (``summary.sentence_model = false``); :data:`SHIPPED_MEANING_MODEL`: the shipped model
        reading the meaning tier's vectors (session 31). ``facts_model``: the learned facts
        reader joins the readers too (``summary.facts_model``, opt-in; on only with a sentence
        model)."""
        if isinstance(model, str) and model in _SHIPPED_NAMES:
            from memlane.index.sentmodel import shipped

            model = shipped(_SHIPPED_NAMES[model])
        self.model = model
        self.facts_model: Any = SHIPPED_FACTS_MODEL if facts_model and model is not None else None
        """The learned facts reader (:mod:`memlane.index.factmodel`, session 49): opt-in
        (``summary.facts_model``), on only with a sentence model (:data:`SHIPPED_FACTS_MODEL`:
        the shipped weights, read on first use, then the head itself); None: off, the default."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled for the worker's processes (``indexing.jobs``): a shipped model by its
        name (each process reads its weights once), any other model as itself; ``True`` after
        it when the facts reader is on."""
        from memlane.index.sentmodel import shipped_vectors

        vectors = shipped_vectors(self.model)
        names = {v: k for k, v in _SHIPPED_NAMES.items()}
        model = self.model if vectors is None else names[vectors]
        return (type(self), (model,) if self.facts_model is None else (model, True))

    def summarize(self, scope: str, messages: Sequence[Message]) -> tuple[SessionSummary, Extraction]:
        split: list[tuple[Message, str, list[str] | None]] = []
        lead: list[tuple[Message, str, list[str]]] = []
        for m in messages:
            for i, s in enumerate(_sentences(m.text)):
                # The user's words and the opening of each answer say what a session is
                # about: they make the topics, entities and context. The rest of a long
                # answer is only read for cues (decisions, next steps...): most of the text,
                # and it would mostly add noise (and cost).
                if m.role == "user" or i < _LEAD:
                    lead.append((m, s, _words(s)))
                    split.append(lead[-1])
                else:
                    split.append((m, s, None))
        ranked = _ranked_phrases([w for _, _, w in lead], 8)
        tags = _distinct(ranked, 8)
        tagset = set(" ".join(tags).split())
        scored: list[tuple[float, int, str, Message]] = []
        substantive = []
        turns: list[tuple[str, str, list[str]]] = []
        turn_messages: list[Message] = []
        last: Message | None = None
        for m, s, words in split:
            if words is not None:
                content = set(words) - _FILLER
                score = (len(content & tagset) + (1.5 if m.role == "user" else 0.0)
                         + (0.5 if m.seq <= 2 else 0.0))
                scored.append((score, m.seq, s, m))
                if len(content) >= 3:
                    substantive.append(scored[-1])
            if m is not last:
                turns.append((m.speaker or m.role, m.role, []))
                turn_messages.append(m)
                last = m
            turns[-1][2].append(s)
        # the facts reader takes the dense model's inputs of the sentences it read (session 50)
        known: dict[tuple[int, int], Any] | None = {} if self.facts_model is not None else None
        cues = read_cues(turns, self.model, known)
        substantive = substantive or scored
        opening = next((x for x in substantive if x[3].role == "user"), None)
        about = opening[2] if opening and cues.placed.get((0, 0)) is None else ""
        rest = [x for x in substantive if x is not opening]
        best = ([opening] if opening else []) + sorted(rest, key=lambda x: (-x[0], x[1]))[:2]
        context = " ".join(_trim(s, 200) for _, _, s, _ in sorted(best, key=lambda x: x[1]))
        topic = _trim(opening[2], 120) if opening else ""
        if tags:
            topic = ", ".join(tags[:3]) + (f" — {topic}" if topic else "")
        extraction = self._extract([(m, t) for m, t, _ in lead])
        extraction = self._with_decisions(extraction, messages, cues, turns)
        extraction = self._with_states(extraction, messages, turns)
        # what the user says has ended: "I no longer work at Acme", "I sold my Corolla" (session 22)
        extraction = with_endings(extraction, messages, self._facts, _sentences)
        # how the speaker works, a move they state, a birthday to come (session 22)
        extraction = with_more_facts(extraction, messages, _sentences)
        if self.facts_model is not None:  # the sentences the learned reader finds (session 49)
            if self.facts_model == SHIPPED_FACTS_MODEL:
                from memlane.index.factmodel import shipped_facts

                self.facts_model = shipped_facts()
            extraction = self._with_stated(extraction, turns, turn_messages, cues, self.facts_model, known)
        said = [{r.rstrip(".,;:") for r in _references(m.text)} for m in messages]
        titles = {r.lower() for one in said for r in one if _ITEM_FULL.fullmatch(r)}
        if titles:
            said.append(listed := _listed_titles([m.text for m in messages], titles))
            titles |= {t.lower() for t in listed}
        # "Tomorrow" of "I read Tomorrow x3", "March" of "the spring show, March to June": a day or a
        # month alone names a time, not a work (session 42)
        refs = sorted(r for r in set().union(*said) - _TIME_WORDS if not _BRAND_DOMAIN.fullmatch(r))
        if len(refs) > 1:  # "Article 231" and "article 231": one reference, the capitalised one (session 21)
            folded_seen: set[str] = set()
            refs = [r for r in refs if not (r.lower() in folded_seen or folded_seen.add(r.lower()))]
        models = {e.name.rsplit(" ", 1)[1].lower() for e in extraction.entities
                  if e.type != "reference" and " " in e.name and _model(e.name.split())}
        if models:  # "X100VI" of "Fujifilm X100VI": the product's model, no reference (session 19)
            refs = [r for r in refs if r.lower() not in models]
        if len(refs) > 1:  # a code inside a longer reference ("0E7C7B" in "#0E7C7B") is that one
            # unless it is a key a message names on its own and the longer one is a URL or a
            # path ("the postmortem for INC-2291" beside ".../pm/INC-2291" in a later message);
            # a version, a file or an address named alone is still the longer one's part
            # ("2.17.3", "poetry.lock"), and so is a key beside itself with its kind ("client
            # number QH-40118") (session 18)
            alone = {r.lower() for one in said for r in one if _KEY.fullmatch(r)
                     and not any(r != o and r.lower() in o.lower() for o in one)}
            folded = [r.lower() for r in refs]
            # a file or a key a command is given is named on its own too ("speeches.mp4" of "ffmpeg -i
            # speeches.mp4 …", "7F4381D0" of "apt-key del 7F4381D0"): the command holds it, not
            # names it short (session 45)
            commands = {c.lower() for m in messages if "`" in m.text for c in _commands(m.text)}
            # a host named by itself is kept beside an e-mail address at it ("kettleandcrow.com" and
            # "hello@kettleandcrow.com", "192.168.1.40" and "you@192.168.1.40"); not a part of a
            # URL ("postgres://app:…@db.internal:5432/app"); a directory named by itself is kept
            # beside a file in it ("db/migrations/" and "db/migrations/0042_idx.py") (session 18), and
            # so is a network share's folder ("\\fileserver\stock" and "\\fileserver\stock\counts.xlsm", session 39)
            refs = [r for r, f in zip(refs, folded, strict=True)
                    if not any(f != o and f in o and not (f in alone and "/" in o) and o not in commands
                               and not (o.endswith("@" + f) and "://" not in o)
                               and not ((f.endswith("/") or f.startswith("\\\\")) and o.startswith(f))
                               for o in folded)]
        if refs:
            # "Harbour Street" in "14 Harbour Street, Falmouth", "Member ID HXP 558" in its
            # reference: a phrase a reference holds is that reference, not an entity (a one-word
            # name in it, "Galway", is still a place); "Intermezzo" read as a title is a
            # reference, not also an entity (session 11); so is a one-word code a reference holds
            # as a word, "B-7" in "form B-7" (session 13)
            folded = [r.lower() for r in refs]
            # "Settings", "Council" in "Settings > Members", "Council tax > Discounts": a menu's
            # items and their words are the path, not names (session 16)
            items = {w for r in folded if " > " in r or " › " in r for w in r.replace("›", ">").split()} - {">"}
            # and "On-call", "Setup" in "On-call/Setup", a wiki's path (session 18)
            items |= {w for r, o in zip(folded, refs, strict=True) if o[:1].isupper() and "/" in o
                      and _WIKI_PATH.fullmatch(o) for w in r.split("/")}
            # and "Episodes" of "/Episodes/047/rough_v1.wav", a folder of a rooted path written with its
            # capital ("stripe" of "/v2/webhooks/stripe" leaves "Stripe" a name) (session 22)
            items |= {w.lower() for r in refs if r[:1] == "/" or r[:2] == "~/" for w in r.split("/") if w[:1].isupper()}
            # and "Sands" of "The Sands of the Hour", a title found: a work named short (session 20)
            items |= {w for r in refs if " " in r and r.lower() in titles for w in r.lower().split()[1:]}
            named = [e for e in extraction.entities if e.type in ("date", "reference")
                     or not any(e.name.lower() == r or (" " in e.name and e.name.lower() in r)
                                or (_DIGIT.search(e.name) and e.name.lower() in r.split()) for r in folded)
                     and e.name.lower() not in items]
            if len(named) < len(extraction.entities):
                extraction = replace(extraction, entities=tuple(named))
        # a choice named short is written with the name in full ("Brompton" -> "Brompton
        # Electric"), which says what it settles; a terse decision still saying nothing once
        # written out ("Same." answering an opening that was itself small talk) is no decision;
        # nor is a question put to someone, with a question mark or not ("Rhodri can you get a
        # quote…", "Were you at the market…"): it asks them and settles nothing
        names = [e.name for e in extraction.entities if e.type not in ("date", "reference")]
        written = [(d, x) for d in cues.decisions if not _ASKS_SOMEONE.match(d)
                   and not says_nothing(x := _named_in_full(d, names) or _in_context(d, about))]
        decisions = [x for _, x in written]
        participants = tuple(dict.fromkeys((m.speaker or m.role) for m in messages))
        steps, items = _steps_once(_said(_step_alone(x) for x in cues.next_steps),
                                   _said((_step_alone(x) for x in cues.action_items), owned=True))
        summary = SessionSummary(
            topic=_trim(topic, 160),
            context=context,
            decisions=tuple(dict.fromkeys(decisions))[:8],
            rationale=_said(cues.rationale)[:5],
            open_questions=_said(cues.open_questions)[:6],
            next_steps=steps[:6],
            action_items=items[:6],
            references=tuple(refs)[:20],
            entities=tuple(e.name for e in extraction.entities)[:20],
            topic_tags=_topics(ranked, messages, [w for m, _, w in lead if m is messages[0]],
                               [x for d, x in written if d not in cues.terms], [w for _, _, w in lead]),
            time_start=messages[0].at if messages else None,
            time_end=messages[-1].at if messages else None,
            participants=participants,
            turn_count=len(messages),
            model=self.name,
        )
        return summary, extraction

    @staticmethod
    def _with_decisions(extraction: Extraction, messages: Sequence[Message], cues: Cues,
                        turns: Sequence[tuple[str, str, list[str]]]) -> Extraction:
        """Decisions as facts ``<who> decided <what>``: the user's (by name when their turns
        carry one) when one person talks with the assistant, the team's when several people
        do, from their own turns only when the sentence says who or what it is about
        (:func:`_said_by_someone`) and states it rather than plans it (:func:`_planned`). A
        decision read from the assistant's turn is theirs when it did what they asked
        (:func:`_done_on_request`) or their next turn takes it up (:func:`_taken_up`); else it
        is advice they only heard, ``assistant suggested <what>`` (session 19). What the
        assistant's side did, told as a story, is ``assistant did``."""
        if not cues.decisions and not cues.narrated:
            return extraction
        firsts = _turn_messages(messages)
        user = next((m for m in messages if m.role == "user"), None)
        subject = "team" if _several(messages) else (speaker_subject(user) if user else "user")
        facts = list(extraction.facts)
        # what was decided, and what we or I did told as a story ("We sold out, 900 tickets"):
        # no decision, still a fact (session 17)
        for verb, said in (("decided", cues.decisions), ("did", cues.narrated)):
            for d in said:
                turn = cues.turn_of.get(d)
                msg = firsts[turn] if turn is not None and turn < len(firsts) else None
                who, what = subject, verb
                if msg is not None and turn is not None and msg.role == "assistant":
                    reply = next((m for m in firsts[turn + 1:] if m.role == "user"), None)
                    asked = next((m for m in reversed(firsts[:turn]) if m.role == "user"), None)
                    if verb == "did":
                        who = "assistant"
                    elif not _done_on_request(asked, msg) and not _taken_up(d, reply):
                        who, what = "assistant", "suggested"
                if verb == "decided" and _names_nothing(d):
                    continue  # "Move it", "Take that", "Send": no thing decided on (session 21)
                if (verb == "decided" and msg is not None and msg.role != "assistant" and turn is not None
                        and (not _said_by_someone(d, turns[turn][2])
                             or (_planned(d, turns[turn][2]) and not _agreed_to(turn, turns)))):
                    continue  # "Switch to structlog", "Let's book Millbrook…": no one states it (sessions 52, 56)
                if msg is None:
                    continue  # said in no one turn: 0 of the read sets' 31 such facts was right (session 23)
                facts.append(Fact(who, what, d.rstrip("."), "stated",
                                  msg.seq if msg else None, _trim(d, 200)))
        return replace(extraction, facts=tuple(facts))

    @staticmethod
    def _with_stated(extraction: Extraction, turns: Sequence[tuple[str, str, list[str]]],
                     turn_messages: Sequence[Message], cues: Cues, head: Any,
                     known: dict[tuple[int, int], Any] | None = None) -> Extraction:
        """The learned facts reader's sentences (:mod:`memlane.index.factmodel`): each
        sentence it gives at least its threshold becomes ``<speaker> stated <sentence>``
        unless it is small talk or a fact already read covers it (one read from the same
        sentence, an ending's too, or an object holding half its content: Dice ≥ 0.5).
        ``known``: the dense model's inputs of the sentences it read, not computed again;
        small talk is not read at all (session 50)."""
        from memlane.index.factmodel import covered, tokens

        read = head.read([_Turn(w, r, s) for w, r, s in turns], cues.placed, known, says_little)
        limit = head.threshold
        chosen = [(w, p) for w, p in read if p >= limit]
        if not chosen:
            return extraction
        facts = list(extraction.facts)
        objects = [tokens(f.object) for f in facts]
        # a sentence an ending was read from ("I quit my job at Acme") is read (session 22)
        said = {(f.seq, f.text) for f in (*facts, *extraction.endings)}
        for (ti, si), _ in chosen:
            s = turns[ti][2][si]  # (small talk, no fact, was not read)
            m = turn_messages[ti]
            text = _trim(s, 200)
            if (m.seq, text) in said:
                continue
            own = tokens(s)
            if covered(own, objects):
                continue
            who = speaker_subject(m) if m.role == "user" else "assistant"
            facts.append(Fact(who, "stated", _trim(s.rstrip("."), 220), "stated", m.seq, text))
            objects.append(own)
            said.add((m.seq, text))
        return replace(extraction, facts=tuple(facts))

    def extract(self, messages: Sequence[Message]) -> Extraction:
        """Entities, first-person facts and relations of a conversation."""
        return self._extract([(m, s) for m in messages for i, s in enumerate(_sentences(m.text))
                              if m.role == "user" or i < _LEAD])

    def _extract(self, split: Sequence[tuple[Message, str]]) -> Extraction:
        entities: dict[str, Entity] = {}
        seen: Counter[str] = Counter()
        by_user: set[str] = set()
        facts: list[Fact] = []
        relations: list[Relation] = []
        for m, _ in split:
            # the people taking part are named in the conversation: "Tom", "Priya"
            if m.speaker and m.speaker not in ("user", "assistant") and m.role == "user":
                who = m.speaker
                if (words := who.split()) and len(words) == 2 and words[0] in _GREETINGS:
                    who = words[1]  # "Coach Lorna", "Gran Maeve", "Oma Ruth": the name, not the title (session 18)
                key = who.lower()
                entities.setdefault(key, Entity(who, "person", "took part in the conversation"))
                by_user.add(key)
        # a conversation whose answers are all short (a chat, not an assistant's essays): what
        # an answer names there is said to the user, as the user's own words are
        chat = all(len(m.text) <= _REF_SHORT for m, _ in split if m.role != "user")
        stated: list[tuple[Message, str]] = []  # the user's sentences about people (session 18)
        for m, s in split:
            for ent in self._entities(s):
                key = ent.name.lower()
                entities.setdefault(key, ent)
                seen[key] += 1
                if m.role == "user" or chat:
                    by_user.add(key)  # the user's, or an answer's in a chat of short turns (session 12)
            if m.role != "user":
                continue
            if may_state(s):
                stated.append((m, s))
            if not _first_person(s):
                continue
            me = speaker_subject(m)
            for f in self._facts(s, m.seq, me):
                facts.append(f)
                if f.predicate in _KIN:
                    relations.append(Relation(me, f.predicate, f.object, m.seq))
                    kind = "pet" if f.predicate in _PETS else "person"
                    if not f.object.isdigit():  # "My mum is 84": her age, not her name (session 17)
                        entities.setdefault(f.object.lower(), Entity(f.object, kind, _trim(s, 120)))
                elif f.predicate in ("lives_in", "works_at", "visited", "studied_at"):
                    relations.append(Relation(me, f.predicate, f.object, m.seq))
        if stated:
            facts = self._with_people(facts, relations, entities, split, stated)
        if any(e.type == _PACKAGE_WORD for e in entities.values()):
            # "pandas", "celery": a package's name in a conversation about software, else the word
            # ("the school holidays", "a torch after rain") (session 19)
            software = any(k in SOFTWARE for k in entities) or any(_SOFTWARE_TALK.search(s) for _, s in split)
            entities = {k: replace(e, type="name") if e.type == _PACKAGE_WORD else e for k, e in entities.items()
                        if e.type != _PACKAGE_WORD or software}
        unique = list({(f.subject, f.predicate, f.object.lower()): f for f in facts}.values())
        # An untyped capitalised phrase that only an answer used once ("Data Source",
        # "Vallejo Model Air") is mostly a heading or a suggestion, not the user's world.
        kept = [e for k, e in entities.items()
                if k in by_user or e.type != "name" or seen[k] > 1 or k not in seen]
        # "the Business plan" in one sentence makes "On Business, …" a product's tier in the others (session 13)
        tiers = {t.lower() for _, s in split if "plan" in s or "tier" in s
                 for m in _TIER.finditer(s) for t in m.groups() if t}
        if tiers:
            kept = [e for e in kept if e.type not in ("name", "place", "organization") or e.name.lower() not in tiers]
        # "Grafana" beside "Grafana Cloud", "Windows" beside "Windows 11": one entity; not a place
        # said as one ("moving from Leeds" beside "Leeds City Council", "get to Porto" beside "Porto
        # Campanhã"): the city and its council or its station are two (session 21)
        longer = [e.name.lower() for e in kept if " " in e.name]
        kept = [e for e in kept if e.type != "name"
                or not any(n.startswith(e.name.lower() + " ") for n in longer)]
        # "Prius" beside "Toyota Prius", "Air" beside "MacBook Air", "Marchand" beside "Hélène Marchand": a
        # one-word name ending a longer one is that one named short (session 21); not after "of" or "&"
        # ("Poland" beside "Kingdom of Poland", "Mbappe" beside "France & Mbappe") nor a point of the
        # compass ("Africa" beside "South Africa"), two things
        kept = [e for e in kept if e.type != "name" or " " in e.name
                or not any(n.endswith(" " + e.name.lower()) and " of " not in n and " & " not in n
                           and n.split(" ", 1)[0] not in _COMPASS for n in longer)]
        kept = _shops(kept, split)
        kept = _versions_compared(kept)
        # "Ticket BILL-142" beside "BILL-142": one reference, named by its key as the
        # references field names it
        keys = {e.name.lower() for e in kept if e.type == "reference"}
        if len(keys) > 1:
            kept = [e for e in kept if e.type != "reference" or " " not in e.name
                    or e.name.split(maxsplit=1)[1].lower() not in keys]
        return Extraction(tuple(kept), tuple(unique), tuple(dict.fromkeys(relations)),
                          observations=self._observations(split))

    @staticmethod
    def _with_people(facts: list[Fact], relations: list[Relation], entities: dict[str, Entity],
                     split: Sequence[tuple[Message, str]], stated: list[tuple[Message, str]]) -> list[Fact]:
        """The first-person facts with what the user says about themselves and the people in
        their life (session 18, :mod:`memlane.index.people`): "My daughter Maya is allergic to
        bees" (Maya, allergic_to, bees), "My brother lives in Toronto" (user's brother,
        lives_in, Toronto), "I'm a nurse at St Thomas'" (user, job / works_at), "We have two
        kids, Leo and Mia". A first-person pattern's value that one of these says more
        exactly (the same subject, predicate and turn) gives way to it."""
        we = len({m.speaker or m.role for m, _ in split if m.role == "user"}) <= 1
        # who "I" is in each turn: the user, or the speaker by name (session 19), whose
        # relatives are theirs ("my sister" is Caroline's sister, not Melanie's)
        mine: dict[int | None, str] = {m.seq: speaker_subject(m) for m, _ in split if m.role == "user"}
        found = [f for m, s in stated for f in people_facts(s, m.seq, we=we, me=mine[m.seq])]
        names = {me: kin_names([*facts, *found], me) for me in dict.fromkeys(mine.values())}
        if any(names.values()):  # "my daughter" after "my daughter Maya" is Maya; "Maya is 7" is said of her
            told = [(m, s) for m, s in split if m.role == "user"
                    and any(n in s for one in names.values() for n in one.values())]
            found = [f for m, s in dict.fromkeys([*stated, *told])
                     for f in people_facts(s, m.seq, we=we, names=names[mine[m.seq]], me=mine[m.seq])]
        if not found:
            return facts
        said = {(f.subject, f.predicate, f.seq) for f in found}
        named = {(f.seq, f.object.lower()) for f in found if f.subject == mine.get(f.seq, "user")}
        # a first-person pattern's fact gives way to the same subject, predicate and turn read
        # here, in its place (the order facts are stored in, and so their ids, stay); "I have a
        # dog called Biscuit" (has) and "I started a new job at Siemens" (started) give way to
        # (user, dog, Biscuit) and (user, works_at, Siemens)
        # each key's facts once, in their order: a turn that says one thing a thousand times
        # ("I moved to Lisbon." in a 100,000-character paste) put a thousand copies of each
        # in place of each of a thousand facts (a million facts, then deduplicated: 449 s
        # for four such messages; session 22)
        by_key: dict[tuple[str, str, int | None], list[Fact]] = {}
        for g in found:
            by_key.setdefault((g.subject, g.predicate, g.seq), []).append(g)
        out: list[Fact] = []
        for f in facts:
            if (f.subject, f.predicate, f.seq) in said:
                out.extend(by_key.pop((f.subject, f.predicate, f.seq), ()))
            elif not (f.predicate in ("has", "started", "acquired") and any(
                    seq == f.seq and re.search(r"\b" + re.escape(obj) + r"\b", f.object.lower())
                    for seq, obj in named)):
                out.append(f)
        placed = set(map(id, out))
        for f in found:
            if id(f) not in placed:
                out.append(f)
            if f.subject == mine.get(f.seq, "user") and f.predicate in KIN_PREDICATES:
                relations.append(Relation(f.subject, f.predicate, f.object, f.seq))
                kind = "pet" if f.predicate in PET_PREDICATES else "person"
                entities.setdefault(f.object.lower(), Entity(f.object, kind, f.text[:120]))
            elif f.predicate in ("lives_in", "works_at", "studied_at", "from"):
                relations.append(Relation(f.subject, f.predicate, f.object, f.seq))
        return out

    @staticmethod
    def _observations(split: Sequence[tuple[Message, str]]) -> tuple[Observation, ...]:
        """The user's statements about themselves, not their requests: first-person
        sentences with a sign of something done, owned, liked or dated ("I took my niece
        to the museum today"), lead-ins ("By the way, ...") trimmed."""
        out: dict[str, Observation] = {}
        for m, s in split:
            if m.role != "user" or s.endswith("?"):
                continue
            if s.isascii():  # the case-sensitive patterns on the lower-cased text: 2x faster
                low = s.lower()
                if (_SELF_LOW.search(low) is None or _DISCLOSURE_LOW.search(low) is None
                        or _REQUEST_LOW.search(low) is not None):
                    continue
            elif (_SELF.search(s) is None or _DISCLOSURE.search(s) is None
                    or _REQUEST.search(s) is not None):
                continue
            text = _trim(_LEAD_IN.sub("", s), 240)
            if len(text) < 12:
                continue
            out.setdefault(text.lower(), Observation(text, m.seq))
            if len(out) == MAX_OBSERVATIONS:
                break
        return tuple(out.values())

    @staticmethod
    def _entities(sentence: str) -> list[Entity]:
        if "[REDACTED:" in sentence:
            sentence = PLACEHOLDER.sub(" ", sentence)
        if _may_label(sentence):
            sentence = _LABEL.sub(_unlabelled, sentence)  # headings and "**Step 1:**" labels name no one
        out: list[Entity] = []
        said = ""
        if _DIGIT.search(sentence):
            said = _trim(sentence, 120)
            if any(map(sentence.__contains__, _DATE_WORDS)):
                out.extend(Entity(d, "date", said) for d in _DATE.findall(sentence))
        zones: list[tuple[int, int]] = []
        if "/" in sentence and any(a in sentence for a in _ZONE_AREAS):
            for zone in _TIME_ZONE.finditer(sentence):  # "Europe/Paris": one name, not two (session 19)
                zones.append(zone.span())
                out.append(Entity(zone.group(0), "name", said or _trim(sentence, 120)))
        for i, match in enumerate(_CAPS.finditer(sentence)):
            if zones and any(a <= match.start() < b for a, b in zones):
                continue
            phrase = match.group(1)
            start = None  # whether the phrase opens the sentence, found out only when it matters
            counted = False  # whether a count opening the sentence was cut off the phrase
            if " " in phrase and (start := _opens(sentence, match.start())):
                head, rest = phrase.split(" ", 1)
                low = head.lower()
                if low in _COUNT_OPENERS and rest[:1].isupper():
                    # "Two Bicycle decks, same colour.", "Two Cornilleaus came free": a count opening the
                    # sentence is no part of the name, and the name after it is a plural (session 46)
                    phrase, start, counted = rest, False, True
                elif (low in _STEP_VERBS or rest.startswith("the ")
                        or (len(low) > 4 and low.endswith(("ed", "ing")))) and not (
                        low in _STEP_VERBS and not rest.startswith("the ")
                        and _SUBJECT_VERB_AFTER.match(sentence, match.end())):
                    # "Finished the Terraform…", "Rewatched Paddington 2", "Close the Oakridge
                    # branch": a verb opening the sentence is no part of the name (session 10)
                    phrase, start = rest.removeprefix("the "), False
                elif (low in _OPENERS or (len(low) > 5 and low.endswith("ly") and _adverb(low) and head not in PROPER_NAMES)) \
                        and rest[:1].isupper() and not head.isupper():
                    # "In England your deposit…", "Is Ciaran back?", "Which Python are you on?": a
                    # word opening the sentence that names nothing is no part of the name (session 19);
                    # nor is an adverb in -ly, "Apparently Leila's mum…", "Mainly Saturn" (session 40)
                    phrase, start = rest, False
                    if " the " in phrase and " of " not in phrase and (
                            (cut := phrase.index(" the ")) and phrase[cut + 5: cut + 6].isupper()):
                        # "In England the NHS programme…", "For Lightroom the XPS 15's screen…": the phrase
                        # the opening word leads ends before "the", and the sentence's subject is a second
                        # name (session 40)
                        lead, lead_kind, _ = _name_of(phrase[:cut])
                        if lead_kind == "name":
                            out.append(Entity(lead, "name", said or _trim(sentence, 120)))
                        phrase = phrase[cut + 5:]
            if phrase.startswith(_DETERMINERS) and (cut := phrase.find(" ") + 1) and phrase[cut: cut + 1].isupper() and not (
                    match.start() > 0 and sentence[match.start() - 1] in "\"'“‘") and not _headline(sentence):
                # "The Corn Exchange", "at The Granary", "Our LaunchDarkly contract": the article or
                # the possessive is no part of the name, and a name after it does not open the
                # sentence (session 13); a quoted "The …" ('"The Nightingale"') and a line written
                # in title case ("The Value of Good Sleep: How to…") are titles, left as before
                phrase, start = phrase[cut:], False
            if "'s " in phrase and _DIGIT.search(phrase):
                owner, _, owned = phrase.partition("'s ")
                if owned[:1].isupper() and _DIGIT.search(owned) and owner[:1].isupper():
                    # "Framework's Ryzen 7 7840U", "the X1's Core Ultra 5": the product with its
                    # number is a name of its own, its maker's or owner's is no part of it (session 19)
                    phrase, start = owned, False
            if "'s " in phrase and (parts := _possessed(phrase)) is not None:
                # "Isla's Dexcom", "Bitwarden's Linux", "Dad's Jersey": the owner and the thing it owns are
                # two names (a relative's word none); "Freya's 12": a name and the number it "is", no
                # version (session 39)
                owner, phrase = parts
                first = start if start is not None else _opens(sentence, match.start())
                if owner:
                    own, own_kind, _ = _name_of(owner)
                    if own_kind == "name" and not (first and " " not in own and is_english_word(own)):
                        out.append(Entity(own, "name", said or _trim(sentence, 120)))
                start = False
                if not phrase:
                    continue
            name, kind, gerund = _name_of(phrase)
            if kind is None:
                continue
            if kind == "name" and len(name) > 4 and name.endswith("s") and (counted or _MODEL_PLURAL.search(name) or _COUNTED_BEFORE.search(
                    sentence, max(0, match.start() - 12), match.start())) and not name.endswith(_NO_PLURAL):
                # "the Zyxel VMG3625s", "64 H100s", "30 Chromebooks", "the two Volumats": several of one
                # product (or one family's members), named in the singular (session 39)
                name = name[:-1]
            if "-" in name and (modified := _MODIFIER.search(name)):
                # "Samsung-only", "SIM-only", "VPN-only", "KeyboardInterrupt-style": a word made of a name,
                # an adjective; the name before it stays one when no English word, acronym or name in
                # code spells it ("Samsung"; not "SIM", "Crash" of "Crash-free"), nor a people's or a
                # language's ("Korean-inspired", "Moroccan-style"), four letters or more ("Eco-friendly")
                # (session 23)
                name = name[: modified.start()]
                if (" " in name or len(name) < 4 or name.isupper() or _INNER_CAPITAL.search(name) or not name.isalpha()
                        or is_english_word(name) or name in _LANGUAGES or name.endswith(_PEOPLES_ENDINGS)):
                    continue
            if match.start() and sentence[match.start() - 1] in "-:" and _GLUED.search(sentence, 0, match.start()):
                continue  # "-Xmx1g", "-XX:MaxRAMPercentage=75", "tokio::sync::Mutex": a flag or a name
                # in code, glued to the dash or the colon before it (session 17)
            if (sentence[match.end(): match.end() + 1] in ("(", "<") or (match.start() and sentence[match.start() - 1] == ".")
                    or ("`" in sentence and sentence.count("`", 0, match.start()) % 2)):
                continue  # "httpx.HTTPTransport(retries=3)", "Rc<RefCell<…>>", "`aiohttp.ClientTimeout`": a
                # name in code, called, typed with, reached through a module or in backticks; named
                # in plain words elsewhere it is still found there (session 17)
            if sentence[match.end(): match.end() + 2] == "[]" or (
                    match.start() > 4 and _DECLARED.search(sentence, max(0, match.start() - 10), match.start())):
                continue  # "data: Order[]", "a struct Renderer", "derive Clone on Token", "class ShiftTimeError":
                # a type declared or derived in code, a name in code (session 23)
            said = said or _trim(sentence, 120)
            if kind == "name" and (" " in name or "-" in name or "–" in name) and _DATE_NAME.fullmatch(name):
                kind = "date"  # "Christmas Day", "Boxing Day", "Mon-Wed": a day, not a name (session 20)
            if kind == "date":
                out.append(Entity(name, "date", said))
                continue
            if " " not in name and (gerund or (start if start is not None else _opens(sentence, match.start()))
                                    or _opens_quote(sentence, match.start())) and not _NAMED_PAIR.match(sentence, match.end()) and not _INNER_CAPITAL.search(name) \
                    and name not in _ORG_ACRONYMS and (gerund or (name not in PROPER_NAMES and not _unknown_word(name, sentence, match.end()))):
                continue  # a sentence start ("Applying ...") or a gerund, not a name (unless
                # paired with another: "Crete or Sardinia?", or written with a capital inside, as no
                # word is: "PagerDuty paged…", "OpenSearch lags…" (session 17); or an organisation's
                # letters, "HMRC says…", or a proper name no English word spells, "Daniel cries…",
                # "Rotterdam is done" (session 18))
            if i == 0 and name.isupper() and len(name) <= 3 and name not in _ORG_ACRONYMS:
                continue
            if (name.count(" ") == 1 and _NUMBER_WORD.fullmatch(name[name.index(" ") + 1:])
                    and (start if start is not None else _opens(sentence, match.start()))):
                continue  # "Routes 4 and 7 both cross it", "Forklift 3 is still out", "Average 38 on Mill
                # Lane": a word opening the sentence is no name, nor is it with a number after it (session 17)
            if name in _SHORT_MONTHS and _SHORT_MONTH_AFTER.search(sentence, 0, match.start()):
                continue  # "14 Feb": a date written short (session 13)
            if " " not in name and _TIER_AFTER.match(sentence, match.end()):
                continue  # "the Team plan", "my Pro subscription": a product's tier, not a name
            if " " not in name and (name in _SCREENS or (match.start() > 10 and _SCREEN_BEFORE.search(
                    sentence, max(0, match.start() - 20), match.start()))) and is_english_word(name):
                continue  # "in Settings", "the app under Extras", "under Profile, then Documents": an app's
                # screen or a menu's entry, a word (session 40)
            if " " not in name and match.start() > 3 and _CONTROL_VERB_BEFORE.search(
                    sentence, max(0, match.start() - 16), match.start()) and is_english_word(name):
                continue  # "after tapping Read with Kindle", "open Shelf", "tick Unblock": a control's or a
                # screen's label a step touches, a word (session 40); "open Spotify" keeps its name
            if " " not in name and _CONTROL_AFTER.match(sentence, match.end()) and is_english_word(name):
                continue  # "the Pay button", "an Accept header", "a Light fare": a control's, a field's or
                # a fare's label, a word (session 23); "the Klarna button" keeps its name
            if (" " not in name and name.endswith(("ian", "ese", "ish"))
                    and _ADJECTIVE_BEFORE.search(sentence, max(0, match.start() - 24), match.start())):
                continue  # "the little Sicilian place", "in German": a people's adjective or a language
            if kind == "name" and (place := _PLACE_NOUN_AFTER.match(sentence, match.end())) is not None and (
                    match.group(1).endswith(name) and not name.isupper()):
                # "the Hartmann lab", "Riverside community centre", "Ripon racecourse": a place named by
                # a name and the kind of place after it, written small, is one name (session 39)
                name, kind = f"{name} {place.group(1)}", "place"
            if kind == "name" and _KIND_BEFORE.search(
                    before := sentence[max(0, match.start() - 24) : match.start()].lower()) is not None:
                if _ORG_BEFORE.search(before):
                    kind = "organization"
                elif _PLACE_BEFORE.search(before):
                    kind = "place"
                elif _PET_BEFORE.search(before):
                    kind = "pet"
                elif _KIN_BEFORE.search(before):
                    kind = "person"
            out.append(Entity(name, kind, said))
        for name in _LOWER_LEAD.findall(sentence) if _lower_upper(sentence) else ():  # "iPhone", "eBay" (session 13)
            out.append(Entity(name, "name", said or _trim(sentence, 120)))
        given: set[str] = set()
        if (" like " in sentence or " such as " in sentence) and any(k in sentence for k in _LIKE_KINDS):
            for listed in _LIKE_PACKAGE.findall(sentence):
                # "a library like pendulum or arrow": each name given as an example of a package
                # (session 19)
                for name in re.split(r",\s+(?:(?:or|and)\s+)?|\s+(?:or|and)\s+", listed):
                    if name not in STOPWORDS and name not in _FILLER and name not in given:
                        given.add(name)
                        out.append(Entity(name, "name", said or _trim(sentence, 120)))
        for found in (() if not _may_name_software(sentence) else _SOFTWARE_WORD.finditer(sentence)):
            # "structlog", "httpx", "pytest-xdist": a well-known package's name written in lower
            # case, which no English word spells (tools/software_names.py) (session 17); "pandas",
            # "tenacity": one an English word spells but code does not, a name only in a
            # conversation about software (``_extract``) (session 19)
            name = found.group()
            if name in SOFTWARE or name in TOOLS:  # "nginx", "pg_dump" (session 40)
                out.append(Entity(name, "name", said or _trim(sentence, 120)))
            elif name in SERVICES and not _common_noun(sentence, found.start(), found.end()):
                out.append(Entity(name, "name", said or _trim(sentence, 120)))  # "parkrun", "giffgaff" (session 41)
            elif name in SOFTWARE_WORDS and name not in given:
                out.append(Entity(name, _PACKAGE_WORD, said or _trim(sentence, 120)))
        return out

    @staticmethod
    def _facts(sentence: str, seq: int, me: str = "user") -> list[Fact]:
        """The first-person patterns' facts of one sentence of the user's; ``me``: who "I"
        is (:func:`memlane.index.people.speaker_subject`)."""
        out = []
        low = sentence.lower()
        present = {w for w in _FACT_WORDS if w in low}
        for (pattern, subject, predicate), guard in zip(_FIRST_PERSON, _FACT_GUARDS, strict=True):
            if present.isdisjoint(guard):
                continue
            for match in pattern.finditer(sentence):
                groups = [g for g in match.groups() if g is not None]
                if not groups or not asserted(sentence, match.start(), match.end()):
                    continue  # a question, a hypothesis, a hedge, quoted words (index/people.py)
                value = _clean_value(groups[-1])
                if predicate is None:
                    pred = groups[0].lower()
                elif "{0}" in predicate:
                    if len(groups) < 2:
                        continue
                    if predicate == "{0}" and groups[0].rsplit(" ", 1)[-1].lower() in KIN_WORDS:
                        continue  # "my son is allergic to peanuts": said of the son (index/people.py)
                    if predicate == "{0}" and _passing(groups[0], groups[-1]):
                        continue  # "my neck is cold", "my current one is getting worn out" (session 21)
                    pred = predicate.format(groups[0].lower().replace(" ", "_"))
                else:
                    pred = predicate
                if not value or pred in _NOT_A_FACT or len(value) < 2:
                    continue
                if pred == "likes" and _REACTION.match(groups[-1].strip(" \"'`,:-")) is not None:
                    continue  # "I like the idea of…", "I love how…", "I like those tips" (session 21)
                if pred == "acquired" and not _acquired(sentence[match.start(): match.start(match.lastindex or 0)],
                                                        groups[-1]):
                    back = _BACK_FROM.match(value)
                    if back is not None and len(value) > back.end() + 1:  # "got back from a cousin's wedding": been there
                        out.append(Fact(me, "visited", value[back.end():], "stated", seq, _trim(sentence, 200)))
                    continue  # "I got back from Europe", "I got paged", "I got a penalty fare" (session 21)
                if value.lower() in _FILLER or value.lower().startswith(("not ", "going ", "so ", "very ")):
                    continue
                out.append(Fact(me if subject == "user" else subject, normalize_predicate(pred), value,
                                "stated", seq, _trim(sentence, 200)))
        return out

    @staticmethod
    def _with_states(extraction: Extraction, messages: Sequence[Message],
                     turns: Sequence[tuple[str, str, list[str]]]) -> Extraction:
        """Facts about the state of things that a participant states with a number (session
        14): a named thing's date, the speaker's dated arrangement, the speaker's count of
        something (:meth:`_states`), the number in digits or, since session 54, in words. Not the assistant's words (but since
        session 54 its clause about the user's own thing, :data:`_YOURS`), not a question, a plan, a
        request, a hedge or an opinion (since session 53 a clause of one: the sentence's other
        clauses are read). Until session 53 not a sentence the cues placed as a decision or a
        step either; now it is read too ("The trial ends 19 July" placed as a decision is still
        the trial's end)."""
        firsts = _turn_messages(messages)
        several = _several(messages)
        facts = list(extraction.facts)
        for t, (who, role, sentences) in enumerate(turns):
            if role not in ("user", "assistant") or t >= len(firsts):
                continue
            yours = role == "assistant"  # the assistant reads the user's own thing (session 54)
            speaker = speaker_subject(firsts[t])
            we = "team" if several else speaker
            for sentence in sentences:
                if sentence.endswith("?") or (yours and "your" not in sentence.lower()):
                    continue
                # (each pattern behind what its every match holds, a digit and a day's or a
                # month's letters: most sentences hold neither; session 35, the cost)
                if ((_DIGIT.search(sentence) is None or _AMOUNT.search(sentence) is None)
                        and (not any(w in sentence for w in _DAY_WORDS) or _DAY_NAMED.search(sentence) is None)
                        and _AMOUNT_WORD.search(sentence) is None):
                    continue
                # a plan, a hedge or a question in one clause leaves the others stated: "ok, I'll have a
                # go at the weekend, the script's 200 lines" (session 53)
                parts = [sentence] if not yours and _NOT_STATED.search(sentence) is None else [
                    c for c in _CLAUSE.split(sentence.rstrip(".!")) if _NOT_STATED.search(c) is None
                    and (not yours or _YOURS.match(_SUBJECT_LEAD.sub("", c.strip())) is not None)]
                for f in [f for part in parts for f in OfflineIntelligence._states(
                        part, speaker, we, firsts[t].seq, amounts=len(firsts[t].text) <= _PASTED, said=sentence)]:
                    said = f.object.lower()
                    # what a first-person pattern already read from the turn ("an 11 hour layover")
                    if not any(g.seq == f.seq and (g.object.lower() in said or said in g.object.lower())
                               for g in facts):
                        facts.append(f)
        return replace(extraction, facts=tuple(facts))

    @staticmethod
    def _named_day(clause: str, sentence: str, seq: int) -> list[Fact]:
        """A named thing's day said by its name, no number (session 21): "The November issue
        closes Friday" (``November issue``, ``closes``, "closes Friday"), "The book club is on
        Thursdays" (``date``); the day within two words of the verb of state."""
        for day in _DAY_NAMED.finditer(clause):
            head = clause[: day.start()]
            state = _STATE.match(head) or _STATE_IS.match(head)
            if (state is None or len(head[state.end():].split()) > 2 or state.group(1).lower() in STOPWORDS
                    or state.group(1).lower() in _DEICTIC):
                continue
            subject, obj, pred = _dated_state(state, clause)
            obj = obj.strip(" ,")
            if len(obj) > 1 and ". " not in obj:
                return [Fact(subject, normalize_predicate(pred), _trim(obj, 160), "stated", seq, _trim(sentence, 200))]
        return []

    @staticmethod
    def _states(sentence: str, speaker: str, we: str, seq: int, amounts: bool = True,
                said: str | None = None) -> list[Fact]:
        """The facts of one sentence, a clause at a time: "Mock exams start on the 8th" (``Mock
        exams``, ``starts``, single-valued: a later date supersedes it), "I've got rent going out
        on the 1st" (the speaker, ``scheduled``, multi-valued), "We run 14 delivery vans" (``we``:
        the speaker, or ``team`` when several people talk; ``vans``, single-valued); with
        ``amounts``, a named thing's amount or count (session 21): "The orders table has about 40M
        rows" (``orders table``, ``rows``), "The kit fund is £310" (``kit fund``, ``amount``),
        "Yesterday's outage lasted 47 minutes" (``Yesterday's outage``, ``minutes``), single-valued;
        since session 54 a number said in words too ("The club has twelve kayaks", not a day), in
        a clause with no digits and no day named, a bare number after "is" or "has" ("The quote is
        380,000", ``amount``), "got" and what a named thing "says" or "said" ("The lease says 14
        days' notice": ``days``, "14 days' notice"). ``said``: the whole sentence when ``sentence`` is a clause of it (the facts' evidence)."""
        out: list[Fact] = []
        for clause in _CLAUSE.split(sentence.rstrip(".!")):
            clause = _SUBJECT_LEAD.sub("", clause).strip()
            number = _AMOUNT.search(clause)
            worded = False
            if number is None:
                days = OfflineIntelligence._named_day(clause, said or sentence, seq)
                number = None if days else _AMOUNT_WORD.search(clause)
                if number is None:
                    out.extend(days)
                    continue
                worded = True  # a number said in words (session 54): a count or an amount, no day
            head, after = clause[: number.start()], clause[number.end():]
            dated = not worded and _DATE_AFTER.match(after) is not None and (
                not after[:1].isalpha() or _DAY_BEFORE.search(head) is not None)
            if (first := _FIRST_STATE.match(head)) is not None:
                subject, obj = (speaker if first.group(1).lower() == "i" else we), clause[first.end():]
                if dated:
                    pred = "scheduled"
                elif first.group(0).lower().endswith(("'m", "’m", " am", "'re", "’re", " are")) and len(
                        clause[first.end(): number.start()].split()) > 2:
                    continue  # "I'm currently using size 9 filters": a state, but of nothing counted
                else:
                    cash = _MONEY_AFTER.match(after)
                    pred = "" if cash is not None else _counts(after)
                    if not pred and first.group(0).lower().endswith(("have", "got")) and (
                            cash is not None or number.group(0)[:1] in "£$€" or _HELD_IN.match(after) is not None):
                        pred = "stated"  # money the speaker holds: "We've got £640 in the kitty" (fct56b)
                    if not pred:
                        continue
            elif dated and (state := _named_state(head)) is not None:
                subject, obj, pred = _dated_state(state, clause)
                if state.re is _STATE_SAYS:  # what is said: "whois says expired 26 November"
                    obj = clause[state.end(2):]
            elif amounts and not dated and (state := _named_state(head)) is not None:
                # a named thing's amount or count (session 21): "The orders table has about 40M
                # rows" (rows), "The 7-day JR Pass costs 50,000 yen" (costs), "The kit fund is £310"
                subject, obj = state.group(1), clause[state.start(2):].lstrip()
                verb = state.group(2).strip().lower()
                if state.re is _STATE_SAYS:  # what is said: "The lease says 14 days' notice" (session 54)
                    obj = clause[state.end(2):]
                if verb in ("'s", "’s"):
                    rest = head[state.end(2):].split()
                    if _IS_AMOUNT.fullmatch(head[state.end(2):]) is not None:
                        verb, obj = "is", "is " + obj[2:].lstrip()
                    elif len(rest) >= 2:  # "Yesterday's outage lasted 47 minutes": a possessive
                        subject = f"{subject}{verb} {' '.join(rest[:-1])}"
                        verb, obj = rest[-1].lower(), clause[len(head.rstrip()) - len(rest[-1]):]
                    else:
                        continue
                if (subject.lower() in STOPWORDS or ". " in obj or "(" in subject
                        or subject.split(None, 1)[0].lower() in _INSTRUCTION):
                    continue
                cash = _MONEY_AFTER.match(after)
                money = number.group(0)[:1] in "£$€" or (cash is not None and (
                    cash.group(0).strip().lower() not in ("k", "m", "bn") or not _counted(after[cash.end():])))
                if money:
                    pred = "amount" if verb in ("is", "are", "has", "have") else verb.split()[0]
                else:  # "40M rows": the number's multiplier, then what it counts
                    pred = _counts(after[cash.end():] if cash is not None else after)
                    if (not pred and verb in ("is", "are", "was", "were", "has", "have") and not after.strip()
                            and len(head[state.end(2):].split()) <= 2):
                        # a bare number ends the clause, at most two words after the verb: "The quote
                        # is 380,000", "The reserve has 240,000", "Sam is 7" (session 54)
                        pred = "amount" if verb in ("is", "are", "has", "have") else verb
                    elif not pred:
                        continue
            elif (amounts and not dated and (it := _IT_AGED.match(head)) is not None
                  and _IS_AMOUNT.fullmatch(head[it.end():]) is not None and _YEARS_OLD.match(after) is not None):
                # the age of the thing said before: "Let's keep the bath, the boiler's the worry, it's 19
                # years old" (session 57): what the speaker stated, as a fragment is (multi-valued)
                subject, pred, obj = speaker, "stated", clause[it.end():]
            elif amounts and not dated and (frag := _fragment(clause, head, said or sentence)) is not None:
                # a fragment with no subject, opening with its number: "Twelve mowers entered so
                # far", "About 40 square metres", "£40 each", "There are 14 commits" (session 55):
                # what the speaker stated (multi-valued: with no subject of its own, one such
                # fragment is no later value of another's, "5 years already" of "Seven years now")
                if _MONEY_AFTER.match(after) is None and number.group(0)[:1] not in "£$€" and not _counts(after):
                    continue
                subject, pred, obj = speaker, "stated", frag
            else:
                continue
            obj = obj.strip(" ,")
            # "I'm not buying three hats": no state of having (session 54)
            if len(obj) > 1 and not obj.lower().startswith(("not ", "never ")):
                out.append(Fact(subject, normalize_predicate(pred), _trim(obj, 160), "stated", seq,
                                _trim(said or sentence, 200)))
        return out
