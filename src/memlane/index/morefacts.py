"""Facts of the speaker's life the first-person patterns did not read (session 22,
docs/summary-eval.md "Session 22: facts"), each a class of the labelled sets' missed facts:

- **how the speaker works**: "I work from home", "I work Saturdays", "I also work 20 hours a
  week", "Declan: I work from home on Mondays" (``work_pattern``: "works from home on Mondays");
- **a move the speaker states**: "I'm moving to Lyon in September for a job", "Moving from
  Leeds to Bristol on 14 March." (``moving``: "moving to Lyon in September"); not a move of
  something else ("we're moving the meeting"), not a wish ("I'm thinking of moving");
- **a birthday to come**: "My dad turns 70 next month", "My son Theo turns 7 on 9 June"
  (``turns``: "turns 70 next month"), of the speaker, a relative or a named person.

Each is the speaker's plain statement (:func:`memlane.index.people.asserted`: not a question,
a condition, a hedge, reported or quoted words) in a user turn.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from memlane.index.normalize import CAPITAL, NAME_WORD
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
    r"(?:(?<![\w'’])(?P<i>I)|(?<![\w'’])[Mm]y\s+(?:(?:little|older|younger|big|baby|eldest|youngest)\s+)?"
    r"(?P<kin>[a-z-]+)(?:\s+(?P<kname>" + NAME_WORD + r"))?|(?:^|(?<=[,;:]\s))(?P<name>" + NAME_WORD + r"))"
    r"\s+(?:just\s+)?turns\s+(?P<age>\d{1,3})(?P<when>\s+(?:in\s+(?:[A-Z][a-z]+|\w+\s+(?:weeks|days|months))|"
    r"on\s+(?:the\s+)?[\w ]{1,16}?(?=[.,;!?]|\s+and\b|$)|next\s+(?:week|month|year|[A-Z][a-z]+day)|"
    r"this\s+(?:week|month|year|[A-Z][a-z]+day)|tomorrow|today))")
_RUN = re.compile(
    r"(?<![\w'’])I(?:\s+(?:also|now|still|currently|basically|just|actually))*\s+run\s+(?!(?:out|late|into|through|it|"
    r"them|this|that|away|around|over|off|across|the\s+risk|a\s+risk|errands|up|down|back|low|short|behind|along|"
    r"on|in|to|for|from|with|by|at|after|past|every|each|most|some|every|a\s+bit|the\s+numbers|faster|slower|"
    r"late|early|about|like|so|too|really|very|my\s+own)\b)(?P<what>[^.,;!?()\n]{3,80}?)"
    r"(?=\s*(?:[.,;!?()]|\n|$|\s+and\s+(?!(?!I\b)[A-Z]|(?:a|an|the|my|our|two|three|four|\d+)\b)|"
    r"\s+(?:but|so|because|which|since|though|if|when|while)\b))")
"""What the speaker runs: "I run a two-chair hair salon", "I run Fedora", "I run Jellyfin on a
Raspberry Pi 5" (``runs``); not "I run out of…", "I run late", "I run into…"."""
_NOT_NAMES = frozenset("This That There Here What Which Who Where When Why How Everyone It He She They You We "
                       "Today Tomorrow Yesterday Also Then Now Still Just And But So The".split())


def _speaker(m: Message) -> str:
    from memlane.index.people import speaker_subject

    return speaker_subject(m)


def sentence_facts(sentence: str, seq: int, me: str, *, we: bool) -> list[Fact]:
    """The facts of one sentence of the speaker ``me`` (``we``: "we" is the speaker's household,
    a chat with the assistant)."""
    from memlane.index.people import _KIN_WORDS, asserted

    out: list[Fact] = []
    evidence = " ".join(sentence.split())[:200]
    if "work" in sentence.lower():
        for m in _WORK.finditer(sentence):
            if not asserted(sentence, m.start(), m.end()):
                continue
            who = me if m.group("i") else m.group("name")
            if who is None or who in _NOT_NAMES:
                continue
            how = " ".join((m.group("how") + (m.group("when") or "")).split())
            out.append(Fact(who, "work_pattern", "works " + how, "stated", seq, evidence))
    if "run " in sentence:
        for m in _RUN.finditer(sentence):
            if not asserted(sentence, m.start(), m.end()):
                continue
            what = " ".join(m.group("what").split())
            out.append(Fact(me, "runs", "runs " + what, "stated", seq, evidence))
    if "oving" in sentence:
        for m in _MOVING.finditer(sentence):
            if (m.group("we") or m.group("we2")) and not we:
                continue
            if not asserted(sentence, m.start(), m.end()):
                continue
            what = m.group("what").strip()
            out.append(Fact(me, "moving", what[0].lower() + what[1:], "stated", seq, evidence))
    if "turns" in sentence:
        for m in _TURNS.finditer(sentence):
            if not asserted(sentence, m.start(), m.end()):
                continue
            if m.group("i"):
                who = me
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
    return out


def with_more_facts(extraction: Any, messages: Sequence[Message],
                    sentences: Callable[[str], list[str]]) -> Any:
    """``extraction`` with the facts :func:`sentence_facts` reads in the user turns, those
    another reader has not read from the same turn already (an object inside one of its)."""
    users = [m for m in messages if m.role == "user"]
    if not users:
        return extraction
    we = len({m.speaker or m.role for m in users}) <= 1
    facts = list(extraction.facts)
    added = False
    for m in users:
        low = m.text.lower()
        if "work" not in low and "moving" not in low and "turns" not in low and "run " not in low:
            continue
        me = _speaker(m)
        for s in sentences(m.text):
            for f in sentence_facts(s, m.seq, me, we=we):
                said = f.object.lower()
                if any(g.seq == f.seq and (g.object.lower() in said or said in g.object.lower()) for g in facts):
                    continue
                facts.append(f)
                added = True
    return replace(extraction, facts=tuple(facts)) if added else extraction
