"""Session 39's reference classes from heldout35's misses (docs/summary-eval.md, "Session 39:
heldout35's references (ref39b)"): a git repository's SSH address, a path on a Windows network
share, a path under a hidden directory, a standard, a type's member. Each class found in sentences
of its own is in ``test_offline_references_found.py`` (session 41); here what each must not read,
and each in a conversation."""

import pytest

from memlane.index.offline import _references
from memlane.testing import offline_summary


@pytest.mark.parametrize("text", [
    "mail git@github.com about it",  # an e-mail address, no repository
    "rsync to you@192.168.1.40:/volume1/backup/photos/ tonight",  # a copy's target, not git's
    "meet at 10:30, git@ home",
])
def test_no_repository_address_without_git_and_a_path(text):
    assert not any(r.startswith(("git@", "you@")) and ":" in r for r in _references(text)), list(_references(text))


@pytest.mark.parametrize("text", [
    "we moved from .NET/Java to Go",  # platforms, not a directory
    "url = ../shared-schemas.git",  # a relative path up, read by the path pattern as before
    "well.../etc is where it lives",
])
def test_no_hidden_path_in_names_or_relative_paths(text):
    assert not any(r.startswith(".") and not r.startswith("..") for r in _references(text)), list(_references(text))


@pytest.mark.parametrize("model", [None, "shipped"])
def test_a_conversations_remote_share_and_hidden_paths_are_its_references(model):
    summary, _ = offline_summary(
        "Ana: CI fails: clone of 'git@github.com:acme/shared-schemas.git' into submodule path failed",
        "Ben: Run git submodule sync so your .git/config picks up the new URL",
        r"Ana: And the stock workbook is on \\fileserver\stock\counts\StockCount_v3.xlsm",
        r"Ben: Add \\fileserver\stock\counts as a trusted location then", model=model)
    refs = set(summary.references)
    assert {"git@github.com:acme/shared-schemas.git", ".git/config",
            r"\\fileserver\stock\counts\StockCount_v3.xlsm", r"\\fileserver\stock\counts"} <= refs, refs
    # the address's parts are not references of their own
    assert not {"git@github.com", "acme/shared-schemas.git"} & refs, refs


@pytest.mark.parametrize("text", [
    "I shot it at ISO 800, then ISO 3200 indoors",  # a camera's sensitivity
    "grab the BS 12 bus",  # too short a number for a standard
    "the ISO 9001ish feel of it",
])
def test_a_cameras_sensitivity_or_a_short_number_is_no_standard(text):
    assert not any(r.startswith(("ISO", "BS")) for r in _references(text)), list(_references(text))


@pytest.mark.parametrize("model", [None, "shipped"])
def test_the_standards_a_conversation_names_are_among_its_references(model):
    summary, _ = offline_summary(
        "Mo: The tyre place says a plug repair is only allowed under BS AU 159",
        "Jo: And the kettle manual has to follow EN 60335 wording",
        "Mo: I'll ring them tomorrow", model=model)
    assert {"BS AU 159", "EN 60335"} <= set(summary.references), summary.references


@pytest.mark.parametrize("text", [
    "met Mr.McGregor. He was fine",  # a title and a name
    "order from Amazon.co.uk or Ebay.com",  # hosts
    "then call Foo.barBaz() again",  # a call with its brackets
    "it lives in my.appName too",  # no type before the dot
])
def test_no_member_in_hosts_names_or_calls(text):
    assert not any("." in r and r[:1].isupper() and any(c.isupper() for c in r.split(".", 1)[1])
                   for r in _references(text)), list(_references(text))
