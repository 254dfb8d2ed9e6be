"""``tools/bench_text_check.py`` (session 51): the matcher that finds benchmark text copied
into the repository. Every string here is made up for the test; none is benchmark text."""

from __future__ import annotations

import importlib.util
import json
import lzma
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).parents[2]

BENCH = [
    ("The lighthouse keeper painted seven blue herons on the garage door last spring.", "r1 D1:1"),
    ("Marguerite swapped her cello lessons for pottery after the flood in Tromsø.", "r2 question"),
    ("Route 9 closes at 4, 5, 6, 7, 8, 9, 10, 11 and 12 on weekdays.", "r3 D2:4"),
]


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_text_check_tool", ROOT / "tools" / "bench_text_check.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = tool  # its dataclass looks its module up by name
    spec.loader.exec_module(tool)
    return tool


def _found(hits, kind="run", n=8) -> list[tuple[str, int, str]]:
    return [(h.path, h.line, h.text) for h in hits[n if kind == "run" else "quote"]]


def test_a_run_of_eight_words_is_found_whatever_its_case_punctuation_and_wrapping() -> None:
    tool = _tool()
    doc = ("# Notes\n\nA miss: the question where THE LIGHTHOUSE keeper painted seven\n"
           "blue herons -- on the garage door, ranked 14th.\n")
    hits = tool.scan({"docs/notes.md": doc}, BENCH, sizes=(8,))
    assert _found(hits) == [("docs/notes.md", 3, "THE LIGHTHOUSE keeper painted seven blue herons -- on the garage door")]
    assert hits[8][0].source == "r1 D1:1" and hits[8][0].spread == 1


def test_seven_words_are_no_run_of_eight_and_a_run_reworded_is_none() -> None:
    tool = _tool()
    doc = ("the lighthouse keeper painted seven blue herons, then stopped\n"
           "a keeper of a lighthouse drew birds on a door\n")
    assert tool.scan({"a.md": doc}, BENCH, sizes=(8,))[8] == []
    assert len(tool.scan({"a.md": doc}, BENCH, sizes=(6,))[6]) == 1


def test_a_quoted_span_of_five_words_is_found_and_the_same_words_unquoted_are_not() -> None:
    tool = _tool()
    doc = 'She asked “swapped her cello lessons for pottery”.\nswapped her cello lessons for pottery\n'
    hits = tool.scan({"a.md": doc}, BENCH, sizes=(8,))
    assert _found(hits, "quote") == [("a.md", 1, "swapped her cello lessons for pottery")]
    assert hits[8] == []
    # four words quoted are too few; a quote the benchmark does not hold in order is none
    assert tool.scan({"a.md": '"her cello lessons for" and "pottery for cello lessons her"'}, BENCH)["quote"] == []


def test_python_code_is_not_read_its_comments_and_string_literals_are() -> None:
    tool = _tool()
    source = (
        "def lighthouse(keeper, painted, seven, blue, herons, on, the, garage, door):\n"
        "    return keeper  # painted seven blue herons on the garage door last\n"
        "TEXT = ('the lighthouse keeper painted seven '\n"
        "        'blue herons on the garage door')\n"
        'PAIR = ["seven blue herons on the", "garage door last spring"]\n'
        'ASKS = ["Swapped her cello lessons for pottery?", "SWAPPED HER CELLO LESSONS FOR POTTERY"]\n'
    )
    hits = tool.scan({"src/x.py": source}, BENCH, sizes=(8,))
    assert [(line, text) for _path, line, text in _found(hits)] == [
        (2, "painted seven blue herons on the garage door last"),
        (3, "the lighthouse keeper painted seven ' 'blue herons on the garage door"),
    ]  # the signature is code; the list's two literals are read apart
    # each literal is a quoted span of its own (of four words, too short; in capitals alone, a
    # heading, no text)
    assert {(h.line, h.text) for h in hits["quote"]} == {
        (3, "the lighthouse keeper painted seven"), (4, "blue herons on the garage door"),
        (5, "seven blue herons on the"), (6, "Swapped her cello lessons for pottery")}


def test_a_run_of_numbers_is_no_text_and_a_phrase_many_strings_hold_is_left_out_by_common() -> None:
    tool = _tool()
    assert tool.scan({"t.md": "5, 6, 7, 8, 9, 10, 11 and 12 on weekdays"}, BENCH, sizes=(8,))[8] == []
    # a title is a name: "The Keeper of the Blue Herons" is no text, the sentence naming it is
    titled = [("He read The Keeper of the Blue Herons on the Garage Door twice.", "t1")]
    assert tool.scan({"t.md": 'the novel "The Keeper of the Blue Herons"'}, titled)["quote"] == []
    assert len(tool.scan({"t.md": '"read The Keeper of the Blue Herons"'}, titled)["quote"]) == 1
    many = [(f"{start} we painted seven blue herons on the garage door {i}", f"m{i}")
            for i, start in enumerate(("Then", "So", "And"))]
    doc = "we painted seven blue herons on the garage door\n"
    assert len(tool.scan({"t.md": doc}, many, sizes=(8,))[8]) == 1
    assert tool.scan({"t.md": doc}, many, sizes=(8,))[8][0].spread == 3
    assert tool.scan({"t.md": doc}, many, sizes=(8,), common=2)[8] == []


def test_the_command_reads_both_benchmarks_skips_the_labelled_sets_and_exits_1_on_a_hit(tmp_path, capsys) -> None:
    tool = _tool()
    lme = [{"question_id": "q1", "question": "Which harbour did the ferry leave from on the first foggy morning?",
            "answer": "North", "haystack_session_ids": ["s1"],
            "haystack_sessions": [[{"role": "user", "content": BENCH[0][0]}]]}]
    with lzma.open(tmp_path / "lme.json.xz", "wt", encoding="utf-8") as fh:
        json.dump(lme, fh)
    locomo = [{"sample_id": "conv-1", "qa": [{"question": BENCH[1][0], "answer": "pottery", "category": 1}],
               "conversation": {"speaker_a": "A", "speaker_b": "B",
                                "session_1": [{"speaker": "A", "dia_id": "D1:1", "text": BENCH[2][0],
                                               "blip_caption": "a photo of a red kite tangled in an old oak tree"}]},
               "observation": {}, "session_summary": {}, "event_summary": {}}]
    (tmp_path / "locomo.json").write_text(json.dumps(locomo))
    root = tmp_path / "repo"
    (root / "docs").mkdir(parents=True)
    (root / "README.md").write_text("memlane\n")
    labelled = root / "src" / "memlane" / "bench" / "summaries"
    labelled.mkdir(parents=True)
    (labelled / "dev.json").write_text(json.dumps([BENCH[0][0]]))
    (root / "src" / "memlane" / "weights.bin").write_bytes(b"\0" + BENCH[0][0].encode())
    data = ["--data", str(tmp_path / "lme.json.xz"), "--data", str(tmp_path / "locomo.json")]

    (root / "docs" / "a.md").write_text("Intro.\nThe ferry question (q1) and conv-1's D1:1, told in our words.\n")
    assert tool.main([*data, "--root", str(root)]) == 0
    (root / "docs" / "a.md").write_text("Intro.\nA caption: a photo of a red kite tangled in an old oak.\n")
    assert tool.main([*data, "--root", str(root)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("docs/a.md:2: run of 11 words [conv-1 D1:1 blip_caption] ")
    assert out.rstrip().endswith(": a photo of a red kite tangled in an old oak")
    assert "summaries" not in out and "weights" not in out
    assert tool.main([*data, "--root", str(root), "--words", "12"]) == 0
    # a hit looked at and kept is named by its path and key, with no text
    key = out.split("] ", 1)[1].split(":", 1)[0]
    assert len(key) == 12 and "kite" not in key
    (root / "tools").mkdir()
    (root / "tools" / "bench_text_check.accept").write_text(f"# chance\ndocs/a.md {key}  # a caption alike\n")
    assert tool.main([*data, "--root", str(root)]) == 0
    (root / "tools" / "bench_text_check.accept").write_text(f"docs/b.md {key}\n")  # another file's
    assert tool.main([*data, "--root", str(root)]) == 1
