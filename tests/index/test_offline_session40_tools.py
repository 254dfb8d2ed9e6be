"""Session 40's lower-case tools (docs/summary-eval.md, "Session 40: lower-case tools (ent40b)"),
on conversations written for these tests, with the patterns alone and with the shipped sentence
model."""

import pytest

from memlane.index.englishwords import is_english_word
from memlane.index.offline import _SOFTWARE_ANY, _may_name_software
from memlane.index.software import SOFTWARE
from memlane.index.software_words import SOFTWARE_WORDS, TOOLS
from memlane.testing import offline_names

MODELS = ("shipped", None)


@pytest.mark.parametrize("model", MODELS)
def test_a_well_known_tool_written_in_lower_case_is_a_name(model):
    names = offline_names(
        "Priya: nginx returns 413 on the upload, and the staging certs come from cert-manager.",
        "Oskar: the nightly rsync job runs pg_dump first; switch the CI cache from npm to pnpm.",
        model=model,
    )
    assert {"nginx", "cert-manager", "rsync", "pg_dump", "npm", "pnpm"} <= names


@pytest.mark.parametrize("model", MODELS)
def test_a_tools_name_inside_a_path_a_flag_or_a_longer_word_is_no_name(model):
    names = offline_names(
        "Priya: the file is /etc/nginx/nginx.conf and the flag is --rsync-path with my_pg_dump_wrapper.",
        "Oskar: the helper is called nginxctl and the key is npm_token.",
        model=model,
    )
    assert not {"nginx", "rsync", "pg_dump", "npm", "nginxctl"} & names


def test_the_tools_list_holds_no_english_word_nor_a_package_listed_already():
    assert all(not is_english_word(n) for n in TOOLS)
    assert all(len(n) > 2 for n in TOOLS)
    assert not TOOLS & (SOFTWARE | SOFTWARE_WORDS)
    assert TOOLS <= _SOFTWARE_ANY


@pytest.mark.parametrize("sentence, expected", [
    ("we run pg_dump nightly", True),
    ("the job calls my_pg_dump today", False),
    ("nginx is fine", True),
    ("the upload is fine", False),
])
def test_the_sentence_prefilter_sees_names_joined_by_an_underscore(sentence, expected):
    assert _may_name_software(sentence) is expected
