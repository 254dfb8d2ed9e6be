"""Session 29's reference class, from heldout25's misses: a number a thing of some kind is known
by, said with "is" or written in groups ("licence number is 3417 8852 06"), is a reference, the
number as written, as "employee number 40672" was (session 26)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.run import load_set, messages_of
from memlane.index.offline import OfflineIntelligence, _references


@settings(max_examples=80, deadline=None)
@given(kind=st.sampled_from(["licence", "employee", "juror", "Student", "patient", "Registration", "tenancy"]),
       number=st.from_regex(r"\A[1-9][0-9]{3,5}(?: [0-9]{2,4}){0,2}\Z"),
       said=st.sampled_from([" ", " is "]),
       end=st.sampled_from(["", ".", ", Stockport branch", " if you need it"]))
def test_a_number_after_its_kind_and_is_is_the_reference(kind, number, said, end):
    assert number in set(_references(f"my {kind} number{said}{number}{end}"))


@pytest.mark.parametrize("text", [
    "the serial number is 12 of them",  # too short to look up
    "my phone number is 0770-900461",  # a telephone, read as one (session 25)
    "the number is 4471",  # no kind
])
def test_what_is_no_kinds_number_is_still_not_read_as_one(text):
    assert not {r for r in _references(text) if r[:1].isdigit() and " " not in r}, list(_references(text))


@pytest.mark.parametrize("model", [None, "shipped"])
def test_heldout25_tv_licence_names_the_licence_number(model):
    conv = next(c for c in load_set("heldout25") if c.id == "h25-tv-licence-refund")
    summary = OfflineIntelligence(model).summarize(conv.id, messages_of(conv))[0]
    assert "3417 8852 06" in conv.expected["references"]
    assert "3417 8852 06" in summary.references, summary.references


@settings(max_examples=80, deadline=None)
@given(letters=st.from_regex(r"\A[A-Z]{2,5}\Z"), code=st.from_regex(r"\A[1-9][0-9]{2,6}[-/][0-9]{2,4}\Z"),
       said=st.sampled_from(["reference ", "Reference: ", "ref ", "the crime ref: "]),
       end=st.sampled_from(["", ".", ", on the top right", " if they ask"]))
def test_a_code_named_as_a_reference_keeps_its_letters_before_a_blank(letters, code, said, end):
    refs = set(_references(f"{said}{letters} {code}{end}"))
    assert f"{letters} {code}" in refs, refs


@pytest.mark.parametrize("model", [None, "shipped"])
def test_heldout25_electoral_roll_names_the_form_reference(model):
    conv = next(c for c in load_set("heldout25") if c.id == "h25-electoral-roll-registration")
    summary = OfflineIntelligence(model).summarize(conv.id, messages_of(conv))[0]
    assert "HEF 00412-77" in conv.expected["references"]
    assert "HEF 00412-77" in summary.references, summary.references


@settings(max_examples=80, deadline=None)
@given(stem=st.from_regex(r"\A[a-z][a-z0-9_-]{1,12}\Z"),
       inner=st.sampled_from(["conf", "test", "override", "d", "spec", "min", "local"]),
       ext=st.sampled_from(["py", "js", "ts", "yml", "json", "css", "toml"]),
       before=st.sampled_from(["edit ", "it's in ", "set timeout = 180 in ", "see "]),
       after=st.sampled_from(["", ".", ", timeout = 30", " and restart"]))
def test_a_file_name_with_a_part_before_its_extension_is_one_reference(stem, inner, ext, before, after):
    name = f"{stem}.{inner}.{ext}"
    refs = set(_references(f"{before}{name}{after}"))
    assert name in refs, refs
    assert f"{stem}.{inner}" not in refs, refs


def test_a_file_name_before_a_stop_keeps_its_own_extension():
    assert list(_references("edit main.py. then run it")) == ["main.py"]


@pytest.mark.parametrize("model", [None, "shipped"])
def test_heldout25_nginx_names_gunicorn_conf_py(model):
    conv = next(c for c in load_set("heldout25") if c.id == "h25-nginx-502-timeout")
    summary = OfflineIntelligence(model).summarize(conv.id, messages_of(conv))[0]
    assert "gunicorn.conf.py" in conv.expected["references"]
    assert "gunicorn.conf.py" in summary.references, summary.references
