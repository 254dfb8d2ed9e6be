"""Where LoCoMo's (or LongMemEval's) missing evidence stops, stage by stage (docs/retrieval.md, sessions 21 and 30).

    memlane bench locomo --data locomo_dev.json --out before
    .venv/bin/python tools/stage_probe.py --data locomo_dev.json --rankings before \\
        [--out stages.json] [--set retrieval.KEY=VALUE ...] [--variant NAME=KEY:VALUE,... ...]

Each conversation is ingested and indexed once, as the bench does, and every question is
searched with the bench's call while the probe records the search's inner lists: the
candidates, stage one's session ranking and shortlist (``top_sessions``, plus
``gather_sessions`` for a gathering question), stage two's turns per shortlisted session
and the pool the final list is chosen from. It first checks that the rankings equal the
bench's (``rankings-locomo.jsonl`` of ``--rankings``), then classes every evidence turn
outside the first 10 (categories 1-4) by the first stage that loses it:

- ``a``: its session is not on stage one's shortlist (sub-classes by the session's place:
  6-7, 8-10, 11-20, further, or no candidate of the session at all);
- ``b``: the session is shortlisted, but stage two does not keep the turn among the
  session's ``turns_per_session`` (sub-classes: the turn a candidate or not);
- ``c``: the turn is in the pool, but the final list does not put it among the first 10
  turns (sub-classes: below the 10th by score, or the head's non-turn hits, which the bench
  drops, handed its place to the tail's stage-one order). A turn below the 10th by score
  also records the score part that puts it there (``part``: ``score_part``; session 42).

A question missed at R_any@10 is classed by its best-placed evidence turn (c before b before
a); one missed at R_all@10 by the classes of its missing pieces. "At most" counts the
questions a perfect fix of one stage (with the later stages perfect too) would win: every
missing piece in that class (R_all) or one piece in it (R_any).

``--variant`` runs further configurations on the same databases and prints their R_any@10 /
R_all@10 per category, with search CPU p50 / p95, as the earlier rounds' tables. Keys
``sd.*`` are the probe's own (session 22, the session as a document; see
``fuse_session_docs``): ``--variant b015=sd.mode:lin,sd.w:0.15`` adds each session's BM25 as
one document to stage one's score, over an in-memory FTS5 table of the conversation's
sessions built once. Keys ``rm.*`` (session 23, RM3-style relevance feedback; see
``relevance_feedback``): ``--variant r1=rm.w:0.1[,rm.docs:5,rm.terms:10,rm.scope:top,rm.add:1,
rm.gate:speaker]`` re-scores the shortlisted sessions' turns by the weighted words of the best
candidate turns; ``rm.replies:N`` sets how many candidate questions lift their replies
(``memlane.retrieve.search.REPLY_QUESTIONS``, 8).

``--reply-words N`` indexes every conversation with N words of the other speaker's reply in
a turn's keys (``memlane.index.expand.REPLY_WORDS``, 30 since session 24; 0: as before).

``--longmemeval TYPES`` (session 30): ``--data`` is a LongMemEval file; the evaluable
questions of these types (comma-separated, ``--limit N`` the first N) are each ingested and
indexed in a fresh database as ``memlane bench longmemeval`` does, searched with its call,
and every gold turn outside the first 10 is classed by the same stages; ``--rankings`` checks
the first 100 turns against a bench run's ``rankings-turn.jsonl``; ``--variant`` rows print
session R_all@5 / nDCG@5 / turn R_all@10 (questions at 1) and the newest-first count.

``--within-session ROWS`` (an earlier ``--out``; needs the ``meaning`` extra) reads no
database: for each class b and c piece it ranks the turns of the piece's session by their
cosine to the question under the bundled MiniLM (ONNX) and under the static vectors, and
counts where the piece lands (the session's first 5, 6-10, further): what a re-scorer
inside the shortlisted sessions could reach.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import Counter
from pathlib import Path
from typing import Any

import memlane.retrieve.search as S
from memlane.bench.datasets import DatasetError, load_locomo
from memlane.bench.locomo import SCOPE, SEARCH_K, _inputs
from memlane.bench.memrun import FreshMemory, Timings, make_embedder
from memlane.bench.metrics import dedupe, recall_all, recall_any
from memlane.bench.report import read_rankings
from memlane.config import load_config
from memlane.retrieve.gather import gathers
from memlane.retrieve.text import STOPWORDS as STOP

CLASSES = ("c", "b", "a")
REPLY_QUESTIONS = S.REPLY_QUESTIONS


class Recorder:
    """Wraps the search module's stage functions and keeps what the last search passed."""

    def __init__(self) -> None:
        self.last: dict[str, Any] = {}
        self._orig = {n: getattr(S, n) for n in ("_two_stage", "rank_sessions", "_session_turns",
                                                 "_select", "_spread", "_lift")}

    def __enter__(self) -> Recorder:
        o = self._orig
        rec = self.last
        fused: dict[int, float] = {}

        def lift(ctx: Any, cands: Any) -> Any:
            # the relevance the fused lists gave, before the lifts and demotions after them
            fused.clear()
            fused.update({c.id: c.relevance for c in cands})
            return o["_lift"](ctx, cands)

        def two_stage(ctx: Any, cands: Any, k: int, t: Any) -> Any:
            SDOC["ctx"] = ctx
            rec.clear()
            rec.update(cands=[c.id for c in cands], rel={c.id: c.relevance for c in cands},
                       stage2={}, items=ctx.items, query=ctx.query,
                       opts=ctx.opts, speaker=ctx.speaker, fused=dict(fused))
            return o["_two_stage"](ctx, cands, k, t)

        def rank_sessions(*a: Any, **kw: Any) -> Any:
            out = o["rank_sessions"](*a, **kw)
            if SDOC.get("opts"):
                out = fuse_session_docs(out, SDOC["ctx"], SDOC["opts"])
            if RM.get("opts"):
                out = relevance_feedback(out, a[0], SDOC["ctx"], RM["opts"],
                                         lambda: o["rank_sessions"](*a, **kw))
            rec["sessions"] = [s.key for s in out]
            rec["sscore"] = {s.key: s.score for s in out}
            return out

        def session_turns(ctx: Any, sid: Any, n: int, cands: Any, late: int = 0) -> Any:
            out = o["_session_turns"](ctx, sid, n, cands, late)
            rec["stage2"][sid] = list(out)
            return out

        def spread(ctx: Any, pool: Any, first: Any, n: int) -> Any:
            rec["pool"] = [x.id for x in pool]
            rec["parts"] = {x.id: (x.score, x.signals.get("relevance", 0.0)) for x in pool}
            return o["_spread"](ctx, pool, first, n)

        def select(ctx: Any, pool: Any, n: int, late: Any = frozenset()) -> Any:
            rec.setdefault("pool", [x.id for x in pool])
            rec.setdefault("parts", {x.id: (x.score, x.signals.get("relevance", 0.0))
                                     for x in pool})  # before _select sets the scores it chose by
            out = o["_select"](ctx, pool, n, late)
            rec["head"] = [x.id for x in out]
            return out

        S._two_stage, S.rank_sessions, S._session_turns = two_stage, rank_sessions, session_turns
        S._select, S._spread, S._lift = select, spread, lift
        return self

    def __exit__(self, *exc: Any) -> None:
        for n, f in self._orig.items():
            setattr(S, n, f)


# -- the session as a document (session 22) --------------------------------------------
SDOC: dict[str, Any] = {}
"""The probe's session-document state: ``index`` (the conversation's session index),
``ctx`` (the search being run), ``opts`` (the variant's ``sd.*`` keys; empty: off)."""


class SessionDocs:
    """One conversation's sessions as documents: an in-memory FTS5 table of one row per
    session (its turns' text, and its summary, facts and observations as a second field,
    tokenized as the store's ``items_fts``), and each session's mean turn vector."""

    def __init__(self, store: Any, model: str, sids: list[int]) -> None:
        import sqlite3

        import numpy as np

        self.db = sqlite3.connect(":memory:")
        self.db.execute("CREATE VIRTUAL TABLE sdoc USING fts5(sid UNINDEXED, body, intel, "
                        "tokenize = 'porter unicode61 remove_diacritics 2')")
        self.db.execute("CREATE VIRTUAL TABLE sdoc_sp USING fts5(sid UNINDEXED, spk UNINDEXED, "
                        "body, tokenize = 'porter unicode61 remove_diacritics 2')")
        self.vec: dict[int, Any] = {}
        for sid in sids:
            items = store.session_items(sid)
            turns = [it for it in items if it.kind == "turn"]
            intel = [it.text for it in items if it.kind != "turn"]
            self.db.execute("INSERT INTO sdoc VALUES (?, ?, ?)",
                            (sid, "\n".join(it.text for it in turns), "\n".join(intel)))
            by_spk: dict[str, list[str]] = {}
            for it in turns:
                by_spk.setdefault((it.extra or {}).get("speaker") or "", []).append(it.text)
            for spk, texts in by_spk.items():
                self.db.execute("INSERT INTO sdoc_sp VALUES (?, ?, ?)", (sid, spk, "\n".join(texts)))
            vs = store.item_vectors(model, [it.id for it in turns])
            if vs:
                m = np.mean(np.asarray(list(vs.values())), axis=0)
                n = float(np.linalg.norm(m))
                self.vec[sid] = m / n if n else m

    def bm25(self, terms: list[str], intel: float) -> dict[int, float]:
        from memlane.store.sqlite.rows import fts_query

        match = fts_query(terms)
        if match is None:
            return {}
        rows = self.db.execute(f"SELECT sid, bm25(sdoc, 0, 1.0, {intel}) FROM sdoc "
                               "WHERE sdoc MATCH ?", (match,)).fetchall()
        return {int(sid): -float(b) for sid, b in rows}

    def bm25_speaker(self, terms: list[str], speaker: str) -> dict[int, float]:
        from memlane.store.sqlite.rows import fts_query

        match = fts_query(terms)
        if match is None:
            return {}
        rows = self.db.execute("SELECT sid, bm25(sdoc_sp, 0, 0, 1.0) FROM sdoc_sp "
                               "WHERE sdoc_sp MATCH ? AND spk = ?", (match, speaker)).fetchall()
        return {int(sid): -float(b) for sid, b in rows}

    def cosine(self, qvec: Any) -> dict[int, float]:
        if qvec is None:
            return {}
        return {sid: float(v @ qvec) for sid, v in self.vec.items()}


def fuse_session_docs(ranked: list[Any], ctx: Any, opts: dict[str, str]) -> list[Any]:
    """Stage one's ranking fused with the sessions' document scores (``sd.*`` keys):
    ``sd.mode`` ``lin`` (score + w × top score × doc / best doc) or ``rrf``
    (1/(k + rank) + w/(k + doc rank), k = ``sd.k``); ``sd.w`` the weight; ``sd.signal``
    ``bm25``, ``vec`` or ``both`` (their normalised sum); ``sd.intel`` the second field's
    BM25 weight; ``sd.top`` only the first this many sessions are re-ordered."""
    index: SessionDocs = SDOC["index"]
    if not ranked:
        return ranked
    w = float(opts.get("w", "0.3"))
    mode = opts.get("mode", "lin")
    signal = opts.get("signal", "bm25")
    top_n = int(opts.get("top", "0")) or len(ranked)
    head, tail = ranked[:top_n], ranked[top_n:]
    keys = [s.key for s in head if isinstance(s.key, int)]
    doc: dict[Any, float] = {}
    if signal in ("bm25", "both", "speaker"):
        if signal == "speaker" and ctx.speaker is not None:
            b = index.bm25_speaker(list(ctx.terms), ctx.speaker)
        else:
            b = index.bm25(list(ctx.terms), float(opts.get("intel", "0")))
        mb = max((b.get(k, 0.0) for k in keys), default=0.0) or 1.0
        for k in keys:
            doc[k] = doc.get(k, 0.0) + b.get(k, 0.0) / mb
    if signal in ("vec", "both"):
        c = index.cosine(ctx.qvec)
        vals = [c.get(k, 0.0) for k in keys]
        lo, hi = (min(vals), max(vals)) if vals else (0.0, 1.0)
        for k in keys:
            doc[k] = doc.get(k, 0.0) + ((c.get(k, 0.0) - lo) / (hi - lo) if hi > lo else 0.0)
    top = head[0].score or 1.0
    if mode == "lin":
        for s in head:
            s.score = s.score + w * top * doc.get(s.key, 0.0)
        head.sort(key=lambda s: -s.score)
    else:
        kk = float(opts.get("k", "60"))
        by_doc = sorted(head, key=lambda s: -doc.get(s.key, 0.0))
        dr = {s.key: r for r, s in enumerate(by_doc, start=1)}
        fused = {s.key: 1 / (kk + r) + w / (kk + dr[s.key]) for r, s in enumerate(head, start=1)}
        order = sorted(head, key=lambda s: -fused[s.key])
        scores = sorted((s.score for s in head), reverse=True)
        for s, sc in zip(order, scores, strict=True):  # the old scores, in the new order
            s.score = sc
        head = order
    out = head + tail
    for r, s in enumerate(out, start=1):
        s.rank = r
    return out


# -- relevance feedback, RM3-style (session 23) -----------------------------------------
RM: dict[str, Any] = {}
"""The probe's feedback state: ``df`` (each stem's turn count in the conversation), ``n``
(turns), ``opts`` (the variant's ``rm.*`` keys; empty: off)."""

_SUFFIXES = ("ingly", "edly", "ings", "ing", "ies", "ied", "ers", "er", "ed", "es", "s", "ly")


def stem(word: str) -> str:
    """A crude suffix stripper (the probe's; FTS5's porter is not reachable from Python)."""
    w = word.lower().replace("\u2019", "'")
    if w.endswith("'s"):
        w = w[:-2]
    for suf in _SUFFIXES:
        if w.endswith(suf) and len(w) - len(suf) >= 3:
            return w[: -len(suf)]
    return w


def stems_of(text: str) -> list[str]:
    import re

    return [stem(w) for w in re.findall(r"[A-Za-z][A-Za-z'\u2019]+", text)
            if w.lower() not in STOP and len(w) >= 3]


def conversation_df(store: Any, sids: list[int]) -> None:
    df: Counter[str] = Counter()
    n = 0
    for sid in sids:
        for it in store.session_items(sid, kind="turn"):
            n += 1
            df.update(set(stems_of(it.text)))
    RM["df"], RM["n"] = df, n


def relevance_feedback(ranked: list[Any], cands: list[Any], ctx: Any, opts: dict[str, str],
                       rerank: Any) -> list[Any]:
    """RM3-style feedback for stage two (``rm.*`` keys): the best ``rm.docs`` candidate
    turns (the focused speaker's, when focused) give their words, weighted by the turn's
    relevance, each word's share of the turn and its idf in the conversation; the best
    ``rm.terms`` of those not in the query re-score the turns of the shortlisted sessions
    (``rm.scope`` ``top``; ``cands``: every candidate turn, and stage one ranks again):
    relevance += ``rm.w`` × the turn's expansion weight / the best turn's. ``rm.add`` 1: the
    shortlisted sessions' other turns join the candidates with that score alone.
    ``rm.gate``: ``speaker`` (only focused questions) or ``all``."""
    import math

    from memlane.retrieve.candidates import Candidate
    from memlane.retrieve.speaker import speaker_of

    if not ranked or (opts.get("gate", "speaker") == "speaker" and ctx.speaker is None):
        return ranked
    w = float(opts.get("w", "0"))
    if w <= 0:
        return ranked
    n_docs = int(opts.get("docs", "5"))
    n_terms = int(opts.get("terms", "10"))
    scope = opts.get("scope", "top")
    add = opts.get("add", "1") == "1"
    items = ctx.items
    df, n = RM["df"], RM["n"]

    def own(it: Any) -> bool:
        return ctx.speaker is None or speaker_of(it) in (None, ctx.speaker)

    docs = [c for c in cands if (it := items.get(c.id)) is not None and it.kind == "turn"
            and own(it)]
    docs.sort(key=lambda c: -c.relevance)
    qstems = {stem(t) for t in ctx.terms} | {stem(p) for p in (ctx.speaker or "").split()}
    weight: Counter[str] = Counter()
    for c in docs[:n_docs]:
        st = [x for x in stems_of(items[c.id].text) if x not in qstems and len(x) >= 3]
        if not st:
            continue
        tf = Counter(st)
        for t, f in tf.items():
            weight[t] += c.relevance * f / len(st) * math.log((n + 1) / (df.get(t, 0) + 1))
    expansion = dict(weight.most_common(n_terms))
    if not expansion:
        return ranked
    from memlane.retrieve.gather import gathers as _g

    o = ctx.opts
    n_top = o.top_sessions + (o.gather_sessions if o.gather_sessions and _g(ctx.query) else 0)
    top_keys = [s.key for s in ranked[:n_top] if isinstance(s.key, int)]
    if scope == "top":
        targets: list[Any] = []
        ctx.read_turns(top_keys)
        by_id = {c.id: c for c in cands}
        for k in top_keys:
            for it in ctx.turns_of(k):
                if not ctx.filters.admits_in_session(it):
                    continue
                c = by_id.get(it.id)
                if c is None:
                    if not add:
                        continue
                    items.setdefault(it.id, it)
                    c = by_id[it.id] = Candidate(id=it.id, rrf=0.0, relevance=0.0)
                    cands.append(c)
                targets.append(c)
    else:
        targets = [c for c in cands if (it := items.get(c.id)) is not None and it.kind == "turn"]
    score = {}
    for c in targets:
        st = set(stems_of(items[c.id].text))
        score[c.id] = sum(v for t, v in expansion.items() if t in st)
    best = max(score.values(), default=0.0)
    if best <= 0:
        return ranked
    for c in targets:
        gain = w * score[c.id] / best
        it = items[c.id]
        if ctx.speaker is not None and (sp := speaker_of(it)) is not None and sp != ctx.speaker:
            gain *= o.speaker_factor
        c.relevance += gain
    cands.sort(key=lambda c: -c.relevance)
    if scope != "top":
        return rerank()
    return ranked


def config_of(sets: list[str]) -> Any:
    overrides: dict[str, dict[str, str]] = {}
    for entry in sets:
        key, _, value = entry.partition("=")
        section, _, name = key.partition(".")
        overrides.setdefault(section, {})[name] = value
    return load_config(overrides=overrides) if overrides else load_config()


PARTS = ("its own demotion", "a lift of a hit above it", "another score part", "the fused lists")


def score_part(rec: dict[str, Any], iid: int, first: list[int]) -> str:
    """Which part of the score puts a class c turn below the pool's first 10 turns (``first``),
    each hit scored again with the relevance the fused lists gave it (before the lifts and
    demotions: ``_lift`` and every step after it) in place of its final relevance:

    - ``its own demotion``: so scored, the turn passes the 10th as the 10th stands (the
      speaker focus, the reaction or timeless factor lowered it);
    - ``a lift of a hit above it``: it passes one of the first 10 once they too lose their
      lifts (a fact or observation's, a reply's, a named thing's);
    - ``another score part``: less than half its score gap to the 10th is relevance (the
      session signal, a time window, a pool lift);
    - ``the fused lists``: the lexical and vector lists themselves rank it below."""
    parts, fused = rec["parts"], rec["fused"]

    def unlifted(i: int) -> float:
        score, relevance = parts[i]
        return score - relevance + fused.get(i, 0.0)

    tenth = first[-1]
    if unlifted(iid) > parts[tenth][0]:
        return PARTS[0]
    if unlifted(iid) > min(unlifted(i) for i in first):
        return PARTS[1]
    gap = parts[tenth][0] - parts[iid][0]
    if parts[tenth][1] - parts[iid][1] < gap / 2:
        return PARTS[2]
    return PARTS[3]


def classify(rec: dict[str, Any], inv: dict[str, int], ranking: list[str], evidence: list[str]
             ) -> list[dict[str, Any]]:
    """One record per evidence turn outside the first 10 of ``ranking``."""
    items = rec["items"]
    opts = rec["opts"]
    sessions = rec["sessions"]
    srank = {k: r for r, k in enumerate(sessions, start=1)}
    short = set(rec["stage2"]) | {k for k in sessions[: opts.top_sessions] if isinstance(k, tuple)}
    pool = rec.get("pool", [])
    pool_place = {i: p for p, i in enumerate(pool, start=1)}
    pool_turns = [i for i in pool if (it := items.get(i)) is not None and it.kind == "turn"]
    turn_place = {i: p for p, i in enumerate(pool_turns, start=1)}
    cands = set(rec["cands"])
    head_nonturn = sum(1 for i in rec.get("head", []) if (it := items.get(i)) is not None
                       and it.kind != "turn")
    top10 = set(ranking[:10])
    out = []
    for e in dict.fromkeys(evidence):
        if e in top10:
            continue
        iid = inv.get(e)
        sid = rec["sid_of"].get(e)
        r = srank.get(sid)
        row: dict[str, Any] = {"dia": e, "session_rank": r, "candidate": iid in cands}
        if sid not in short:
            row["cls"] = "a"
            row["sub"] = ("none" if r is None else "6-7" if r <= 7 else "8-10" if r <= 10
                          else "11-20" if r <= 20 else "21+")
        elif iid not in pool_place:
            row["cls"] = "b"
            row["sub"] = "candidate" if iid in cands else "not a candidate"
            row["stage2_len"] = len(rec["stage2"].get(sid, []))
        else:
            row["cls"] = "c"
            row["pool_place"] = pool_place[iid]
            row["turn_place"] = turn_place.get(iid)
            same = [i for i in pool_turns if items[i].session_id == sid]
            row["in_pool_session_rank"] = same.index(iid) + 1 if iid in same else None
            row["head_sessions"] = Counter(items[i].session_id for i in pool_turns[:10]
                                           ).most_common(1)[0][1]
            row["sub"] = ("non-turn hits in the head" if head_nonturn
                          and (turn_place.get(iid) or 99) <= 10 else "below the 10th by score")
            if row["sub"] == "below the 10th by score" and iid is not None:
                row["part"] = score_part(rec, iid, pool_turns[:10])
        row["speaker_focus"] = rec["speaker"] is not None
        row["gathers"] = gathers(rec["query"])
        it = items.get(iid) if iid is not None else None
        row["by_focus"] = (None if rec["speaker"] is None or it is None
                           else (it.extra or {}).get("speaker") == rec["speaker"])
        last = sessions[len(short) - 1] if len(sessions) >= len(short) else None
        if r is not None and last is not None:
            row["session_ratio"] = rec["sscore"][sid] / (rec["sscore"][last] or 1.0)
        if iid in cands:
            own = sorted((rec["rel"][i] for i in rec["cands"] if (x := items.get(i)) is not None
                          and x.kind == "turn" and x.session_id == sid), reverse=True)
            row["rel"] = rec["rel"][iid]
            row["in_session_rank"] = own.index(rec["rel"][iid]) + 1
            row["session_cand_turns"] = len(own)
        out.append(row)
    return out


def run(data: str, configs: dict[str, Any], detail: str,
        sdopts: dict[str, dict[str, str]] | None = None,
        rmopts: dict[str, dict[str, str]] | None = None) -> dict[str, Any]:
    """Per configuration, per question: R_any@10, R_all@10, the ranking; for ``detail``
    the stage records. Search CPU seconds per configuration."""
    embedder = make_embedder(None)
    base = configs[detail]
    rows: dict[str, dict[str, Any]] = {n: {} for n in configs}
    cpu: dict[str, list[float]] = {n: [] for n in configs}
    with Recorder() as recorder:
        for conv in load_locomo(data):
            now = max(s.date for s in conv.sessions)
            with FreshMemory(embedder, config=base) as fm:
                tm = Timings()
                key = fm.ingest(SCOPE, _inputs(conv, "user"), tm)
                fm.index(now, tm)
                sid_items = {dia: sid for (sid, _seq), dia in key.items()}
                if any((rmopts or {}).values()):
                    conversation_df(fm.mem.store, sorted({s for s, _ in key}))
                if any((sdopts or {}).values()):
                    SDOC["index"] = SessionDocs(fm.mem.store, fm.mem.embeddings.model,
                                                sorted({s for s, _ in key}))
                turn_ids = {}
                for sid in {s for s, _ in key}:
                    for it in fm.mem.store.session_items(sid, kind="turn"):
                        if (sid, it.seq) in key:
                            turn_ids[key[(sid, it.seq)]] = it.id
                for qa in conv.qa:
                    if not qa.evidence:
                        continue
                    for name, cfg in configs.items():
                        fm.mem.config = cfg
                        SDOC["opts"] = (sdopts or {}).get(name, {})
                        RM["opts"] = (rmopts or {}).get(name, {})
                        S.REPLY_QUESTIONS = int(RM["opts"].get("replies", REPLY_QUESTIONS))
                        c0 = time.process_time()
                        r = dedupe(fm.search(qa.question, SCOPE, SEARCH_K, now, key, tm))
                        cpu[name].append(time.process_time() - c0)
                        row = {"cat": qa.category, "q": qa.question, "ranking": r,
                               "any": recall_any(r, qa.evidence, 10),
                               "all": recall_all(r, qa.evidence, 10),
                               "n_evidence": len(set(qa.evidence))}
                        if name == detail:
                            rec = dict(recorder.last)
                            rec["sid_of"] = sid_items
                            row["missing"] = classify(rec, turn_ids, r, list(qa.evidence))
                        rows[name][qa.qa_id] = row
    return {"rows": rows, "cpu": cpu}


def run_lme(data: str, configs: dict[str, Any], detail: str, types: list[str],
            limit: int | None = None) -> dict[str, Any]:
    """LongMemEval (session 30): the evaluable questions of ``types``, each in a fresh
    database as the bench builds it, searched with the bench's call per configuration; per
    question the turn ranking's R_all@10, the session ranking's R_all@5 and nDCG@5, and for
    ``detail`` every gold turn outside the first 10 classed as ``classify`` does."""
    from memlane.bench.datasets import load_longmemeval
    from memlane.bench.longmemeval import MAX_K, MIN_IDS, newest_first_rate, question_now
    from memlane.bench.longmemeval import SCOPE as LSCOPE
    from memlane.bench.memrun import SessionInput, TurnInput
    from memlane.bench.metrics import ndcg_any, sessions_from_turns

    embedder = make_embedder(None)
    base = configs[detail]
    rows: dict[str, dict[str, Any]] = {n: {} for n in configs}
    cpu: dict[str, list[float]] = {n: [] for n in configs}
    qs = [q for q in load_longmemeval(data) if q.evaluable and q.question_type in types]
    with Recorder() as recorder:
        for q in qs[:limit]:
            ordered = sorted(q.sessions, key=lambda s: s.date)
            inputs = [SessionInput(s.date, [TurnInput(t.id, t.role, t.content) for t in s.turns])
                      for s in ordered]
            k = min(MAX_K, max(MIN_IDS, q.n_turns))
            now = question_now(q)
            with FreshMemory(embedder, config=base) as fm:
                tm = Timings()
                key = fm.ingest(LSCOPE, inputs, tm)
                fm.index(now, tm)
                sid_items = {ext: sid for (sid, _seq), ext in key.items()}
                turn_ids = {}
                for sid in {s for s, _ in key}:
                    for it in fm.mem.store.session_items(sid, kind="turn"):
                        if (sid, it.seq) in key:
                            turn_ids[key[(sid, it.seq)]] = it.id
                gold = sorted(q.gold_turn_ids)
                for name, cfg in configs.items():
                    fm.mem.config = cfg
                    c0 = time.process_time()
                    r = dedupe(fm.search(q.question, LSCOPE, k, now, key, tm))
                    cpu[name].append(time.process_time() - c0)
                    sr = sessions_from_turns(r)
                    row = {"cat": q.question_type, "q": q.question, "ranking": r,
                           "all": recall_all(r, gold, 10),
                           "s_all5": recall_all(sr, q.gold_session_ids, 5),
                           "s_ndcg5": ndcg_any(sr, q.gold_session_ids, 5),
                           "n_evidence": len(gold)}
                    nf = newest_first_rate([q], {q.question_id: sr})
                    if nf["n"]:
                        row["newest"] = nf["rate"] == 1
                    if name == detail:
                        rec = dict(recorder.last)
                        rec["sid_of"] = sid_items
                        row["missing"] = classify(rec, turn_ids, r, gold)
                    rows[name][q.question_id] = row
    return {"rows": rows, "cpu": cpu}


def lme_report(rows: dict[str, Any]) -> None:
    """Print, for ``run_lme``'s rows, the questions whose turn R_all@10 misses and their
    missing gold turns counted by class and subclass."""
    miss = {q: r for q, r in rows.items() if r["all"] < 1}
    pieces = [dict(m, q=q) for q, r in miss.items() for m in r["missing"]]
    print(f"{len(rows)} questions; turn R_all@10 misses {len(miss)}; missing turns {len(pieces)}")
    for c in CLASSES:
        sub = Counter(m["sub"] for m in pieces if m["cls"] == c)
        print(f"  class {c}: {sum(sub.values())}  {dict(sub.most_common())}")
    for q, r in miss.items():
        print(f"  {q} {r['q'][:70]!r}: " + "; ".join(
            f"{m['dia']} {m['cls']}/{m['sub']} srank {m['session_rank']}"
            + (f" turn_place {m.get('turn_place')}" if m["cls"] == "c" else "")
            + (f" in-session {m.get('in_session_rank')}/{m.get('session_cand_turns')}"
               if m.get("candidate") else " not cand")
            for m in r["missing"]))


def lme_figures(rows: dict[str, Any]) -> str:
    """One line of ``run_lme``'s means: session R_all@5 / nDCG@5 / turn R_all@10 (questions
    with every gold turn found), and how often the newest gold session ranks first."""
    vals = list(rows.values())
    n = len(vals) or 1
    return (f"{sum(r['s_all5'] for r in vals) / n:.3f} / {sum(r['s_ndcg5'] for r in vals) / n:.3f}"
            f" / {sum(r['all'] for r in vals) / n:.3f} ({sum(r['all'] == 1 for r in vals)})"
            f"; newest first {sum(r.get('newest') is True for r in vals)} of "
            f"{sum('newest' in r for r in vals)}")


def figures(rows: dict[str, Any]) -> str:
    def fig(rs: list[Any]) -> str:
        if not rs:
            return "-"
        return f"{sum(r['any'] for r in rs) / len(rs):.3f} / {sum(r['all'] for r in rs) / len(rs):.3f}"

    vals = list(rows.values())
    cells = [fig([r for r in vals if r["cat"] < 5])]
    cells += [fig([r for r in vals if r["cat"] == c]) for c in (1, 2, 3, 4, 5)]
    return " | ".join(cells)


def report(rows: dict[str, Any]) -> None:
    qs = {q: r for q, r in rows.items() if r["cat"] < 5}
    any_miss = [r for r in qs.values() if not r["any"]]
    all_miss = [r for r in qs.values() if r["all"] < 1]
    print(f"categories 1-4: {len(qs)} questions; R_any@10 misses {len(any_miss)}, "
          f"R_all@10 misses {len(all_miss)}")
    pieces = [m for r in all_miss for m in r["missing"]]
    print(f"missing pieces: {len(pieces)}")
    for c in CLASSES:
        sub = Counter(m["sub"] for m in pieces if m["cls"] == c)
        print(f"  class {c}: {sum(sub.values())}  {dict(sub.most_common())}")
    print("R_any@10 misses by their best-placed evidence turn (c > b > a), per category:")
    for c in CLASSES:
        sel = [r for r in any_miss if min((CLASSES.index(m["cls"]) for m in r["missing"]),
                                         default=2) == CLASSES.index(c)]
        cats = Counter(r["cat"] for r in sel)
        subs = Counter(next(m["sub"] for m in r["missing"] if m["cls"] == c) for r in sel)
        print(f"  {c}: {len(sel)}  by category {dict(sorted(cats.items()))}  {dict(subs.most_common())}")
    print("R_all@10 misses by the classes of their missing pieces:")
    combos = Counter("".join(sorted({m["cls"] for m in r["missing"]}, key=CLASSES.index))
                     for r in all_miss)
    for k, v in combos.most_common():
        cats = Counter(r["cat"] for r in all_miss
                       if "".join(sorted({m["cls"] for m in r["missing"]}, key=CLASSES.index)) == k)
        print(f"  {k}: {v}  by category {dict(sorted(cats.items()))}")
    print("at most (a perfect fix of the stage, later stages perfect too):")
    for c in CLASSES:
        win_any = sum(1 for r in any_miss if any(m["cls"] == c for m in r["missing"]))
        win_all = sum(1 for r in all_miss if all(m["cls"] == c for m in r["missing"])
                      and r["n_evidence"] <= 10)
        print(f"  fix {c} alone: R_any@10 +{win_any}, R_all@10 +{win_all}")
    for grp in (("c", "b"), ("c", "b", "a")):
        win_all = sum(1 for r in all_miss if all(m["cls"] in grp for m in r["missing"])
                      and r["n_evidence"] <= 10)
        print(f"  fix {'+'.join(grp)}: R_all@10 +{win_all}")
    part = Counter(m["part"] for m in pieces if "part" in m)
    print(f"  class c below the 10th by score, by the score part that puts it there "
          f"(score_part): {dict(part.most_common())}")
    a_sub = Counter(m["sub"] for m in pieces if m["cls"] == "a")
    focused = Counter((m["cls"], m["speaker_focus"]) for m in pieces)
    print(f"  class a session places {dict(a_sub)}; pieces by (class, speaker focus) {dict(focused)}")


def within_session(data: str, rows_path: str) -> None:
    import numpy as np

    from memlane.backends.embed import get_embedder
    from memlane.bench.locomo import turn_text

    rows = json.loads(Path(rows_path).read_text())["main"]
    turns: dict[tuple[str, str], list[tuple[str, str]]] = {}
    qtext: dict[str, str] = {}
    for conv in load_locomo(data):
        for s in conv.sessions:
            for t in s.turns:
                turns.setdefault((conv.sample_id, t.dia_id.split(":")[0]), []).append(
                    (t.dia_id, turn_text(t)))
        qtext.update({qa.qa_id: qa.question for qa in conv.qa})
    need: dict[tuple[str, str], list[tuple[str, dict[str, Any]]]] = {}
    for q, r in rows.items():
        if r["cat"] < 5 and r["all"] < 1:
            for m in r["missing"]:
                if m["cls"] in "bc":
                    need.setdefault((q.rsplit(":", 1)[0], m["dia"].split(":")[0]), []).append((q, m))
    out: Counter[tuple[str, str, str]] = Counter()
    for name in ("minilm-onnx", "static"):
        emb = get_embedder(name)
        for key, lst in need.items():
            dias = [d for d, _ in turns[key]]
            vecs = np.asarray(emb.embed_batch([t for _, t in turns[key]]))
            for q, m in lst:
                cos = vecs @ np.asarray(emb.embed_batch([qtext[q]]))[0]
                rank = list(np.argsort(-cos)).index(dias.index(m["dia"])) + 1
                out[(m["cls"], name, "first 5" if rank <= 5 else "6-10" if rank <= 10
                     else "11+")] += 1
    for k in sorted(out):
        print(*k, out[k])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", required=True)
    ap.add_argument("--rankings", help="a bench --out directory to check the rankings against")
    ap.add_argument("--out", help="write the rows here (JSON)")
    ap.add_argument("--set", action="append", default=[], help="SECTION.KEY=VALUE (all runs)")
    ap.add_argument("--variant", action="append", default=[],
                    help="NAME=KEY:VALUE,KEY:VALUE (retrieval keys; on top of --set)")
    ap.add_argument("--within-session", metavar="ROWS",
                    help="rank class b / c pieces inside their sessions (see above)")
    ap.add_argument("--longmemeval", metavar="TYPES",
                    help="--data is a LongMemEval file: probe its questions of these types "
                         "(comma-separated, e.g. multi-session; session 30)")
    ap.add_argument("--limit", type=int, default=None, help="with --longmemeval: first N")
    ap.add_argument("--reply-words", type=int, default=None,
                    help="index a turn between two people with this many words of the other "
                         "speaker's reply (memlane.index.expand.REPLY_WORDS, 30; 0: off; "
                         "session 24)")
    args = ap.parse_args()
    import memlane.index.indexer as indexer

    if args.reply_words is not None:
        indexer.REPLY_WORDS = args.reply_words
    if args.within_session:
        within_session(args.data, args.within_session)
        return
    configs = {"main": config_of(args.set)}
    sdopts: dict[str, dict[str, str]] = {}
    rmopts: dict[str, dict[str, str]] = {}
    for v in args.variant:
        name, _, spec = v.partition("=")
        kvs = [kv for kv in spec.split(",") if kv]
        sdopts[name] = {kv[3:].split(":", 1)[0]: kv.split(":", 1)[1] for kv in kvs
                        if kv.startswith("sd.")}
        rmopts[name] = {kv[3:].split(":", 1)[0]: kv.split(":", 1)[1] for kv in kvs
                        if kv.startswith("rm.")}
        extra = [f"retrieval.{kv.replace(':', '=', 1)}" for kv in kvs
                 if not kv.startswith(("sd.", "rm."))]
        configs[name] = config_of([*args.set, *extra])
    if args.longmemeval:
        got = run_lme(args.data, configs, "main", args.longmemeval.split(","), args.limit)
        if args.rankings:
            bench = read_rankings(Path(args.rankings), "turn")
            main_rows = got["rows"]["main"]
            diff = [q for q, r in main_rows.items() if bench.get(q, [])[:100] != r["ranking"][:100]]
            print(f"rankings equal to the bench's (first 100): {len(main_rows) - len(diff)} of "
                  f"{len(main_rows)} (differ: {diff[:5]})")
        lme_report(got["rows"]["main"])
        print("variant | session R_all@5 / nDCG@5 / turn R_all@10 (questions) | CPU p50 / p95 ms")
        for name in configs:
            ms = sorted(1000 * x for x in got["cpu"][name])
            p95 = ms[int(0.95 * (len(ms) - 1))]
            print(f"{name} | {lme_figures(got['rows'][name])} | {statistics.median(ms):.1f}"
                  f" / {p95:.1f}")
        if args.out:
            for rs in got["rows"].values():
                for r in rs.values():
                    r.pop("ranking", None)
            Path(args.out).write_text(json.dumps(got["rows"]))
        return
    got = run(args.data, configs, "main", sdopts, rmopts)
    rows = got["rows"]
    if args.rankings:
        bench = read_rankings(Path(args.rankings), "locomo")
        diff = [q for q, r in rows["main"].items() if bench.get(q) != r["ranking"]]
        print(f"rankings equal to the bench's: {len(rows['main']) - len(diff)} of "
              f"{len(rows['main'])} (differ: {diff[:5]})")
    report(rows["main"])
    print("variant | 1-4 | 1 | 2 | 3 | 4 | 5 | search CPU p50 / p95 ms")
    for name in configs:
        ms = sorted(1000 * x for x in got["cpu"][name])
        p95 = ms[int(0.95 * (len(ms) - 1))]
        print(f"{name} | {figures(rows[name])} | {statistics.median(ms):.1f} / {p95:.1f}")
    if args.out:
        for rs in rows.values():
            for r in rs.values():
                r.pop("ranking", None)
        Path(args.out).write_text(json.dumps(rows))


if __name__ == "__main__":
    try:
        main()
    except DatasetError as exc:  # a data or rankings file it cannot read: one line, exit 1
        raise SystemExit(f"error: {exc}") from None
