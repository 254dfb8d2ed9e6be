"""Facts of the speaker's life the first-person patterns did not read (session 22,
docs/summary-eval.md "Session 22: facts"), each a class of the labelled sets' missed facts:

- **how the speaker works**: "I work from home", "I work Saturdays", "I also work 20 hours a
  week", "Declan: I work from home on Mondays" (``work_pattern``: "works from home on Mondays");
- **a move the speaker states**: "I'm moving to Lyon in September for a job", "Moving from
  Leeds to Bristol on 14 March." (``moving``: "moving to Lyon in September"); not a move of
  something else ("we're moving the meeting"), not a wish ("I'm thinking of moving");
- **a birthday to come**: "My dad turns 70 next month", "My son Theo turns 7 on 9 June"
  (``turns``: "turns 70 next month"), of the speaker, a relative or a named person;
- **an age said with "he" or "she"** (session 55): "My grandson's keen, he's 16" (``age``: "16"),
  "Anya wants to go. She turns 16 in May" (``turns``); the pronoun's person is the last one
  named before it in the user turns: a name the entities hold (not a participant's) or "my
  <relative>" of the pronoun's sex (:func:`_referent`); with neither, no fact;
- **where the speaker is or what they are on** (session 57): "I'm on the EU Roam plan", "We're on
  Go 1.22", "I'm on £58k", "I'm in Glasgow" (``stated``: "on the EU Roam plan"; :data:`_ON_IN`);
- **how long the speaker has been doing something** (session 57): "I've been learning Japanese for
  six months" (``stated``: "learning Japanese for six months"; :data:`_BEEN_DOING`).

Each is the speaker's plain statement (:func:`memlane.index.people.asserted`: not a question,
a condition, a hedge, reported or quoted words) in a user turn.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from memlane.index.normalize import CAPITAL, NAME_WORD
from memlane.index.people import _KIN_WORDS
from memlane.index.schema import Fact
from memlane.types import Message

__all__ = ["with_more_facts"]

_DAYS = r"(?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|weekends|weekdays)"
_WORK = re.compile(
    r"(?:(?<![\w'’])(?P<i>I)|^(?P<name>" + NAME_WORD + r")(?=\s+works\b))(?:\s+(?:also|now|usually|mostly|currently|still|only|"
    r"just|normally|actually))*\s+works?\s+(?P<how>from\s+home|remotely|part[- ]time|full[- ]time|nights|evenings|"
    r"night\s+shifts|late\s+shifts|(?:on\s+)?" + _DAYS + r"(?:\s+(?:and|&)\s+" + _DAYS + r")?|(?:\d+|one|two|three|"
    r"four|five|six)\s+(?:hours|days|shifts)\s+a\s+week)(?P<when>\s+(?:on\s+)?" + _DAYS + r"(?:\s+(?:and|&)\s+" + _DAYS
    + r")?|\s+most\s+days)?(?![\w'’-])", re.IGNORECASE)
_MOVING = re.compile(
    r"(?:(?<![\w'’])(?P<we>[Ww]e)['’]re|(?<![\w'’])(?P<we2>[Ww]e)\s+are|(?<![\w'’])I['’]m|(?<![\w'’])I\s+am|^)"
    r"(?:\s+(?:also|actually|finally|officially|now))*\s*(?P<what>[Mm]oving\s+(?:abroad|house|(?:back\s+)?to\s+(?=" + CAPITAL + r")|"
    r"from\s+(?=(?:an?\s+)?(?:[\w-]+\s+){0,2}?(?:flat|house|place|home)?\s*(?:in\s+)?" + CAPITAL + r"))"
    r"[^.,;!?()\n]{0,70}?)(?=\s*(?:[.,;!?()]|\n|$|\s+(?:and|but|so|because|for|with|which|since)\b))")
_TURNS = re.compile(
    r"(?:(?<![\w'’])(?P<i>I)|(?<![\w'’])(?P<pronoun>[Hh]e|[Ss]he)|(?<![\w'’])[Mm]y\s+(?:(?:little|older|younger|big|baby|eldest|youngest)\s+)?"
    r"(?P<kin>[a-z-]+)(?:\s+(?P<kname>" + NAME_WORD + r"))?|(?:^|(?<=[,;:]\s))(?P<name>" + NAME_WORD + r"))"
    r"\s+(?:just\s+)?turns\s+(?P<age>\d{1,3})(?P<when>\s+(?:in\s+(?:[A-Z][a-z]+|\w+\s+(?:weeks|days|months))|"
    r"on\s+(?:the\s+)?[\w ]{1,16}?(?=[.,;!?]|\s+and\b|$)|next\s+(?:week|month|year|[A-Z][a-z]+day)|"
    r"this\s+(?:week|month|year|[A-Z][a-z]+day)|tomorrow|today))")
NUMBER_WORDS = "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen"
"""The numbers said in one word, one to nineteen (an age here; a quantity in ``offline._AMOUNT_WORD``)."""
_PRONOUN_AGE = re.compile(
    r"(?<![\w'’])(?P<pronoun>[Hh]e|[Ss]he)(?:['’]s|\s+is)(?:\s+(?:only|nearly|almost|just|now))?\s+"
    r"(?P<age>\d{1,3}|" + NUMBER_WORDS + r")(?P<unit>\s+(?:months?|years?)(?:\s+old)?)?"
    r"(?![\w'’%£$€-]|[.,:]\d|\s*(?:%|percent|pounds|quid|k\b|kg|cm|mm|minutes|mins|hours|weeks|days|miles|km|"
    r"am\b|pm\b|o['’]clock|foot|feet|ft|inches|stone|grand|times|points|goals|mph|th\b|st\b|nd\b|rd\b|of\b|out\b|"
    r"or\b|to\b|-))")
"""An age said with a pronoun: "he's 16", "she's nine now", "she's 14 months" (session 55); not a
size, a price, a time or a score ("he's six foot four", "she's 5 minutes away")."""
_HE = frozenset("son brother husband boyfriend father stepfather stepson grandson grandfather".split())
_SHE = frozenset("daughter sister wife girlfriend mother stepmother stepdaughter granddaughter grandmother aunt".split())
_MANY = frozenset("parents sons daughters children sisters brothers grandparents grandchildren in-laws".split())
_KIN_SAID = re.compile(r"(?<![\w'’])(?P<whose>[Mm]y|[Oo]ur|[Hh]is|[Hh]er|[Tt]heir)\s+"
                       r"(?:(?:little|older|younger|big|baby|eldest|youngest|oldest)\s+)?([a-z-]+)\b")
_THING_BEFORE = re.compile(r"(?<![\w'’])(?i:the|a|an|with|of|from|for|by|in|on|at|into|piece)\s+$")
"""A word before a name that makes it a thing's: "the Zopa pot", "with Alzheimer's", "a Skinner trap"."""
_PERSON = re.compile(NAME_WORD + r"(?: " + NAME_WORD + r")?")


def _referent(pronoun: str, before: str, names: Sequence[str], me: str) -> str:
    """Who "he" or "she" is: the last person named in ``before`` (the user turns up to the
    pronoun), a name of ``names`` (not after "the", "a", "with" …) or "my <relative>" not of
    the other sex (``me``'s relative); "" when there is none or the last is someone else's
    relative ("her son": whose, unknown)."""
    at, who = -1, ""
    for name in names:
        for hit in re.finditer(r"(?<![\w'’])" + re.escape(name) + r"(?![\w-])", before):
            if hit.start() > at and _THING_BEFORE.search(before, max(0, hit.start() - 12), hit.start()) is None:
                at, who = hit.start(), name
    other = _SHE if pronoun.lower() == "he" else _HE
    for hit in _KIN_SAID.finditer(before):
        kin = _KIN_WORDS.get(hit.group(2).lower())
        if hit.start() > at and kin is not None and kin[0] not in other and kin[2] and kin[1] not in _MANY:
            mine = hit.group("whose").lower() in ("my", "our")
            at, who = hit.start(), f"{me}'s {kin[1]}" if mine else ""
    return who


_RUN = re.compile(
    r"(?<![\w'’])I(?:\s+(?:also|now|still|currently|basically|just|actually))*\s+run\s+(?!(?:out|late|into|through|it|"
    r"them|this|that|away|around|over|off|across|the\s+risk|a\s+risk|errands|up|down|back|low|short|behind|along|"
    r"on|in|to|for|from|with|by|at|after|past|every|each|most|some|every|a\s+bit|the\s+numbers|faster|slower|"
    r"late|early|about|like|so|too|really|very|my\s+own)\b)(?P<what>[^.,;!?()\n]{3,80}?)"
    r"(?=\s*(?:[.,;!?()]|\n|$|\s+and\s+(?!(?!I\b)[A-Z]|(?:a|an|the|my|our|two|three|four|\d+)\b)|"
    r"\s+(?:but|so|because|which|since|though|if|when|while)\b))")
"""What the speaker runs: "I run a two-chair hair salon", "I run Fedora", "I run Jellyfin on a
Raspberry Pi 5" (``runs``); not "I run out of…", "I run late", "I run into…"."""
_MONTHS_DAYS = (r"January|February|March|April|May|June|July|August|September|October|November|December|"
                r"Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday")
_ON_IN = re.compile(
    r"[IiWw](?<![\w'’].)(?:(?<=[Ii])(?P<i>['’]m| am)|(?<=[Ww])e(?:['’]re| are))(?:\s+(?:currently|now|still|also|already|"
    r"actually))*\s+(?P<what>on\s+(?:(?:the|a|an|our|my)\s+)?(?:[\w&+'’-]+\s+){0,4}?(?i:plan|tariff|contract|visa|"
    r"scheme|guarantee|package|subscription|tier|deal|lease|licence|license)\b(?:\s+(?:of|at|with|from)\s+"
    r"[^.,;!?()\n]{1,40}?)?|on\s+(?:[A-Z][\w.+-]*\s+){1,2}\d+(?:\.\d+)*|on\s+£?\d+(?:[.,]\d+)?k\b|on\s+£\d[\d,]*(?:\.\d+)?|"
    r"in\s+(?!(?:" + _MONTHS_DAYS + r"|Q\d)\b)[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?(?:\s+(?:from|till|until|for|with)\s+"
    r"[^.,;!?()\n]{1,40}?)?)(?=\s*(?:[.,;!?()](?!\d)|\n|$|\s+(?:and|but|so|because|which|since|though|if|when|while|"
    r"that['’]s|thats)\b))")
"""Where the speaker is or what they are on (session 57, fct57): a plan, a tariff, a contract or a
visa ("I'm on the EU Roam plan", "we're on the Business plan of Tallyboard", "i'm on a graduate
visa"), a named thing's version ("We're on Kubernetes 1.27", "we're on Go 1.22"), a salary ("I'm
on £58k") or a place named with a capital ("I'm in Glasgow", "I'm in Lisbon from 14 to 17 May"):
``stated``, multi-valued, "on …" / "in …" as said. Not the task a stand-up names ("Today I'm on the
PDF export", "I'm still on the scanner issue"): no plan's word, no version, no sum; not a month or
a day ("we're in March"), nor a plain word after "in" ("I'm in anyway", "we're in the Q3 freeze")."""
_BEEN_DOING = re.compile(
    r"(?<![\w'’])(?:I|[Ww]e)(?:['’]ve|\s+have)\s+been\s+(?P<what>(?!(?:thinking|wondering|meaning|hoping|planning|dying|"
    r"looking\s+forward)\b)[a-z]+ing\b[^.,;!?]{0,50}?\s+(?:for\s+)?(?:about\s+|nearly\s+|almost\s+|over\s+)?(?:\d+|a|an|"
    r"two|three|four|five|six|seven|eight|nine|ten|a\s+few|several)\s+(?:days|weeks|months|years|week|month|year))\b")
"""How long the speaker has been doing something (session 57, fct57): "I've been learning Japanese for
six months", "I've been playing 3 months" (``stated``: "learning Japanese for six months"); not a
thought or a wish ("I've been thinking about it for a week")."""
_NOT_NAMES = frozenset("This That There Here What Which Who Where When Why How Everyone It He She They You We "
                       "Today Tomorrow Yesterday Also Then Now Still Just And But So The".split())


def _speaker(m: Message) -> str:
    from memlane.index.people import speaker_subject

    return speaker_subject(m)


def sentence_facts(sentence: str, seq: int, me: str, *, we: bool, before: str = "",
                   names: Sequence[str] = ()) -> list[Fact]:
    """The facts of one sentence of the speaker ``me`` (``we``: "we" is the speaker's household,
    a chat with the assistant); ``before``: the user turns' text before the sentence and
    ``names``: the people the conversation names, who "he" and "she" can be (:func:`_referent`)."""
    from memlane.index.people import _KIN_WORDS, asserted_matches

    out: list[Fact] = []
    evidence = " ".join(sentence.split())[:200]
    if "work" in sentence.lower():
        for m in asserted_matches(_WORK, sentence):
            who = me if m.group("i") else m.group("name")
            if who is None or who in _NOT_NAMES:
                continue
            how = " ".join((m.group("how") + (m.group("when") or "")).split())
            out.append(Fact(who, "work_pattern", "works " + how, "stated", seq, evidence))
    if "run " in sentence:
        for m in asserted_matches(_RUN, sentence):
            what = " ".join(m.group("what").split())
            out.append(Fact(me, "runs", "runs " + what, "stated", seq, evidence))
    if "oving" in sentence:
        for m in asserted_matches(_MOVING, sentence):
            if (m.group("we") or m.group("we2")) and not we:
                continue
            what = m.group("what").strip()
            out.append(Fact(me, "moving", what[0].lower() + what[1:], "stated", seq, evidence))
    if "turns" in sentence:
        for m in asserted_matches(_TURNS, sentence):
            if m.group("i"):
                who = me
            elif m.group("pronoun"):
                who = _referent(m.group("pronoun"), before + sentence[: m.start()], names, me)
            elif m.group("kin"):
                kin = _KIN_WORDS.get(m.group("kin").lower())
                if kin is None:
                    continue
                who = m.group("kname") or (f"{me}'s {kin[1]}" if kin[2] else "")
            elif (kin := _KIN_WORDS.get(m.group("name").lower())) is not None:
                who = f"{me}'s {kin[1]}" if kin[2] else ""  # "Mum turns 70 on 12 July"
            else:
                who = m.group("name")
            if not who or who in _NOT_NAMES:
                continue
            out.append(Fact(who, "turns", f"turns {m.group('age')}{m.group('when')}", "stated", seq, evidence))
    if "been " in sentence:
        for m in asserted_matches(_BEEN_DOING, sentence):
            out.append(Fact(me, "stated", " ".join(m.group("what").split()), "stated", seq, evidence))
    for m in asserted_matches(_ON_IN, sentence):
        what = " ".join(m.group("what").split())
        out.append(Fact(me if m.group("i") or we else "team", "stated", what, "stated", seq, evidence))
    if "e's " in sentence or "e’s " in sentence or "e is " in sentence:
        for m in asserted_matches(_PRONOUN_AGE, sentence):
            who = _referent(m.group("pronoun"), before + sentence[: m.start()], names, me)
            if who:
                age = " ".join((m.group("age") + (m.group("unit") or "")).split())
                out.append(Fact(who, "age", age, "stated", seq, evidence))
    return out


def with_more_facts(extraction: Any, messages: Sequence[Message],
                    sentences: Callable[[str], list[str]]) -> Any:
    """``extraction`` with the facts :func:`sentence_facts` reads in the user turns, those
    another reader has not read from the same turn already (an object inside one of its)."""
    users = [m for m in messages if m.role == "user"]
    if not users:
        return extraction
    we = len({m.speaker or m.role for m in users}) <= 1
    # who "he" and "she" can be: the names the entities hold, not a participant's (session 55)
    speakers = {m.speaker for m in messages if m.speaker}
    names = [e.name for e in extraction.entities
             if e.type == "name" and e.name not in speakers and _PERSON.fullmatch(e.name) is not None]
    facts = list(extraction.facts)
    added = False
    before = ""
    for m in users:
        low = m.text.lower()
        aged = ("e's " in low or "e’s " in low or "e is " in low) and _PRONOUN_AGE.search(m.text) is not None
        if ("work" not in low and "moving" not in low and "turns" not in low and "run " not in low and not aged
                and _ON_IN.search(m.text) is None and ("been " not in m.text or _BEEN_DOING.search(m.text) is None)):
            before += m.text + "\n"
            continue
        me = _speaker(m)
        for s in sentences(m.text):
            for f in sentence_facts(s, m.seq, me, we=we, before=before, names=names):
                said = f.object.lower()
                if any(g.seq == f.seq and (g.object.lower() in said or said in g.object.lower()) for g in facts):
                    continue
                facts.append(f)
                added = True
            before += s + "\n"
    return replace(extraction, facts=tuple(facts)) if added else extraction
