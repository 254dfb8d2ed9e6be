"""Facts that end (session 22): "I no longer work at Acme", "I quit my job at Acme", "I'm not
vegetarian anymore", "I sold my Corolla", "we broke up", "I moved out of Leeds".

An ending is stored as a fact row of its own with status ``ended`` (no item: it is in no
search and no pack) naming the subject, the predicate and the value it ends (``""``: any
value, "I quit my job"). Storing it supersedes the matching current values stated before it
(``memlane.index.facts.end_fact``); a value stated after it is current again. This module
holds the parts without a store: which predicates an ending reaches, whether an ended value
is a stored one, and how a sentence that ends a fact is read (as the positive statement it
ends, which the fact readers already know: "I don't live in Berlin anymore" is read as
"I live in Berlin", so every predicate they read can end the same way).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from memlane.index.normalize import CAPITAL, NAME_WORD, normalize_predicate, normalize_value
from memlane.index.schema import Fact
from memlane.types import Message

__all__ = ["ENDED", "FAMILIES", "corrections", "direct_endings", "ends", "families_of", "family",
           "positive_clauses", "still_answers", "with_endings"]

ENDED = "ended"
"""A fact row's status when it records an ending rather than a value."""

FAMILIES: dict[str, tuple[str, ...]] = {
    "has": ("has", "acquired", "owns", "bought"),
    "works_at": ("works_at", "works_for", "employer"),
    "lives_in": ("lives_in", "based_in"),
    "likes": ("likes", "loves", "enjoys"),
    "partner": ("partner", "girlfriend", "boyfriend", "wife", "husband", "spouse", "fiance", "fiancee"),
}
"""An ending's predicate -> the predicates whose values it ends ("I sold my Corolla" ends
what "I have a Corolla", "I bought a Corolla" and an ``owns`` fact said). A predicate in no
family ends only itself."""


def family(predicate: str) -> tuple[str, ...]:
    """The predicates an ending of ``predicate`` reaches."""
    pred = normalize_predicate(predicate)
    return FAMILIES.get(pred, (pred,))


def families_of(predicate: str) -> tuple[str, ...]:
    """The ending predicates whose endings reach ``predicate`` (itself first)."""
    pred = normalize_predicate(predicate)
    return (pred, *(k for k, v in FAMILIES.items() if pred in v and k != pred))


def ends(ended: str, value: str) -> bool:
    """Whether an ending naming ``ended`` (normalized; ``""``: any value) ends a stored value
    (normalized): the same value, or every word of the ended one in the stored one ("Corolla"
    ends "2015 Toyota Corolla"; "Acme early" does not end "Acme")."""
    if not ended:
        return True
    if ended == value:
        return True
    said, stored = ended.split(), value.split()
    return bool(said) and set(said) <= set(stored)


def norm(value: str) -> str:
    return normalize_value(value)


# -- reading an ending --------------------------------------------------------------------
_ADV = r"(?:\s+(?:just|recently|finally|actually|officially|already|eventually|also|now|since))*"
_MARK = re.compile(r"\b(?:no\s+longer|any\s?more)\b", re.IGNORECASE)
"""The words that make a negation an ending: "I don't live in Leeds anymore"; a plain "I don't
work at Globex" corrects, and is not read as one."""
_CUT_AFTER = re.compile(r"\s*\b(?:any\s?more|these\s+days|now)\b.*$", re.IGNORECASE)
_NEGATION = re.compile(
    r"(?P<subj>(?:^|(?<=[\s,;:(]))(?:I|[Ww]e|[Mm]y\s+(?:[\w-]+\s+){0,2}?[\w-]+(?:\s+" + NAME_WORD + r")?|" + NAME_WORD
    + r"(?:\s+" + NAME_WORD + r")?))(?P<neg>(?:\s+(?:am|is|are)\s+not|\s+(?:isn['’]t|aren['’]t)|['’](?:m|s|re)\s+not|"
    r"\s+(?:don['’]t|do\s+not|doesn['’]t|does\s+not)|\s+(?:haven['’]t|hasn['’]t)(?=\s+got\b)|"
    r"(?:\s+(?:am|is|are)|['’](?:m|s|re))?\s+no\s+longer)" + _ADV + r")(?=\s)")
"""A subject and its negated verb: "I don't", "I'm not", "my sister no longer", "Tom doesn't"."""


def _positive(subject: str, neg: str, rest: str) -> str:
    """The statement a negation denies, with the subject's own words: "I don't live in Leeds"
    -> "I live in Leeds", "Tom doesn't have a car" -> "Tom has a car", "I'm not vegan" ->
    "I'm vegan", "my sister no longer lives in Porto" -> "my sister lives in Porto"."""
    low = neg.lower().replace("’", "'")
    rest = rest.lstrip()
    if "doesn't" in low or "does not" in low:
        verb, _, tail = rest.partition(" ")
        third = {"have": "has", "do": "does", "go": "goes"}.get(verb.lower())
        if third is None:
            third = verb + ("es" if verb.endswith(("sh", "ch", "x", "s")) else "s")
        return f"{subject} {third} {tail}".strip()
    if "don't" in low or "do not" in low:
        return f"{subject} {rest}"
    if "haven't" in low:
        return f"{subject} have {rest}"
    if "hasn't" in low:
        return f"{subject} has {rest}"
    be = re.search(r"\b(am|is|are)\b|['’](m|s|re)\b|\bisn['’]t|\baren['’]t", neg, re.IGNORECASE)
    if be is not None:
        word = be.group(0).lower().replace("’", "'")
        word = {"isn't": " is", "aren't": " are", "'m": "'m", "'s": "'s", "'re": "'re"}.get(word, " " + word)
        return f"{subject}{word} {rest}"
    # "no longer" alone: "I no longer work at Acme", "Tom no longer lives in Leeds"
    return f"{subject} {rest}"


_VALUE = r"((?:\b(?:St|Mt|Ft|Dr|Mr|Mrs|Ms)\.\s|[^.!?;,:\n()]){1,60}?)"
_VALUE_END = (r"(?=\s*(?:[.!?;,:](?!\w)|\n|\)|\s[-–—]\s|$|\s+(?:and|but|so|because|since|after|when|"
              r"last|this|in\s+(?:\d{4}|January|February|March|April|May|June|July|August|September|October|"
              r"November|December)|(?:a|two|three|four|five|six|\d+)\s+(?:weeks?|months?|years?)\s+ago|ago|"
              r"for\s+(?=" + CAPITAL + r")|to\s+(?:join|work|start|move|go)|for\s+good|now|yesterday|today|recently|"
              r"btw|though)\b))")
_SUBJ = (r"(?P<subj>(?:^|(?<=[\s,;:(]))(?:I|[Ww]e|[Mm]y\s+(?:[\w-]+\s+){0,2}?[\w-]+(?:\s+" + NAME_WORD + r")?|"
         + NAME_WORD + r"(?:\s+" + NAME_WORD + r")?))" + _ADV)
_VERBS: list[tuple[re.Pattern[str], str]] = [
    # a job left: "I quit my job at Acme", "Tom left Acme", "I was laid off from Globex"
    (re.compile(_SUBJ + r"\s+(?:(?:have|has)\s+|['’]ve\s+|['’]s\s+)?(?:quit|left|resigned\s+from|retired\s+from|"
                r"walked\s+out\s+of|stopped\s+working\s+(?:at|for)|(?:was|were|got|been)\s+(?:laid\s+off|let\s+go|"
                r"fired|sacked|made\s+redundant)\s+(?:from|at|by))\s+(?:(?:my|his|her|their|our)\s+(?:job|position|"
                r"role|post)\s+(?:at|with)\s+)?(?=(?:the\s+)?" + CAPITAL + r")" + _VALUE + _VALUE_END), "{subj} work at {0}"),
    # a home left: "I moved out of Leeds", "we moved away from York", "I moved from Leeds to York"
    (re.compile(_SUBJ + r"\s+(?:(?:have|has)\s+|['’]ve\s+|['’]s\s+)?(?:moved|relocated)\s+(?:out\s+of|away\s+from|"
                r"from)\s+(?=(?:the\s+)?" + CAPITAL + r")" + _VALUE
                + r"(?=\s*(?:[.!?;,:](?!\w)|\n|$|\s+(?:to|and|but|so|because|last|in|after|a|two|three|ago|for|now)\b))"),
     "{subj} live in {0}"),
    # a thing given up: "I sold my Corolla", "we got rid of the old sofa"
    (re.compile(_SUBJ + r"\s+(?:(?:have|has)\s+|['’]ve\s+)?(?:sold|got\s+rid\s+of|gave\s+away|given\s+away|"
                r"traded\s+in|scrapped|donated)\s+(?:my|our|the)\s+(?:old\s+)?" + _VALUE + _VALUE_END),
     "{subj} have a {0}"),
    # a diet given up: "I stopped being vegetarian", "I gave up being vegan", "I came off the keto diet"
    (re.compile(_SUBJ + r"\s+(?:(?:have|has)\s+|['’]ve\s+)?(?:stopped|gave\s+up|given\s+up|quit)\s+being\s+"
                r"(?:an?\s+)?(vegetarian|vegan|pescatarian|pescetarian|teetotal|plant-based|keto)\b"), "{subj}'m {0}"),
    (re.compile(_SUBJ + r"\s+(?:(?:have|has)\s+|['’]ve\s+)?(?:came|come|went|gone|am|is|are|['’]m)\s+off\s+"
                r"(?:the|my|a|his|her)\s+((?:[a-z][\w-]*\s+){0,2}?[a-z][\w-]*\s+diet)\b"), "{subj}'m on a {0}"),
    # a liking lost: "I stopped liking jazz", "I've gone off coffee"
    (re.compile(_SUBJ + r"\s+(?:(?:have|has)\s+|['’]ve\s+)?(?:stopped\s+(?:liking|enjoying)|gone\s+off|went\s+off)\s+"
                + _VALUE + _VALUE_END), "{subj} like {0}"),
    # a tool dropped: "I stopped using Notion", "we switched from Jira to Linear"
    (re.compile(_SUBJ + r"\s+(?:(?:have|has)\s+|['’]ve\s+)?(?:stopped\s+using|switched\s+(?:away\s+)?from|"
                r"migrated\s+(?:off|away\s+from)|moved\s+off)\s+" + _VALUE
                + r"(?=\s*(?:[.!?;,:](?!\w)|\n|$|\s+(?:to|for|and|but|so|because|last|in|after|now)\b))"),
     "{subj} use {0}"),
    # an allergy outgrown: "I outgrew my peanut allergy"
    (re.compile(_SUBJ + r"\s+(?:(?:have|has)\s+|['’]ve\s+)?(?:outgrew|outgrown|grew\s+out\s+of|grown\s+out\s+of)\s+"
                r"(?:my|his|her|the)\s+([a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+allerg(?:y|ies)\b"), "{subj}'m allergic to {0}"),
    # a job given up: "I stopped working as a nurse"
    (re.compile(_SUBJ + r"\s+(?:(?:have|has)\s+|['’]ve\s+)?(?:stopped|quit|gave\s+up)\s+(?:working\s+as|being)\s+"
                r"(an?\s+(?:[\w-]+\s+){0,2}?[\w-]+)" + _VALUE_END), "{subj}'m {0}"),
]
"""Verbs that end a fact, each with the statement it ends (``{subj}``: the subject's own words)."""

_NEW_AFTER = re.compile(
    r"^\s*(?:,?\s+and|,)?\s+(?:(?:have|'ve)\s+)?(?:now\s+)?(?:joined|started\s+(?:working\s+)?at|work\s+(?:at|for)|"
    r"started\s+a\s+(?:new\s+)?job\s+at|went\s+to\s+work\s+(?:at|for)|moved\s+to|for|to\s+join)\s+"
    r"(?=(?:the\s+)?" + CAPITAL + r")" + _VALUE + _VALUE_END)
"""The new value an ending's sentence names after it: "I left Acme and joined Globex", "I left
Acme for Globex", "I moved from Leeds to York"."""
_TO = re.compile(r"^\s+to\s+(?=(?:the\s+)?" + CAPITAL + r")" + _VALUE + _VALUE_END)

_SPLIT = (r"(?:\s+(?:have|had|just|finally|recently|officially|now))*\s+(?:broke\s+up|broken\s+up|split\s+up|"
          r"separated|got\s+divorced|are\s+divorced|are\s+separated)")
_PAIR = re.compile(r"(?:^|(?<=[\s,;:(]))(?:(?:[Mm]y\s+(?:girlfriend|boyfriend|partner|wife|husband|fianc[ée]e?)"
                   r"(?:\s+(?P<kn>" + NAME_WORD + r"))?)|(?P<name>" + NAME_WORD + r"))\s+and\s+I" + _SPLIT + r"\b")
"""The user's relationship that ended: "Sam and I split up", "my girlfriend and I broke up"."""
_WE_SPLIT = re.compile(r"(?:^|(?<=[\s,;:(]))[Ww]e" + _SPLIT + r"\b(?!\s+(?:with|from)\b)")
"""The user's relationship that ended, in a chat with the assistant: "we broke up"."""
_SPLIT_WITH = re.compile(_SUBJ + r"(?:\s+(?:have|has|had))?\s+(?:broke\s+up|broken\s+up|split\s+up|separated)\s+"
                         r"(?:with|from)\s+(?:(?:my|his|her)\s+(?:girlfriend|boyfriend|partner|wife|husband)\s*)?"
                         r"(?P<name>" + NAME_WORD + r")?\b|" + _SUBJ.replace("(?P<subj>", "(?P<subj2>")
                         + r"(?:\s+(?:have|has))?\s+(?:divorced|got\s+divorced\s+from)\s+(?P<name2>" + NAME_WORD + r")\b")
"""A relationship of a subject's that ended: "I broke up with Sam", "my sister divorced Tom"."""
_JOB_LEFT = re.compile(_SUBJ + r"\s+(?:(?:have|has)\s+|['’]ve\s+|['’]s\s+)?(?:(?:quit|left|lost|resigned\s+from)\s+"
                       r"(?:my|his|her|their)\s+(?:job|position|role)\b(?!\s+(?:at|with|as|search|hunt)\b)|"
                       r"(?:was|were|got|been)\s+(?:laid\s+off|let\s+go|fired|sacked|made\s+redundant)\b"
                       r"(?!\s+(?:from|at|by|of|up|for)\b))")
"""A job left without naming the employer: "I quit my job", "I got laid off" (any ``works_at``)."""
_MEAT_AGAIN = re.compile(_SUBJ + r"\s+(?:(?:have|has)\s+|['’]ve\s+|['’]m\s+|am\s+)?(?:started\s+eating|eat|eating|"
                         r"went\s+back\s+to\s+eating|gone\s+back\s+to\s+eating)\s+meat\s+again\b")


_THIRD = {"work": "works", "live": "lives", "have": "has", "like": "likes", "use": "uses", "'m": " is"}


def _agree(subject: str, said: str) -> str:
    """"Tom work at Acme" -> "Tom works at Acme": the verb after a subject that is not "I" or
    "we" in its third-person form, as the readers expect it."""
    if subject.lower() in ("i", "we"):
        return said
    rest = said[len(subject):]
    verb = rest.split(" ", 2)[1] if rest.startswith(" ") and len(rest.split(" ")) > 1 else rest.split(" ", 1)[0]
    if rest.startswith(" ") and verb in _THIRD:
        return subject + " " + _THIRD[verb] + rest[len(verb) + 1:]
    if rest.startswith("'m"):
        return subject + " is" + rest[2:]
    return said


def positive_clauses(sentence: str) -> list[tuple[str, int, str | None]]:
    """The statements ``sentence`` ends, as the positive clauses the fact readers read,
    each with where its subject starts in ``sentence`` (to check it is the speaker's plain
    statement there) and a new value's clause when one is named after it ("… and joined
    Globex" -> "I work at Globex"). Nothing from a question."""
    if sentence.rstrip().endswith("?"):
        return []
    out: list[tuple[str, int, str | None]] = []
    if _MARK.search(sentence):
        for m in _NEGATION.finditer(sentence):
            tail = sentence[m.end():]
            clause = re.split(r"[,;:!?]|\.(?:\s|$)|\s[-–—]\s|\s+(?:but|because|since|so|though)\s+", tail, maxsplit=1)[0]
            if not _MARK.search(m.group("neg") + clause):
                continue  # "I don't work at Globex, I'm at Acme anymore…": the mark is another clause's
            clause = _CUT_AFTER.sub("", clause)
            if len(clause.split()) < 1:
                continue
            out.append((_positive(m.group("subj"), m.group("neg"), clause), m.start(), None))
    for pattern, template in _VERBS:
        for m in pattern.finditer(sentence):
            value = m.group(m.lastindex or 0).strip()
            if not value:
                continue
            subj = m.group("subj")
            said = _agree(subj, template.format(value, subj=subj))
            new = None
            after = sentence[m.end():]
            if (more := _NEW_AFTER.match(after)) is not None:
                new = (f"{subj} work at {more.group(1)}" if template.startswith("{subj} work")
                       else f"{subj} moved to {more.group(1)}" if template.startswith("{subj} live") else None)
            elif template.startswith("{subj} live") and (to := _TO.match(after)) is not None:
                new = f"{subj} moved to {to.group(1)}"
            elif template.startswith("{subj} use") and (to := _TO.match(after)) is not None:
                new = f"{subj} use {to.group(1)}"
            new = _agree(subj, new) if new else None
            out.append((said, m.start(), new))
    return out


def direct_endings(sentence: str) -> list[tuple[str, str, str, int]]:
    """Endings no positive statement says the same way: a relationship ("we broke up" ->
    (``we``, ``partner``, any), "I broke up with Sam" -> (``I``, ``partner``, "Sam")), a diet
    left by eating meat again (``diet``: vegetarian, vegan). Each is ``(the subject's words,
    predicate, value or "", where the subject starts)``; the caller resolves the subject."""
    if sentence.rstrip().endswith("?"):
        return []
    out: list[tuple[str, str, str, int]] = []
    for m in _PAIR.finditer(sentence):
        out.append(("I", "partner", m.group("kn") or m.group("name") or "", m.start()))
    for m in _WE_SPLIT.finditer(sentence):
        out.append(("we", "partner", "", m.start()))
    for m in _SPLIT_WITH.finditer(sentence):
        if m.group("subj2"):
            out.append((m.group("subj2"), "partner", m.group("name2") or "", m.start()))
        elif m.group("subj").lower() not in ("we",):
            out.append((m.group("subj"), "partner", m.group("name") or "", m.start()))
    for m in _JOB_LEFT.finditer(sentence):
        out.append((m.group("subj"), "works_at", "", m.start()))
    for m in _MEAT_AGAIN.finditer(sentence):
        out.append((m.group("subj"), "diet", "vegetarian", m.start()))
        out.append((m.group("subj"), "diet", "vegan", m.start()))
    return out


# -- a question about what still holds, answered short (session 23) ----------------------
_STILL_Q = re.compile(
    r"^(?:(?:so|and|but|oh|hey|btw|also|anyway|then|ok(?:ay)?|wait|sorry)\b[\s,]*)*"
    r"(?:(?P<aux>do|are|have)\s+you|you(?:['’]re|\s+are)?)\s+still\s+(?P<rest>[^?]{2,80}?)\s*\?\s*$",
    re.IGNORECASE)
"""Another speaker asking about a fact of the one they talk to that may have ended: "Do you
still live in Leeds?", "Are you still at Acme?", "You still vegetarian?", "Have you still
got the Corolla?"."""
_Q_CUT = re.compile(r"\s*(?:,|\bor\b|\bthese\s+days\b|\bnowadays\b|\bthen\b|\bat\s+all\b|\bnow\b).*$",
                    re.IGNORECASE)
_AT_ORG = re.compile(r"^(?:working\s+)?(?:at|for|with)\s+(?=(?:the\s+)?" + CAPITAL + r")(.+)$")
_IN_PLACE = re.compile(r"^(?:living\s+|based\s+)?in\s+(?=" + CAPITAL + r")(.+)$")
_NO = re.compile(
    r"^(?:(?:oh|well|ha(?:ha)*|sadly|actually|um+|er+)\s+)*(?:no+|nope|nah|(?:sadly|afraid)\s+not|"
    r"not\s+(?:any\s?more|any\s+longer|since\b.*|for\s+a\s+while|these\s+days|now)|no\s+longer\b.*|"
    r"(?:no\s+)?i\s+(?:don't|do\s+not|'m\s+not|am\s+not|haven't|have\s+not)(?:\s+any\s?more)?)$")
"""The first clause of an answer that says no: "No.", "Nope", "Not anymore", "No longer",
"Sadly not", "I don't", "Not since March"."""
_YES = re.compile(
    r"^(?:(?:oh|well|ha(?:ha)*)\s+)*(?:yes|yep|yeah|yup|ya|sure|of\s+course|absolutely|still|i\s+(?:do|am|have)|"
    r"i\s+still\s+(?:do|am|have)|i'm\s+still\s+there|still\s+(?:am|do|there|here|the\s+same))"
    r"(?:\s+(?:still|i\s+(?:do|am|have)|i\s+still\s+(?:do|am|have)|thankfully|for\s+now))*$")
"""The first clause of an answer that says yes: "Yes", "Yep, still", "Still there", "I do"."""
_NOT_AGAIN = re.compile(r"\b(?:not|no\s+longer|n't|never)\b", re.IGNORECASE)


def _asked_still(question: str) -> str | None:
    """The statement a question about what still holds asks about, in the answerer's words:
    "Do you still live in Leeds?" -> "I live in Leeds", "Are you still at Acme?" -> "I work
    at Acme", "Are you still in Leeds?" -> "I live in Leeds", "You still vegetarian?" -> "I'm
    vegetarian", "Have you still got the Corolla?" -> "I have the Corolla"."""
    m = _STILL_Q.search(question.strip())
    if m is None:
        return None
    rest = _Q_CUT.sub("", m.group("rest")).strip()
    if not rest or re.search(r"\b(?:you|your|me|us)\b", rest, re.IGNORECASE):
        return None  # "do you still want me to…", "are you still up for your run": not a fact of theirs
    aux = (m.group("aux") or "").lower()
    if aux == "have":
        return "I have " + re.sub(r"^got\s+", "", rest)
    if aux == "do":
        return "I " + rest
    if (org := _AT_ORG.match(rest)) is not None:
        return "I work at " + org.group(1)
    if (place := _IN_PLACE.match(rest)) is not None:
        return "I live in " + place.group(1)
    if aux == "are" or m.group(0).lower().startswith(("you're", "you’re", "you are")) or not aux:
        first = rest.split(" ", 1)[0].lower()
        if aux == "" and first in ("live", "work", "have", "own", "use", "play", "drive", "run"):
            return "I " + rest  # "You still live in Leeds?"
        return "I'm " + rest
    return None


def still_answers(messages: Sequence[Message]) -> list[tuple[Message, str, bool, str]]:
    """Short answers to a question about what still holds: ``(the answer, the statement
    asked about in the answerer's words, whether it still holds, the evidence)``. The
    question is the last sentence of the message just before the answer, by another speaker
    ("Do you still live in Leeds?"); the answer is a message of the user's whose first clause
    says no ("Not anymore.", "Nope, moved to York", "No longer") or yes ("Yes, still", "Yep",
    "I do"). Only the answerer's own facts ("you"): "Is Tom still at Acme?" is not read."""
    out: list[tuple[Message, str, bool, str]] = []
    ordered = sorted(messages, key=lambda m: m.seq)
    for before, m in zip(ordered, ordered[1:]):
        if m.role != "user" or (before.speaker or before.role) == (m.speaker or m.role):
            continue
        if before.text.isascii() and "still" not in before.text.lower():
            continue  # no question _STILL_Q reads (on ASCII text, ignoring case is lowering it)
        question = re.split(r"(?<=[.!?])\s+", before.text.strip())[-1]
        asked = _asked_still(question)
        if asked is None:
            continue
        text = m.text.strip().replace("’", "'")
        first = re.split(r"[,.!;:—–-]|\s-\s", text, maxsplit=1)[0].strip().lower()
        first = re.sub(r"\s+", " ", first)
        if not first or len(first.split()) > 6:
            continue
        ended = _NO.match(first) is not None or _MARK.match(first) is not None
        holds = not ended and _YES.match(first) is not None
        if holds:
            sentence = re.split(r"(?<=[.!?])\s+", text, maxsplit=1)[0]
            if _MARK.search(sentence) or _NOT_AGAIN.search(sentence):
                continue  # "Yeah, not anymore": no plain yes
        if ended or holds:
            evidence = " ".join(f"{question} — {m.text.strip()}".split())[:200]
            out.append((m, asked, holds, evidence))
    return out


_CORRECTION = re.compile(
    r"(?:(?:sorry|oops|whoops|my bad|my mistake|correction|no|nope|actually|wait|err?m?|ugh)\b[\s,.!:;—–-]*)*"
    r"(?:i meant(?: to say)?|i mean|make that|(?:i )?should have said|that should (?:be|say|read))\b[\s,:—–-]*"
    r"(?P<value>[^\s.!?,;][^.!?;]{0,60}?)[\s.!]*", re.IGNORECASE)
"""A short turn correcting what its speaker just said: "Sorry, I meant Tuesday", "Oops, make
that 3pm", "I should have said Porto" (the whole turn; the value at most four words)."""
_NOT_A_VALUE = re.compile(r"(?:to|that|it|this|what|because|like|well|you|we|he|she|they|i)\b", re.IGNORECASE)
"""A value that opens a clause, not a value: "I meant to ask", "I mean it", "I mean, you know"."""
_NUMBER = re.compile(r"\d+(?:[.,:]\d+)?(?:\s?(?:am|pm))?", re.IGNORECASE)


def _kind(word: str) -> str | None:
    """What a corrected value is, to find the word it replaces: a weekday, a month, a number
    (a time of day too), or a name (capitalized)."""
    from memlane.index.offline import _MONTHS, _WEEKDAYS

    bare = word.rstrip("s").capitalize() if word[:1].isalpha() else word
    if bare in _WEEKDAYS:
        return "weekday"
    if bare in _MONTHS:
        return "month"
    if _NUMBER.fullmatch(word):
        return "number"
    if word[:1].isupper():
        return "name"
    return None


def corrections(messages: Sequence[Message], facts: Sequence[Fact]) -> list[tuple[Fact, Fact]]:
    """What a user's correction of their own last turn says (session 26): ``(the value it
    ends, the value it states in its place)``, both at the correction's turn. "My dentist
    appointment is on Monday." — "Sorry, I meant Tuesday." ends ``on Monday`` and states
    ``on Tuesday``. The corrected value replaces the one word of its kind (a weekday, a
    month, a number, or the whole value when it is a name) in the one fact read from the
    speaker's previous turn that holds such a word; none or several: nothing is read."""
    out: list[tuple[Fact, Fact]] = []
    ordered = sorted(messages, key=lambda m: m.seq)
    last: dict[str, Message] = {}
    for m in ordered:
        if m.role != "user":
            continue
        who = m.speaker or m.role
        before, last[who] = last.get(who), m
        low = m.text.lower()
        if before is None or not any(w in low for w in ("meant", "mean ", "make that", "should ")):
            continue
        found = _CORRECTION.fullmatch(m.text.strip().replace("’", "'"))
        if found is None:
            continue
        # "Tuesday, not Monday", "Tuesday instead": the value alone
        value = " ".join(re.split(r",|\s(?:not|instead|rather)\b", found.group("value"))[0].split())
        kind = _kind(value.split()[0]) if value and not _NOT_A_VALUE.match(value) else None
        if kind == "name" and not (len(value.split()) <= 4 and all(w[:1].isupper() for w in value.split())):
            continue  # a name of up to four capitalized words: "New York", "Acme Labs"
        if kind is None or (kind != "name" and _kind(value) != kind and not _NUMBER.fullmatch(value)):
            continue  # one weekday, month or number: "Monday works too" says something else
        fixed: list[tuple[Fact, Fact]] = []
        for f in facts:
            if f.seq != before.seq:
                continue
            if kind == "name":
                words = f.object.split()
                if words and all(w[:1].isupper() for w in words) and f.object != value:
                    fixed.append((f, Fact(f.subject, f.predicate, value, f.source, m.seq, "")))
                continue
            hits = [w for w in re.findall(r"[\w:.]+(?:\s?(?:am|pm))?", f.object) if _kind(w) == kind]
            if len(hits) == 1 and hits[0] != value:
                new = f.object.replace(hits[0], value, 1)
                fixed.append((f, Fact(f.subject, f.predicate, new, f.source, m.seq, "")))
        if len(fixed) == 1:
            (old, new), = fixed
            evidence = " ".join(f"{before.text.strip()} — {m.text.strip()}".split())[:200]
            out.append((Fact(old.subject, old.predicate, old.object, "stated", m.seq, evidence),
                        Fact(new.subject, new.predicate, new.object, new.source, m.seq, evidence)))
    return out


_GATE = re.compile(
    r"no longer|any ?more|\bquit|\bleft\b|\blost\b|resign|retired from|laid off|let go|fired|sacked|redundant|"
    r"moved (?:out|away|from|off)|relocated (?:out|away|from)|\bsold\b|got rid|gave away|given away|traded in|"
    r"scrapped|donated|stopped|gave up|given up|came off|went off|gone off|come off|switched|migrated|outgr|"
    r"grew out|grown out|broke up|broken up|split up|separated|divorced|meat again|(?:'m|am|is|are) off")
"""Words one of the readings above needs (on the lower-cased text): a message without one is
not read for endings."""
_GATE_WORDS = (
    "no longer", "anymore", "any more", "quit", "left", "lost", "resign", "retired from", "laid off",
    "let go", "fired", "sacked", "redundant", "moved ", "relocated ", "sold", "got rid", "gave away",
    "given away", "traded in", "scrapped", "donated", "stopped", "gave up", "given up", "came off",
    "went off", "gone off", "come off", "switched", "migrated", "outgr", "grew out", "grown out",
    "broke up", "broken up", "split up", "separated", "divorced", "meat again", "'m off", "am off",
    "is off", "are off")
"""A piece of text every :data:`_GATE` match holds, one for each of its alternatives (found by
``in``, about four times cheaper than the pattern, which tries its forty alternatives at every
character): a text holding none is not searched with it (session 23, the cost)."""


def _gated(low: str) -> bool:
    """Whether :data:`_GATE` finds a word in ``low`` (lower-cased, "’" written "'")."""
    return any(w in low for w in _GATE_WORDS) and _GATE.search(low) is not None


def with_endings(extraction: Any, messages: Sequence[Message],
                 read: Callable[[str, int, str], list[Fact]],
                 sentences: Callable[[str], list[str]]) -> Any:
    """``extraction`` with the endings its user turns say (:data:`Extraction.endings`) and the
    values stated in place of what ended ("I left Acme and joined Globex": ``works_at``
    Globex, a fact). ``read``: the first-person readers (``OfflineIntelligence._facts``),
    ``sentences``: the sentence splitter. Each ending is read as the statement it ends (by
    ``read`` and :func:`memlane.index.people.people_facts`, with the session's names) and is
    the speaker's plain statement, as a fact must be: not a question, a condition, a hedge,
    quoted or reported words (:func:`memlane.index.people.asserted`)."""
    from dataclasses import replace

    from memlane.index.people import (
        _SUBJECT,
        KIN_PREDICATES,
        _subject,
        asserted,
        kin_names,
        people_facts,
        speaker_subject,
    )

    users = [m for m in messages if m.role == "user"]
    answers = still_answers(messages) if users else []
    gated = [m for m in users if _gated(m.text.lower().replace("’", "'"))]
    fixes = corrections(messages, extraction.facts) if users else []
    if not answers and not gated and not fixes:
        return extraction
    we = len({m.speaker or m.role for m in users}) <= 1
    facts = list(extraction.facts)
    names_of: dict[str, dict[str, str]] = {}
    endings: dict[tuple[str, str, str], Fact] = {}
    added: list[Fact] = []
    # "…on Monday." — "Sorry, I meant Tuesday.": the old value ends, the new one is stated
    for old, new in fixes:
        endings.setdefault((old.subject, normalize_predicate(old.predicate), old.object.lower()), old)
        added.append(new)
    # "Do you still live in Leeds?" — "Not anymore.": the answerer's own fact ends (or, "Yes,
    # still", is stated again), read as the statement the question asks about
    for m, asked, holds, evidence in answers:
        me = speaker_subject(m)
        for f in read(asked, m.seq, me):
            if f.subject != me:
                continue
            if holds:
                added.append(Fact(f.subject, f.predicate, f.object, "stated", m.seq, evidence))
            else:
                key = (f.subject, normalize_predicate(f.predicate), f.object.lower())
                endings.setdefault(key, Fact(f.subject, f.predicate, f.object, "stated", m.seq, evidence))
    for m in gated:
        me = speaker_subject(m)
        names = names_of.setdefault(me, kin_names(facts, me))
        for s in sentences(m.text):
            if not _gated(s.lower().replace("’", "'")):
                continue
            evidence = " ".join(s.split())[:200]

            def reading(clause: str, seq: int = m.seq, me: str = me,
                        names: dict[str, str] = names) -> list[Fact]:
                got = [*read(clause, seq, me), *people_facts(clause, seq, we=we, names=names, me=me)]
                return list({(f.subject, f.predicate, f.object.lower()): f for f in got}.values())

            for clause, start, new in positive_clauses(s):
                if not asserted(s, start, start):
                    continue
                for f in reading(clause):
                    if f.predicate in KIN_PREDICATES:
                        continue  # "my sister Ana is no longer allergic…": not the end of a sister
                    key = (f.subject, normalize_predicate(f.predicate), f.object.lower())
                    endings.setdefault(key, Fact(f.subject, f.predicate, f.object, "stated", m.seq, evidence))
                if new:
                    added.extend(replace(f, text=evidence) for f in reading(new))
            for who, pred, value, start in direct_endings(s):
                if not asserted(s, start, start):
                    continue
                if who.lower() == "we":
                    if not we:
                        continue
                    subject = me
                elif who == "I":
                    subject = me
                elif (sm := _SUBJECT.match(who)) is not None and sm.end() == len(who):
                    found = _subject(sm, we, names, me)
                    if found is None:
                        continue
                    subject = found[0]
                elif re.fullmatch(NAME_WORD, who):
                    subject = who
                else:
                    continue
                endings.setdefault((subject, pred, value.lower()),
                                   Fact(subject, pred, value, "stated", m.seq, evidence))
    if not endings and not added:
        return extraction
    said = {(f.seq, f.subject, f.predicate, f.object.lower()) for f in facts}
    for f in added:
        if (f.seq, f.subject, f.predicate, f.object.lower()) not in said:
            said.add((f.seq, f.subject, f.predicate, f.object.lower()))
            facts.append(f)
    return replace(extraction, facts=tuple(facts), endings=(*extraction.endings, *endings.values()))
