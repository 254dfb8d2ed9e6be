"""Find benchmark text copied into the repository (the rule: LongMemEval's and LoCoMo's
questions, answers, turns and summaries never enter it; record ids may).

    .venv/bin/python tools/bench_text_check.py --data longmemeval_s_dev.json.xz \
        --data longmemeval_oracle_dev.json.xz --data locomo_dev.json [--words 8] [--quoted 5] \
        [--common 3] [--tally 6,8,10] [--root DIR] [--accept FILE]

Reads every benchmark string of the ``--data`` files (LongMemEval: questions, answers, turn
texts; LoCoMo: questions, answers, turn texts and their image captions and queries, the
observations, session summaries and event summaries; ``.xz`` opened with ``lzma``) and every
text file of the repository under ``--root`` (default: this checkout): README.md, docs/, src/,
tools/, tests/, binary files and the shipped labelled sets ``src/memlane/bench/summaries/*.json``
(the project's own writing) left out. Of a Python file only its comments and string literals
are read (the code is no prose; each literal is a quoted span), of CSS, JavaScript and SQL their
comments, of HTML the text between tags. Both sides are cut into words the same way
(lower-cased, letters and digits, an inner apostrophe kept; punctuation and line breaks
dropped), so a run of words matches whatever its punctuation, case and wrapping.

It prints, as ``file:line``, every run of ``--words`` (default 8) or more consecutive words of a
file that occurs verbatim in one benchmark string (overlapping runs merged into one hit), and
every quoted span (``"…"`` or ``“…”``) of ``--quoted`` (default 5) or more words whose words all
occur, in order and contiguous, in one benchmark string; after each hit, where the benchmark
holds it (a record id, never its text) and how many more distinct strings hold it (a run: its
rarest n-gram), and a key (12 hex digits of its words' hash). Exit 1 when anything is found, 0
when nothing is. Never a hit: a span mostly of numbers or single letters (a table row), of
capitalised words alone (the weekdays), or a title (every word of four letters or more
capitalised: a name, as ids are). ``--common K`` (default 3; 0 keeps every hit) leaves out a
hit more than K distinct strings hold: a phrase of the language (an offer of more help, a time
expression) that LongMemEval's thousands of assistant turns share, rather than one record's
text. A LongMemEval question is held by itself and the one or two evidence turns that restate
it: every copied question found in this repository was held by 3 strings or fewer. ``--accept FILE`` (default
``tools/bench_text_check.accept``) lists hits looked at and kept, ``PATH KEY  # why`` a line:
phrases alike by chance that are no copy, named by their key so the file holds no text.

``--tally 6,8,10`` prints instead how many run hits each length finds, per file: short common
phrases match by chance, and the count across lengths shows where chance ends.

Word n-grams are hashed over the repository's side (about 1.5 million words) and the benchmark
strings are streamed past them, each cut where it holds a word the repository never uses.
"""

from __future__ import annotations

import argparse
import bisect
import hashlib
import io
import json
import lzma
import re
import sys
import tokenize
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLACES = ("README.md", "docs", "src", "tools", "tests")
"""What is read under the root: a file, or a folder walked whole."""
SKIP = ("src/memlane/bench/summaries/*.json", "src/memlane/bench/summaries/*/*.json")
"""The shipped labelled sets (and the second labeller's): the project's own writing."""

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_QUOTES = (re.compile(r'"((?:[^"\n]|\n(?![ \t]*\n)){1,600}?)"'),
           re.compile(r"“((?:[^”\n]|\n(?![ \t]*\n)){1,600}?)”"))
"""A quoted span: straight or curly quotes, at most 600 characters, across a line break but
not a blank line."""


def words(text: str) -> list[str]:
    """The text's words as the matcher compares them."""
    return [m.group().lower().replace("’", "'") for m in _WORD.finditer(text)]


@dataclass(frozen=True)
class Hit:
    path: str
    line: int
    kind: str  # "run" or "quote"
    n_words: int
    text: str  # the file's own words, whitespace collapsed
    source: str  # where the benchmark holds it: a record id and field
    spread: int  # how many distinct benchmark strings hold it (a run: its rarest n-gram)

    @property
    def key(self) -> str:
        """The hit's words, hashed: what an ``--accept`` line names, holding no text."""
        return hashlib.sha1(" ".join(words(self.text)).encode()).hexdigest()[:12]

    def __str__(self) -> str:
        held = self.source if self.spread == 1 else f"{self.source} and {self.spread - 1} more"
        return f"{self.path}:{self.line}: {self.kind} of {self.n_words} words [{held}] {self.key}: {self.text}"


def read_accepted(path: Path) -> set[tuple[str, str]]:
    """An ``--accept`` file's (path, key) pairs: a line ``PATH KEY  # why``, ``#`` lines and
    blank lines skipped."""
    accepted = set()
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        if len(parts) != 2 or not re.fullmatch(r"[0-9a-f]{12}", parts[1]):
            raise SystemExit(f"error: {path}:{number}: expected PATH KEY, the KEY of 12 hex digits")
        accepted.add((parts[0], parts[1]))
    return accepted


@dataclass
class _File:
    path: str
    text: str
    ids: list[int]
    starts: list[int]  # each word's first character
    ends: list[int]  # each word's end
    newlines: list[int]

    def line(self, offset: int) -> int:
        return bisect.bisect_right(self.newlines, offset) + 1

    def span(self, first: int, last: int) -> str:
        return " ".join(self.text[self.starts[first]:self.ends[last]].split())


class _Vocab(dict[str, int]):
    def id(self, word: str) -> int:
        found = self.get(word)
        if found is None:
            found = self[word] = len(self)
        return found


def _read_file(path: str, text: str, vocab: _Vocab) -> tuple[_File, list[tuple[int, int]]]:
    """The file's words as ids, a -1 (no benchmark word) between two parts read apart; and the
    (start, end) of its quoted spans."""
    ids: list[int] = []
    starts: list[int] = []
    ends: list[int] = []
    parts, literals = regions(path, text)
    quoted = list(literals)
    for start, end, joined in parts:
        if ids and ids[-1] != -1 and not joined:
            ids.append(-1)
            starts.append(ends[-1])
            ends.append(ends[-1])
        for m in _WORD.finditer(text, start, end):
            ids.append(vocab.id(m.group().lower().replace("’", "'")))
            starts.append(m.start())
            ends.append(m.end())
        for pattern in _QUOTES:
            quoted.extend(m.span(1) for m in pattern.finditer(text, start, end))
    newlines = [i for i, ch in enumerate(text) if ch == "\n"]
    return _File(path, text, ids, starts, ends, newlines), quoted


_PREFIX = re.compile(r"[A-Za-z]*('\'\'|\"\"\"|'|\")")
_JOINS = {tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.COMMENT}
_COMMENTS = re.compile(r"/\*.*?\*/|//[^\n]*|--[^\n]*", re.S)
_TAG = re.compile(r"<[^>]*>|\{[{%].*?[%}]\}", re.S)

Parts = list[tuple[int, int, bool]]


def regions(path: str, text: str) -> tuple[Parts, list[tuple[int, int]]]:
    """The parts of a file that are prose, as (start, end, joined to the one before): a run of
    words never crosses from one part to the next unless joined. Python: its comments and string
    literals (a comment line joined to the comment line before, a literal to the literal before
    across only line breaks, ``+`` or brackets); CSS, JavaScript and SQL: their comments; HTML:
    the text between tags; anything else whole. Second, the spans quoted by the code itself
    (Python's string literals), each a quoted span."""
    name = path.rsplit("/", 1)[-1]
    suffix = name.rsplit(".", 1)[-1] if "." in name else ""
    if suffix == "py":
        try:
            return _python_regions(text)
        except (tokenize.TokenError, IndentationError, SyntaxError):
            return [(0, len(text), False)], []
    if suffix in ("css", "js", "sql"):
        return [(m.start(), m.end(), False) for m in _COMMENTS.finditer(text)], []
    if suffix == "html":
        parts, last = [], 0
        for m in _TAG.finditer(text):
            parts.append((last, m.start(), False))
            last = m.end()
        return [*parts, (last, len(text), False)], []
    return [(0, len(text), False)], []


def _python_regions(text: str) -> tuple[Parts, list[tuple[int, int]]]:
    lines = [0]
    for i, ch in enumerate(text):
        if ch == "\n":
            lines.append(i + 1)
    parts: Parts = []
    literals: list[tuple[int, int]] = []
    last = None  # the kind of the part before, while nothing but joins came after it
    middle = getattr(tokenize, "FSTRING_MIDDLE", None)
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        start = lines[tok.start[0] - 1] + tok.start[1]
        end = lines[tok.end[0] - 1] + tok.end[1]
        if tok.type == tokenize.STRING:
            quote = _PREFIX.match(tok.string)
            if quote:
                start, end = start + quote.end(), end - len(quote.group(1))
            parts.append((start, end, last == "string"))
            literals.append((start, end))
            last = "string"
        elif middle is not None and tok.type == middle:
            parts.append((start, end, last == "string"))
            last = "string"
        elif tok.type == tokenize.COMMENT:
            parts.append((start + 1, end, last == "comment"))
            last = "comment"
        elif tok.type in _JOINS or (tok.type == tokenize.OP and tok.string in "+()[]"):
            if last == "comment" and tok.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT):
                last = None
        else:
            last = None
    return parts, literals


def _segments(text: str, vocab: dict[str, int], shortest: int) -> Iterator[list[int]]:
    """A benchmark string's words as the repository's ids, cut at each word it never uses."""
    run: list[int] = []
    for word in words(text):
        found = vocab.get(word)
        if found is None:
            if len(run) >= shortest:
                yield run
            run = []
        else:
            run.append(found)
    if len(run) >= shortest:
        yield run


def scan(files: dict[str, str], strings: Iterable[tuple[str, str]], sizes: Iterable[int] = (8,),
         quoted: int = 5, common: int | None = None) -> dict[int | str, list[Hit]]:
    """The hits of ``strings`` (benchmark text, with where it comes from) in ``files`` (path
    -> text): for each size in ``sizes``, the merged runs of that many words or more (key: the
    size); under ``"quote"``, the quoted spans of ``quoted`` words or more. A hit held by more
    than ``common`` distinct strings (a run: its rarest n-gram) is left out: a phrase of the
    language, not a copied text."""
    sizes = sorted(set(sizes))
    vocab = _Vocab()
    pairs = [_read_file(path, text, vocab) for path, text in files.items()]
    read = [f for f, _ in pairs]
    grams: dict[int, set[int]] = {n: set() for n in sizes}
    for f in read:
        ids = f.ids
        for n in sizes:
            grams[n].update(hash(tuple(ids[p:p + n])) for p in range(len(ids) - n + 1))
    spans: dict[int, list[tuple[_File, int, int, tuple[int, ...]]]] = defaultdict(list)
    for f, quotes_of in pairs:
        for begin, finish in sorted(set(quotes_of)):
            first = bisect.bisect_left(f.starts, begin)
            last = bisect.bisect_left(f.starts, finish) - 1
            while first <= last and f.ids[first] == -1:  # a mark between two parts, at an end
                first += 1
            while last >= first and f.ids[last] == -1:
                last -= 1
            span = tuple(f.ids[first:last + 1])
            if len(span) >= quoted and -1 not in span:
                spans[hash(span[:quoted])].append((f, first, last, span))

    found: dict[int, dict[int, list]] = {n: {} for n in sizes}  # hash -> [source, strings]
    quotes: dict[tuple[str, int], list] = {}  # (path, first word) -> [file, first, last, source, strings]
    shortest = min([*sizes, quoted])
    seen: set[str] = set()
    for text, source in strings:
        if text in seen:
            continue
        seen.add(text)
        mine: set[int | tuple[str, int]] = set()  # what this string has counted already
        for run in _segments(text, vocab, shortest):
            for n in sizes:
                have, got = grams[n], found[n]
                for p in range(len(run) - n + 1):
                    h = hash(tuple(run[p:p + n]))
                    if h in have and h not in mine:
                        mine.add(h)
                        if h in got:
                            got[h][1] += 1
                        else:
                            got[h] = [source, 1]
            if spans:
                for p in range(len(run) - quoted + 1):
                    for f, first, last, span in spans.get(hash(tuple(run[p:p + quoted])), ()):
                        key = (f.path, first)
                        if key not in mine and tuple(run[p:p + len(span)]) == span:
                            mine.add(key)
                            if key in quotes:
                                quotes[key][4] += 1
                            else:
                                quotes[key] = [f, first, last, source, 1]

    out: dict[int | str, list[Hit]] = {}
    for n in sizes:
        hits = []
        for f in read:
            ids, got = f.ids, found[n]
            start = end = -1
            rarest: list = ["", 0]
            for p in range(len(ids) - n + 1):
                h = hash(tuple(ids[p:p + n]))
                if h not in got:
                    continue
                if p > end:
                    if end >= 0:
                        hits.append(_hit(f, start, end, "run", *rarest))
                    start, rarest = p, got[h]
                elif got[h][1] < rarest[1]:
                    rarest = got[h]
                end = p + n - 1
            if end >= 0:
                hits.append(_hit(f, start, end, "run", *rarest))
        out[n] = [hit for hit in hits if hit is not None and (common is None or hit.spread <= common)]
    found_quotes = (_hit(f, first, last, "quote", source, spread)
                    for f, first, last, source, spread in quotes.values())
    out["quote"] = sorted((hit for hit in found_quotes if hit is not None and (common is None or hit.spread <= common)),
                          key=lambda h: (h.path, h.line))
    return out


def _hit(f: _File, first: int, last: int, kind: str, source: str, spread: int) -> Hit | None:
    text = f.span(first, last)
    found = words(text)
    if 2 * sum(sum(ch.isalpha() for ch in w) >= 2 for w in found) < len(found):
        return None  # mostly numbers or single letters: a list or a table, alike by chance
    raw = _WORD.findall(text)
    if not any(w.isalpha() and w.islower() for w in raw):
        return None  # capitalised words alone: a list of names (the weekdays), a heading in capitals
    long = [w for w in raw if sum(ch.isalpha() for ch in w) >= 4]
    if long and all(w[:1].isupper() for w in long):
        return None  # a title ("The Name of a Novel"): a name, as ids are, not text
    return Hit(f.path, f.line(f.starts[first]), kind, len(found), text, source, spread)


# -- the two sides -------------------------------------------------------------------------

def repository_files(root: Path) -> dict[str, str]:
    """Every text file under the root's ``PLACES``, by its path relative to the root."""
    files: dict[str, str] = {}
    for place in PLACES:
        top = root / place
        paths = [top] if top.is_file() else sorted(p for p in top.rglob("*") if p.is_file())
        for path in paths:
            rel = path.relative_to(root)
            if "__pycache__" in rel.parts or any(part.startswith(".") for part in rel.parts):
                continue
            if any(rel.match(pattern) for pattern in SKIP):
                continue
            data = path.read_bytes()
            if b"\0" in data:
                continue
            try:
                files[rel.as_posix()] = data.decode("utf-8")
            except UnicodeDecodeError:
                continue
    return files


def _open(path: Path) -> object:
    with path.open("rb") as fh:
        xz = fh.read(6) == b"\xfd7zXZ\x00"
    with (lzma.open(path, "rt", encoding="utf-8") if xz else path.open(encoding="utf-8")) as fh:
        return json.load(fh)


def benchmark_strings(path: Path) -> Iterator[tuple[str, str]]:
    """Every string of a LongMemEval or LoCoMo file, with where it comes from."""
    records = _open(path)
    if not isinstance(records, list):
        raise SystemExit(f"error: {path.name}: not a list of records")
    for i, rec in enumerate(records):
        if "question_id" in rec:
            qid = rec["question_id"]
            yield str(rec.get("question", "")), f"{qid} question"
            yield str(rec.get("answer", "")), f"{qid} answer"
            for sid, session in zip(rec.get("haystack_session_ids", []), rec.get("haystack_sessions", [])):
                for t, turn in enumerate(session, start=1):
                    yield str(turn.get("content", "")), f"{sid}_{t}"
        elif "sample_id" in rec:
            yield from _locomo(rec)
        else:
            raise SystemExit(f"error: {path.name}: record {i} is neither LongMemEval's nor LoCoMo's")


def _locomo(rec: dict) -> Iterator[tuple[str, str]]:
    sid = rec["sample_id"]
    for q, qa in enumerate(rec.get("qa", [])):
        for field in ("question", "answer", "adversarial_answer"):
            if field in qa:
                yield str(qa[field]), f"{sid}:{q} {field}"
    conv = rec.get("conversation", {})
    for key, session in conv.items():
        if not (key.startswith("session_") and isinstance(session, list)):
            continue
        for turn in session:
            for field in ("text", "blip_caption", "query"):
                if isinstance(turn.get(field), str):
                    yield turn[field], f"{sid} {turn.get('dia_id')} {field}"
    for speaker_facts in (rec.get("observation") or {}).values():
        for facts in (speaker_facts or {}).values():
            for fact in facts:
                text, where = (fact[0], fact[1]) if isinstance(fact, list) else (fact, "")
                yield str(text), f"{sid} observation {where}".rstrip()
    for key, text in (rec.get("session_summary") or {}).items():
        yield str(text), f"{sid} {key}"
    for key, events in (rec.get("event_summary") or {}).items():
        for speaker, lines in events.items():
            if isinstance(lines, list):
                for line in lines:
                    yield str(line), f"{sid} {key} {speaker}"


def _sizes(text: str) -> list[int]:
    try:
        sizes = [int(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: give word counts, as 6,8,10") from None
    if not sizes or min(sizes) < 2:
        raise argparse.ArgumentTypeError(f"{text!r}: each count must be 2 or more")
    return sizes


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, action="append", required=True,
                    help="a LongMemEval (.json or .json.xz) or LoCoMo file; repeatable")
    ap.add_argument("--words", type=int, default=8, help="the shortest run reported (default 8)")
    ap.add_argument("--quoted", type=int, default=5, help="the shortest quoted span reported (default 5)")
    ap.add_argument("--common", type=int, default=3,
                    help="leave out a hit more than this many distinct benchmark strings hold "
                         "(default 3; 0: keep every hit)")
    ap.add_argument("--tally", type=_sizes, help="count run hits per file at each length, as 6,8,10")
    ap.add_argument("--root", type=Path, default=ROOT, help="the checkout to read (default: this one)")
    ap.add_argument("--accept", type=Path, default=None,
                    help="a file of hits looked at and kept, PATH KEY a line (default: "
                         "tools/bench_text_check.accept under --root, when there is one)")
    args = ap.parse_args(argv)
    if args.words < 2 or args.quoted < 2:
        ap.error("--words and --quoted must be 2 or more")

    files = repository_files(args.root)
    strings = (s for path in args.data for s in benchmark_strings(path))
    sizes = args.tally or [args.words]
    hits = scan(files, strings, sizes, args.quoted, args.common or None)
    accept = args.accept or args.root / "tools" / "bench_text_check.accept"
    accepted = read_accepted(accept) if args.accept or accept.is_file() else set()
    used = {(h.path, h.key) for found in hits.values() for h in found} & accepted
    hits = {kind: [h for h in found if (h.path, h.key) not in accepted] for kind, found in hits.items()}
    for path, key in sorted(accepted - used):
        print(f"note: {accept.name}: {path} {key} matches no hit (reworded? then drop the line)", file=sys.stderr)
    if args.tally:
        per_file: dict[str, dict[int, int]] = defaultdict(lambda: dict.fromkeys(sizes, 0))
        for n in sizes:
            for hit in hits[n]:
                per_file[hit.path][n] += 1
        print("file".ljust(44) + "".join(f"{n:>8}" for n in sizes))
        for path in sorted(per_file):
            print(path.ljust(44) + "".join(f"{per_file[path][n]:>8}" for n in sizes))
        print("total".ljust(44) + "".join(f"{len(hits[n]):>8}" for n in sizes))
        print(f"quoted spans of {args.quoted}+ words: {len(hits['quote'])}")
        return 1 if any(hits.values()) else 0
    found = sorted([*hits[args.words], *hits["quote"]], key=lambda h: (h.path, h.line, h.kind))
    for hit in found:
        print(hit)
    print(f"{len(hits[args.words])} runs of {args.words}+ words, {len(hits['quote'])} quoted spans of "
          f"{args.quoted}+ words, in {len(files)} files ({len(used)} accepted hits left out)", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
