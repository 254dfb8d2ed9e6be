"""heldout29's two second labellings: they pair with the set, and the agreement table of
docs/summary-eval.md is what `--against` computes from the files that ship."""

from pathlib import Path

import pytest

from memlane.bench.summaries import run
from memlane.bench.summaries.run import load_set, score_labelling

ROOT = Path(__file__).resolve().parents[2]
SECOND = Path(run.__file__).parent / "second"
FIELD_NAMES = {"decisions": "decisions", "rationale": "rationale",
               "open questions": "open_questions", "next steps": "next_steps",
               "references": "references", "entities": "entities", "topics": "topics",
               "facts": "facts"}


def _table() -> dict[str, list[float]]:
    """The heldout29 section's rows: field -> [writer-a, writer-b, a-b, mean]."""
    text = (ROOT / "docs" / "summary-eval.md").read_text(encoding="utf-8")
    section = text.split("## Session 32: heldout29, measured once", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip().strip("*") for c in line.strip().strip("|").split("|")]
        if len(cells) == 8 and cells[0] in FIELD_NAMES:
            rows[FIELD_NAMES[cells[0]]] = [float(c) for c in cells[3:7]]
    return rows


def _f1(reference: str | Path, other: Path) -> dict[str, float]:
    ref = load_set("heldout29") if reference == "heldout29" else load_set(path=reference)
    (report,) = score_labelling([("ref", ref)], load_set(path=other), label=other.name)
    return {name: score.to_dict()["f1"] for name, score in report.fields.items()}


def test_the_second_labellings_label_heldout29s_conversations() -> None:
    ids = [c.id for c in load_set("heldout29")]
    for name in ("heldout29-a.json", "heldout29-b.json"):
        other = load_set(path=SECOND / name)
        assert [c.id for c in other] == ids, name
        assert all(c.expected.get("decisions") is not None for c in other), name


def test_the_agreement_table_is_what_the_files_give() -> None:
    table = _table()
    assert set(table) == set(FIELD_NAMES.values())
    a, b = SECOND / "heldout29-a.json", SECOND / "heldout29-b.json"
    pairs = [_f1("heldout29", a), _f1("heldout29", b), _f1(a, b)]
    for name, row in table.items():
        got = [p[name] for p in pairs]
        assert row[:3] == pytest.approx(got, abs=5e-4), name
        assert row[3] == pytest.approx(sum(got) / 3, abs=5e-4), name
