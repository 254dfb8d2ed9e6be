"""What a user says about themselves and the people (and pets) in their life, as facts
(session 18; ``docs/summary-eval.md``, "Session 18: facts about people").

A statement is read as a *subject* and what is said of it:

- the subject: "I" (the user), "we" in a chat with the assistant (the user's household),
  "my / our <relative>" with or without a name ("my daughter Maya", "my brother"), or a
  relative's name said earlier in the session ("Maya is allergic to bees"). A named
  relative is the subject by name ("Maya"); an unnamed one is ``user's <relative>``, the
  relative's word in its usual form ("my mum" and "my mother" are both ``user's mother``,
  "my kids" ``user's children``), or the name the session gave that relative when it gave
  exactly one ("My daughter Maya is 7. My daughter is allergic to bees." → ``Maya``). A
  friend, a colleague, a cousin, a neighbour (people one has many of) is a subject only
  by name. In a conversation between named people "I" is the speaker by name and "my
  sister" ``<Speaker>'s sister`` (``people_facts(me=...)``, :func:`speaker_subject`;
  session 19), so two people's facts are never one subject's.
- what is said, one predicate per class, the same whichever words said it, so that a newer
  statement supersedes an older one (single-valued) or adds to it (multi-valued, in
  ``[memory.facts] multi_valued``): ``lives_in`` ("live in", "moved to", "we moved to",
  "I'm based in", "lives with … in"), ``from``, ``works_at`` ("work at / for", "a nurse at
  …", "got a job at"), ``job`` ("I'm a nurse", "she works as a …", "I've been a teacher for
  …", "retired"), ``age`` ("I'm 34", "my dad is 88", "just turned 40"),
  ``allergic_to`` ("allergic to X, Y and Z", "a nut allergy"), ``intolerant_to``
  ("lactose intolerant", "intolerant to …"), ``condition`` ("I'm coeliac", "I have type 1
  diabetes", "diagnosed with …"), ``diet`` ("vegetarian", "vegan", "on a low-salt diet",
  "keep kosher"), ``avoids`` ("I can't eat gluten", "I don't drink", "never eats pork"), and
  the relatives and pets themselves (``child``, ``son``, ``dog``…: "We have two kids, Leo
  and Mia", "I have a dog called Biscuit", "my kids Leo and Mia").

Nothing is read from a question ("Am I allergic to…?", "Should I move to York?"), a
hypothesis or a wish ("if I were vegan", "imagine I live in Paris", "I might be coeliac"),
a hedge ("I think I'm lactose intolerant"), someone else's quoted or reported words ("he
said 'I'm a nurse'", "she told me she lives…"), a negation ("I'm not allergic to…", "I no
longer live in Leeds"), a past state ("I used to live in Leeds", "I was a nurse"), or a
prompt that sets a scene ("Pretend I'm a pirate", "write a story where I live on Mars").
The caller reads only the user's turns, never the assistant's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping

from memlane.clip import clip
from memlane.index.normalize import CAPITAL, NAME_WORD, SMALL, normalize_predicate, speakers_subject
from memlane.index.schema import Fact
from memlane.types import Message

__all__ = ["JOBS", "KIN_PREDICATES", "KIN_WORDS", "PEOPLE_WORDS", "PET_PREDICATES", "asserted", "asserted_matches",
           "kin_names", "may_state", "people_facts", "speaker_subject"]


def speaker_subject(m: Message) -> str:
    """Who "I" and "my" are in a message of the user's: the speaker's name when the message
    carries one ("Caroline" in a conversation among named people, a team chat), else
    ``user`` (a chat with the assistant). Facts of two people are then never one subject's,
    so one never supersedes the other (session 19)."""
    return speakers_subject(m.speaker, m.role)

# A relative's (or pet's) word -> (the predicate naming them, the subject's spelling when
# unnamed, whether an unnamed one is a subject: False for people one has many of).
_KIN_WORDS: dict[str, tuple[str, str, bool]] = {}


def _kin(words: str, pred: str, subj: str, unnamed: bool = True) -> None:
    for w in words.split():
        _KIN_WORDS[w] = (normalize_predicate(pred), subj, unnamed)


_kin("wife", "wife", "wife")
_kin("husband", "husband", "husband")
_kin("partner", "partner", "partner")
_kin("spouse", "spouse", "spouse")
_kin("girlfriend", "girlfriend", "girlfriend")
_kin("boyfriend", "boyfriend", "boyfriend")
_kin("fiance fiancé fiancee fiancée", "fiance", "fiance")
_kin("mum mom mother mummy mommy", "mother", "mother")
_kin("dad father daddy", "father", "father")
_kin("stepmum stepmom stepmother", "stepmother", "stepmother")
_kin("stepdad stepfather", "stepfather", "stepfather")
_kin("parents", "parent", "parents")
_kin("son", "son", "son")
_kin("sons boys", "son", "sons")
_kin("daughter", "daughter", "daughter")
_kin("daughters girls", "daughter", "daughters")
_kin("kid child", "child", "child")
_kin("kids children", "child", "children")
_kin("baby", "baby", "baby")
_kin("toddler", "child", "toddler")
_kin("stepson", "stepson", "stepson")
_kin("stepdaughter", "stepdaughter", "stepdaughter")
_kin("sister", "sister", "sister")
_kin("sisters", "sister", "sisters")
_kin("brother", "brother", "brother")
_kin("brothers", "brother", "brothers")
_kin("grandma gran granny nan nana nanna grandmother", "grandmother", "grandmother")
_kin("grandpa grandad granddad grandfather", "grandfather", "grandfather")
_kin("grandparents", "grandparent", "grandparents")
_kin("grandson", "grandson", "grandson")
_kin("granddaughter", "granddaughter", "granddaughter")
_kin("grandchildren grandkids", "grandchild", "grandchildren")
_kin("mother-in-law", "mother-in-law", "mother-in-law")
_kin("father-in-law", "father-in-law", "father-in-law")
_kin("in-laws", "in-laws", "in-laws")
_kin("flatmate", "flatmate", "flatmate")
_kin("roommate", "roommate", "roommate")
_kin("housemate", "housemate", "housemate")
_kin("boss", "boss", "boss")
_kin("landlord landlady", "landlord", "landlord")
_kin("aunt auntie aunty", "aunt", "aunt", False)
_kin("uncle", "uncle", "uncle", False)
_kin("cousin cousins", "cousin", "cousin", False)
_kin("niece nieces", "niece", "niece", False)
_kin("nephew nephews", "nephew", "nephew", False)
_kin("sister-in-law", "sister-in-law", "sister-in-law", False)
_kin("brother-in-law", "brother-in-law", "brother-in-law", False)
_kin("friend friends", "friend", "friend", False)
_kin("colleague colleagues coworker co-worker coworkers", "colleague", "colleague", False)
_kin("manager", "manager", "manager", False)
_kin("neighbour neighbor neighbours neighbors", "neighbor", "neighbor", False)
_kin("dog", "dog", "dog")
_kin("dogs", "dog", "dogs")
_kin("cat", "cat", "cat")
_kin("cats", "cat", "cats")
_kin("puppy", "puppy", "puppy")
_kin("kitten", "kitten", "kitten")
_kin("rabbit bunny", "rabbit", "rabbit")
_kin("rabbits", "rabbit", "rabbits")
_kin("hamster", "hamster", "hamster")
_kin("tortoise", "tortoise", "tortoise")
_kin("parrot", "parrot", "parrot")
_kin("horse pony", "horse", "horse")

_KIN_ALT = "|".join(sorted((re.escape(w) for w in _KIN_WORDS), key=len, reverse=True))
_MODS = (r"(?:(?:little|older|younger|big|baby|eldest|oldest|youngest|twin|new|two|three|four|best|closest|"
         r"grown-up|teenage|elderly|\d+-year-old|[a-z]+-year-old)\s+)")
_NAME = r"(?!(?:I|The|A|An|And|But|So|Then|We|He|She|They|It|My|Our|His|Her|Their|This|That|Is|Was|Has|" \
        r"Mum|Dad|Mom|Hi|Hey|Yes|No|OK|Ok)(?!\w)(?!" + SMALL + "))" + NAME_WORD + "(?:-" + NAME_WORD + ")?"
_NAMES = _NAME + r"(?:(?:,\s*|\s+and\s+|,\s+and\s+|\s*&\s*)" + _NAME + r")*"

_SUBJECT = re.compile(
    r"(?<![\w'’])(?:(?P<i>[Ii])(?![\w])(?!['’](?:d|ll)\b)|(?P<we>[Ww]e)(?![\w])(?!['’](?:d|ll)\b)|"
    r"(?:[Mm]y|[Oo]ur)\s+" + _MODS + r"?(?P<kin>" + _KIN_ALT + r")(?![\w-])(?!['’]s\s+(?!(?:allergic|intolerant|"
    r"vegan|vegetarian|a|an|\d+|from|based|living|working|retired|co?eliac|celiac|diabetic|been|got|moved|just|now|"
    r"also|still|lived|on|originally|currently|recently|severely|lactose|gluten)\b))"
    r"(?:,?\s+(?P<name>" + _NAME + r")(?![\w-])(?:\s*,)?)?)")
"""Who a statement is about: "I", "we", "my daughter (Maya)"; a possessive ("my son's
teacher is…") is not its owner, unless it contracts "is" or "has" ("my son's allergic")."""

_ADV = r"(?:\s+(?:also|now|actually|currently|still|just|recently|finally|both|all|even|already|officially))*"
_BE = r"(?:\s+(?:am|is|are)|['’](?:m|s|re))" + _ADV
_HAVE = r"(?:\s+(?:have|has)(?:\s+got)?|['’](?:ve|s)\s+got)" + _ADV
CHAT_FILLERS = r"btw|tbh|lol|haha|tho|anyway|anyways|actually|honestly"
"""Chat words that end a value ("I live in Leeds btw so…" is Leeds; session 19)."""
# A value runs to a stop: punctuation before a space or the end, a clause word or a chat filler.
_STOP = (r"(?=\s*(?:[.!?;,:](?![\w/@%#~+-])|\n|\)|\s[-–—]\s|$|\s+(?:and|but|so|which|who|because|since|near|"
         r"last|this|next|yesterday|today|recently|ago|every|now|with|for|when|while|after|before|until|"
         r"though|although|where|if|as well|too|these days|nowadays|at the moment|right now|without|like|"
         r"originally|anymore|any more|at all|" + CHAT_FILLERS + r")\b))")
_VALUE = r"((?:\b(?:St|Mt|Ft|Dr|Mr|Mrs|Ms)\.\s|[^.!?;,:\n()]|[.!?;,:](?=[\w/@%#~+-])){1,60}?)" + _STOP
_PLACE = r"(?=(?:the\s+)?" + CAPITAL + ")" + _VALUE
"""A place: a value opening with a capital of any script ("Toronto", "the Lake District", "Łódź")."""
_LIST = (r"((?:[^.!?;:\n()]|[.!?;:](?=[\w/@%#~+-])){1,90}?)(?=\s*(?:[.!?;:](?![\w/@%#~+-])|\n|\)|\s[-–—]\s|$|"
         r",?\s+(?:but|so|which|because|since|though|although|who|when|while|if|as well|too|"
         r"which|these days|now|anymore|any more|at all|even|especially|like|such as|though)\b))")
"""A list of things ("peanuts, tree nuts and shellfish"), split by :func:`_items`."""

JOBS = frozenset("""
nurse doctor gp surgeon dentist pharmacist paramedic midwife physio physiotherapist therapist
psychologist psychiatrist counsellor counselor vet veterinarian optician optometrist radiographer
sonographer dietitian dietician nutritionist carer caregiver teacher lecturer professor tutor
headteacher headmaster headmistress principal researcher scientist engineer developer programmer
designer architect accountant bookkeeper auditor actuary lawyer solicitor barrister paralegal
attorney judge consultant analyst administrator receptionist secretary clerk cashier chef baker
barista waiter waitress bartender butcher farmer gardener landscaper electrician plumber carpenter
joiner builder bricklayer roofer decorator welder mechanic technician pilot firefighter policeman
policewoman detective soldier journalist reporter writer author editor copywriter translator
interpreter photographer illustrator animator artist musician composer actor actress dancer
librarian archivist curator nanny childminder cleaner housekeeper hairdresser barber stylist
beautician salesperson salesman saleswoman recruiter banker economist statistician biologist
chemist physicist mathematician historian student postdoc intern apprentice trainee freelancer
contractor surveyor realtor broker underwriter courier postman postwoman porter caretaker janitor
steward stewardess sailor fisherman miner dispatcher doula coach instructor priest vicar pastor
rabbi imam minister councillor lifeguard paramedic pharmacologist epidemiologist podiatrist
chiropractor osteopath hygienist sommelier florist tailor jeweller jeweler locksmith printer
machinist operator manager director professional worker founder entrepreneur ceo cto cfo executive officer assistant
supervisor coordinator planner strategist marketer officer programmer tester dev devops sre
""".split())
"""The last word of a job: "a (freelance) translator", "a (primary school) teacher"."""
_NOT_JOB_BEFORE = frozenset("""
good great bad terrible awful keen avid amateur hobby huge big massive decent slow fast nervous
confident careful lazy messy picky fussy home weekend sunday bedroom wannabe aspiring former
retired frustrated tired lousy poor better worse best worst total complete proud happy lucky
first-time self-taught excellent amazing fantastic brilliant wonderful talented skilled natural
hobbyist hobbiest budding enthusiastic passionate decent mediocre average struggling failed wanna-be
""".split())
_NEEDS_MOD = frozenset("assistant officer executive operator professional worker".split())
"""Job words that name a job only with what kind ("a teaching assistant", "an HR professional")."""
"""Words that make "a keen gardener", "a terrible cook", "a former nurse" no job."""
_JOB = (r"(?:an?\s+)((?:(?!(?:of|a|an|the|bit|kind|sort|like|and|or|but|who|that|lot|little|real|total|"
        r"complete|such|very|really|pretty|fan|person|with|in|at|for|to|from|and|who|i|my|your)\b)[A-Za-z][\w-]*\s+){0,3}(?:" + "|".join(sorted(JOBS, key=len, reverse=True))
        + r"))(?![\w'’-])(?!\s+(?:of\s+(?:the|my)|friend|mum|mom|dad|parent|at\s+heart|by\s+(?:nature|trade)|"
        r"in\s+training|wannabe|services?|network|company|firm|agency|platform|tool|team|group|programs?|software|"
        r"apps?|level|role|position|job|course|degree|school|training|kit|mode)\b)")

_CONDITIONS = (r"type\s+[12]\s+diabetes|diabetes|asthma|epilepsy|co?eliac\s+disease|celiac\s+disease|"
               r"crohn['’]s(?:\s+disease)?|ulcerative\s+colitis|colitis|ibs|arthritis|rheumatoid\s+arthritis|"
               r"osteoporosis|migraines|adhd|autism|dyslexia|eczema|psoriasis|high\s+blood\s+pressure|"
               r"hypertension|high\s+cholesterol|tinnitus|sleep\s+apn(?:o)?ea|a\s+heart\s+condition|"
               r"heart\s+disease|copd|multiple\s+sclerosis|parkinson['’]s|dementia|alzheimer['’]s|"
               r"long\s+covid|fibromyalgia|endometriosis|pcos|lupus|gout|hypothyroidism|"
               r"an\s+underactive\s+thyroid|glaucoma|hay\s+fever|a\s+bad\s+back|a\s+bad\s+knee|"
               r"a\s+dodgy\s+knee|plantar\s+fasciitis|anaemia|anemia|gerd|acid\s+reflux|chronic\s+fatigue")
_DIETS = r"vegetarian|vegan|pescatarian|pescetarian|flexitarian|plant-based|teetotal|teetotaller|keto|paleo"
_INTOLERANT = r"lactose|gluten|dairy|wheat|fructose|histamine|egg|soy|caffeine|alcohol|fodmap"
_ALLERGY_ADJ = r"(?:(?:very|really|severely|quite|mildly|badly|extremely|deathly|slightly|highly|seriously)\s+)?"
_NOT_FOOD = re.compile(r"^(?:that|this|it|them|much|anything|any|too|more|out|there|here|right|now|well|"
                       r"enough|a lot|lots|as|so|the same|after|before|on|in|at|with|without|until|"
                       r"properly|normally|all|everything|what|when|while|because|since|for|like)\b",
                       re.IGNORECASE)

# (pattern matched right after the subject, predicate, value kind); value kind: "one" the
# last group, "list" the last group split into items, "job" a job phrase (and "at" its
# employer as works_at), or a fixed value.
_ANY, _NO_WE = "any", "no_we"
"""Which subjects a pattern reads: any ("we moved to York", "we're vegan"), or not "we" (a
household has no one job, age or allergy)."""
_PERF = r"(?:\s+(?:have|has)|['’]ve|['’]s)"
_BE0 = r"(?:\s+(?:am|is|are)|['’](?:m|s|re))"
_WORKING = r"(?:\s+works?|" + _BE0 + _ADV + r"\s+working)"
_PRED: list[tuple[re.Pattern[str], str, str, str]] = [
    (re.compile(_ADV + r"(?:\s+lives?|" + _BE0 + _ADV + r"\s+living|" + _PERF + _ADV + r"\s+(?:been\s+living|lived))"
                r"(?:\s+with\s+(?:[^,.;!?\n]{1,40}?))?\s+in\s+" + _PLACE), "lives_in", "one", _ANY),
    (re.compile(_ADV + r"(?:" + _PERF + r")?" + _ADV + r"\s+(?:moved|relocated)\s+(?:back\s+)?to\s+" + _PLACE),
     "lives_in", "one", _ANY),
    (re.compile(_BE + r"\s+(?:based|settled)\s+in\s+" + _PLACE), "lives_in", "one", _ANY),
    (re.compile(_BE + r"\s+(?:originally\s+)?from\s+" + _PLACE), "from", "one", _NO_WE),
    (re.compile(_WORKING + r"\s+(?:at|for)\s+(?!(?:home|myself|himself|herself|themselves|free|a\s+living|hours|"
                r"years|months|weeks|a\s+while|ages|the\s+moment)\b)" + _VALUE), "works_at", "one", _NO_WE),
    (re.compile(_ADV + r"(?:" + _PERF + r")?" + _ADV + r"\s+(?:(?:got|started|landed|accepted|took)\s+(?:a\s+|the\s+)?"
                r"(?:new\s+)?(?:job|position|role)|started\s+working)\s+at\s+" + _VALUE), "works_at", "one", _NO_WE),
    (re.compile(_ADV + r"(?:" + _PERF + r")?" + _ADV + r"\s+(?:got|started|landed|accepted|took)\s+(?:a\s+|the\s+)?"
                r"(?:new\s+)?(?:job|position|role)\b[^.;!?]{0,60}?\bas\s+" + _JOB), "job", "job", _NO_WE),
    (re.compile(_BE0 + _ADV + r"\s+(?:visiting|over)\s+from\s+" + _PLACE), "from", "one", _NO_WE),
    (re.compile(_ADV + r"\s+(?:was|were)\s+born\s+(?:and\s+raised\s+)?in\s+" + _PLACE), "born_in", "one", _NO_WE),
    (re.compile(_WORKING + r"\s+as\s+(?:an?\s+)?" + _VALUE), "job", "one", _NO_WE),
    (re.compile(_ADV + r"(?:\s+(?:just\s+)?got\s+a\s+(?:new\s+)?job|" + _PERF + _ADV + r"\s+been\s+working)\s+as\s+(?:an?\s+)?"
                + _VALUE), "job", "one", _NO_WE),
    (re.compile(_BE + r"\s+(?:now\s+)?(retired)(?![\w-])(?!\s+(?:from\s+)?(?:the|my|that|this|it)\b)"), "job", "one", _NO_WE),
    (re.compile(r"(?:" + _BE + r"|" + _PERF + _ADV + r"\s+been)\s+" + _JOB), "job", "job", _NO_WE),
    (re.compile(_BE + r"\s+" + _ALLERGY_ADJ + r"allergic\s+to\s+" + _LIST), "allergic_to", "list", _NO_WE),
    (re.compile(_HAVE + r"\s+(?:an?\s+)?(?:(?:really|very|quite|pretty)\s+)?(?:(?:severe|mild|serious|bad|slight|"
                r"life-threatening|nasty|real)\s+)?([a-z][\w-]*(?:\s+(?!allerg)[a-z][\w-]*)?)\s+allerg(?:y|ies)\b"),
     "allergic_to", "one", _NO_WE),
    (re.compile(_BE + r"\s+(?:(?:very|really|quite|mildly|severely|slightly)\s+)?(" + _INTOLERANT
                + r")[- ]intolerant\b"), "intolerant_to", "one", _NO_WE),
    (re.compile(_BE + r"\s+intolerant\s+(?:to|of)\s+" + _LIST), "intolerant_to", "list", _NO_WE),
    (re.compile(_HAVE + r"\s+(?:an?\s+)?(?:(?:severe|mild|bad|slight)\s+)?(" + _INTOLERANT + r")\s+intolerance\b"),
     "intolerant_to", "one", _NO_WE),
    (re.compile(_BE + r"\s+(?:(?:a|type\s+[12])\s+)?(co?eliac|celiac|diabetic|asthmatic|epileptic|anaemic|anemic|"
                r"autistic|dyslexic|colou?r-?blind)(?![\w-])"), "condition", "one", _NO_WE),
    (re.compile(r"(?:" + _HAVE + r"|" + _ADV + r"(?:\s+suffers?\s+from|" + _PERF + r"\s+(?:been\s+)?diagnosed\s+with|"
                r"\s+(?:was|got)\s+diagnosed\s+with|\s+lives?\s+with))\s+(" + _CONDITIONS + r")(?![\w'’-])",
                re.IGNORECASE), "condition", "one", _NO_WE),
    (re.compile(_BE + r"\s+(?:(?:a|an)\s+)?(?:(?:strict|lifelong|fully|mostly|full-time)\s+)?(" + _DIETS
                + r")(?![\w-])(?!\s+(?:restaurants?|recipes?|options?|dish(?:es)?|meals?|food|place|caf[eé]|"
                r"version|friendly|alternatives?|diet|cookbook|cheese|burger|sausages?|menu|at\s+heart)\b)"),
     "diet", "one", _ANY),
    (re.compile(_BE + r"\s+on\s+an?\s+((?:[a-z][\w-]*\s+){0,2}?[a-z][\w-]*\s+diet)\b"), "diet", "one", _ANY),
    (re.compile(_ADV + r"(?:" + _PERF + r"|" + _BE0 + r")?" + _ADV + r"\s+(?:gone|went|turned|become|became|going)\s+(?:fully\s+)?("
                + _DIETS + r")(?![\w-])"), "diet", "one", _ANY),
    (re.compile(_ADV + r"\s+(?:keeps?|eats?|only\s+eats?)\s+(kosher|halal)\b"), "diet", "one", _ANY),
    (re.compile(_ADV + r"\s+(?:can['’]t|cannot|can\s+not|don['’]t|do\s+not|doesn['’]t|does\s+not|never|no\s+longer)"
                r"\s+(?:eat|drink|tolerate|digest)\s+(?!(?:much|that|this|it|them|anything|any|enough|too|out|there|"
                r"here|after|before|at|in|on|with|without|like|as|so|properly|normally|well|more|all|everything|"
                r"what|for|a\s+lot|lots|very|late|alone|fast|quickly|slowly|the\s+same)\b)" + _LIST),
     "avoids", "list", _NO_WE),
    (re.compile(_ADV + r"\s+(?:don['’]t|do\s+not|doesn['’]t|does\s+not|never|no\s+longer)\s+drink"
                r"(?=\s*(?:[.,;!]|$|\s+(?:alcohol|at\s+all|anymore|any\s+more|now|these\s+days)\b))"),
     "avoids", "alcohol", _NO_WE),
    (re.compile(_BE0 + r"\s+(\d{1,2}|1[01]\d)(?![.,]\d|%)(?:\s+years?\s+old|\s+y/?o)?"
                r"(?=\s*(?:[.,;!]|$|\s+(?:and\s+(?!a\s+half)|but|so|now|this|next|already|going\s+on)\b))"),
     "age", "one", _NO_WE),
    (re.compile(_ADV + r"(?:" + _PERF + r")?" + _ADV + r"\s+turned\s+(\d{1,2}|1[01]\d)(?![\w,.:%/-])"
                r"(?!\s+(?:minutes|hours|degrees|percent|pages|miles|km|points|times)\b)"), "age", "one", _NO_WE),
]
"""What is said of a subject, each matched at the subject's end."""
_KIN_HAVE = re.compile(_HAVE + r"\s+(?:a|an|one|two|three|four|five|six|\d)\s+" + _MODS + r"{0,2}(?P<kin2>"
                       + _KIN_ALT + r")(?:\s*,\s*|\s+(?:called|named)\s+|\s*:\s*|\s+[-–—]\s+)(?P<names>" + _NAMES
                       + r")(?![\w'’-])")
"""The relatives and pets one has, named: "We have two kids, Leo and Mia", "I have a dog called Biscuit"."""
_KIN_ARE = re.compile(_BE0 + r"\s+(?:(?:called|named)\s+(?P<names>" + _NAMES + r")|(?P<both>" + _NAME
                      + r"(?:(?:,\s*|\s+and\s+|,\s+and\s+|\s*&\s*)" + _NAME + r")+))(?![\w'’-])"
                      r"(?=\s*(?:[.,;!?)]|$|\s[-–—]\s|\s+(?:and|but|so|who|respectively)\b))")
"""A relative named by "is / are": "my dog is called Biscuit", "my parents are Rosa and Ivan"."""
_KIN_LIST = re.compile(r"[MmOo](?<![\w'’].)(?:(?<=[Mm])y|(?<=[Oo])ur)\s+" + _MODS + r"?(?P<kin2>" + _KIN_ALT + r")(?:\s*,\s*|\s+)"
                       r"(?P<names>" + _NAME + r"(?:(?:,\s*|\s+and\s+|,\s+and\s+|\s*&\s*)" + _NAME + r")+)(?![\w'’-])")
"""Several named at once: "my kids Leo and Mia", "our dogs, Biscuit and Pickle". ("my" or "our" opening a
word, written so that the pattern opens on the class of their first letters, as :data:`_GATE` is: ``re``
skips to them at once; session 56, spd56.)"""
_OUR_ONE = re.compile(r"[Oo](?<![\w'’].)ur\s+" + _MODS + r"?(?P<kin2>" + _KIN_ALT + r")(?:\s*,\s*|\s+)(?:(?:is\s+)?"
                      r"(?:called|named)\s+)?(?P<names>" + _NAME + r")(?![\w'’-])")
"""One named by "our": "our son Leo" (the user's own "my son Leo" is the first-person patterns'). (Opening
on "O" or "o", as :data:`_KIN_LIST`; session 56, spd56.)"""

_HYPOTHETICAL = re.compile(
    r"\b(?:if|unless|whether|suppose|supposing|imagine|imagining|pretend|pretending|wish|assume|assuming|"
    r"hypothetically|maybe|perhaps|probably|possibly|might|could|would|should|think|thought|guess|"
    r"suspect|wonder|wondering|doubt|sure|believe|hope|hoping|afraid|worried|worry|scared|if\s+only|"
    r"what\s+if|in\s+case|as\s+if|as\s+though|even\s+though|not|never|no\s+longer|n't|said|says|"
    r"saying|told|tells|tell|asked|asks|claims?|claimed|according|wrote|writes|texted|mentioned|"
    r"heard|where|story|character|role|roleplay|scenario|game|novel|play|act|acting|someone|"
    r"somebody|everyone|nobody|anyone|people|when|whenever|once|used|back\s+then|at\s+the\s+time|"
    r"as\s+a\s+kid|as\s+a\s+child|growing\s+up|was|were|had|did|let|pretend|like|explain)\b",
    re.IGNORECASE)
"""Words before a statement, in its clause, that make it no statement of fact: a condition,
a wish, a hedge, a negation, reported speech, a scene, a past time ("When I was a nurse…",
"She said I'm…", "In the story I live…")."""
_SCENE_OPENER = re.compile(
    r"^\W*(?:if|suppose|imagine|pretend|act|write|create|generate|draft|compose|roleplay|role-play|"
    r"let['’]s\s+say|let['’]s\s+pretend|say|hypothetically|assume|assuming|what\s+if|in\s+this\s+story|"
    r"you\s+are|you['’]re|as\s+an?\b)\b", re.IGNORECASE)
"""A sentence that sets a scene or gives an instruction: nothing in it is the user's fact."""
_QUESTION_OPENER = re.compile(
    r"^\W*(?:(?:and|but|so|also|ok|okay|well|hmm|oh),?\s+)*(?:am|is|are|do|does|did|can|could|should|would|will|"
    r"have|has|was|were|what|why|how|where|who|which|when|whose|shall|may|might|isn['’]t|aren['’]t|don['’]t|"
    r"doesn['’]t|any)\b", re.IGNORECASE)
_CLAUSE_BREAK = re.compile(r"[,;:()]|\s[-–—]\s|\b(?:and|but|so|because|since|as|though|although|while|plus)\b",
                           re.IGNORECASE)


_VERB_IN = re.compile(r"\s(?:is|are|was|were|has|have|had|loves?|likes?|gets?|goes|lives?|works?|does|do|can|"
                      r"will|would|needs?|wants?|eats?|drinks?)\b")
"""A verb after a list's first word: a new clause ("bees and Maya loves horses")."""


def _items(text: str) -> list[str]:
    """The things of a list, as said ("peanuts, tree nuts and shellfish" -> three)."""
    out: list[str] = []
    for part in re.split(r"\s*,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|\s*&\s*|\s*/\s*", text):
        part = part.strip(" \"'`-")
        part = re.sub(r"^(?:the|a|an|any|all|most|some|certain|raw|cooked)\s+", "", part, flags=re.IGNORECASE)
        if not part:
            continue
        if (len(part.split()) > 4 or re.match(r"(?:i|we|he|she|they|it|you|my|our|his|her|their|that|this)\b",
                                              part, re.IGNORECASE) or _NOT_FOOD.match(part)
                or (out and _VERB_IN.search(part))):
            break  # a new clause ("cats and I have a dog"), not a thing of the list
        out.append(part)
    return out


def _clean(value: str) -> str:
    value = value.strip(" \"'`,:-")
    if len(value.split()) > 1:
        value = re.sub(r"^(?:the|a|an|my|our)\s+", "", value, flags=re.IGNORECASE)
    return value


def _job_value(phrase: str) -> str | None:
    """A job as said ("senior software engineer"), or None for a judgement ("a terrible cook")."""
    words = phrase.split()
    if any(w.lower() in _NOT_JOB_BEFORE for w in words[:-1]):
        return None
    if len(words) == 1 and words[0].lower() in _NEEDS_MOD:
        return None
    return " ".join(words)


def asserted(sentence: str, start: int, end: int) -> bool:
    """Whether the statement at ``start:end`` is the speaker's plain statement: not in a
    question, a condition, a hedge, a negation, reported or quoted speech or a scene."""
    if _SCENE_OPENER.match(sentence):
        return False
    head = sentence[:start]
    if head.count('"') % 2 or head.count("“") > head.count("”"):
        return False  # inside quotes
    # the clause the statement stands in: from the last break before it
    cut, opener = 0, ""
    for m in _CLAUSE_BREAK.finditer(head):
        cut, opener = m.end(), m.group(0).lower()
    prefix = head[cut:]
    if _HYPOTHETICAL.search(prefix):
        return False
    if sentence.rstrip().endswith("?") and opener not in ("since", "because", "as"):
        # "Since I'm vegan, can I…?", "I'm vegan, what can I cook?": a statement beside a
        # question; "Am I…?", "Can you tell if I'm…?", "… and I live in Leeds?": the question
        if _QUESTION_OPENER.match(prefix) or (cut == 0 and _QUESTION_OPENER.match(sentence)):
            return False
        if _CLAUSE_BREAK.search(sentence, end) is None:
            return False
        if cut and _QUESTION_OPENER.match(sentence) and opener not in (",", ";", ":"):
            return False
    return True


def asserted_matches(pattern: re.Pattern[str], sentence: str) -> Iterator[re.Match[str]]:
    """The matches of ``pattern`` in ``sentence`` that are the speaker's plain statements
    (:func:`asserted`), in order."""
    return (m for m in pattern.finditer(sentence) if asserted(sentence, m.start(), m.end()))


_KIN_PREDS = frozenset(pred for pred, _, _ in _KIN_WORDS.values())
KIN_PREDICATES = _KIN_PREDS | frozenset(("fiancee", "pet"))
"""The predicates naming a relative or a pet: (user, daughter, Maya)."""
PET_PREDICATES = frozenset("dog cat puppy kitten rabbit hamster tortoise parrot horse pet".split())
KIN_WORDS = frozenset(_KIN_WORDS)
"""The words for a relative or pet ("mum", "kids", "dog")."""
PEOPLE_WORDS = frozenset(w for w, (pred, _, _) in _KIN_WORDS.items() if pred not in PET_PREDICATES)
"""The words of :data:`KIN_WORDS` that name a person ("mum", "partner", "kids", "landlord"), not a pet."""


def kin_names(facts: Iterable[Fact], me: str = "user") -> dict[str, str]:
    """A relative's word -> the one name the session gave them ("my daughter Maya"), for
    each relative of ``me`` (the user, or a named speaker) named once only."""
    seen: dict[str, set[str]] = {}
    for f in facts:
        if (f.subject == me and f.predicate in _KIN_PREDS and f.object[:1].isupper()
                and " " not in f.object):
            seen.setdefault(f.predicate, set()).add(f.object)
    return {k: next(iter(v)) for k, v in seen.items() if len(v) == 1}


def _subject(m: re.Match[str], we: bool, names: Mapping[str, str], me: str) -> tuple[str, str, str] | None:
    """(subject, kind, the relative's predicate): kind "i", "we", "kin" or "name"."""
    if m.group("i"):
        return me, "i", ""
    if m.group("we"):
        return (me, "we", "") if we else None
    pred, subj, unnamed = _KIN_WORDS[m.group("kin").lower()]
    if m.group("name"):
        return m.group("name"), "name", pred
    if normalize_predicate(subj) == pred and pred in names:
        return names[pred], "name", pred  # "my daughter" after "my daughter Maya"
    return (f"{me}'s {subj}", "kin", pred) if unnamed else None


_NEXT = re.compile(_ADV + r"(?:" + _PERF + r"|" + _BE0 + r"|'re)?" + _ADV + r"\s+(?:lives?|living|lived|been|moved|"
                   r"relocated|based|settled|originally|from|works?|working|got|started|landed|accepted|took|"
                   r"retired|an?|allergic|very|really|severely|quite|mildly|badly|extremely|deathly|slightly|highly|"
                   r"seriously|lactose|gluten|dairy|wheat|fructose|histamine|egg|soy|caffeine|alcohol|fodmap|"
                   r"intolerant|type|co?eliac|celiac|diabetic|asthmatic|epileptic|anaemic|anemic|autistic|dyslexic|"
                   r"colou?r-?blind|have|has|suffers?|diagnosed|was|strict|lifelong|fully|mostly|full-time|"
                   r"vegetarian|vegan|pescatarian|pescetarian|flexitarian|plant-based|teetotal|teetotaller|keto|paleo|"
                   r"on|keeps?|eats?|only|can't|cannot|can|don't|do|doesn't|does|never|no|\d+|turned|now|were|visiting|over|"
                   r"born|called|named|gone|went|turned|become|became|going)\b", re.IGNORECASE)
"""What can follow a subject that a pattern reads: anything else is skipped at once."""
_SUBJECT_NEXT = r"(?=[\s'’])(?:" + _NEXT.pattern + r")"
_RELATIVE = r"\s+" + _MODS + r"?(?:" + _KIN_ALT + r")(?![\w])"
_GATE = re.compile(r"(?-i:[IiİıWwMmOo])(?<![\w'’].)(?:(?<=[Iiİı])" + _SUBJECT_NEXT + r"|(?<=[Ww])e" + _SUBJECT_NEXT
                   + r"|(?<=[Mm])y" + _RELATIVE + r"|(?<=[Oo])ur" + _RELATIVE + r")", re.IGNORECASE)
"""A subject and a word that can follow it, or a relative: a sentence without one is not read.
"I", "we", "my" or "our" opening a word (``(?<![\\w'’])(?:(?:I|we)`` + :data:`_SUBJECT_NEXT` ``|(?:my|our)``
+ :data:`_RELATIVE` ``)``), written so that its first character is one of a set read case-sensitively
(the ten that "I", "w", "m" and "o" match ignoring case): ``re`` then skips every other character at
once, where a pattern opening with a look-behind or with letters ignoring case is tried at every
character (49 -> 33 ms over the 500 LongMemEval sessions' 7,551 sentences of the user; session 33,
the cost; ``tests/index/test_offline_session33_cost.py`` holds the two forms equal)."""


def _read(m: re.Match[str], who: str, pred: str, how: str, add: Callable[[str, str, str], None],
          text: str) -> None:
    """The fact(s) of one matched predicate."""
    if how == "list":
        for item in _items(m.group(1)):
            add(who, pred, item)
    elif how == "job":
        value = _job_value(m.group(1))
        if value is None:
            return
        add(who, pred, value)
        if (employer := _AT.match(text, m.end())) is not None:
            learning = value.split()[-1].lower() in _LEARNING
            add(who, "studied_at" if learning else "works_at", employer.group(1))
    elif how == "one" and pred == "job":
        # "a nurse at a small clinic in Leeds": the job, and where
        job, at, where = (re.split(r"\s+(at|with|for|in)\s+", m.group(1), maxsplit=1) + ["", ""])[:3]
        add(who, pred, job)
        if at in ("at", "with", "for") and where and not where[:1].isdigit():
            add(who, "works_at", where)
    elif how == "one":
        add(who, pred, m.group(1))
    else:
        add(who, pred, how)


def people_facts(sentence: str, seq: int | None, *, we: bool = True,
                 names: Mapping[str, str] | None = None, me: str = "user") -> list[Fact]:
    """The facts one sentence of the user's states about the user and the people in their
    life. ``we``: "we" is the user (a chat with the assistant, not a meeting); ``names``:
    each relative's word the session named once ("daughter" -> "Maya"), which an unnamed
    mention of that relative then means, and whose name can be a subject of its own;
    ``me``: who "I" is — ``user``, or the speaker's name in a conversation among named
    people ("my sister" is then ``Caroline's sister``, session 19)."""
    names = names or {}
    text = sentence.replace("’", "'")
    evidence = clip(" ".join(sentence.split()), 200, words=True)
    out: list[Fact] = []

    def add(subject: str, pred: str, value: str) -> None:
        value = _clean(value)
        if len(value) < 2 and not value.isdigit():
            return
        if value.lower() in ("it", "that", "this", "them", "there", "here", "home", "one", "him", "her"):
            return
        out.append(Fact(subject, normalize_predicate(pred), value, "stated", seq, evidence))

    subjects: list[tuple[int, int, str, str, str]] = []  # start, end, subject, kind, relative
    for m in _SUBJECT.finditer(text):
        if (found := _subject(m, we, names, me)) is not None:
            subjects.append((m.start(), m.end(), *found))
    for hit in _other_names(text):
        if hit.group(1) not in names.values():
            subjects.append((hit.start(), hit.end(), hit.group(1), "other", ""))
    if names:
        said = [n for n in names.values() if n in text]
        if said:
            for hit in re.finditer(r"(?<![\w'])(" + "|".join(re.escape(n) for n in said) + r")(?![\w-])", text):
                subjects.append((hit.start(), hit.end(), hit.group(1), "name", ""))
    for start, end, who, kind, kin in subjects:
        if kind != "kin" and _NEXT.match(text, end) is None:
            continue  # "I want…", "I need…": no verb any pattern opens with
        # where a predicate may start: after the subject, and after an "and" that follows
        # one ("My mum is 84 and lives in Swindon")
        ends, done = [end], 0
        while done < len(ends) and done < 4:
            pos, done = ends[done], done + 1
            for pattern, pred, how, readers in (_PRED_ANY if kind not in ("we", "other")
                                                else _PRED_WE if kind == "we" else _PRED_OTHER):
                reading = pattern.match(text, pos)
                if reading is None or not asserted(text, start, reading.end()):
                    continue
                if (more := _AND.match(text, reading.end())) is not None:
                    ends.append(more.end())
                _read(reading, who, pred, how, add, text)
        if kind == "kin" and (are := _KIN_ARE.match(text, end)) is not None and asserted(text, start, are.end()):
            # "My parents are Rosa and Ivan", "my dog is called Biscuit"
            for name in _SPLIT_NAMES.split(are.group("names") or are.group("both")):
                add(me, kin, name)
        if (has := _KIN_HAVE.match(text, end)) is not None and asserted(text, start, has.end()):
            kin_pred = _KIN_WORDS[has.group("kin2").lower()][0]
            for name in _SPLIT_NAMES.split(has.group("names")):
                add(who, kin_pred, name)
    for pattern in (_KIN_LIST, _OUR_ONE):
        if pattern is _OUR_ONE and not we:
            continue
        for named in asserted_matches(pattern, text):
            kin_pred = _KIN_WORDS[named.group("kin2").lower()][0]
            for name in _SPLIT_NAMES.split(named.group("names")):
                add(me, kin_pred, name)
    return list({(f.subject, f.predicate, f.object.lower()): f for f in out}.values())


def may_state(sentence: str) -> bool:
    """Whether a sentence may hold one of the statements read here (one scan)."""
    return _GATE.search(sentence) is not None or next(_other_names(sentence), None) is not None
_PRED_ANY = _PRED
_PRED_WE = [p for p in _PRED if p[3] == _ANY]
_PRED_OTHER = [p for p in _PRED if p[1] in ("lives_in", "works_at", "job", "allergic_to", "intolerant_to", "condition",
                                            "diet", "avoids") and "moved" not in p[0].pattern and "based" not in p[0].pattern]
"""What a name nobody introduced can be said to be: a person's home, work, job, allergies and diet
("Priya lives in Leeds", "Sam is allergic to nuts"); not an age, an origin or a move, which
companies and things have too."""
_OTHER_NAME = re.compile("(" + CAPITAL + r"(?<!\w.)" + SMALL + "{2,})"
                         r"(?=\s+(?:also\s+|now\s+|still\s+|just\s+|actually\s+|currently\s+)*(?:is|lives|works|has|can't|"
                         r"cannot|doesn't|does\s+not|never|went|turned)\b|'s\s+(?:allergic|vegan|vegetarian|a\s|an\s|co?eliac))")
"""A first name before a verb the patterns read: "Priya lives in Leeds" (at a clause's start:
:func:`_other_names`). A capital opening a word: ``(?<!\\w.)`` after the capital is ``\\b`` before it,
written so that the pattern opens on the capitals' class, which ``re`` skips to at once (session 56,
spd56: about half the time of a search)."""
_OPENS_CLAUSE = re.compile(r"(?:^|[,;:]|\band|\bbut|\bso)\W{0,2}$")


def _other_names(text: str) -> Iterator[re.Match[str]]:
    for m in _OTHER_NAME.finditer(text):
        if m.group(1) not in _NOT_NAMES and _OPENS_CLAUSE.search(text, max(0, m.start() - 6), m.start()):
            yield m
_NOT_NAMES = frozenset("""This That There Here What Which Who Where When Why How Everyone Everything Nobody Nothing
Someone Something Anyone Anything Today Tomorrow Yesterday Monday Tuesday Wednesday Thursday Friday Saturday Sunday
January February March April June July August September October November December Also Then Now Still Just And
But The His Her Their Your Mine Ours She They You Yes Yeah Well Sure Okay Honestly Basically Actually
Spring Summer Autumn Winter Fall Christmas Easter
""".split())
_AND = re.compile(r",?\s+and(?=\s)")
_SPLIT_NAMES = re.compile(r",\s*(?:and\s+)?|\s+and\s+|\s*&\s*")
_AT = re.compile(r"\s+(?:at|with|for)\s+(?!\d)(?!(?:home|the\s+moment|heart|least|most|work|times?|a\s+living|"
                 r"years|months|weeks|ages|a\s+while|free|myself|now|a\s+(?:few|couple|long|while|bit|year|decade)|"
                 r"two|three|four|five|six|seven|eight|nine|ten|over|nearly|almost|about|around|the\s+(?:past|last))\b)"
                 + _VALUE)
"""The employer after a job: "a nurse at St Thomas' hospital"."""
_LEARNING = ("student", "postdoc", "intern", "apprentice", "trainee")
