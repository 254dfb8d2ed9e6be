"""Session 45's reference classes (docs/summary-eval.md, "Session 45: heldout40's open questions and
references read (oqr45)"): a command quoted as code, a program and what it is given."""

import pytest

from memlane.index.offline import _references
from memlane.testing import offline_summary


@pytest.mark.parametrize(("text", "command"), [
    ("Start it with `tmux new -s upgrade` and detach.", "tmux new -s upgrade"),
    ("What does `ss -ltnp` say about port 8080?", "ss -ltnp"),
    ("Then run `python scripts/reindex.py` once more.", "python scripts/reindex.py"),
    ("Pipe it through `tee upgrade.log` to keep a copy.", "tee upgrade.log"),
    ("Add a `shopctl export` subcommand later.", "shopctl export"),
])
def test_a_program_given_a_flag_a_path_or_a_file_quoted_as_code_is_a_reference(text, command):
    found = set(_references(text))
    assert command in found, found


@pytest.mark.parametrize("text", [
    "Run `poetry lock` again.",  # words a dictionary spells, nothing given: no command to look up
    "The log says `error: linker failed` twice.",  # a label, not a program
    "Write `const limit = 5` at the top.",  # a declaration
    "Try `grep -rl TODO src | wc -l` for a count.",  # a pipe: more than one command
    "Use `count == 1 ? one : other` in the template.",
])
def test_code_that_is_no_single_command_is_no_reference(text):
    assert not [r for r in _references(text) if " " in r], list(_references(text))


@pytest.mark.parametrize("model", [None, "shipped"])
def test_a_command_and_the_files_it_is_given_are_references_each(model):
    summary, _ = offline_summary(
        "user: How do I shrink the recital video for my dad?",
        "assistant: Re-encode it: `ffmpeg -i recital.mp4 -crf 26 recital_small.mp4` keeps it watchable.",
        "user: Great, I'll run that tonight and send recital_small.mp4 over.", model=model)
    assert "ffmpeg -i recital.mp4 -crf 26 recital_small.mp4" in summary.references, summary.references
    assert {"recital.mp4", "recital_small.mp4"} <= set(summary.references), summary.references


@pytest.mark.parametrize(("text", "column"), [
    ("Audit says members.home_address is stored in clear.", "members.home_address"),
    ("a few nulls in invoices.paid_at, that's fine", "invoices.paid_at"),
    ("It sits behind the setting search.max_results_per_page now.", "search.max_results_per_page"),
])
def test_a_name_dotted_to_an_underscored_name_is_a_reference(text, column):
    assert column in set(_references(text)), list(_references(text))


@pytest.mark.parametrize("text", [
    "pandas.read_csv chokes on the file",  # a library's function
    "then pl.scan_parquet both files",  # an alias's function
    "we format it with fmt(row.created_at) in the view",  # inside code's brackets
    "call client.get_rates() first",  # a call
])
def test_a_librarys_function_or_code_is_no_dotted_column(text):
    assert not [r for r in _references(text) if "." in r and "_" in r], list(_references(text))


@pytest.mark.parametrize("model", [None, "shipped"])
def test_a_service_named_by_its_short_suffix_is_a_reference(model):
    summary, _ = offline_summary(
        "Ines: Yesterday's outage: billing-svc waited on ledger-svc for ten minutes with no timeout.",
        "Theo: Then every call between them gets a two second deadline. I'll add it tomorrow.", model=model)
    assert {"billing-svc", "ledger-svc"} <= set(summary.references), summary.references


@pytest.mark.parametrize("text", [
    "The club still allows i.c. boats on the lake.",
    "It runs on a.c. power only.",
])
def test_initials_with_their_dots_are_no_file(text):
    assert list(_references(text)) == []


def test_a_one_letter_file_is_still_a_file():
    assert "x.c" in set(_references("compile x.c with the old flags"))
