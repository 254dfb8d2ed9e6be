"""Optional answer-quality mode: read the packed context with an LLM, then judge it.

``--answer SERVICE`` asks a configured OpenAI-compatible model to answer each question
from memlane's pack of its haystack; ``--judge SERVICE`` grades the answer against the
reference the way LongMemEval's judge does, with one instruction per question type
(written here in our own words). Both are off by default and need a user's endpoint.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from memlane.backends.llm.base import strip_reasoning
from memlane.backends.llm.errors import LLMError

if TYPE_CHECKING:
    from memlane.memory import Memory

__all__ = ["QARecorder", "answer_prompt", "judge_prompt", "parse_verdict"]

ANSWER_SYSTEM = (
    "You answer a user's question about their past conversations with an assistant. "
    "Use only the memory context given. If the context does not contain the answer, say "
    "that you do not know. Be concise."
)

_JUDGE_RULES = {
    "default": (
        "Say yes if the response contains the correct answer or an equivalent of it, including "
        "all of its necessary parts; a response that only gives part of the answer, or a wrong "
        "answer, is a no."
    ),
    "temporal-reasoning": (
        "Say yes if the response contains the correct answer. Do not penalise an off-by-one "
        "error in a count of days, weeks or months (for example 18 days against 19)."
    ),
    "knowledge-update": (
        "Say yes if the response gives the updated, current answer, even if it also mentions "
        "an earlier value that has since changed."
    ),
    "single-session-preference": (
        "The reference is a rubric of what a personalised response should take into account. "
        "Say yes if the response recalls and uses the user's personal information as the "
        "rubric describes; it need not cover every point."
    ),
    "abstention": (
        "The question cannot be answered from the conversations. Say yes if the response says "
        "the information is not available or that it cannot answer."
    ),
}


def answer_prompt(question: str, question_date: datetime, context: str) -> list[dict[str, str]]:
    return [
        {"role": "system", "content": ANSWER_SYSTEM},
        {"role": "user", "content": (
            f"Memory context:\n{context or '(empty)'}\n\n"
            f"Today is {question_date:%Y-%m-%d (%A)}.\nQuestion: {question}\nAnswer:"
        )},
    ]


def judge_prompt(qtype: str, question: str, reference: str, response: str,
                 abstention: bool = False) -> list[dict[str, str]]:
    rule = _JUDGE_RULES["abstention" if abstention else qtype] if (
        abstention or qtype in _JUDGE_RULES) else _JUDGE_RULES["default"]
    return [
        {"role": "system", "content": "You grade answers. Reply with yes or no only."},
        {"role": "user", "content": (
            f"{rule}\n\nQuestion: {question}\nCorrect answer: {reference}\n"
            f"Response: {response}\n\nIs the response correct? Answer yes or no."
        )},
    ]


_VERDICT = re.compile(
    r"[\s*_#>`\"'(\[]*(?:(?:final\s+)?(?:answer|verdict|judg(?:e)?ment|grade)\s*[:=\-]"
    r"[\s*_`\"'(\[]*)?yes\b", re.IGNORECASE)


def parse_verdict(reply: str) -> bool:
    """``yes`` → True; anything else → False (a judge that cannot decide did not say yes).

    A reasoning model's ``<think>...</think>`` is dropped first (a judge through Ollama or
    vLLM answers ``<think>…</think> yes``), then markdown and a label (``**Answer:** yes``)
    before the word; ``yes`` must be a word (``Yesterday…`` is not a verdict)."""
    return _VERDICT.match(strip_reasoning(reply)) is not None


@dataclass
class QARecorder:
    """Answers (and verdicts) per question, written to ``answers.jsonl``."""

    answer_llm: Any
    judge_llm: Any = None
    budget: int = 2000
    rows: list[dict[str, Any]] = field(default_factory=list)
    max_failures_in_a_row: ClassVar[int] = 5
    """An endpoint failing this many questions in a row is down: the run stops, keeping
    what was answered (one question the endpoint refuses is recorded and the run goes on)."""
    _in_a_row: int = field(default=0, init=False, repr=False)

    def __call__(self, mem: Memory, q: Any, now: datetime, scope: str | None = None) -> None:
        pack = mem.pack(q.question, self.budget, scope=scope, now=now, include_recent=False)
        row: dict[str, Any] = {"question_id": q.question_id, "question_type": q.question_type}
        try:
            # a reasoning model's <think> block is no part of its answer (nor shown to the judge)
            hypothesis = strip_reasoning(
                self.answer_llm.complete(answer_prompt(q.question, q.question_date, pack.text)))
        except LLMError as exc:
            return self._failed(row, "answer_error", exc)
        row.update(hypothesis=hypothesis, pack_tokens=pack.used)
        if self.judge_llm is not None:
            try:
                verdict = self.judge_llm.complete(judge_prompt(
                    q.question_type, q.question, str(q.answer), hypothesis, q.is_abstention))
            except LLMError as exc:
                return self._failed(row, "judge_error", exc)
            row["correct"] = parse_verdict(verdict)
        self._in_a_row = 0
        self.rows.append(row)

    def _failed(self, row: dict[str, Any], key: str, exc: LLMError) -> None:
        row[key] = str(exc)
        self.rows.append(row)
        self._in_a_row += 1
        if self._in_a_row >= self.max_failures_in_a_row:
            raise LLMError(f"{self._in_a_row} questions in a row failed, the endpoint looks "
                           f"down; the last: {exc}") from exc

    def summary(self) -> dict[str, Any]:
        judged = [r for r in self.rows if "correct" in r]
        by_type: dict[str, list[bool]] = defaultdict(list)
        for r in judged:
            by_type[r["question_type"]].append(r["correct"])
        return {
            "answered": sum("hypothesis" in r for r in self.rows),
            "judged": len(judged),
            "failed": sum("answer_error" in r or "judge_error" in r for r in self.rows),
            "accuracy": round(sum(r["correct"] for r in judged) / len(judged), 3) if judged else None,
            "accuracy_by_type": {t: round(sum(v) / len(v), 3) for t, v in sorted(by_type.items())},
            "answer_model": getattr(self.answer_llm, "name", "?"),
            "judge_model": getattr(self.judge_llm, "name", None),
        }

    def write(self, out: Path) -> None:
        with open(out / "answers.jsonl", "w", encoding="utf-8") as fh:
            fh.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in self.rows)
