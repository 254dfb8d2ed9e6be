"""The offline summarizer's shortcuts find what the full patterns find.

Speed work put cheap tests in front of the patterns (substring pre-checks, a sentence split
that jumps to end punctuation, reference patterns run on the words that can hold them, a
cache of what a capitalised phrase names). Each must never change a result: these tests
hold every shortcut to the plain computation it replaced, over the labelled conversations
and over sentences written here for every cue of ``memlane/index/cues.py``.
(``tools/summary_dump.py --check`` compares whole summaries of thousands of sessions.)
"""

import re

from memlane.bench.summaries.run import load_set
from memlane.index import cues, offline
from memlane.retrieve.text import STOPWORDS

LABELLED = [text for name in ("dev", "heldout", "heldout2", "heldout3") for conv in load_set(name) for _, text in conv.turns]

CUE_SENTENCES = [
    # decisions
    "We decided to keep the old client.", "I have agreed to the terms.", "We chose Redis.",
    "We picked the blue one.", "We've settled on Tuesday.", "I went with the cheaper plan.",
    "Decision: ship on Friday.", "Let's go with option B.", "We'll go with Postgres.",
    "We are going with the vendor.", "OK, we're going to rewrite the parser.",
    "Let's shard by tenant.", "We'll migrate next week.", "I'll buy the red shoes.",
    "Ill try the new build.", "OK, I'm getting the Fujifilm.", "Im ordering an Air.", "Well use the staging box.", "Python it is.", "That is settled.",
    # rationale
    "Because the tests are flaky.", "Since the API changed, nothing works.",
    "So that users can log in.", "Given that we have no budget.", "Given the numbers, no.",
    "The reason is cost.", "Due to the outage we paused.",
    # open questions
    "Open question: who owns the pager.", "That is still open.", "We still need to decide.",
    "We still have to decide on pricing.", "We need to decide soon.", "I have to decide today.",
    "The venue is undecided.", "Date TBD.", "The timing is to be decided.", "It is unclear.",
    "I'm not sure about the rollout.", "I don't know if it scales.", "We dont know whether it works.",
    "Nobody answered the survey.", "It remains to be seen.", "That remain to be seen.",
    # next steps
    "Next step: write the docs.", "The plan is to ship Monday.", "Going forward we test first.",
    "After that we deploy.", "Let's discuss it Monday.", "Let's talk about it.",
    "Let's meet at noon.", "Let's revisit in May.", "We should revisit pricing.",
    # commitments
    "I'll send the report.", "I will call them.", "I'm going to fix it.", "Im going to try.",
    "I need to renew my passport.", "I have to leave early.", "I must finish this.",
    "Remind me to water the plants.", "Remember to back up first.", "Don't forget to vote.",
    "Dont forget to eat.", "Make sure to lock the door.", "TODO: rotate the keys.",
    "Action item for Sam: the budget.",
    # the assistant's own
    "I'll remind you tomorrow.", "Next step is the migration.",
]


ASSISTANT_SENTENCES = [
    # the service's own steps (session 13: "they'll" had no cue word and was passed over)
    "They'll call you within two working days to book it in.", "We'll text you the evening before.",
    "The driver will call 30 minutes ahead.",
]
HEAD_SENTENCES = [  # session 25's cues, which open a sentence
    "need to check with Sven whether the app can ship", "ok gonna run the backfill tonight",
    "so, have to ask her parents first", "let's ask the volunteers at the meeting", "raise it at the March review",
    "Let's bring it to the trustees on Tuesday", "then take that up with the landlord",
]


def test_cue_word_checks_pass_every_sentence_the_cue_patterns_match() -> None:
    sentences = CUE_SENTENCES + ASSISTANT_SENTENCES + HEAD_SENTENCES + [s for text in LABELLED for s in offline._sentences(text)]
    assert all(cues._HEAD_CUE.match(s.lower()) for s in HEAD_SENTENCES)
    assert all(cues._ANY_ASSISTANT.search(s.lower()) for s in ASSISTANT_SENTENCES)
    user = [s for s in sentences if cues._ANY_USER.search(s.lower()) or cues._HEAD_CUE.match(s.lower())]
    assistant = [s for s in sentences if cues._ANY_ASSISTANT.search(s.lower())]
    assert len(user) > 100 and len(assistant) > 40
    assert [s for s in user if not cues._may_cue_user(s.lower())] == []
    assert [s for s in assistant if not cues._may_cue_assistant(s.lower())] == []


def test_the_cue_sentences_written_here_are_cues() -> None:
    missed = [s for s in CUE_SENTENCES if not cues._ANY_USER.search(s.lower())]
    assert missed == []


_OLD_SENT = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9])|\n+")

SPLIT_CASES = [
    "One. Two! Three? four. (Five) and \"Six.\" 7 is a number.",
    "Line one\nLine two\n\n\nLine three.  Next sentence.\n",
    "Ends with punctuation then newline.\nNew line. \n Spaced newline.",
    "Dots... And more. Then e.g. this one. U.S. Army. A. B. C.",
    "Tabs.\tTab start. Mixed.\n \nA blank line.",
    "No break here.lower case. [Bracket] start? 'Quote' start!",
    "we could pick the blue one. or the green, e.g. the teal one. ok fine. do we invite the whole street? no idea",
    "it costs about ten pounds approx. each one. see you at the hall a. m. tomorrow... maybe later tonight!  yes",
    "I'll also grab Carcassonne and Yahtzee! dice to compare them. buy it from Acme Tea Co. to be sure",
]


_SMALL = re.compile(r"(?<=[.?])(\s+)(?=[a-z])")
_NO_END = re.compile(r"(?:\b(?:e\.g|i\.e|etc|vs|approx|incl|esp|cf|ca|fig|pp|vol|co|inc|ltd|corp|bros|dept|jr|sr|[a-z])|\.\.)$",
                     re.IGNORECASE)


def _small_letter_split(piece: str) -> list[str]:
    """A piece of the lookbehind split cut again where a small letter follows end punctuation:
    after a question of five words or more (session 18) or a stop ending four words or more,
    not an abbreviation (session 19)."""
    parts = _SMALL.split(piece)
    out, cur = [], parts[0]
    for gap, nxt in zip(parts[1::2], parts[2::2], strict=True):
        words = cur.count(" ")
        if (cur.endswith("?") and words >= 4) or (cur.endswith(".") and words >= 3 and not _NO_END.search(cur[:-1])):
            out.append(cur)
            cur = nxt
        else:
            cur = cur + gap + nxt
    return [*out, cur]


def test_sentences_are_the_ones_the_lookbehind_split_gives() -> None:
    for text in LABELLED + SPLIT_CASES:
        old = [s.strip() for s in _OLD_SENT.split(text) if s and len(s.strip()) > 2]
        old = [x for s in old for x in _small_letter_split(s) if len(x.strip()) > 2]
        assert offline._sentences(text) == old, text


REFERENCE_TEXTS = LABELLED + [
    "See https://example.com/a/b?x=1 and src/memlane/index/offline.py, also config.toml.",
    "Branch feat/fast-summaries fixes BILL-142 and #482; mail ops@example.org or visit docs.example.io.",
    "The Dockerfile at deploy/docker/Dockerfile and app/models/ changed (see tools/scale/).",
    "Order number 123456 and invoice #98765 shipped with tracking 1Z999AA10123456784.",
    "Paths:\tsrc/a.py\nlib/b/c.rs, and a trailing dir build/out/ here.",
    "Form TR-7 and client number QH-40118 for 27C Harbour Road, Cobh; we watched Brief Encounter.",
    "Wolf Hall by Hilary Mantel came to 9 Rowan Close, Flat 2.",
    "Pin v2.4.1 on db-east-03, not 2.5.0; E0502 again. Account 5521 0938 44, card 7781 2203 9914, ref RTZ4QP.",
    "Build from node:20-alpine; the app listens on localhost:8080 at 10:30 (ratio 1:2).",
    "Probe /healthz, back up ~/Photos to /volume1/backup\n/etc/restic/env and (~/.config/x); 24/7, and/or.",
    "I'll order 200 of the TN-300 tins; booking 412 is full, invoice 2231 is paid.",  # a quantity, not an order
    "Order 7731-4408 and receipt number 5530-1189; order 10-12 boxes, booking 2025-03-14.",  # session 16
    "Open Settings > Device > Wi-Fi, then Council tax > Discounts; 3 > 2 and Help > Charges rather than.",
    "I'll post it in #release and #platform-oncall, tell them in #partners; if #available(iOS 17, *) then.",
    "The launch for 'The Salt Orchard' and \"Low Tide Hymns\"; it says 'Error acquiring the lock', 'Kindling'.",  # session 17
    "Fault code EA 227, code 0x2F, status code 404; ref 2211-KX-907 and a 1099-INT; add actions/cache and "
    "docker/build-push-action@v5, not yes/no. Demon Copperhead is 550 pages, the 900-page Middlemarch; it is 40 pages.",  # session 20
    "Clause 7 and Figure 4B, Schedule C and section 9.3; not section 9 nor Article 28(2) GDPR.",  # session 21
    "It's HOL-2291-NDA v3, fixed in pypa/cibuildwheel#2105; grab /debug/pprof/goroutine?debug=2 and src/x/Bar/?",
    "Set it in .npmrc and (.pgpass), not .raw, .env or the .docx files; /Episodes/047/a.wav, /api/{id}/x; "
    "hashFiles('**/pnpm-lock.yaml') and src/*/x.ts.",  # session 22
    "Retries from worker-7 and sched-2, not utf-8, mid-2021 or over-65; chapter 7 of Discovering Statistics "
    "and the author of Salt and Circuit.",  # session 23
    "Consent is ref LBC/24/0613, crime reference 41/88213/24; ring 01706 902 573 or +44 20 7946 0958, not 10 to 12; "
    "see prisma/migrations/20250611_idx, ci/pin-poetry, not and/or nor go/no-go; /.well-known/acme-challenge/ and "
    "networking/terraform.tfstate, from her book Yokes; it was in Ceilidh 2024 Helpers.xlsx, In Budget.xlsx.",  # session 25
    "My employee number 40672 and juror number 4471-208; at number 2234, phone number 0770-900461, order number 40917.",  # 26
]


def test_references_are_what_each_pattern_finds_in_the_whole_text() -> None:
    found = 0
    for text in REFERENCE_TEXTS:
        words = frozenset(text.split())  # session 11's kinds are guarded by the words they need
        whole = {r for i, (g, p) in enumerate(zip(offline._REF_GUARDS, offline._REFS, strict=True))
                 if (g(words) if i >= offline._NEW else g(text)) for r in p.findall(text)}
        if len(text) <= offline._REF_SHORT:  # session 12's kinds: a conversation's turns only
            whole |= {r for p in (offline._SEMVER, offline._SLUG, offline._ERROR_CODE, offline._IMAGE_TAG) for r in p.findall(text)}
            whole |= set(filter(offline._rooted, offline._ROOTED_PATH.findall(text)))  # session 13
            whole |= set(offline._MENU.findall(text)) | set(offline._CHANNEL.findall(text))  # session 16
            whole |= {q.rstrip(",.;:!?") for q in offline._QUOTED.findall(text) if offline._quoted_title(q)}  # session 17
            whole |= {r for p in (offline._CODE_AFTER, offline._DIGIT_KEY, offline._ACTION) for r in p.findall(text)}
            whole |= {w for pair in offline._PAGES.findall(text) for w in pair if w and w.lower() not in STOPWORDS}  # session 20
            whole |= {r for p in (offline._PART, offline._KEY_VERSION, offline._REPO_ISSUE) for r in p.findall(text)}  # session 21
            whole |= set(offline._DOTFILE.findall(text)) | set(offline._GLOB_FILE.findall(text))  # session 22
            whole |= {n for n in offline._NUMBERED_NAME.findall(text)  # session 23
                      if n.split("-", 1)[0] not in offline._NOT_NUMBERED_NAME and not offline._YEAR_END.search(n)}
            whole |= set(offline._OF_WORK.findall(text))
            whole |= set(offline._REF_CODE.findall(text)) | set(offline._PHONE.findall(text))  # session 25
            whole |= set(offline._slashed(text)) | set(offline._named_files(text))
            whole |= set(offline._KIND_NUMBER.findall(text))  # session 26
            whole |= {r for p in (offline._NAMED_RESOURCE, offline._SHOWN_CODE, offline._DEPLOYED, offline._OWN_CALL)
                      for r in p.findall(text)}  # session 40
            whole |= set(offline._DOTFILE_MORE.findall(text)) | set(offline._folders(text))  # session 47
        assert set(offline._references(text)) == whole, text
        found += len(whole)
    assert found > 20


def test_words_are_the_same_lower_cased_before_or_after() -> None:
    for text in LABELLED + ["İstanbul and the Kelvin sign K", "Straße café NAÏVE"]:
        assert offline._words(text) == [w.lower() for w in offline._WORD.findall(text)]


def test_cached_phrase_verdicts_do_not_depend_on_the_sentence() -> None:
    # "Rob" opens the first sentence (a sentence start, not taken) and is a name in the
    # second: the cache keeps what the phrase names, the sentence decides the rest. (Not
    # "Sam": a proper name of the word lists is a name opening a sentence too, session 18; nor
    # "Priya": a word no English word spells is one too, session 20; "rob" is a word.)
    first = offline.OfflineIntelligence._entities("Rob said the build failed.")
    second = offline.OfflineIntelligence._entities("The build failed, Rob said.")
    assert [e.name for e in first] == []
    assert [(e.name, e.type) for e in second] == [("Rob", "name")]
